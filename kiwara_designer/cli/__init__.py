"""The ``kiwara`` command: a thin click shell over the library API, one module per concern
(layouts, games, lab, printing; what they share in :mod:`.common`).

Exit codes, for every command: 0 success, 1 a negative answer (invalid layout, illegal move),
2 unreadable or malformed input, or a usage error.
"""
from __future__ import annotations

import click

from ..games.awimbawe.cli import play as awimbawe
from ..games.kiwara.cli import cards, games, lab, layouts, printing
from . import studio
from ..games.awimbawe.cli import lab as awimbawe_lab  # noqa: F401  (adds playtest, compare and cards to the awimbawe group)
from .common import KiwaraGroup


@click.group(cls=KiwaraGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="kiwara-designer")
def main() -> None:
    """Design, print and play-test boards and rules variants of Kiwara.

    \b
    Examples:
      kiwara validate my-board.txt
      kiwara show classic
      kiwara layouts builtin
    """


# A new command or group is one module and one entry here; --help lists them alphabetically.
for command in (layouts.validate_cmd, layouts.show, layouts.layouts,
                games.perft_cmd, games.replay_cmd, games.play,
                lab.playtest, lab.compare, lab.sweep, lab.race, lab.rank, lab.report, lab.explain,
                cards.cards,
                printing.export, printing.generate, awimbawe.awimbawe, studio.studio):
    main.add_command(command)
