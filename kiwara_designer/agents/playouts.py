"""Playouts: how a search agent values a leaf, as OpenSpiel's ``Evaluator`` (a rollout to the
end, or to the end of the game's stage). A playout is ``playout(state, rng, stop) -> returns``:
moves are played from ``state`` until the game ends, or until ``stop(state)`` says the stage the
search looks at is over, where the game's ``stage_returns`` value it. A game or a user may add
one with :func:`register_playout`; agent specs name them (``mcts:500:greedy``).
"""
from __future__ import annotations

import math
import random
from typing import Any, Callable, Protocol

from ..core.game import CHANCE, sample_chance

GREEDY_PLAYOUT_SAMPLE = 4   # candidate moves weighed per ply in a greedy-biased playout

Stop = Callable[[Any], bool]


class Playout(Protocol):
    def __call__(self, state: Any, rng: random.Random, stop: Stop | None = None
                 ) -> tuple[float, ...]: ...


def _play_out(state: Any, rng: random.Random, stop: Stop | None,
              step: Callable[[Any, list, int], Any]) -> tuple[float, ...]:
    """The loop every playout shares: chance drawn with its probabilities, each player's move
    chosen by ``step(state, legal_moves, player)`` (the state after it), until the end or
    ``stop(state)``, where the game's ``stage_returns`` value the state."""
    while not state.is_terminal():
        if stop is not None and stop(state):
            return state.game.stage_returns(state)
        player = state.current_player()
        if player == CHANCE:
            state = state.apply(sample_chance(state, rng))
        else:
            state = step(state, state.legal_moves(), player)
    return state.returns()


def _best_after(state: Any, moves: list, player: int) -> Any:
    """The state after the move the game's ``evaluate`` rates best for ``player`` (the first
    of equals)."""
    evaluate = state.game.evaluate
    best_state, best_value = None, -math.inf
    for move in moves:
        after = state.apply(move)
        value = evaluate(after, player)
        if value > best_value:
            best_state, best_value = after, value
    return best_state


def random_playout(state: Any, rng: random.Random, stop: Stop | None = None) -> tuple[float, ...]:
    """Uniform moves to the end, or until ``stop(state)``: then the game's ``stage_returns``
    (ISMCTS stops where a stage, an Awimbawé round, ends)."""
    return _play_out(state, rng, stop, lambda s, moves, player: s.apply(rng.choice(moves)))


def greedy_playout(state: Any, rng: random.Random, stop: Stop | None = None) -> tuple[float, ...]:
    """Each ply weighs a few random candidates with the game's ``evaluate`` for the mover and
    plays the best: far stronger than uniform play, at a few times the cost. ``stop`` as in
    :func:`random_playout`."""
    def step(s: Any, moves: list, player: int) -> Any:
        if len(moves) > GREEDY_PLAYOUT_SAMPLE:
            moves = rng.sample(moves, GREEDY_PLAYOUT_SAMPLE)
        return _best_after(s, moves, player)
    return _play_out(state, rng, stop, step)


PLAYOUT_EPSILON = 0.1       # an epsilon-greedy playout's share of uniform moves


def epsilon_greedy_playout(state: Any, rng: random.Random, stop: Stop | None = None
                           ) -> tuple[float, ...]:
    """Each ply, with probability ``PLAYOUT_EPSILON`` (one ``rng.random()``) a uniform move,
    else the move after which the game's ``evaluate`` is best for the mover among all of them
    (the first of equals): greedier than ``greedy_playout``'s four candidates, dearer by as many
    evaluations as there are moves. ``stop`` as in :func:`random_playout`."""
    def step(s: Any, moves: list, player: int) -> Any:
        if rng.random() < PLAYOUT_EPSILON:
            return s.apply(rng.choice(moves))
        return _best_after(s, moves, player)
    return _play_out(state, rng, stop, step)


# name -> playout, in the order registered (the first is the default)
PLAYOUTS: dict[str, Playout] = {}


def register_playout(name: str, playout: Playout) -> None:
    PLAYOUTS[name] = playout


def stage_playout(playout: Playout, stage: Callable[[Any], Any]) -> Playout:
    """``playout`` stopped where the stage it starts in ends (``stage(state)`` changes)."""
    def staged(state: Any, rng: random.Random, stop: Stop | None = None) -> tuple[float, ...]:
        started_in = stage(state)
        return playout(state, rng, lambda s: stage(s) != started_in)
    return staged


register_playout("random", random_playout)
register_playout("greedy", greedy_playout)
register_playout("egreedy", epsilon_greedy_playout)
