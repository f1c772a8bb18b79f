"""What a finished round is worth in the match: the value at which a search's playout stops.

A round's playout decides who wins that round; the rounds after it are dealt afresh, so
playing them out at random adds noise, not knowledge (only who leads next depends on this
round). So at a round's end the match is valued as if every round still to play were a coin
flip: with ``a`` and ``b`` rounds still needed by the player and the opponent, the player wins
the match with probability

    P(a, b) = Σ_{k=0}^{b−1} C(a − 1 + k, k) / 2^(a + k)      (the a-th win before the b-th loss)

and the value is the expected return 2·P − 1, in the protocol's [−1, 1]: ±1 once the match is
over, 0 at level rounds, +0.5 one round up in a best of three. Everything it reads (rounds
won) is public, so it is the same from either player's view, and it sums to zero.
"""
from __future__ import annotations

from functools import lru_cache
from math import comb
from typing import Any


@lru_cache(maxsize=None)
def match_win_chance(needed: int, opponent_needed: int) -> float:
    """Chance to win ``needed`` coin-flip rounds before the opponent wins ``opponent_needed``."""
    if needed <= 0:
        return 1.0
    if opponent_needed <= 0:
        return 0.0
    return sum(comb(needed - 1 + k, k) / 2 ** (needed + k) for k in range(opponent_needed))


def match_value(state: Any, player: int) -> float:
    """``player``'s expected match return from the rounds won so far, later rounds coin flips."""
    target = state.variant.rounds_to_win
    won = state.rounds_won
    return 2 * match_win_chance(target - won[player], target - won[1 - player]) - 1


def stage_returns(state: Any) -> tuple[float, float]:
    """Both seats' :func:`match_value`: the returns a playout stopped at a round's end gives."""
    first = match_value(state, 0)
    return first, -first
