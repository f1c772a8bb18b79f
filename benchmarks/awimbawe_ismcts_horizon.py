"""ISMCTS on Awimbawé, playouts to the end of the round (the default) against playouts to the end
of the match: iterations per second, and strength with seats and deals swapped.

    .venv/bin/python benchmarks/awimbawe_ismcts_horizon.py speed [RUNS] [ITERATIONS]
    .venv/bin/python benchmarks/awimbawe_ismcts_horizon.py strength DEALS NEW,OLD [FIRST_DEAL] [-j N]

``speed``: one search of ITERATIONS (default 200) from each of a few match positions (the first
move of round 1, mid round 1, the first move of round 2), RUNS times (default 5) for each
horizon, alternating; prints the medians of iterations per second (wall clock and CPU time; the
machine may be shared, CPU time is the fairer figure).

``strength``: each deal (a chance seed) is played twice, the NEW agent in seat 0 then in seat 1,
as ``benchmarks/awimbawe_strength.py`` does; NEW and OLD are specs such as ``ismcts:50`` and
``ismcts:50:random:end``. Prints a line per deal as it finishes (NEW's wins of its two matches,
each agent's thinking CPU seconds), then NEW's match wins, its rate with a 95 % Wilson interval
and the CPU seconds each agent spent thinking. Deals FIRST_DEAL … FIRST_DEAL + DEALS − 1 (so several
runs can be added up), on N processes. Never run as a test.
"""
from __future__ import annotations

import random
import statistics
import sys
import time

from kiwara_designer.agents import IsmctsAgent, make_agent
from kiwara_designer.core.game import CHANCE, get_game, sample_chance
from kiwara_designer.core.workers import parallel_map
from kiwara_designer.core.stats import proportion


def positions() -> list[tuple[str, object]]:
    """Match positions reached by seeded random play: (label, state)."""
    game = get_game("awimbawe")
    rng = random.Random(7)
    state, found = game.new_state(), []
    while not state.is_terminal() and len(found) < 3:
        if state.current_player() == CHANCE:
            state = state.apply(sample_chance(state, rng))
            continue
        moves = state.legal_moves()
        if not found and state.round_index == 0:
            found.append(("round 1, first move", state))
        elif len(found) == 1 and len(state.trick_cards) == 0 and state.cards_held(0) <= 8:
            found.append(("round 1, mid-round", state))
        elif len(found) == 2 and state.round_index == 1 and len(moves) > 1:
            found.append(("round 2, first move", state))
        state = state.apply(rng.choice(moves))
    return found


def speed(runs: int, iterations: int) -> None:
    agents = {horizon: IsmctsAgent(f"ismcts:{iterations}:random:{horizon}",
                                   iterations=iterations, horizon=horizon)
              for horizon in ("stage", "end")}
    for label, state in positions():
        rates: dict = {h: ([], []) for h in agents}
        for run in range(runs):
            for horizon, agent in agents.items():
                wall, cpu = time.perf_counter(), time.process_time()
                agent.search(state, random.Random(run))
                rates[horizon][0].append(iterations / (time.perf_counter() - wall))
                rates[horizon][1].append(iterations / (time.process_time() - cpu))
        line = ", ".join(f"{h}: {statistics.median(w):6.0f} /s wall {statistics.median(c):6.0f} "
                         f"/s CPU" for h, (w, c) in rates.items())
        print(f"{label:22s} {line}", flush=True)


def play_deal(task) -> tuple[int, float, float]:
    """Both seatings of one deal: NEW's match wins and each agent's thinking CPU seconds."""
    new_spec, old_spec, deal = task
    game = get_game("awimbawe")
    new, old = make_agent(new_spec, game), make_agent(old_spec, game)
    wins, thought = 0, [0.0, 0.0]
    for new_seat in (0, 1):
        agents = (new, old) if new_seat == 0 else (old, new)
        rng, chance = random.Random(f"{deal}:{new_seat}:agents"), random.Random(f"{deal}:chance")
        state = game.new_state()
        while not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                state = state.apply(sample_chance(state, chance))
                continue
            started = time.process_time()
            move = agents[player].choose(state, rng)
            thought[player != new_seat] += time.process_time() - started
            state = state.apply(move)
        wins += state.returns()[new_seat] > 0
    return wins, thought[0], thought[1]


def strength(deals: int, pairing: str, first: int, workers: int) -> None:
    new_spec, old_spec = pairing.split(",")
    wins, new_cpu, old_cpu = 0, 0.0, 0.0
    started = time.perf_counter()
    tasks = [(new_spec, old_spec, deal) for deal in range(first, first + deals)]
    for w, a, b in parallel_map(play_deal, tasks, workers, ordered=False):
        wins, new_cpu, old_cpu = wins + w, new_cpu + a, old_cpu + b
        print(f"deal: new wins {w} of 2, thinking CPU new {a:.1f} s, old {b:.1f} s", flush=True)
    rate = proportion(wins, 2 * deals)
    print(f"{pairing} deals {first}..{first + deals - 1}: new wins {wins}/{2 * deals} = "
          f"{rate.value:.3f} [{rate.low:.3f}, {rate.high:.3f}]; thinking CPU new {new_cpu:.0f} s, "
          f"old {old_cpu:.0f} s; {time.perf_counter() - started:.0f} s wall", flush=True)


if __name__ == "__main__":
    args = sys.argv[1:]
    workers = 1
    if "-j" in args:
        at = args.index("-j")
        workers = int(args[at + 1])
        del args[at:at + 2]
    if args and args[0] == "strength":
        strength(int(args[1]), args[2], int(args[3]) if len(args) > 3 else 0, workers)
    else:
        speed(int(args[1]) if len(args) > 1 else 5, int(args[2]) if len(args) > 2 else 200)
