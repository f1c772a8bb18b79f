"""The static evaluation used by the greedy agent (and by the play-test lab).

``evaluate(state, player)`` estimates, in points, how far ``player`` is ahead:

    sum over territories t of   stake(t) × lead(t)   ±  the Okapi bonus, if awarded

* ``stake(t)`` = points of the face-up tokens already in t (both players' — the controller scores
  them all) + ``FUTURE_POINTS_PER_CELL`` × empty cells of t (what later placements may add);
* ``lead(t)`` = the majority margin m = (player's tokens − opponent's tokens in t, face-down ones
  included) turned into a share of the stake: ±1 once the territory is decided (|m| > empty cells,
  so no placement can turn it; a fled gazelle can still reopen it), otherwise m / (empty + 1), so a
  lead counts for more the fewer cells are left to contest it;
* the Okapi bonus counts for whoever holds it.

On a full board every territory is decided and the evaluation is exactly the final score
difference (first − second from the first player's view), so it agrees with the engine's result.
"""
from __future__ import annotations

from typing import Any

# Mean value of a classic token is 48/15 = 3.2 points; a little less, since some end face down.
FUTURE_POINTS_PER_CELL = 3.0


def territory_facts(state: Any) -> list[tuple[int, int, int, int]]:
    """(first's tokens, second's tokens, face-up points, empty cells) of every territory,
    read from the engine's scoring breakdown."""
    scoring = state.scoring()
    facts = []
    for t in scoring.territories:
        first, second = t.tokens
        facts.append((first, second, t.points, t.size - first - second))
    return facts


def okapi_bonus(state: Any) -> tuple[int | None, float]:
    scoring = state.scoring()
    return scoring.okapi, float(state.variant.okapi_bonus) if scoring.okapi is not None else 0.0


def evaluate(state: Any, player: int) -> float:
    """Estimated point lead of ``player`` (0 = first, 1 = second) in ``state``; see the module
    docstring for the formula."""
    value = 0.0
    for first, second, points, empty in territory_facts(state):
        margin = first - second if player == 0 else second - first
        stake = points + FUTURE_POINTS_PER_CELL * empty
        if margin > empty:
            value += stake
        elif -margin > empty:
            value -= stake
        else:
            value += stake * margin / (empty + 1)
    holder, bonus = okapi_bonus(state)
    if holder is not None:
        value += bonus if holder == player else -bonus
    return value
