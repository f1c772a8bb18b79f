"""Games per second per core for each agent pairing on the classic layout (one worker process).

Run: .venv/bin/python benchmarks/playtest_speed.py [--repeats 3]
Prints the median of several runs; the lab's own bookkeeping (an evaluation and a scoring after
every move, for lead changes and contestedness) is included, as in a real play-test.
"""
from __future__ import annotations

import argparse
import statistics
import time

from kiwara_designer.games.kiwara import load_layout
from kiwara_designer.lab import play_games

PAIRINGS = [("random", 60), ("greedy,random", 12), ("greedy", 12), ("mcts:20,greedy", 3),
            ("mcts:50", 2)]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    layout = load_layout("classic")
    print(f"{'pairing':<16} {'games/s/core':>12} {'ms/game':>9}   (median of {args.repeats} runs)")
    for pairing, games in PAIRINGS:
        rates = []
        for run in range(args.repeats):
            start = time.perf_counter()
            play_games(layout, None, pairing, games=games, seed=run, workers=1)
            rates.append(games / (time.perf_counter() - start))
        rate = statistics.median(rates)
        print(f"{pairing:<16} {rate:12.2f} {1000 / rate:9.1f}")


if __name__ == "__main__":
    main()
