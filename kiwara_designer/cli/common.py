"""What every ``kiwara`` command shares: exit codes, bounds, the group that turns user errors into
one line on stderr, option parsing helpers, progress bars and output checks."""
from __future__ import annotations

import errno
import json
import os
import sys
from pathlib import Path

import click

from ..core.errors import KiwaraError
from ..core.numbers import parse_whole_list, plural

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
    from ..games.kiwara.geometry import MAX_HEIGHT, MAX_WIDTH
    return parse_whole_list(text, 1, MAX_WIDTH * MAX_HEIGHT, what)


def note_invalid(layout, name: str) -> bool:
    """Say on stderr (one line) when ``layout`` is not a valid free-play layout, as designers
    play-test and print drafts too; True if it is valid."""
    from ..games.kiwara.validation import FREE_PLAY, validate
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
    """``(update(done, total, note=None), close())`` drawing a bar on stderr, ``note`` after it
    (e.g. how many were found); both do nothing when stderr is not a terminal (pipes and logs
    stay clean)."""
    if not sys.stderr.isatty():
        return (lambda done, total, note=None: None), (lambda: None)
    state: dict = {}

    def update(done: int, total: int | None, note: str | None = None) -> None:
        if total is None:
            return
        if "bar" not in state:
            state["bar"] = click.progressbar(length=max(total, 1), label=label, file=sys.stderr,
                                             show_pos=True, show_eta=True,
                                             item_show_func=lambda note: note)
            state["bar"].__enter__()
        bar = state["bar"]
        bar.update(done - bar.pos, note)

    def close() -> None:
        if "bar" in state:
            state["bar"].__exit__(None, None, None)

    return update, close


def load_variant(name: str | None):
    """A rules variant by file or built-in name (the engine is imported only when needed)."""
    from ..games import kiwara as engine
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


def agents_help(game_name: str, human: bool = False) -> str:
    """The agent specs ``game_name`` accepts, from the agent registry, for a help text; with
    ``human`` (a play command's seat) a person first, and the agents that peek at hidden cards
    only when no person plays (else: the lab's strength reference)."""
    from ..agents import agent_kinds, agent_syntax
    from ..core.game import get_game
    game = get_game(game_name)
    cheats = [k for k in agent_kinds(game) if k not in agent_kinds(game, honest=True)]
    text = agent_syntax(game)
    if cheats:
        text += (f"; {', '.join(cheats)} sees the hidden cards: "
                 + ("only when no person plays" if human else "a strength reference"))
    return f"human, {text}" if human else text


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


# -- the play-test lab's options and output, shared by kiwara playtest/compare/sweep and the
# -- same commands of kiwara awimbawe (a game's word for one game: "game", "match") ------------
def lab_options(games_help: str, agent_examples: str, unit: str = "game"):
    """--games/-n, --agents, --seed and -j/--workers of the play-test commands."""
    from ..lab import DEFAULT_AGENTS

    def decorate(func):
        for option in reversed([
            click.option("--games", "-n", type=click.IntRange(1, MAX_GAMES), default=200,
                         show_default=True, help=games_help),
            click.option("--agents", default=DEFAULT_AGENTS, show_default=True,
                         help=f"Agent A,agent B (one spec plays itself): {agent_examples}"),
            click.option("--seed", type=int, default=0, show_default=True,
                         help=f"Master seed: {unit} i is seeded from (seed, i), so any {unit} "
                              f"replays."),
            workers_option("Worker processes (default: number of cores, at most 4 per core)."),
        ]):
            func = option(func)
        return func
    return decorate


def skill_options(skill_games_help: str):
    """--skill and --skill-games: the pairing whose win rate is the skill gap, and its count."""
    from ..lab import DEFAULT_SKILL

    def decorate(func):
        func = click.option("--skill-games", type=click.IntRange(0, MAX_GAMES),
                            help=skill_games_help)(func)
        return click.option("--skill", default=DEFAULT_SKILL, show_default=True,
                            help="Stronger,weaker agents whose win rate is the skill gap.")(func)
    return decorate


def skill_pairing(skill: str | None, skill_games: int | None, games: int):
    """The skill pairing and its number of games (default: a quarter of ``games``; 0 and None
    when there is no skill pairing)."""
    from ..lab import Pairing
    if not skill:
        return None, 0
    return Pairing.parse(skill), max(1, games // 4) if skill_games is None else skill_games


def scheduler_option():
    return click.option("--scheduler", help="Dask scheduler address, e.g. tcp://host:8786 "
                                            "(needs pip install 'kiwara-designer[cluster]').")


def two_variants(variant_names: tuple[str, ...]) -> None:
    if len(variant_names) != 2:
        raise click.UsageError(f"give --variant exactly twice, got {len(variant_names)}")


def describe_playtest(done, variant_name: str, pairing, seed: int, skill, unit: str,
                      units: str | None = None) -> tuple[dict, str]:
    """A finished play-test's settings: as JSON fields, and as the words after its title."""
    n, n_skill = len(done.games), len(done.skill_games)
    head = {"variant": variant_name, "agents": pairing.name, "games": n, "seed": seed,
            "skill_agents": skill.name if n_skill else None, "skill_games": n_skill}
    skill_text = f", skill {skill} x {n_skill}" if n_skill else ""
    return head, (f"variant {variant_name}, agents {pairing}, {plural(n, unit, units)}, "
                  f"seed {seed}{skill_text}")


def summary_line(summary, what: str, scheduler: str | None = None, unit: str = "game",
                 units: str | None = None) -> str:
    """A sweep's summary: what was wanted, found stored, played and stored, in how long where."""
    return (f"{plural(summary.layouts, what)}, "
            f"{plural(summary.games_wanted, unit, units)} wanted: "
            f"{summary.games_already_stored} already stored, {summary.games_played} played, "
            f"{summary.games_stored} stored in {summary.seconds:.1f} s "
            + (f"(Dask scheduler {scheduler})" if scheduler
               else f"({plural(summary.workers, 'worker')})"))


def parse_settings(texts: tuple[str, ...]) -> dict[str, list]:
    """``--set key=v1,v2`` options → {key: [v1, v2]}, each value read as a TOML value (``3``,
    ``true``, ``{mouse = 4}``; a bare word is text), commas inside braces kept. The variant
    checks keys and values; this refuses what is not a list of values, naming the key."""
    import tomllib
    settings: dict[str, list] = {}
    for text in texts:
        key, equals, values = (part.strip() for part in text.partition("="))
        if not equals or not key:
            raise KiwaraError(f"--set {text}: write KEY=VALUE,VALUE… (e.g. hyenas_to_lose=3,4)")
        if key in settings:
            raise KiwaraError(f"--set {key}: given twice; list all its values in one --set")
        items = _split_outside_braces(values)
        if not values:
            raise KiwaraError(f"--set {key}: no values; give them separated by commas "
                              f"({key}=V1,V2…)")
        if any(not item for item in items):
            raise KiwaraError(f"--set {key}: an empty value in {values!r}; give values "
                              f"separated by commas")
        parsed = []
        for item in items:
            try:
                value = tomllib.loads(f"value = {item}")["value"]
            except tomllib.TOMLDecodeError:
                value = item
            if value in parsed:
                raise KiwaraError(f"--set {key}: the value {item} is given twice")
            parsed.append(value)
        settings[key] = parsed
    return settings


def _split_outside_braces(text: str) -> list[str]:
    items, depth, current = [], 0, []
    for ch in text:
        depth += (ch == "{") - (ch == "}")
        if ch == "," and depth == 0:
            items.append("".join(current).strip())
            current = []
        else:
            current.append(ch)
    items.append("".join(current).strip())
    return items
