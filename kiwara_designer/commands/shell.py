"""The ``kiwara`` command's group and exit codes, which every game's commands share: user errors
(:class:`~kiwara_designer.core.errors.KiwaraError`) become one line on stderr, usage errors too,
and a reader that stops early is a quiet success."""
from __future__ import annotations

import errno
import os
import sys
import warnings
from typing import NoReturn

import click

from ..core.errors import KiwaraError
from ..core.io import InputNote

EXIT_OK, EXIT_NEGATIVE, EXIT_BAD_INPUT = 0, 1, 2
EXIT_INTERRUPTED = 130           # 128 + SIGINT, as shells report a Ctrl-C
OUTPUT_FULL = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG}


class KiwaraGroup(click.Group):
    """Turns user errors (:class:`KiwaraError`) into one line on stderr and exit code 2 (the
    settings they name called by their options), and a reader that stops early (``kiwara show
    classic | head -1``) into a quiet exit 0."""

    def invoke(self, ctx: click.Context):
        if sys.stdout is None:           # started with stdout closed (>&-): like a closed pipe
            sys.stdout = open(os.devnull, "w", encoding="utf-8")
        try:
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("always", InputNote)
                    warnings.showwarning = _NoteWriter()
                    return super().invoke(ctx)
            finally:
                sys.stdout.flush()       # a closed pipe shows here, not at interpreter exit
        except KiwaraError as exc:     # the library's words, its settings called by our options
            click.echo(f"kiwara: error: {exc.naming(option_names(self))}", err=True)
            ctx.exit(EXIT_BAD_INPUT)
        except KeyboardInterrupt:      # here, not in click, which writes a blank line first
            interrupted()
        except BrokenPipeError:
            _discard_stdout()
            ctx.exit(EXIT_OK)
        except OSError as exc:
            if exc.errno not in OUTPUT_FULL:
                raise
            # the output is cut short (disk full): say so, never exit 0 with a truncated file
            _discard_stdout()
            click.echo(f"kiwara: error: cannot write the output: {exc.strerror}", err=True)
            ctx.exit(EXIT_BAD_INPUT)

    def main(self, *args, standalone_mode: bool = True, **kwargs):
        """As click's, but a usage error is one line, like every other error:
        ``kiwara: error: <what> (kiwara perft --help shows the usage)``."""
        if not standalone_mode:
            return super().main(*args, standalone_mode=False, **kwargs)
        try:
            code = super().main(*args, standalone_mode=False, **kwargs)
        except click.exceptions.NoArgsIsHelpError as exc:    # `kiwara layouts`: the help
            exc.show()
            sys.exit(exc.exit_code)
        except click.UsageError as exc:
            command = exc.ctx.command_path if exc.ctx else "kiwara"
            message = exc.format_message().rstrip(".")
            click.echo(f"kiwara: error: {message} (see {command} --help)", err=True)
            sys.exit(EXIT_BAD_INPUT)
        except click.ClickException as exc:
            exc.show()
            sys.exit(exc.exit_code)
        except click.Abort as exc:
            if isinstance(exc.__cause__, KeyboardInterrupt):   # Ctrl-C while click parsed
                interrupted()
            click.echo("Aborted!", err=True)
            sys.exit(EXIT_NEGATIVE)
        sys.exit(code if isinstance(code, int) else EXIT_OK)

    def make_context(self, *args, **kwargs) -> click.Context:
        try:   # `kiwara --help | true`: the top-level --help and --version print from here
            return super().make_context(*args, **kwargs)
        except BrokenPipeError:
            _discard_stdout()
            raise click.exceptions.Exit(EXIT_OK) from None


def interrupted() -> NoReturn:
    """Ctrl-C: one line on stderr, exit 130 (what the shell reports for SIGINT)."""
    click.echo("kiwara: interrupted", err=True)
    sys.exit(EXIT_INTERRUPTED)


class _NoteWriter:
    """Shows a library's note on its input (:class:`InputNote`) as one line, once per command
    however often the input is read; other warnings as Python shows them."""

    def __init__(self) -> None:
        self.shown: set[str] = set()

    def __call__(self, message, category, filename, lineno, file=None, line=None) -> None:
        if not issubclass(category, InputNote):
            sys.stderr.write(warnings.formatwarning(message, category, filename, lineno, line))
        elif str(message) not in self.shown:
            self.shown.add(str(message))
            click.echo(f"kiwara: note: {message}", err=True)


def option_names(command: click.Command) -> dict[str, str]:
    """How the command line writes each setting its options give, by the setting's name in the
    library (the long option's words: ``min_rivers`` for ``--min-rivers``, ``workers`` written
    ``-j/--workers``), over ``command`` and every subcommand."""
    names: dict[str, str] = {}
    for param in command.params:
        longs = [opt for opt in param.opts if opt.startswith("--")]
        if isinstance(param, click.Option) and longs:
            names.setdefault(longs[0][2:].replace("-", "_"), "/".join(sorted(param.opts, key=len)))
    for sub in getattr(command, "commands", {}).values():
        for setting, written in option_names(sub).items():
            names.setdefault(setting, written)
    return names


def _discard_stdout() -> None:
    """Point stdout at /dev/null, so the output still buffered is not flushed into the closed
    pipe at exit (Python would print "Exception ignored … BrokenPipeError" and exit 120)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):   # not a real file (CliRunner): nothing will be flushed
        pass
