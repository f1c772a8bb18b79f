"""The one-ply greedy agent: play the move after which :func:`evaluate` is best for the mover."""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from .base import _legal_moves
from .evaluation import evaluate


def _placement(move: Any) -> tuple:
    """What a move does to the board: moves differing only by the totem's destination leave
    the same tokens, so :func:`evaluate` (which never looks at the totem) scores them alike."""
    return (move.kind, move.cell, move.swaps)


@dataclass(frozen=True)
class GreedyAgent:
    """Looks one move ahead; among the moves of equal best evaluation (the totem destinations of
    the best placement, at least) it picks one with ``rng``, uniformly, so it is not predictable
    but is reproducible."""

    name: str = "greedy"

    def choose(self, state: Any, rng: random.Random) -> Any:
        moves = _legal_moves(state)
        if len(moves) == 1:
            return moves[0]
        player = state.current_player()
        values: dict[tuple, float] = {}
        for move in moves:
            key = _placement(move)
            if key not in values:
                values[key] = evaluate(state.apply(move), player)
        best_value = max(values.values())
        best = [m for m in moves if values[_placement(m)] >= best_value - 1e-9]
        return best[0] if len(best) == 1 else rng.choice(best)
