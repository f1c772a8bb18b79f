"""Playing agents against each other, for benchmarks, tests and the play-test lab."""
from __future__ import annotations

import random
from typing import Any, Sequence

from ..core.game import CHANCE, sample_chance
from .base import Agent


def play_match(state: Any, agents: Sequence[Agent], rng: random.Random,
               chance_rng: random.Random | None = None) -> tuple[Any, list]:
    """Play ``agents[player]`` for each player from ``state`` to the end; return the final state
    and the moves played. Chance nodes are drawn with ``chance_rng`` (default: ``rng``).
    Deterministic given the generators (for agents with iteration budgets)."""
    chance_rng = chance_rng or rng
    moves = []
    while not state.is_terminal():
        player = state.current_player()
        if player == CHANCE:
            move = sample_chance(state, chance_rng)
        else:
            move = agents[player].choose(state, rng)
        state = state.apply(move)
        moves.append(move)
    return state, moves
