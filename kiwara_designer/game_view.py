"""Game positions and scores as terminal text (at the edge, like ``terminal``: the engine knows
nothing of this module).

Tokens: first player upper case, second player lower case, face-down tokens in brackets
(``[z]``), empty cells ``·``.
"""
from __future__ import annotations

from .engine import GameState, Scoring
from .engine.variant import KIND_NAMES, KINDS
from .terminal import draw_layout

PLAYER_NAMES = ("first", "second")
LEGEND = ("first player ZGELC, second player zgelc (zebra gazelle elephant lion crocodile); "
          "[z] face down")


def token_text(state: GameState, cell: int) -> str:
    """Three characters for a cell: `` Z ``, ``[g]``, `` · ``."""
    token = state.token(cell)
    if token is None:
        return " · "
    letter = token.kind if token.owner == 0 else token.kind.lower()
    return f" {letter} " if token.face_up else f"[{letter}]"


def draw_state(state: GameState, colour: bool = False) -> str:
    """The board with its tokens, the totem, the reserves and whose turn it is."""
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
    if state.is_terminal():
        lines.append(f"game over after {state.ply} moves")
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
    first, second = scoring.totals
    if scoring.winner is None:
        verdict = "draw" if scoring.final else "level"
    else:
        verdict = f"{PLAYER_NAMES[scoring.winner]} player " + ("wins" if scoring.final else "leads")
    kind = "final score" if scoring.final else "provisional score"
    rows.append(f"{kind}: first {first}, second {second}: {verdict}")
    return "\n".join(rows)
