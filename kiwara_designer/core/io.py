"""The one place the library reads and writes user files: layouts, variants, patterns and game
records alike are read from a file or ``-`` (standard input) through :func:`open_input` or
:func:`read_text`, with a size bound and one-line errors naming the file (and line); text is
written to a file or ``-`` (standard output) through :func:`write_text`. The engine and the
other library layers call these and touch no file or stream themselves.
"""
from __future__ import annotations

import json
import os
import re
import secrets
import sys
import warnings
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import BinaryIO, Iterator

from .errors import KiwaraError

STDIN = STDOUT = "-"
MAX_INPUT_BYTES = 1_000_000      # what is read whole (a layout file, a variant, a pattern)


class InputError(KiwaraError):
    """Input that cannot be read or parsed: says where (source, line, column) and what."""

    def __init__(self, source: str, message: str, line: int | None = None,
                 column: int | None = None) -> None:
        self.source, self.line, self.column, self.message = source, line, column, message
        where = source + (f":{line}" if line is not None else "") + (
            f":{column}" if column is not None else "")
        super().__init__(f"{where}: {message}")


BUILTIN_PREFIX = "builtin:"        # builtin:classic is the built-in, whatever files are here


class InputNote(UserWarning):
    """Something to know about an input that does not stop the command (the command line
    prints it as one ``kiwara: note:`` line)."""


def builtin_name(name: str, builtins, what: str) -> str | None:
    """The built-in ``name`` means (one of ``builtins``, the names of data shipped with the
    package), or None for a file or stdin. ``builtin:NAME`` is always the built-in; a bare name
    is the built-in unless a file of that name is here, which is then read, with an
    :class:`InputNote` saying how to reach the built-in (a directory of that name is no input,
    so the built-in is read)."""
    if name.startswith(BUILTIN_PREFIX):
        wanted = name[len(BUILTIN_PREFIX):]
        if wanted not in builtins:
            raise InputError(source_label(name), f"no built-in {what} {wanted!r} (built-in: "
                                                 f"{', '.join(builtins)})")
        return wanted
    if name == STDIN or name not in builtins:
        return None
    if Path(name).is_file():
        warnings.warn(InputNote(f"{source_label(name)}: read the file ./{name}, not the built-in "
                                f"{what} ({BUILTIN_PREFIX}{name})"), stacklevel=2)
        return None
    return name


def source_label(name: str | Path) -> str:
    """How errors name an input or output: the path, or ``<stdin>`` for ``-``; a name with a
    newline or another unprintable character is quoted as JSON writes it, so the error stays
    one line and says exactly which file."""
    name = str(name)
    if name == STDIN:
        return "<stdin>"
    return name if name.isprintable() else json.dumps(name)


@contextmanager
def open_input(name: str, what: str, missing: str = "no such file") -> Iterator[BinaryIO]:
    """A binary handle on the file ``name`` or on stdin (``-``, left open afterwards).
    :class:`InputError` when there is none: ``missing`` says so for a missing file, ``what``
    names what was expected (``"layout file"``) when ``name`` is a directory."""
    label = source_label(name)
    if name == STDIN:
        yield sys.stdin.buffer
        return
    try:
        if Path(name).is_dir():
            raise InputError(label, f"is a directory, not a {what}")
        handle = open(name, "rb")
    except FileNotFoundError:
        raise InputError(label, missing) from None
    except OSError as exc:
        raise InputError(label, exc.strerror or str(exc)) from None
    with handle:
        yield handle


def decode_text(data: bytes, label: str, what: str, first_line: int = 1) -> str:
    """``data`` as text (without a leading byte-order mark), or :class:`InputError` naming the
    line of a NUL byte or of bytes that are not UTF-8 (the marks of a binary file)."""
    if b"\0" in data:
        line = first_line + data[:data.index(b"\0")].count(b"\n")
        raise InputError(label, f"binary data (NUL byte), not a {what}", line)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = first_line + data[:exc.start].count(b"\n")
        raise InputError(label, "not UTF-8 text (binary file?)", line) from None
    # a byte-order mark opens the files some Windows editors write: not part of the text
    return text.removeprefix("\ufeff") if first_line == 1 else text


def read_text(name: str, what: str, limit: int = MAX_INPUT_BYTES,
              missing: str = "no such file") -> str:
    """The whole text of the file ``name`` or of stdin (``-``), at most ``limit`` bytes, checked
    as :func:`decode_text` does; :class:`InputError` otherwise."""
    label = source_label(name)
    with open_input(name, what, missing) as handle:
        try:
            data = handle.read(limit + 1)
        except OSError as exc:
            raise InputError(label, exc.strerror or str(exc)) from None
    if len(data) > limit:
        raise InputError(label, f"larger than {limit:,} bytes, not a {what}")
    return decode_text(data, label, what)


def write_text(path: str | Path, text: str, what: str) -> None:
    """Write ``text`` to the file ``path`` (UTF-8), or to stdout for ``-``; a
    :class:`KiwaraError` naming the file and ``what`` it is if it cannot be written."""
    if str(path) == STDOUT:
        sys.stdout.write(text)
        return
    write_bytes(path, text.encode("utf-8"), what)


def write_bytes(path: str | Path, data: bytes, what: str) -> None:
    """Write ``data`` to the file ``path``, whole or not at all: to a temporary file beside it,
    then renamed over it, so a failed write (a full disk, Ctrl-C) leaves the file that was there
    untouched. A path that is not a regular file (``/dev/null``, a pipe) is written directly; a
    symbolic link is written through. Errors as :func:`write_text`."""
    target = Path(os.path.realpath(path))
    try:
        if target.exists() and not target.is_file():
            target.write_bytes(data)
            return
        _write_then_rename(target, data)
    except OSError as exc:
        raise KiwaraError(f"{source_label(path)}: cannot write {what}: "
                          f"{exc.strerror or exc}") from None


def _write_then_rename(target: Path, data: bytes) -> None:
    """``data`` into a new temporary file in ``target``'s folder (a rename within one file system
    is atomic), then renamed to ``target``. The temporary file is created as ``target`` would be
    (mode 0o666 less the umask), and keeps the mode of a file it replaces."""
    temporary = target.with_name(f".{target.name[:200]}.{secrets.token_hex(4)}.part")
    handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        with suppress(FileNotFoundError):
            os.chmod(temporary, target.stat().st_mode & 0o7777)
        os.replace(temporary, target)
    except BaseException:
        with suppress(OSError):
            os.unlink(temporary)
        raise


def make_folder(path: str | Path, what: str) -> Path:
    """The folder ``path``, made with its parents if missing; a :class:`KiwaraError` naming it
    and ``what`` was to be written there if it cannot be made."""
    folder = Path(path)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise KiwaraError(f"{source_label(path)}: cannot write {what}: "
                          f"{exc.strerror or exc}") from None
    return folder


def describe_json_error(exc: ValueError, text: str) -> tuple[int, int | None, str]:
    """(line, column, message) of why ``json.loads(text)`` failed: a
    :class:`json.JSONDecodeError`, or the ValueError of a number longer than Python converts."""
    if isinstance(exc, json.JSONDecodeError):
        message = exc.msg
        if message.endswith(" at"):           # "Unterminated string starting at" (where?)
            message += f" line {exc.lineno}, column {exc.colno}"
        return exc.lineno, exc.colno, f"invalid JSON: {message}"
    number = re.search(r"[0-9]{%d,}" % (sys.get_int_max_str_digits() + 1), text)
    if number is None:
        return 1, None, f"invalid JSON: {exc}"
    line = text.count("\n", 0, number.start()) + 1
    column = number.start() - (text.rfind("\n", 0, number.start()) + 1) + 1
    return line, column, (f"invalid JSON: a number of {len(number.group()):,} digits "
                          f"(at most {sys.get_int_max_str_digits():,} are read)")
