"""A tiny game of the core protocol, so the lab's machinery (matches, metrics, store, sweeps,
Dask) is tested fast and independently of the real engine.

"Claim", played on a layout's regions: players alternately claim one of the first ``choices``
empty cells (reading order); a region scores its size for the player holding more of its cells.
The first player's first move is a pass-like opening (move -1). Its own statistics: regions won
by each seat (from the outcome) and the move on which a region was first filled (from a
tracker); its own metrics: a row (regions won by the first player) and a table (per region).
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass

from kiwara_designer.agents import register_agent
from kiwara_designer.core.game import TERMINAL, GameBase, Metric, Outcome
from kiwara_designer.games.kiwara.game import KIWARA
from kiwara_designer.games.kiwara.layout import Layout
from kiwara_designer.core.stats import Summary, summarise
from toy_games import ToyMoveError


@dataclass(frozen=True)
class ToyVariant:
    name: str = "toy"
    choices: int = 3


@dataclass(frozen=True)
class ClaimState:
    layout: Layout
    variant: ToyVariant
    owner: tuple[int | None, ...]
    ply: int = 0

    @property
    def game(self) -> "ClaimGame":
        return TOY_GAME

    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else self.ply % 2

    def legal_moves(self) -> list[int]:
        if self.is_terminal():
            return []
        if self.ply == 0:
            return [-1]
        empty = [c for c, o in enumerate(self.owner) if o is None]
        return empty[:self.variant.choices]

    def apply(self, move: int) -> "ClaimState":
        if move not in self.legal_moves():
            raise ToyMoveError(f"illegal move {move}")
        owner = list(self.owner)
        if move != -1:
            owner[move] = self.current_player()
        return ClaimState(self.layout, self.variant, tuple(owner), self.ply + 1)

    def is_terminal(self) -> bool:
        return all(o is not None for o in self.owner)

    def region_holders(self) -> list[int | None]:
        holders = []
        for region in self.layout.territories:
            first = sum(self.owner[c] == 0 for c in region.cells)
            second = sum(self.owner[c] == 1 for c in region.cells)
            holders.append(0 if first > second else 1 if second > first else None)
        return holders

    def totals(self) -> tuple[int, int]:
        totals = [0, 0]
        for region, holder in zip(self.layout.territories, self.region_holders()):
            if holder is not None:
                totals[holder] += region.size
        return totals[0], totals[1]

    def returns(self) -> tuple[float, float]:
        first, second = self.totals()
        if not self.is_terminal() or first == second:
            return (0.0, 0.0)
        return (1.0, -1.0) if first > second else (-1.0, 1.0)

    def chance_outcomes(self) -> list:
        return []

    def information_state(self, player: int):
        return (self.owner, self.ply)

    observation = information_state

    def determinize(self, player: int, rng: random.Random) -> "ClaimState":
        return self


class FirstFullRegion:
    """The tracker: on which move a region was first filled (None if never)."""

    def __init__(self) -> None:
        self.moves, self.filled = 0, None

    def update(self, state: ClaimState) -> None:
        self.moves += 1
        if self.filled is None and any(all(state.owner[c] is not None for c in region.cells)
                                       for region in state.layout.territories):
            self.filled = self.moves

    def stats(self) -> dict:
        return {"first_full_region": self.filled}


@dataclass(frozen=True)
class RegionTable:
    shares: tuple[tuple[str, float], ...]     # region name, share of games the first seat held it

    def to_json(self) -> list:
        return [{"name": n, "first": s} for n, s in self.shares]

    def text_lines(self, label_width: int) -> list[str]:
        return [f"  {'region held by 1st':<{label_width}}share"] + [
            f"  {'  ' + n:<{label_width}}{s:.3f}" for n, s in self.shares]


def regions_won_by_first(games, setup) -> Summary:
    return summarise([g.stats["regions_won"][0] for g in games])


def region_table(games, setup) -> RegionTable:
    names = setup.names if setup is not None else ()
    n = len(games) or 1
    return RegionTable(tuple((name, sum(g.stats["holders"][i] == 0 for g in games) / n)
                             for i, name in enumerate(names)))


METRICS = (
    Metric("regions_won_by_first", regions_won_by_first, label="regions won by 1st player",
           rank={"regions_won_by_first": lambda s: s.mean}),
    Metric("regions", region_table, table=True,
           rank={"first_region_share": lambda t: t.shares[0][1] if t.shares else None}),
)


class ClaimGame(GameBase):
    name = "claim"

    def new_state(self, setup: Layout, variant: ToyVariant | None = None) -> ClaimState:
        return ClaimState(setup, variant or ToyVariant(), (None,) * setup.grid.size)

    def default_variant(self) -> ToyVariant:
        return ToyVariant()

    def parse_move(self, state, text: str) -> int:
        return int(text)

    def evaluate(self, state: ClaimState, player: int) -> float:
        totals = state.totals()
        return totals[player] - totals[1 - player]

    def outcome(self, state: ClaimState) -> Outcome:
        holders = state.region_holders()
        first, second = state.totals()
        return Outcome((first, second), None if first == second else (0 if first > second else 1),
                       {"regions_won": [holders.count(0), holders.count(1)], "holders": holders})

    def tracker(self, state) -> FirstFullRegion:
        return FirstFullRegion()

    def metrics(self):
        return METRICS

    def record(self, setup, variant, moves, **meta):
        return {"rows": list(setup.rows), "moves": list(moves), **meta}

    # a layout, keyed, described, drawn, ranked and reported as Kiwara's
    setup_noun = KIWARA.setup_noun

    def setup_key(self, setup: Layout) -> str:
        return KIWARA.setup_key(setup)

    def setup_from_key(self, key: str) -> Layout:
        return KIWARA.setup_from_key(key)

    def setup_descriptors(self, setup: Layout) -> dict:
        return KIWARA.setup_descriptors(setup)

    def setup_text(self, setup: Layout) -> str:
        return KIWARA.setup_text(setup)

    def setup_picture(self, setup: Layout) -> str:
        return KIWARA.setup_picture(setup)

    def rank_columns(self, setup: Layout):
        return KIWARA.rank_columns(setup)

    def report_sections(self, store, rows, top):
        from kiwara_designer.games.kiwara.report import layout_sections
        return layout_sections(self, store, rows, top)

    def __reduce__(self):
        return "TOY_GAME"


TOY_GAME = ClaimGame()


# -- the toy's own agents (besides the generic random, greedy and mcts) ----------------------------
@dataclass(frozen=True)
class ToyFirstChoice:
    """Always the first legal move (consumes no randomness): a deterministic "weak" agent."""

    name: str = "first"

    def choose(self, state, rng: random.Random):
        return state.legal_moves()[0]


@dataclass(frozen=True)
class ToySlow:
    """Random, but takes 2 ms per move: long enough games to kill a sweep in the middle."""

    name: str = "slow"

    def choose(self, state, rng: random.Random):
        time.sleep(0.002)
        return rng.choice(state.legal_moves())


register_agent("first", lambda text, args, game: ToyFirstChoice(text), game="claim")
register_agent("slow", lambda text, args, game: ToySlow(text), game="claim")

SMALL = Layout.from_rows(["AABB", "ACCB", "DDCB"])
# distinct under the board's symmetries, so each is its own row in a store
LAYOUTS = [Layout.from_rows(rows) for rows in (
    ["AABB", "ACCB", "DDCB"], ["AAAB", "CCAB", "DDDB"], ["ABBB", "ACCB", "ADDD"],
    ["AABB", "AABB", "CCDD"], ["ABCD", "ABCD", "ABCD"], ["AAAA", "BBCC", "DDCC"])]
