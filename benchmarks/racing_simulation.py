"""Racing on simulated layouts with known first-player win rates: how often it names a wrong top
k (must stay under δ = 5 %), and how many games it needs against a uniform sweep that plays every
layout equally until the same rule separates the same top k.

Run: .venv/bin/python benchmarks/racing_simulation.py [--arms 500] [--k 10] [--runs 20]
     [--interval betting|stitched] [--centers 0.46] [--spread 0.06] [--paired]
The true rates are drawn once (--seed) from a normal around each of --centers (sd --spread):
0.46 is like the greedy self-play rates of sampled layouts; small pools away from ½ are
``--arms 10 --k 1 --spread 0.01 --centers 0.473,0.511,0.531 --paired`` (greedy, mcts:200 and
expert self-play). Each run plays fresh coin flips (run r: seed r). A run is an
error if a named arm's true balance is below the k-th best true balance minus the tolerance.
The uniform sweep is simulated for --uniform-runs runs only (it is the slow part).
"""
from __future__ import annotations

import argparse
import random
import statistics
import time

from kiwara_designer.lab.racing import BALANCE, RaceSettings, run_race


def coin_flips(rates: list[float], seed: int):
    rngs = [random.Random(f"{seed}:{arm}") for arm in range(len(rates))]

    def play_more(wants):
        out = {}
        for arm, count in wants.items():
            rnd, p = rngs[arm].random, rates[arm]
            out[arm] = [1.0 if rnd() < p else 0.0 for _ in range(count)]
        return out
    return play_more


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--arms", type=int, default=500)
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--uniform-runs", type=int, default=3)
    parser.add_argument("--delta", type=float, default=0.05)
    parser.add_argument("--tolerance", type=float, default=0.05,
                        help="on the balance scale (0.05 = 0.025 on the win rate)")
    parser.add_argument("--spread", type=float, default=0.06)
    parser.add_argument("--centers", default="0.46",
                        help="first-player rates the pools are centred on, comma-separated")
    parser.add_argument("--paired", action="store_true",
                        help="race seat-swapped pairs, as the lab does")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--strategy", default="lucb")
    parser.add_argument("--interval", default="betting", help="betting or stitched")
    args = parser.parse_args()

    for center in (float(c) for c in args.centers.split(",")):
        simulate(args, center)


def simulate(args, center: float) -> None:
    draw = random.Random(args.seed)
    rates = [min(0.95, max(0.05, draw.gauss(center, args.spread))) for _ in range(args.arms)]
    balance = sorted((BALANCE.value(r) for r in rates), reverse=True)
    kth = balance[args.k - 1]
    settings = RaceSettings(k=args.k, delta=args.delta, tolerance=args.tolerance,
                            objective=BALANCE, strategy=args.strategy, interval=args.interval,
                            paired=args.paired)
    print(f"{args.arms} arms, true rates ~ N({center}, {args.spread}); top {args.k} by balance, "
          f"{args.interval} interval{', pairs' if args.paired else ''}, "
          f"delta {args.delta}, tolerance {args.tolerance}; k-th best true balance {kth:.4f}, "
          f"arms within the tolerance of it: "
          f"{sum(b >= kth - args.tolerance for b in balance)}")

    errors, games, seconds, unseparated, most = 0, [], [], 0, []
    for run in range(args.runs):
        started = time.perf_counter()
        result = run_race(range(args.arms), coin_flips(rates, run), settings)
        seconds.append(time.perf_counter() - started)
        games.append(result.games)
        most.append(max(a.games for a in result.arms))
        unseparated += not result.separated
        wrong = [a for a in result.top if BALANCE.value(rates[a]) < kth - args.tolerance]
        errors += bool(wrong)
    print(f"racing: {args.runs} runs, {errors} wrong ({errors / args.runs:.1%}), "
          f"{unseparated} not separated; games median {statistics.median(games):,.0f} "
          f"(min {min(games):,}, max {max(games):,}; one arm at most {max(most):,}); "
          f"{statistics.median(seconds):.1f} s a run")

    uniform = []
    for run in range(args.uniform_runs):
        result = run_race(range(args.arms), coin_flips(rates, run),
                          RaceSettings(**{**settings.__dict__, "strategy": "uniform"}))
        uniform.append(result.games)
    if uniform:
        ratio = statistics.median(uniform) / statistics.median(games)
        print(f"uniform sweep to the same separation: games median {statistics.median(uniform):,.0f}"
              f" ({statistics.median(uniform) // args.arms:,.0f} a layout); racing needs "
              f"{ratio:.1f}x fewer")


if __name__ == "__main__":
    main()
