"""Speed of the layout generator on the 6 × 5 free-play problem (not a test; prints figures).

    .venv/bin/python benchmarks/generator_speed.py [--runs 3] [--list-sample N]

1. exact count in a cold process (interpreter start and imports included);
2. `kiwara layouts list --canonical > /dev/null`, every symmetry class as text, cold (the table
   build included), as layouts per second, on one process and on one per core (--list-sample
   N: only the first N, quicker);
3. 10,000 uniform samples in a cold process, setup included;
4. reference point: Graphillion (pip extra `bench`) counting partitions of the same grid into 6
   connected pieces of 3 to 9 cells, against our count of the same thing.
Medians of --runs runs. The machine may be shared: say so when quoting the figures.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time

from kiwara_designer.core.workers import default_workers

PY = sys.executable


def cold(code: str) -> tuple[float, float, str]:
    """Wall-clock and CPU seconds (user + system) of a fresh interpreter running ``code``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    out = subprocess.run([PY, "-c", code], capture_output=True, text=True, check=True).stdout
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, out.strip()


def median_cold(code: str, runs: int) -> tuple[str, str]:
    """'wall s (cpu s)' medians, and the first run's output."""
    results = [cold(code) for _ in range(runs)]
    wall = statistics.median(r[0] for r in results)
    cpu = statistics.median(r[1] for r in results)
    return f"{wall:6.2f} s wall ({cpu:5.2f} s CPU)", results[0][2]


def listing_rate(limit: int | None, workers: int, classes: int) -> tuple[float, int, float]:
    """`kiwara layouts list --canonical -j WORKERS > /dev/null` in a cold process, table build
    included: layouts per second, how many, seconds."""
    command = [os.path.join(os.path.dirname(PY), "kiwara"), "layouts", "list", "--canonical",
               "-j", str(workers)] + (["--limit", str(limit)] if limit else [])
    started = time.perf_counter()
    with open(os.devnull, "w") as sink:
        subprocess.run(command, stdout=sink, check=True)
    seconds = time.perf_counter() - started
    n = min(limit, classes) if limit else classes
    return n / seconds, n, seconds


def graphillion_count() -> tuple[float, int] | None:
    try:
        from graphillion import GraphSet
    except ImportError:
        return None
    edges = []
    w, h = 6, 5
    for y in range(h):
        for x in range(w):
            c = y * w + x + 1
            if x + 1 < w:
                edges.append((c, c + 1))
            if y + 1 < h:
                edges.append((c, c + w))
    GraphSet.set_universe(edges)
    started, cpu = time.perf_counter(), time.process_time()
    partitions = GraphSet.balanced_partitions(lower=3, upper=9, num_comps=6)
    count = len(partitions)
    return time.perf_counter() - started, time.process_time() - cpu, count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--list-sample", type=int, default=None,
                        help="list only the first N classes (default: all of them)")
    args = parser.parse_args()

    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at start")
    cold_jobs = [  # (label, what the cold process prints, unit of its output)
        ("exact count, cold process:       ", "count_layouts()", "layouts"),
        ("symmetry classes, cold process:  ", "count_layouts(canonical=True)", "classes"),
        ("10,000 uniform samples, cold:    ", "len(sample_layouts(10000, 1))", "samples"),
        ("10,000 uniform class samples:    ", "len(sample_layouts(10000, 1, canonical=True))",
         "samples"),
    ]
    found = {}
    for label, expression, unit in cold_jobs:
        seconds, out = median_cold("from kiwara_designer.games.kiwara.generator import count_layouts, "
                                   f"sample_layouts; print({expression})", args.runs)
        found[unit] = int(out)
        print(f"{label} {seconds}  -> {int(out):,} {unit} (setup included)")
    classes = found["classes"]

    what = "first" if args.list_sample else "all"
    for workers in sorted({1, default_workers()}):
        rates = [listing_rate(args.list_sample, workers, classes) for _ in range(args.runs)]
        rate, n, seconds = sorted(rates)[len(rates) // 2]
        print(f"kiwara layouts list --canonical -j {workers}: {rate:7,.0f} layouts/s "
              f"({what} {n:,} in {seconds:.1f} s, cold, median of {args.runs})")

    seconds, out = median_cold(
        "from kiwara_designer.games.kiwara import Grid\n"
        "from kiwara_designer.games.kiwara.generator import count_layouts\n"
        "print(count_layouts(Grid(6, 5), 6, range(3, 10)))", args.runs)
    ours = int(out)
    print(f"ours, 6 pieces of 3..9 cells:     {seconds}  -> {ours:,} (cold process)")
    reference = graphillion_count()
    if reference is None:
        print("graphillion: not installed (pip install -e '.[bench]')")
    else:
        g_seconds, g_cpu, g_count = reference
        agree = "agrees" if g_count == ours else "DISAGREES"
        print(f"graphillion, same question:       {g_seconds:6.2f} s wall ({g_cpu:5.2f} s CPU)"
              f"  -> {g_count:,} ({agree}; in process, after import)")


if __name__ == "__main__":
    main()
