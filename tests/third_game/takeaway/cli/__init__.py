"""Take-away's commands: the ``kiwara takeaway`` group."""
from __future__ import annotations

import random
import sys

import click

from kiwara_designer.commands.play import seats_from_options
from kiwara_designer.table import TableSeed, opening_line, play_at_table

from ..game import TAKEAWAY
from ..view import TakeAwayView


@click.group("takeaway")
def group() -> None:
    """Take-away: take 1, 2 or 3 stones; the last stone wins."""


@group.command("play")
@click.option("--first", default="human")
@click.option("--second", default="greedy")
@click.option("--stones", type=click.IntRange(1, 1000), default=10)
@click.option("--seed", type=int, default=0)
def play(first, second, stones, seed) -> None:
    """Play take-away against an agent, or watch two."""
    seats = seats_from_options(first, second, TAKEAWAY)
    seed = TableSeed.choose(TAKEAWAY, None, seats, seed)      # secret only for hidden games
    sys.stdout.write(opening_line("kiwara takeaway play", [f"{stones} stones"], seats, seed)
                     + "\n")
    play_at_table(TAKEAWAY.new_state(stones), seats, TakeAwayView(), sys.stdin, sys.stdout,
                  random.Random(seed.value))
