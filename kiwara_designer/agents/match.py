"""Playing agents against each other, for benchmarks, tests and the play-test lab."""
from __future__ import annotations

import random
from typing import Any, Sequence

from .base import Agent


def play_match(state: Any, agents: Sequence[Agent], rng: random.Random) -> tuple[Any, list]:
    """Play ``agents[player]`` for each player from ``state`` to the end; return the final state
    and the moves played. Deterministic given ``rng`` (for agents with iteration budgets)."""
    moves = []
    while not state.is_terminal():
        move = agents[state.current_player()].choose(state, rng)
        state = state.apply(move)
        moves.append(move)
    return state, moves
