"""MCTS search speed: iterations per second on the classic layout, random and greedy playouts.

    .venv/bin/python benchmarks/agents_speed.py [--runs 5] [--iterations 300]

Positions: the opening (22 totem moves), after the opening (~90 placements), and mid-game
(after 14 seeded random moves). Median of ``--runs`` searches, each with its own seed. Then
whole games: the random and greedy agents' moves per second in self-play, and the CPU time of
an ``mcts:500`` move over three games against greedy (seats alternated; forced moves left out).
Whichever engine runs (the compiled core if built; ``KIWARA_ENGINE=python`` for the reference).
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from kiwara_designer.agents import MctsAgent, make_agent, play_match
from kiwara_designer.games.kiwara import KiwaraVariant, new_game
from kiwara_designer.games.kiwara.compiled import engine_name
from kiwara_designer.games.kiwara.formats import load_layout


def positions() -> dict:
    start = new_game(load_layout("classic"), KiwaraVariant())
    rng = random.Random(7)
    after_opening = start.apply(rng.choice(start.legal_moves()))
    mid = after_opening
    for _ in range(13):
        mid = mid.apply(rng.choice(mid.legal_moves()))
    return {"opening": start, "after opening": after_opening, "mid-game (ply 14)": mid}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--iterations", type=int, default=300)
    args = parser.parse_args()
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{engine_name()} engine; load average before: {load}; {os.cpu_count()} cores", flush=True)
    for playout in ("random", "greedy"):
        agent = MctsAgent(f"mcts:{args.iterations}:{playout}", iterations=args.iterations,
                          playout=playout)
        for label, state in positions().items():
            rates, cpu_rates = [], []
            for run in range(args.runs):
                cpu = time.process_time()
                result = agent.search(state, random.Random(run))
                cpu = time.process_time() - cpu
                rates.append(result.iterations / result.seconds)
                cpu_rates.append(result.iterations / cpu)
            print(f"mcts {playout:<6} playouts, {label:<18} {len(state.legal_moves()):>3} moves: "
                  f"{statistics.median(rates):>6.0f} iterations/s wall, "
                  f"{statistics.median(cpu_rates):>6.0f} CPU (median of {args.runs})", flush=True)
    # Whole self-play games: the per-move cost of the random and the greedy agent.
    opening = positions()["opening"]
    for spec in ("random", "greedy"):
        rates, cpu_rates = [], []
        for run in range(args.runs):
            wall, cpu = time.perf_counter(), time.process_time()
            final, moves = play_match(opening, (make_agent(spec),) * 2, random.Random(run))
            rates.append(len(moves) / (time.perf_counter() - wall))
            cpu_rates.append(len(moves) / (time.process_time() - cpu))
        print(f"{spec:<6} agent self-play, whole games: {statistics.median(rates):>6.0f} moves/s "
              f"wall, {statistics.median(cpu_rates):>6.0f} CPU (median of {args.runs})")
    # The thinking time of an mcts:500 move as a person meets it, over whole games.
    times = []
    for game in range(3):
        state, agents = opening, (make_agent("mcts:500"), make_agent("greedy"))
        rngs, seat = (random.Random(10 + game), random.Random(100 + game)), game % 2
        while not state.is_terminal():
            who = 0 if state.current_player() == seat else 1
            forced = len(state.legal_moves()) == 1
            cpu = time.process_time()
            move = agents[who].choose(state, rngs[who])
            if who == 0 and not forced:
                times.append(time.process_time() - cpu)
            state = state.apply(move)
    print(f"mcts:500 against greedy, 3 games ({len(times)} moves): CPU per move median "
          f"{statistics.median(times):.4f} s, longest {max(times):.4f} s "
          f"({engine_name()} engine)")


if __name__ == "__main__":
    main()
