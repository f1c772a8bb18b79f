"""Exact search of a game's last plies: alpha-beta over win, draw and loss.

``solve(state, budget)`` is the value of ``state`` for its player to move under best play by
both (+1 a win, 0 a draw, −1 a loss) with the first legal move reaching it, or None when that
would take more than ``budget`` positions (or the game has chance nodes ahead, which this
search does not average). Values are whole wins and losses, not margins: the three values cut
the tree far more than points would, and a won endgame is what a strong player wants.

This is the readable reference; a game's compiled core may run the same search (node for node:
the same order, cut-offs and count, so both give up at the same point), which it does when
:func:`~kiwara_designer.core.game.compiled_twin` offers one.
"""
from __future__ import annotations

from typing import Any

from ..core.game import compiled_twin


class _GiveUp(Exception):
    """The budget is spent, or a chance node lies ahead."""


def solve(state: Any, budget: int) -> tuple[int, int] | None:
    """``(value, index)``: the value for the player to move and the first legal move (its
    index) reaching it; None past ``budget`` positions or at a chance node."""
    fast = compiled_twin(state)
    if fast is not None:
        return fast.solve(budget)
    root = state.current_player()
    visited = 0

    def value(s: Any, alpha: int, beta: int) -> int:
        nonlocal visited
        visited += 1
        if visited > budget:
            raise _GiveUp
        if s.is_terminal():
            return round(s.returns()[root])
        player = s.current_player()
        if player < 0:
            raise _GiveUp
        maximizing = player == root
        best = -2 if maximizing else 2
        for move in s.legal_moves():
            v = value(s.apply(move), alpha, beta)
            if maximizing:
                best = max(best, v)
                alpha = max(alpha, best)
            else:
                best = min(best, v)
                beta = min(beta, best)
            if alpha >= beta:
                break
        return best

    if root < 0:
        return None
    best, chosen, alpha = -2, -1, -2
    try:
        for i, move in enumerate(state.legal_moves()):
            v = value(state.apply(move), alpha, 2)
            if v > best:
                best, chosen = v, i
            alpha = max(alpha, best)
            if best == 1:
                break
    except _GiveUp:
        return None
    return best, chosen
