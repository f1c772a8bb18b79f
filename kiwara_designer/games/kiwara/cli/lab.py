"""The play-test lab on Kiwara's layouts: ``kiwara playtest``, ``compare``, ``sweep``, ``race`` and
``explain`` (``rank`` and ``report``, which read any game's results, are the shell's: cli/lab.py)."""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import click

from ....core.io import make_folder, source_label
from ....core.errors import KiwaraError
from ..formats import load_layout
from ..game import KIWARA
from ....lab.metrics import metric_names
from ....core.numbers import plural
from ....commands import (EXIT_NEGATIVE, MAX_GAMES, Real, Whole, describe_playtest, lab_options,
                          progress_bar, scheduler_option, skill_options, skill_pairing, stdin_once,
                          summary_line, two_variants, workers_option)
from ....commands.fairness import (fair_options, print_fairness,
                                   print_fairness_comparison)
from .common import MAX_SAMPLE, load_variant, note_invalid


def _lab_pairing(text: str):
    from ....lab import Pairing
    return Pairing.parse(text)


def _settings(pairing, games, seed, workers, scheduler=None, skill=None, skill_games=0):
    from ....lab import PlaySettings
    return PlaySettings(pairing, games, seed, workers, scheduler, skill, skill_games)


# Options shared by playtest, compare and sweep (and, worded for matches, kiwara awimbawe's)
_lab_common = lab_options("kiwara", "Games per layout (seats alternate: agent A opens the even "
                                    "ones).", "random, greedy, mcts:200, expert…")
_lab_skill_options = skill_options("Games of the skill pairing per layout (default: a quarter "
                                   "of --games; 0 to skip the skill gap).")


def _lab_record_stems(sources) -> list[str]:
    """A distinct file-name stem per layout: a/board.txt and b/board.txt (or classic given twice)
    would otherwise write their records over each other's."""
    stems, seen = [], {}
    for source in sources:
        stem = "stdin" if source == "-" else Path(source).stem
        stem = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in stem) or "layout"
        seen[stem] = seen.get(stem, 0) + 1
        stems.append(stem if seen[stem] == 1 else f"{stem}-{seen[stem]}")
    return stems


def _lab_record_name(stem: str, index: int) -> str:
    return f"{stem}-game{index:05d}.json"


@click.command()
@click.argument("layout_files", metavar="LAYOUT...", nargs=-1, required=True)
@click.option("--variant", "variant_name", help="Rules variant: TOML file or built-in name "
                                                 "(default: classic rules).")
@_lab_common
@_lab_skill_options
@click.option("--json", "as_json", is_flag=True, help="One JSON object with every metric.")
@click.option("--records", type=click.Path(file_okay=False),
              help="Write every game's record (JSON, for kiwara replay) into this directory.")
@click.option("--precision", type=Real(0, 0.5, min_open=True, max_open=True),
              help="Play until the first-player win rate is known to ± this (e.g. 0.03); "
                   "--games is then the first round.")
def playtest(layout_files, variant_name, games, agents, seed, workers, skill, skill_games,
             as_json, records, precision) -> None:
    """Play-test LAYOUTs: self-play games, balance metrics with 95 % intervals.

    \b
    Examples:
      kiwara playtest classic
      kiwara playtest classic president --games 400 --agents mcts:50,greedy --seed 3
      kiwara playtest my-board.txt --variant totem_1_2 --json
      kiwara playtest classic --games 10 --records games/
      kiwara playtest classic --precision 0.03
    """
    from ....lab import make_game_record
    from ....lab.session import run_playtest
    from ....lab.text import format_metrics

    stdin_once(LAYOUT=layout_files, **{"--variant": variant_name})
    variant, pairing = load_variant(variant_name), _lab_pairing(agents)
    skill, n_skill = skill_pairing(skill, skill_games, games)
    settings = _settings(pairing, games, seed, workers, skill=skill, skill_games=n_skill)
    boards = [(name, load_layout(name)) for name in layout_files]
    for name, board in boards:
        note_invalid(board, name)
    if records:   # made before the games are played, so a bad path does not waste them
        make_folder(records, "game records")
    output = []
    for (name, board), stem in zip(boards, _lab_record_stems(layout_files)):
        update, close = progress_bar(name)
        try:
            done = run_playtest(board, variant, settings, None, precision,
                                keep_moves=bool(records), progress=update)
        finally:
            close()
        if records:
            make_folder(records, "game records")
            for game in done.games:
                make_game_record(None, board, variant, pairing, seed, game).save(
                    str(Path(records) / _lab_record_name(stem, game.index)))
        head, words = describe_playtest(done, variant.name, pairing, seed, skill, "game")
        output.append({"layout": name, "rows": list(board.rows), **head,
                       "metrics": done.metrics.to_json()})
        if not as_json:
            click.echo(format_metrics(done.metrics, f"{source_label(name)}: {words}"))
    if as_json:
        click.echo(json.dumps(output if len(output) > 1 else output[0], indent=2))
    elif records:
        click.echo(f"game records written to {records}/", err=True)


@click.command()
@click.argument("layout_name", metavar="LAYOUT")
@click.option("--variant", "variant_name", help="Rules variant: TOML file or built-in name "
                                                 "(default: classic rules).")
@click.option("--against", "against", metavar="LAYOUT2",
              help="Compare with this board (under the same --variant): which is fairer?")
@click.option("--against-variant", "against_variant", metavar="V2",
              help="Compare with this rules variant on the same board: which is fairer?")
@fair_options("kiwara")
def fair(layout_name, variant_name, against, against_variant, agents, precision, max_games,
         seed, workers, as_json) -> None:
    """Is LAYOUT fair for players of a given skill? The verdict first, in words.

    Self-play games (seat-swapped pairs) are played until the first player's win rate is known
    to ±--precision, or an advantage is clear sooner: "fair for mcts:200 players at ±2.0
    points: the first player wins 50.6 % [48.7, 52.5]; …", or "favours the first player … by
    3.2 points [1.4, 5.0]". The interval is a 95 % confidence sequence, valid however long the
    test ran. Then what knowing more would cost, and how close games are and how often the
    lead changes. The default players are the lab's (mcts:200: skill matters, see
    docs/lab/skill-study.md). Exit 0 when fair, 1 when a player is favoured or the budget
    (--max-games) ran out first.

    With --against LAYOUT2 or --against-variant V2: which of the two is fairer (the smaller
    distance of the first player's rate from 50 %)? Both are played paired (game i of both on
    the same seed and seats), each side's interval at 97.5 % so that both hold together at
    95 %, until one is clearly fairer or both are known to ±--precision ("cannot be told
    apart"), at most --max-games games a side. The comparison first, then each side's verdict.
    Exit 0 for either answer, 1 when --max-games ran out first.

    \b
    Examples:
      kiwara fair my-board.txt
      kiwara fair classic --variant totem_1_2 --precision 0.03
      kiwara fair twin-nines --agents greedy --json
      kiwara fair classic --against twin-nines --agents random --precision 0.05
    """
    if against is not None and against_variant is not None:
        raise click.UsageError("give --against or --against-variant, not both")
    stdin_once(LAYOUT=[layout_name, against], **{"--variant": [variant_name, against_variant]})
    variant, board = load_variant(variant_name), load_layout(layout_name)
    note_invalid(board, layout_name)
    head = {"layout": layout_name, "rows": list(board.rows),
            "variant": variant.to_dict(only_changes=True)}
    if against is None and against_variant is None:
        print_fairness(source_label(layout_name), board, variant, KIWARA, agents, precision,
                       max_games, seed, workers, as_json, head)
        return
    if against is not None:
        other = load_layout(against)
        note_invalid(other, against)
        setups = [(board, variant), (other, variant)]
        names = [source_label(layout_name), source_label(against)]
        heads = [head, {**head, "layout": against, "rows": list(other.rows)}]
        title = None
    else:
        other_variant = load_variant(against_variant)
        setups = [(board, variant), (board, other_variant)]
        names = [variant_name or "classic", against_variant]
        heads = [head, {**head, "variant": other_variant.to_dict(only_changes=True)}]
        title = source_label(layout_name)
    if names[0] == names[1]:
        names = [f"{names[0]} (1)", f"{names[1]} (2)"]
    print_fairness_comparison(title, setups, names, KIWARA, agents, precision, max_games, seed,
                              workers, as_json, heads)



@click.command()
@click.argument("layout_names", metavar="[LAYOUT]...", nargs=-1)
@click.option("--variant", "variant_names", multiple=True, required=True,
              help="A rules variant (TOML file or built-in name); give it twice.")
@_lab_common
@click.option("--json", "as_json", is_flag=True, help="JSON (a list if several layouts).")
def compare(layout_names, variant_names, games, agents, seed, workers, as_json) -> None:
    """Compare two rules variants on each LAYOUT (default classic) over the same seeds.

    Game i of both variants has the same seed and seats, so the games are paired: the difference
    in first-player win rate is tested with an exact McNemar test (two-proportion z test shown
    for reference), the score margin with a paired t test.

    \b
    Examples:
      kiwara compare --variant classic --variant totem_1_2
      kiwara compare president classic --variant classic --variant my-rules.toml --games 400
    """
    from ....lab import compare_variants
    from ....lab.text import format_comparison

    two_variants(variant_names)
    stdin_once(LAYOUT=layout_names, **{"--variant": variant_names})
    variants = tuple(load_variant(v) for v in variant_names)
    names = tuple(variant_names)
    boards = [(name, load_layout(name)) for name in layout_names or ("classic",)]
    pairing = _lab_pairing(agents)
    output = []
    for name, board in boards:
        result = compare_variants(board, variants, names, pairing, games, seed, workers)
        output.append({"layout": name, "agents": pairing.name, "games": games, "seed": seed,
                       **result.to_json()})
        if not as_json:
            click.echo(format_comparison(result, f"{source_label(name)}: agents {pairing}, "
                                                 f"{plural(games, 'game')} per variant on the "
                                                 f"same seeds (seed {seed})"))
    if as_json:
        click.echo(json.dumps(output if len(output) > 1 else output[0], indent=2))


def _lab_sweep_layouts(sample, all_canonical, from_file, seed):
    """The layouts to sweep (a list, or a lazy iterator for --all-canonical) and their number."""
    from ..lab import choose_layouts
    if sum((sample is not None, all_canonical, from_file is not None)) != 1:
        raise click.UsageError("choose exactly one of --sample N, --all-canonical, --from FILE")
    return choose_layouts(sample, all_canonical, from_file, seed)


@click.command()
@click.option("--sample", type=Whole(1, MAX_SAMPLE),
              help="Play N layouts sampled at random.")
@click.option("--all-canonical", is_flag=True, help="Play every free-play layout up to symmetry.")
@click.option("--from", "from_file", metavar="FILE", help="Play the layouts of FILE (text or JSON, - for stdin).")
@click.option("--db", required=True, type=click.Path(dir_okay=False),
              help="SQLite results database (created if missing; resumed if it exists).")
@click.option("--variant", "variant_name", help="Rules variant: TOML file or built-in name.")
@_lab_common
@_lab_skill_options
@scheduler_option()
@click.option("--allow-invalid", is_flag=True,
              help="Sweep the layouts of --from FILE even if some are not valid free-play "
                   "layouts (refused otherwise).")
@click.option("--json", "as_json", is_flag=True, help="Print the sweep summary as JSON.")
def sweep(sample, all_canonical, from_file, db, variant_name, games, agents, seed, workers, skill,
          skill_games, scheduler, allow_invalid, as_json) -> None:
    """Play many layouts into a results database, resumably.

    Every finished game is committed at once: a sweep killed at any moment (even kill -9)
    resumes with the same command, without losing or repeating a game, and two sweeps may share
    one database. --seed seeds both the layout sample and the games.

    \b
    Examples:
      kiwara sweep --sample 200 --seed 1 --db results.sqlite --games 100
      kiwara sweep --from shortlist.txt --db results.sqlite --agents mcts:50 --workers 2
      kiwara sweep --sample 5000 --db big.sqlite --scheduler tcp://10.0.0.5:8786
    """
    from ....lab import open_store, run_sweep
    from ....lab.homogeneity import SWEEP_METRICS, homogeneity, summary_sentence

    stdin_once(**{"--from": from_file, "--variant": variant_name})
    started = time.perf_counter()
    boards, count = _lab_sweep_layouts(sample, all_canonical, from_file, seed)
    choosing = time.perf_counter() - started        # (drawing a sample builds the tables)
    if from_file is not None:
        invalid = [i for i, board in enumerate(boards, 1)
                   if not note_invalid(board, f"{from_file} layout {i}")]
        if invalid and not allow_invalid:
            raise KiwaraError(f"--from {from_file}: {plural(len(invalid), 'layout')} of "
                              f"{len(boards)} not valid (layout {invalid[0]} first, above); "
                              f"--allow-invalid sweeps them anyway")
    variant, pairing = load_variant(variant_name), _lab_pairing(agents)
    skill, n_skill = skill_pairing(skill, skill_games, games)
    settings = _settings(pairing, games, seed, workers, scheduler, skill, n_skill)
    update, close = progress_bar(plural(count, "layout"))
    with open_store(db) as store:
        try:
            summary = run_sweep(store, boards, settings, variant, progress=update, count=count)
        finally:
            close()
        # the store's totals with its Kiwara layouts as "layouts", as this command said them
        totals = {"layouts": store.setup_counts().get("kiwara", 0),
                  **{k: v for k, v in store.totals().items() if k != "setups"}}
        store.refresh_summaries()
        swept = _swept(store, variant, pairing)
    spread = summary_sentence(swept, SWEEP_METRICS)
    if as_json:
        fields = {"layouts": summary.setups,
                  **{k: v for k, v in summary.to_json().items() if k != "setups"}}
        click.echo(json.dumps({**fields, "choosing_seconds": round(choosing, 3),
                               "database": totals,
                               "homogeneity": {name: h.to_json() for name, h in
                                               homogeneity(swept, SWEEP_METRICS).items()}},
                              indent=2))
    else:
        click.echo(summary_line(summary, "layout", scheduler)
                   + f", after {choosing:.1f} s choosing the layouts")
        click.echo(f"{db}: {plural(totals['layouts'], 'layout')}, "
                   f"{plural(totals['games'], 'game')}")
        if spread:
            click.echo(f"  {spread} (every layout of the database with these rules and agents)")


def _swept(store, variant, pairing) -> list:
    """The Kiwara experiments of the store played under ``variant`` by ``pairing`` (the sweep's
    and any earlier sweep's of the same rules and agents), with games."""
    from ....lab.store import variant_identity
    name, spec = variant_identity(variant)
    agents = f"{pairing.a},{pairing.b}"
    return [r for r in store.ranked() if r.game == "kiwara" and r.agents == agents
            and r.variant_rules == spec and r.games]


@click.command()
@click.option("--sample", type=Whole(1, MAX_SAMPLE),
              help="Race N layouts sampled at random (up to symmetry).")
@click.option("--from", "from_file", metavar="FILE",
              help="Race the layouts of FILE (text or JSON, - for stdin).")
@click.option("--db", required=True, type=click.Path(dir_okay=False),
              help="SQLite results database (created if missing; a killed race resumes).")
@click.option("--variant", "variant_name", help="Rules variant: TOML file or built-in name.")
@click.option("--top", "k", type=Whole(1, MAX_SAMPLE), default=10, show_default=True,
              help="How many best layouts to name.")
@click.option("--by", "metric", default="balance", show_default=True,
              type=click.Choice(["balance", "first_player_win_rate", "agent_a_win_rate",
                                 "lead_change_rate"]),
              help="What is ranked (a mean of per-game values).")
@click.option("--ascending", is_flag=True, help="Smallest first (not with --by balance).")
@click.option("--confidence", type=Real(0, 1, min_open=True, max_open=True),
              default=0.95, show_default=True,
              help="Probability that a separated answer is right.")
@click.option("--tolerance", type=Real(0, 1), default=0.05, show_default=True,
              help="A named layout may be this much worse than the true k-th best "
                   "(on the metric's scale; balance 0.05 = 0.025 of win rate).")
@click.option("--budget", type=Whole(min=1, beyond_is_most=True),
              help="Stop after this many games in all, separated or not.")
@click.option("--first-round", type=Whole(1, MAX_GAMES), default=32, show_default=True,
              help="Games every layout plays before any is dropped.")
@click.option("--agents", default=KIWARA.default_agents, show_default=True,
              help="Agent A,agent B (one spec plays itself).")
@click.option("--seed", type=Whole(), default=0, show_default=True,
              help="Master seed of the sample and the games.")
@workers_option("Worker processes (default: number of cores).")
@scheduler_option()
@click.option("--json", "as_json", is_flag=True, help="The race's outcome as JSON.")
def race(sample, from_file, db, variant_name, k, metric, ascending, confidence, tolerance, budget,
         first_round, agents, seed, workers, scheduler, as_json) -> None:
    """Name the best layouts with a stated confidence, playing games only where they decide.

    Plays rounds of games, drops layouts whose interval is clearly worse, and stops when the
    top k are separated (exit 0) or the game budget is spent (exit 1: the answer has no
    guarantee). Every game goes into --db like a sweep's, so a killed race (even kill -9) resumes
    with the same command, replaying its rounds from the stored games; rank and report read it.
    A layout's games are raced in seat-swapped pairs (games 2j, 2j + 1 share a seed). The first
    line says so when, after the first round, no layout is separated and their spread is within
    the games' noise: such a race ends only on the tolerance.

    \b
    Examples:
      kiwara race --sample 500 --seed 1 --db race.sqlite --top 10
      kiwara race --from shortlist.txt --db race.sqlite --top 3 --tolerance 0.02 --budget 200000
      kiwara race --sample 2000 --db big.sqlite --scheduler tcp://10.0.0.5:8786 --json
    """
    from ....lab import open_store
    from ....lab.race_lab import race_setups
    from ....lab.racing import RaceSettings
    from ....lab.text import format_race

    stdin_once(**{"--from": from_file, "--variant": variant_name})
    if sample is None and from_file is None:
        raise click.UsageError("choose --sample N or --from FILE")
    boards, _ = _lab_sweep_layouts(sample, False, from_file, seed)
    variant = load_variant(variant_name)
    draw = sys.stderr.isatty() and not as_json

    def progress(state) -> None:
        if draw:
            undecided = len(state.undecided())
            click.echo(f"\rround {state.round}: {state.games:,} games, {undecided} layouts "
                       f"undecided   ", err=True, nl=False)

    with open_store(db) as store:
        outcome = race_setups(
            store, boards, _settings(_lab_pairing(agents), 0, seed, workers, scheduler),
            RaceSettings(k=k, delta=1 - confidence, tolerance=tolerance, first_round=first_round,
                         budget=budget), metric, ascending, variant, progress=progress)
    if draw:
        click.echo("", err=True)
    if as_json:
        fields = outcome.to_json()         # the layouts named, by their rows
        fields["top_rows"] = {arm: key.split("\n") for arm, key in fields.pop("top_setups").items()}
        click.echo(json.dumps(fields, indent=2))
    else:
        click.echo(format_race(outcome))
    if not outcome.result.separated:
        raise SystemExit(EXIT_NEGATIVE)


@click.command()
@click.option("--db", required=True, type=click.Path(dir_okay=False), help="Results database.")
@click.option("--metric", default="first_player_win_rate", show_default=True,
              type=click.Choice(metric_names()), help="The per-layout metric to explain.")
@click.option("--feature", "features", multiple=True, metavar="NAME",
              help="A layout feature to fit (repeatable; default: all of rivers, mean_degree, "
                   "max_degree, articulations, nines, threes, longest_border).")
@click.option("--variant", "variant_name", help="Only this variant (its name).")
@click.option("--agents", help="Only this pairing, e.g. greedy,greedy.")
@click.option("--json", "as_json", is_flag=True,
              help="Machine-readable output (its fields: below).")
def explain(db, metric, features, variant_name, agents, as_json) -> None:
    """Which board shapes make a metric move: a regression over the layouts of a database.

    Weighted least squares of the metric (default: the first-player win rate) on the layouts'
    standardised features (territory graph, rivers, size mix), weighted by games, with HC3
    robust 95 % intervals (Student t). A joint test comes first (a robust Wald F test that
    every effect is zero, its p-value by a wild bootstrap): when it does not reject at 5 %, the
    features together do not explain the metric beyond the games' noise and no feature is
    marked. Otherwise a feature is marked (*) when its p-value, adjusted for the number of
    features (Holm), is below 0.05; the intervals are per feature, not adjusted. A fit needs 10
    layouts a feature. When the layouts' game counts differ (a race database), the metric is
    recomputed on the first N games of every layout, N the smallest count. Needs statsmodels
    (pip install 'kiwara-designer[stats]').

    --json writes one object: metric, layouts, games, mean, mean_low, mean_high, r_squared;
    joint {statistic (F), df [features, residual], p_value (bootstrap), p_value_f (F table),
    rejects}; effects [{feature, description, mean, sd, per_sd, low, high, p_value,
    p_adjusted (Holm), clear}], largest first; dropped (features that do not vary); notes;
    first_games and game_counts [fewest, most] (null unless the counts differ); method.
    Numbers that cannot be computed are null.

    \b
    Examples:
      kiwara explain --db results.sqlite
      kiwara explain --db results.sqlite --metric decisiveness --feature rivers --feature nines
    """
    from ....lab import open_store
    from ..explain import explain as fit, format_explanation

    with open_store(db, read_only=True) as store:
        store.refresh_summaries()
        result = fit(store, metric, tuple(features), variant_name, agents)
    click.echo(json.dumps(result.to_json(), indent=2) if as_json else format_explanation(result))


@click.command()
@click.argument("layout_names", metavar="[LAYOUT]...", nargs=-1)
@click.option("--agents", required=True, metavar="A,B,C…",
              help="The agents of the round robin (two or more), e.g. random,greedy,mcts:50.")
@click.option("--games", "-n", type=Whole(1, MAX_GAMES), default=20, show_default=True,
              help="Games of every pairing (and of every agent's self-play) on each layout.")
@click.option("--seed", type=Whole(), default=0, show_default=True,
              help="Master seed: game i of every pairing is seeded from (seed, i).")
@click.option("--variant", "variant_name", help="Rules variant: TOML file or built-in name.")
@workers_option("Worker processes (default: number of cores, at most 4 per core).")
@scheduler_option()
@click.option("--db", type=click.Path(dir_okay=False),
              help="SQLite results database: the games are stored like a sweep's and a killed "
                   "ladder resumes (default: a temporary one).")
@click.option("--json", "as_json", is_flag=True, help="Elo, self-play and homogeneity as JSON.")
def ladder(layout_names, agents, games, seed, variant_name, workers, scheduler, db,
           as_json) -> None:
    """Rate agents: a round robin with Elo ratings, and each agent's balance per layout.

    Every pair of agents plays --games seat-swapped games on each LAYOUT (default classic),
    and every agent plays itself as many. Elo ratings come from a Bradley-Terry maximum-
    likelihood fit (draws half a win; mean rating 0) with 95 % intervals from the Fisher
    information; each agent's self-play gives the first-player win rate and margin per layout
    and whether the layouts differ at that skill (chi-squared homogeneity test).

    \b
    Examples:
      kiwara ladder --agents random,greedy,mcts:20 --games 10
      kiwara ladder classic twin-nines --agents random,greedy,mcts:100 --games 40 --json
      kiwara ladder classic president --agents greedy,mcts:50 --db ladder.sqlite -j 2
    """
    from ....lab.ladder import format_ladder, run_ladder

    stdin_once(LAYOUT=layout_names, **{"--variant": variant_name})
    names = layout_names or ("classic",)
    if len(set(names)) != len(names):
        raise KiwaraError(f"layout {next(n for n in names if names.count(n) > 1)} is given twice")
    boards = [(source_label(name), load_layout(name)) for name in names]
    for name, board in boards:
        note_invalid(board, name)
    variant = load_variant(variant_name)
    specs = agents.split(",")
    update, close = progress_bar("ladder")
    try:
        if db:
            from ....lab import open_store
            with open_store(db) as store:
                result = run_ladder(boards, specs, games, seed, variant, None, store, workers,
                                    scheduler, progress=update)
        else:
            result = run_ladder(boards, specs, games, seed, variant, None, None, workers,
                                scheduler, progress=update)
    finally:
        close()
    if as_json:
        click.echo(json.dumps({"game": "kiwara", "variant": variant.name, **result.to_json()},
                              indent=2))
    else:
        click.echo(format_ladder(result, "layout", "games"))
