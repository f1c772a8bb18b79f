"""Checking what a request carries: each field by type and range, an unknown field named as an
error, and a :class:`StudioError` (a :class:`~kiwara_designer.core.errors.KiwaraError`) that
says in words what is wrong. A refusal repeats a value only where that is harmless: a typed move
could name a card the person does not see, so ``echo=False`` leaves it out."""
from __future__ import annotations

import inspect
import random
import re
from typing import Any, Callable, Iterable

from ..core.errors import KiwaraError

SEED_LIMIT = 2 ** 63           # the records' seeds are below this
MAX_TEXT = 20_000              # pasted layouts and loaded records, in characters


class StudioError(KiwaraError):
    """A request the studio cannot honour, said in words."""


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
        raise StudioError(f"{what} must be text{shown}")
    if len(value) > max_length:
        raise StudioError(f"{what} is {len(value):,} characters long; at most {max_length:,}")
    if pattern is not None and not re.fullmatch(pattern, value):
        raise StudioError(f"{what}: {describe(value) if echo else 'the text'} is not of the "
                          f"form {pattern}")
    return value


def need_int(value: Any, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise StudioError(f"{what} must be a whole number, got {describe(value)}")
    if not low <= value <= high:
        raise StudioError(f"{what} must be from {low:,} to {high:,}, got {value:,}")
    return value


def need_number(value: Any, what: str, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        raise StudioError(f"{what} must be a number, got {describe(value)}")
    if not low <= value <= high:
        raise StudioError(f"{what} must be from {low:g} to {high:g}, got {value:g}")
    return float(value)


def need_bool(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise StudioError(f"{what} must be true or false, got {describe(value)}")
    return value


def need_choice(value: Any, what: str, choices: Iterable[str]) -> str:
    choices = list(choices)
    if not isinstance(value, str) or value not in choices:
        raise StudioError(f"{what}: unknown {describe(value)}; one of {', '.join(choices)}")
    return value


def seed_or_new(seed: Any) -> int:
    """The request's seed, or a new one (printed back, so the result can be had again). Only
    for what a seed cannot spoil: a game with chance or hidden cards has a secret one
    (:func:`.sessions.session_seed`)."""
    if seed is None:
        return random.SystemRandom().randrange(1_000_000)
    return need_int(seed, "seed", 0, SEED_LIMIT - 1)


def call_with_fields(function: Callable, fields: dict, listed: Iterable[str] = ()) -> Any:
    """``function(**fields)`` once every field is one of its parameters (a typo in a field name
    is an error, not silently ignored); ``listed``: more field names the refusal lists (those
    a caller took before). A field's name is repeated only if it looks like one (lowercase
    letters): no answer echoes other text a request carries, such as a card name. A function
    taking ``**fields`` checks the rest itself."""
    parameters = inspect.signature(function).parameters
    named = {name: p for name, p in parameters.items()
             if p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)}
    takes_more = any(p.kind is p.VAR_KEYWORD for p in parameters.values())
    unknown = [name for name in fields if name not in named]
    if unknown and not takes_more:
        shown = f" {unknown[0]!r}" if re.fullmatch(r"[a-z_]{1,40}", unknown[0]) else ""
        raise StudioError(f"unknown field{shown}; fields: {', '.join([*listed, *named])}")
    missing = [name for name, p in named.items()
               if p.default is inspect.Parameter.empty and name not in fields]
    if missing:
        raise StudioError(f"missing field {missing[0]!r}")
    return function(**fields)
