"""Sweeps: play many layouts, or many rules variants, into one results store, resumably, on local
processes or Dask.

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

from ..core.game import Game
from ..games.kiwara.layout import Layout
from .matches import (Batch, Pairing, PlaytestError, check_agents, play_batches, resolve_game,
                      split_indices)
from .store import Store, StoreError

SQLITE_MIN, SQLITE_MAX = -2 ** 63, 2 ** 63 - 1   # the range of an SQLite INTEGER (a stored seed)
SWEEP_BATCH = 4   # games per unit of work: a kill loses at most this many games per worker

def choose_layouts(sample: int | None = None, all_canonical: bool = False,
                   source: str | None = None, seed: int = 0) -> tuple[Iterable[Layout], int]:
    """The layouts a sweep plays, from exactly one of: ``sample`` games drawn uniformly with
    ``seed``, every free-play game (a lazy iterator), or the layouts of the file ``source``
    (``-`` for stdin; its first bad entry raises); and their number.

    A game is a layout up to the half-turn only (:meth:`Layout.canonical_game`): a mirror image
    makes the totem walk the other way round, so it is another game, played and stored apart."""
    chosen = [x for x in (sample is not None, all_canonical, source is not None) if x]
    if len(chosen) != 1:
        raise PlaytestError("choose exactly one source of layouts: a sample, all canonical "
                            "layouts or a file")
    if source is not None:
        from ..games.kiwara.formats import load_layouts
        boards = []
        for entry in load_layouts(source):
            if entry.error:
                raise entry.error
            boards.append(entry.layout)
        return boards, len(boards)
    from ..games.kiwara.generator import (count_layouts, fixed_point_counts, iter_layouts,
                                          sample_layouts)
    if sample is not None:
        boards = sample_layouts(sample, seed, canonical=True, symmetry="game")
        return boards, len(boards)
    # Burnside over the identity and the half-turn
    games = (count_layouts() + fixed_point_counts()["half-turn"]) // 2
    return _games(iter_layouts(canonical=True)), games


def _games(classes: Iterable[Layout]) -> Iterator[Layout]:
    """The games of each four-symmetry class, as game forms: the class's canonical form, and
    its left-right mirror image unless a half-turn of the form gives it."""
    for layout in classes:
        yield layout
        mirror = next((s for s in layout.grid.symmetries if s.name == "left-right mirror"), None)
        if mirror is None:
            continue
        other = layout.transformed(mirror).canonical_game()
        if other.assignment != layout.assignment:
            yield other


@dataclass(frozen=True)
class SweepSummary:
    layouts: int                    # experiments planned: layouts, or variants of a variant sweep
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
    layouts: int = 0
    wanted: int = 0
    stored: int = 0


def plan_batches(store: Store, cases: Iterable[tuple[Any, Any]], pairing: Pairing,
                 games: int, seed: int, game: Game, skill: Pairing | None,
                 skill_games: int, tally: _Tally) -> Iterator[Batch]:
    """Register each (setup, variant)'s experiments and yield the batches of its missing games,
    one case at a time, so a sweep over millions of layouts never holds them all (``tally``
    counts). Each setup is played as the one its store key stands for (a layout's game form)."""
    jobs = [(pairing, games)] + ([(skill, skill_games)] if skill and skill_games else [])
    for setup, variant in cases:
        main = store.experiment(setup, variant, pairing, game)
        skill_exp = store.experiment(setup, variant, skill, game) if skill and skill_games else None
        store.register(main, skill_exp)
        setup = game.setup_from_key(game.setup_key(setup))    # the store's representative
        tally.layouts += 1
        for who, count in jobs:
            exp = main if who is pairing else skill_exp
            seeds = store.master_seeds(exp)
            if seeds - {seed}:
                raise StoreError(f"{store.path}: games of layout #{exp.layout_id} with agents "
                                 f"{who} were played with seed {min(seeds - {seed})}; resume with "
                                 f"that --seed or use another database")
            have = store.stored_indices(exp)
            missing = [i for i in range(count) if i not in have]
            tally.wanted += count
            tally.stored += count - len(missing)
            yield from (Batch(setup, variant, who, seed, chunk, game, key=exp)
                        for chunk in split_indices(missing, SWEEP_BATCH))


def run_sweep(store: Store, layouts: Iterable[Any], variant: Any = None,
              pairing: Pairing | str = "random", games: int = 100, seed: int = 0,
              workers: int | None = None, scheduler: Any = None, game: Game | None = None,
              skill: Pairing | str | None = None, skill_games: int = 0,
              progress: Callable[[int, int | None], None] | None = None,
              layout_count: int | None = None) -> SweepSummary:
    """Play ``games`` games of ``pairing`` (and ``skill_games`` of the ``skill`` pairing) on every
    layout (setup of ``game``) into ``store``, skipping games already stored; then refresh the
    metric summaries.

    ``layouts`` may be any iterable (a generator over millions is fine: layouts are planned as
    the workers need them). ``progress(done, total)`` is called after each batch, with games done
    (already stored ones included) and the total if the number of layouts is known (a sequence,
    or ``layout_count``)."""
    game = resolve_game(game)
    variant = game.default_variant() if variant is None else variant
    if layout_count is None and isinstance(layouts, Sized):
        layout_count = len(layouts)
    return _sweep(store, ((layout, variant) for layout in layouts), layout_count, pairing, games,
                  seed, workers, scheduler, game, skill, skill_games, progress)


def run_variant_sweep(store: Store, variants: Sequence[Any], setup: Any = None,
                      pairing: Pairing | str = "random", games: int = 100, seed: int = 0,
                      workers: int | None = None, scheduler: Any = None,
                      game: Game | None = None, skill: Pairing | str | None = None,
                      skill_games: int = 0,
                      progress: Callable[[int, int | None], None] | None = None) -> SweepSummary:
    """:func:`run_sweep` with the roles turned: every variant of ``variants`` from one
    ``setup`` (None: the game's own; Awimbawé deals every match from its seed). Game i of
    every variant has the same seed, so the variants are compared on the same deals."""
    game = resolve_game(game)
    return _sweep(store, ((setup, v) for v in variants), len(variants), pairing, games, seed,
                  workers, scheduler, game, skill, skill_games, progress)


def _sweep(store: Store, cases: Iterable[tuple[Any, Any]], count: int | None,
           pairing: Pairing | str, games: int, seed: int, workers: int | None, scheduler: Any,
           game: Game, skill: Pairing | str | None, skill_games: int,
           progress: Callable[[int, int | None], None] | None) -> SweepSummary:
    if not SQLITE_MIN <= seed <= SQLITE_MAX:    # refused before a setup is registered
        raise StoreError(f"seed {seed} does not fit the results database, which stores 64-bit "
                         f"integers ({SQLITE_MIN}..{SQLITE_MAX})")
    store.require_paired_seeding()
    started = time.perf_counter()
    pairing = Pairing.parse(pairing) if isinstance(pairing, str) else pairing
    skill = Pairing.parse(skill) if isinstance(skill, str) else skill
    check_agents(game, pairing.a, pairing.b, *((skill.a, skill.b) if skill else ()))
    per_case = games + (skill_games if skill else 0)
    total = count * per_case if count is not None else None
    tally = _Tally()
    batches = plan_batches(store, cases, pairing, games, seed, game, skill, skill_games, tally)
    results, used = play_batches(batches, workers, scheduler)
    played = inserted = 0
    for exp, games_done in results:
        for result in games_done:
            inserted += store.add_game(exp, seed, result)
        played += len(games_done)
        if progress:
            progress(tally.stored + played, total)
    if progress:
        progress(tally.stored + played, total)
    store.refresh_summaries(game)
    return SweepSummary(tally.layouts, tally.wanted, tally.stored, played, inserted, used,
                        time.perf_counter() - started)


def variant_grid(base: Any, settings: Mapping[str, Sequence[Any]]) -> list[Any]:
    """Every combination of ``settings`` (parameter → values, in the order given) applied to
    the variant ``base``, as variants of its class (``to_dict`` / ``from_dict``, which checks
    each value and names the parameter), named ``base:key=value,…``. The first parameter
    varies slowest."""
    if not settings:
        raise PlaytestError("a variant sweep needs at least one parameter and its values")
    kind, table = type(base), base.to_dict(only_changes=True)
    for key, values in settings.items():       # each value alone first, so errors name it
        if key == "name":
            raise PlaytestError("--set name: a variant's name is not one of its rules")
        if not values:
            raise PlaytestError(f"--set {key}: no values")
        for value in values:
            kind.from_dict({**table, key: value}, f"--set {key}={_setting_text(value)}")
    grid = []
    for values in product(*settings.values()):
        chosen = dict(zip(settings, values))
        name = ",".join(f"{k}={_setting_text(v)}" for k, v in chosen.items())
        grid.append(kind.from_dict({**table, **chosen, "name": f"{base.name}:{name}"},
                                   f"--set {name}"))
    return grid


def _setting_text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)
