"""Rules variants: every default of the rules reference as one named, validated parameter.

A variant file is a flat TOML table of ``name = value`` lines for the parameters that differ from
the classic defaults (``crocodile_swaps = 0``); ``name`` is optional and defaults to the file stem.
Built-in variants live in ``kiwara_designer/variants/*.toml`` and can be named instead of a file.
"""
from __future__ import annotations

import difflib
import sys
import tomllib
from dataclasses import dataclass, field, fields
from importlib import resources
from pathlib import Path
from typing import Any

from ..core.io import STDIN, InputError, is_builtin_name, read_text, source_label
from ..errors import KiwaraError
from ..numbers import describe_value
from .cards import Card, deck_problem, resolve_deck, to_card

BUILTIN_VARIANTS = "kiwara_designer.variants"
MAX_VARIANT_BYTES = 1_000_000
MAX_TOTEM_STEP = 1000          # far beyond the 250 positions of the largest (26 × 99) board

# Animal kinds in notation order: zebra, gazelle, elephant, lion, crocodile.
KINDS = ("Z", "G", "E", "L", "C")
KIND_NAMES = ("zebra", "gazelle", "elephant", "lion", "crocodile")


class VariantError(KiwaraError):
    """A variant file or table that cannot be used: names the source, the key and the reason."""


@dataclass(frozen=True)
class RuleVariant:
    """The rules of one game of Kiwara. ``RuleVariant()`` is the classic game.

    Two variants are equal when their rules are equal, whatever they are called.
    """

    name: str = field(default="classic", compare=False)
    # Material: tokens per player and points of each face-up token.
    zebra_tokens: int = 5
    gazelle_tokens: int = 6
    elephant_tokens: int = 1
    lion_tokens: int = 1
    crocodile_tokens: int = 2
    zebra_points: int = 6
    gazelle_points: int = 2
    elephant_points: int = 5
    lion_points: int = 1
    crocodile_points: int = 0
    # The totem moves totem_min_step .. totem_max_step positions after a placement, in the
    # totem_direction: "clockwise" (p to p + k) or "anticlockwise" (p to p - k; stone numbers stay).
    totem_min_step: int = 1
    totem_max_step: int = 3
    totem_direction: str = "clockwise"
    # Crocodile: 0 never swaps, 1 at most one swap, "chain" as many as wanted (each gazelle once).
    crocodile_swaps: int | str = "chain"
    crocodile_swap_needs_river: bool = True     # the gazelle must sit across a river
    # Lion: effects of placing one, and whether rivers shield the cells next to it.
    lion_gazelles_flee: bool = True
    lion_flips_zebras: bool = True
    lion_blocked_by_rivers: bool = False
    face_down_next_to_lion: bool = True          # zebra or gazelle placed next to a lion
    swapped_gazelle_face_down_next_to_lion: bool = True
    # Scoring.
    okapi_points: int = 5
    territory_tie: str = "nobody"                # "nobody" or "both" score a tied territory
    # Which player places first after the first player's opening totem move: "second" or "first".
    first_placer: str = "second"
    # Reinforcement: "okapi" (the Okapi alone, okapi_points) or "deck" (the first full territory
    # draws the top card of the shuffled deck; handicap = cards dealt to each player at setup).
    reinforcement: str = "okapi"
    deck: str | tuple[Card, ...] = "sample"     # a built-in deck name or the cards, top first
    handicap: tuple[int, int] = (0, 0)

    def __post_init__(self) -> None:
        for f in fields(self):
            problem = _check_value(f.name, getattr(self, f.name), f.default)
            if problem:
                raise VariantError(f"{f.name}: {problem}")
        # Lists from TOML or JSON become tuples, so that a variant stays hashable.
        if not isinstance(self.deck, str):
            object.__setattr__(self, "deck", tuple(to_card(c) for c in self.deck))
        object.__setattr__(self, "handicap", tuple(self.handicap))
        if any(self.handicap) and self.reinforcement != "deck":
            raise VariantError(f"handicap: {list(self.handicap)} deals cards, which needs "
                               f'reinforcement = "deck"')
        if sum(self.handicap) > len(self.cards):
            raise VariantError(f"handicap: {list(self.handicap)} deals {sum(self.handicap)} cards, "
                               f"the deck has {len(self.cards)}")
        if self.totem_min_step > self.totem_max_step:
            raise VariantError(f"totem_min_step: {self.totem_min_step} is larger than "
                               f"totem_max_step {self.totem_max_step}")
        if sum(self.tokens) == 0:
            raise VariantError("zebra_tokens: every token count is 0, nobody could place anything")

    # -- derived -----------------------------------------------------------------------------
    @property
    def tokens(self) -> tuple[int, ...]:
        """Tokens per player of each kind, in notation order Z G E L C."""
        return (self.zebra_tokens, self.gazelle_tokens, self.elephant_tokens, self.lion_tokens,
                self.crocodile_tokens)

    @property
    def points(self) -> tuple[int, ...]:
        """Points of a face-up token of each kind, in notation order Z G E L C."""
        return (self.zebra_points, self.gazelle_points, self.elephant_points, self.lion_points,
                self.crocodile_points)

    @property
    def cards(self) -> tuple[Card, ...]:
        """The deck's cards in their order (whatever ``reinforcement`` says)."""
        return resolve_deck(self.deck)

    @property
    def deck_game(self) -> bool:
        return self.reinforcement == "deck"

    @property
    def max_swaps(self) -> int | None:
        """Largest number of crocodile swaps per placement; None for an unbounded chain."""
        return None if self.crocodile_swaps == "chain" else int(self.crocodile_swaps)

    # -- serialisation -----------------------------------------------------------------------
    def to_dict(self, *, only_changes: bool = False) -> dict[str, Any]:
        """Every parameter (``name`` first), or only those that differ from the classic game."""
        result = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if not only_changes or (f.name != "name" and value != f.default):
                result[f.name] = _plain(value)
        return result

    def to_toml(self) -> str:
        return "".join(f"{key} = {_toml(value)}\n" for key, value in self.to_dict().items())

    @classmethod
    def from_dict(cls, table: dict[str, Any], source: str = "<variant>",
                  default_name: str | None = None) -> "RuleVariant":
        """A variant from a flat table of parameters; unknown keys and bad values are named."""
        if not isinstance(table, dict):
            raise VariantError(f"{source}: a variant is a table of parameters, got "
                               f"{type(table).__name__}")
        known = {f.name: f for f in fields(cls)}
        for key, value in table.items():
            if key not in known:
                hint = _closest(key, known)
                raise VariantError(f"{source}: unknown key {key!r}" +
                                   (f" (did you mean {hint!r}?)" if hint else ""))
            problem = _check_value(key, value, known[key].default)
            if problem:
                raise VariantError(f"{source}: key {key!r}: {problem}")
        values = dict(table)
        if "name" not in values and default_name:
            values["name"] = default_name
        try:
            return cls(**values)
        except VariantError as exc:
            raise VariantError(f"{source}: key {exc}") from None

    @classmethod
    def load(cls, name_or_path: str) -> "RuleVariant":
        """A variant from a TOML file, stdin (``-``) or a built-in name (``classic``, ``totem_1_2``…)."""
        if is_builtin_name(name_or_path, builtin_variant_names()):
            text = resources.files(BUILTIN_VARIANTS).joinpath(f"{name_or_path}.toml").read_text(
                "utf-8")
            return cls.from_toml(text, name_or_path, name_or_path)
        missing = (f"no such file or built-in variant (built-in: "
                   f"{', '.join(builtin_variant_names())})")
        try:
            text = read_text(name_or_path, "variant file", MAX_VARIANT_BYTES, missing)
        except InputError as exc:
            raise VariantError(str(exc)) from None
        return cls.from_toml(text, source_label(name_or_path),
                             None if name_or_path == STDIN else Path(name_or_path).stem)

    @classmethod
    def from_toml(cls, text: str, source: str = "<toml>", default_name: str | None = None
                  ) -> "RuleVariant":
        try:
            table = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise VariantError(f"{source}: invalid TOML: {exc}") from None
        except ValueError:       # tomllib hands int() a number of over 4,300 digits
            raise VariantError(f"{source}: invalid TOML: a number of more than "
                               f"{sys.get_int_max_str_digits():,} digits") from None
        return cls.from_dict(table, source, default_name)


def _plain(value: Any) -> Any:
    """A parameter's value as plain JSON/TOML data (cards become tables, tuples lists)."""
    if isinstance(value, Card):
        return value.to_dict()
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + "}"
    return str(value)


def builtin_variant_names() -> list[str]:
    return sorted(p.name[:-5] for p in resources.files(BUILTIN_VARIANTS).iterdir()
                  if p.name.endswith(".toml"))


def _check_value(key: str, value: Any, default: Any) -> str | None:
    """Why ``value`` is not acceptable for parameter ``key`` (None if it is)."""
    if key == "crocodile_swaps":
        if value in (0, 1, "chain") and not isinstance(value, bool):
            return None
        return f'must be 0, 1 or "chain", got {describe_value(value)}'
    if key == "territory_tie":
        return (None if value in ("nobody", "both")
                else f'must be "nobody" or "both", got {describe_value(value)}')
    if key == "reinforcement":
        return (None if value in ("okapi", "deck")
                else f'must be "okapi" or "deck", got {describe_value(value)}')
    if key == "deck":
        return deck_problem(value)
    if key == "handicap":
        if (isinstance(value, (list, tuple)) and len(value) == 2 and all(
                isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= 100 for n in value)):
            return None
        return (f"must be two whole numbers of cards [first, second], e.g. [1, 0], got "
                f"{describe_value(value)}")
    if key == "totem_direction":
        return None if value in ("clockwise", "anticlockwise") else \
            f'must be "clockwise" or "anticlockwise", got {describe_value(value)}'
    if key == "first_placer":
        return (None if value in ("first", "second")
                else f'must be "first" or "second", got {describe_value(value)}')
    if key == "name":
        return (None if isinstance(value, str) and value
                else f"must be a non-empty string, got {describe_value(value)}")
    if isinstance(default, bool):
        return (None if isinstance(value, bool)
                else f"must be true or false, got {describe_value(value)}")
    if isinstance(default, int):
        if not isinstance(value, int) or isinstance(value, bool):
            return f"must be a whole number, got {describe_value(value)}"
        if key.startswith("totem_") and not 1 <= value <= MAX_TOTEM_STEP:
            # bounded: the engine tabulates every step, so 10**21 would never finish
            return f"must be between 1 and {MAX_TOTEM_STEP}, got {value}"
        if key.endswith("_tokens") and not 0 <= value <= 99:
            return f"must be between 0 and 99, got {value}"
        if key.endswith("_points") and not -1000 <= value <= 1000:
            return f"must be between -1000 and 1000, got {value}"
        return None
    return None


def _closest(key: str, known) -> str | None:
    matches = difflib.get_close_matches(key, list(known), n=1)
    return matches[0] if matches else None


def load_variant(name_or_path: str | None) -> RuleVariant:
    """``None`` is the classic game; otherwise a file, ``-`` or a built-in variant name."""
    return RuleVariant() if name_or_path is None else RuleVariant.load(name_or_path)
