"""Take-away as a game of the core protocol: the registry's ``takeaway``."""
from __future__ import annotations

from dataclasses import dataclass

from kiwara_designer.core.errors import KiwaraError
from kiwara_designer.core.game import TERMINAL, GameBase


@dataclass(frozen=True)
class Pile:
    stones: int
    player: int = 0

    @property
    def game(self) -> "TakeAwayGame":
        return TAKEAWAY

    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else self.player

    def legal_moves(self) -> list[int]:
        return [k for k in (1, 2, 3) if k <= self.stones]

    def apply(self, move) -> "Pile":
        if move not in self.legal_moves():
            raise KiwaraError(f"take 1, 2 or 3 stones, at most the {self.stones} left")
        return Pile(self.stones - move, 1 - self.player)

    def is_terminal(self) -> bool:
        return self.stones == 0

    def returns(self) -> tuple[float, float]:
        if not self.is_terminal():
            return (0.0, 0.0)
        return (1.0, -1.0) if self.player == 1 else (-1.0, 1.0)   # the last mover won

    def chance_outcomes(self) -> list:
        return []

    def information_state(self, player: int):
        return self

    def observation(self, player: int):
        return self

    def determinize(self, player: int, rng):
        return self


class TakeAwayGame(GameBase):
    name = "takeaway"

    def new_state(self, setup=None, variant=None) -> Pile:
        return Pile(10 if setup is None else int(setup))

    def parse_move(self, state: Pile, text: str) -> int:
        if text.strip() not in ("1", "2", "3"):
            raise KiwaraError("a move is 1, 2 or 3 (stones taken)")
        return int(text)

    def evaluate(self, state: Pile, player: int) -> float:
        if state.is_terminal():
            return state.returns()[player]
        mover_wins = state.stones % 4 != 0       # a multiple of 4 loses with best play
        return 1.0 if mover_wins == (state.player == player) else -1.0

    def record(self, setup, variant, moves, **meta) -> dict:
        return {"game": self.name, "stones": setup, "moves": list(moves), **meta}

    def setup_key(self, setup) -> str:
        return str(10 if setup is None else setup)

    def setup_from_key(self, key: str) -> int:
        return int(key)


TAKEAWAY = TakeAwayGame()
