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


# ============================================================================================
# Engine: perft, replay, play  (issue 4)
# ============================================================================================
def _engine_setup(layout_name: str, variant_name: str | None):
    from .engine import load_variant
    return load_layout(layout_name), load_variant(variant_name)


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
    board, variant = _engine_setup(layout_name, variant_name)
    state = new_game(board, variant)
    for index, text in enumerate(moves_text.split()):
        try:
            state = state.play(text)
        except IllegalMoveError as exc:
            click.echo(f"kiwara: illegal move {index + 1} in --moves: {exc}", err=True)
            sys.exit(EXIT_NEGATIVE)
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
              help='Print {"scores": [first, second], "winner": …, "territories": […]}.')
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
        click.echo(f"kiwara: {exc}", err=True)
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

    session = start_session(layout_name, first, second, variant_name, seed)
    if layout_name == "-" and any(s.is_human for s in session.seats):
        raise KiwaraError("--layout -: stdin carries a person's moves; give the layout as a file")
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


# ============================================================================================
# Play-test lab: playtest, compare, sweep, rank, report  (issue 5)
# ============================================================================================


# ============================================================================================
# Printing: export, generate  (issue 6)
# ============================================================================================


if __name__ == "__main__":
    main()
