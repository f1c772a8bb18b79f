"""Which cheap settings of ``expert`` buy strength per CPU-second? An exploratory spike for the
``master`` agent (issue 33), not a confirmatory test and never part of the suite.

    .venv/bin/python benchmarks/master_candidates.py                       # the default five, 40 games
    .venv/bin/python benchmarks/master_candidates.py --games 20 c0.7 s12   # some candidates
    .venv/bin/python benchmarks/master_candidates.py --extra 'c0.7+s12:exploration=0.7,solve_cells=12,solve_nodes=5000000'
    .venv/bin/python benchmarks/master_candidates.py --list

Each candidate is an :class:`ExpertAgent` built directly with other settings (iterations,
exploration constant, ``solve_cells`` / ``solve_nodes`` of the exact endgame) and plays
``--games`` seat-swapped games on the classic board against the baseline ``expert``. The games
are the lab's (``lab.matches``): game ``i`` takes ``game_seed(seed, i)``, the candidate is agent
A (first player in even games, second in odd ones), each agent has its own stream
(``"{seed}:a"`` / ``"{seed}:b"``), so a pair of games is a paired sample of the seat and every
candidate meets the same seeds. ``play_games`` only takes agent specs (``expert[:N]`` sets no
more than the iterations), so the games are played here move by move through the protocol,
each decision still searched in the compiled core (``ExpertAgent.choose``: the core's endgame
search and MCTS), and each decision (two or more legal moves) timed with ``time.process_time``.
``--check N`` replays the first N games whole in the core (``CompiledKiwara.play`` with the
agents' ``core_spec``) and stops if a move differs: the move-by-move games are the lab's games.

Printed per candidate: wins, draws and losses of the candidate, its score rate (a draw is half
a win) with a 95 % Wilson interval, the Elo difference ``400·log10(p / (1 − p))`` with the
interval's ends mapped the same way, the exact two-sided sign-test p against 50 % (draws left
out), the candidate's and the baseline's CPU seconds a decision (median, mean, 95th
percentile), the wall time and the machine's load average before and after. Deterministic:
the same games, moves and results on every run (the times vary with the machine). ``-j 1``
(default) plays in this process; ``-j N`` spreads the games over N processes (the same games;
CPU time is still each decision's own, but a busy machine slows every process's CPU time too).

40 games give an interval of about ±15 points around 50 %: enough to see a large gain or
loss, not to rank candidates that differ by a few points. Choose candidates before the run
and read the table as exploration; confirm any winner on fresh seeds. A 10,000-iteration
candidate plays 60 games in about 4 minutes on one core (20,000 iterations: 6 minutes).
"""
from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from kiwara_designer.core.game import CHANCE, compiled_twin, sample_chance
from kiwara_designer.core.stats import binomial_two_sided_p, proportion
from kiwara_designer.games.kiwara import KIWARA
from kiwara_designer.games.kiwara.compiled import engine_name
from kiwara_designer.games.kiwara.expert import ExpertAgent
from kiwara_designer.games.kiwara.formats import load_layout
from kiwara_designer.lab.matches import FIRST, agent_a_seat, game_seed

BASELINE = ExpertAgent("expert")
# name: ExpertAgent settings that differ from expert's (10,000 iterations, c = 1, exact endgame
# from 10 placements left within 100,000 positions). Measured while choosing the endgame
# budgets (3 games, one core): 100,000 positions rarely solve 10 placements left, 1,000,000
# solve 10 and 11 (0.02 s), 5,000,000 solve 12 (up to 0.35 s); 20,000,000 (1.4 s) do not
# solve 14.
CANDIDATES: dict[str, dict[str, Any]] = {
    "c0.5": {"exploration": 0.5},
    "c0.7": {"exploration": 0.7},
    "c1.4": {"exploration": 1.4},
    "s11": {"solve_cells": 11, "solve_nodes": 1_000_000},
    "s12": {"solve_cells": 12, "solve_nodes": 5_000_000},
    "s14": {"solve_cells": 14, "solve_nodes": 30_000_000},
    "i20k": {"iterations": 20_000},
    # chosen after a first run of the others (post hoc: confirm on fresh seeds)
    "c0.3": {"exploration": 0.3},
    "c0.5+s12": {"exploration": 0.5, "solve_cells": 12, "solve_nodes": 5_000_000},
}
DEFAULT_RUN = ("c0.5", "c0.7", "c1.4", "s12", "i20k")


@dataclass(frozen=True)
class Played:
    """One game's result from the candidate's side, and the CPU time of each decision."""

    index: int
    score: float                 # 1 won, 0.5 draw, 0 lost (the candidate)
    moves: tuple[str, ...]
    candidate_times: tuple[float, ...]
    baseline_times: tuple[float, ...]


def parse_extra(text: str) -> tuple[str, dict[str, Any]]:
    """``NAME:key=value,key=value`` (keys: iterations, exploration, solve_cells, solve_nodes)."""
    name, _, body = text.partition(":")
    settings: dict[str, Any] = {}
    for item in filter(None, body.split(",")):
        key, _, value = item.partition("=")
        key = key.strip()
        if key not in ("iterations", "exploration", "solve_cells", "solve_nodes"):
            raise SystemExit(f"--extra {text!r}: unknown setting {key!r}")
        settings[key] = float(value) if key == "exploration" else int(value.replace("_", ""))
    if not name or not settings:
        raise SystemExit(f"--extra wants NAME:key=value,..., got {text!r}")
    return name, settings


def play_one(settings: dict[str, Any], name: str, master_seed: int, index: int) -> Played:
    """Game ``index`` of candidate ``name`` against the baseline, as the lab would seat and
    seed it, played move by move with each decision timed."""
    candidate = ExpertAgent(name, **settings)
    seed = game_seed(master_seed, index)
    a_seat = agent_a_seat(index)
    agents = (candidate, BASELINE) if a_seat == FIRST else (BASELINE, candidate)
    streams = (f"{seed}:a", f"{seed}:b")
    rngs = [random.Random(s) for s in (streams if a_seat == FIRST else streams[::-1])]
    chance = random.Random(f"{seed}:chance")
    state = KIWARA.new_state(load_layout("classic"), KIWARA.default_variant())
    moves: list[str] = []
    times: dict[int, list[float]] = {0: [], 1: []}
    while not state.is_terminal():
        player = state.current_player()
        if player == CHANCE:
            move = sample_chance(state, chance)
        else:
            legal = state.legal_moves()
            if len(legal) == 1:
                move = legal[0]
            else:
                started = time.process_time()
                move = agents[player].choose(state, rngs[player])
                times[player].append(time.process_time() - started)
        moves.append(str(move))
        state = state.apply(move)
    returns = state.returns()
    mine, theirs = returns[a_seat], returns[1 - a_seat]
    score = 1.0 if mine > theirs else 0.0 if mine < theirs else 0.5
    return Played(index, score, tuple(moves), tuple(times[a_seat]), tuple(times[1 - a_seat]))


def check_whole(settings: dict[str, Any], name: str, master_seed: int, played: Played) -> None:
    """Stop unless the compiled core, playing the game whole, makes the same moves."""
    index = played.index
    seed = game_seed(master_seed, index)
    candidate = ExpertAgent(name, **settings)
    agents = (candidate, BASELINE) if agent_a_seat(index) == FIRST else (BASELINE, candidate)
    streams = (f"{seed}:a", f"{seed}:b")
    seeds = streams if agent_a_seat(index) == FIRST else streams[::-1]
    state = KIWARA.new_state(load_layout("classic"), KIWARA.default_variant())
    fast = compiled_twin(state)
    whole = None if fast is None else fast.play(agents, seeds, True)
    if whole is None:
        raise SystemExit("--check needs the compiled core (it plays the game whole)")
    if tuple(map(str, whole.moves)) != played.moves:
        raise SystemExit(f"{name} game {index}: the move-by-move game differs from the core's "
                         f"whole game")


def _job(args: tuple) -> Played:
    return play_one(*args)


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[int(q * (len(ordered) - 1))]


def elo(p: float) -> float:
    if p <= 0:
        return -math.inf
    if p >= 1:
        return math.inf
    return 400 * math.log10(p / (1 - p))


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def time_summary(values: list[float]) -> str:
    if not values:
        return "   -      -      -  "
    return (f"{statistics.median(values):.3f}  {statistics.fmean(values):.3f}  "
            f"{quantile(values, 0.95):.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("candidates", nargs="*", help=f"names (default: {' '.join(DEFAULT_RUN)})")
    parser.add_argument("--games", type=int, default=40, help="games per candidate (even: "
                        "seat-swapped pairs)")
    parser.add_argument("--seed", type=int, default=2033)
    parser.add_argument("-j", "--workers", type=int, default=1)
    parser.add_argument("--extra", action="append", default=[],
                        help="NAME:key=value,... another candidate (repeatable)")
    parser.add_argument("--check", type=int, default=0, metavar="N",
                        help="replay the first N games of each candidate whole in the core")
    parser.add_argument("--list", action="store_true", help="list the candidates and stop")
    args = parser.parse_args()
    known = dict(CANDIDATES)
    known.update(parse_extra(text) for text in args.extra)
    if args.list:
        for name, settings in known.items():
            print(f"{name:<8} {settings}")
        return
    names = args.candidates or [*DEFAULT_RUN, *(parse_extra(t)[0] for t in args.extra)]
    unknown = [n for n in names if n not in known]
    if unknown or args.games < 1:
        parser.error(f"unknown candidates {unknown} (see --list)" if unknown
                     else "--games must be at least 1")
    if engine_name() != "compiled":
        print("warning: the compiled core is not built; the Python engine is far slower",
              file=sys.stderr)
    print(f"{args.games} seat-swapped games a candidate against expert on classic, seed "
          f"{args.seed}, {args.workers} process(es), {os.cpu_count()} cores; baseline "
          f"{BASELINE.iterations} iterations, c {BASELINE.exploration}, exact endgame from "
          f"{BASELINE.solve_cells} placements within {BASELINE.solve_nodes:,} positions")
    print("exploratory: 95 % Wilson intervals, no correction for comparing several candidates")
    header = (f"{'candidate':<9} {'games':>5}  {'W-D-L':<8}  {'rate [95 % CI]':<22}  "
              f"{'Elo [95 % CI]':<20}  {'p':>5}  {'cand s/move med mean p95':<24}  "
              f"{'expert s/move med mean p95':<26}  {'wall':>5}  load before / after")
    print(header, flush=True)
    pool = ProcessPoolExecutor(args.workers) if args.workers > 1 else None
    try:
        for name in names:
            settings = known[name]
            before, started = load(), time.perf_counter()
            jobs = [(settings, name, args.seed, i) for i in range(args.games)]
            games = list(pool.map(_job, jobs) if pool else map(_job, jobs))
            for played in games[:args.check]:
                check_whole(settings, name, args.seed, played)
            wins = sum(g.score == 1 for g in games)
            draws = sum(g.score == 0.5 for g in games)
            losses = len(games) - wins - draws
            rate = proportion(wins + draws / 2, len(games))
            p = binomial_two_sided_p(wins, wins + losses)
            mine = [t for g in games for t in g.candidate_times]
            theirs = [t for g in games for t in g.baseline_times]
            print(f"{name:<9} {len(games):>5}  {wins}-{draws}-{losses:<4}  "
                  f"{rate.value:5.1%} [{rate.low:5.1%}, {rate.high:5.1%}]  "
                  f"{elo(rate.value):+5.0f} [{elo(rate.low):+5.0f}, {elo(rate.high):+5.0f}]  "
                  f"{p:5.3f}  {time_summary(mine):<24}  {time_summary(theirs):<26}  "
                  f"{time.perf_counter() - started:4.0f}s  {before} / {load()}", flush=True)
    finally:
        if pool:
            pool.shutdown()


if __name__ == "__main__":
    main()
