"""What every ``kiwara`` command shares: exit codes, bounds, the group that turns user errors into
one line on stderr, option parsing helpers, progress bars and output checks."""
from __future__ import annotations

import errno
import json
import os
import sys
from pathlib import Path

import click

from ..errors import KiwaraError
from ..numbers import parse_whole_list

EXIT_OK, EXIT_NEGATIVE, EXIT_BAD_INPUT = 0, 1, 2
OUTPUT_FULL = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG}
# Bounds on counts: a draw is held in memory whole (~7 kB and ~3 ms a layout), and larger game
# counts overflowed the lab's index ranges (an OverflowError traceback) long before finishing.
MAX_SAMPLE = 100_000
MAX_GAMES = 1_000_000


class KiwaraGroup(click.Group):
    """Turns user errors (:class:`KiwaraError`) into one line on stderr and exit code 2, and a
    reader that stops early (``kiwara show classic | head -1``) into a quiet exit 0."""

    def invoke(self, ctx: click.Context):
        if sys.stdout is None:           # started with stdout closed (>&-): like a closed pipe
            sys.stdout = open(os.devnull, "w", encoding="utf-8")
        try:
            try:
                return super().invoke(ctx)
            finally:
                sys.stdout.flush()       # a closed pipe shows here, not at interpreter exit
        except KiwaraError as exc:
            click.echo(f"kiwara: error: {exc}", err=True)
            ctx.exit(EXIT_BAD_INPUT)
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
        except click.Abort:
            click.echo("Aborted!", err=True)
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else EXIT_OK)

    def make_context(self, *args, **kwargs) -> click.Context:
        try:   # `kiwara --help | true`: the top-level --help and --version print from here
            return super().make_context(*args, **kwargs)
        except BrokenPipeError:
            _discard_stdout()
            raise click.exceptions.Exit(EXIT_OK) from None


def _discard_stdout() -> None:
    """Point stdout at /dev/null, so the output still buffered is not flushed into the closed
    pipe at exit (Python would print "Exception ignored … BrokenPipeError" and exit 120)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):   # not a real file (CliRunner): nothing will be flushed
        pass


def parse_int_list(text: str, what: str) -> tuple[int, ...]:
    """``"3,5,7"`` → (3, 5, 7): sizes of territories, so each from 1 to the cells of the largest
    board; an empty item (``3,,5``) is an error, not skipped."""
    from ..geometry import MAX_HEIGHT, MAX_WIDTH
    return parse_whole_list(text, 1, MAX_WIDTH * MAX_HEIGHT, what)


def note_invalid(layout, name: str) -> bool:
    """Say on stderr (one line) when ``layout`` is not a valid free-play layout, as designers
    play-test and print drafts too; True if it is valid."""
    from ..validation import FREE_PLAY, validate
    problems = validate(layout, FREE_PLAY).problems
    if problems:
        click.echo(f"kiwara: note: {name} is not a valid free-play layout: "
                   f"{'; '.join(p.message for p in problems)}", err=True)
    return not problems


def workers_option(help_text: str):
    """The ``-j/--workers`` option of every parallel command, refused beyond
    :func:`~kiwara_designer.core.workers.check_workers`'s cap before any work."""
    def check(ctx, param, value):
        from ..core.workers import check_workers
        return check_workers(value)
    return click.option("--workers", "-j", type=click.IntRange(min=1), callback=check,
                        help=help_text)


def stdin_once(**inputs) -> None:
    """Refuse ``-`` for more than one input: the second would read an empty stdin and quietly
    become something else (an empty variant file is the classic game)."""
    named = [name for name, values in inputs.items()
             for v in (values if isinstance(values, (list, tuple)) else [values]) if v == "-"]
    if len(named) > 1:
        raise KiwaraError(f"- (stdin) is given {len(named)} times ({', '.join(named)}); "
                          f"stdin can be read once, give the others as files")


def progress_bar(label: str):
    """``(update(done, total), close())`` drawing a bar on stderr; both do nothing when stderr
    is not a terminal (pipes and logs stay clean)."""
    if not sys.stderr.isatty():
        return (lambda done, total: None), (lambda: None)
    state: dict = {}

    def update(done: int, total: int | None) -> None:
        if total is None:
            return
        if "bar" not in state:
            state["bar"] = click.progressbar(length=max(total, 1), label=label, file=sys.stderr,
                                             show_pos=True, show_eta=True)
            state["bar"].__enter__()
        bar = state["bar"]
        bar.update(done - bar.pos)

    def close() -> None:
        if "bar" in state:
            state["bar"].__exit__(None, None, None)

    return update, close


def load_variant(name: str | None):
    """A rules variant by file or built-in name (the engine is imported only when needed)."""
    from .. import engine
    return engine.load_variant(name)


def check_writable_file(path: str, option: str) -> None:
    """Refuse an output file whose folder is missing or read-only before any long work."""
    folder = Path(path).parent
    if not folder.is_dir():
        raise KiwaraError(f"{option} {path}: no such directory {str(folder)!r}")
    if not os.access(folder, os.W_OK):
        raise KiwaraError(f"{option} {path}: directory {str(folder)!r} is not writable")


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


def record_to_stdout(record: str | None) -> bool:
    """Check a play command's ``--record`` before the game (a missing or read-only folder is
    said now, not after a long game whose record is then lost); True when the record goes to
    stdout (``-``), so the game itself must be told on stderr."""
    if record and record != "-":
        check_writable_file(record, "--record")
    return record == "-"


def save_record(record, path: str) -> None:
    """Write a game's record (a :class:`~kiwara_designer.core.records.Record`) to ``path`` or
    stdout, and say where on stderr."""
    record.save(path)
    if path != "-":
        click.echo(f"record written to {path}", err=True)
