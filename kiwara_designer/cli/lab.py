"""The lab's neutral commands: ``kiwara rank`` and ``kiwara report`` read a results database of any
game's experiments (``--game`` picks one), so they belong to no game's group."""
from __future__ import annotations

import json
import os
import sys

import click

from ..commands import EXIT_NEGATIVE, Whole
from ..core.game import game_names, get_game
from ..core.io import write_text
from ..core.numbers import plural
from ..lab.metrics import all_metric_names


def _ranked_json(rank: int, r, ties=None) -> dict:
    """A ranked experiment as rank --json has shown it since it ranked only Kiwara's layouts:
    the setup's id as ``layout_id``, and a layout's rows, river segments and size mix (None for
    a setup of another game); ``tied_with_best``: whether it is in the leading tie group
    ``ties`` (:mod:`kiwara_designer.lab.ties`), and ``interval`` the 95 % interval of the
    metric the group was formed on (low and high None where it has none)."""
    from ..lab.ties import interval_of
    layout = r.game == "kiwara"
    tied = ties is not None and rank <= len(ties.tied) and ties.tied[rank - 1]
    metric = ties.metric if ties is not None else None
    found = interval_of(r, metric) if metric else None
    return {"rank": rank, "layout_id": r.setup_id,
            "rows": r.setup.split("\n") if layout else None,
            "variant": r.variant, "agents": r.agents, "games": r.games,
            "rivers": r.descriptors["rivers"] if layout else None,
            "size_mix": r.descriptors["size_mix"] if layout else None, "score": r.score,
            "values": r.values, "game": r.game, "setup": r.setup,
            "rules": json.loads(r.variant_rules), "tied_with_best": tied,
            "interval": None if found is None else dict(zip(("metric", "value", "low", "high"),
                                                             (metric, *found)))}


@click.command()
@click.option("--db", required=True, type=click.Path(dir_okay=False), help="Results database.")
@click.option("--top", type=Whole(min=1, beyond_is_most=True), default=20, show_default=True)
@click.option("--by", "by", default="score", show_default=True,
              type=click.Choice(all_metric_names()),
              help="Metric to rank by (of every game: experiments whose game does not measure "
                   "it are left out).")
@click.option("--game", "game_name", type=click.Choice(game_names()),
              help="Only experiments of this game (default: every game).")
@click.option("--ascending", is_flag=True, help="Smallest first (e.g. --by decisiveness).")
@click.option("--variant", "variant_name", help="Only this variant (its name).")
@click.option("--agents", help="Only this pairing, e.g. greedy,greedy.")
@click.option("--export", "export_dir", type=click.Path(file_okay=False),
              help="Write the ranked layouts to DIR as layout files and printable SVG boards.")
@click.option("--paper", metavar="a4|letter|WxH",
              help="Paper of the exported boards (as kiwara export) [default: a4].")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def rank(db, top, by, ascending, game_name, variant_name, agents, export_dir, paper,
         as_json) -> None:
    """List the best layouts (or, for Awimbawé, variants) of a results database.

    First, one line per metric that matters says whether it varies between them at all (a χ²
    or ANOVA homogeneity test over every experiment ranked, with the between-layout sd): a
    ranking by a metric that does not vary is a ranking by noise, and says so.

    --export DIR writes each layout as a layout file (rank01-layout17.txt) and a true-scale
    printable board (rank01-layout17.svg, as kiwara export draws it).

    \b
    Examples:
      kiwara rank --db results.sqlite
      kiwara rank --db results.sqlite --top 5 --by skill_gap --export best/ --paper letter
      kiwara rank --db results.sqlite --by decisiveness --ascending --json
      kiwara rank --db awimbawe.sqlite --by round1_leader_balance
    """
    from ..games.kiwara.lab import export_layouts
    from ..lab import open_store
    from ..lab.homogeneity import lead_lines, ranking_family, ranking_json
    from ..lab.text import format_ranking
    from ..lab.ties import tie_group
    from ..printing import Paper, PrintOptions

    if paper and not export_dir:
        raise click.UsageError("--paper only applies with --export")
    options = PrintOptions(Paper.parse(paper or "a4"))   # a bad paper fails before any work

    game = get_game(game_name) if game_name else None
    with open_store(db, read_only=True) as store:
        store.refresh_summaries()
        rows = store.ranked(by, top, not ascending, variant_name, agents, game)
        # does the metric vary at all? asked of every experiment ranked, not only the top
        ranked_all = store.ranked(by, None, not ascending, variant_name, agents, game)
        # a filter that matches nothing is told apart from an empty database, and a metric
        # that none of its games measures from both
        everything = store.ranked(by) if not rows and (variant_name or agents or game) else []
        stored = sorted({r.game for r in store.ranked()}) if not rows else []
    if not rows and stored and not everything:
        _refuse_foreign_metric(db, by, stored)
    ties = tie_group(ranked_all, by)     # against every experiment ranked, not only the top
    if as_json:
        click.echo(json.dumps({"ranking": [_ranked_json(i, r, ties)
                                           for i, r in enumerate(rows, 1)],
                               "tie_group": None if ties is None else {
                                   "metric": ties.metric, "method": ties.method,
                                   "size": ties.size, "of": len(ties.tied)},
                               "homogeneity": ranking_json(ranked_all, by),
                               "holm_family": ranking_family(ranked_all, by)}, indent=2))
    elif rows:
        for line in lead_lines(ranked_all, by):
            click.echo(line)
        click.echo(format_ranking(rows, by, ties=ties))
    elif everything:
        pairs = sorted({(r.variant, r.agents) for r in everything})
        wanted = " and ".join(f"{what} {value!r}" for what, value in
                              (("game", game_name), ("variant", variant_name),
                               ("agents", agents)) if value)
        click.echo(f"kiwara: {db}: no layout matches {wanted}; the database holds "
                   f"{plural(len({r.setup_id for r in everything}), 'play-tested layout')}, with "
                   + "; ".join(f"variant {v!r}, agents {a!r}" for v, a in pairs), err=True)
        sys.exit(EXIT_NEGATIVE)
    else:
        click.echo(f"{db}: no play-tested layouts yet (run kiwara sweep first)", err=True)
    if export_dir:
        written = export_layouts(rows, export_dir, options)
        click.echo(f"{plural(len(written), 'file')} written to {os.path.join(export_dir, '')}",
                   err=True)           # best/ whether given as best or best/


def _refuse_foreign_metric(db: str, by: str, stored: list[str]) -> None:
    """Exit 1 if no game of the store measures ``by`` (Kiwara's Okapi rate of an Awimbawé-only
    store said "no play-tested layouts yet"), naming the stored games and what they measure."""
    from ..lab.metrics import metric_names
    from ..lab.store import StoreError, game_named
    measured: dict[str, tuple[str, ...]] = {}
    for name in stored:
        try:
            measured[name] = metric_names(game_named(name))
        except StoreError:              # a game this kiwara does not know: its values tell
            return
    if any(by in names for names in measured.values()):
        return
    owners = [name for name in game_names() if by in metric_names(get_game(name))]
    whose = f" (a metric of {', '.join(owners)})" if owners else ""
    games = ", ".join(stored)
    click.echo(f"kiwara: {db}: {by} is not measured by the game{'s' if len(stored) > 1 else ''} "
               f"it holds{whose}; {games} measure{'s' if len(stored) == 1 else ''}: "
               + ", ".join(dict.fromkeys(m for names in measured.values() for m in names)),
               err=True)
    sys.exit(EXIT_NEGATIVE)


@click.command()
@click.option("--db", required=True, type=click.Path(dir_okay=False), help="Results database.")
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False, allow_dash=True),
              help="HTML file to write; - for stdout.")
@click.option("--top", type=Whole(min=1, beyond_is_most=True), default=12, show_default=True,
              help="Layouts drawn as boards.")
def report(db, output, top) -> None:
    """Write a self-contained HTML report (inline SVG, no network) of a results database.

    \b
    Examples:
      kiwara report --db results.sqlite -o report.html
    """
    from ..lab import open_store, render_report

    with open_store(db, read_only=True) as store:
        store.refresh_summaries()
        html = render_report(store, top=top, title=f"Kiwara play-test report: {db}")
    if output == "-":
        click.echo(html)
        return
    write_text(output, html, "the report")
    click.echo(f"report written to {output}", err=True)
