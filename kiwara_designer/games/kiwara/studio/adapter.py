"""Kiwara's adapter: the game's side of the studio's adapter protocol (see
:mod:`kiwara_designer.studio.adapters`): a new game's board from the page's rows, a game loaded
from its record, each move told in words with the cells it concerns, the table as the page draws
it, and the record to download; and its own views, the board tools (Draw: :mod:`.boards`;
Print: :mod:`.prints`). Everything on a Kiwara table is open (board, reserves, held cards); only
a deck's order is unknown, to both players alike.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ....core.errors import KiwaraError
from ....core.game import CHANCE
from ..game import KIWARA
from ..layout import Layout
from ..moves import Move
from ..printing.screen import screen_board
from ..record import DRAW, KiwaraRecord
from ..state import KiwaraState
from ..variant import KIND_NAMES, KINDS, KiwaraVariant
from . import boards, prints

MAX_CELLS = 64                 # cells of a board the studio plays
PLAYER_NAMES = ("first", "second")


@dataclass(frozen=True)
class Loaded:
    """A game read from a record: where it stands, what it was played from, the moves so far
    (chance draws included) and the record's seed (None: none, or not one a seed can be)."""

    state: KiwaraState
    setup: Layout
    variant: KiwaraVariant
    moves: list[str]
    seed: int | None
    note: str


class KiwaraStudio:
    """The studio's adapter for Kiwara."""

    game = KIWARA
    title = "Kiwara"
    variants = KiwaraVariant         # its built-in rules: builtin_names(), load(name)
    # its own views, the board tools, at their addresses under /api/
    calls = {"board/check": boards.check_board, "board/random": boards.random_board,
             "board/builtin": boards.builtin_board, "board/parse": boards.pasted_board,
             "print/preview": prints.print_preview}
    downloads = {"print": (prints.print_file, prints.PRINT_QUERY)}

    def setup(self, rows: Any) -> Layout:
        """The board of a new game: the request's ``rows``."""
        layout = boards.layout_from_rows(rows)
        if layout.grid.size > MAX_CELLS:
            raise KiwaraError(f"the studio plays boards of at most {MAX_CELLS} cells")
        return layout

    def catalogue(self) -> dict:
        return boards.board_catalogue()

    def warm_up(self) -> None:
        """Build the generator's counting table (seconds) before the first random board."""
        boards.random_board(0)

    def load(self, text: str) -> Loaded:
        """A game from a record's text (as downloaded), replayed move by move (ReplayError names
        the illegal move). A fixed deck order is forgotten: its draws to come are chance's."""
        record = KiwaraRecord.from_json(text, "record")
        state = list(record.states())[-1]
        moves = [m for m in record.moves if not m.startswith(DRAW)]
        if record.deck is not None:
            # the cards drawn so far, top first, as draws: the session's record rebuilds the
            # same deck order from them
            drawn = len(record.deck) - state.deck_size()
            moves = [f"{DRAW}{name}" for name in record.deck[:drawn]] + moves
            state = state.determinize(0, None)     # the same for both seats: hands are open
        seed = record.extra.get("seed")
        seed = seed if isinstance(seed, int) and not isinstance(seed, bool) \
            and 0 <= seed < 2 ** 63 else None
        return Loaded(state, record.layout, record.variant, moves, seed,
                      f"loaded a record of {len(record.moves)} moves")

    def forced_move(self, state: KiwaraState) -> Move | None:
        """A pass with an empty reserve, when it is the only move: nothing to decide there."""
        moves = state.legal_moves()
        return moves[0] if [m.is_pass for m in moves] == [True] else None

    def tell(self, before: KiwaraState, after: KiwaraState, move: Move, seat: int,
             names: list[str]) -> tuple[list[str], dict]:
        """The move in words for the log, and the page's marks (:func:`effects`)."""
        last = effects(before, after, move, seat, names)
        return [last["words"]], last

    def move_json(self, state: KiwaraState, move: Move) -> dict:
        """A legal move as the page builds it from clicks: animal, cell, crocodile swaps, totem."""
        grid = state.grid
        return {"text": str(move), "kind": move.kind,
                "cell": None if move.cell is None else grid.cell_name(move.cell),
                "swaps": [grid.cell_name(c) for c in move.swaps], "totem": move.totem,
                "card": move.card, "pass": move.is_pass}

    def view(self, state: KiwaraState, seat: int, names: list[str], last: dict | None) -> dict:
        """The table: board, totem and its line, reserves, held cards, scores and verdict."""
        grid = state.grid
        scoring = state.scoring()
        line = [] if state.totem is None else [grid.cell_name(c) for c in grid.lines[state.totem]
                                              if state.token(c) is None]
        return {
            "rows": list(state.layout.rows), "variant": state.variant.name,
            "to_move": state.current_player(), "ply": state.ply, "totem": state.totem,
            "totem_line": None if state.totem is None else grid.line_name(state.totem),
            "line_cells": line,
            "reserves": [[{"kind": k, "name": KIND_NAMES[i], "count": state.reserve(p)[k],
                           "points": state.variant.points[i]} for i, k in enumerate(KINDS)]
                         for p in (0, 1)],
            "hands": [list(state.hand(p)) for p in (0, 1)],
            "scores": list(scoring.totals),
            "okapi": scoring.okapi, "okapi_points": scoring.okapi_points,
            "territories": [t.to_dict() for t in scoring.territories],
            "verdict": verdict(scoring, names),
            "last": last,
            "svg": screen_board(state.layout, [None if t is None else tuple(t)
                                               for t in state.tokens()],
                                state.totem, state.variant.totem_direction),
        }

    def record(self, session: Any, seed: int | None) -> dict:
        """The game's record (what ``kiwara replay`` reads), finished or not: everything in it
        is open. ``seed``: None while the studio keeps it secret."""
        extra: dict = {"players": list(session.names)}
        if seed is not None:
            extra["seed"] = seed
        if session.state.is_terminal():
            scoring = session.state.scoring()
            extra["result"] = {"scores": list(scoring.totals), "winner": scoring.winner}
        return KiwaraRecord.from_moves(session.setup, session.variant, session.moves,
                                       **extra).to_dict()


ADAPTER = KiwaraStudio()


def verdict(scoring, seats: list[str]) -> str:
    first, second = scoring.totals
    if scoring.winner is None:
        word = "a draw" if scoring.final else "level"
    else:
        who = seats[scoring.winner]
        who = "you" if who == "you" else f"{PLAYER_NAMES[scoring.winner]} player ({who})"
        verb = ("win" if who == "you" else "wins") if scoring.final else \
            ("lead" if who == "you" else "leads")
        word = f"{who} {verb}"
    return f"{'final' if scoring.final else 'so far'}: {first}–{second}, {word}"


def effects(before: KiwaraState, after: KiwaraState, move: Move, seat: int,
            names: list[str]) -> dict:
    """The move in words with its effects (fled gazelles, tokens turned face down, swaps, the
    Okapi), and the cells each concerns, for the page to mark. ``seat``: the person's."""
    grid = before.grid
    player = before.current_player()
    who = "you" if player == seat else f"{names[player]} ({PLAYER_NAMES[player]})"
    name = grid.cell_name
    placed = fled = flipped = []
    if player == CHANCE:
        words = f"card {move.card} is drawn from the deck"
    elif move.is_pass:
        words = f"{who}: no token left in hand, pass"
    elif move.card is not None:
        words = f"{who}: uses card {move.card} ({move})"
    elif move.kind is None:
        words = f"{who}: totem to stone {move.totem}, facing {grid.line_name(move.totem)}"
    else:
        animal = KIND_NAMES[KINDS.index(move.kind)]
        placed = [name(move.cell)] + [name(c) for c in move.swaps]
        words = f"{who}: {animal} on {name(move.cell)}"
        if move.swaps:
            words += ", swaps with the gazelle" + ("s" if len(move.swaps) > 1 else "") + " on " + \
                ", ".join(name(c) for c in move.swaps)
        fled = [name(c) for c in grid.cells if before.token(c) is not None
                and after.token(c) is None]
        flipped = [name(c) for c in grid.cells if (t := after.token(c)) is not None
                   and not t.face_up and (b := before.token(c)) is not None and b.face_up
                   and c not in move.swaps]
        if not after.token(move.swaps[-1] if move.swaps else move.cell).face_up:
            words += " (face down: next to a lion)"
        if fled:
            words += "; the gazelle" + ("s" if len(fled) > 1 else "") + " on " + \
                ", ".join(fled) + " flee" + ("" if len(fled) > 1 else "s") + " back to hand"
        if flipped:
            words += "; face down: " + ", ".join(flipped)
        if move.totem is not None:
            words += f"; totem to {move.totem}"
    if before.okapi is None and after.okapi is not None:
        okapi = "you take" if after.okapi == seat else f"{PLAYER_NAMES[after.okapi]} player takes"
        words += f"; {okapi} the Okapi"
    return {"move": str(move), "player": player, "words": words, "placed": placed,
            "fled": fled, "flipped": flipped}
