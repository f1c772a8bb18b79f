"""Awimbawé engine speed, and the 100,000 random rounds check (issue 11).

    .venv/bin/python benchmarks/awimbawe_speed.py              # everything
    .venv/bin/python benchmarks/awimbawe_speed.py --check 0    # speed figures only

Random rounds start from a seeded shuffled deck (``new_round``), every move drawn uniformly
among the legal ones (the blind snake pick at its chance node). Prints medians of several runs,
wall-clock and CPU time (the machine may be shared: CPU time is the fairer figure). One core.
Never run as a test.
"""
from __future__ import annotations

import argparse
import random
import statistics
import time

from kiwara_designer.games.awimbawe.state import DEALING, OVER, PLAYING, new_round, shuffled_deck
from kiwara_designer.core.game import CHANCE, sample_chance


def random_round(rng: random.Random, variant=None, keep: list | None = None):
    state = new_round(shuffled_deck(rng), None, variant)
    while state.phase not in (DEALING, OVER):
        if state.to_move == CHANCE:
            state = state.apply(sample_chance(state, rng))
        else:
            if keep is not None and state.phase == PLAYING:
                keep.append(state)
            state = state.apply(rng.choice(state.legal_moves()))
    return state.rounds[-1]


def median_rate(fn, count: int, runs: int) -> tuple[float, float]:
    walls, cpus = [], []
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        fn()
        walls.append(count / (time.perf_counter() - wall))
        cpus.append(count / (time.process_time() - cpu))
    return statistics.median(walls), statistics.median(cpus)


def speed(rounds: int, runs: int, variant) -> None:
    rng = random.Random(1)
    wall, cpu = median_rate(lambda: [random_round(rng, variant) for _ in range(rounds)],
                            rounds, runs)
    print(f"random rounds:        {wall:9,.0f} /s wall   {cpu:9,.0f} /s CPU "
          f"(median of {runs} runs of {rounds:,})")
    positions: list = []
    for _ in range(200):
        random_round(rng, variant, positions)
    moves = sum(len(s.legal_moves()) for s in positions)

    def generate():
        for s in positions:
            s._legal = None
            s.legal_moves()

    wall, cpu = median_rate(generate, len(positions), runs)
    per = moves / len(positions)
    print(f"legal-move lists:     {wall:9,.0f} /s wall   {cpu:9,.0f} /s CPU "
          f"({len(positions):,} positions, {per:.1f} moves each: {cpu * per:,.0f} moves/s CPU)")


def check(count: int, variant) -> None:
    rng = random.Random(2024)
    by_hyenas = by_crowns = 0
    start = time.perf_counter()
    for k in range(count):
        result = random_round(rng, variant)
        if result.by_hyenas:
            by_hyenas += 1
        elif sum(result.crowns) == 45 and result.tricks == 14:
            by_crowns += 1
        else:
            raise SystemExit(f"round {k}: neither four hyenas nor 45 crowns: {result}")
    print(f"{count:,} random rounds: {by_hyenas:,} ended by hyenas, {by_crowns:,} with 45 crowns "
          f"shared, none otherwise ({time.perf_counter() - start:.0f} s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000, help="rounds per speed run")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--check", type=int, default=100_000, help="rounds to check (0: none)")
    parser.add_argument("--variant", default=None, help="built-in name or TOML file")
    args = parser.parse_args()
    speed(args.rounds, args.runs, args.variant)
    if args.check:
        check(args.check, args.variant)


if __name__ == "__main__":
    main()
