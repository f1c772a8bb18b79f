"""Awimbawé rules variants: every default of the rules reference as one validated parameter.

A variant file is a flat TOML table holding the parameters that differ from the rulebook
(``cheetah_may_pass = false``); the crowns are two inline tables, ``crowns = {mouse = 3, …}`` and
``eagle_crowns = {7 = 0, 8 = 0, 9 = -1, 10 = -2}``, of which a file may give only some keys.
Built-in variants live in ``kiwara_designer/games/awimbawe/variants/*.toml``. Reading, checking and
writing are the core's (:mod:`kiwara_designer.core.variants`); this module declares the
parameters and the rules joining them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from ...core.variants import (MAX_VARIANT_BYTES, ParameterProblem, Variant, VariantError,
                              non_empty_name, param)
from ...core.numbers import describe_value
from .cards import ANIMALS, DECK_SIZE

BUILTIN_VARIANTS = "kiwara_designer.games.awimbawe.variants"
DEFAULT_CROWNS = (3, 2, 2, 3, 1, 1)          # mouse … elephant
DEFAULT_EAGLE_CROWNS = (0, 0, -1, -2)        # eagles 7, 8, 9, 10
EAGLE_VALUES = ("7", "8", "9", "10")
ROUND1_LEADERS = ("fewer_crowns", "random")
CROWN_TIES = ("last_trick", "fewer_hyenas")
MAX_PILES = 7                                # pile numbers stay one digit in the notation

__all__ = ["AwimbaweVariant", "VariantError", "MAX_VARIANT_BYTES", "MAX_PILES",
           "builtin_variant_names", "load_variant", "as_variant"]


def _crowns_table(names: tuple[str, ...], defaults: tuple[int, ...]
                  ) -> tuple[Callable[[Any], tuple[int, ...]], Callable[[tuple], dict]]:
    """How a crowns parameter reads (a table {name: crowns}, possibly partial, over the
    defaults; or all the numbers in order) and writes (the whole table)."""
    def read(value: Any) -> tuple[int, ...]:
        if isinstance(value, (tuple, list)):
            if len(value) == len(names) and all(_whole(v) for v in value):
                return tuple(value)
            raise ParameterProblem(f"must be {len(names)} whole numbers of crowns, got "
                                   f"{describe_value(value)}")
        if not isinstance(value, dict):
            raise ParameterProblem(f"must be a table such as {{{names[0]} = {defaults[0]}, …}}, "
                                   f"got {describe_value(value)}")
        result = list(defaults)
        for name, crowns in value.items():
            name = str(name)
            if name not in names:
                raise ParameterProblem(f"unknown entry {name!r} (entries: {', '.join(names)})")
            if not _whole(crowns) or not -99 <= crowns <= 99:
                raise ParameterProblem(f"{name} must be a whole number of crowns between -99 "
                                       f"and 99, got {describe_value(crowns)}")
            result[names.index(name)] = crowns
        return tuple(result)

    return read, lambda value: dict(zip(names, value))


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


_read_crowns, _plain_crowns = _crowns_table(ANIMALS, DEFAULT_CROWNS)
_read_eagle_crowns, _plain_eagle_crowns = _crowns_table(EAGLE_VALUES, DEFAULT_EAGLE_CROWNS)


@dataclass(frozen=True)
class AwimbaweVariant(Variant):
    """The rules of one match of Awimbawé. ``AwimbaweVariant()`` is the rulebook's game.

    Two variants are equal when their rules are equal, whatever they are called."""

    BUILTIN_PACKAGE = BUILTIN_VARIANTS
    BUILTIN_WHAT = "built-in Awimbawé variant"

    name: str = param("classic", "the variant's name", compare=False, check=non_empty_name)
    crowns: tuple[int, ...] = param(DEFAULT_CROWNS, "crowns per animal (mouse, rhinoceros, "
                                    "cheetah, hyena, snake, elephant)",
                                    convert=_read_crowns, plain=_plain_crowns)
    eagle_crowns: tuple[int, ...] = param(DEFAULT_EAGLE_CROWNS, "crowns per eagle (7, 8, 9, 10)",
                                          convert=_read_eagle_crowns,
                                          plain=_plain_eagle_crowns)
    hyenas_to_lose: int = param(4, "hyenas that lose the round at once", low=1, high=99)
    rounds_to_win: int = param(2, "won rounds that win the match", low=1, high=99)
    piles: int = param(4, "piles of two cards per player", low=0, high=MAX_PILES)
    hand_size: int = param(6, "cards in each hand", low=0, high=DECK_SIZE // 2)
    eagle_may_flee: bool = param(True, "an eagle played on a land card may flee")
    mouse_beats_elephant: bool = param(True, "a mouse beats the elephant of its own suit")
    rhinoceros_power: bool = param(True, "the rhinoceros's power")
    cheetah_power: bool = param(True, "the cheetah's power")
    snake_power: bool = param(True, "the snake's power")
    cheetah_may_pass: bool = param(True, "a cheetah may be played without choosing who leads")
    bare_second_cheetah_keeps_choice: bool = param(
        True, "a second cheetah played bare in a trick leaves the first one's choice (false: "
              "the trick's winner leads)")
    snake_hidden_tops: bool = param(False, "a snake may name a face-down top uncovered in the "
                                           "trick")
    blocked_cards_follow: bool = param(False, "a blocked card counts for following suit")
    round1_leader: str = param("fewer_crowns", "who leads round 1", choices=ROUND1_LEADERS)
    # The rulebook's 45 crowns cannot tie; other crowns or deals can. Who wins a tied round:
    # the winner of its last trick, or the player with fewer hyenas (equal: the last trick).
    crown_tie: str = param("last_trick", "who wins a round whose crowns tie", choices=CROWN_TIES)

    def check(self) -> None:
        if 4 * self.piles + 2 * self.hand_size > DECK_SIZE:
            raise self.problem("hand_size", f"{self.piles} piles of 2 and {self.hand_size} cards "
                                            f"in hand for each player need {self.dealt} cards, "
                                            f"the deck has {DECK_SIZE}")
        if self.piles + self.hand_size == 0:
            raise self.problem("hand_size", "with no piles and no hand nobody has a card to play")

    @property
    def card_crowns(self) -> tuple[int, ...]:
        """Crowns of each card 0..27 (see :mod:`.cards`)."""
        return tuple(self.crowns[c % 6] for c in range(24)) + tuple(self.eagle_crowns)

    @property
    def dealt(self) -> int:
        """Cards dealt in a round; the rest of the deck is set aside unseen."""
        return 4 * self.piles + 2 * self.hand_size


def builtin_variant_names() -> list[str]:
    return AwimbaweVariant.builtin_names()


def load_variant(name_or_path: str | None) -> AwimbaweVariant:
    """``None`` is the rulebook's game; otherwise a file, ``-`` or a built-in variant name."""
    return AwimbaweVariant() if name_or_path is None else AwimbaweVariant.load(name_or_path)


def as_variant(variant: Any) -> AwimbaweVariant:
    """A variant from a variant, None (the rulebook), a built-in name or a table of overrides."""
    return AwimbaweVariant.coerce(variant)
