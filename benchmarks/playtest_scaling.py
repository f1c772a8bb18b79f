"""Scaling with worker processes: the same seeded match (identical results) on 1, 2, … workers.

Run: .venv/bin/python benchmarks/playtest_scaling.py [--games 200] [--agents greedy]
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import time

from kiwara_designer.games.kiwara import load_layout
from kiwara_designer.lab import play_games


def cpu_seconds() -> float:
    """User + system time of this process and its finished worker processes."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--agents", default="greedy,greedy")   # as in the published figures
    parser.add_argument("--workers", default="1,2,4")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    layout = load_layout("classic")
    reference = None
    base = None
    print(f"{args.games} games of {args.agents} on classic, median of {args.repeats} runs; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"{'workers':>7} {'seconds':>8} {'games/s':>8} {'speed-up':>8} {'CPU s/game':>10}")
    for workers in map(int, args.workers.split(",")):
        times, cpu = [], []
        for _ in range(args.repeats):
            start = time.perf_counter()
            before = cpu_seconds()
            results = play_games(layout, None, args.agents, games=args.games, seed=1,
                                 workers=workers)
            times.append(time.perf_counter() - start)
            cpu.append((cpu_seconds() - before) / args.games)
        assert reference is None or results == reference, "results depend on the worker count"
        reference = results
        t = statistics.median(times)
        base = base or t
        print(f"{workers:>7} {t:8.2f} {args.games / t:8.1f} {base / t:8.2f} "
              f"{statistics.median(cpu) * 1000:8.1f}ms")


if __name__ == "__main__":
    main()
