"""Speed of the layout generator on the 6 × 5 free-play problem (not a test; prints figures).

    .venv/bin/python benchmarks/generator_speed.py [--runs 3] [--list-sample N]

1. exact count in a cold process (interpreter start and imports included);
2. listing every symmetry class as text to /dev/null, as layouts per second once the table is
   built, on one process and on one per core (--list-sample N: only the first N, quicker);
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

from kiwara_designer.workers import default_workers

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


def listing_rate(limit: int | None, workers: int) -> tuple[float, int, float]:
    """Layouts per second wall, how many, and seconds: the listing as `kiwara layouts list
    --canonical` writes it, the table built beforehand (its time is the count's figure)."""
    code = f"""
import itertools, os, time
from kiwara_designer.generator import count_layouts, iter_layouts
from kiwara_designer.formats import format_text
count_layouts()
started = time.perf_counter()
n = 0
with open(os.devnull, "w") as sink:
    for layout in itertools.islice(iter_layouts(canonical=True, workers={workers}), {limit!r}):
        sink.write(("\\n" if n else "") + format_text(layout))
        n += 1
print(n, time.perf_counter() - started)
"""
    _, _, out = cold(code)
    n, seconds = out.split()
    return int(n) / float(seconds), int(n), float(seconds)


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
    seconds, out = median_cold("from kiwara_designer.generator import count_layouts; "
                               "print(count_layouts())", args.runs)
    print(f"exact count, cold process:        {seconds}  -> {int(out):,} layouts")
    seconds, out = median_cold("from kiwara_designer.generator import count_layouts; "
                               "print(count_layouts(canonical=True))", args.runs)
    print(f"symmetry classes, cold process:   {seconds}  -> {int(out):,} classes")
    seconds, out = median_cold("from kiwara_designer.generator import sample_layouts; "
                               "print(len(sample_layouts(10000, 1)))", args.runs)
    print(f"10,000 uniform samples, cold:     {seconds}  (setup included)")
    seconds, out = median_cold("from kiwara_designer.generator import sample_layouts; "
                               "print(len(sample_layouts(10000, 1, canonical=True)))", args.runs)
    print(f"10,000 uniform class samples:     {seconds}  (setup included)")

    what = "first" if args.list_sample else "all"
    for workers in sorted({1, default_workers()}):
        rates = [listing_rate(args.list_sample, workers) for _ in range(args.runs)]
        rate, n, seconds = sorted(rates)[len(rates) // 2]
        print(f"canonical listing, {workers} process{'es' if workers > 1 else ''}:"
              f"{rate:9,.0f} layouts/s ({what} {n:,} in {seconds:.1f} s, median of {args.runs})")

    seconds, out = median_cold(
        "from kiwara_designer import Grid\n"
        "from kiwara_designer.generator import count_layouts\n"
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
