"""The ``kiwara`` command: a thin click shell over the library API.

Exit codes, for every command: 0 success, 1 a negative answer (invalid layout, illegal move),
2 unreadable or malformed input, or a usage error.
"""
from __future__ import annotations

import errno
import functools
import json
import os
import random
import sys
import time
from pathlib import Path

import click

from .errors import KiwaraError
from .formats import (builtin_names, builtin_text, format_text, load_layout, load_layouts,
                      stream_layouts)
from .terminal import draw_layout
from .validation import FREE_PLAY, RULESETS, Ruleset, validate

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
    try:
        values = tuple(int(v) for v in text.split(",") if v.strip())
    except ValueError:
        raise click.BadParameter(f"{what} must be whole numbers separated by commas, got {text!r}")
    if not values:
        raise click.BadParameter(f"{what} must not be empty")
    return values


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


@main.command("validate")
@click.argument("files", nargs=-1, required=True)
@click.option("--rules", type=click.Choice(sorted(RULESETS)), default="free-play", show_default=True,
              help="Ruleset to check against.")
@click.option("--sizes", help="Custom allowed territory sizes, e.g. 3,5,7,9.")
@click.option("--territories", type=click.IntRange(min=1), help="Custom number of territories.")
@click.option("--width", type=click.IntRange(1, 26), help="Custom board width.")
@click.option("--height", type=click.IntRange(1, 99), help="Custom board height.")
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
    ruleset = _ruleset(rules, sizes, territories, width, height)
    results, status, valid, invalid = [], EXIT_OK, 0, 0

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
        click.echo(json.dumps({"rules": ruleset.describe(), "results": results}, indent=2))
    elif quiet:
        click.echo(f"{valid + invalid:,} layout{'s' * (valid + invalid != 1)}: {valid:,} valid, "
                   f"{invalid:,} invalid ({ruleset.describe()})")
    sys.exit(status)


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


def _generator_filters(min_rivers, max_rivers, max_span, contains, grid, territories):
    from .generator import Filters, GeneratorError, Pattern
    # Filters no layout passes: refused here, or `layouts list` enumerates every layout first
    if min_rivers is not None and max_rivers is not None and min_rivers > max_rivers:
        raise GeneratorError(f"--min-rivers {min_rivers} is larger than --max-rivers {max_rivers}: "
                             f"no layout can pass")
    if max_span is not None and max_span == 0:
        raise GeneratorError("--max-span must be at least 1 (every territory spans a cell), got 0")
    pattern = Pattern.load(contains) if contains else None
    if pattern is not None:
        letters = {ch for row in pattern.rows for ch in row} - {"."}
        if pattern.width > grid.width or pattern.height > grid.height:
            raise GeneratorError(f"{contains}: the pattern is {pattern.width} × {pattern.height}, "
                                 f"larger than the {grid.width} × {grid.height} board")
        if len(letters) > territories:
            raise GeneratorError(f"{contains}: the pattern names {len(letters)} territories, more "
                                 f"than the {territories} of a layout")
    return Filters(min_rivers, max_rivers, max_span, pattern)


def _write_layouts(blocks, grid, fmt: str, total: int | None, limit: int | None = None) -> int:
    """Stream layouts given as blocks of bytes (see `generator.iter_blocks`) to stdout, as text
    blocks separated by a blank line or as JSON lines, at most ``limit`` of them, with a
    progress bar on stderr when it is a terminal. Returns how many were written."""
    from .formats import format_block
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
@click.option("--workers", "-j", type=click.IntRange(min=1),
              help="Processes listing the layouts (default: number of cores); the order is "
                   "the same whatever their number.")
def layouts_list(width, height, territories, sizes, mix, canonical, min_rivers, max_rivers,
                 max_span, contains, start, limit, fmt, workers) -> None:
    """Print every valid layout in a fixed order, as input for `kiwara validate -`.

    Order: mix by mix, then a fixed order within each mix; `--start N` resumes after N.

    \b
    Examples:
      kiwara layouts list --canonical --limit 3
      kiwara layouts list --canonical | kiwara validate -
      kiwara layouts list --mix 5,5,5,5,5,5 --max-span 3 --format jsonl
      kiwara layouts list --limit 100 --start 1000000
      kiwara layouts list --canonical -j 1 > classes.txt
    """
    from .generator import count_layouts, iter_blocks
    grid, k, allowed, wanted = _generator_request(width, height, territories, sizes, mix)
    filters = _generator_filters(min_rivers, max_rivers, max_span, contains, grid, k)
    blocks = iter_blocks(grid, k, allowed, canonical=canonical, mix=wanted, start=start,
                         filters=filters, workers=workers)
    total = None
    if not filters.active and sys.stderr.isatty():
        total = max(count_layouts(grid, k, allowed, mix=wanted, canonical=canonical) - start, 0)
    if limit is not None:
        total = limit if total is None else min(total, limit)
    _write_layouts(blocks, grid, fmt, total, limit)


@layouts.command("sample")
@_generator_problem_options
@_generator_filter_options
@click.option("-n", "count", type=click.IntRange(0, MAX_SAMPLE), default=1, show_default=True,
              help="Number of layouts to draw (independently, with replacement; for more, "
                   "layouts list).")
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
    filters = _generator_filters(min_rivers, max_rivers, max_span, contains, grid, k)
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
    _write_layouts([b"".join(bytes(layout.assignment) for layout in drawn)], grid, fmt, None)



# ============================================================================================
# Engine: perft, replay, play  (issue 4)
# ============================================================================================
def _load_variant(name: str | None):
    from .engine import load_variant
    return load_variant(name)


def _engine_setup(layout_name: str, variant_name: str | None):
    return load_layout(layout_name), _load_variant(variant_name)


@main.command("perft")
@click.argument("depth", type=click.IntRange(0, 12))
@click.option("--layout", "layout_name", default="classic", show_default=True,
              help="Layout file, built-in name or - for stdin.")
@click.option("--variant", "variant_name", help="Rules variant: TOML file or built-in name "
              "(classic, no_crocodile_swaps, totem_1_2, …). Default: classic.")
@click.option("--moves", "moves_text", default="", help="Moves to play first, in notation, "
              "separated by spaces (perft then counts from that position).")
@click.option("--divide", is_flag=True, help="Also print the count under each first move.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def perft_cmd(depth, layout_name, variant_name, moves_text, divide, as_json) -> None:
    """Count the move sequences of length 1..DEPTH: the move generator's check.

    Prints one line per depth, `perft 1 22`; a move is a whole turn (see the rules reference).

    \b
    Examples:
      kiwara perft 2
      kiwara perft 3 --layout president --variant no_crocodile_swaps --divide
      kiwara perft 2 --moves "T7 Zb2>9" --json
    """
    from .engine import IllegalMoveError, new_game, perft, perft_divide
    stdin_once(**{"--layout": layout_name, "--variant": variant_name})
    board, variant = _engine_setup(layout_name, variant_name)
    state = new_game(board, variant)
    for index, text in enumerate(moves_text.split()):
        try:
            state = state.play(text)
        except IllegalMoveError as exc:
            click.echo(f"kiwara: illegal move {index + 1} in --moves: {exc}", err=True)
            sys.exit(EXIT_NEGATIVE)
    if not as_json and not divide:
        # each depth as soon as it is counted: each takes ~75 times the one before, so a deep
        # request shows its progress (and the answers so far) instead of silence
        for d in range(1, depth + 1):
            click.echo(f"perft {d} {perft(state, d)}")
        if not depth:
            click.echo("perft 0 1")
        return
    counts = [(d, perft(state, d)) for d in range(1, depth + 1)] if depth else [(0, 1)]
    split = perft_divide(state, depth) if divide and depth else []
    if as_json:
        click.echo(json.dumps({"layout": list(board.rows), "variant": variant.to_dict(),
                               "moves": moves_text.split(),
                               "perft": [{"depth": d, "nodes": n} for d, n in counts],
                               "divide": {str(m): n for m, n in split} if divide else None},
                              indent=1))
        return
    if divide:
        for move, n in split:
            click.echo(f"{move} {n}")
    for d, n in counts:
        click.echo(f"perft {d} {n}")


@main.command("replay")
@click.argument("record")
@click.option("--json", "as_json", is_flag=True,
              help='Print {"scores": [first, second], "winner": 0, 1 or null, "okapi": its '
                   'holder or null, "final": whether the score is final, "territories": '
                   '[{"name", "size", "tokens", "controller", "points"}, …], "moves": how many, '
                   '"finished": whether the game is over}.')
@click.option("--colour/--no-colour", default=None, help="Tint territories (default: on a terminal).")
def replay_cmd(record, as_json, colour) -> None:
    """Re-check every move of a game RECORD (JSON file, or - for stdin) and show the result.

    Prints the final board and the scoring table. Exit 1 at the first illegal move (with its
    number, the move and the reason), 2 if the file is not a game record.

    \b
    Examples:
      kiwara replay game.json
      kiwara replay - --json < game.json
    """
    from .engine import GameRecord, ReplayError
    from .game_view import draw_state, scoring_table
    game = GameRecord.load(record)
    try:
        state = game.replay()
    except ReplayError as exc:
        if as_json:
            click.echo(json.dumps({"error": str(exc), "index": exc.index, "move": exc.move,
                                   "reason": exc.reason}))
        click.echo(f"kiwara: {'<stdin>' if record == '-' else record}: {exc}", err=True)
        sys.exit(EXIT_NEGATIVE)
    scoring = state.scoring()
    if as_json:
        click.echo(json.dumps({**scoring.to_dict(), "moves": len(game.moves),
                               "finished": state.is_terminal()}, indent=1))
        return
    click.echo(draw_state(state, colour=True), color=colour)
    click.echo()
    click.echo(scoring_table(scoring))


# -- agents and play --------------------------------------------------------------------------
@main.command()
@click.option("--layout", "layout_name", default="classic", show_default=True,
              help="Layout file, built-in name or - (only when no person plays).")
@click.option("--first", default="human", show_default=True,
              help="Who opens with the totem: human or an agent spec (random, greedy, mcts:500, "
                   "mcts:2s, mcts:500:greedy).")
@click.option("--second", default="mcts:500", show_default=True, help="Who plays second.")
@click.option("--variant", "variant_name", help="Rules variant: TOML file or built-in name "
              "(classic, no_crocodile_swaps, totem_1_2, …). Default: classic.")
@click.option("--seed", type=int, help="Seed of the agents' random choices (default: drawn and "
                                       "printed, so the game can be replayed).")
@click.option("--record", type=click.Path(dir_okay=False, allow_dash=True),
              help="Write the game record (JSON, for kiwara replay) here; - for stdout.")
@click.option("--colour/--no-colour", default=None, help="Colours (default: on a terminal).")
def play(layout_name, first, second, variant_name, seed, record, colour) -> None:
    """Play a game in the terminal: a person against an agent, or watch two agents.

    Moves are typed in notation (T7, Zc3>12, Cb2xc2>4, Gf5, pass); ? lists the legal moves,
    quit (or end of input) stops. Exit 0 when the game ends or is stopped.

    \b
    Examples:
      kiwara play
      kiwara play --first mcts:2s --second human --seed 7
      kiwara play --first greedy --second mcts:500 --record game.json
      kiwara play --layout president --variant no_crocodile_swaps
      kiwara play --first greedy --second mcts:200 --record - | kiwara replay -
    """
    from .play import start_session

    stdin_once(**{"--layout": layout_name, "--variant": variant_name})
    session = start_session(layout_name, first, second, variant_name, seed)
    if layout_name == "-" and any(s.is_human for s in session.seats):
        raise KiwaraError("--layout -: stdin carries a person's moves; give the layout as a file")
    if record and record != "-":   # say it now, not after a long game whose record is then lost
        _check_writable_file(record, "--record")
    # With --record -, stdout carries the record alone (for a pipe); the game goes to stderr.
    to_stderr = record == "-"
    use_colour = (sys.stderr if to_stderr else sys.stdout).isatty() if colour is None else colour

    def write(text: str, nl: bool = True) -> None:
        click.echo(text, nl=nl, err=to_stderr, color=use_colour)

    def read(prompt: str) -> str | None:
        write(prompt, nl=False)
        try:
            line = sys.stdin.readline()
        except KeyboardInterrupt:    # Ctrl-C at the prompt stops the game like quit
            line = ""
        if not line:
            write("")
            return None
        if not sys.stdin.isatty():   # scripted input: show it, so the transcript reads well
            write(line.rstrip("\n"))
        return line

    result = session.play(read, write, use_colour)
    if record:
        text = session.record_json(result)
        if record == "-":
            click.echo(text)
            return
        try:
            with open(record, "w", encoding="utf-8") as handle:
                handle.write(text + "\n")
        except OSError as exc:
            raise KiwaraError(f"{record}: cannot write the record: {exc.strerror}") from None
        click.echo(f"record written to {record}", err=True)


def _check_writable_file(path: str, option: str) -> None:
    folder = Path(path).parent
    if not folder.is_dir():
        raise KiwaraError(f"{option} {path}: no such directory {str(folder)!r}")
    if not os.access(folder, os.W_OK):
        raise KiwaraError(f"{option} {path}: directory {str(folder)!r} is not writable")


# ============================================================================================
# Play-test lab: playtest, compare, sweep, rank, report  (issue 5)
# ============================================================================================
def _lab_pairing(text: str):
    from .playtest import Pairing
    return Pairing.parse(text)


def _lab_common(func):
    """Options shared by playtest, compare and sweep."""
    from .playtest import DEFAULT_AGENTS
    for option in reversed([
        click.option("--games", "-n", type=click.IntRange(1, MAX_GAMES), default=200,
                     show_default=True,
                     help="Games per layout (seats alternate: agent A opens the even ones)."),
        click.option("--agents", default=DEFAULT_AGENTS, show_default=True,
                     help="Agent A,agent B (one spec plays itself): random, greedy, mcts:200…"),
        click.option("--seed", type=int, default=0, show_default=True,
                     help="Master seed: game i is seeded from (seed, i), so any game replays."),
        click.option("--workers", "-j", type=click.IntRange(min=1),
                     help="Worker processes (default: number of cores)."),
    ]):
        func = option(func)
    return func


def _lab_skill_options(func):
    from .playtest import DEFAULT_SKILL
    func = click.option("--skill-games", type=click.IntRange(0, MAX_GAMES),
                        help="Games of the skill pairing per layout (default: a quarter of "
                             "--games; 0 to skip the skill gap).")(func)
    return click.option("--skill", default=DEFAULT_SKILL, show_default=True,
                        help="Stronger,weaker agents whose win rate is the skill gap.")(func)


def _lab_skill_games(skill_games: int | None, games: int) -> int:
    return max(1, games // 4) if skill_games is None else skill_games


def _lab_record_stems(sources) -> list[str]:
    """A distinct file-name stem per layout: a/board.txt and b/board.txt (or classic given twice)
    would otherwise write their records over each other's."""
    stems, seen = [], {}
    for source in sources:
        stem = "stdin" if source == "-" else Path(source).stem
        stem = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in stem) or "layout"
        seen[stem] = seen.get(stem, 0) + 1
        stems.append(stem if seen[stem] == 1 else f"{stem}-{seen[stem]}")
    return stems


def _lab_record_name(stem: str, index: int) -> str:
    return f"{stem}-game{index:05d}.json"


@main.command()
@click.argument("layout_files", metavar="LAYOUT...", nargs=-1, required=True)
@click.option("--variant", "variant_name", help="Rules variant: TOML file or built-in name "
                                                 "(default: classic rules).")
@_lab_common
@_lab_skill_options
@click.option("--json", "as_json", is_flag=True, help="One JSON object with every metric.")
@click.option("--records", type=click.Path(file_okay=False),
              help="Write every game's record (JSON, for kiwara replay) into this directory.")
@click.option("--precision", type=click.FloatRange(0, 0.5, min_open=True, max_open=True),
              help="Play until the first-player win rate is known to ± this (e.g. 0.03); "
                   "--games is then the first round.")
def playtest(layout_files, variant_name, games, agents, seed, workers, skill, skill_games,
             as_json, records, precision) -> None:
    """Play-test LAYOUTs: self-play games, balance metrics with 95 % intervals.

    \b
    Examples:
      kiwara playtest classic
      kiwara playtest classic president --games 400 --agents mcts:50,greedy --seed 3
      kiwara playtest my-board.txt --variant totem_1_2 --json
      kiwara playtest classic --games 10 --records games/
      kiwara playtest classic --precision 0.03
    """
    from pathlib import Path

    from .playtest import compute_metrics, kiwara_kit, play_match, play_to_precision
    from .playtest.matches import make_game_record
    from .playtest.text import format_metrics

    stdin_once(LAYOUT=layout_files, **{"--variant": variant_name})
    variant, pairing = _load_variant(variant_name), _lab_pairing(agents)
    skill_pairing = _lab_pairing(skill) if skill else None
    n_skill = _lab_skill_games(skill_games, games) if skill_pairing else 0
    boards = [(name, load_layout(name)) for name in layout_files]
    kit = kiwara_kit()
    if records:   # made before the games are played, so a bad path does not waste them
        try:
            Path(records).mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise KiwaraError(f"{records}: cannot write game records: {exc.strerror}") from None
    output = []
    for (name, board), stem in zip(boards, _lab_record_stems(layout_files)):
        update, close = progress_bar(name)
        if precision:
            results = play_to_precision(board, variant, pairing, precision, seed, workers, kit,
                                        first_round=games)
            if records:   # replayed with their moves only when asked: records are rarely wanted
                results = play_match(board, variant, pairing, len(results), seed, workers, kit,
                                     keep_moves=True)
        else:
            results = play_match(board, variant, pairing, games, seed, workers, kit,
                                 keep_moves=bool(records), progress=update)
        close()
        skill_results = (play_match(board, variant, skill_pairing, n_skill, seed, workers, kit)
                         if n_skill else [])
        metrics = compute_metrics(results, board.names, board.sizes, skill_results)
        if records:
            folder = Path(records)
            try:
                folder.mkdir(parents=True, exist_ok=True)
                for game in results:
                    record = make_game_record(kit, board, variant, pairing, seed, game)
                    (folder / _lab_record_name(stem, game.index)).write_text(
                        record.to_json() + "\n", encoding="utf-8")
            except OSError as exc:
                raise KiwaraError(f"{records}: cannot write game records: {exc.strerror}")
        head = {"layout": name, "rows": list(board.rows), "variant": variant.name,
                "agents": pairing.name, "games": len(results), "seed": seed,
                "skill_agents": skill_pairing.name if n_skill else None, "skill_games": n_skill}
        output.append({**head, "metrics": metrics.to_json()})
        if not as_json:
            skill_text = f", skill {skill_pairing} x {n_skill}" if n_skill else ""
            click.echo(format_metrics(metrics, f"{name}: variant {variant.name}, agents {pairing}, "
                                               f"{len(results)} games, seed {seed}{skill_text}"))
    if as_json:
        click.echo(json.dumps(output if len(output) > 1 else output[0], indent=2))
    elif records:
        click.echo(f"game records written to {records}/", err=True)


@main.command()
@click.argument("layout_names", metavar="[LAYOUT]...", nargs=-1)
@click.option("--variant", "variant_names", multiple=True, required=True,
              help="A rules variant (TOML file or built-in name); give it twice.")
@_lab_common
@click.option("--json", "as_json", is_flag=True, help="JSON (a list if several layouts).")
def compare(layout_names, variant_names, games, agents, seed, workers, as_json) -> None:
    """Compare two rules variants on each LAYOUT (default classic) over the same seeds.

    Game i of both variants has the same seed and seats, so the games are paired: the difference
    in first-player win rate is tested with an exact McNemar test (two-proportion z test shown
    for reference), the score margin with a paired z test.

    \b
    Examples:
      kiwara compare --variant classic --variant totem_1_2
      kiwara compare president classic --variant classic --variant my-rules.toml --games 400
    """
    from .playtest import compare_variants
    from .playtest.text import format_comparison

    if len(variant_names) != 2:
        raise click.UsageError(f"give --variant exactly twice, got {len(variant_names)}")
    stdin_once(LAYOUT=layout_names, **{"--variant": variant_names})
    variants = tuple(_load_variant(v) for v in variant_names)
    names = tuple(variant_names)
    boards = [(name, load_layout(name)) for name in layout_names or ("classic",)]
    pairing = _lab_pairing(agents)
    output = []
    for name, board in boards:
        result = compare_variants(board, variants, names, pairing, games, seed, workers)
        output.append({"layout": name, "agents": pairing.name, "games": games, "seed": seed,
                       **result.to_json()})
        if not as_json:
            click.echo(format_comparison(result, f"{name}: agents {pairing}, {games} games "
                                                 f"per variant on the same seeds (seed {seed})"))
    if as_json:
        click.echo(json.dumps(output if len(output) > 1 else output[0], indent=2))


def _lab_sweep_layouts(sample, all_canonical, from_file, seed):
    """The layouts to sweep (a list, or a lazy iterator for --all-canonical) and their number."""
    chosen = [x for x in (sample is not None, all_canonical, from_file is not None) if x]
    if len(chosen) != 1:
        raise click.UsageError("choose exactly one of --sample N, --all-canonical, --from FILE")
    if from_file is not None:
        boards = []
        for entry in load_layouts(from_file):
            if entry.error:
                raise entry.error
            boards.append(entry.layout)
        return boards, len(boards)
    from .generator import count_layouts, iter_layouts, sample_layouts
    if sample is not None:
        boards = sample_layouts(sample, seed, canonical=True)
        return boards, len(boards)
    return iter_layouts(canonical=True), count_layouts(canonical=True)


@main.command()
@click.option("--sample", type=click.IntRange(1, MAX_SAMPLE),
              help="Play N layouts sampled at random.")
@click.option("--all-canonical", is_flag=True, help="Play every free-play layout up to symmetry.")
@click.option("--from", "from_file", metavar="FILE", help="Play the layouts of FILE (text or JSON, - for stdin).")
@click.option("--db", required=True, type=click.Path(dir_okay=False),
              help="SQLite results database (created if missing; resumed if it exists).")
@click.option("--variant", "variant_name", help="Rules variant: TOML file or built-in name.")
@_lab_common
@_lab_skill_options
@click.option("--scheduler", help="Dask scheduler address, e.g. tcp://host:8786 "
                                  "(needs pip install 'kiwara-designer[cluster]').")
@click.option("--json", "as_json", is_flag=True, help="Print the sweep summary as JSON.")
def sweep(sample, all_canonical, from_file, db, variant_name, games, agents, seed, workers, skill,
          skill_games, scheduler, as_json) -> None:
    """Play many layouts into a results database, resumably.

    Every finished game is committed at once: a sweep killed at any moment (even kill -9)
    resumes with the same command, without losing or repeating a game, and two sweeps may share
    one database. --seed seeds both the layout sample and the games.

    \b
    Examples:
      kiwara sweep --sample 200 --seed 1 --db results.sqlite --games 100
      kiwara sweep --from shortlist.txt --db results.sqlite --agents mcts:50 --workers 2
      kiwara sweep --sample 5000 --db big.sqlite --scheduler tcp://10.0.0.5:8786
    """
    from .playtest import open_store, run_sweep

    stdin_once(**{"--from": from_file, "--variant": variant_name})
    started = time.perf_counter()
    boards, count = _lab_sweep_layouts(sample, all_canonical, from_file, seed)
    choosing = time.perf_counter() - started        # (drawing a sample builds the tables)
    variant, pairing = _load_variant(variant_name), _lab_pairing(agents)
    skill_pairing = _lab_pairing(skill) if skill else None
    n_skill = _lab_skill_games(skill_games, games) if skill_pairing else 0
    update, close = progress_bar(f"{count:,} layouts")
    with open_store(db) as store:
        try:
            summary = run_sweep(store, boards, variant, pairing, games, seed, workers, scheduler,
                                skill=skill_pairing, skill_games=n_skill, progress=update,
                                layout_count=count)
        finally:
            close()
        totals = store.totals()
    if as_json:
        click.echo(json.dumps({**summary.to_json(), "choosing_seconds": round(choosing, 3),
                               "database": totals}, indent=2))
    else:
        click.echo(f"{summary.layouts} layouts, {summary.games_wanted} games wanted: "
                   f"{summary.games_already_stored} already stored, {summary.games_played} played, "
                   f"{summary.games_stored} stored in {summary.seconds:.1f} s "
                   + (f"(Dask scheduler {scheduler})" if scheduler
                      else f"({summary.workers} workers)")
                   + f", after {choosing:.1f} s choosing the layouts")
        click.echo(f"{db}: {totals['layouts']} layouts, {totals['games']} games")


@main.command()
@click.option("--db", required=True, type=click.Path(dir_okay=False), help="Results database.")
@click.option("--top", type=click.IntRange(min=1), default=20, show_default=True)
@click.option("--by", "by", default="score", show_default=True,
              type=click.Choice(["score", "balance", "first_player_win_rate", "draw_rate",
                                 "score_margin", "abs_score_margin", "length", "branching_factor",
                                 "decision_moves", "lead_changes", "lead_change_rate", "decisiveness",
                                 "okapi_taker_win_rate", "skill_gap", "contestedness"]),
              help="Metric to rank by.")
@click.option("--ascending", is_flag=True, help="Smallest first (e.g. --by decisiveness).")
@click.option("--variant", "variant_name", help="Only this variant (its name).")
@click.option("--agents", help="Only this pairing, e.g. greedy,greedy.")
@click.option("--export", "export_dir", type=click.Path(file_okay=False),
              help="Write the ranked layouts to DIR as layout files and printable SVG boards.")
@click.option("--paper", metavar="a4|letter|WxH",
              help="Paper of the exported boards (as kiwara export) [default: a4].")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def rank(db, top, by, ascending, variant_name, agents, export_dir, paper, as_json) -> None:
    """List the best layouts of a results database.

    --export DIR writes each one as a layout file (rank01-layout17.txt) and a true-scale
    printable board (rank01-layout17.svg, as kiwara export draws it).

    \b
    Examples:
      kiwara rank --db results.sqlite
      kiwara rank --db results.sqlite --top 5 --by skill_gap --export best/ --paper letter
      kiwara rank --db results.sqlite --by decisiveness --ascending --json
    """
    from .playtest import export_layouts, open_store
    from .playtest.text import format_ranking
    from .printing import Paper, PrintOptions

    if paper and not export_dir:
        raise click.UsageError("--paper only applies with --export")
    options = PrintOptions(Paper.parse(paper or "a4"))   # a bad paper fails before any work

    with open_store(db, must_exist=True) as store:
        store.refresh_summaries()
        rows = store.ranked(by, top, not ascending, variant_name, agents)
    if as_json:
        click.echo(json.dumps([{"rank": i, "layout_id": r.layout_id, "rows": list(r.layout.rows),
                                "variant": r.variant, "agents": r.agents, "games": r.games,
                                "rivers": r.rivers, "size_mix": r.size_mix, "score": r.score,
                                "values": r.values} for i, r in enumerate(rows, 1)], indent=2))
    elif rows:
        click.echo(format_ranking(rows, by))
    else:
        click.echo(f"{db}: no play-tested layouts yet (run kiwara sweep first)", err=True)
    if export_dir:
        written = export_layouts(rows, export_dir, options)
        click.echo(f"{len(written)} files written to {export_dir}/", err=True)


@main.command()
@click.option("--db", required=True, type=click.Path(dir_okay=False), help="Results database.")
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False, allow_dash=True),
              help="HTML file to write; - for stdout.")
@click.option("--top", type=click.IntRange(min=1), default=12, show_default=True,
              help="Layouts drawn as boards.")
def report(db, output, top) -> None:
    """Write a self-contained HTML report (inline SVG, no network) of a results database.

    \b
    Examples:
      kiwara report --db results.sqlite -o report.html
    """
    from .playtest import open_store, render_report

    with open_store(db, must_exist=True) as store:
        store.refresh_summaries()
        html = render_report(store, top=top, title=f"Kiwara play-test report: {db}")
    if output == "-":
        click.echo(html)
        return
    try:
        with open(output, "w", encoding="utf-8") as handle:
            handle.write(html)
    except OSError as exc:
        raise KiwaraError(f"{output}: cannot write the report: {exc.strerror}")
    click.echo(f"report written to {output}", err=True)


# ============================================================================================
# Printing: export, generate  (issue 6)
# ============================================================================================
def _print_options(command):
    """The options shared by ``export`` and ``generate``: paper, cell size, crop marks, bleed, kit."""
    for option in reversed([
        click.option("--paper", default="a4", show_default=True, metavar="a4|letter|WxH",
                     help="Paper: a4 or letter (landscape) or a custom size in mm, e.g. 420x297."),
        click.option("--cell-mm", type=float, metavar="MM",
                     help="Cell size in mm [default: largest that fits A4 and Letter]."),
        click.option("--crop-marks", is_flag=True, help="Crop marks at the corners of the cut line."),
        click.option("--bleed-mm", type=float, default=0.0, show_default=True, metavar="MM",
                     help="Extend the board's background this far beyond the cut line."),
        click.option("--kit", is_flag=True,
                     help="Add the print-and-play kit: token sheet, Okapi card and totem."),
    ]):
        command = option(command)
    return command


def _print_setup(output: str, paper: str, cell_mm, crop_marks, bleed_mm):
    """The print options, once the output's format and every option are known to be good
    (checked before any work is done)."""
    from .printing import Paper, PrintOptions, output_format

    output_format(output)
    return PrintOptions(Paper.parse(paper), cell_mm, crop_marks, bleed_mm)


def _print_job(layout, output: str, title: str, options, kit):
    """Draw and write the pages; return (files written, options, cell size, page count)."""
    from .printing import print_set, resolve_cell_mm, write_pages

    pages = print_set(layout, options, title=title, kit=kit)
    files = write_pages(pages, output, stdout=sys.stdout)
    return files, options, resolve_cell_mm(layout.grid, options), len(pages)


def _wrote(files, options, cell, pages) -> str:
    names = ", ".join("stdout" if f == "-" else f for f in files)
    paper = options.paper
    return (f"wrote {names}: {pages} page{'s' if pages > 1 else ''} on {paper.name} "
            f"({paper.width_mm:g} × {paper.height_mm:g} mm), cell {cell:g} mm; print at 100 %")


@main.command()
@click.argument("layout")
@click.option("-o", "--output", required=True, metavar="FILE",
              help="board.svg, board.pdf (all pages) or board.png; - writes SVG to stdout.")
@_print_options
def export(layout, output, paper, cell_mm, crop_marks, bleed_mm, kit) -> None:
    """Print LAYOUT (file, built-in name or -) at true scale, in millimetres.

    The board comes with its 22 numbered totem stones, column letters and row numbers,
    each territory tinted and labelled with its size, and the rivers drawn exactly where the
    sticks go. A board larger than the paper is tiled over several pages with alignment
    lines. PDF and PNG need the optional extra: pip install 'kiwara-designer[pdf]'.

    \b
    Examples:
      kiwara export classic -o classic.svg
      kiwara export my-board.txt -o board.pdf --paper letter --kit
      kiwara export president -o big.pdf --cell-mm 45 --crop-marks --bleed-mm 3
      kiwara export classic -o - | rsvg-convert -o classic.png
    """
    options = _print_setup(output, paper, cell_mm, crop_marks, bleed_mm)
    board = load_layout(layout)
    title = "stdin layout" if layout == "-" else Path(layout).stem
    problems = validate(board, FREE_PLAY).problems
    if problems:   # designers print drafts too: say so, but print
        click.echo(f"kiwara: note: {title} is not a valid free-play layout: "
                   f"{'; '.join(p.message for p in problems)}", err=True)
    report = _print_job(board, output, title, options, kit)
    click.echo(_wrote(*report), err=output == "-")


def _generator_sample(seed: int, mix: tuple[int, ...] | None):
    from .generator import sample_layouts   # imported here: only generate pays for it

    return sample_layouts(1, seed, mix=mix)[0]


def _check_mix(mix: tuple[int, ...]) -> tuple[int, ...]:
    from .generator import Problem
    return Problem.make().check_mix(mix)


@main.command()
@click.option("--seed", type=click.IntRange(min=0), help="Seed of the draw [default: a random one, printed].")
@click.option("--mix", metavar="3,3,5,5,7,7", help="Draw only layouts with these territory sizes.")
@click.option("-o", "--output", metavar="FILE",
              help="Board file (.svg, .pdf, .png; - for SVG on stdout) [default: kiwara-board-SEED.svg].")
@_print_options
@click.option("--json", "as_json", is_flag=True, help="Print the layout and its facts as JSON.")
def generate(seed, mix, output, paper, cell_mm, crop_marks, bleed_mm, kit, as_json) -> None:
    """Draw a uniformly random valid free-play layout and print it.

    Every valid layout (six connected territories of sizes 3, 5, 7 or 9) is equally likely;
    --mix draws uniformly among those with the given sizes. The same seed always gives the same
    board. Writes the printable board (see kiwara export) and shows the layout and its facts.

    \b
    Examples:
      kiwara generate
      kiwara generate --seed 7 -o board.pdf --kit
      kiwara generate --seed 42 --mix 3,3,5,5,7,7 --json
    """
    if as_json and output == "-":
        raise click.UsageError("--json and -o - would both write to stdout; pick one")
    if seed is None:
        seed = random.SystemRandom().randrange(1_000_000)
    wanted = _check_mix(parse_int_list(mix, "--mix")) if mix else None
    output = output or f"kiwara-board-{seed}.svg"
    options = _print_setup(output, paper, cell_mm, crop_marks, bleed_mm)
    board = _generator_sample(seed, wanted)
    report = validate(board, FREE_PLAY)
    files, options, cell, pages = _print_job(board, output, f"seed {seed}", options, kit)
    if as_json:
        click.echo(json.dumps({"seed": seed, "mix": list(wanted) if wanted else None,
                               **report.to_json(), "files": files, "paper": options.paper.name,
                               "cell_mm": cell, "pages": pages}, indent=2))
    else:   # with -o - the SVG owns stdout, so the summary goes to stderr
        echo = functools.partial(click.echo, err=output == "-")
        facts = report.facts
        echo(f"seed {seed}   (again: kiwara generate --seed {seed}{' --mix ' + mix if mix else ''})")
        echo(format_text(board, spaced=False), nl=False)
        echo(f"{'valid' if report.valid else 'INVALID'} free-play layout; territories "
             + ", ".join(f"{name} {size}" for name, size in facts["territories"].items())
             + f"; size mix {','.join(map(str, facts['size_mix']))}; "
             + f"{facts['river_segments']} river segments of {facts['sticks_in_box']} sticks")
        for problem in report.problems:
            echo(f"  - {problem.message}")
        echo(_wrote(files, options, cell, pages))
    if not report.valid:
        sys.exit(EXIT_NEGATIVE)


if __name__ == "__main__":
    main()
