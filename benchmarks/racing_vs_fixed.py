"""Racing against the two fixed designs it replaces, on simulated layouts with known first-player
rates spread like the measured ones: games needed to name the top k by balance at 95 %.

Run: .venv/bin/python benchmarks/racing_vs_fixed.py [--arms 200] [--k 10] [--seeds 5]
     [--spreads 0.008,0.015,0.03] [--tolerances 0.05,0.1] [--centers 0.5,0.473,0.511,0.531]
     [--rho 0.0] [--rates FILE]

The true rates are drawn once (--rate-seed) from N(center, sd) for each center of --centers and
each sd of --spreads (or read from --rates, one a line: a measured spread, such as
benchmarks/racing_point12_rates.txt, the ten layouts of issue 32's point 12 under greedy play).
The centers are where self-play puts the first player: ½, and greedy (0.473), mcts:200 (0.511)
and expert (0.531) play; away from ½ the balance intervals no longer reach 1, and every arm
near the best must be measured against it. Games come in seat-swapped pairs whose two
values are correlated (--rho: the second game repeats the first with that probability, else is
drawn afresh), like the lab's games 2j and 2j + 1. For each seed (fresh coin flips) it reports
the games used by

* race: the lab's race (LUCB, the betting confidence sequence on pairs);
* race, stitched games: the race before issue 24 (the stitched sub-Gaussian sequence, games
  taken as independent: no longer valid on correlated pairs; for reference);
* uniform: every layout every round, the same sequence and rule (``strategy="uniform"``);
* fixed-n: every layout plays n games, decided once with fixed-n intervals Bonferroni-corrected
  to δ/(2K) a side (the same guarantee) and the same accept/reject rule, n the smallest count
  (on a grid of ratio 1.05) at which that seed's data separates. Choosing n after seeing the
  data is not allowed to a real fixed design, so this is a floor on what it costs. Two
  intervals: Hoeffding on the pairs (valid for any outcome in [0, 1]) and the normal
  approximation (mean ± z·s/√n on the pairs' means with their sample sd: what a textbook design
  uses; approximate so far in the tail).

Medians over the seeds; the load average is printed, since the figures are counts, not times.
"""
from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import time
from statistics import NormalDist

from kiwara_designer.lab.racing import BALANCE, Race, RaceSettings, run_race


def paired_flips(rates: list[float], seed: int, rho: float):
    """play_more for arms with known first-player rates, games in correlated seat-swapped pairs
    (one generator an arm; a pair's second game waits in a buffer when asked for an odd count)."""
    rngs = [random.Random(f"{seed}:{arm}") for arm in range(len(rates))]
    waiting: dict[int, list[float]] = {}

    def pair(arm: int) -> list[float]:
        rnd, p = rngs[arm].random, rates[arm]
        first = float(rnd() < p)
        return [first, first if rnd() < rho else float(rnd() < p)]

    def play_more(wants):
        out = {}
        for arm, count in wants.items():
            got = waiting.pop(arm, [])
            while len(got) < count:
                got += pair(arm)
            out[arm], rest = got[:count], got[count:]
            if rest:
                waiting[arm] = rest
        return out
    return play_more, pair


def fixed_n(rates: list[float], seed: int, rho: float, settings: RaceSettings,
            interval: str) -> int:
    """Games of the fixed-n design: the smallest n (pairs a layout) whose fixed-n intervals,
    Bonferroni-corrected, separate the top k under the race's rule on this seed's games."""
    arms = len(rates)
    alpha = settings.delta / (2 * arms)
    z = NormalDist().inv_cdf(1 - alpha)
    _, pair = paired_flips(rates, seed, rho)
    sums = [0.0] * arms
    squares = [0.0] * arms
    n, target = 0, 8
    while True:
        while n < target:
            for arm in range(arms):
                x = sum(pair(arm)) / 2
                sums[arm] += x
                squares[arm] += x * x
            n += 1
        race = Race(range(arms), settings)
        for arm, state in race.states.items():
            mean = sums[arm] / n
            if interval == "hoeffding":
                radius = math.sqrt(math.log(1 / alpha) / (2 * n))
            else:
                sd = math.sqrt(max(0.0, squares[arm] / n - mean * mean) * n / max(1, n - 1))
                radius = z * sd / math.sqrt(n)
            state.games, state.total = 2 * n, 2 * sums[arm]
            state.low, state.high = max(0.0, mean - radius), min(1.0, mean + radius)
        race.decide()
        if race.finished():
            return 2 * n * arms
        target = math.ceil(target * 1.05)


def load() -> str:
    return "load average " + " ".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--arms", type=int, default=200)
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--spreads", default="0.008,0.015,0.03")
    parser.add_argument("--tolerances", default="0.05,0.1",
                        help="on the balance scale (0.1 = ±0.05 on the rate)")
    parser.add_argument("--centers", default="0.5,0.473,0.511,0.531",
                        help="first-player rates the pools are centred on, comma-separated")
    parser.add_argument("--rho", type=float, default=0.0)
    parser.add_argument("--rate-seed", type=int, default=1)
    parser.add_argument("--rates", help="a file of true rates, one a line (a measured spread)")
    parser.add_argument("--delta", type=float, default=0.05)
    args = parser.parse_args()

    spreads: list[tuple[str, list[float]]] = []
    if args.rates:
        with open(args.rates) as f:
            rates = [float(line) for line in f if line.strip()]
        spreads.append((f"{args.rates} (sd {statistics.pstdev(rates):.3f})", rates))
    else:
        for center in (float(c) for c in args.centers.split(",")):
            for sd in (float(s) for s in args.spreads.split(",")):
                draw = random.Random(args.rate_seed)
                spreads.append((f"N({center}, {sd})",
                                [min(0.99, max(0.01, draw.gauss(center, sd)))
                                 for _ in range(args.arms)]))
    print(f"{args.arms if not args.rates else len(spreads[0][1])} layouts, top {args.k} by "
          f"balance, delta {args.delta}, pair correlation {args.rho}, {args.seeds} seeds; "
          f"{load()}")
    designs = ("race", "race, stitched games", "uniform", "fixed-n normal", "fixed-n Hoeffding")
    print(f"{'true rates':<20} {'tol':>5} {'near':>5} " + " ".join(f"{d:>21}" for d in designs)
          + "  fixed-n normal / race")
    started = time.perf_counter()
    for label, rates in spreads:
        balance = sorted((BALANCE.value(r) for r in rates), reverse=True)
        for tolerance in (float(t) for t in args.tolerances.split(",")):
            near = sum(b >= balance[args.k - 1] - tolerance for b in balance)
            base = RaceSettings(k=args.k, delta=args.delta, tolerance=tolerance,
                                objective=BALANCE)
            games: dict[str, list[int]] = {d: [] for d in designs}
            for seed in range(args.seeds):
                arms = range(len(rates))
                for design, settings in (
                        ("race", RaceSettings(**{**base.__dict__, "paired": True})),
                        ("race, stitched games", RaceSettings(**{**base.__dict__,
                                                                  "interval": "stitched"})),
                        ("uniform", RaceSettings(**{**base.__dict__, "paired": True,
                                                     "strategy": "uniform"}))):
                    play_more, _ = paired_flips(rates, seed, args.rho)
                    result = run_race(arms, play_more, settings)
                    games[design].append(result.games)
                games["fixed-n normal"].append(fixed_n(rates, seed, args.rho, base, "normal"))
                games["fixed-n Hoeffding"].append(fixed_n(rates, seed, args.rho, base,
                                                          "hoeffding"))
            medians = {d: statistics.median(g) for d, g in games.items()}
            print(f"{label:<20} {tolerance:>5g} {near:>5} "
                  + " ".join(f"{medians[d]:>21,.0f}" for d in designs)
                  + f"  {medians['fixed-n normal'] / medians['race']:>5.2f}", flush=True)
    print(f"{time.perf_counter() - started:.0f} s; {load()}")


if __name__ == "__main__":
    main()
