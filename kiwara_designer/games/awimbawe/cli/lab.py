"""``kiwara awimbawe playtest``, ``compare``, ``sweep`` and ``cards``: the play-test lab and the
print-and-play sheet for Awimbawé variants (thin shells over :mod:`kiwara_designer.lab`
and :mod:`kiwara_designer.games.awimbawe.printing`; options shared with Kiwara's lab in
:mod:`.common`)."""
from __future__ import annotations

import json
import sys

import click

from .play import VARIANT_HELP, _variant, awimbawe
from ....core.numbers import plural
from ....commands import (MAX_GAMES, Real, Whole, agents_help, describe_playtest, lab_options,
                          parse_settings, progress_bar, scheduler_option, skill_options,
                          skill_pairing, stdin_once, summary_line, two_variants,
                          workers_option)
from ....commands.fairness import fair_options, print_fairness, print_fairness_comparison

# Awimbawé plays greedy by default (docs/awimbawe/lab.md): greedy plays a match in ~20 ms;
# ismcts is far stronger but ~1,000 times slower, so the skill gap is measured with greedy
# against random unless asked.
matches_options = lab_options("awimbawe", "Matches (seats alternate: agent A sits first in the "
                                          "even ones).", agents_help("awimbawe") + ".",
                              unit="match")
skill_matches_options = skill_options("Matches of the skill pairing (default: a quarter of "
                                      "--games; 0 skips it).")


def _game():
    from ....core.game import get_game
    return get_game("awimbawe")


def _pairing(agents: str):
    from ....lab import Pairing
    return Pairing.parse(agents)


@awimbawe.command("fair")
@click.option("--variant", "variant_name", help=VARIANT_HELP)
@click.option("--against-variant", "against_variant", metavar="V2",
              help="Compare with this variant: which is fairer?")
@fair_options("awimbawe", unit="match")
def fair_cmd(variant_name, against_variant, agents, precision, max_games, seed, workers,
             as_json) -> None:
    """Is a variant fair for players of a given skill? The verdict first, in words.

    Self-play matches (seat-swapped pairs) are played until the first seat's match win rate is
    known to ±--precision, or an advantage is clear sooner, as `kiwara fair` does for a Kiwara
    board: the interval is a 95 % confidence sequence, valid however long the test ran. Exit 0
    when fair, 1 when a seat is favoured or the budget (--max-games) ran out first.

    With --against-variant V2: which of the two variants is fairer (the smaller distance of the
    first seat's rate from 50 %)? Both are played paired (match i of both on the same seed and
    seats), each side's interval at 97.5 % so that both hold together at 95 %, until one is
    clearly fairer or both are known to ±--precision ("cannot be told apart"), at most
    --max-games matches a side. Exit 0 for either answer, 1 when --max-games ran out first.

    \b
    Examples:
      kiwara awimbawe fair
      kiwara awimbawe fair --variant gamepark --precision 0.03 --json
      kiwara awimbawe fair --against-variant gamepark --precision 0.05
    """
    stdin_once(**{"--variant": [variant_name, against_variant]})
    variant = _variant(variant_name)
    head = {"game": "awimbawe", "variant": variant.to_dict(only_changes=True)}
    if against_variant is None:
        print_fairness(f"awimbawe {variant.name}", None, variant, _game(), agents, precision,
                       max_games, seed, workers, as_json, head, unit="match", units="matches")
        return
    other = _variant(against_variant)
    names = [variant.name, other.name]
    if names[0] == names[1]:
        names = [f"{names[0]} (1)", f"{names[1]} (2)"]
    print_fairness_comparison("awimbawe", [(None, variant), (None, other)], names, _game(),
                              agents, precision, max_games, seed, workers, as_json,
                              [head, {**head, "variant": other.to_dict(only_changes=True)}],
                              unit="match", units="matches")


@awimbawe.command("playtest")
@click.option("--variant", "variant_name", help=VARIANT_HELP)
@matches_options
@skill_matches_options
@click.option("--precision", type=Real(0, 0.5, min_open=True, max_open=True),
              help="Play until the first seat's match win rate is known to ± this (e.g. 0.03); "
                   "--games is then the first round.")
@scheduler_option()
@click.option("--json", "as_json", is_flag=True, help="One JSON object with every metric.")
def playtest_cmd(variant_name, games, agents, seed, workers, skill, skill_games, precision,
                 scheduler, as_json) -> None:
    """Play-test a variant: self-play matches, metrics with 95 % intervals.

    Match and round win rates of the first seat and of the round-1 leader, rounds ended by
    hyenas, tricks per round, crowns margin, power use, fled eagles that change a round's
    winner, lead changes, skill gap (formulas in docs/awimbawe/lab.md). With --scheduler the matches
    are played on a Dask cluster, with the same results.

    \b
    Examples:
      kiwara awimbawe playtest
      kiwara awimbawe playtest --variant gamepark --games 1000 --json
      kiwara awimbawe playtest --agents ismcts:50,greedy --games 40 --skill-games 0
      kiwara awimbawe playtest --precision 0.03
      kiwara awimbawe playtest --games 5000 --scheduler tcp://10.0.0.5:8786
    """
    from ....lab import PlaySettings
    from ....lab.session import run_playtest
    from ....lab.text import format_metrics

    game, variant, pairing = _game(), _variant(variant_name), _pairing(agents)
    skill, n_skill = skill_pairing(skill, skill_games, games)
    settings = PlaySettings(pairing, games, seed, workers, scheduler, skill, n_skill)
    update, close = progress_bar(f"awimbawe {variant.name}")
    try:
        done = run_playtest(None, variant, settings, game, precision, progress=update)
    finally:
        close()
    head, words = describe_playtest(done, variant.name, pairing, seed, skill, "match", "matches")
    if as_json:
        click.echo(json.dumps({"game": "awimbawe", **head, "metrics": done.metrics.to_json()},
                              indent=2))
    else:
        click.echo(format_metrics(done.metrics, f"awimbawe: {words}"))


@awimbawe.command("compare")
@click.option("--variant", "variant_names", multiple=True, required=True,
              help="A rules variant (TOML file or built-in name); give it twice.")
@matches_options
@click.option("--json", "as_json", is_flag=True, help="One JSON object.")
def compare_cmd(variant_names, games, agents, seed, workers, as_json) -> None:
    """Compare two variants on the same deals and seeds.

    Match i of both variants has the same seed (so the same chance generator: the same deck
    while the variants deal alike) and the same seats: the first seat's match win rates are
    compared with the exact McNemar test of kiwara compare, the rounds-won margin with a paired
    t test.

    \b
    Examples:
      kiwara awimbawe compare --variant classic --variant gamepark --games 2000
      kiwara awimbawe compare --variant classic --variant my-rules.toml --json
    """
    from ....lab import compare_variants
    from ....lab.text import format_comparison

    two_variants(variant_names)
    stdin_once(**{"--variant": variant_names})
    variants = tuple(_variant(v) for v in variant_names)
    pairing = _pairing(agents)
    result = compare_variants(None, variants, tuple(variant_names), pairing, games, seed,
                              workers, _game())
    if as_json:
        click.echo(json.dumps({"game": "awimbawe", "agents": pairing.name, "games": games,
                               "seed": seed, **result.to_json()}, indent=2))
        return
    click.echo(format_comparison(result, f"awimbawe: agents {pairing}, "
                                         f"{plural(games, 'match', 'matches')} per variant on "
                                         f"the same seeds (seed {seed})"))


@awimbawe.command("sweep")
@click.option("--set", "settings", multiple=True, required=True, metavar="KEY=V1,V2…",
              help="A rules parameter and the values to try (repeatable; every combination "
                   "is played), e.g. hyenas_to_lose=3,4 or eagle_may_flee=true,false.")
@click.option("--variant", "variant_name",
              help="The variant the settings change (TOML file or built-in name; default: "
                   "classic).")
@click.option("--db", required=True, type=click.Path(dir_okay=False),
              help="SQLite results database (created if missing; resumed if it exists).")
@matches_options
@skill_matches_options
@scheduler_option()
@click.option("--top", type=Whole(min=1, beyond_is_most=True), default=20, show_default=True,
              help="Variants listed after the sweep.")
@click.option("--json", "as_json", is_flag=True,
              help="The sweep's summary and its ranked variants as JSON.")
def sweep_cmd(settings, variant_name, db, games, agents, seed, workers, skill, skill_games,
              scheduler, top, as_json) -> None:
    """Play every combination of --set values into a results database, resumably; rank them.

    Every finished match is committed at once: a sweep killed at any moment (even kill -9)
    resumes with the same command, without losing or repeating a match. Match i of every
    variant has the same seed, so they play the same deals while they deal alike. The
    variants are then ranked by the round-1 leader's balance (1 − 2 × the distance of their
    match win rate from 0.5); kiwara rank and kiwara report read the database too.

    \b
    Examples:
      kiwara awimbawe sweep --set hyenas_to_lose=3,4 --set eagle_may_flee=true,false --db a.sqlite
      kiwara awimbawe sweep --set cheetah_may_pass=true,false --variant gamepark --games 1000 \\
          --db a.sqlite -j 2
      kiwara awimbawe sweep --set rounds_to_win=1,2,3 --db a.sqlite --scheduler tcp://10.0.0.5:8786
    """
    from ....lab import PlaySettings, open_store
    from ....lab.sweep import run_variant_sweep, variant_grid
    from ....lab.homogeneity import homogeneity, lead_lines, shown_metrics
    from ....lab.text import format_ranking

    stdin_once(**{"--variant": variant_name})
    game, pairing = _game(), _pairing(agents)
    variants = variant_grid(_variant(variant_name), parse_settings(settings))
    skill, n_skill = skill_pairing(skill, skill_games, games)
    update, close = progress_bar(f"{len(variants)} variants")
    with open_store(db) as store:
        try:
            summary = run_variant_sweep(store, variants, PlaySettings(
                pairing, games, seed, workers, scheduler, skill, n_skill), game=game,
                progress=update)
        finally:
            close()
        mine = [store.experiment(None, v, pairing, game) for v in variants]
        ranked = store.ranked(game.headline_metric, top, game=game, experiments=mine)
        every = store.ranked(game.headline_metric, None, game=game, experiments=mine)
        stored = store.totals()["games"]
    if as_json:
        fields = summary.to_json()
        fields["variants"] = fields.pop("setups")
        click.echo(json.dumps({**fields, "database_games": stored, "ranked": [
            {"rank": i, "variant": r.variant, "rules": json.loads(r.variant_rules),
             "setup": r.setup, "agents": r.agents, "games": r.games, "score": r.score,
             "values": r.values} for i, r in enumerate(ranked, 1)],
            "homogeneity": {name: h.to_json() for name, h in homogeneity(
                [r for r in every if r.games], shown_metrics(game.headline_metric)).items()}},
            indent=2))
        return
    click.echo(summary_line(summary, "variant", scheduler, "match", "matches"))
    for line in lead_lines(every, game.headline_metric):
        click.echo(line)
    from ....lab.ties import tie_group
    click.echo(format_ranking(ranked, game.headline_metric,
                              ties=tie_group(every, game.headline_metric)))
    click.echo(f"{db}: {stored:,} matches stored in all; kiwara report --db {db} -o report.html "
               f"shows them")


@awimbawe.command("cards")
@click.option("-o", "--output", required=True, metavar="FILE",
              help="cards.svg, cards.pdf (all pages) or cards.png; - writes SVG to stdout.")
@click.option("--variant", "variant_name", help=VARIANT_HELP)
@click.option("--paper", default="a4", show_default=True, metavar="a4|letter|WxH",
              help="Paper (the sheet turns to portrait when that holds more cards).")
@click.option("--crop-marks", is_flag=True, help="Crop marks on every cut line.")
@click.option("--bleed-mm", type=Real(), default=0.0, show_default=True, metavar="MM",
              help="Run the cards' colours this far past the cut lines (adds crop marks).")
@click.option("--backs", type=click.Choice(["duplex", "fold"]), default="duplex",
              show_default=True,
              help="Backs on the next page for double-sided printing (nine cards a page), or "
                   "beside the fronts to fold.")
@click.option("--gutter-mm", type=Real(), default=0.0, show_default=True, metavar="MM",
              help="Space between the cards (0: they share cut lines); each card then gets "
                   "cut lines and crop marks of its own.")
@click.option("--dpi", type=Whole(30, 1200), metavar="N",
              help="PNG resolution [default: 150].")
def cards_cmd(output, variant_name, paper, crop_marks, bleed_mm, backs, gutter_mm, dpi) -> None:
    """Print-and-play sheet: the 28 cards and the two Heir cards at 63 × 88 mm.

    Fronts show the suit's colour, the animal, its value, its crowns (negative ones crossed
    out) and its power as the variant defines it; the last page summarises the variant's rules.

    \b
    Examples:
      kiwara awimbawe cards -o cards.pdf
      kiwara awimbawe cards -o cards.pdf --paper letter --crop-marks --bleed-mm 3
      kiwara awimbawe cards -o cards.svg --variant gamepark --backs fold
    """
    from ....printing import PNG_DPI, Paper, PrintOptions, output_format, write_pages
    from ..printing import card_sheet

    if dpi is not None and output_format(output) != "png":
        raise click.UsageError("--dpi only applies to .png output")
    output_format(output)
    options = PrintOptions(Paper.parse(paper), None, crop_marks, bleed_mm, backs=backs,
                           gutter_mm=gutter_mm)
    variant = _variant(variant_name)
    pages = card_sheet(variant, options)
    files = write_pages(pages, output, stdout=sys.stdout, dpi=dpi or PNG_DPI,
                        what="the card sheet", title=f"Awimbawé cards, variant {variant.name}")
    names = ", ".join("stdout" if f == "-" else f for f in files)
    click.echo(f"wrote {names}: {len(pages)} pages on {options.paper.name}, 30 cards of "
               f"63 × 88 mm and the rules, variant {variant.name}; print at 100 %", err=True)


@awimbawe.command("ladder")
@click.option("--agents", required=True, metavar="A,B,C…",
              help="The agents of the round robin (two or more): " + agents_help("awimbawe")
                   + "; cheat-ismcts:N is the strength reference.")
@click.option("--games", "-n", type=Whole(1, MAX_GAMES), default=20, show_default=True,
              help="Matches of every pairing (and of every agent's self-play).")
@click.option("--seed", type=Whole(), default=0, show_default=True,
              help="Master seed: match i of every pairing is seeded (and dealt) from (seed, i).")
@click.option("--variant", "variant_name", help=VARIANT_HELP)
@workers_option("Worker processes (default: number of cores, at most 4 per core).")
@scheduler_option()
@click.option("--db", type=click.Path(dir_okay=False),
              help="SQLite results database: the matches are stored like a sweep's and a "
                   "killed ladder resumes (default: a temporary one).")
@click.option("--json", "as_json", is_flag=True, help="Elo and self-play as JSON.")
def ladder_cmd(agents, games, seed, variant_name, workers, scheduler, db, as_json) -> None:
    """Rate agents: a round robin of matches with Elo ratings and each agent's self-play.

    Every pair of agents plays --games seat-swapped matches (dealt from the seeds), and every
    agent plays itself as many. Elo ratings come from a Bradley-Terry maximum-likelihood fit
    (draws half a win; mean rating 0) with 95 % intervals from the Fisher information; each
    agent's self-play gives the first seat's match win rate and margin.

    \b
    Examples:
      kiwara awimbawe ladder --agents random,greedy,ismcts:50 --games 40
      kiwara awimbawe ladder --agents greedy,ismcts:50,cheat-ismcts:50 --db ladder.sqlite --json
    """
    from ....lab.ladder import format_ladder, run_ladder

    stdin_once(**{"--variant": variant_name})
    game, variant = _game(), _variant(variant_name)
    setups = [(variant.name, None)]
    update, close = progress_bar("ladder")
    try:
        if db:
            from ....lab import open_store
            with open_store(db) as store:
                result = run_ladder(setups, agents.split(","), games, seed, variant, game,
                                    store, workers, scheduler, progress=update)
        else:
            result = run_ladder(setups, agents.split(","), games, seed, variant, game, None,
                                workers, scheduler, progress=update)
    finally:
        close()
    if as_json:
        click.echo(json.dumps({"game": "awimbawe", "variant": variant.name,
                               **result.to_json()}, indent=2))
    else:
        click.echo(format_ladder(result, "variant", "matches"))
