"""Racing real layouts: games needed to name the top k at 95 % against a uniform (fixed) sweep
reaching the same separation.

Run: .venv/bin/python benchmarks/racing_lab.py [--pool 500] [--k 10] [--agents random]
     [--tolerance 0.1] [--db racing-bench.sqlite]

1. Samples --pool layouts (up to symmetry, --seed) and races them for real with
   ``race_setups`` into --db (resumable: rerun the same command after an interruption).
2. The uniform sweep would play every layout as often as the hardest one needs; playing it
   for real costs pool × that many games, so it is simulated: the race's estimated first-player
   rates are taken as the true rates, and the uniform design (every layout every round, the same
   intervals and stopping rule, ``strategy="uniform"``) and racing itself are both run on coin
   flips with those rates (--sim-runs seeds), so the ratio compares like with like.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from racing_simulation import coin_flips  # noqa: E402

from kiwara_designer.games.kiwara.generator import sample_layouts  # noqa: E402
from kiwara_designer.lab import PlaySettings, Store  # noqa: E402
from kiwara_designer.lab.race_lab import race_setups  # noqa: E402
from kiwara_designer.lab.racing import BALANCE, RaceSettings, run_race  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pool", type=int, default=500)
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--agents", default="random")
    parser.add_argument("--tolerance", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int)
    parser.add_argument("--db", default="racing-bench.sqlite")
    parser.add_argument("--sim-runs", type=int, default=5)
    args = parser.parse_args()

    layouts = sample_layouts(args.pool, args.seed, canonical=True)
    started = time.perf_counter()
    last = [time.perf_counter()]

    def progress(race) -> None:
        if time.perf_counter() - last[0] > 30:
            last[0] = time.perf_counter()
            print(f"  round {race.round}: {race.games:,} games, {len(race.undecided())} "
                  f"undecided, {last[0] - started:.0f} s", file=sys.stderr)

    with Store(args.db) as store:
        race = race_setups(store, layouts, PlaySettings(args.agents, seed=args.seed,
                                                         workers=args.workers),
                           RaceSettings(k=args.k, tolerance=args.tolerance), metric="balance",
                           progress=progress)
    r = race.result
    print(f"pool {len(r.arms)} layouts, agents {args.agents}, top {args.k} by balance, "
          f"95 % confidence, tolerance {args.tolerance}: {r.reason} after {r.games:,} games "
          f"({race.games_played:,} played now) in {r.rounds} rounds, {race.seconds:.0f} s wall "
          f"({race.workers} workers)")
    counts = sorted(a.games for a in r.arms)
    print(f"games per layout: min {counts[0]}, median {counts[len(counts) // 2]}, "
          f"max {counts[-1]:,}; dropped {sum(a.status == 'rejected' for a in r.arms)}")
    rates = [a.mean for a in r.arms]
    spread = statistics.pstdev(rates)
    print(f"estimated first-player rates: mean {statistics.mean(rates):.3f}, sd {spread:.3f}")

    settings = RaceSettings(k=args.k, delta=0.05, tolerance=args.tolerance, objective=BALANCE)
    raced, uniform = [], []
    for run in range(args.sim_runs):
        raced.append(run_race(range(len(rates)), coin_flips(rates, run), settings).games)
        uniform.append(run_race(range(len(rates)), coin_flips(rates, run),
                                RaceSettings(**{**settings.__dict__, "strategy": "uniform"})).games)
    print(f"on the estimated rates ({args.sim_runs} simulated runs): racing median "
          f"{statistics.median(raced):,.0f} games, uniform sweep to the same separation "
          f"{statistics.median(uniform):,.0f} ({statistics.median(uniform) / len(rates):,.0f} a "
          f"layout): {statistics.median(uniform) / statistics.median(raced):.1f}x; "
          f"against the real race's {r.games:,}: {statistics.median(uniform) / r.games:.1f}x")


if __name__ == "__main__":
    random.seed(0)
    main()
