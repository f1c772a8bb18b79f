"""What every game's ``play`` command shares: its seats, stdin kept for a person's moves, the
stream the game is told on, and its record. The game itself is played by
:func:`kiwara_designer.table.play_at_table`."""
from __future__ import annotations

import sys
from typing import Any, TextIO

import click

from ..core.errors import KiwaraError
from ..table import Seat, parse_seats
from .options import check_writable_file


def seats_from_options(first: str, second: str, game: Any) -> tuple[Seat, Seat]:
    """The seats ``--first`` and ``--second`` give for ``game`` (errors name the option)."""
    first_seat, second_seat = parse_seats({"--first": first, "--second": second}, game)
    return first_seat, second_seat


def keep_stdin_for_people(seats, **inputs: str | None) -> None:
    """Refuse ``-`` (stdin) for any of ``inputs`` ({option: value}) when a person plays: stdin
    carries their moves."""
    if not any(seat.is_human for seat in seats):
        return
    for option, value in inputs.items():
        if value == "-":
            raise KiwaraError(f"{option} -: stdin carries a person's moves; give the "
                              f"{option.lstrip('-')} as a file")


def table_stream(record: str | None) -> TextIO:
    """Where the game is told: stdout, or stderr when ``--record -`` gives stdout to the record
    alone (for a pipe). A record's missing or read-only folder is refused now, not after a long
    game whose record would then be lost."""
    if record and record != "-":
        check_writable_file(record, "--record")
    return sys.stderr if record == "-" else sys.stdout


def save_record(record, path: str) -> None:
    """Write a game's record (a :class:`~kiwara_designer.core.records.Record`) to ``path`` or
    stdout, and say where on stderr."""
    record.save(path)
    if path != "-":
        click.echo(f"record written to {path}", err=True)
