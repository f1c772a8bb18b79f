"""The reinforcement deck's questions: ``kiwara cards value|handicap|versus``."""
from __future__ import annotations

import json
import time

import click

from ..formats import load_layout
from ....commands import MAX_GAMES, Whole, stdin_once, workers_option
from ....core.io import source_label
from ....core.numbers import plural
from .common import load_variant, note_invalid


def _agents(text: str) -> tuple[str, str]:
    from ....agents import make_agent
    from .. import KIWARA
    specs = [s.strip() for s in text.split(",")]
    if len(specs) == 1:
        specs *= 2
    if len(specs) != 2 or not all(specs):
        raise click.UsageError(f"--agents takes one spec or two separated by a comma, got {text!r}")
    for spec in specs:
        make_agent(spec, KIWARA)    # a bad spec is a one-line error before any game
    return specs[0], specs[1]


def _common(func):
    for option in reversed([
        click.option("--layout", "layout_names", multiple=True,
                      help="Layout file or built-in name; repeat for several (games cycle "
                           "through them). Default: classic."),
        click.option("--variant", "variant_name", help="Rules variant (TOML file or built-in "
                     "name) whose deck is used; default: the classic rules with the sample deck."),
        click.option("--games", "-n", type=Whole(1, MAX_GAMES), default=100,
                     show_default=True, help="Games (pairs, for value) per card or level."),
        click.option("--seed", type=Whole(), default=0, show_default=True,
                     help="Master seed: game i's deck order and agents' choices come from (seed, i)."),
        workers_option("Worker processes (default: number of cores, at most 4 per core)."),
        click.option("--json", "as_json", is_flag=True, help="Machine-readable output."),
    ]):
        func = option(func)
    return func


def _setup(layout_names, variant_name):
    stdin_once(**{"--layout": layout_names, "--variant": variant_name})
    boards = [load_layout(name) for name in layout_names or ("classic",)]
    for name, board in zip(layout_names, boards):
        note_invalid(board, source_label(name))
    return boards, load_variant(variant_name)


def _interval(low, high, scale=1.0, digits=1, unit="") -> str:
    """``[low, high]`` and its unit; ``n/a`` without an interval (fewer than two values: one
    value says nothing of the spread, and a zero-width interval would claim certainty)."""
    if low is None:
        return "n/a"
    return f"[{low * scale:.{digits}f}, {high * scale:.{digits}f}]{unit}"


def _own_handicap(variant) -> str:
    """A note on the variant's own handicap deal, which the studies keep; "" without one."""
    if variant is None or not variant.deck_game or not any(variant.handicap):
        return ""
    return (f"\nthe variant's handicap {list(variant.handicap)} (first, second) is dealt in "
            f"every game")


@click.group("cards")
def cards() -> None:
    """Play-test the reinforcement deck: card values, handicap calibration, deck against Okapi.

    Every game is played from a deck order drawn from the seed; agents never see it. Seats
    alternate from game to game.

    \b
    Examples:
      kiwara cards value --games 200
      kiwara cards handicap --weaker greedy --stronger mcts:200 --games 100
      kiwara cards handicap --weaker random --stronger greedy --cards auto
      kiwara cards versus --agents greedy --games 400 -j 2
    """


@cards.command("value")
@_common
@click.option("--agents", default="greedy", show_default=True,
              help="Agent A,agent B (one spec plays itself).")
@click.option("--card", "card_names", multiple=True, help="Only this card (repeatable).")
def value_cmd(layout_names, variant_name, games, seed, workers, as_json, agents,
              card_names) -> None:
    """Each card's worth to its holder, from paired games with and without it in hand.

    In pair i the holder (seat i mod 2) starts with the card; its twin is the same game (same
    seed, same order of the other cards) without it. Points: what the card gains its holder,
    the holder's margin with it minus without; win rates count a draw as half; "used": the
    share of games in which the holder used it, "at move": the mean move number of that use
    (1 is the opening); a points card is never used: it scores when held. A deck variant's own
    handicap deal is kept in both games of a pair. Intervals: Student t on the pairs (n/a
    below two pairs).
    """
    from ..deck_lab import card_values
    boards, variant = _setup(layout_names, variant_name)
    started = time.perf_counter()
    values = card_values(boards, _agents(agents), games=games, seed=seed, variant=variant,
                         cards=card_names or None, workers=workers)
    seconds = time.perf_counter() - started
    if as_json:
        click.echo(json.dumps({"games": games, "seed": seed, "agents": agents,
                               "handicap": list(variant.handicap) if variant.deck_game
                               else [0, 0], "seconds": round(seconds, 1),
                               "cards": [v.to_json() for v in values]}, indent=2))
        return
    click.echo(f"{plural(games, 'game pair')} per card, agents {agents}, seed {seed} "
               f"({seconds:.0f} s){_own_handicap(variant)}")
    click.echo("the holder's gain: its margin and score rate with the card minus without")
    click.echo(f"{'card':<11}{'effect':<7}{'points (95% CI)':>23}{'win with':>9}"
               f"{'without':>9}{'change (95% CI)':>26}{'used':>6}{'at move':>8}")
    for v in values:
        used = f"{'n/a':>6}" if v.used is None else f"{v.used.value:>6.0%}"
        click.echo(f"{v.name:<11}{v.effect:<7}{v.points.mean:>+7.1f} "
                   f"{_interval(v.points.low, v.points.high):>15}{v.win_with.value:>9.1%}"
                   f"{v.win_without.value:>9.1%}{v.win_change.mean:>+8.1%} "
                   f"{_interval(v.win_change.low, v.win_change.high, 100, unit=' %'):>17}"
                   f"{used}" + (f"{v.used_at.mean:>8.1f}" if v.used_at.n else f"{'-':>8}"))
    if any(v.used is None for v in values):
        click.echo("used n/a: a points card is never played; it scores when held")


@cards.command("handicap")
@_common
@click.option("--weaker", default="greedy", show_default=True, help="The weaker agent.")
@click.option("--stronger", default="mcts:200", show_default=True, help="The stronger agent.")
@click.option("--cards", "handicaps", default="0,1,2", show_default=True,
              help="Numbers of handicap cards to try, separated by commas; auto: search "
                   "(0, 1, 2, 4 … cards until the weaker agent scores 50 %, then bisect).")
def handicap_cmd(layout_names, variant_name, games, seed, workers, as_json, weaker, stronger,
                 handicaps) -> None:
    """How many handicap cards bring a weaker agent level with a stronger one.

    For each number of cards the weaker agent starts with that many from the top of the
    seeded deck (more than its seat's share of a deck variant's own handicap, which every level
    keeps: level 0 is the variant as written); the levels play the same seeds, so consecutive
    levels are compared game by game (the change of the weaker agent's score rate with a t
    interval and the exact sign test, and of its margin). The balancing level is the one whose
    interval for the weaker agent's score contains 50 % (the nearest to 50 % of several);
    otherwise the two levels the score crosses 50 % between, or none. --cards auto searches:
    0, 1, 2, 4 … cards until the weaker agent scores 50 %, then bisection.
    """
    from ..deck_lab import balancing_level, handicap_calibration, handicap_search, level_steps
    boards, variant = _setup(layout_names, variant_name)
    search = handicaps.strip() == "auto"
    try:
        levels = [] if search else sorted({int(k) for k in handicaps.split(",")})
    except ValueError:
        raise click.UsageError(f"--cards takes whole numbers separated by commas or auto, got "
                               f"{handicaps!r}") from None
    _agents(f"{weaker},{stronger}")
    started = time.perf_counter()
    if search:
        result = handicap_search(boards, weaker, stronger, games=games, seed=seed,
                                 variant=variant, workers=workers)
    else:
        result = handicap_calibration(boards, weaker, stronger, handicaps=levels, games=games,
                                      seed=seed, variant=variant, workers=workers)
    seconds = time.perf_counter() - started
    steps, balance = level_steps(result), balancing_level(result)
    if as_json:
        click.echo(json.dumps({"weaker": weaker, "stronger": stronger, "games": games,
                               "seed": seed, "searched": search, "handicap": list(variant.handicap)
                               if variant.deck_game else [0, 0],
                               "seconds": round(seconds, 1),
                               "levels": [r.to_json() for r in result],
                               "steps": [s.to_json() for s in steps],
                               "balancing": balance.to_json()}, indent=2))
        return
    click.echo(f"{weaker} (weaker) against {stronger}, {plural(games, 'game')} per level, "
               f"seed {seed} ({seconds:.0f} s){_own_handicap(variant)}")
    click.echo(f"{'cards':>5}{'weaker scores (95% CI)':>32}{'margin (95% CI)':>26}")
    for r in result:
        click.echo(f"{r.cards:>5}{r.weaker_score.value:>14.1%} "
                   f"{_interval(r.weaker_score.low, r.weaker_score.high, 100, unit=' %'):>17}"
                   f"{r.margin.mean:>+10.1f} {_interval(r.margin.low, r.margin.high):>15}")
    if steps:
        click.echo("level to level, paired by seed (the weaker agent's change):")
        click.echo(f"{'cards':>7}{'score (95% CI)':>30}{'sign test p':>13}"
                   f"{'margin (95% CI)':>26}")
        for s in steps:
            p = s.test.p_value
            click.echo(f"{f'{s.low_cards}→{s.high_cards}':>7}{s.score_change.mean:>+12.1%} "
                       f"{_interval(s.score_change.low, s.score_change.high, 100, unit=' %'):>17}"
                       f"{'n/a' if p is None else f'{p:.3f}':>13}"
                       f"{s.margin_change.mean:>+10.1f} "
                       f"{_interval(s.margin_change.low, s.margin_change.high):>15}")
    click.echo(balance.text())


@cards.command("versus")
@_common
@click.option("--agents", default="greedy", show_default=True,
              help="Agent A,agent B (one spec plays itself).")
def versus_cmd(layout_names, variant_name, games, seed, workers, as_json, agents) -> None:
    """The deck against the Okapi alone: first-player advantage and decisiveness.

    The same seeds under both; decisiveness is the mean absolute final margin.
    """
    from ..deck_lab import deck_versus_okapi
    boards, variant = _setup(layout_names, variant_name)
    started = time.perf_counter()
    result = deck_versus_okapi(boards, _agents(agents), games=games, seed=seed, variant=variant,
                               workers=workers)
    seconds = time.perf_counter() - started
    if as_json:
        click.echo(json.dumps({"agents": agents, "games": games, "seed": seed,
                               "seconds": round(seconds, 1),
                               "rules": [r.to_json() for r in result]}, indent=2))
        return
    click.echo(f"agents {agents}, {plural(games, 'game')} each, seed {seed} ({seconds:.0f} s)")
    click.echo(f"{'rules':<10}{'first player scores (95% CI)':>38}{'draws':>8}"
               f"{'mean |margin| (95% CI)':>30}")
    for label, r in zip(("okapi", "deck"), result):
        click.echo(f"{label:<10}{r.first_score.value:>20.1%} "
                   f"{_interval(r.first_score.low, r.first_score.high, 100, unit=' %'):>17}"
                   f"{r.draws.value:>8.1%}{r.margin.mean:>14.1f} "
                   f"{_interval(r.margin.low, r.margin.high):>15}")
