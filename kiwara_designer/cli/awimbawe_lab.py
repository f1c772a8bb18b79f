"""``kiwara awimbawe playtest``, ``compare`` and ``cards``: the play-test lab and the
print-and-play sheet for Awimbawé variants (thin shells over :mod:`kiwara_designer.playtest`
and :mod:`kiwara_designer.printing.awimbawe`)."""
from __future__ import annotations

import json
import sys

import click

from .awimbawe import VARIANT_HELP, _variant, awimbawe
from .common import MAX_GAMES, progress_bar, stdin_once

# The lab's default pairings for Awimbawé (README, "Awimbawé play-test lab"): greedy plays a
# match in ~20 ms; ismcts is far stronger but ~1,000 times slower, so the skill gap is measured
# with greedy against random unless asked.
DEFAULT_AGENTS = "greedy,greedy"
DEFAULT_SKILL = "greedy,random"


def _game():
    from ..core.game import get_game
    return get_game("awimbawe")


def _lab_options(func):
    for option in reversed([
        click.option("--games", "-n", type=click.IntRange(1, MAX_GAMES), default=200,
                     show_default=True,
                     help="Matches (seats alternate: agent A sits first in the even ones)."),
        click.option("--agents", default=DEFAULT_AGENTS, show_default=True,
                     help="Agent A,agent B (one spec plays itself): random, greedy, ismcts:100…"),
        click.option("--seed", type=int, default=0, show_default=True,
                     help="Master seed: match i is seeded from (seed, i), so any match replays."),
        click.option("--workers", "-j", type=click.IntRange(min=1),
                     help="Worker processes (default: number of cores)."),
    ]):
        func = option(func)
    return func


@awimbawe.command("playtest")
@click.option("--variant", "variant_name", help=VARIANT_HELP)
@_lab_options
@click.option("--skill", default=DEFAULT_SKILL, show_default=True,
              help="Stronger,weaker agents whose win rate is the skill gap.")
@click.option("--skill-games", type=click.IntRange(0, MAX_GAMES),
              help="Matches of the skill pairing (default: a quarter of --games; 0 skips it).")
@click.option("--precision", type=click.FloatRange(0, 0.5, min_open=True, max_open=True),
              help="Play until the first seat's match win rate is known to ± this (e.g. 0.03); "
                   "--games is then the first round.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object with every metric.")
def playtest_cmd(variant_name, games, agents, seed, workers, skill, skill_games, precision,
                 as_json) -> None:
    """Play-test a variant: self-play matches, metrics with 95 % intervals.

    Match and round win rates of the first seat and of the round-1 leader, rounds ended by
    hyenas, tricks per round, crowns margin, power use, fled eagles that change a round's
    winner, lead changes, skill gap (formulas in the README).

    \b
    Examples:
      kiwara awimbawe playtest
      kiwara awimbawe playtest --variant gamepark --games 1000 --json
      kiwara awimbawe playtest --agents ismcts:50,greedy --games 40 --skill-games 0
      kiwara awimbawe playtest --precision 0.03
    """
    from ..playtest import Pairing, compute_metrics, play_match, play_to_precision
    from ..playtest.text import format_metrics

    game, variant = _game(), _variant(variant_name)
    pairing = Pairing.parse(agents)
    skill_pairing = Pairing.parse(skill) if skill else None
    n_skill = (max(1, games // 4) if skill_games is None else skill_games) if skill_pairing else 0
    update, close = progress_bar(f"awimbawe {variant.name}")
    try:
        if precision:
            results = play_to_precision(None, variant, pairing, precision, seed, workers, game,
                                        first_round=games)
        else:
            results = play_match(None, variant, pairing, games, seed, workers, game,
                                 progress=update)
    finally:
        close()
    skill_results = (play_match(None, variant, skill_pairing, n_skill, seed, workers, game)
                     if n_skill else [])
    metrics = compute_metrics(results, None, skill_results, game=game)
    if as_json:
        click.echo(json.dumps({"game": "awimbawe", "variant": variant.name,
                               "agents": pairing.name, "games": len(results), "seed": seed,
                               "skill_agents": skill_pairing.name if n_skill else None,
                               "skill_games": n_skill, "metrics": metrics.to_json()}, indent=2))
        return
    skill_text = f", skill {skill_pairing} x {n_skill}" if n_skill else ""
    click.echo(format_metrics(metrics, f"awimbawe: variant {variant.name}, agents {pairing}, "
                                       f"{len(results)} matches, seed {seed}{skill_text}"))


@awimbawe.command("compare")
@click.option("--variant", "variant_names", multiple=True, required=True,
              help="A rules variant (TOML file or built-in name); give it twice.")
@_lab_options
@click.option("--json", "as_json", is_flag=True, help="One JSON object.")
def compare_cmd(variant_names, games, agents, seed, workers, as_json) -> None:
    """Compare two variants on the same deals and seeds.

    Match i of both variants has the same seed (so the same chance generator: the same deck
    while the variants deal alike) and the same seats: the first seat's match win rates are
    compared with the exact McNemar test of kiwara compare, the rounds-won margin with a paired
    z test.

    \b
    Examples:
      kiwara awimbawe compare --variant classic --variant gamepark --games 2000
      kiwara awimbawe compare --variant classic --variant my-rules.toml --json
    """
    from ..playtest import Pairing, compare_variants
    from ..playtest.text import format_comparison

    if len(variant_names) != 2:
        raise click.UsageError(f"give --variant exactly twice, got {len(variant_names)}")
    stdin_once(**{"--variant": variant_names})
    variants = tuple(_variant(v) for v in variant_names)
    pairing = Pairing.parse(agents)
    result = compare_variants(None, variants, tuple(variant_names), pairing, games, seed,
                              workers, _game())
    if as_json:
        click.echo(json.dumps({"game": "awimbawe", "agents": pairing.name, "games": games,
                               "seed": seed, **result.to_json()}, indent=2))
        return
    click.echo(format_comparison(result, f"awimbawe: agents {pairing}, {games} matches per "
                                         f"variant on the same seeds (seed {seed})"))


@awimbawe.command("cards")
@click.option("-o", "--output", required=True, metavar="FILE",
              help="cards.svg, cards.pdf (all pages) or cards.png; - writes SVG to stdout.")
@click.option("--variant", "variant_name", help=VARIANT_HELP)
@click.option("--paper", default="a4", show_default=True, metavar="a4|letter|WxH",
              help="Paper (the sheet turns to portrait when that holds more cards).")
@click.option("--crop-marks", is_flag=True, help="Crop marks on every cut line.")
@click.option("--bleed-mm", type=float, default=0.0, show_default=True, metavar="MM",
              help="Run the cards' colours this far past the cut lines (adds crop marks).")
@click.option("--backs", type=click.Choice(["duplex", "fold"]), default="duplex",
              show_default=True,
              help="Backs on the next page for double-sided printing (nine cards a page), or "
                   "beside the fronts to fold.")
@click.option("--dpi", type=click.IntRange(30, 1200), metavar="N",
              help="PNG resolution [default: 150].")
def cards_cmd(output, variant_name, paper, crop_marks, bleed_mm, backs, dpi) -> None:
    """Print-and-play sheet: the 28 cards and the two Heir cards at 63 × 88 mm.

    Fronts show the suit's colour, the animal, its value, its crowns (negative ones crossed
    out) and its power as the variant defines it; the last page summarises the variant's rules.

    \b
    Examples:
      kiwara awimbawe cards -o cards.pdf
      kiwara awimbawe cards -o cards.pdf --paper letter --crop-marks --bleed-mm 3
      kiwara awimbawe cards -o cards.svg --variant gamepark --backs fold
    """
    from ..printing import PNG_DPI, Paper, PrintOptions, output_format, write_pages
    from ..printing.awimbawe import card_sheet

    if dpi is not None and output_format(output) != "png":
        raise click.UsageError("--dpi only applies to .png output")
    output_format(output)
    options = PrintOptions(Paper.parse(paper), None, crop_marks, bleed_mm, backs=backs)
    variant = _variant(variant_name)
    pages = card_sheet(variant, options)
    files = write_pages(pages, output, stdout=sys.stdout, dpi=dpi or PNG_DPI)
    names = ", ".join("stdout" if f == "-" else f for f in files)
    click.echo(f"wrote {names}: {len(pages)} pages on {options.paper.name}, 30 cards of "
               f"63 × 88 mm and the rules, variant {variant.name}; print at 100 %", err=True)
