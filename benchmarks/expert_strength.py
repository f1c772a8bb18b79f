"""Does ``expert`` meet its targets? (issue 25: at least 65 % against mcts:200, at least 95 %
against greedy, within about half a CPU-second a move.)

    .venv/bin/python benchmarks/expert_strength.py                 # 200 games a pairing
    .venv/bin/python benchmarks/expert_strength.py --games 40 -j 1

Seat-swapped games on the classic board through the lab (``play_games``: game pairs share a
seed, the expert opens in even games), win rates with 95 % Wilson intervals (a draw is half a
win), and the expert's thinking time per move: CPU time of ``choose`` over the positions of a
few of its games (median and 95th percentile), with the machine's load. Never a test.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from kiwara_designer.agents import make_agent
from kiwara_designer.core.stats import proportion
from kiwara_designer.games.kiwara import KIWARA, new_game
from kiwara_designer.games.kiwara.formats import load_layout
from kiwara_designer.lab.matches import Pairing, play_games

TARGETS = {"mcts:200": 0.65, "greedy": 0.95}


def move_times(expert: str, games: int) -> list[float]:
    """CPU seconds of each of the expert's decisions (two or more legal moves) in ``games``
    games of expert against greedy."""
    agent, other = make_agent(expert, KIWARA), make_agent("greedy", KIWARA)
    times = []
    for i in range(games):
        rng, state = random.Random(i), new_game(load_layout("classic"))
        seats = (agent, other) if i % 2 == 0 else (other, agent)
        while not state.is_terminal():
            player = seats[state.current_player()]
            if player is agent and len(state.legal_moves()) > 1:
                started = time.process_time()
                move = agent.choose(state, rng)
                times.append(time.process_time() - started)
            else:
                move = player.choose(state, rng)
            state = state.apply(move)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--expert", default="expert")
    parser.add_argument("-j", "--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    layout = load_layout("classic")
    for opponent, target in TARGETS.items():
        started = time.perf_counter()
        games = play_games(layout, None, Pairing.parse(f"{args.expert},{opponent}"), args.games,
                           seed=args.seed, workers=args.workers)
        wins = sum(g.winner_agent == "a" for g in games) + \
            sum(g.winner_agent is None for g in games) / 2
        rate = proportion(wins, len(games))
        verdict = "met" if rate.low >= target else ("likely" if rate.value >= target else "NOT met")
        print(f"{args.expert} vs {opponent:<9} {len(games)} games  win rate {rate.value:6.1%}  "
              f"[{rate.low:.1%}, {rate.high:.1%}]  target {target:.0%}: {verdict}  "
              f"({time.perf_counter() - started:.0f} s)", flush=True)
    times = sorted(move_times(args.expert, 4))
    print(f"{args.expert}: {len(times)} decisions, CPU time per move median "
          f"{statistics.median(times):.3f} s, 95th percentile "
          f"{times[int(0.95 * (len(times) - 1))]:.3f} s, longest {times[-1]:.3f} s")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
