"""Strength of the Awimbawé agents, seats and deals swapped: each deal (a chance seed) is played
twice, agent A in seat 0 then in seat 1, with the same deals. Prints one line per pairing with
agent A's match win rate, its 95 % Wilson interval and the time taken.

    python benchmarks/awimbawe_strength.py [DEALS] [PAIRING...]

PAIRING is ``A,B`` of agent specs; ``cheat-ismcts:N`` is the peeking ISMCTS (sees every card).
Default: 100 deals of greedy,random, 20 of ismcts:100,greedy, 20 of ismcts:100,random and
10 of ismcts:100,cheat-ismcts:100. The machine was loaded when the README's figures were taken."""
from __future__ import annotations

import random
import sys
import time

from kiwara_designer.agents import make_agent, play_match
from kiwara_designer.core.game import get_game
from kiwara_designer.core.stats import proportion


def run(pairing: str, deals: int) -> None:
    game = get_game("awimbawe")
    a_spec, b_spec = pairing.split(",")
    a, b = make_agent(a_spec, game), make_agent(b_spec, game)
    wins = 0
    started = time.perf_counter()
    for deal in range(deals):
        for a_seat in (0, 1):
            agents = (a, b) if a_seat == 0 else (b, a)
            final, _ = play_match(game.new_state(), agents, random.Random(f"{deal}:{a_seat}:agents"),
                                  random.Random(f"{deal}:chance"))
            wins += final.returns()[a_seat] > 0
    rate = proportion(wins, 2 * deals)
    seconds = time.perf_counter() - started
    print(f"{pairing:28s} A wins {wins:4d}/{2 * deals:<4d} = {rate.value:.3f}  "
          f"[{rate.low:.3f}, {rate.high:.3f}]  {seconds:7.1f} s", flush=True)


if __name__ == "__main__":
    args = sys.argv[1:]
    deals = int(args.pop(0)) if args and args[0].isdigit() else None
    plan = ([(p, deals) for p in args] if args else
            [("greedy,random", 100), ("ismcts:100,greedy", 20), ("ismcts:100,random", 20),
             ("ismcts:100,cheat-ismcts:100", 10)])
    for pairing, n in plan:
        run(pairing, n if n is not None else deals or 20)
