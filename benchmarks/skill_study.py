"""The skill study (issue 25): does the first player's advantage change with skill, and do
layouts differ between good players?

    .venv/bin/python benchmarks/skill_study.py --db study.sqlite            # play, then report
    .venv/bin/python benchmarks/skill_study.py --db study.sqlite --report   # the report only
    .venv/bin/python benchmarks/skill_study.py --db study.sqlite --games expert=120

The 8 built-in boards and 40 layouts drawn uniformly at random (the generator's
``sample_layouts``, seed 1) are played in self-play at each skill level (random, greedy,
mcts:200, expert) by ``kiwara sweep`` into one results database, so a killed study resumes
with the same command, and more games can be added later (``--games LEVEL=N``: the sweep plays
the missing ones). Games of every layout use the sweep's seeds (game i of a layout seeded from
(1, i)), the seat-swapped pairs of the lab.

The report, per level: the first player's win rate over all games with its 95 % interval;
whether the layouts differ at all (the lab's χ² homogeneity test over the layouts, as ``kiwara
rank`` prints it, its p-value Holm-adjusted over the levels tested), the between-layout
standard deviation with its interval, and the spread the data could have detected (80 % power);
then whether the first-player rate changes with skill (a χ² test over the levels' pooled rates,
and z tests of each step up, Holm-adjusted; games of one level are independent of another's,
and within a level the seat-swapped pairs' results correlate negatively if at all, which makes
these binomial tests conservative), and, for each pair of levels, the Spearman correlation of
the layouts' first-player rates (do the layouts that favour the first player at one skill
favour them at another?); last, the database's summary, each layout's first-player win rate at
each level. The commands are printed, so the study can be repeated and checked.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

from kiwara_designer.core.stats import (holm, proportion, rate_homogeneity,
                                        two_proportion_z_test)
from kiwara_designer.games.kiwara.formats import load_layout
from kiwara_designer.games.kiwara.generator import sample_layouts

LEVELS = ("random", "greedy", "mcts:200", "expert")
GAMES = {"random": 2000, "greedy": 2000, "mcts:200": 400, "expert": 150}
BUILT_IN = ("classic", "full-range", "great-plain", "long-grass", "president", "six-fives",
            "three-sevens", "twin-nines")
SAMPLED, SEED = 40, 1


def study_labels(db: Path) -> dict[str, str]:
    """Each study layout's store key → its name: the built-in board's, or "sample K" for the
    K-th of the uniform draw."""
    from kiwara_designer.core.game import get_game
    from kiwara_designer.games.kiwara.formats import parse_text
    game = get_game("kiwara")
    names = list(BUILT_IN) + [f"sample {k}" for k in range(1, SAMPLED + 1)]
    entries = parse_text(layouts_file(db).read_text("utf-8"))
    return {game.setup_key(entry.layout): name for entry, name in zip(entries, names)}


def layouts_file(db: Path) -> Path:
    """The study's 48 layouts, one block of rows each, next to the database."""
    path = db.with_name(db.stem + "-layouts.txt")
    if not path.exists():
        boards = [load_layout(name) for name in BUILT_IN]
        boards += list(sample_layouts(SAMPLED, seed=SEED))
        path.write_text("\n\n".join("\n".join(board.rows) for board in boards) + "\n", "utf-8")
    return path


def kiwara(*args: str, capture: bool = False) -> str:
    command = [str(Path(sys.executable).with_name("kiwara")), *args]
    if not capture:       # what is played is shown; what the report reads, the docstring says
        print("$ kiwara " + " ".join(args), file=sys.stderr, flush=True)
    done = subprocess.run(command, check=True, text=True,
                          stdout=subprocess.PIPE if capture else None)
    return done.stdout if capture else ""


def play(db: Path, games: dict[str, int], workers: int) -> None:
    source = layouts_file(db)
    for level in LEVELS:
        kiwara("sweep", "--from", str(source), "--db", str(db), "--agents", level,
               "--games", str(games[level]), "--skill-games", "0", "--seed", str(SEED),
               "-j", str(workers))


def spearman(xs: list[float], ys: list[float]) -> float:
    def ranks(values: list[float]) -> list[float]:
        order = sorted(range(len(values)), key=values.__getitem__)
        result = [0.0] * len(values)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
                j += 1
            for k in range(i, j + 1):
                result[order[k]] = (i + j) / 2
            i = j + 1
        return result
    rx, ry = ranks(xs), ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    sxx = sum((a - mx) ** 2 for a in rx)
    syy = sum((b - my) ** 2 for b in ry)
    return sxy / math.sqrt(sxx * syy) if sxx and syy else float("nan")


def report(db: Path) -> None:
    rates: dict[str, dict[str, float]] = {}
    counts: dict[str, tuple[float, int]] = {}
    played_games: dict[str, dict[str, int]] = {}
    mixes: dict[str, str] = {}
    found_by_level = {}
    for level in LEVELS:
        found = json.loads(kiwara("rank", "--db", str(db), "--agents", f"{level},{level}",
                                  "--by", "first_player_win_rate", "--top", "1000", "--json",
                                  capture=True))
        # a layout whose first games are still being played has no rate yet
        rows = [r for r in found["ranking"] if r["values"]["first_player_win_rate"] is not None]
        if rows:
            found_by_level[level] = (rows, found["homogeneity"]["first_player_win_rate"])
    # one homogeneity test per level: their p-values Holm-adjusted over the levels
    tested = [level for level, (_, h) in found_by_level.items() if h["p_value"] is not None]
    adjusted = dict(zip(tested, holm([found_by_level[level][1]["p_value"] for level in tested])))
    print(f"{'level':<9} {'layouts':>7} {'games':>7}  first-player win rate      "
          f"layouts differ? (p; Holm over levels)     between-layout sd     detectable sd")
    for level in LEVELS:
        if level not in found_by_level:
            print(f"{level:<9} not played yet")
            continue
        rows, h = found_by_level[level]
        games = sum(r["games"] for r in rows)
        wins = sum(r["values"]["first_player_win_rate"] * r["games"] for r in rows)
        pooled = proportion(wins, games)
        rate = f"{level:<9} {len(rows):>7} {games:>7}  {pooled.value:.3f} " \
               f"[{pooled.low:.3f}, {pooled.high:.3f}]   "
        if level not in adjusted:         # one layout, or no spread: nothing to test
            print(rate + "not tested (one layout)")
        else:
            verdict = "yes" if adjusted[level] < 0.05 else "cannot tell"
            print(rate + f"χ² {h['statistic']:.1f} on {h['df']} df: {verdict} (p "
                  f"{h['p_value']:.2g}; {adjusted[level]:.2g})"
                  f" {h['between_sd']:.3f} [{h['between_sd_low']:.3f}, "
                  f"{h['between_sd_high']:.3f}]   {h['detectable']:.3f}")
        rates[level] = {r["setup"]: r["values"]["first_player_win_rate"] for r in rows}
        played_games[level] = {r["setup"]: r["games"] for r in rows}
        mixes.update({r["setup"]: r["size_mix"] for r in rows})
        counts[level] = (wins, games)
    played = [level for level in LEVELS if level in rates]
    if len(played) > 1:
        across = rate_homogeneity([counts[level] for level in played])
        print(f"\nDoes the first player's win rate change with skill? χ² {across.statistic:.1f} on "
              f"{across.df} df, p = {across.p_value:.2g} (the levels' pooled rates)")
        steps = [(a, b, two_proportion_z_test(*counts[b], *counts[a]))
                 for a, b in zip(played, played[1:])]
        for (a, b, test), adjusted in zip(steps, holm([t.p_value for _, _, t in steps])):
            change = counts[b][0] / counts[b][1] - counts[a][0] / counts[a][1]
            print(f"  {a:<9} -> {b:<9} {change:+.3f}   z {test.statistic:+.2f}, p = "
                  f"{test.p_value:.2g} (Holm over the {len(steps)} steps: {adjusted:.2g})")
        print("\nSpearman correlation of the layouts' first-player rates between levels:")
        for i, a in enumerate(played):
            for b in played[i + 1:]:
                common = sorted(set(rates[a]) & set(rates[b]))
                rho = spearman([rates[a][s] for s in common], [rates[b][s] for s in common])
                print(f"  {a:<9} {b:<9} {len(common)} layouts  rho {rho:+.2f}")
    per_layout(db, rates, played_games, mixes)


def per_layout(db: Path, rates: dict, played_games: dict, mixes: dict) -> None:
    """The store's summary: each layout's first-player win rate at each level (its games when
    they differ from the level's usual count, as while a level is being played). ``rank``
    names each layout by its store key, which :func:`study_labels` maps to its name."""
    names = study_labels(db)
    levels = [level for level in LEVELS if level in rates]
    usual = {level: Counter(played_games[level].values()).most_common(1)[0][0]
             for level in levels}
    print("\nEach layout's first-player win rate (games a layout: " +
          ", ".join(f"{level} {usual[level]:,}" for level in levels) + ")")
    print(f"  {'layout':<13} {'sizes':<12} " + " ".join(f"{level:>10}" for level in levels))
    order = {name: i for i, name in enumerate(names.values())}
    for setup in sorted(mixes, key=lambda s: order.get(names.get(s), len(order))):
        cells = []
        for level in levels:
            if setup not in rates[level]:
                cells.append(f"{'-':>10}")
                continue
            n = played_games[level][setup]
            cell = f"{rates[level][setup]:.3f}" + ("" if n == usual[level] else f" ({n})")
            cells.append(f"{cell:>10}")
        print(f"  {names.get(setup, '?'):<13} {mixes[setup]:<12} " + " ".join(cells))


def chart(db: Path, path: Path) -> None:
    """The report's chart of the study (classic rules), as a standalone SVG file."""
    from kiwara_designer.lab.skill import skill_chart, skill_curves
    from kiwara_designer.lab.store import open_store
    with open_store(db, read_only=True) as store:
        curve = next((c for c in skill_curves(store.ranked("score")) if c.variant == "classic"),
                     None)
    if curve is None:
        sys.exit(f"{db}: no classic-rules self-play at two or more levels to draw")
    svg = skill_chart(curve).replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1)
    path.write_text(svg + "\n", "utf-8")
    print(f"chart written to {path} (levels ordered by "
          f"{'Elo' if curve.rated else 'name'})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--report", action="store_true", help="only report what is stored")
    parser.add_argument("--chart", type=Path, metavar="SVG",
                        help="also draw balance against skill (as `kiwara report` does) here")
    parser.add_argument("--games", action="append", default=[], metavar="LEVEL=N",
                        help="games per layout at a level (default: " +
                        ", ".join(f"{k}={v}" for k, v in GAMES.items()) + ")")
    parser.add_argument("-j", "--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    games = dict(GAMES)
    for item in args.games:
        level, _, n = item.partition("=")
        if level not in games or not n.isdigit():
            sys.exit(f"--games {item!r}: write LEVEL=N with LEVEL one of {', '.join(LEVELS)}")
        games[level] = int(n)
    if not args.report:
        args.db.parent.mkdir(parents=True, exist_ok=True)
        play(args.db, games, args.workers)
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}; database {args.db}")
    report(args.db)
    if args.chart:
        chart(args.db, args.chart)


if __name__ == "__main__":
    main()
