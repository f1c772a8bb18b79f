"""Are the lab's seeded games independent? (issue 25: two mcts:200 runs of one design differed
more than binomial noise allows.) Plays the same design under many master seeds and compares the
spread of the runs' first-player rates with the binomial spread they would have if every game
were an independent draw: Pearson's χ² of the runs' k × 2 table (Cochran 1954) and the
dispersion index (observed variance / binomial variance, 1 under independence).

    .venv/bin/python benchmarks/seed_independence.py [--agents greedy,greedy] [--runs 30]
        [--games 100] [--layout classic] [-j 2]

Prints one line per design, with the machine's load. Draws count as half a first-player win."""
from __future__ import annotations

import argparse
import os
import statistics
import time

from kiwara_designer.core.stats import chi2_sf
from kiwara_designer.games.kiwara import load_layout
from kiwara_designer.lab import play_games


def first_player_rate(results) -> float:
    wins = sum(1.0 if r.winner == 0 else 0.5 if r.winner is None else 0.0 for r in results)
    return wins / len(results)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agents", default="greedy,greedy")
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--layout", default="classic")
    parser.add_argument("-j", "--workers", type=int, default=2)
    args = parser.parse_args()
    layout = load_layout(args.layout)
    started, load = time.perf_counter(), os.getloadavg()[0]
    rates = [first_player_rate(play_games(layout, None, args.agents, args.games, seed=seed,
                                          workers=args.workers))
             for seed in range(1, args.runs + 1)]
    pooled = statistics.fmean(rates)
    binomial = pooled * (1 - pooled) / args.games
    observed = statistics.variance(rates)
    chi2 = sum((r - pooled) ** 2 for r in rates) / binomial       # Σ (x − n p̄)² / (n p̄ (1 − p̄))
    df = args.runs - 1
    print(f"{args.agents} on {args.layout}: {args.runs} runs × {args.games} games, first-player "
          f"rate {pooled:.3f}; runs' sd {observed ** 0.5:.4f} against binomial "
          f"{binomial ** 0.5:.4f} (dispersion {observed / binomial:.2f}); χ² = {chi2:.1f} on {df} "
          f"df, p = {chi2_sf(chi2, df):.3f}; {time.perf_counter() - started:.0f} s, load "
          f"{load:.1f}")


if __name__ == "__main__":
    main()
