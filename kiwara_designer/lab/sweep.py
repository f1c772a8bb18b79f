"""Sweeps: play many setups (a game's layouts, say), or many rules variants, into one results
store, resumably, on local processes or Dask.

A sweep first asks the store which games of each (setup, variant, pairing) are missing, plays
only those, and stores each game the moment its batch comes back. Killing it at any instant loses
at most the batches in flight, which the next run plays again (they are deterministic, so the
games are the very same); nothing is ever stored twice (see :mod:`.store`).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from itertools import product
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence, Sized

from ..core.errors import KiwaraError
from ..core.game import Game
from .matches import (Batch, Pairing, PlaySettings, PlaytestError, check_agents, play_batches,
                      resolve_game, split_indices)
from .store import Experiment, Store, StoreError

SQLITE_MIN, SQLITE_MAX = -2 ** 63, 2 ** 63 - 1   # the range of an SQLite INTEGER (a stored seed)
SWEEP_BATCH = 4   # games per unit of work: a kill loses at most this many games per worker



@dataclass(frozen=True)
class SweepSummary:
    setups: int                     # experiments planned: setups, or variants of a variant sweep
    games_wanted: int
    games_already_stored: int
    games_played: int
    games_stored: int               # newly inserted (a racing sweep may have stored some first)
    workers: int | str
    seconds: float = field(default=0.0, compare=False)

    def to_json(self) -> dict:
        return dict(self.__dict__)


@dataclass
class _Tally:
    setups: int = 0
    wanted: int = 0
    stored: int = 0


def check_seed(store: Store, exp: Experiment, pairing: Pairing, seed: int, game: Game,
               again: str = "resume") -> None:
    """Refuse to add games of ``seed`` to an experiment played with another master seed: a
    resumed run would mix two sequences of games (``again``: how the message says to rerun)."""
    seeds = store.master_seeds(exp)
    if seeds - {seed}:
        raise StoreError.about("{path}: games of {noun} #{id} with agents {pairing} were played "
                               "with seed {other}; {again} with that {seed} or use another "
                               "database", path=store.path, noun=game.setup_noun,
                               id=exp.setup_id, pairing=pairing, other=min(seeds - {seed}),
                               again=again)


def check_seed_range(seed: int) -> None:
    if not SQLITE_MIN <= seed <= SQLITE_MAX:    # refused before a setup is registered
        raise StoreError(f"seed {seed} does not fit the results database, which stores 64-bit "
                         f"integers ({SQLITE_MIN}..{SQLITE_MAX})")


def plan_batches(store: Store, cases: Iterable[tuple[Any, Any]], settings: PlaySettings,
                 game: Game, tally: _Tally) -> Iterator[Batch]:
    """Register each (setup, variant)'s experiments and yield the batches of its missing games,
    one case at a time, so a sweep over millions of setups never holds them all (``tally``
    counts). Each setup is played as the one its store key stands for (a layout's game form)."""
    pairing, skill, seed = settings.pairing, settings.skill, settings.seed
    jobs = [(pairing, settings.games)] + ([(skill, settings.skill_jobs)]
                                          if settings.skill_jobs else [])
    for setup, variant in cases:
        main = store.experiment(setup, variant, pairing, game)
        skill_exp = (store.experiment(setup, variant, skill, game) if settings.skill_jobs
                     else None)
        store.register(main, skill_exp)
        setup = game.setup_from_key(game.setup_key(setup))    # the store's representative
        tally.setups += 1
        for who, count in jobs:
            exp = main if who is pairing else skill_exp
            check_seed(store, exp, who, seed, game)
            have = store.stored_indices(exp)
            missing = [i for i in range(count) if i not in have]
            tally.wanted += count
            tally.stored += count - len(missing)
            yield from (Batch(setup, variant, who, seed, chunk, game, key=exp)
                        for chunk in split_indices(missing, SWEEP_BATCH))


def run_sweep(store: Store, setups: Iterable[Any], settings: PlaySettings = PlaySettings(),
              variant: Any = None, game: Game | None = None,
              progress: Callable[[int, int | None], None] | None = None,
              count: int | None = None) -> SweepSummary:
    """Play the games ``settings`` asks for (its pairing's and its skill pairing's) from every
    setup of ``game`` under ``variant`` into ``store``, skipping games already stored; then
    refresh the metric summaries.

    ``setups`` may be any iterable (a generator over millions is fine: setups are planned as
    the workers need them). ``progress(done, total)`` is called after each batch, with games done
    (already stored ones included) and the total if the number of setups is known (a sequence,
    or ``count``)."""
    game = resolve_game(game)
    variant = game.default_variant() if variant is None else variant
    if count is None and isinstance(setups, Sized):
        count = len(setups)
    return _sweep(store, ((setup, variant) for setup in setups), count, settings, game, progress)


def run_variant_sweep(store: Store, variants: Sequence[Any],
                      settings: PlaySettings = PlaySettings(), setup: Any = None,
                      game: Game | None = None,
                      progress: Callable[[int, int | None], None] | None = None) -> SweepSummary:
    """:func:`run_sweep` with the roles turned: every variant of ``variants`` from one
    ``setup`` (None: the game's own; Awimbawé deals every match from its seed). Game i of
    every variant has the same seed, so the variants are compared on the same deals."""
    game = resolve_game(game)
    return _sweep(store, ((setup, v) for v in variants), len(variants), settings, game,
                  progress)


def _sweep(store: Store, cases: Iterable[tuple[Any, Any]], count: int | None,
           settings: PlaySettings, game: Game,
           progress: Callable[[int, int | None], None] | None) -> SweepSummary:
    check_seed_range(settings.seed)
    store.require_paired_seeding()
    started = time.perf_counter()
    settings = settings.for_game(game)
    pairing, skill = settings.pairing, settings.skill
    check_agents(game, pairing.a, pairing.b, *((skill.a, skill.b) if skill else ()))
    per_case = settings.games + settings.skill_jobs
    total = count * per_case if count is not None else None
    tally = _Tally()
    batches = plan_batches(store, cases, settings, game, tally)
    results, used = play_batches(batches, settings.workers, settings.scheduler)
    played = inserted = 0
    for exp, games_done in results:
        for result in games_done:
            inserted += store.add_game(exp, settings.seed, result)
        played += len(games_done)
        if progress:
            progress(tally.stored + played, total)
    if progress:
        progress(tally.stored + played, total)
    store.refresh_summaries(game)
    return SweepSummary(tally.setups, tally.wanted, tally.stored, played, inserted, used,
                        time.perf_counter() - started)


def variant_grid(base: Any, settings: Mapping[str, Sequence[Any]]) -> list[Any]:
    """Every combination of ``settings`` (parameter → values, in the order given) applied to
    the variant ``base``, as variants of its class (``to_dict`` / ``from_dict``, which checks
    each value and names the parameter), named ``base:key=value,…``. The first parameter
    varies slowest. An error names the setting and begins with the parameter
    (``set hyenas_to_lose: no values``)."""
    if not settings:
        raise PlaytestError("a variant sweep needs at least one parameter and its values")
    kind, table = type(base), base.to_dict(only_changes=True)

    def variant(rules: dict, label: str, key: str | None = None) -> Any:
        try:
            return kind.from_dict(rules, label)
        except KiwaraError as exc:       # the variant's words, which begin with the label
            if key is not None and getattr(exc, "reason", None) == "unknown key":
                # no value of an unknown key is better than another: name the key alone
                exc = _unknown(kind, rules, key)
            raise PlaytestError.about("{set} {problem}", problem=exc) from None

    for key, values in settings.items():       # each value alone first, so errors name it
        if key == "name":
            raise PlaytestError.about("{set} name: a variant's name is not one of its rules")
        if not values:
            raise PlaytestError.about("{set} {key}: no values", key=key)
        for value in values:
            variant({**table, key: value}, f"{key}={_setting_text(value)}", key)
    grid = []
    for values in product(*settings.values()):
        chosen = dict(zip(settings, values))
        name = ",".join(f"{k}={_setting_text(v)}" for k, v in chosen.items())
        grid.append(variant({**table, **chosen, "name": f"{base.name}:{name}"}, name))
    return grid


def _unknown(kind: Any, rules: dict, key: str) -> KiwaraError:
    """The variant's error for the unknown ``key``, its label the key alone (``--set nosuch``,
    not ``--set nosuch=1`` when 1,2 was given)."""
    try:
        kind.from_dict(rules, key)
    except KiwaraError as exc:
        return exc
    return KiwaraError(f"{key}: unknown key")


def _setting_text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)
