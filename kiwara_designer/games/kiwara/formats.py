"""Layout files: the text and JSON formats, reading files, stdin and built-in layouts.

Text: one line per row, one character ``[A-Za-z0-9]`` per cell naming its territory, optional
spaces between cells, ``#`` starts a comment, layouts separated by blank lines.
JSON: ``{"width": 6, "height": 5, "rows": ["ABCCCC", …]}``; a list of those, or one per line (JSONL).
"""
from __future__ import annotations

import codecs
import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Iterator

from ...core.io import (MAX_INPUT_BYTES, InputError, decode_text, describe_json_error,
                        builtin_name, open_input, read_text, source_label)
from .geometry import MAX_HEIGHT, MAX_WIDTH, GeometryError, Grid
from .layout import TERRITORY_CHARS, Layout, LayoutError
from ...core.numbers import describe_value

MAX_LINE_BYTES = MAX_INPUT_BYTES   # a JSON list or one layout is read whole, larger inputs by chunk
BUILTIN_PACKAGE = "kiwara_designer.games.kiwara.layouts"
WHAT = "layout file"


@dataclass(frozen=True)
class LayoutEntry:
    """One layout read from a source, or the error that kept it from being read."""

    source: str
    line: int
    layout: Layout | None = None
    error: InputError | None = None


# -- formatting ------------------------------------------------------------------------------
def format_text(layout: Layout, spaced: bool = True) -> str:
    sep = " " if spaced else ""
    return "\n".join(map(sep.join, layout.rows)) + "\n"


def format_block(block: bytes, grid: Grid, fmt: str = "text") -> str:
    """Many layouts at once, as writing them one by one would: ``"text"`` their
    :func:`format_text` separated by blank lines, ``"jsonl"`` their :func:`format_json` each
    on a line. ``block`` holds ``grid.size`` bytes per layout, each cell's territory number in
    reading order, territories named A, B, C … (the generator's :func:`iter_blocks`). One
    template is repeated and filled by one slice assignment per cell, so writing a listing of
    millions costs next to nothing per layout."""
    template, places = _block_template(grid, fmt)
    count, stride = len(block) // grid.size, len(template)
    out = bytearray(template * count)
    letters = block.translate(_LETTER_BYTES)
    for cell, place in enumerate(places):
        out[place::stride] = letters[cell::grid.size]
    if fmt == "text" and out:
        del out[-1]                               # a blank line between layouts, not after
    return out.decode()


_LETTER_BYTES = bytes.maketrans(bytes(range(len(TERRITORY_CHARS))), TERRITORY_CHARS.encode())


@lru_cache(maxsize=16)
def _block_template(grid: Grid, fmt: str) -> tuple[bytes, tuple[int, ...]]:
    """The text of one layout with a placeholder in every cell, what follows it in a listing,
    and where each cell's letter goes."""
    placeholder = Layout(grid, (0,) * grid.size, ("A",))
    if fmt == "text":
        text = format_text(placeholder) + "\n"
        return text.encode(), tuple(i for i, ch in enumerate(text) if ch == "A")
    if fmt == "jsonl":
        text = format_json(placeholder) + "\n"
        start = text.index("[")                   # the letters are in the rows only
        return text.encode(), tuple(i for i, ch in enumerate(text) if ch == "A" and i > start)
    raise ValueError(f"unknown layout format {fmt!r}")


def to_json_dict(layout: Layout) -> dict:
    return {"width": layout.grid.width, "height": layout.grid.height, "rows": list(layout.rows)}


def format_json(layout: Layout) -> str:
    return json.dumps(to_json_dict(layout))


# -- parsing ---------------------------------------------------------------------------------
LISTED_PROBLEMS = 4     # a message names this many problems of a block, then counts the rest


def _parse_rows(rows: list[tuple[int, str]], source: str) -> Layout:
    """Rows given as (line number, text without comment); the problems reported at once (the
    first few, then how many more: an SVG given as a layout has thousands), the first one's line
    and column leading the message and the others' lines in brackets."""
    problems: list[tuple[int, int | None, str]] = []
    cells_per_row: list[list[str]] = []
    for row_number, (line_no, text) in enumerate(rows, start=1):
        cells = []
        for col, ch in enumerate(text, start=1):
            if ch in " \t":
                continue
            if ch not in TERRITORY_CHARS:
                problems.append((line_no, col, f"unknown character {ch!r} at row {row_number}, "
                                 f"column {col}"))
            cells.append(ch)
        cells_per_row.append(cells)
    expected = len(cells_per_row[0])
    for row_number, cells in enumerate(cells_per_row, start=1):
        if len(cells) != expected:
            problems.append((rows[row_number - 1][0], None,
                             f"row {row_number} has {len(cells)} cells, expected {expected}"))
    if problems:
        problems.sort(key=lambda p: p[0])
        (line, column, first), others = problems[0], problems[1:]
        listed = [first] + [f"{message} (line {at})"
                            for at, _, message in others[:LISTED_PROBLEMS - 1]]
        if len(problems) > LISTED_PROBLEMS:
            listed.append(f"and {len(problems) - LISTED_PROBLEMS:,} more problems")
        if any(message.startswith("unknown character") for _, _, message in problems):
            listed.append("territories are named by A-Z, a-z, 0-9")
        raise InputError(source, "; ".join(listed), line, column)
    try:
        return Layout.from_rows(["".join(cells) for cells in cells_per_row])
    except (LayoutError, GeometryError) as exc:
        raise InputError(source, str(exc), rows[0][0]) from None


def parse_text(text: str, source: str = "<text>", first_line: int = 1) -> list[LayoutEntry]:
    blocks: list[list[tuple[int, str]]] = [[]]
    for line_no, raw in enumerate(text.splitlines(), start=first_line):
        content = raw.split("#", 1)[0].rstrip()
        if content.strip():
            blocks[-1].append((line_no, content))
        elif blocks[-1] and not raw.lstrip().startswith("#"):
            blocks.append([])   # a blank line ends a layout; a comment line does not
    entries = []
    for rows in filter(None, blocks):
        try:
            entries.append(LayoutEntry(source, rows[0][0], layout=_parse_rows(rows, source)))
        except InputError as exc:
            entries.append(LayoutEntry(source, rows[0][0], error=exc))
    return entries


def _from_json_object(obj: object, source: str, line: int, item: str = "") -> Layout:
    """The layout of one JSON object; ``item`` (``"item 2 of the list: "``) says which one."""
    if not isinstance(obj, dict) or not isinstance(obj.get("rows"), list) or not all(
            isinstance(r, str) for r in obj["rows"]) or not obj["rows"]:
        got = "" if isinstance(obj, dict) else f", got {describe_value(obj)}"
        raise InputError(source, f'{item}expected an object {{"width": W, "height": H, '
                                 f'"rows": ["ABC…", …]}}{got}', line)
    layout = _parse_rows([(line, r) for r in obj["rows"]], source)
    for key, actual in (("width", layout.grid.width), ("height", layout.grid.height)):
        if key not in obj:
            continue
        if not isinstance(obj[key], int) or isinstance(obj[key], bool):
            raise InputError(source, f'{item}"{key}" must be a whole number, got '
                                     f'{describe_value(obj[key])}', line)
        if obj[key] != actual:
            raise InputError(source, f'{item}"{key}" is {obj[key]} but the rows give {actual}',
                             line)
    return layout


def parse_json(text: str, source: str = "<json>", first_line: int = 1) -> list[LayoutEntry]:
    """A JSON object, a JSON list of objects, or JSON lines (one object per line). As in text,
    a line that is not JSON is an error entry naming it, and the lines around it still count."""
    try:
        documents = [(first_line, json.loads(text))]
    except RecursionError:      # the decoder recurses once per bracket: [[[[… overflows it
        return [LayoutEntry(source, first_line, error=InputError(
            source, "invalid JSON: nested too deeply"))]
    except ValueError as whole_error:      # not JSON, or a number of over 4,300 digits
        documents = []
        for line_no, line in enumerate(text.splitlines(), start=first_line):
            if not line.strip():
                continue
            try:
                documents.append((line_no, json.loads(line)))
            except RecursionError:
                documents.append((line_no, InputError(
                    source, "invalid JSON: nested too deeply", line_no)))
            except ValueError as exc:
                if line_no == first_line == 1 and getattr(whole_error, "lineno", 1) > 1:
                    # one document over many lines: its own error, not its first line's
                    line_in, column, message = describe_json_error(whole_error, text)
                    return [LayoutEntry(source, line_in, error=InputError(
                        source, message, line_in, column))]
                _, column, message = describe_json_error(exc, line)
                documents.append((line_no, InputError(source, message, line_no, column)))
    entries = []
    for line_no, doc in documents:
        if isinstance(doc, InputError):
            entries.append(LayoutEntry(source, line_no, error=doc))
            continue
        items = ([(f"item {i} of the list: ", obj) for i, obj in enumerate(doc, start=1)]
                 if isinstance(doc, list) else [("", doc)])
        for item, obj in items:
            try:
                layout = _from_json_object(obj, source, line_no, item)
                entries.append(LayoutEntry(source, line_no, layout=layout))
            except InputError as exc:
                entries.append(LayoutEntry(source, line_no, error=exc))
    return entries


def parse_layouts(text: str, source: str = "<text>", first_line: int = 1) -> list[LayoutEntry]:
    """Text or JSON, told apart by the first character that is not blank."""
    if text.lstrip()[:1] in ("{", "["):
        return parse_json(text, source, first_line)
    return parse_text(text, source, first_line)


# -- sources ---------------------------------------------------------------------------------
def builtin_names() -> list[str]:
    return sorted(p.name[:-4] for p in resources.files(BUILTIN_PACKAGE).iterdir()
                  if p.name.endswith(".txt"))


def builtin_text(name: str) -> str:
    return resources.files(BUILTIN_PACKAGE).joinpath(f"{name}.txt").read_text("utf-8")


def read_source(name: str, what: str = WHAT) -> str:
    """Text of a file, of stdin (``-``) or of a built-in layout; :class:`InputError` otherwise."""
    builtin = builtin_name(name, builtin_names(), "layout")
    if builtin is not None:
        return builtin_text(builtin)
    text = read_text(name, what, missing=_missing())
    if not text.strip():
        raise InputError(source_label(name), "empty input, no layout found")
    return text


def load_layouts(name: str) -> list[LayoutEntry]:
    """Every layout in a file, stdin or built-in, read whole: :class:`InputError` if nothing is
    readable, or if the input is larger than :data:`MAX_INPUT_BYTES` (as every input read whole
    is; :func:`stream_layouts` reads one of any size, a layout at a time)."""
    return list(stream_layouts(name, whole=True))


def stream_layouts(name: str, whole: bool = False) -> Iterator[LayoutEntry]:
    """Every layout in a file, stdin or built-in, as :func:`load_layouts`, but read a chunk at a
    time: an input larger than :data:`MAX_INPUT_BYTES` (a whole listing piped in, say) streams
    through in bounded memory as text layouts or JSON lines (unless ``whole``: then it is
    refused once that much is read). Each line is checked as it comes (at most
    :data:`MAX_LINE_BYTES`, UTF-8, no NUL byte); :class:`InputError` names the line."""
    label = source_label(name)
    builtin = builtin_name(name, builtin_names(), "layout")
    if builtin is not None:
        yield from _parse_chunks(((1, builtin_text(builtin), True),), label, whole)
        return
    with open_input(name, WHAT, _missing()) as handle:
        yield from _parse_chunks(_chunks(handle, label), label, whole)


def _parse_chunks(chunks, label: str, whole_only: bool = False) -> Iterator[LayoutEntry]:
    found, opening = 0, ""                # the input's first character that is not blank
    for first_line, text, whole in chunks:
        opening = opening or text.lstrip()[:1]
        if whole_only and not whole:
            raise InputError(label, f"larger than {MAX_INPUT_BYTES:,} bytes, more than is read "
                                    f"whole (kiwara validate checks a listing of any size)")
        if whole:                     # all of it fits in one chunk: any format, as always
            entries = parse_layouts(text, label)
        elif opening == "[":
            raise InputError(label, f"a JSON list larger than {MAX_INPUT_BYTES:,} bytes; "
                                    f"give large inputs as JSON lines or text", first_line)
        else:
            parse = parse_json if opening == "{" else parse_text
            entries = parse(text, label, first_line)
        found += len(entries)
        yield from entries
    if not found:
        raise InputError(label, "no layout found (only comments or blank lines)")


def _missing() -> str:
    return f"no such file or built-in layout (built-in layouts: {', '.join(builtin_names())})"


def _chunks(handle, label: str) -> Iterator[tuple[int, str, bool]]:
    """(first line number, text, whether it is the whole input) of the chunks of an input,
    each ending at a blank line (or any line end in JSON lines) once MAX_INPUT_BYTES are read.
    Before a line that cannot be read ends the input, the layouts complete above it come out."""
    lines: list[bytes] = []
    size, first_line, line_no, json_lines = 0, 1, 0, None
    block_rows, block_start = 0, 0      # rows of the text layout being read, and its first line
    complete = 0                        # lines of `lines` that hold whole layouts

    def fail(error: InputError, upto: int):
        done = b"".join(lines[:upto if json_lines else min(upto, complete)])
        if done.strip():
            yield first_line, decode_text(done, label, WHAT, first_line), False
        raise error

    while True:
        try:
            line = handle.readline(MAX_LINE_BYTES + 1)
        except OSError as exc:              # /proc/self/mem, a failing disk
            raise InputError(label, exc.strerror or str(exc), line_no + 1) from None
        line_no += 1
        if line_no == 1:
            line = line.removeprefix(codecs.BOM_UTF8)     # as Windows editors write
        if len(line) > MAX_LINE_BYTES:
            yield from fail(InputError(label, f"line longer than {MAX_LINE_BYTES:,} bytes",
                                       line_no), len(lines))
        if b"\0" in line:
            yield from fail(InputError(label, "binary data (NUL byte), not a layout file",
                                       line_no), len(lines))
        if json_lines is None and line.strip():
            json_lines = line.lstrip()[:1] in (b"{", b"[")
        if not json_lines:
            if line.split(b"#", 1)[0].strip():
                block_rows += 1
                block_start = block_start if block_rows > 1 else line_no
                if block_rows > MAX_HEIGHT:     # refused now, not after reading it all
                    yield from fail(InputError(
                        label, f"the layout starting at line {block_start} has over "
                               f"{MAX_HEIGHT} rows, more than the largest board ({MAX_WIDTH} × "
                               f"{MAX_HEIGHT}); a blank line separates layouts", line_no),
                        len(lines))
            elif line and not line.strip():      # a blank line (not the end)
                block_rows, complete = 0, len(lines) + 1
        lines.append(line)
        size += len(line)
        if not line or (size >= MAX_INPUT_BYTES and (json_lines or not line.strip())):
            data = b"".join(lines)
            if not line and first_line == 1 and not data.strip():
                raise InputError(label, "empty input, no layout found")
            try:
                text = decode_text(data, label, WHAT, first_line)
            except InputError as exc:
                yield from fail(exc, exc.line - first_line)
            yield first_line, text, not line and first_line == 1
            if not line:
                return
            lines, size, first_line, complete = [], 0, line_no + 1, 0


def load_layout(name: str) -> Layout:
    """Exactly one well-formed layout from a file, stdin or a built-in name."""
    entries = load_layouts(name)
    if entries[0].error:
        raise entries[0].error
    if len(entries) > 1:
        raise InputError(source_label(name), f"holds {len(entries)} layouts, expected one",
                         entries[1].line)
    return entries[0].layout

