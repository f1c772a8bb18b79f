"""The one-ply greedy agent: play the move after which the game's ``evaluate`` is best for the
mover."""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ..core.game import compiled_twin
from .base import legal_moves_to_choose, no_parameters, register_agent


@dataclass(frozen=True)
class GreedyAgent:
    """Looks one move ahead; among the moves of equal best evaluation it picks one with ``rng``,
    uniformly, so it is not predictable but is reproducible. Moves with the same
    ``game.evaluation_key`` (for Kiwara: the same placement, whatever the totem's destination)
    are evaluated once, unless the same player moves again after them. A move after which the
    same player moves again (a Kiwara card use, a placement before an extra turn) is worth the
    best of the moves it leads to, so every move is valued where the turn passes."""

    name: str = "greedy"

    def choose(self, state: Any, rng: random.Random) -> Any:
        moves = legal_moves_to_choose(state)
        if len(moves) == 1:
            return moves[0]
        game = state.game
        player = state.current_player()
        if game.perfect_information:
            # Forget what nobody may know (Kiwara: a fixed deck order; its draws become chance
            # nodes, which the evaluation never resolves). The state itself for other games.
            state = state.determinize(player, rng)
        fast = compiled_twin(state)
        if fast is not None:
            return moves[fast.greedy(rng)]
        values = _move_values(game, state, moves, player)
        best_value = max(values)
        best = [m for m, value in zip(moves, values) if value >= best_value - 1e-9]
        return best[0] if len(best) == 1 else rng.choice(best)

    def core_spec(self) -> tuple:
        return ("greedy",)


# A greedy decision weighs at most this many positions. While the same player moves again
# (Kiwara: a card, then the placement it allows; cards that give another turn) the lookahead
# multiplies with every card in hand: three such cards took minutes a move. Past the budget a
# position is judged as it stands; positions reached twice (cards used in another order) are
# valued once.
LOOKAHEAD_POSITIONS = 2_000


class _Lookahead:
    """The positions one decision has weighed, and the values of those where the player moved
    again."""

    def __init__(self) -> None:
        self.weighed = 0
        self.values: dict = {}

    @property
    def spent(self) -> bool:
        return self.weighed >= LOOKAHEAD_POSITIONS


def _move_values(game: Any, state: Any, moves: list, player: int,
                 look: _Lookahead | None = None, every: bool = True) -> list[float]:
    """``player``'s value of each move. Moves of one ``evaluation_key`` share the value of the
    first, unless the same player moves again after it: then where the totem went matters.
    ``every`` False (a lookahead within the turn): stop weighing once the budget is spent."""
    look = look or _Lookahead()
    shared: dict = {}
    values: list[float] = []
    for move in moves:
        if values and not every and look.spent:
            break
        key = game.evaluation_key(move)
        if key in shared:
            values.append(shared[key])
            continue
        after = state.apply(move)
        look.weighed += 1
        value = _value(game, after, player, look)
        if after.current_player() != player:
            shared[key] = value
        values.append(value)
    return values


def _value(game: Any, state: Any, player: int, look: _Lookahead | None = None) -> float:
    """``player``'s evaluation of ``state``; when the same player moves again at once (Kiwara:
    after using a card, they place; after a placement, an extra turn), the best of their next
    moves, so that a card is weighed with what it allows (within the decision's budget)."""
    look = look or _Lookahead()
    if state.current_player() != player or look.spent:
        return game.evaluate(state, player)
    value = look.values.get(state)
    if value is None:
        moves = state.legal_moves()
        value = look.values[state] = max(_move_values(game, state, moves, player, look, False))
    return value


register_agent("greedy", no_parameters("greedy", GreedyAgent))
