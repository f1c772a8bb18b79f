"""The ``kiwara`` program's entry point. Loading the commands takes a moment (every game
registers its own); Ctrl-C then ends with the one line and exit code every command gives
(:func:`kiwara_designer.commands.shell.interrupted`), not a traceback."""
from __future__ import annotations

import sys

EXIT_INTERRUPTED = 130      # as commands.shell, which is not loaded yet when this is needed


def main() -> None:
    try:
        from .cli import main as kiwara
    except KeyboardInterrupt:
        sys.stderr.write("kiwara: interrupted\n")
        sys.exit(EXIT_INTERRUPTED)
    kiwara()
