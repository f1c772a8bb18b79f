"""Options and input checks shared by every game's commands: worker processes, stdin read once,
output folders, agent specs, and the play-test lab's options."""
from __future__ import annotations

import math
import os
import re
import sys
from pathlib import Path

import click

from ..core.errors import KiwaraError
from ..core.numbers import shorten

# Larger game counts overflowed the lab's index ranges (an OverflowError traceback) long before
# finishing.
MAX_GAMES = 1_000_000


# Every number an option reads is bounded; a count without a natural bound stops here.
MAX_WHOLE = 2 ** 63 - 1
_WHOLE_TEXT = re.compile(r"-?[0-9]+")
_REAL_TEXT = re.compile(r"-?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")


class Whole(click.IntRange):
    """A whole-number option or argument, read as the tool reads every number (ASCII digits,
    as ``--mix``, ``--set`` and moves do: ``int()`` alone takes ``٣``, ``３`` and ``1_0``) and
    always bounded (by default a 64-bit integer: a seed, a count); the range errors are
    click's."""

    def __init__(self, min: int | None = None, max: int | None = None,
                 beyond_is_most: bool = False, **kwargs) -> None:
        # the help shows the bounds given, as click.IntRange does; the implicit ones are not news
        self.shown = (min, max)
        self.beyond_is_most = beyond_is_most      # a larger number means "no limit"
        if min is None and max is None:
            self.name = "integer"
        super().__init__(-MAX_WHOLE - 1 if min is None else min,
                         MAX_WHOLE if max is None else max, **kwargs)

    def _describe_range(self) -> str:
        low, high = self.shown
        if high is None:
            return "" if low is None else f"x>={low}"
        return super()._describe_range()

    def convert(self, value, param, ctx):
        if isinstance(value, str):
            text = value.strip()
            if not _WHOLE_TEXT.fullmatch(text):
                self.fail(f"{shorten(text)!r} is not a whole number (digits 0-9)", param, ctx)
            if len(text.lstrip("-").lstrip("0")) > len(str(MAX_WHOLE)) or \
                    not -MAX_WHOLE - 1 <= int(text) <= MAX_WHOLE:
                if self.beyond_is_most and not text.startswith("-"):
                    return MAX_WHOLE
                if self.shown != (None, None):           # click's words for its own bounds
                    self.fail(f"{shorten(text)} is not in the range {self._describe_range()}",
                              param, ctx)
                self.fail(f"{shorten(text)} is beyond the numbers the tool reads (64-bit "
                          f"integers, at most {MAX_WHOLE:,})", param, ctx)
        return super().convert(value, param, ctx)


class Real(click.FloatRange):
    """A decimal-number option read like :class:`Whole` (ASCII digits, a point, an exponent),
    finite (never ``nan`` or ``inf``, which no setting means) and bounded as given."""

    def __init__(self, min: float | None = None, max: float | None = None, **kwargs) -> None:
        if min is None and max is None:
            self.name = "float"
        super().__init__(min, max, **kwargs)

    def _describe_range(self) -> str:
        return "" if self.min is None and self.max is None else super()._describe_range()

    def convert(self, value, param, ctx):
        if isinstance(value, str) and not _REAL_TEXT.fullmatch(value.strip()):
            self.fail(f"{shorten(value.strip())!r} is not a decimal number", param, ctx)
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{number} is not a finite number", param, ctx)
        return number


def workers_option(help_text: str):
    """The ``-j/--workers`` option of every parallel command, refused beyond
    :func:`~kiwara_designer.core.workers.check_workers`'s cap before any work."""
    def check(ctx, param, value):
        from ..core.workers import check_workers
        return check_workers(value)
    return click.option("--workers", "-j", type=Whole(min=1, beyond_is_most=True),
                        callback=check, help=help_text)


def stdin_once(**inputs) -> None:
    """Refuse ``-`` for more than one input: the second would read an empty stdin and quietly
    become something else (an empty variant file is the classic game)."""
    named = [name for name, values in inputs.items()
             for v in (values if isinstance(values, (list, tuple)) else [values]) if v == "-"]
    if len(named) > 1:
        raise KiwaraError(f"- (stdin) is given {len(named)} times ({', '.join(named)}); "
                          f"stdin can be read once, give the others as files")


def check_writable_file(path: str, option: str) -> None:
    """Refuse an output file whose folder is missing or read-only before any long work."""
    folder = Path(path).parent
    if not folder.is_dir():
        raise KiwaraError(f"{option} {path}: no such directory {str(folder)!r}")
    if not os.access(folder, os.W_OK):
        raise KiwaraError(f"{option} {path}: directory {str(folder)!r} is not writable")


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


# -- the play-test lab's options, shared by kiwara playtest/compare/sweep and the same commands
# -- of kiwara awimbawe (a game's word for one game: "game", "match") ----------------------------
def lab_options(game_name: str, games_help: str, agent_examples: str, unit: str = "game"):
    """--games/-n, --agents (default: the game's own pairing), --seed and -j/--workers of the
    play-test commands of ``game_name``."""
    from ..core.game import get_game

    def decorate(func):
        for option in reversed([
            click.option("--games", "-n", type=Whole(1, MAX_GAMES), default=200,
                         show_default=True, help=games_help),
            click.option("--agents", default=get_game(game_name).default_agents,
                         show_default=True,
                         help=f"Agent A,agent B (one spec plays itself): {agent_examples}"),
            click.option("--seed", type=Whole(), default=0, show_default=True,
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
        func = click.option("--skill-games", type=Whole(0, MAX_GAMES),
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


def parse_settings(texts: tuple[str, ...]) -> dict[str, list]:
    """``--set key=v1,v2`` options → {key: [v1, v2]}, each value read as a TOML value (``3``,
    ``true``, ``{mouse = 4}``; a bare word is text), commas inside braces kept. The variant
    checks keys and values; this refuses what is not a list of values, naming the key."""
    import tomllib

    from ..core.variants import MAX_TOML_DEPTH, toml_depth
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
            if toml_depth(item) > MAX_TOML_DEPTH:
                raise KiwaraError(f"--set {key}: a value nested too deeply")
            try:
                value = tomllib.loads(f"value = {item}")["value"]
            except tomllib.TOMLDecodeError:
                value = item
            except ValueError:       # tomllib hands int() a number of over 4,300 digits
                raise KiwaraError(f"--set {key}: a number of more than "
                                  f"{sys.get_int_max_str_digits():,} digits") from None
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
