"""Kiwara's static evaluation, the game's `evaluate` (the greedy agent's and the play-test lab's).

``evaluate(state, player)`` estimates, in points, how far ``player`` is ahead:

    sum over territories t of   stake(t) × lead(t)   ±  the Okapi bonus, if awarded

* ``stake(t)`` = points of the face-up tokens already in t (both players' — the controller scores
  them all) + ``FUTURE_POINTS_PER_CELL`` × empty cells of t (what later placements may add);
* ``lead(t)`` = the majority margin m = (player's tokens − opponent's tokens in t, face-down ones
  included) turned into a share of the stake: ±1 once the territory is decided (|m| > empty cells,
  so no placement can turn it; a fled gazelle can still reopen it), otherwise m / (empty + 1), so a
  lead counts for more the fewer cells are left to contest it;
* the Okapi bonus counts for whoever holds it; in a deck game, so do held points cards (action
  cards count nothing: their worth depends on the position they are used in).

On a full board every territory is decided and the evaluation is exactly the final score
difference (first − second from the first player's view), so it agrees with the engine's result.
"""
from __future__ import annotations

from typing import Any

# Mean value of a classic token is 48/15 = 3.2 points; a little less, since some end face down.
FUTURE_POINTS_PER_CELL = 3.0


def evaluate(state: Any, player: int) -> float:
    """Estimated point lead of ``player`` (0 = first, 1 = second) in ``state``; see the module
    docstring for the formula."""
    scoring = state.scoring()
    value = 0.0
    for t in scoring.territories:
        first, second = t.tokens
        empty = t.size - first - second
        margin = first - second if player == 0 else second - first
        stake = t.points + FUTURE_POINTS_PER_CELL * empty
        if margin > empty:
            value += stake
        elif -margin > empty:
            value -= stake
        else:
            value += stake * margin / (empty + 1)
    if scoring.okapi is not None:
        value += scoring.okapi_points if scoring.okapi == player else -scoring.okapi_points
    if scoring.card_points is not None:
        value += scoring.card_points[player] - scoring.card_points[1 - player]
    return value
