"""A tiny stand-in game with the engine's state surface, so the lab's machinery (matches, store,
sweeps, Dask) is tested fast and independently of the real engine.

"Claim": players alternately claim one of the first ``choices`` empty cells (reading order) of a
layout; a territory scores its size for the player holding more of its cells; the first player to
fill a territory takes a 1-point "okapi". The first player's first move is a pass-like opening
(move -1), like Kiwara's totem opening.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from kiwara_designer.layout import Layout
from kiwara_designer.playtest import GameKit


@dataclass(frozen=True)
class ToyVariant:
    name: str = "toy"
    choices: int = 3
    okapi_points: int = 1


@dataclass(frozen=True)
class ToyTerritory:
    tokens: tuple[int, int]
    points: int
    size: int


@dataclass(frozen=True)
class ToyScoring:
    totals: tuple[int, int]
    winner: int | None
    okapi: int | None
    territories: tuple[ToyTerritory, ...]


@dataclass(frozen=True)
class ToyState:
    layout: Layout
    variant: ToyVariant
    owner: tuple[int | None, ...]
    ply: int = 0
    okapi: int | None = None

    def current_player(self) -> int:
        return -1 if self.is_terminal() else self.ply % 2

    def legal_moves(self) -> list[int]:
        if self.is_terminal():
            return []
        if self.ply == 0:
            return [-1]
        empty = [c for c, o in enumerate(self.owner) if o is None]
        return empty[:self.variant.choices]

    def apply(self, move: int) -> "ToyState":
        if move not in self.legal_moves():
            raise ValueError(f"illegal move {move}")
        if move == -1:
            return ToyState(self.layout, self.variant, self.owner, self.ply + 1, self.okapi)
        owner = list(self.owner)
        owner[move] = self.current_player()
        okapi = self.okapi
        if okapi is None:
            t = self.layout.assignment[move]
            cells = self.layout.territories[t].cells
            if all(owner[c] is not None for c in cells):
                okapi = self.current_player()
        return ToyState(self.layout, self.variant, tuple(owner), self.ply + 1, okapi)

    def is_terminal(self) -> bool:
        return all(o is not None for o in self.owner)

    def scoring(self) -> ToyScoring:
        territories, totals = [], [0, 0]
        for t in self.layout.territories:
            first = sum(self.owner[c] == 0 for c in t.cells)
            second = sum(self.owner[c] == 1 for c in t.cells)
            territories.append(ToyTerritory((first, second), first + second, t.size))
            if first > second:
                totals[0] += t.size
            elif second > first:
                totals[1] += t.size
        if self.okapi is not None:
            totals[self.okapi] += self.variant.okapi_points
        winner = None
        if self.is_terminal() and totals[0] != totals[1]:
            winner = 0 if totals[0] > totals[1] else 1
        return ToyScoring(tuple(totals), winner, self.okapi, tuple(territories))

    def returns(self) -> tuple[float, float]:
        w = self.scoring().winner
        return (0.0, 0.0) if w is None else ((1.0, -1.0) if w == 0 else (-1.0, 1.0))


def new_toy_game(layout: Layout, variant: ToyVariant) -> ToyState:
    return ToyState(layout, variant, (None,) * layout.grid.size)


@dataclass(frozen=True)
class ToyRandom:
    name: str = "random"

    def choose(self, state, rng: random.Random):
        return rng.choice(state.legal_moves())


@dataclass(frozen=True)
class ToyFirstChoice:
    """Always the first legal move (consumes no randomness): a deterministic "weak" agent."""

    name: str = "first"

    def choose(self, state, rng: random.Random):
        return state.legal_moves()[0]


@dataclass(frozen=True)
class ToyGreedy:
    """Claims the cell that most improves its score lead (ties: first such cell)."""

    name: str = "greedy"

    def choose(self, state, rng: random.Random):
        me = state.current_player()

        def lead(move):
            totals = state.apply(move).scoring().totals
            return totals[me] - totals[1 - me]
        return max(state.legal_moves(), key=lead)


@dataclass(frozen=True)
class ToySlow:
    """Random, but takes 2 ms per move: long enough games to kill a sweep in the middle."""

    name: str = "slow"

    def choose(self, state, rng: random.Random):
        import time
        time.sleep(0.002)
        return rng.choice(state.legal_moves())


def make_toy_agent(spec: str):
    agents = {"random": ToyRandom, "first": ToyFirstChoice, "greedy": ToyGreedy, "slow": ToySlow}
    if spec not in agents:
        from kiwara_designer.playtest import PlaytestError
        raise PlaytestError(f"unknown toy agent {spec!r}")
    return agents[spec]()


def toy_evaluate(state: ToyState, player: int) -> float:
    totals = state.scoring().totals
    return totals[player] - totals[1 - player]


TOY_KIT = GameKit(new_game=new_toy_game, make_agent=make_toy_agent, evaluate=toy_evaluate,
                  default_variant=ToyVariant)
SMALL = Layout.from_rows(["AABB", "ACCB", "DDCB"])
# distinct under the board's symmetries, so each is its own row in a store
LAYOUTS = [Layout.from_rows(rows) for rows in (
    ["AABB", "ACCB", "DDCB"], ["AAAB", "CCAB", "DDDB"], ["ABBB", "ACCB", "ADDD"],
    ["AABB", "AABB", "CCDD"], ["ABCD", "ABCD", "ABCD"], ["AAAA", "BBCC", "DDCC"])]
