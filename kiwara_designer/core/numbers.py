"""Text to whole numbers, by pattern and range, for every place where input text becomes a number.

``int()`` alone accepts ``"٣"`` and ``"1_000"``, and past 4,300 digits raises a ValueError that is
no :class:`KiwaraError` (a traceback); here the digits are checked first and only a number of
at most as many digits as the upper bound is converted.
"""
from __future__ import annotations

import re

from .errors import KiwaraError

_WHOLE = re.compile(r"[0-9]+")


def shorten(text: str, limit: int = 24) -> str:
    """``text``, or its start and how long it is when longer than ``limit`` characters (so a
    message quoting a 5,000-digit number stays one readable line)."""
    return text if len(text) <= limit else f"{text[:limit - 4]}… ({len(text):,} characters)"


def parse_whole(text: str, low: int, high: int, what: str) -> int:
    """The whole number ``text`` (ASCII digits only) if it lies in ``low..high``; otherwise a
    :class:`KiwaraError` saying ``what`` it should have been."""
    digits = text.strip()
    if not _WHOLE.fullmatch(digits):
        raise KiwaraError(f"{what} must be a whole number, got {shorten(digits)!r}")
    stripped = digits.lstrip("0") or "0"
    if len(stripped) > len(str(high)) or not low <= int(stripped) <= high:
        raise KiwaraError(f"{what} must be between {low} and {high}, got {shorten(stripped)}")
    return int(stripped)


def parse_whole_list(text: str, low: int, high: int, what: str) -> tuple[int, ...]:
    """``"3,5,7"`` → (3, 5, 7), each by :func:`parse_whole`; an empty item (``"3,,5"``, a
    trailing comma) or an empty list is a :class:`KiwaraError`, not silently skipped."""
    items = text.split(",")
    if not text.strip():
        raise KiwaraError(f"{what} must not be empty")
    if any(not item.strip() for item in items):
        raise KiwaraError(f"{what} {shorten(text)!r} has an empty item: give whole numbers "
                          f"separated by single commas, e.g. 3,5,7")
    bad = next((item for item in items if not _WHOLE.fullmatch(item.strip())), None)
    if bad is not None:
        raise KiwaraError(f"{what} must be whole numbers separated by commas, got "
                          f"{shorten(bad.strip())!r}")
    return tuple(parse_whole(item, low, high, f"each of {what}") for item in items)


def describe_value(value: object) -> str:
    """A value read from JSON or TOML as the file spells it, and what kind it is when that is
    not plain: ``"6" (text)``, ``true (true/false)``, ``[1, 2] (a list)``."""
    import json

    try:
        spelled = shorten(json.dumps(value, ensure_ascii=False), 40)
    except (TypeError, ValueError):     # not a JSON value (a TOML date, a Python object)
        spelled = shorten(str(value), 40)
    kind = ("text" if isinstance(value, str) else "true/false" if isinstance(value, bool)
            else "a list" if isinstance(value, list) else "a table" if isinstance(value, dict)
            else "a decimal number" if isinstance(value, float) else None)
    return spelled if kind is None else f"{spelled} ({kind})"


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """``"1 move"``, ``"2 moves"``, ``"1,000 layouts"``: the count and the noun agreeing."""
    return f"{count:,} {noun if count == 1 else (nouns or noun + 's')}"
