"""Checking the values a request carries (a web page's JSON fields, a notebook's arguments): each
by type and range, refused with a :class:`RequestError` that says in words what is wrong. The
studio and each game's studio part check their fields with these. A refusal repeats a value only
where that is harmless: a typed move could name a card the person does not see, so
``echo=False`` leaves it out."""
from __future__ import annotations

import random
import re
from typing import Any, Iterable

from .errors import KiwaraError

SEED_LIMIT = 2 ** 63           # the records' seeds are below this
MAX_TEXT = 20_000              # pasted layouts and loaded records, in characters


class RequestError(KiwaraError):
    """A request that cannot be honoured, said in words."""


def describe(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "…"


def need_text(value: Any, what: str, max_length: int = 200, pattern: str | None = None,
              echo: bool = True) -> str:
    """``value`` if it is text of at most ``max_length`` characters (matching ``pattern``).
    ``echo=False`` leaves the value out of the refusal: a typed move could name a card the
    person does not see, and an answer must never repeat it."""
    shown = f", got {describe(value)}" if echo else ""
    if not isinstance(value, str):
        raise RequestError(f"{what} must be text{shown}")
    if len(value) > max_length:
        raise RequestError(f"{what} is {len(value):,} characters long; at most {max_length:,}")
    if pattern is not None and not re.fullmatch(pattern, value):
        raise RequestError(f"{what}: {describe(value) if echo else 'the text'} is not of the "
                           f"form {pattern}")
    return value


def need_int(value: Any, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RequestError(f"{what} must be a whole number, got {describe(value)}")
    if not low <= value <= high:
        raise RequestError(f"{what} must be from {low:,} to {high:,}, got {value:,}")
    return value


def need_number(value: Any, what: str, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        raise RequestError(f"{what} must be a number, got {describe(value)}")
    if not low <= value <= high:
        raise RequestError(f"{what} must be from {low:g} to {high:g}, got {value:g}")
    return float(value)


def need_bool(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise RequestError(f"{what} must be true or false, got {describe(value)}")
    return value


def need_choice(value: Any, what: str, choices: Iterable[str]) -> str:
    choices = list(choices)
    if not isinstance(value, str) or value not in choices:
        raise RequestError(f"{what}: unknown {describe(value)}; one of {', '.join(choices)}")
    return value


def seed_or_new(seed: Any) -> int:
    """The request's seed, or a new one (printed back, so the result can be had again). Only
    for what a seed cannot spoil: a game with chance or hidden cards has a secret one (the
    studio's ``session_seed``)."""
    if seed is None:
        return random.SystemRandom().randrange(1_000_000)
    return need_int(seed, "seed", 0, SEED_LIMIT - 1)
