"""Game positions and scores as terminal text, for ``kiwara play`` and ``kiwara replay`` alike (at
the edge, like ``terminal``: the engine knows nothing of this module); :class:`KiwaraTableView`,
how a game of Kiwara reads at the table (:mod:`kiwara_designer.table`).

Tokens: first player upper case, second player lower case, face-down tokens in brackets
(``[z]``), empty cells ``·``; with colour, each player's tokens in their colour.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import click

from . import KiwaraState, Scoring
from .variant import KIND_NAMES, KINDS
from ...core.game import CHANCE
from ...core.numbers import plural
from ...table import Play
from .terminal import draw_layout

PLAYER_NAMES = ("first", "second")
PLAYER_COLOURS = ("red", "blue")
NOTATION_HELP = (
    "Type a move in notation: T7 (opening: totem to 7), Zc3>12 (zebra on c3, totem to 12), "
    "Cb2xc2>4 (crocodile on b2 swapping with the gazelle on c2), Gf5 (last placement), pass; "
    "in a deck game +drums:14 uses a card (the card's name, then its target). "
    "Animals Z G E L C = zebra gazelle elephant lion crocodile. "
    "The numbers around the board are the totem's stones (0 above column a, then "
    "clockwise); the totem's stone shows an arrow pointing at the column or row it faces.")
LEGEND = ("first player ZGELC, second player zgelc (zebra gazelle elephant lion crocodile); "
          "[z] face down")


def styled(text: str, colour: bool, **style) -> str:
    return click.style(text, **style) if colour else text


def token_text(state: KiwaraState, cell: int, colour: bool = False) -> str:
    """Three characters for a cell: `` Z ``, ``[g]``, `` · ``; in the owner's colour if asked."""
    token = state.token(cell)
    if token is None:
        return " · "
    letter = token.kind if token.owner == 0 else token.kind.lower()
    text = f" {letter} " if token.face_up else f"[{letter}]"
    return styled(text, colour, fg=PLAYER_COLOURS[token.owner], bold=token.face_up,
                  dim=not token.face_up)


def card_text(state: KiwaraState, name: str) -> str:
    """A held card and what it does: ``drums (totem)``, ``okapi (+5 points)``."""
    card = next(c for c in state.variant.cards if c.name == name)
    return f"{name} ({card.value:+d} points)" if card.passive else f"{name} ({card.effect})"


def hand_text(state: KiwaraState, player: int) -> str:
    """The reinforcement cards ``player`` holds (open information), or ``none``."""
    return ", ".join(card_text(state, name) for name in state.hand(player)) or "none"


def deck_text(state: KiwaraState) -> str:
    """How many cards are left in the deck; their order is never shown."""
    return f"{plural(state.deck_size(), 'card')} (order hidden)"


def dealt_text(before: KiwaraState, after: KiwaraState, colour: bool = False) -> str:
    """What a chance move did: which card the deck dealt to whom."""
    for player in (0, 1):
        new = list(after.hand(player))
        for name in before.hand(player):
            new.remove(name)
        if new:
            who = styled(PLAYER_NAMES[player], colour, fg=PLAYER_COLOURS[player], bold=True)
            return f"the deck deals {card_text(after, new[0])} to {who}"
    return "the deck deals a card"


def verdict(scoring: Scoring) -> str:
    """``first player wins`` / ``draw`` at the end; ``… leads`` / ``level`` before it."""
    if scoring.winner is None:
        return "draw" if scoring.final else "level"
    return f"{PLAYER_NAMES[scoring.winner]} player " + ("wins" if scoring.final else "leads")


# -- replay: a position with its reserves, and the scoring table ----------------------------
def draw_state(state: KiwaraState, colour: bool = False) -> str:
    """The board with its tokens, the totem, the reserves, the reinforcement cards each holds
    and the deck's size (a deck game), and whose turn it is."""
    grid = state.grid
    lines = [draw_layout(state.layout, colour=colour, cell_text=lambda c: token_text(state, c))]
    lines.append(LEGEND)
    if state.totem is None:
        lines.append("totem: not placed yet")
    else:
        lines.append(f"totem: position {state.totem}, facing {grid.line_name(state.totem)} "
                     f"from the {grid.position_edge(state.totem)}")
    for player in (0, 1):
        reserve = state.reserve(player)
        held = ", ".join(f"{n} {KIND_NAMES[KINDS.index(k)]}{'s' if n > 1 else ''}"
                         for k, n in reserve.items() if n) or "empty"
        lines.append(f"{PLAYER_NAMES[player]} player's reserve: {held}")
    if state.variant.deck_game:
        for player in (0, 1):
            lines.append(f"{PLAYER_NAMES[player]} player's cards: {hand_text(state, player)}")
        lines.append(f"deck: {deck_text(state)}")
    if state.is_terminal():
        lines.append(f"game over after {plural(state.ply, 'move')}")
    else:
        lines.append(f"move {state.ply + 1}: {PLAYER_NAMES[state.current_player()]} player to play")
    return "\n".join(lines)


def scoring_table(scoring: Scoring) -> str:
    """Per territory: size, tokens of each player, controller, points; then Okapi and totals."""
    rows = ["territory  size  first  second  controller  points"]
    for t in scoring.territories:
        controller = {None: "nobody", -1: "both"}.get(t.controller)
        controller = controller or PLAYER_NAMES[t.controller]
        rows.append(f"{t.name:<9} {t.size:>5} {t.tokens[0]:>6} {t.tokens[1]:>7}  {controller:<10} "
                    f"{t.points:>7}")
    okapi = "not awarded" if scoring.okapi is None else \
        f"{PLAYER_NAMES[scoring.okapi]} player (+{scoring.okapi_points})"
    rows.append(f"Okapi: {okapi}")
    rows.append(score_line(scoring))
    return "\n".join(rows)


def score_line(scoring: Scoring) -> str:
    """``final score: first 58, second 29: first player wins`` (``provisional score: …
    leads`` before the end): the scoring table's last line, and a replayed record's in short."""
    first, second = scoring.totals
    kind = "final score" if scoring.final else "provisional score"
    return f"{kind}: first {first}, second {second}: {verdict(scoring)}"


# -- play: the board with the totem beside the territory map, hands and majorities ---
def _with_totem(lines: list[str], grid, totem: int | None, colour: bool) -> list[str]:
    """Frame the drawing of ``draw_layout`` with the totem's path: every stone's number (0
    above column a, then clockwise, as the rules and the printed board number them) beside
    the column or row it faces, the totem's stone in colour with an arrow pointing at its line."""
    w, h = grid.width, grid.height

    def stone(position: int, arrow: str, before: bool) -> tuple[str, int]:
        """The stone's text and its printed width."""
        if position != totem:
            return str(position), len(str(position))
        text = arrow + str(position) if before else str(position) + arrow
        return styled(text, colour, fg="yellow", bold=True), len(text)

    def line_of(stones) -> str:
        """Stones written from the given columns of the frame, as (column, text, width)."""
        out, at = "", 0
        for column, text, width in stones:
            out += " " * max(column - at, 0) + text
            at = max(column, at) + width
        return out

    margin = 4                                   # "v19 " or ">19 " before a row line
    letter = [margin + 5 + 4 * c for c in range(w)]    # the column letters of draw_layout
    top = [(letter[c] - (c == totem), *stone(c, "v", True)) for c in range(w)]
    bottom = [(letter[c] - (2 * w + h - 1 - c == totem), *stone(2 * w + h - 1 - c, "^", True))
              for c in range(w)]
    body = []
    for i, line in enumerate(lines):
        row = (i - 2) // 2 if i >= 2 and i % 2 == 0 and (i - 2) // 2 < h else None
        if row is None:
            body.append(" " * margin + line + " " * margin)
            continue
        left, left_width = stone(2 * w + 2 * h - 1 - row, ">", False)
        right, right_width = stone(w + row, "<", True)
        body.append(" " * (margin - 1 - left_width) + left + " " + line + " " + right
                    + " " * (margin - 1 - right_width))
    return [line_of(top)] + body + [line_of(bottom)]


def draw_game(state: KiwaraState, labels: Sequence[str], colour: bool = False) -> str:
    """The board (tokens, rivers as walls, the totem), the territory map beside it, each side's
    label (``labels``), hand and running score, the reinforcement cards each holds (a deck
    game), and the territories' majorities."""
    layout = state.layout
    grid = layout.grid
    tokens = draw_layout(layout, colour=False, cell_text=lambda c: token_text(state, c, colour))
    board = _with_totem(tokens.split("\n"), grid, state.totem, colour)
    territories = draw_layout(layout, colour=colour).split("\n")
    territories = [""] + territories + [""]
    lines = [f"{left}   {right}".rstrip() for left, right in zip(board, territories)]
    if state.totem is not None:
        lines.append(f"totem at {state.totem}, facing {grid.line_name(state.totem)}")

    scoring = state.scoring()
    for player in (0, 1):
        name = styled(f"{PLAYER_NAMES[player]:<6}", colour, fg=PLAYER_COLOURS[player], bold=True)
        hand = " ".join(f"{letter}{n}" for letter, n in state.reserve(player).items())
        okapi = " (Okapi included)" if scoring.okapi == player else ""
        lines.append(f"{name} {labels[player]:<16} hand {hand:<18} "
                     f"{scoring.totals[player]:>3} points{okapi}")
    if state.variant.deck_game:
        lines.append(f"cards: first {hand_text(state, 0)}; second {hand_text(state, 1)}; "
                     f"{state.deck_size()} in the deck (order hidden)")
    parts = []
    for t in scoring.territories:
        first, second = t.tokens
        lead = {None: "-", -1: "="}.get(t.controller) or PLAYER_NAMES[t.controller][0]
        parts.append(f"{t.name} {first}:{second} {lead} {t.points}")
    lines.append("territories (first:second tokens, leader f/s, points): " + "  ".join(parts))
    return "\n".join(lines)


def list_moves(state: KiwaraState) -> str:
    """The legal moves, compactly: placements that differ only by the animal or by the totem's
    step are grouped, ``[ZGE]c3>12|13|14`` stands for nine moves."""
    moves = [str(m) for m in state.legal_moves()]
    by_rest: dict[str, list[str]] = {}
    for text in moves:
        if text[0] in "ZGELC" and len(text) > 1 and text[1].islower():
            by_rest.setdefault(text[1:], []).append(text[0])
        else:
            by_rest.setdefault(text, []).append("")
    by_placement: dict[str, list[str]] = {}
    for rest, kinds in by_rest.items():
        prefix = kinds[0] if len(kinds) == 1 else "[" + "".join(kinds) + "]"
        head, sep, tail = (prefix + rest).partition(">")
        by_placement.setdefault(head + sep, []).append(tail)
    groups = [head + "|".join(tails) for head, tails in by_placement.items()]
    return f"{plural(len(moves), 'legal move')}: " + " ".join(groups)


def outcome_line(state: KiwaraState) -> str:
    scoring = state.scoring()
    first, second = scoring.totals
    return f"game over: {verdict(scoring)}, {first} to {second}"


# -- the table ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class KiwaraTableView:
    """Kiwara at the table: a board everyone sees (perfect information), redrawn after every
    move with both seats' ``labels``; the legal moves grouped, not numbered (they run to 90)."""

    labels: Sequence[str]
    colour: bool = False
    notation_help: str = NOTATION_HELP
    numbered: bool = False

    def seat_names(self, reader: int | None) -> list[str]:
        return [styled(name, self.colour, fg=PLAYER_COLOURS[p], bold=True)
                for p, name in enumerate(PLAYER_NAMES)]

    def table(self, state: KiwaraState, reader: int | None) -> str:
        return draw_game(state, self.labels, self.colour)

    def move_list(self, state: KiwaraState) -> str:
        return list_moves(state)

    def narrate(self, play: Play, reader: int | None, names: Sequence[str]) -> list[str]:
        if play.player == CHANCE:
            return [dealt_text(play.before, play.after, self.colour)]
        who = names[play.player]
        if not play.seat.is_human:
            return [f"{who} ({play.seat.label}) plays {play.move}{play.note}"]
        if play.forced:
            return [f"{who} has no token left in hand and passes" if play.move.is_pass
                    else f"{who} plays {play.move}, the only legal move"]
        return []                      # the person typed it

    def outcome(self, state: KiwaraState, names: Sequence[str]) -> str:
        return outcome_line(state)
