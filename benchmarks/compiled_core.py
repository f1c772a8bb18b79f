"""The compiled rules core against the pure-Python engine, measured in one run (issue 23).

    .venv/bin/python benchmarks/compiled_core.py            # everything, about five minutes
    .venv/bin/python benchmarks/compiled_core.py --quick    # perft 4 for Python, fewer runs

Both engines play the same games (the core reproduces the Python engine bit for bit), so each
figure is the same work timed twice. Figures are medians of ``--runs`` runs, by CPU time of this
process (the machine may be shared; wall-clock medians are printed beside them), with the
machine's load average before and after. ``KIWARA_ENGINE=python`` switches the engine between
runs in this one process. Never run as a test.

1. random self-play through ``kiwara playtest classic --agents random,random -j 1`` (the
   command itself, in this process: metrics and all), games per second;
2. perft 5 of the classic board from the start;
3. greedy self-play through ``kiwara playtest classic --agents greedy,greedy -j 1``;
4. MCTS iterations per second: ``mcts:N`` searching the classic board's second move (random
   playouts; the root's children are every first placement).
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

from click.testing import CliRunner

from kiwara_designer.agents.mcts import MctsAgent
from kiwara_designer.cli import main
from kiwara_designer.core.game import perft
from kiwara_designer.games.kiwara import new_game
from kiwara_designer.games.kiwara import compiled
from kiwara_designer.games.kiwara.formats import load_layout

ENGINES = ("compiled", "python")


def use(engine: str) -> None:
    if engine == "python":
        os.environ[compiled.ENGINE_VARIABLE] = "python"
    else:
        os.environ.pop(compiled.ENGINE_VARIABLE, None)
    assert compiled.engine_name() == engine, f"cannot run the {engine} engine"


def rate(work, runs: int) -> tuple[float, float]:
    """Median rates of ``runs`` runs of ``work()`` (which returns how much it did), per second
    of CPU time and of wall clock."""
    cpus, walls = [], []
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        done = work()
        cpus.append(done / (time.process_time() - cpu))
        walls.append(done / (time.perf_counter() - wall))
    return statistics.median(cpus), statistics.median(walls)


def playtest(agents: str, games: int):
    def run() -> int:
        result = CliRunner().invoke(main, ["playtest", "classic", "--agents", agents,
                                           "--games", str(games), "-j", "1",
                                           "--skill-games", "0"])
        assert result.exit_code == 0, result.output
        return games
    return run


def perft_of(depth: int):
    start = new_game(load_layout("classic"))
    return lambda: perft(start, depth)


def mcts_search(iterations: int):
    state = new_game(load_layout("classic"))
    state = state.apply(state.legal_moves()[7])      # T7: the second move is a placement
    agent = MctsAgent(iterations=iterations)
    return lambda: agent.search(state, random.Random(1)).iterations


def main_(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="perft 4 for the Python engine (perft 5 takes it minutes)")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    if compiled._engine is None:
        sys.exit("the compiled core is not built: nothing to compare")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
          f"{os.cpu_count()} cores; medians of {args.runs} runs: per CPU second (per wall "
          f"second)")
    python_perft = 4 if args.quick else 5
    # (label, work for the compiled core, work for Python, runs for Python)
    tasks = [
        ("random self-play, games/s", playtest("random,random", 4000),
         playtest("random,random", 400), args.runs),
        (f"perft 5 / {python_perft}, leaves/s", perft_of(5), perft_of(python_perft),
         1 if python_perft == 5 else args.runs),
        ("greedy self-play, games/s", playtest("greedy,greedy", 400),
         playtest("greedy,greedy", 40), args.runs),
        ("mcts iterations/s", mcts_search(20000), mcts_search(2000), args.runs),
    ]
    for label, fast, slow, slow_runs in tasks:
        use("compiled")
        core = rate(fast, args.runs)
        use("python")
        python = rate(slow, slow_runs)
        use("compiled")
        print(f"{label:<28} compiled {core[0]:>12,.0f} ({core[1]:>12,.0f})   "
              f"python {python[0]:>10,.0f} ({python[1]:>10,.0f})   {core[0] / python[0]:5.1f}x",
              flush=True)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main_()
