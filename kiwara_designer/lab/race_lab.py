"""Racing setups in the lab: :mod:`.racing` played through the match machinery into the results
store. A setup (a Kiwara layout, say) is an arm; its games are game 0, 1, 2, … of (setup, variant,
pairing, seed), as in a sweep, each stored the moment its batch comes back. Games 2j and 2j + 1
share a seed with the seats swapped, so the race takes the pair as its unit (``paired``).

Resuming: the race's rounds are a fixed function of the arms' game values, and every value comes
from a stored game when one exists, so a race killed at any instant (``kill -9``) and run again
replays the same rounds from the store, plays only the games that were never stored, and ends
with the same decisions; nothing is stored twice (the store's UNIQUE key) or lost (each game is
its own transaction). The race's outcome is written to the ``races`` table for the report.
"""
from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from ..core.game import Game
from ..core.workers import WorkerPool, default_workers
from .metrics import agent_a_value, first_player_value
from .matches import (Batch, GameResult, Pairing, PlaySettings, check_agents, connect_scheduler,
                      lab_pairing, resolve_game, run_batches, run_batches_dask,
                      split_indices)
from .racing import BALANCE, HIGHEST_MEAN, Objective, Race, RaceResult, RaceSettings, run_race
from .store import Experiment, Store, StoreError
from .sweep import SWEEP_BATCH, check_seed, check_seed_range

# What a race of the lab asks by default: the 10 best, each within 0.05 of the true 10th.
LAB_RACE = RaceSettings(k=10, tolerance=0.05)


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
        raise StoreError.about("{ascending} does not apply to {name}", name=name)
    return metric, Objective(f"lowest {name}", "lowest")


@dataclass(frozen=True)
class SetupRace:
    """A finished race over setups of ``game``: the generic result, keyed by the store's setup
    ids."""

    result: RaceResult
    setups: dict[int, Any]
    game: Game
    metric: str
    games_played: int              # newly played by this run (the rest came from the store)
    games_stored: int              # newly inserted
    workers: int | str
    seconds: float = field(default=0.0, compare=False)

    def to_json(self) -> dict:
        return {**self.result.to_json(), "metric": self.metric,
                "games_played": self.games_played, "games_stored": self.games_stored,
                "workers": self.workers, "seconds": round(self.seconds, 3),
                "top_setups": {str(i): self.game.setup_key(self.setups[i])
                               for i in self.result.top}}


class _Arms:
    """The race's ``play_more``: game values from the store, the missing games played in one
    parallel round and stored as they come back."""

    def __init__(self, store: Store, arms: dict[int, tuple[Any, Experiment]], variant: Any,
                 pairing: Pairing, seed: int, metric: RaceMetric, game: Any, run_round) -> None:
        self.store, self.arms, self.variant, self.pairing = store, arms, variant, pairing
        self.seed, self.metric, self.game, self.run_round = seed, metric, game, run_round
        self.next_index = {arm: 0 for arm in arms}
        self.values: dict[int, dict[int, float]] = {}
        for arm, (_, exp) in arms.items():     # one read per setup, at the start
            self.values[arm] = {g.index: metric.value(g) for g in store.games(exp)}
        self.played = self.stored = 0

    def __call__(self, wants: dict[int, int]) -> dict[int, list[float]]:
        ranges = {arm: range(self.next_index[arm], self.next_index[arm] + c)
                  for arm, c in wants.items()}
        batches = []
        for arm, indices in ranges.items():
            setup, exp = self.arms[arm]
            missing = [i for i in indices if i not in self.values[arm]]
            batches += [Batch(setup, self.variant, self.pairing, self.seed, chunk, self.game,
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


def race_setups(store: Store, setups: Iterable[Any], settings: PlaySettings,
                race: RaceSettings = LAB_RACE, metric: str = "balance", ascending: bool = False,
                variant: Any = None, game: Game | None = None,
                progress: Callable[[Race], None] | None = None) -> SetupRace:
    """Race ``setups`` (each played as the one its store key stands for, like a sweep) to name
    the ``race.k`` best by ``metric`` (smallest first if ``ascending``) with ``race``'s error
    probability and tolerance (its objective is the metric's); ``settings`` says the pairing, the
    seed and where the games are played (its game count and skill pairing are not used: the
    race decides how many games each setup gets). Every game goes into ``store``. See
    :mod:`.racing` for the guarantee and its assumptions."""
    check_seed_range(settings.seed)
    store.require_paired_seeding()
    started = time.perf_counter()
    game = resolve_game(game)
    seed, pairing = settings.seed, lab_pairing(game, settings.pairing)
    check_agents(game, pairing.a, pairing.b)
    variant = game.default_variant() if variant is None else variant
    race_by, objective = race_metric(metric, ascending)
    # games 2j and 2j + 1 share a seed, seats swapped: the pair is the race's unit
    race = dataclasses.replace(race, objective=objective, paired=True)
    arms: dict[int, tuple[Any, Experiment]] = {}
    for setup in setups:
        setup = game.setup_from_key(game.setup_key(setup))     # the store's representative
        exp = store.experiment(setup, variant, pairing, game)
        if exp.setup_id in arms:
            continue                      # the same setup twice (a half-turn of a layout, say)
        check_seed(store, exp, pairing, seed, game, again="race")
        store.register(exp)
        arms[exp.setup_id] = (setup, exp)
    race.check(len(arms))

    client = pool = None
    if settings.scheduler is not None:
        scheduler = settings.scheduler
        used: int | str = str(scheduler)
        if isinstance(scheduler, str):     # one connection for every round
            client = scheduler = connect_scheduler(scheduler)

        def run_round(batches):
            return run_batches_dask(batches, scheduler)
    else:
        used = settings.workers or default_workers()
        pool = WorkerPool(used)           # one for every round: processes start once

        def run_round(batches):
            return run_batches(batches, pool=pool)

    play_more = _Arms(store, arms, variant, pairing, seed, race_by, game, run_round)
    try:
        result = run_race(list(arms), play_more, race, on_round=progress)
    finally:
        if client is not None:
            client.close()
        if pool is not None:
            pool.close()
    store.refresh_summaries(game)
    outcome = SetupRace(result, {arm: setup for arm, (setup, _) in arms.items()}, game, metric,
                        play_more.played, play_more.stored, used, time.perf_counter() - started)
    exp = next(iter(arms.values()))[1]
    store.save_race(exp.variant_id, exp.agents_id, seed, race_settings_json(race, metric),
                    outcome.to_json())
    return outcome


def race_settings_json(settings: RaceSettings, metric: str) -> dict:
    return {"metric": metric, "objective": settings.objective.name, "k": settings.k,
            "delta": settings.delta, "tolerance": settings.tolerance,
            "first_round": settings.first_round, "growth": settings.growth,
            "budget": settings.budget, "strategy": settings.strategy,
            "paired": settings.paired,
            "interval": settings.interval}
