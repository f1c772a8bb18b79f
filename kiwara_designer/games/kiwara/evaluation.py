"""Kiwara's static evaluation, the game's `evaluate` (the greedy agent's and the play-test lab's).

``evaluate(state, player)`` estimates, in points, how far ``player`` is ahead:

    sum over territories t of   stake(t) × lead(t)   ±  the Okapi bonus, if awarded

* ``stake(t)`` = points of the face-up tokens already in t (both players' — the controller scores
  them all) + ``FUTURE_POINTS_PER_CELL`` × empty cells of t (what later placements may add);
* ``lead(t)`` = the majority margin m = (player's tokens − opponent's tokens in t, face-down ones
  included) turned into a share of the stake: ±1 once the territory is decided (|m| > empty cells,
  so no placement can turn it; a fled gazelle can still reopen it), otherwise m / (empty + 1), so a
  lead counts for more the fewer cells are left to contest it;
* the Okapi bonus counts for whoever holds it; in a deck game, so do held points cards, and each
  held action card counts ``ACTION_CARD_POINTS`` × the share of the board still empty (what it
  may yet do; nothing once the game is over). Using a card gives that up, so a card use is worth
  what it changes on the board less the card, like any other move: the greedy agent plays a
  card only when it gains more than keeping it.

On a full board every territory is decided and the evaluation is exactly the final score
difference (first − second from the first player's view), so it agrees with the engine's result.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

# Mean value of a classic token is 48/15 = 3.2 points; a little less, since some end face down.
FUTURE_POINTS_PER_CELL = 3.0
# What an action card in hand is worth on an empty board, in points: about one token placed
# (see the docstring).
ACTION_CARD_POINTS = 3.0


def evaluate(state: Any, player: int) -> float:
    """Estimated point lead of ``player`` (0 = first, 1 = second) in ``state``; see the module
    docstring for the formula."""
    scoring = state.scoring()
    value = 0.0
    empty_cells = cells = 0
    for t in scoring.territories:
        first, second = t.tokens
        empty = t.size - first - second
        empty_cells, cells = empty_cells + empty, cells + t.size
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
        if ACTION_CARD_POINTS and not state.is_terminal():
            held = _action_cards(state, player) - _action_cards(state, 1 - player)
            value += held * ACTION_CARD_POINTS * empty_cells / cells
    return value


def _action_cards(state: Any, player: int) -> int:
    actions = _action_names(state.variant.cards)
    return sum(name in actions for name in state.hand(player))


@lru_cache(maxsize=32)
def _action_names(cards: tuple) -> frozenset[str]:
    return frozenset(card.name for card in cards if not card.passive)
