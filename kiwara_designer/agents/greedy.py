"""The one-ply greedy agent: play the move after which :func:`evaluate` is best for the mover."""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from .base import _legal_moves
from .evaluation import evaluate


@dataclass(frozen=True)
class GreedyAgent:
    """Looks one move ahead; among the moves of equal best evaluation it picks one with ``rng``
    (uniformly), so it is not predictable but is reproducible."""

    name: str = "greedy"

    def choose(self, state: Any, rng: random.Random) -> Any:
        moves = _legal_moves(state)
        if len(moves) == 1:
            return moves[0]
        player = state.current_player()
        best: list = []
        best_value = None
        for move in moves:
            value = evaluate(state.apply(move), player)
            if best_value is None or value > best_value + 1e-9:
                best, best_value = [move], value
            elif value >= best_value - 1e-9:
                best.append(move)
        return best[0] if len(best) == 1 else rng.choice(best)
