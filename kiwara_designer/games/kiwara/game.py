"""Kiwara as a game of the core protocol (:mod:`kiwara_designer.core.game`): :data:`KIWARA`.

Perfect information; chance only in deck games (``reinforcement = "deck"``: the handicap deal
and the Okapi moment's draw from a deck of unknown order). The setup is a :class:`~kiwara_designer.games.kiwara.layout.Layout`, the
variant a :class:`KiwaraVariant`. The states are the engine's own :class:`KiwaraState` (move order,
seeds and records are the engine's). The outcome's statistics are who took the Okapi
(``okapi``), who controls each territory at the end (``control``) and, from the tracker, how often
each territory's majority changed hands (``control_changes``); :mod:`.metrics` turns them into
the play-test lab's Okapi and territory rows.
"""
from __future__ import annotations

from typing import Any, Sequence

from ...core.game import GameBase, Metric, Outcome
from .layout import Layout
from .evaluation import evaluate
from .moves import Move
from .scoring import Scoring
from .state import KiwaraState, new_game
from .variant import KiwaraVariant

FIRST, SECOND = 0, 1


def territory_holders(scoring: Scoring) -> tuple[int | None, ...]:
    """Seat controlling each territory now; None for nobody (an empty territory or a tie,
    including a tie that scores for both)."""
    return tuple(t.controller if t.controller in (FIRST, SECOND) else None
                 for t in scoring.territories)


class ControlTracker:
    """Counts, per territory, how often its majority changed hands during a game. A majority
    usually changes hands through a tie, so each holder is compared with the last real one."""

    def __init__(self) -> None:
        self.last: list[int | None] | None = None
        self.changes: list[int] = []

    def update(self, state: KiwaraState) -> None:
        holders = territory_holders(state.scoring())
        if self.last is None:
            self.last, self.changes = [None] * len(holders), [0] * len(holders)
        for t, now in enumerate(holders):
            if now is not None:
                self.changes[t] += self.last[t] is not None and self.last[t] != now
                self.last[t] = now

    def stats(self) -> dict[str, Any]:
        return {"control_changes": list(self.changes)}


class KiwaraGame(GameBase):
    """The Kiwara rules engine behind the core game protocol."""

    name = "kiwara"
    perfect_information = True
    chance = False         # in the default (classic) game; deck variants draw at chance nodes
    # The skill study (docs/lab/skill-study.md): greedy self-play puts the first player below
    # half, good players above it; mcts:200 is the closest affordable level to the expert's
    # rate (2 points below it), and the compiled core plays it in ~40 ms a game.
    default_agents = "mcts:200,mcts:200"

    def has_chance(self, variant: KiwaraVariant | None = None) -> bool:
        """A deck game draws the handicap and the Okapi moment's card from a deck of unknown
        order, at chance nodes."""
        return (variant or self.default_variant()).deck_game

    def new_state(self, setup: Layout | None = None, variant: KiwaraVariant | None = None
                  ) -> KiwaraState:
        """The opening position on ``setup`` (default: the classic layout)."""
        if setup is None:
            from .formats import load_layout
            setup = load_layout("classic")
        return new_game(setup, variant)

    def default_variant(self) -> KiwaraVariant:
        return KiwaraVariant()

    def parse_move(self, state: KiwaraState, text: str) -> Move:
        return Move.parse(text, state.grid)

    # the module function itself: greedy and the lab call it tens of thousands of times a game
    evaluate = staticmethod(evaluate)

    def evaluation_key(self, move: Move) -> tuple:
        """What a move does to the board: placements differing only by the totem's destination
        leave the same tokens, and the evaluation never looks at the totem. Card uses are
        each their own (the card and its target)."""
        if move.card is not None:
            return (move.card, move.cell, move.swaps, move.totem)
        return (move.kind, move.cell, move.swaps)

    def compiled(self, state: KiwaraState):
        """The state's twin in the compiled core (Okapi games, when the core is built)."""
        from .compiled import twin
        return twin(state)

    def outcome(self, state: KiwaraState) -> Outcome:
        final = state.scoring()
        return Outcome((float(final.totals[0]), float(final.totals[1])), final.winner,
                       {"okapi": final.okapi, "control": list(territory_holders(final))})

    def tracker(self, state: KiwaraState) -> ControlTracker:
        return ControlTracker()

    def metrics(self) -> Sequence[Metric]:
        from .metrics import METRICS
        return METRICS

    def record(self, setup: Layout, variant: KiwaraVariant | None, moves: Sequence[str],
               **meta: Any):
        from .record import KiwaraRecord
        return KiwaraRecord.from_moves(setup, variant, moves, **meta)

    def setup_key(self, setup: Layout | None) -> str:
        """The rows of the layout's game form: a mirror image is another game (the totem walks
        the other way round), a half-turn the same one."""
        if setup is None:
            from .formats import load_layout
            setup = load_layout("classic")
        return "\n".join(setup.canonical_game().rows)

    def setup_from_key(self, key: str) -> Layout:
        from .formats import parse_text
        return parse_text(key)[0].layout

    # -- the lab's questions about setups --------------------------------------------------------
    setup_noun = "layout"

    def setup_descriptors(self, setup: Layout) -> dict[str, Any]:
        """The board's size, size mix, river segments and territory graph (all of
        :meth:`Layout.descriptors`, and the number of articulation territories): what the report
        plots. Older stores kept the first five, and the degree sequence, in columns."""
        shape = setup.descriptors()
        return {"width": setup.grid.width, "height": setup.grid.height,
                "size_mix": _size_mix(setup), "rivers": len(setup.river_edges()),
                "articulations": len(shape.articulation_territories), **shape.to_dict()}

    def setup_text(self, setup: Layout) -> str:
        return f"layout {' '.join(setup.rows)}"

    def setup_picture(self, setup: Layout) -> str:
        """The board's thumbnail, as the report draws it (the prints load only for a report)."""
        from .printing.thumbnail import board_thumbnail
        return board_thumbnail(setup)

    def rank_columns(self, setup: Layout) -> tuple[tuple[str, str], ...]:
        """River segments, size mix and rows: what tells layouts apart at a glance."""
        return ((f"{'rivers':>6}", f"{len(setup.river_edges()):>6}"),
                (f" {'size mix':<13}", f" {_size_mix(setup):<13}"),
                ("rows", " ".join(setup.rows)))

    def report_sections(self, store: Any, rows: Sequence[Any], top: int) -> list[str]:
        """The best boards, the races, what makes a board fair, the distributions."""
        from .report import layout_sections
        return layout_sections(self, store, rows, top)


def _size_mix(layout: Layout) -> str:
    return ",".join(map(str, layout.size_mix))      # "3,3,5,5,7,7"


KIWARA = KiwaraGame()

from . import expert  # noqa: E402,F401  (registers the game's expert agent)
