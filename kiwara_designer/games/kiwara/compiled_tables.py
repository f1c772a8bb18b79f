"""The tables the compiled rules core (``_engine.Rules``, see ``_core/core.h``) is built from.

:func:`rules_tables` turns state.py's precomputed :class:`~.state._Tables` (one layout and one
variant) into the plain dict of ints, bools and tuples ``_engine.Rules(tables)`` reads, so the
C core and the Python engine share one source of lines, totem steps, reaches and territories.
"""
from __future__ import annotations

from typing import Any


def rules_tables(t: Any) -> dict[str, Any]:
    """The ``_engine.Rules`` dict of a state.py ``_Tables`` (``state._t``); Okapi games only."""
    variant = t.variant
    grid = t.grid
    max_swaps = t.max_swaps
    return {
        "width": grid.width,
        "height": grid.height,
        "size": grid.size,
        "positions": t.P,
        "lines": tuple(tuple(line) for line in t.lines),
        # aligned with lines[p]: the line crossing the faced one at each of its cells
        "crossing": tuple(tuple(t.crossing[p][c] for c in t.lines[p]) for p in range(t.P)),
        "pos_line": tuple(t.pos_line),
        "cell_lines": tuple(tuple(pair) for pair in t.cell_lines),
        "step_targets": tuple(tuple((q, line) for q, line in targets)
                              for targets in t.step_targets),
        "jump_targets": tuple(tuple((q, line) for q, line in targets)
                              for targets in t.jump_targets),
        "lion_reach": tuple(tuple(r) for r in t.lion_reach),
        "swap_reach": tuple(tuple(r) for r in t.swap_reach),
        "territory": tuple(t.territory),
        "territory_cells": tuple(tuple(cells) for cells in t.territory_cells),
        "tokens": tuple(t.tokens),
        "points": tuple(t.points),
        "max_swaps": -1 if max_swaps is None else int(max_swaps),
        "lion_flee": bool(t.lion_flee),
        "lion_flip": bool(t.lion_flip),
        "down_near_lion": bool(t.down_near_lion),
        "swap_down_near_lion": bool(t.swap_down_near_lion),
        "first_placer": t.first_placer,
        "okapi_points": variant.okapi_points,
        "tie_both": variant.territory_tie == "both",
    }


def position_tuple(state: Any) -> tuple:
    """A KiwaraState's position as the compiled core reads and writes it."""
    return (state._board, state._reserve, state._line_empty, state._empty, state._totem,
            state._to_move, state._okapi, state.ply)
