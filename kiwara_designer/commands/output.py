"""What every game's commands print alike: progress bars, perft counts, play-test settings and
sweep summaries."""
from __future__ import annotations

import json
import sys

import click

from ..core.numbers import plural
from .shell import EXIT_NEGATIVE


def progress_bar(label: str):
    """``(update(done, total, note=None), close())`` drawing a bar on stderr, ``note`` after it
    (e.g. how many were found); both do nothing when stderr is not a terminal (pipes and logs
    stay clean)."""
    if not sys.stderr.isatty():
        return (lambda done, total, note=None: None), (lambda: None)
    state: dict = {}

    def update(done: int, total: int | None, note: str | None = None) -> None:
        if total is None:
            return
        if "bar" not in state:
            state["bar"] = click.progressbar(length=max(total, 1), label=label, file=sys.stderr,
                                             show_pos=True, show_eta=True,
                                             item_show_func=lambda note: note)
            state["bar"].__enter__()
        bar = state["bar"]
        bar.length = max(total, 1)       # a run to a precision plans more games as it learns
        bar.update(done - bar.pos, note)

    def close() -> None:
        if "bar" in state:
            state["bar"].__exit__(None, None, None)

    return update, close


# -- what the games' perft, replay and play commands share --------------------------------------
def play_given_moves(state, moves_text: str, play, illegal: type[Exception], over=None):
    """``state`` after the ``--moves`` of a perft command, each played by ``play(state, text)``;
    at the first illegal one (``illegal`` raised, or ``over(state)`` saying why no move can be
    played), say which on stderr in one line and exit 1."""
    for index, text in enumerate(moves_text.split()):
        try:
            reason = over(state) if over is not None else None
            if reason:
                raise illegal(f"{text}: {reason}")
            state = play(state, text)
        except illegal as exc:
            click.echo(f"kiwara: illegal move {index + 1} in --moves: {exc}", err=True)
            sys.exit(EXIT_NEGATIVE)
    return state


def print_perft(depth: int, count, split, *, divide: bool, as_json: bool, head: dict) -> None:
    """The output of a perft command: ``perft D N`` for D = 1..depth (``perft 0 1`` for 0),
    after ``MOVE N`` for each first move with ``divide``; with ``as_json`` one object, ``head``
    then ``perft`` and ``divide``. ``count(d)`` counts depth d, ``split()`` gives
    ``(move, count)`` pairs under the first moves."""
    if not as_json and not divide:
        # each depth as soon as it is counted: each takes tens of times the one before, so a
        # deep request shows its progress (and the answers so far) instead of silence
        for d in range(1, depth + 1):
            click.echo(f"perft {d} {count(d)}")
        if not depth:
            click.echo("perft 0 1")
        return
    counts = [(d, count(d)) for d in range(1, depth + 1)] if depth else [(0, 1)]
    pairs = split() if divide and depth else []
    if as_json:
        click.echo(json.dumps({**head, "perft": [{"depth": d, "nodes": n} for d, n in counts],
                               "divide": {str(m): n for m, n in pairs} if divide else None},
                              indent=1))
        return
    for move, n in pairs:
        click.echo(f"{move} {n}")
    for d, n in counts:
        click.echo(f"perft {d} {n}")


def describe_playtest(done, variant_name: str, pairing, seed: int, skill, unit: str,
                      units: str | None = None) -> tuple[dict, str]:
    """A finished play-test's settings: as JSON fields, and as the words after its title."""
    n, n_skill = len(done.games), len(done.skill_games)
    head = {"variant": variant_name, "agents": pairing.name, "games": n, "seed": seed,
            "skill_agents": skill.name if n_skill else None, "skill_games": n_skill}
    skill_text = f", skill {skill} x {n_skill}" if n_skill else ""
    return head, (f"variant {variant_name}, agents {pairing}, {plural(n, unit, units)}, "
                  f"seed {seed}{skill_text}")


def summary_line(summary, what: str, scheduler: str | None = None, unit: str = "game",
                 units: str | None = None) -> str:
    """A sweep's summary: what was wanted, found stored, played and stored, in how long where."""
    return (f"{plural(summary.setups, what)}, "
            f"{plural(summary.games_wanted, unit, units)} wanted: "
            f"{summary.games_already_stored:,} already stored, {summary.games_played:,} played, "
            f"{summary.games_stored:,} stored in {summary.seconds:.1f} s "
            + (f"(Dask scheduler {scheduler})" if scheduler
               else f"({plural(summary.workers, 'worker')})"))
