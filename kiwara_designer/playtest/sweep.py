"""Sweeps: play many layouts into one results store, resumably, on local processes or Dask.

A sweep first asks the store which games of each (layout, variant, pairing) are missing, plays
only those, and stores each game the moment its batch comes back. Killing it at any instant loses
at most the batches in flight, which the next run plays again (they are deterministic, so the
games are the very same); nothing is ever stored twice (see :mod:`.store`).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Sized

from ..core.game import Game
from ..layout import Layout
from ..core.workers import default_workers
from .matches import (Batch, GameResult, Pairing, PlaytestError, check_agents, play_batch,
                      resolve_game, run_batches, split_indices)
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
        from ..formats import load_layouts
        boards = []
        for entry in load_layouts(source):
            if entry.error:
                raise entry.error
            boards.append(entry.layout)
        return boards, len(boards)
    from ..generator import count_layouts, fixed_point_counts, iter_layouts, sample_layouts
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
    layouts: int
    games_wanted: int
    games_already_stored: int
    games_played: int
    games_stored: int               # newly inserted (a racing sweep may have stored some first)
    workers: int | str
    seconds: float = field(default=0.0, compare=False)

    def to_json(self) -> dict:
        return dict(self.__dict__)


def run_batches_dask(batches: Iterable[Batch], scheduler: Any, in_flight: int | None = None
                     ) -> Iterator[tuple[Any, list[GameResult]]]:
    """Play batches on a Dask cluster: ``scheduler`` is an address (``tcp://host:8786``) or a
    ``distributed.Client``. Results come back to this process as they finish."""
    try:
        from dask.distributed import Client, as_completed
    except ImportError:
        raise StoreError("--scheduler needs dask.distributed: pip install 'kiwara-designer[cluster]'"
                         ) from None
    own = not isinstance(scheduler, Client)
    try:
        client = Client(scheduler) if own else scheduler
    except (OSError, ValueError) as exc:   # unreachable (timed out) or not an address at all
        raise StoreError(f"--scheduler {scheduler}: cannot reach the Dask scheduler: {exc}"
                         ) from None
    try:
        limit = in_flight or 4 * max(1, sum(client.nthreads().values()))
        pending = iter(batches)
        first = [b for _, b in zip(range(limit), pending)]
        futures = as_completed(client.map(play_batch, first, pure=False))
        for future in futures:
            yield future.result()
            future.release()
            nxt = next(pending, None)
            if nxt is not None:
                futures.add(client.submit(play_batch, nxt, pure=False))
    finally:
        if own:
            client.close()


@dataclass
class _Tally:
    layouts: int = 0
    wanted: int = 0
    stored: int = 0


def plan_batches(store: Store, layouts: Iterable[Layout], variant: Any, pairing: Pairing,
                 games: int, seed: int, game: Game | None, skill: Pairing | None,
                 skill_games: int, tally: _Tally) -> Iterator[Batch]:
    """Register each layout's experiments and yield the batches of its missing games, one layout
    at a time, so a sweep over millions of layouts never holds them all (``tally`` counts)."""
    jobs = [(pairing, games)] + ([(skill, skill_games)] if skill and skill_games else [])
    for layout in layouts:
        layout = layout.canonical_game()    # the store's representative of its game
        main = store.experiment(layout, variant, pairing)
        skill_exp = store.experiment(layout, variant, skill) if skill and skill_games else None
        store.register(main, skill_exp)
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
            yield from (Batch(layout, variant, who, seed, chunk, game, key=exp)
                        for chunk in split_indices(missing, SWEEP_BATCH))


def run_sweep(store: Store, layouts: Iterable[Layout], variant: Any = None,
              pairing: Pairing | str = "random", games: int = 100, seed: int = 0,
              workers: int | None = None, scheduler: Any = None, game: Game | None = None,
              skill: Pairing | str | None = None, skill_games: int = 0,
              progress: Callable[[int, int | None], None] | None = None,
              layout_count: int | None = None) -> SweepSummary:
    """Play ``games`` games of ``pairing`` (and ``skill_games`` of the ``skill`` pairing) on every
    layout into ``store``, skipping games already stored; then refresh the metric summaries.

    ``layouts`` may be any iterable (a generator over millions is fine: layouts are planned as
    the workers need them). ``progress(done, total)`` is called after each batch, with games done
    (already stored ones included) and the total if the number of layouts is known (a sequence,
    or ``layout_count``)."""
    if not SQLITE_MIN <= seed <= SQLITE_MAX:    # refused before a layout is registered
        raise StoreError(f"seed {seed} does not fit the results database, which stores 64-bit "
                         f"integers ({SQLITE_MIN}..{SQLITE_MAX})")
    store.require_paired_seeding()
    started = time.perf_counter()
    game = resolve_game(game)
    pairing = Pairing.parse(pairing) if isinstance(pairing, str) else pairing
    skill = Pairing.parse(skill) if isinstance(skill, str) else skill
    check_agents(game, pairing.a, pairing.b, *((skill.a, skill.b) if skill else ()))
    variant = game.default_variant() if variant is None else variant
    if layout_count is None and isinstance(layouts, Sized):
        layout_count = len(layouts)
    per_layout = games + (skill_games if skill else 0)
    total = layout_count * per_layout if layout_count is not None else None
    tally = _Tally()
    batches = plan_batches(store, layouts, variant, pairing, games, seed, game, skill,
                           skill_games, tally)
    if scheduler is not None:
        results = run_batches_dask(batches, scheduler)
        used: int | str = str(scheduler) if isinstance(scheduler, str) else "dask"
    else:
        used = workers or default_workers()
        results = run_batches(batches, used)
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
