"""A game of Kiwara at the table (:mod:`kiwara_designer.table`): a person against an agent, two
agents, or two people, on any layout under any variant. ``kiwara play`` is a thin shell over a
:class:`Session`; a notebook or a test can open one too.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, TextIO

from ...table import Seat, TableResult, TableSeed, closing_line, opening_line, play_at_table
from .view import KiwaraTableView


@dataclass
class Session:
    """One game to play: its layout and variant (and where they came from), seats and seed."""

    layout_source: str
    layout: Any
    variant: Any
    variant_source: str | None
    seats: tuple[Seat, Seat]
    seed: TableSeed
    state: Any

    def play(self, input: TextIO, output: TextIO, colour: bool = False) -> TableResult:
        """Play at the table, a person's moves read from ``input``, the game told on ``output``;
        the agents' choices (and a deck game's draws) come from the seed, said at the end when
        it is secret."""
        rules = self.variant.name if self.variant_source else "classic"
        output.write(opening_line("kiwara play", [f"{self.layout_source} layout", f"{rules} rules"],
                                  self.seats, self.seed) + "\n")
        view = KiwaraTableView([seat.label for seat in self.seats], colour)
        result = play_at_table(self.state, self.seats, view, input, output,
                               random.Random(self.seed.value))
        if closing := closing_line(self.seed):
            output.write(closing + "\n")
        return result

    def record(self, result: TableResult):
        """The engine's game record of what was played (a stopped game too)."""
        from . import KiwaraRecord
        extra = {"players": [s.label for s in self.seats], "seed": self.seed.value}
        if result.finished:
            scoring = result.state.scoring()
            extra["result"] = {"scores": list(scoring.totals), "winner": scoring.winner}
        return KiwaraRecord.from_moves(self.layout, self.variant, result.moves, **extra)


def start_session(layout_name: str, seats: tuple[Seat, Seat], variant_file: str | None = None,
                  seed: int | None = None) -> Session:
    """Load the layout and variant and open the game between ``seats`` (see
    :func:`~kiwara_designer.table.parse_seats`); without a seed one is drawn
    (:meth:`~kiwara_designer.table.TableSeed.choose`: a secret one when a person plays a deck
    game)."""
    from . import KIWARA, load_variant, new_game
    from .formats import load_layout

    layout = load_layout(layout_name)
    variant = load_variant(variant_file)
    return Session(layout_name, layout, variant, variant_file, seats,
                   TableSeed.choose(KIWARA, variant, seats, seed), new_game(layout, variant))
