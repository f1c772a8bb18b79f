"""The ``kiwara`` command: a thin click shell that asks the game registry for each game's
commands (``kiwara_designer.games.<name>.cli``, its ``group``) and adds the neutral ones (studio;
rank and report, which read any game's results).

The default game's commands sit at the top level (``kiwara play``); every other game's are a
group named after it (``kiwara awimbawe play``). Exit codes, for every command: 0 success, 1 a
negative answer (invalid layout, illegal move), 2 unreadable or malformed input, or a usage error.
"""
from __future__ import annotations

import click

from ..commands import KiwaraGroup
from ..core.game import DEFAULT_GAME, game_names, game_part
from . import lab, studio


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


for game_name in game_names():
    part = game_part(game_name, "cli")
    if part is None:                 # a game may be played by the library alone
        continue
    commands = part.group
    if game_name == DEFAULT_GAME:
        for command in commands.commands.values():
            main.add_command(command)
    else:
        main.add_command(commands, game_name)
# the neutral commands; --help lists every command alphabetically, wherever it comes from
for command in (lab.rank, lab.report, studio.studio):
    main.add_command(command)
