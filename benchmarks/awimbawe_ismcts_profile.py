"""Is Awimbawé's ISMCTS bound by its rules engine? (issue 23, point 6)

    .venv/bin/python benchmarks/awimbawe_ismcts_profile.py [--moves 6] [--budget 300]

Profiles ``ismcts:BUDGET`` choosing the first moves of a seeded deal and splits the time spent
inside functions (cProfile's own time, so nothing is counted twice) by where they live: the
Awimbawé engine (``games/awimbawe``: legal moves, apply, the information state and
determinization), the agents (the search tree, playout loop) and the rest (``random``, Python).
Profiling inflates small calls, so the shares, not the seconds, are the figure. Never a test.
"""
from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random

from kiwara_designer.agents import make_agent
from kiwara_designer.core.game import CHANCE, sample_chance
from kiwara_designer.games.awimbawe.game import AWIMBAWE


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=6)
    parser.add_argument("--budget", type=int, default=300)
    args = parser.parse_args()
    rng = random.Random(3)
    state = AWIMBAWE.new_state()
    agent = make_agent(f"ismcts:{args.budget}", AWIMBAWE)
    profile = cProfile.Profile()
    for _ in range(args.moves):
        while state.current_player() == CHANCE:
            state = state.apply(sample_chance(state, rng))
        if state.is_terminal():
            break
        profile.enable()
        move = agent.choose(state, rng)
        profile.disable()
        state = state.apply(move)
    stats = pstats.Stats(profile).stats
    total = sum(row[2] for row in stats.values())
    parts = {"the Awimbawé engine": "games/awimbawe", "the agents (tree, playouts)": "agents/",
             "random numbers": "random.py"}
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}; ismcts:{args.budget}, "
          f"{args.moves} moves, {total:.2f} s of profiled own time")
    rest = total
    for label, where in parts.items():
        own = sum(row[2] for key, row in stats.items() if where in key[0])
        rest -= own
        print(f"  {label:<30} {own / total:6.1%}")
    print(f"  {'everything else':<30} {rest / total:6.1%}")


if __name__ == "__main__":
    main()
