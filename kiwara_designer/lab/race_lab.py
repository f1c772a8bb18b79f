"""Racing layouts in the lab: :mod:`.racing` played through the match machinery into the results
store. A layout is an arm; its games are game 0, 1, 2, … of (layout, variant, pairing, seed), as in
a sweep, each stored the moment its batch comes back.

Resuming: the race's rounds are a fixed function of the arms' game values, and every value comes
from a stored game when one exists, so a race killed at any instant (``kill -9``) and run again
replays the same rounds from the store, plays only the games that were never stored, and ends
with the same decisions; nothing is stored twice (the store's UNIQUE key) or lost (each game is
its own transaction). The race's outcome is written to the ``races`` table for the report.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from ..games.kiwara.layout import Layout
from ..core.game import Game
from ..core.workers import WorkerPool, default_workers
from .metrics import agent_a_value, first_player_value
from .matches import (Batch, GameResult, Pairing, check_agents, connect_scheduler, resolve_game,
                      run_batches, run_batches_dask, split_indices)
from .racing import BALANCE, HIGHEST_MEAN, Objective, Race, RaceResult, RaceSettings, run_race
from .store import Experiment, Store, StoreError
from .sweep import SQLITE_MAX, SQLITE_MIN, SWEEP_BATCH


def lead_change_rate_value(game: GameResult) -> float:
    return game.lead_changes / (game.plies - 1) if game.plies > 1 else 0.0


@dataclass(frozen=True)
class RaceMetric:
    """A metric that is a mean of per-game values in [0, 1] (what a race can bound)."""

    name: str
    value: Callable[[GameResult], float]
    objective: Objective
    description: str


RACE_METRICS = {m.name: m for m in (
    RaceMetric("balance", first_player_value, BALANCE,
               "1 − 2·|first-player win rate − ½| (the fairest first)"),
    RaceMetric("first_player_win_rate", first_player_value, HIGHEST_MEAN,
               "first-player wins + draws/2 per game"),
    RaceMetric("agent_a_win_rate", agent_a_value, HIGHEST_MEAN,
               "agent A wins + draws/2 per game (seats alternate)"),
    RaceMetric("lead_change_rate", lead_change_rate_value, HIGHEST_MEAN,
               "lead changes / (plies − 1) per game"),
)}


def race_metric(name: str, ascending: bool = False) -> tuple[RaceMetric, Objective]:
    if name not in RACE_METRICS:
        raise StoreError(f"cannot race by {name!r}: a race needs a mean of per-game values; "
                         f"choose from {', '.join(RACE_METRICS)}")
    metric = RACE_METRICS[name]
    if not ascending:
        return metric, metric.objective
    if metric.objective.kind != "mean":
        raise StoreError(f"--ascending does not apply to {name}")
    return metric, Objective(f"lowest {name}", "lowest")


@dataclass(frozen=True)
class LayoutRace:
    """A finished race over layouts: the generic result, keyed by the store's layout ids."""

    result: RaceResult
    layouts: dict[int, Layout]
    metric: str
    games_played: int              # newly played by this run (the rest came from the store)
    games_stored: int              # newly inserted
    workers: int | str
    seconds: float = field(default=0.0, compare=False)

    def to_json(self) -> dict:
        return {**self.result.to_json(), "metric": self.metric,
                "games_played": self.games_played, "games_stored": self.games_stored,
                "workers": self.workers, "seconds": round(self.seconds, 3),
                "top_rows": {str(i): list(self.layouts[i].rows) for i in self.result.top}}


class _Arms:
    """The race's ``play_more``: game values from the store, the missing games played in one
    parallel round and stored as they come back."""

    def __init__(self, store: Store, arms: dict[int, tuple[Layout, Experiment]], variant: Any,
                 pairing: Pairing, seed: int, metric: RaceMetric, game: Any, run_round) -> None:
        self.store, self.arms, self.variant, self.pairing = store, arms, variant, pairing
        self.seed, self.metric, self.game, self.run_round = seed, metric, game, run_round
        self.next_index = {arm: 0 for arm in arms}
        self.values: dict[int, dict[int, float]] = {}
        for arm, (_, exp) in arms.items():     # one read per layout, at the start
            self.values[arm] = {g.index: metric.value(g) for g in store.games(exp)}
        self.played = self.stored = 0

    def __call__(self, wants: dict[int, int]) -> dict[int, list[float]]:
        ranges = {arm: range(self.next_index[arm], self.next_index[arm] + c)
                  for arm, c in wants.items()}
        batches = []
        for arm, indices in ranges.items():
            layout, exp = self.arms[arm]
            missing = [i for i in indices if i not in self.values[arm]]
            batches += [Batch(layout, self.variant, self.pairing, self.seed, chunk, self.game,
                              key=arm) for chunk in split_indices(missing, SWEEP_BATCH)]
        if batches:
            for arm, games in self.run_round(batches):
                exp = self.arms[arm][1]
                for g in games:
                    self.stored += self.store.add_game(exp, self.seed, g)
                    self.values[arm][g.index] = self.metric.value(g)
                self.played += len(games)
        for arm, indices in ranges.items():
            self.next_index[arm] = indices.stop
        return {arm: [self.values[arm][i] for i in indices] for arm, indices in ranges.items()}


def race_layouts(store: Store, layouts: Sequence[Layout], variant: Any = None,
                 pairing: Pairing | str = "greedy,greedy", k: int = 10, metric: str = "balance",
                 ascending: bool = False, confidence: float = 0.95, tolerance: float = 0.05,
                 budget: int | None = None, seed: int = 0, workers: int | None = None,
                 scheduler: Any = None, game: Game | None = None, first_round: int = 32,
                 growth: float = 1.25, arms_per_round: int = 8, strategy: str = "lucb",
                 progress: Callable[[Race], None] | None = None) -> LayoutRace:
    """Race ``layouts`` (each played as its canonical form, like a sweep) to name the ``k`` best
    by ``metric`` at ``confidence``, with ``tolerance`` on the metric's scale; every game goes into
    ``store``. See :mod:`.racing` for the guarantee and its assumptions."""
    if not SQLITE_MIN <= seed <= SQLITE_MAX:
        raise StoreError(f"seed {seed} does not fit the results database (64-bit integers)")
    store.require_paired_seeding()
    started = time.perf_counter()
    game = resolve_game(game)
    pairing = Pairing.parse(pairing) if isinstance(pairing, str) else pairing
    check_agents(game, pairing.a, pairing.b)
    variant = game.default_variant() if variant is None else variant
    race_by, objective = race_metric(metric, ascending)
    settings = RaceSettings(k=k, delta=1 - confidence, tolerance=tolerance, objective=objective,
                            first_round=first_round, growth=growth, budget=budget,
                            strategy=strategy, arms_per_round=arms_per_round)
    arms: dict[int, tuple[Layout, Experiment]] = {}
    for layout in layouts:
        layout = layout.canonical_game()     # a mirror image is another game
        exp = store.experiment(layout, variant, pairing, game)
        if exp.layout_id in arms:
            continue                      # the same layout twice (or a half-turn of it)
        seeds = store.master_seeds(exp)
        if seeds - {seed}:
            raise StoreError(f"{store.path}: games of layout #{exp.layout_id} with agents "
                             f"{pairing} were played with seed {min(seeds - {seed})}; race "
                             f"with that --seed or use another database")
        store.register(exp)
        arms[exp.layout_id] = (layout, exp)
    settings.check(len(arms))

    client = pool = None
    if scheduler is not None:
        used: int | str = str(scheduler)
        if isinstance(scheduler, str):     # one connection for every round
            client = scheduler = connect_scheduler(scheduler)

        def run_round(batches):
            return run_batches_dask(batches, scheduler)
    else:
        used = workers or default_workers()
        pool = WorkerPool(used)           # one for every round: processes start once

        def run_round(batches):
            return run_batches(batches, pool=pool)

    play_more = _Arms(store, arms, variant, pairing, seed, race_by, game, run_round)
    try:
        result = run_race(list(arms), play_more, settings, on_round=progress)
    finally:
        if client is not None:
            client.close()
        if pool is not None:
            pool.close()
    store.refresh_summaries(game)
    race = LayoutRace(result, {arm: layout for arm, (layout, _) in arms.items()}, metric,
                      play_more.played, play_more.stored, used, time.perf_counter() - started)
    exp = next(iter(arms.values()))[1]
    store.save_race(exp.variant_id, exp.agents_id, seed, race_settings_json(settings, metric),
                    race.to_json())
    return race


def race_settings_json(settings: RaceSettings, metric: str) -> dict:
    return {"metric": metric, "objective": settings.objective.name, "k": settings.k,
            "delta": settings.delta, "tolerance": settings.tolerance,
            "first_round": settings.first_round, "growth": settings.growth,
            "budget": settings.budget, "strategy": settings.strategy,
            "arms_per_round": settings.arms_per_round}


def stored_races(store: Store) -> list[dict]:
    """Every race saved in ``store``, newest first (for the report)."""
    return [{**json.loads(settings), **json.loads(result), "finished_at": finished}
            for settings, result, finished in store.db.execute(
                "SELECT settings, result, finished_at FROM races ORDER BY finished_at DESC")]
