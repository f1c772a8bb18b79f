"""Rules engine speed, and the 10,000 random free-play games check (issue 4).

    .venv/bin/python benchmarks/engine_speed.py             # everything, about two minutes
    .venv/bin/python benchmarks/engine_speed.py --check 0   # speed figures only

Prints medians of several runs, wall-clock and CPU time (the machine may be shared: CPU time is
the fairer figure then). Never run as a test.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from kiwara_designer.games.kiwara import FREE_PLAY, validate
from kiwara_designer.games.kiwara import KINDS, new_game, perft
from kiwara_designer.games.kiwara.formats import load_layout
from kiwara_designer.games.kiwara.layout import Layout


def timed(fn):
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def median_rate(fn, count: int, runs: int) -> tuple[float, float, float]:
    """Median of ``runs`` rates (count per second), by wall clock and by CPU time, and the best
    CPU rate (on a loaded machine the run least disturbed by the others)."""
    walls, cpus = [], []
    for _ in range(runs):
        _, wall, cpu = timed(fn)
        walls.append(count / wall)
        cpus.append(count / cpu)
    return statistics.median(walls), statistics.median(cpus), max(cpus)


def random_game(layout, rng, variant=None):
    state = new_game(layout, variant)
    while not state.is_terminal():
        state = state.apply(rng.choice(state.legal_moves()))
    return state


# -- random free-play layouts ---------------------------------------------------------------
MIXES = [(3, 3, 3, 3, 9, 9), (3, 3, 3, 5, 7, 9), (3, 3, 3, 7, 7, 7), (3, 3, 5, 5, 5, 9),
         (3, 3, 5, 5, 7, 7), (3, 5, 5, 5, 5, 7), (5, 5, 5, 5, 5, 5)]


def simple_random_layout(rng: random.Random) -> Layout:
    """A seeded stand-in for the generator: grow six territories from the first free cell,
    retry until the layout is valid for free play."""
    w, h = 6, 5
    while True:
        sizes = list(rng.choice(MIXES))
        rng.shuffle(sizes)
        owner = [-1] * (w * h)
        for t, size in enumerate(sizes):
            region = [owner.index(-1)]
            owner[region[0]] = t
            while len(region) < size:
                frontier = sorted({n for c in region for n in _neighbours(c, w, h) if owner[n] < 0})
                if not frontier:
                    break
                cell = rng.choice(frontier)
                owner[cell] = t
                region.append(cell)
            if len(region) < size:
                break
        if -1 in owner:
            continue
        layout = Layout.from_labels(["ABCDEF"[t] for t in owner])
        if validate(layout, FREE_PLAY).valid:
            return layout


def _neighbours(c, w, h):
    x, y = c % w, c // w
    return [n for n, ok in ((c - w, y > 0), (c - 1, x > 0), (c + 1, x < w - 1), (c + w, y < h - 1))
            if ok]


def random_layouts(n: int, seed: int) -> tuple[list[Layout], str]:
    try:   # the generator package, once merged, samples uniformly
        from kiwara_designer.games.kiwara.generator import sample_layouts
        return sample_layouts(n, seed), "kiwara_designer.games.kiwara.generator.sample_layouts"
    except ImportError:
        rng = random.Random(seed)
        return [simple_random_layout(rng) for _ in range(n)], "simple seeded region growing"


def recount(state) -> tuple[int, int]:
    """Totals recomputed from the visible tokens (classic values, majority takes the points)."""
    points = dict(zip(KINDS, state.variant.points))
    totals = [0, 0]
    for territory in state.layout.territories:
        tokens = [state.token(c) for c in territory.cells]
        counts = [sum(1 for t in tokens if t and t.owner == p) for p in (0, 1)]
        if counts[0] != counts[1]:
            totals[0 if counts[0] > counts[1] else 1] += sum(
                points[t.kind] for t in tokens if t and t.face_up)
    totals[state.okapi] += state.variant.okapi_points
    return totals[0], totals[1]


def check_games(n: int, seed: int) -> None:
    (layouts, source), wall, _ = timed(lambda: random_layouts(n, seed))
    print(f"\n{n:,} random games on random free-play layouts ({source}, {wall:.1f} s to build)")
    rng = random.Random(seed)
    problems, first_wins, margins, distinct = [], 0, [], len(set(layouts))

    def play_all():
        nonlocal first_wins
        for i, layout in enumerate(layouts):
            state = random_game(layout, rng)
            scoring = state.scoring()
            if state.empty_cells():
                problems.append((i, "board not full"))
            if any(state.reserve(0).values()) or any(state.reserve(1).values()):
                problems.append((i, "reserve not empty"))
            if scoring.totals != recount(state):
                problems.append((i, f"scores {scoring.totals} but recount {recount(state)}"))
            if sum(scoring.totals) % 2 == 0 or scoring.winner is None:
                problems.append((i, f"even total or draw {scoring.totals}"))
            first_wins += scoring.winner == 0
            margins.append(abs(scoring.totals[0] - scoring.totals[1]))

    _, wall, cpu = timed(play_all)
    print(f"  {distinct:,} distinct layouts; played in {wall:.1f} s ({n / cpu:,.0f} games/s CPU)")
    print(f"  full board, empty reserves, scores = recount, odd totals (no draw): "
          f"{n - len({i for i, _ in problems}):,} of {n:,} games")
    print(f"  first player won {first_wins / n:.1%}; median margin {statistics.median(margins)}")
    for i, what in problems[:10]:
        print(f"  PROBLEM in game {i}: {what}")
    if problems:
        sys.exit(1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="random games per speed run")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--check", type=int, default=10_000, help="free-play games to check")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    classic = load_layout("classic")
    rng = random.Random(args.seed)
    print(f"Python {sys.version.split()[0]}, one process; medians of {args.runs} runs "
          f"(wall clock / CPU time)")

    wall, cpu, best = median_rate(lambda: [random_game(classic, rng) for _ in range(args.games)],
                                  args.games, args.runs)
    print(f"random games, classic layout:   {wall:8,.0f} / {cpu:8,.0f} games/s "
          f"(best run {best:,.0f} CPU)")

    states = []
    for _ in range(200):
        state = new_game(classic)
        while not state.is_terminal():
            states.append(state)
            state = state.apply(rng.choice(state.legal_moves()))
    moves = sum(len(s._generate()) for s in states)
    wall, cpu, _ = median_rate(lambda: [s._generate() for s in states], len(states), args.runs)
    print(f"legal-move generation:          {wall:8,.0f} / {cpu:8,.0f} positions/s "
          f"({moves / len(states):.1f} moves each: {cpu * moves / len(states):,.0f} moves/s CPU)")
    pairs = [(s, s.legal_moves()) for s in states]
    picks = [(s, random.Random(i).choice(m)) for i, (s, m) in enumerate(pairs)]
    wall, cpu, _ = median_rate(lambda: [s.apply(m) for s, m in picks], len(picks), args.runs)
    print(f"apply (checked):                {wall:8,.0f} / {cpu:8,.0f} moves/s")

    start = new_game(classic)
    nodes = perft(start, 3)
    wall, cpu, _ = median_rate(lambda: perft(start, 3), nodes, max(1, args.runs // 2))
    print(f"perft 3 from the classic start: {wall:8,.0f} / {cpu:8,.0f} leaves/s ({nodes:,} leaves)")

    if args.check:
        check_games(args.check, args.seed)


if __name__ == "__main__":
    main()
