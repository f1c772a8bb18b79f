"""The ``kiwara`` command: a thin click shell that asks the game registry for each game's
commands (``kiwara_designer.games.<name>.cli``, its ``group``) and adds the neutral ones (studio;
rank and report, which read any game's results).

The default game's commands sit at the top level (``kiwara play``); every other game's are a
group named after it (``kiwara awimbawe play``). Exit codes, for every command: 0 success, 1 a
negative answer (invalid layout, illegal move), 2 unreadable or malformed input, or a usage error.
"""
from __future__ import annotations

import importlib

import click

from ..commands import KiwaraGroup
from ..core.game import DEFAULT_GAME, game_names
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


def game_commands(name: str) -> click.Group | None:
    """The group of commands game ``name`` declares in its ``cli`` package, None if it has none
    (a game may be played by the library alone)."""
    module_name = f"kiwara_designer.games.{name}.cli"
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and (module_name + ".").startswith(exc.name + "."):
            return None
        raise
    return module.group


for game_name in game_names():
    commands = game_commands(game_name)
    if commands is None:
        continue
    if game_name == DEFAULT_GAME:
        for command in commands.commands.values():
            main.add_command(command)
    else:
        main.add_command(commands, game_name)
# the neutral commands; --help lists every command alphabetically, wherever it comes from
for command in (lab.rank, lab.report, studio.studio):
    main.add_command(command)
