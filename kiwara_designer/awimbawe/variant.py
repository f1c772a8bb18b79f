"""Awimbawé rules variants: every default of the rules reference as one validated parameter.

A variant file is a flat TOML table holding the parameters that differ from the rulebook
(``cheetah_may_pass = false``); the crowns are two inline tables, ``crowns = {mouse = 3, …}`` and
``eagle_crowns = {7 = 0, 8 = 0, 9 = -1, 10 = -2}``, of which a file may give only some keys.
Built-in variants live in ``kiwara_designer/awimbawe/variants/*.toml``.
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, fields
from importlib import resources
from pathlib import Path
from typing import Any

from ..core.io import STDIN, InputError, read_text, source_label
from ..engine.variant import MAX_VARIANT_BYTES, VariantError, _closest
from .cards import ANIMALS, DECK_SIZE

BUILTIN_VARIANTS = "kiwara_designer.awimbawe.variants"
DEFAULT_CROWNS = (3, 2, 2, 3, 1, 1)          # mouse … elephant
DEFAULT_EAGLE_CROWNS = (0, 0, -1, -2)        # eagles 7, 8, 9, 10
EAGLE_VALUES = ("7", "8", "9", "10")
ROUND1_LEADERS = ("fewer_crowns", "random")
MAX_PILES = 7                                # pile numbers stay one digit in the notation


@dataclass(frozen=True)
class AwimbaweVariant:
    """The rules of one match of Awimbawé. ``AwimbaweVariant()`` is the rulebook's game.

    Two variants are equal when their rules are equal, whatever they are called."""

    name: str = field(default="classic", compare=False)
    crowns: tuple[int, ...] = DEFAULT_CROWNS
    eagle_crowns: tuple[int, ...] = DEFAULT_EAGLE_CROWNS
    hyenas_to_lose: int = 4
    rounds_to_win: int = 2
    piles: int = 4
    hand_size: int = 6
    eagle_may_flee: bool = True
    mouse_beats_elephant: bool = True
    rhinoceros_power: bool = True
    cheetah_power: bool = True
    snake_power: bool = True
    cheetah_may_pass: bool = True
    snake_hidden_tops: bool = False
    blocked_cards_follow: bool = False
    round1_leader: str = "fewer_crowns"

    def __post_init__(self) -> None:
        for f in fields(self):
            problem = _check_value(f.name, getattr(self, f.name))
            if problem:
                raise VariantError(f"{f.name}: {problem}")
        if 4 * self.piles + 2 * self.hand_size > DECK_SIZE:
            raise VariantError(f"hand_size: {self.piles} piles of 2 and {self.hand_size} cards in "
                               f"hand for each player need {4 * self.piles + 2 * self.hand_size} "
                               f"cards, the deck has {DECK_SIZE}")
        if self.piles + self.hand_size == 0:
            raise VariantError("hand_size: with no piles and no hand nobody has a card to play")

    @property
    def card_crowns(self) -> tuple[int, ...]:
        """Crowns of each card 0..27 (see :mod:`.cards`)."""
        return tuple(self.crowns[c % 6] for c in range(24)) + tuple(self.eagle_crowns)

    @property
    def dealt(self) -> int:
        """Cards dealt in a round; the rest of the deck is set aside unseen."""
        return 4 * self.piles + 2 * self.hand_size

    # -- serialisation -----------------------------------------------------------------------
    def to_dict(self, *, only_changes: bool = False) -> dict[str, Any]:
        """Every parameter as TOML values (crowns as tables), or only those that differ."""
        result: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if only_changes and (f.name == "name" or value == f.default):
                continue
            if f.name == "crowns":
                value = dict(zip(ANIMALS, value))
            elif f.name == "eagle_crowns":
                value = dict(zip(EAGLE_VALUES, value))
            result[f.name] = value
        return result

    def to_toml(self) -> str:
        lines = []
        for key, value in self.to_dict().items():
            lines.append(f"{key} = {_toml_value(value)}")
        return "\n".join(lines) + "\n"

    @classmethod
    def from_dict(cls, table: Any, source: str = "<variant>",
                  default_name: str | None = None) -> "AwimbaweVariant":
        """A variant from a flat table of parameters; unknown keys and bad values are named."""
        if not isinstance(table, dict):
            raise VariantError(f"{source}: a variant is a table of parameters, got "
                               f"{type(table).__name__}")
        known = {f.name: f for f in fields(cls)}
        values: dict[str, Any] = {}
        for key, value in table.items():
            if key not in known:
                hint = _closest(key, known)
                raise VariantError(f"{source}: unknown key {key!r}" +
                                   (f" (did you mean {hint!r}?)" if hint else ""))
            if key in ("crowns", "eagle_crowns"):
                value = _crowns_table(key, value, source)
            problem = _check_value(key, value)
            if problem:
                raise VariantError(f"{source}: key {key!r}: {problem}")
            values[key] = value
        if "name" not in values and default_name:
            values["name"] = default_name
        try:
            return cls(**values)
        except VariantError as exc:
            raise VariantError(f"{source}: key {exc}") from None

    @classmethod
    def from_toml(cls, text: str, source: str = "<toml>",
                  default_name: str | None = None) -> "AwimbaweVariant":
        try:
            table = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise VariantError(f"{source}: invalid TOML: {exc}") from None
        return cls.from_dict(table, source, default_name)

    @classmethod
    def load(cls, name_or_path: str) -> "AwimbaweVariant":
        """A variant from a TOML file, stdin (``-``) or a built-in name (``classic``,
        ``gamepark``…)."""
        if name_or_path != STDIN and not Path(name_or_path).exists() \
                and name_or_path in builtin_variant_names():
            text = resources.files(BUILTIN_VARIANTS).joinpath(
                f"{name_or_path}.toml").read_text("utf-8")
            return cls.from_toml(text, name_or_path, name_or_path)
        missing = (f"no such file or built-in Awimbawé variant (built-in: "
                   f"{', '.join(builtin_variant_names())})")
        try:
            text = read_text(name_or_path, "variant file", MAX_VARIANT_BYTES, missing)
        except InputError as exc:
            raise VariantError(str(exc)) from None
        return cls.from_toml(text, source_label(name_or_path),
                             None if name_or_path == STDIN else Path(name_or_path).stem)


def builtin_variant_names() -> list[str]:
    return sorted(p.name[:-5] for p in resources.files(BUILTIN_VARIANTS).iterdir()
                  if p.name.endswith(".toml"))


def load_variant(name_or_path: str | None) -> AwimbaweVariant:
    """``None`` is the rulebook's game; otherwise a file, ``-`` or a built-in variant name."""
    return AwimbaweVariant() if name_or_path is None else AwimbaweVariant.load(name_or_path)


def as_variant(variant: Any) -> AwimbaweVariant:
    """A variant from a variant, None (the rulebook), a built-in name or a table of overrides."""
    if variant is None:
        return AwimbaweVariant()
    if isinstance(variant, AwimbaweVariant):
        return variant
    if isinstance(variant, str):
        return AwimbaweVariant.load(variant)
    return AwimbaweVariant.from_dict(variant)


def _crowns_table(key: str, value: Any, source: str) -> tuple[int, ...]:
    """A crowns table ({animal: crowns} or {eagle value: crowns}, possibly partial) as a tuple."""
    names = ANIMALS if key == "crowns" else EAGLE_VALUES
    result = list(DEFAULT_CROWNS if key == "crowns" else DEFAULT_EAGLE_CROWNS)
    if not isinstance(value, dict):
        raise VariantError(f"{source}: key {key!r}: must be a table such as "
                           f"{{{names[0]} = {result[0]}, …}}, got {value!r}")
    for name, crowns in value.items():
        name = str(name)
        if name not in names:
            raise VariantError(f"{source}: key {key!r}: unknown entry {name!r} (entries: "
                               f"{', '.join(names)})")
        if not isinstance(crowns, int) or isinstance(crowns, bool) or not -99 <= crowns <= 99:
            raise VariantError(f"{source}: key {key!r}: {name} must be a whole number of crowns "
                               f"between -99 and 99, got {crowns!r}")
        result[names.index(name)] = crowns
    return tuple(result)


def _check_value(key: str, value: Any) -> str | None:
    """Why ``value`` is not acceptable for parameter ``key`` (None if it is)."""
    if key == "name":
        return None if isinstance(value, str) and value else f"must be a non-empty string, got {value!r}"
    if key in ("crowns", "eagle_crowns"):
        size = 6 if key == "crowns" else 4
        ok = (isinstance(value, tuple) and len(value) == size and
              all(isinstance(v, int) and not isinstance(v, bool) for v in value))
        return None if ok else f"must be {size} whole numbers of crowns, got {value!r}"
    if key == "round1_leader":
        return None if value in ROUND1_LEADERS else \
            f'must be "fewer_crowns" or "random", got {value!r}'
    bounds = {"hyenas_to_lose": (1, 99), "rounds_to_win": (1, 99), "piles": (0, MAX_PILES),
              "hand_size": (0, DECK_SIZE // 2)}
    if key in bounds:
        low, high = bounds[key]
        if not isinstance(value, int) or isinstance(value, bool):
            return f"must be a whole number, got {value!r}"
        return None if low <= value <= high else f"must be between {low} and {high}, got {value}"
    return None if isinstance(value, bool) else f"must be true or false, got {value!r}"


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k if k.isalpha() else repr(k).replace(chr(39), chr(34))} = "
                               f"{_toml_value(v)}" for k, v in value.items()) + "}"
    return str(value)
