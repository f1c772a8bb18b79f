"""perft: the number of distinct move sequences of a given length, the move generator's check."""
from __future__ import annotations

from .moves import Move
from .state import GameState


def perft(state: GameState, depth: int) -> int:
    """Move sequences of length ``depth`` from ``state`` (perft(0) = 1; a finished game has none)."""
    if depth < 0:
        raise ValueError("perft depth must be >= 0")
    if depth == 0:
        return 1
    moves = state.legal_moves()
    if depth == 1:
        return len(moves)
    return sum(perft(state.apply(m), depth - 1) for m in moves)


def perft_divide(state: GameState, depth: int) -> list[tuple[Move, int]]:
    """perft(depth - 1) under each legal move, in move order (depth >= 1)."""
    if depth < 1:
        raise ValueError("perft_divide needs depth >= 1")
    return [(m, perft(state.apply(m), depth - 1)) for m in state.legal_moves()]
