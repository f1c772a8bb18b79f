"""Wall time to play-test one layout to a ±3 % (95 % Wilson) interval on the first-player win
rate in greedy self-play (the lab's default when it was written), on all cores. Target: ≤ 60 s on the 2-core machine.

Run: .venv/bin/python benchmarks/playtest_precision.py [--layout classic] [--repeats 3]
Uses ``play_to_precision``: a first round of --round games, then the games the current rate says
are still needed (the same seeded sequence as one long match).
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import time

from kiwara_designer.games.kiwara import load_layout
from kiwara_designer.lab import compute_metrics
from kiwara_designer.lab.matches import play_to_precision
from kiwara_designer.core.workers import default_workers

AGENTS = "greedy,greedy"      # the figures in docs/developers/benchmarks.md were taken with it


def cpu_seconds() -> float:
    """User + system time of this process and its finished worker processes."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def run(layout, seed: int, workers: int, round_size: int, target: float) -> tuple[int, float, float]:
    start = time.perf_counter()
    games = play_to_precision(layout, None, AGENTS, target, seed, workers,
                              first_round=round_size)
    rate = compute_metrics(games).first_player_win
    return len(games), rate.value, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--layout", default="classic")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--round", type=int, default=200)
    parser.add_argument("--target", type=float, default=0.03)
    args = parser.parse_args()
    workers = default_workers()
    layout = load_layout(args.layout)
    times, ideal = [], []
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    for seed in range(args.repeats):
        before = cpu_seconds()
        n, p, seconds = run(layout, seed, workers, args.round, args.target)
        cpu = cpu_seconds() - before
        times.append(seconds)
        ideal.append(cpu / workers)
        print(f"seed {seed}: {n} games, first-player win rate {p:.3f} ± {args.target:.0%} "
              f"in {seconds:.1f} s wall, {cpu:.1f} CPU s")
    print(f"{args.layout}, agents {AGENTS}, {workers} workers: median "
          f"{statistics.median(times):.1f} s wall to ±{args.target:.0%} (target ≤ 60 s); "
          f"{statistics.median(ideal):.1f} s on {workers} otherwise idle cores (CPU s / workers)")


if __name__ == "__main__":
    main()
