"""The ``kiwara`` command: a thin click shell over the library API.

Exit codes, for every command: 0 success, 1 a negative answer (invalid layout, illegal move),
2 unreadable or malformed input, or a usage error.
"""
from __future__ import annotations

import json
import sys

import click

from .errors import KiwaraError
from .formats import builtin_names, builtin_text, load_layout, load_layouts
from .terminal import draw_layout
from .validation import RULESETS, Ruleset, validate

EXIT_OK, EXIT_NEGATIVE, EXIT_BAD_INPUT = 0, 1, 2


class KiwaraGroup(click.Group):
    """Turns user errors (:class:`KiwaraError`) into one line on stderr and exit code 2."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except KiwaraError as exc:
            click.echo(f"kiwara: error: {exc}", err=True)
            ctx.exit(EXIT_BAD_INPUT)


def parse_int_list(text: str, what: str) -> tuple[int, ...]:
    try:
        values = tuple(int(v) for v in text.split(",") if v.strip())
    except ValueError:
        raise click.BadParameter(f"{what} must be whole numbers separated by commas, got {text!r}")
    if not values:
        raise click.BadParameter(f"{what} must not be empty")
    return values


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


# ============================================================================================
# Layouts: validate, show, builtin
# ============================================================================================
def _ruleset(rules: str, sizes: str | None, territories: int | None, width: int | None,
             height: int | None) -> Ruleset:
    base = RULESETS[rules]
    if sizes is None and territories is None and width is None and height is None:
        return base
    allowed = frozenset(parse_int_list(sizes, "--sizes")) if sizes else base.sizes
    return Ruleset("custom", width or base.width, height or base.height,
                   territories if territories is not None else base.territories,
                   allowed, None if sizes else base.mix)


@main.command()
@click.argument("files", nargs=-1, required=True)
@click.option("--rules", type=click.Choice(sorted(RULESETS)), default="free-play", show_default=True,
              help="Ruleset to check against.")
@click.option("--sizes", help="Custom allowed territory sizes, e.g. 3,5,7,9.")
@click.option("--territories", type=click.IntRange(min=1), help="Custom number of territories.")
@click.option("--width", type=click.IntRange(1, 26), help="Custom board width.")
@click.option("--height", type=click.IntRange(1, 99), help="Custom board height.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output (one JSON object).")
def validate_cmd(files, rules, sizes, territories, width, height, as_json) -> None:
    """Check layout FILES (or built-in names, or - for stdin) against a ruleset.

    Every problem is reported at once, with the cells involved. A file may hold several
    layouts separated by blank lines; each is reported. Exit 0 if all are valid, 1 if one
    is invalid, 2 if an input is unreadable or malformed.

    \b
    Examples:
      kiwara validate layouts/classic.txt
      kiwara validate president --rules classic
      kiwara layouts list --canonical | kiwara validate -
      kiwara validate board.txt --sizes 4,6 --territories 5 --json
    """
    ruleset = _ruleset(rules, sizes, territories, width, height)
    results, status = [], EXIT_OK
    for name in files:
        try:
            entries = load_layouts(name)
        except KiwaraError as exc:
            entries, status = [], EXIT_BAD_INPUT
            results.append({"source": name, "error": str(exc)})
            if not as_json:
                click.echo(f"kiwara: error: {exc}", err=True)
        for entry in entries:
            where = f"{entry.source}:{entry.line}"
            if entry.error:
                status = EXIT_BAD_INPUT
                results.append({"source": entry.source, "line": entry.line, "error": str(entry.error)})
                if not as_json:
                    click.echo(f"kiwara: error: {entry.error}", err=True)
                continue
            report = validate(entry.layout, ruleset)
            if not report.valid:
                status = max(status, EXIT_NEGATIVE)
            results.append({"source": entry.source, "line": entry.line, **report.to_json()})
            if not as_json:
                _print_report(where, report)
    if as_json:
        click.echo(json.dumps({"rules": ruleset.describe(), "results": results}, indent=2))
    sys.exit(status)


validate_cmd.name = "validate"


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


@main.command()
@click.argument("layout")
@click.option("--colour/--no-colour", default=None, help="Tint territories (default: on a terminal).")
def show(layout, colour) -> None:
    """Draw LAYOUT (file, built-in name or -) in the terminal, rivers as walls.

    \b
    Examples:
      kiwara show classic
      kiwara show my-board.txt --no-colour
    """
    board = load_layout(layout)
    click.echo(draw_layout(board, colour=True), color=colour)
    click.echo(f"{len(board.territories)} territories, sizes "
               f"{','.join(map(str, board.size_mix))}; {len(board.river_edges())} river segments")


@main.group()
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


# ============================================================================================
# Generator: layouts count, list, sample  (issue 3)
# ============================================================================================
def _generator_problem_options(command):
    """--width/--height/--territories/--sizes, shared by the generator commands."""
    for option in reversed([
        click.option("--width", type=int, default=6, show_default=True, help="Board width."),
        click.option("--height", type=int, default=5, show_default=True, help="Board height."),
        click.option("--territories", "-k", type=int, default=6, show_default=True,
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
        click.option("--min-rivers", type=int, help="At least this many river segments."),
        click.option("--max-rivers", type=int, help="At most this many river segments."),
        click.option("--max-span", type=int,
                     help="No territory wider or taller than this many cells."),
        click.option("--contains", "contains", metavar="FILE",
                     help="Pattern file that must appear: rows of letters (same letter = same "
                          "territory, different letters = different ones) and . for any cell."),
    ]):
        command = option(command)
    return command


def _generator_request(width, height, territories, sizes, mix):
    from .geometry import Grid
    grid = Grid(width, height)
    allowed = parse_int_list(sizes, "--sizes")
    wanted = parse_int_list(mix, "--mix") if mix else None
    return grid, territories, allowed, wanted


def _generator_filters(min_rivers, max_rivers, max_span, contains):
    from .generator import Filters, Pattern
    pattern = Pattern.load(contains) if contains else None
    return Filters(min_rivers, max_rivers, max_span, pattern)


def _write_layouts(layouts, fmt: str, total: int | None) -> int:
    """Stream layouts to stdout (text blocks separated by a blank line, or JSON lines); a
    progress bar on stderr only when stderr is a terminal. Returns how many were written."""
    from .formats import format_json, format_text
    out = sys.stdout
    written = 0
    bar = None
    if sys.stderr.isatty() and total:
        bar = click.progressbar(length=total, file=sys.stderr, label="layouts")
        bar.__enter__()
    try:
        for layout in layouts:
            if fmt == "jsonl":
                out.write(format_json(layout) + "\n")
            else:
                out.write(("\n" if written else "") + format_text(layout))
            written += 1
            if bar is not None and written % 1000 == 0:
                bar.update(1000)
        out.flush()
    except BrokenPipeError:              # `kiwara layouts list | head` is fine
        sys.stdout = None
        return written
    finally:
        if bar is not None:
            bar.update(written % 1000)
            bar.__exit__(None, None, None)
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
    from .generator import Problem, count_by_mix
    grid, k, allowed, wanted = _generator_request(width, height, territories, sizes, mix)
    problem = Problem.make(grid, k, allowed)
    counts = count_by_mix(grid, k, allowed, canonical=canonical)
    if wanted is not None:
        wanted = problem.check_mix(wanted)
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
@click.option("--start", type=click.IntRange(min=0), default=0, show_default=True,
              help="Skip this many layouts (resume an earlier listing).")
@click.option("--limit", type=click.IntRange(min=0), help="Stop after this many layouts.")
@click.option("--format", "fmt", type=click.Choice(["text", "jsonl"]), default="text",
              show_default=True, help="Text blocks separated by blank lines, or JSON lines.")
def layouts_list(width, height, territories, sizes, mix, canonical, min_rivers, max_rivers,
                 max_span, contains, start, limit, fmt) -> None:
    """Print every valid layout in a fixed order, as input for `kiwara validate -`.

    Order: mix by mix, then a fixed order within each mix; `--start N` resumes after N.

    \b
    Examples:
      kiwara layouts list --canonical --limit 3
      kiwara layouts list --canonical | kiwara validate -
      kiwara layouts list --mix 5,5,5,5,5,5 --max-span 3 --format jsonl
      kiwara layouts list --limit 100 --start 1000000
    """
    import itertools
    from .generator import count_layouts, iter_layouts
    grid, k, allowed, wanted = _generator_request(width, height, territories, sizes, mix)
    filters = _generator_filters(min_rivers, max_rivers, max_span, contains)
    layouts_ = iter_layouts(grid, k, allowed, canonical=canonical, mix=wanted, start=start,
                            filters=filters)
    total = None
    if not filters.active and sys.stderr.isatty():
        total = max(count_layouts(grid, k, allowed, mix=wanted, canonical=canonical) - start, 0)
    if limit is not None:
        layouts_ = itertools.islice(layouts_, limit)
        total = limit if total is None else min(total, limit)
    _write_layouts(layouts_, fmt, total)


@layouts.command("sample")
@_generator_problem_options
@_generator_filter_options
@click.option("-n", "count", type=click.IntRange(min=0), default=1, show_default=True,
              help="Number of layouts to draw (independently, with replacement).")
@click.option("--seed", type=int, default=0, show_default=True,
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
    from pathlib import Path
    from .formats import format_text
    from .generator import sample_layouts
    grid, k, allowed, wanted = _generator_request(width, height, territories, sizes, mix)
    filters = _generator_filters(min_rivers, max_rivers, max_span, contains)
    drawn = sample_layouts(count, seed, grid=grid, territories=k, sizes=allowed, mix=wanted,
                           canonical=canonical, filters=filters)
    if directory:
        folder = Path(directory)
        try:
            folder.mkdir(parents=True, exist_ok=True)
            digits = max(4, len(str(count)))
            for number, layout in enumerate(drawn, start=1):
                header = (f"# sample {number} of {count}, seed {seed}"
                          f"{', canonical' if canonical else ''}\n")
                (folder / f"sample-{number:0{digits}d}.txt").write_text(
                    header + format_text(layout), encoding="utf-8")
        except OSError as exc:
            from .generator import GeneratorError
            raise GeneratorError(f"{directory}: {exc.strerror or exc}") from None
    _write_layouts(drawn, fmt, None)



# ============================================================================================
# Engine: perft, replay, play  (issue 4)
# ============================================================================================


# ============================================================================================
# Play-test lab: playtest, compare, sweep, rank, report  (issue 5)
# ============================================================================================


# ============================================================================================
# Printing: export, generate  (issue 6)
# ============================================================================================


if __name__ == "__main__":
    main()
