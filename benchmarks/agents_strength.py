"""How strong are the agents? Seat-swapped matches on the classic layout, win rates with 95 %
Wilson intervals.

    .venv/bin/python benchmarks/agents_strength.py                      # the README's pairings
    .venv/bin/python benchmarks/agents_strength.py --games 40 --pair mcts:200,greedy
    .venv/bin/python benchmarks/agents_strength.py --pair mcts:2s,greedy,20

Each pairing plays its GAMES (default ``--games``); game i is seeded with ``seed + i`` and the first agent
opens (takes the totem) in even games, the second agent in odd ones, so both seats count equally.
"""
from __future__ import annotations

import argparse
import math
import random
import sys
import time

from kiwara_designer.agents import make_agent, play_match
from kiwara_designer.games.kiwara import KIWARA, KiwaraVariant, new_game
from kiwara_designer.games.kiwara.formats import load_layout

# A,B[,GAMES]: the last pairing gives greedy-biased playouts about the time of mcts:500.
DEFAULT_PAIRS = ["greedy,random,200", "mcts:500,greedy,100", "mcts:100:greedy,mcts:500,40"]


def wilson_interval(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion (draws count as half a win)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def run_pair(spec_a: str, spec_b: str, games: int, seed: int, layout_name: str) -> dict:
    layout = load_layout(layout_name)
    start = new_game(layout, KiwaraVariant())
    a, b = make_agent(spec_a, KIWARA), make_agent(spec_b, KIWARA)
    wins = draws = a_first_wins = 0
    margin = 0
    started = time.perf_counter()
    for i in range(games):
        a_seat = i % 2                                  # a opens in even games
        agents = (a, b) if a_seat == 0 else (b, a)
        final, _ = play_match(start, agents, random.Random(seed + i))
        scoring = final.scoring()
        margin += scoring.totals[a_seat] - scoring.totals[1 - a_seat]
        if scoring.winner is None:
            draws += 1
        elif scoring.winner == a_seat:
            wins += 1
            a_first_wins += a_seat == 0
        if sys.stderr.isatty():
            print(f"\r{spec_a} vs {spec_b}: {i + 1}/{games}", end="", file=sys.stderr)
    if sys.stderr.isatty():
        print(file=sys.stderr)
    score = wins + draws / 2
    low, high = wilson_interval(score, games)
    return {"a": spec_a, "b": spec_b, "games": games, "wins": wins, "draws": draws,
            "rate": score / games, "low": low, "high": high, "a_first_wins": a_first_wins,
            "margin": margin / games, "seconds": time.perf_counter() - started}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per pairing without GAMES")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--layout", default="classic")
    parser.add_argument("--pair", action="append", help="A,B[,GAMES] agent specs (repeatable)")
    args = parser.parse_args()
    print(f"layout {args.layout}, seats swapped, game i seeded {args.seed} + i")
    print(f"{'A':<16} {'B':<10} {'games':>5} {'A wins':>7} {'draws':>5} {'A win rate':>10} {'95% Wilson':>15} "
          f"{'A margin':>8} {'A wins opening/second':>21} {'time':>7}")
    for pair in args.pair or DEFAULT_PAIRS:
        spec_a, spec_b, *count = pair.split(",")
        games = int(count[0]) if count else args.games
        r = run_pair(spec_a, spec_b, games, args.seed, args.layout)
        print(f"{r['a']:<16} {r['b']:<10} {games:>5} {r['wins']:>7} {r['draws']:>5} {r['rate']:>10.1%} "
              f"  [{r['low']:.1%}, {r['high']:.1%}] {r['margin']:>+8.1f} "
              f"{r['a_first_wins']:>12}/{r['wins'] - r['a_first_wins']:<8} {r['seconds']:>6.0f}s",
              flush=True)


if __name__ == "__main__":
    main()
