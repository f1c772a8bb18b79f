"""What every game's ``fair`` command shares: its options, and the verdict printed first (or as
JSON), over :func:`kiwara_designer.lab.fairness.judge_fairness`."""
from __future__ import annotations

import json
import sys
from typing import Any

import click

from .options import MAX_GAMES, Real, Whole, workers_option
from .output import progress_bar
from .shell import EXIT_NEGATIVE

DEFAULT_PRECISION = 0.02
DEFAULT_MAX_GAMES = 100_000


def fair_options(game_name: str, unit: str = "game"):
    """--agents (default: the game's own pairing), --precision, --max-games, --seed, -j and
    --json of ``game_name``'s ``fair`` command."""
    from ..core.game import get_game

    def decorate(func):
        for option in reversed([
            click.option("--agents", default=get_game(game_name).default_agents,
                         show_default=True,
                         help="Agent A,agent B (one spec plays itself): the players the verdict "
                              "is for."),
            click.option("--precision", type=Real(0, 0.5, min_open=True, max_open=True),
                         default=DEFAULT_PRECISION, show_default=True,
                         help="Play until the first player's win rate is known to ± this (a "
                              "share: 0.02 is 2 points), or an advantage is clear sooner."),
            click.option("--max-games", type=Whole(2, MAX_GAMES), default=DEFAULT_MAX_GAMES,
                         show_default=True, help=f"Stop after this many {unit}s whatever the "
                                                 f"verdict (it then says it cannot tell)."),
            click.option("--seed", type=Whole(), default=0, show_default=True,
                         help=f"Master seed: {unit} i is seeded from (seed, i)."),
            workers_option("Worker processes (default: number of cores, at most 4 per core)."),
            click.option("--json", "as_json", is_flag=True,
                         help='{"verdict": text, "outcome": "fair" | "favours first" | '
                              '"favours second" | "cannot tell", "rate", "low", "high", '
                              '"games", "pairing", …, "metrics"}; comparing two: {"verdict", '
                              '"outcome": "first fairer" | "second fairer" | "cannot tell '
                              'apart", "answered", "sides": [each side\'s, with its "name"]}.'),
        ]):
            func = option(func)
        return func
    return decorate


def print_fairness(title: str, setup: Any, variant: Any, game: Any, agents: str,
                   precision: float, max_games: int, seed: int, workers: int | None,
                   as_json: bool, head: dict, unit: str = "game",
                   units: str = "games") -> None:
    """Judge and print: the verdict first (``title: verdict``), or one JSON object with
    ``head`` (what was judged) in front; ``unit`` and ``units`` name what is played. Exit 1
    unless the verdict is fair."""
    from ..lab.fairness import FAIR, judge_fairness
    from ..lab.text import format_fairness

    update, close = progress_bar(title)
    try:
        found = judge_fairness(setup, variant, agents, precision, seed, workers, game,
                               max_games, progress=update)
    finally:
        close()
    if as_json:
        click.echo(json.dumps({**head, **found.to_json(), "seed": seed}, indent=2))
    else:
        click.echo(format_fairness(found, title, unit, units))
    if found.outcome != FAIR:
        sys.exit(EXIT_NEGATIVE)


def print_fairness_comparison(title: str | None, setups: list, names: list[str], game: Any,
                              agents: str, precision: float, max_games: int, seed: int,
                              workers: int | None, as_json: bool, heads: list[dict],
                              unit: str = "game", units: str = "games") -> None:
    """Compare and print: which of two (setup, variant) ``setups`` is fairer, first, then each
    side's verdict; or one JSON object (each side's ``heads`` entry in front of its answer).
    Exit 0 for an answer (one fairer, or both known to ±precision), 1 when the budget ran out
    first."""
    from ..lab.fairness import compare_fairness
    from ..lab.text import format_fairness_comparison

    update, close = progress_bar(title or " against ".join(names))
    try:
        found = compare_fairness(setups, names, agents, precision, seed, workers, game,
                                 max_games, progress=update)
    finally:
        close()
    if as_json:
        answer = found.to_json()
        answer["sides"] = [{**head, **side} for head, side in zip(heads, answer["sides"])]
        click.echo(json.dumps({**answer, "seed": seed}, indent=2))
    else:
        click.echo(format_fairness_comparison(found, title, unit, units))
    if not found.answered:
        sys.exit(EXIT_NEGATIVE)
