"""The one-ply greedy agent: play the move after which the game's ``evaluate`` is best for the
mover."""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from .base import _legal_moves, no_parameters, register_agent


@dataclass(frozen=True)
class GreedyAgent:
    """Looks one move ahead; among the moves of equal best evaluation it picks one with ``rng``,
    uniformly, so it is not predictable but is reproducible. Moves with the same
    ``game.evaluation_key`` (for Kiwara: the same placement, whatever the totem's destination)
    are evaluated once. A move after which the same player moves again (a Kiwara card use) is
    worth the best of the moves it leads to."""

    name: str = "greedy"

    def choose(self, state: Any, rng: random.Random) -> Any:
        moves = _legal_moves(state)
        if len(moves) == 1:
            return moves[0]
        game = state.game
        player = state.current_player()
        if game.perfect_information:
            # Forget what nobody may know (Kiwara: a fixed deck order; its draws become chance
            # nodes, which the evaluation never resolves). The state itself for other games.
            state = state.determinize(player, rng)
        keys = [game.evaluation_key(move) for move in moves]
        values: dict = {}
        for move, key in zip(moves, keys):
            if key not in values:
                values[key] = _value(game, state.apply(move), player)
        best_value = max(values.values())
        best = [m for m, key in zip(moves, keys) if values[key] >= best_value - 1e-9]
        return best[0] if len(best) == 1 else rng.choice(best)


def _value(game: Any, state: Any, player: int) -> float:
    """``player``'s evaluation of ``state``; when the same player moves again at once (Kiwara:
    after using a card, they place), the best of their next moves, so that a card is weighed
    with the placement it allows."""
    if state.current_player() != player:
        return game.evaluate(state, player)
    values = {}
    for move in state.legal_moves():
        key = game.evaluation_key(move)
        if key not in values:
            values[key] = game.evaluate(state.apply(move), player)
    return max(values.values())


register_agent("greedy", no_parameters("greedy", GreedyAgent))
