"""Rules variants: every default of the rules reference as one named, validated parameter.

A variant file is a flat TOML table of ``name = value`` lines for the parameters that differ from
the classic defaults (``crocodile_swaps = 0``); ``name`` is optional and defaults to the file stem.
Built-in variants live in ``kiwara_designer/games/kiwara/variants/*.toml`` and can be named instead of a file.
Reading, checking and writing are the core's (:mod:`kiwara_designer.core.variants`); this module
declares the parameters and the rules joining them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...core.variants import MAX_VARIANT_BYTES, Variant, VariantError, non_empty_name, param
from ...core.numbers import describe_value
from .cards import Card, deck_problem, resolve_deck, to_card

BUILTIN_VARIANTS = "kiwara_designer.games.kiwara.variants"
MAX_TOTEM_STEP = 1000          # far beyond the 250 positions of the largest (26 × 99) board

# Animal kinds in notation order: zebra, gazelle, elephant, lion, crocodile.
KINDS = ("Z", "G", "E", "L", "C")
KIND_NAMES = ("zebra", "gazelle", "elephant", "lion", "crocodile")

__all__ = ["KiwaraVariant", "VariantError", "MAX_VARIANT_BYTES", "KINDS", "KIND_NAMES",
           "builtin_variant_names", "load_variant"]


def _tokens(default: int, kind: str) -> Any:
    return param(default, f"{kind} tokens per player", low=0, high=99)


def _points(default: int, kind: str) -> Any:
    return param(default, f"points of a face-up {kind}", low=-1000, high=1000)


def _totem_step(default: int, which: str) -> Any:
    # bounded: the engine tabulates every step, so 10**21 would never finish
    return param(default, f"{which} totem step after a placement", low=1, high=MAX_TOTEM_STEP)


def _handicap_problem(value: Any) -> str | None:
    if (isinstance(value, (list, tuple)) and len(value) == 2 and all(
            isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= 100 for n in value)):
        return None
    return (f"must be two whole numbers of cards [first, second], e.g. [1, 0], got "
            f"{describe_value(value)}")


def _deck_value(value: Any) -> str | tuple[Card, ...]:
    """A built-in deck name stays a name; lists of cards from TOML or JSON become tuples of
    cards, so that a variant stays hashable."""
    return value if isinstance(value, str) else tuple(to_card(c) for c in value)


def _deck_plain(value: str | tuple[Card, ...]) -> Any:
    return value if isinstance(value, str) else [card.to_dict() for card in value]


@dataclass(frozen=True)
class KiwaraVariant(Variant):
    """The rules of one game of Kiwara. ``KiwaraVariant()`` is the classic game.

    Two variants are equal when their rules are equal, whatever they are called.
    """

    BUILTIN_PACKAGE = BUILTIN_VARIANTS

    name: str = param("classic", "the variant's name", compare=False, check=non_empty_name)
    # Material: tokens per player and points of each face-up token.
    zebra_tokens: int = _tokens(5, "zebra")
    gazelle_tokens: int = _tokens(6, "gazelle")
    elephant_tokens: int = _tokens(1, "elephant")
    lion_tokens: int = _tokens(1, "lion")
    crocodile_tokens: int = _tokens(2, "crocodile")
    zebra_points: int = _points(6, "zebra")
    gazelle_points: int = _points(2, "gazelle")
    elephant_points: int = _points(5, "elephant")
    lion_points: int = _points(1, "lion")
    crocodile_points: int = _points(0, "crocodile")
    # The totem moves totem_min_step .. totem_max_step positions after a placement, in the
    # totem_direction: "clockwise" (p to p + k) or "anticlockwise" (p to p - k; stone numbers stay).
    totem_min_step: int = _totem_step(1, "smallest")
    totem_max_step: int = _totem_step(3, "largest")
    totem_direction: str = param("clockwise", "the way the totem walks",
                                 choices=("clockwise", "anticlockwise"))
    crocodile_swaps: int | str = param(
        "chain", "crocodile swaps per placement: 0 never, 1 at most one, chain any number "
        "(each gazelle once)", choices=(0, 1, "chain"))
    crocodile_swap_needs_river: bool = param(True, "the swapped gazelle must sit across a river")
    # Lion: effects of placing one, and whether rivers shield the cells next to it.
    lion_gazelles_flee: bool = param(True, "placing a lion makes the gazelles next to it flee")
    lion_flips_zebras: bool = param(True, "placing a lion turns the zebras next to it face down")
    lion_blocked_by_rivers: bool = param(False, "a river shields a cell next to a lion")
    face_down_next_to_lion: bool = param(True, "a zebra or gazelle placed next to a lion goes "
                                               "face down")
    swapped_gazelle_face_down_next_to_lion: bool = param(
        True, "a gazelle a crocodile swaps next to a lion goes face down")
    # Scoring.
    okapi_points: int = param(5, "points of the Okapi (first full territory)", low=-1000,
                              high=1000)
    territory_tie: str = param("nobody", "who scores a territory whose majority ties",
                               choices=("nobody", "both"))
    first_placer: str = param("second", "who places first after the opening totem move",
                              choices=("first", "second"))
    # Reinforcement: "okapi" (the Okapi alone, okapi_points) or "deck" (the first full territory
    # draws the top card of the shuffled deck; handicap = cards dealt to each player at setup).
    reinforcement: str = param("okapi", "the first full territory gives the Okapi or the top "
                                        "card of the deck", choices=("okapi", "deck"))
    deck: str | tuple[Card, ...] = param(
        "sample", "a built-in deck name or the cards, top first", check=deck_problem,
        convert=_deck_value, plain=_deck_plain)
    handicap: tuple[int, int] = param((0, 0), "cards dealt to the first and second player at "
                                              "setup", check=_handicap_problem, convert=tuple,
                                      plain=list)

    def check(self) -> None:
        if any(self.handicap) and self.reinforcement != "deck":
            raise self.problem("handicap", f"{list(self.handicap)} deals cards, which needs "
                                           f'reinforcement = "deck"')
        if sum(self.handicap) > len(self.cards):
            raise self.problem("handicap", f"{list(self.handicap)} deals {sum(self.handicap)} "
                                           f"cards, the deck has {len(self.cards)}")
        if self.totem_min_step > self.totem_max_step:
            raise self.problem("totem_min_step", f"{self.totem_min_step} is larger than "
                                                 f"totem_max_step {self.totem_max_step}")
        if sum(self.tokens) == 0:
            raise self.problem("zebra_tokens", "every token count is 0, nobody could place "
                                               "anything")

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


def builtin_variant_names() -> list[str]:
    return KiwaraVariant.builtin_names()


def load_variant(name_or_path: str | None) -> KiwaraVariant:
    """``None`` is the classic game; otherwise a file, ``-`` or a built-in variant name."""
    return KiwaraVariant() if name_or_path is None else KiwaraVariant.load(name_or_path)
