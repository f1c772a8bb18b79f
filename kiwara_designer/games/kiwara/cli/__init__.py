"""Kiwara's commands, as the group the ``kiwara`` command asks every game for (``group``): Kiwara
is the default game, so the shell puts these commands at its top level (``kiwara play``), where
another game's group is a subcommand named after it (``kiwara awimbawe play``)."""
from __future__ import annotations

import click

from . import cards, games, lab, layouts, printing


@click.group("kiwara")
def group() -> None:
    """Kiwara, the savanna majority game: layouts, rules engine, play, play-test lab, printing."""


for command in (layouts.validate_cmd, layouts.show, layouts.layouts,
                games.perft_cmd, games.replay_cmd, games.play,
                lab.playtest, lab.fair, lab.compare, lab.sweep, lab.race, lab.ladder, lab.explain,
                cards.cards, printing.export, printing.generate):
    group.add_command(command)
