"""Layouts: ``kiwara validate``, ``show`` and the ``layouts`` group (builtin, and the generator's
count, list and sample)."""
from __future__ import annotations

import json
import sys

import click

from ....core.io import make_folder, write_text
from ....core.errors import KiwaraError
from ..formats import builtin_names, builtin_text, load_layout, stream_layouts
from ..terminal import draw_layout
from ..validation import RULESETS, Ruleset, validate
from ....core.numbers import plural
from ....commands import (EXIT_BAD_INPUT, EXIT_NEGATIVE, EXIT_OK, Whole, progress_bar,
                         workers_option)
from .common import MAX_SAMPLE, parse_int_list


def _ruleset(rules: str, sizes: str | None, territories: int | None, width: int | None,
             height: int | None, rules_given: bool = False) -> Ruleset:
    base = RULESETS[rules]
    if sizes is None and territories is None and width is None and height is None:
        return base
    if rules_given and rules != "free-play":
        custom = [f"--{name}" for name, value in (("sizes", sizes), ("territories", territories),
                                                  ("width", width), ("height", height)) if value]
        raise click.UsageError(f"--rules {rules} fixes the board and the sizes; {custom[0]} "
                               f"makes a custom ruleset from free-play: give one or the other")
    allowed = frozenset(parse_int_list(sizes, "--sizes")) if sizes is not None else base.sizes
    return Ruleset("custom", width or base.width, height or base.height,
                   territories if territories is not None else base.territories,
                   allowed, None if sizes is not None else base.mix)


@click.command("validate")
@click.argument("files", nargs=-1, required=True)
@click.option("--rules", type=click.Choice(sorted(RULESETS)), default="free-play", show_default=True,
              help="Ruleset to check against.")
@click.option("--sizes", help="Custom allowed territory sizes, e.g. 3,5,7,9.")
@click.option("--territories", type=Whole(min=1), help="Custom number of territories.")
@click.option("--width", type=Whole(1, 26), help="Custom board width.")
@click.option("--height", type=Whole(1, 99), help="Custom board height.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output (one JSON object).")
@click.option("--quiet", "-q", is_flag=True,
              help="Report only invalid layouts and unreadable input, then a count.")
def validate_cmd(files, rules, sizes, territories, width, height, as_json, quiet) -> None:
    """Check layout FILES (or built-in names, or - for stdin) against a ruleset.

    Every problem is reported at once, with the cells involved. A file may hold several
    layouts separated by blank lines; each is reported. Inputs of any length stream through
    (text or JSON lines). Exit 0 if all are valid, 1 if one is invalid, 2 if an input is
    unreadable or malformed.

    \b
    Examples:
      kiwara validate layouts/classic.txt
      kiwara validate president --rules classic
      kiwara layouts list --canonical | kiwara validate -q -
      kiwara validate board.txt --sizes 4,6 --territories 5 --json
    """
    given = click.get_current_context().get_parameter_source("rules")
    ruleset = _ruleset(rules, sizes, territories, width, height,
                       rules_given=given is not click.core.ParameterSource.DEFAULT)
    status, valid, invalid = EXIT_OK, 0, 0
    results = _JsonArray(f'{{\n  "rules": {json.dumps(ruleset.describe())},\n  "results": ',
                         "\n}") if as_json else None

    def unreadable(error, **where) -> None:
        nonlocal status
        status = EXIT_BAD_INPUT
        if as_json:
            results.append({**where, "error": str(error)})
        else:
            click.echo(f"kiwara: error: {error}", err=True)

    for name in files:
        try:
            for entry in stream_layouts(name):
                if entry.error:
                    unreadable(entry.error, source=entry.source, line=entry.line)
                    continue
                report = validate(entry.layout, ruleset)
                if report.valid:
                    valid += 1
                else:
                    invalid += 1
                    status = max(status, EXIT_NEGATIVE)
                if as_json:
                    results.append({"source": entry.source, "line": entry.line, **report.to_json()})
                elif not (quiet and report.valid):
                    _print_report(f"{entry.source}:{entry.line}", report)
        except KiwaraError as exc:
            unreadable(exc, source=name)
    if as_json:
        results.close()
    elif quiet:
        click.echo(f"{plural(valid + invalid, 'layout')}: {valid:,} valid, "
                   f"{invalid:,} invalid ({ruleset.describe()})")
    sys.exit(status)


class _JsonArray:
    """A JSON object whose last field is a list, written item by item as ``json.dumps(…,
    indent=2)`` would write it whole: the results of millions of layouts never sit in memory."""

    def __init__(self, head: str, tail: str) -> None:
        self.head, self.tail, self.count = head, tail, 0

    def append(self, item: dict) -> None:
        text = json.dumps(item, indent=2).replace("\n", "\n    ")
        click.echo((self.head + "[\n    " if not self.count else ",\n    ") + text, nl=False)
        self.count += 1

    def close(self) -> None:
        click.echo((self.head + "[]" if not self.count else "\n  ]") + self.tail)


def _print_report(where: str, report) -> None:
    f = report.facts
    verdict = click.style("valid", fg="green") if report.valid else click.style("INVALID", fg="red")
    click.echo(f"{where}: {verdict} ({report.ruleset.describe()})")
    for p in report.problems:
        click.echo(f"  - {p.message}")
    sizes = ", ".join(f"{n} {s}" for n, s in f["territories"].items())
    click.echo(f"  territories: {sizes}; size mix {','.join(map(str, f['size_mix']))}")
    click.echo(f"  river segments: {f['river_segments']} of {f['sticks_in_box']} sticks")
    if f["known_board"]:
        click.echo(f"  this is the {f['known_board']} board")


@click.command()
@click.argument("layout")
@click.option("--colour/--no-colour", default=None, help="Tint territories (default: on a terminal).")
@click.option("--json", "as_json", is_flag=True,
              help='Print {"rows", "width", "height", "territories": {name: size}, "size_mix", '
                   '"river_segments", "degrees": {name: territories it borders}, '
                   '"degree_sequence", "river_lengths": {name: river segments on its border}, '
                   '"articulation_territories": [names whose removal cuts the others apart]}.')
def show(layout, colour, as_json) -> None:
    """Draw LAYOUT (file, built-in name or -) in the terminal, rivers as walls.

    \b
    Examples:
      kiwara show classic
      kiwara show my-board.txt --no-colour
      kiwara show president --json
    """
    board = load_layout(layout)
    if as_json:
        click.echo(json.dumps({"rows": list(board.rows), "width": board.grid.width,
                               "height": board.grid.height,
                               "territories": {t.name: t.size for t in board.territories},
                               "size_mix": list(board.size_mix),
                               "river_segments": len(board.river_edges()),
                               **board.descriptors().to_dict()}, indent=2))
        return
    click.echo(draw_layout(board, colour=True), color=colour)
    click.echo(f"{len(board.territories)} territories, sizes "
               f"{','.join(map(str, board.size_mix))}; {len(board.river_edges())} river segments")


@click.group()
def layouts() -> None:
    """List built-in layouts, count, list and sample free-play layouts."""


@layouts.command("builtin")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def layouts_builtin(as_json) -> None:
    """List the layouts shipped with kiwara-designer (usable wherever a layout file is)."""
    rows = []
    for name in builtin_names():
        board = load_layout(name)
        comment = next((line.lstrip("# ").strip() for line in builtin_text(name).splitlines()
                        if line.startswith("#")), "")
        rows.append({"name": name, "rows": list(board.rows), "size_mix": list(board.size_mix),
                     "river_segments": len(board.river_edges()), "description": comment})
    if as_json:
        click.echo(json.dumps(rows, indent=2))
        return
    for r in rows:
        click.echo(f"{r['name']:<14} {','.join(map(str, r['size_mix'])):<14} "
                   f"{r['river_segments']:>2} rivers  {r['description']}")


# -- the generator: layouts count, list, sample ----------------------------------------------
def _generator_problem_options(command):
    """--width/--height/--territories/--sizes, shared by the generator commands."""
    for option in reversed([
        click.option("--width", type=Whole(), default=6, show_default=True, help="Board width."),
        click.option("--height", type=Whole(), default=5, show_default=True, help="Board height."),
        click.option("--territories", "-k", type=Whole(), default=6, show_default=True,
                     help="Number of territories."),
        click.option("--sizes", default="3,5,7,9", show_default=True,
                     help="Allowed territory sizes, comma-separated."),
        click.option("--mix", help="Only this size mix, e.g. 3,3,5,5,7,7."),
        click.option("--canonical", is_flag=True,
                     help="One layout per symmetry class (mirror images and turns count once)."),
    ]):
        command = option(command)
    return command


def _generator_filter_options(command):
    for option in reversed([
        click.option("--min-rivers", type=Whole(), help="At least this many river segments."),
        click.option("--max-rivers", type=Whole(), help="At most this many river segments."),
        click.option("--max-span", type=Whole(),
                     help="No territory wider or taller than this many cells."),
        click.option("--contains", "contains", metavar="FILE",
                     help="Pattern file that must appear: rows of letters (same letter = same "
                          "territory, different letters = different ones) and . for any cell."),
    ]):
        command = option(command)
    return command


def _generator_request(width, height, territories, sizes, mix):
    from ..geometry import Grid
    grid = Grid(width, height)
    allowed = parse_int_list(sizes, "--sizes")
    wanted = parse_int_list(mix, "--mix") if mix else None
    return grid, territories, allowed, wanted


def _write_layouts(blocks, grid, fmt: str, total: int | None, limit: int | None = None) -> int:
    """Stream layouts given as blocks of bytes (see `generator.iter_blocks`) to stdout, as text
    blocks separated by a blank line or as JSON lines, at most ``limit`` of them, with a
    progress bar on stderr when it is a terminal. Returns how many were written."""
    from ..formats import format_block
    update, close = progress_bar("layouts")
    written = 0
    try:
        for block in blocks:
            if limit is not None:
                block = block[:(limit - written) * grid.size]
            if block:
                text = format_block(block, grid, fmt)
                sys.stdout.write("\n" + text if written and fmt == "text" else text)
                written += len(block) // grid.size
                update(written, total)
            if written == limit:
                break
        sys.stdout.flush()
    finally:                             # a closed pipe (`| head`) is KiwaraGroup's to end
        getattr(blocks, "close", lambda: None)()          # stops the workers of a listing
        update(written, total)
        close()
    return written


@layouts.command("count")
@_generator_problem_options
@click.option("--by-mix", is_flag=True, help="One line per size mix.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def layouts_count(width, height, territories, sizes, mix, canonical, by_mix, as_json) -> None:
    """Exact number of valid layouts (or symmetry classes with --canonical).

    \b
    Examples:
      kiwara layouts count
      kiwara layouts count --canonical --by-mix
      kiwara layouts count --width 4 --height 4 --territories 4 --sizes 3,4,5 --json
    """
    from ..generator import Problem, count_by_mix
    grid, k, allowed, wanted = _generator_request(width, height, territories, sizes, mix)
    problem = Problem.make(grid, k, allowed)
    if wanted is not None:
        wanted = problem.check_mix(wanted)     # before counting, which takes seconds
    counts = count_by_mix(grid, k, allowed, canonical=canonical)
    if wanted is not None:
        counts = {wanted: counts[wanted]}
    total = sum(counts.values())
    what = ("symmetry class" if canonical else "layout") + ("" if total == 1 else (
        "es" if canonical else "s"))
    if as_json:
        click.echo(json.dumps({
            "width": grid.width, "height": grid.height, "territories": k, "sizes": list(allowed),
            "canonical": canonical, "total": total,
            "by_mix": {",".join(map(str, m)): c for m, c in counts.items()}}, indent=2))
        return
    if by_mix:
        for m, c in counts.items():
            click.echo(f"{','.join(map(str, m)):<20} {c:>14,}")
    click.echo(f"{total:,} {what} ({problem.describe()})")


@layouts.command("list")
@_generator_problem_options
@_generator_filter_options
@click.option("--start", type=Whole(min=0), default=0, show_default=True,
              help="Skip this many layouts (resume an earlier listing).")
@click.option("--limit", type=Whole(min=0, beyond_is_most=True),
              help="Stop after this many layouts.")
@click.option("--format", "fmt", type=click.Choice(["text", "jsonl"]), default="text",
              show_default=True, help="Text blocks separated by blank lines, or JSON lines.")
@click.option("--scan-all", is_flag=True,
              help="List with filters that no quick uniform draw passes (few or no layouts "
                   "do), scanning every layout to find them.")
@workers_option("Processes listing the layouts (default: number of cores, at most 4 per "
                "core); the order is the same whatever their number.")
def layouts_list(width, height, territories, sizes, mix, canonical, min_rivers, max_rivers,
                 max_span, contains, start, limit, scan_all, fmt, workers) -> None:
    """Print every valid layout in a fixed order, as input for `kiwara validate -`.

    Order: mix by mix, then a fixed order within each mix; `--start N` resumes after N.

    With filters, 2,000 layouts are first drawn at random (as `layouts sample` does): if
    none passes, the listing (which would look at every layout) is refused in one line
    unless --scan-all is given. A filtered listing shows on a terminal how many layouts it
    has scanned and found; one that finds none says so and exits 1.

    \b
    Examples:
      kiwara layouts list --canonical --limit 3
      kiwara layouts list --canonical | kiwara validate -
      kiwara layouts list --mix 5,5,5,5,5,5 --max-span 3 --format jsonl
      kiwara layouts list --limit 100 --start 1000000
      kiwara layouts list --canonical -j 1 > classes.txt
    """
    from ..generator import (DRAWS_PER_SAMPLE, Filters, GeneratorError, count_layouts, iter_blocks,
                             probe_filters)
    grid, k, allowed, wanted = _generator_request(width, height, territories, sizes, mix)
    filters = Filters.make(grid, k, min_rivers, max_rivers, max_span, contains)

    def everything() -> int:
        return count_layouts(grid, k, allowed, mix=wanted, canonical=canonical)
    what = "symmetry classes" if canonical else "layouts"
    if filters.active and not scan_all and not probe_filters(
            grid, k, allowed, mix=wanted, canonical=canonical, filters=filters):
        raise GeneratorError(f"none of {DRAWS_PER_SAMPLE:,} uniform draws passes these "
                             f"filters: few or no {what} do, and listing them scans all "
                             f"{everything():,}; give --scan-all to do so")
    scan = {"scanned": 0, "found": 0}
    update, close = progress_bar(f"{what} scanned") if filters.active else (None, None)
    scan_total = everything() if filters.active and sys.stderr.isatty() else None

    def scanned(count: int, found: int) -> None:
        scan.update(scanned=count, found=found)
        update(count, scan_total, f"{found:,} found")
    blocks = iter_blocks(grid, k, allowed, canonical=canonical, mix=wanted, start=start,
                         filters=filters, workers=workers, progress=scanned)
    total = None           # the bar counts what is written, or with filters what is scanned
    if not filters.active:
        if sys.stderr.isatty():
            total = max(everything() - start, 0)
        if limit is not None:
            total = limit if total is None else min(total, limit)
    try:
        written = _write_layouts(blocks, grid, fmt, total, limit)
    finally:
        if close is not None:
            close()
    if filters.active and not written and limit != 0:
        looked = f"{scan['scanned']:,} {what} scanned"
        click.echo(f"kiwara: the {scan['found']:,} of the {looked} that pass the filters all "
                   f"come before --start {start:,}" if scan["found"] else
                   f"kiwara: none of the {looked} passes the filters", err=True)
        sys.exit(EXIT_NEGATIVE)


@layouts.command("sample")
@_generator_problem_options
@_generator_filter_options
@click.option("-n", "count", type=Whole(0, MAX_SAMPLE), default=1, show_default=True,
              help="Number of layouts to draw (independently, with replacement; for more, "
                   "layouts list).")
@click.option("--seed", type=Whole(), default=0, show_default=True,
              help="Random seed: the same seed gives the same layouts.")
@click.option("--format", "fmt", type=click.Choice(["text", "jsonl"]), default="text",
              show_default=True, help="Text blocks separated by blank lines, or JSON lines.")
@click.option("-o", "--output", "directory", type=click.Path(file_okay=False),
              help="Also write each layout to DIR/sample-NNNN.txt.")
def layouts_sample(width, height, territories, sizes, mix, canonical, min_rivers, max_rivers,
                   max_span, contains, count, seed, fmt, directory) -> None:
    """Draw uniformly random valid layouts (every layout, or every symmetry class with
    --canonical, equally likely), reproducibly from --seed.

    \b
    Examples:
      kiwara layouts sample --seed 7
      kiwara layouts sample -n 20 --mix 3,3,5,5,7,7 --canonical -o boards/
      kiwara layouts sample -n 5 --max-rivers 20 --format jsonl | kiwara validate -
    """
    from ..formats import format_text
    from ..generator import Filters, sample_layouts
    grid, k, allowed, wanted = _generator_request(width, height, territories, sizes, mix)
    filters = Filters.make(grid, k, min_rivers, max_rivers, max_span, contains)
    drawn = sample_layouts(count, seed, grid=grid, territories=k, sizes=allowed, mix=wanted,
                           canonical=canonical, filters=filters)
    if directory:
        folder = make_folder(directory, "layouts")
        digits = max(4, len(str(count)))
        for number, layout in enumerate(drawn, start=1):
            header = (f"# sample {number} of {count}, seed {seed}"
                      f"{', canonical' if canonical else ''}\n")
            write_text(folder / f"sample-{number:0{digits}d}.txt", header + format_text(layout),
                       "a layout")
    _write_layouts([b"".join(bytes(layout.assignment) for layout in drawn)], grid, fmt, None)
