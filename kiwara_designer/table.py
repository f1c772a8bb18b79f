"""A game at the table: seats (people or agents) play a game of the core protocol, the people
typing their moves. One loop and one set of words for every game; each game brings a
:class:`TableView`, how its table and its moves read.

I/O stays at the edge: :func:`play_at_table` reads a person's lines from an open text handle and
writes to another, so the command line, a notebook or a test drives it alike.

What a person may type, in every game: a move in the game's notation (refused as ``illegal: …``
in the game's own words, which say only what that person may know), its number when the game
numbers its moves, ``?`` / ``moves`` / ``list`` (the legal moves again), ``help`` / ``h`` (the
notation), ``quit`` / ``q`` / ``exit`` (stop; so does the end of input). A blank line asks again.
A person's only legal move (a forced pass) is played for them.
"""
from __future__ import annotations

import random
import secrets
from dataclasses import dataclass, field
from typing import Any, Protocol, Sequence, TextIO

from .agents import Agent, make_agent
from .core.errors import KiwaraError
from .core.game import CHANCE, sample_chance
from .core.numbers import plural

HUMAN = "human"
QUIT_WORDS = ("quit", "q", "exit")
LIST_WORDS = ("?", "moves", "list")
HELP_WORDS = ("help", "h")
COMMANDS_HELP = ("Commands: ? (or moves) lists the legal moves, help shows this, quit stops "
                 "(so does the end of input).")
LONGEST_NUMBER = 6       # digits: a longer number is out of range without being converted
LONGEST_LINE = 1_000     # characters of a person's line; a longer one is refused unread
TOO_LONG = "\0"          # what read() gives for such a line: refused like any control character


# -- seats ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Seat:
    """Who plays a side: a person (``agent`` is None) or an agent."""

    label: str
    agent: Agent | None = None

    @classmethod
    def parse(cls, spec: str, game: Any = None, honest: bool = False) -> "Seat":
        """``human`` or an agent spec for ``game`` (None: any); ``honest`` when a person
        plays, so no agent may peek at what its player may not see."""
        if spec.strip().lower() == HUMAN:
            return cls(HUMAN)
        agent = make_agent(spec, game, honest=honest)
        return cls(agent.name, agent)

    @property
    def is_human(self) -> bool:
        return self.agent is None


def parse_seats(specs: dict[str, str], game: Any = None) -> tuple[Seat, ...]:
    """The seats ``specs`` ({name of the seat in errors: spec}) give for ``game``. When a person
    plays, an agent that peeks at what its player may not see is refused: it is a strength
    reference for the lab, not an opponent. Errors name the seat."""
    person = any(spec.strip().lower() == HUMAN for spec in specs.values())
    seats = []
    for name, spec in specs.items():
        try:
            seats.append(Seat.parse(spec, game, honest=person))
        except KiwaraError as exc:
            hint = ', or "human" for a person' if str(exc).startswith("unknown agent") else ""
            raise KiwaraError(f"{name}: {exc}{hint}") from None
    return tuple(seats)


# -- what a game shows ------------------------------------------------------------------------
@dataclass(frozen=True)
class Play:
    """One move as the table saw it: ``player`` (a seat, or :data:`CHANCE`) moved ``move`` from
    ``before`` to ``after``; ``seat`` sat there (None at a chance node). ``forced``: a person's
    only legal move, played for them; ``note``: what an agent's search says of its move
    (`` (500 iterations in 0.5 s, expects +0.50)``), empty when it cannot tell."""

    before: Any
    after: Any
    move: Any
    player: int
    seat: Seat | None = None
    forced: bool = False
    note: str = ""


class TableView(Protocol):
    """How a game reads at the table (each game has one in its folder).

    A game of perfect information is a table everyone sees alike: the loop shows
    ``table(state, None)`` at the start and after every move. Under hidden information no one
    table is everyone's: a person sees ``table(state, seat)``, what their seat may see, when they
    are to choose. Either way the person then sees ``move_list`` and the prompt.

    ``reader`` is the seat the game is told to: the person's when one person plays, else None
    (a spectator, who sees what every player sees; two people share the screen)."""

    notation_help: str          # how moves are written; the loop adds its commands
    numbered: bool              # move_list numbers the moves, so a person may type a number

    def seat_names(self, reader: int | None) -> list[str]:
        """Each seat's name in the words the table uses (``first``; ``you``, ``the opponent``)."""

    def table(self, state: Any, reader: int | None) -> str:
        """The table as ``reader`` sees it."""

    def move_list(self, state: Any) -> str:
        """The legal moves as the person to play reads them (and what choosing them means)."""

    def narrate(self, play: Play, reader: int | None, names: Sequence[str]) -> list[str]:
        """What ``play`` showed ``reader``, in lines (none for a move its person just typed, if
        the game has nothing to add)."""

    def outcome(self, state: Any, names: Sequence[str]) -> str:
        """The line that ends a finished game."""


def seed_is_secret(game: Any, variant: Any) -> bool:
    """Whoever knows the seed of a game with chance or hidden information knows what is hidden:
    every deal and draw to come, the agent's cards. A game of open information without chance
    has nothing a seed could tell."""
    return game.has_chance(variant) or game.has_hidden_information(variant)


def secret_seed() -> int:
    """A seed nobody can guess: 63 bits from :mod:`secrets` (within the records' 2**63 bound), too
    many to search for the one that deals the cards a player sees."""
    return secrets.randbits(63)


@dataclass(frozen=True)
class TableSeed:
    """A game's seed, and whether it is withheld until the game ends (``secret``)."""

    value: int
    secret: bool = False

    @classmethod
    def choose(cls, game: Any, variant: Any, seats: Sequence[Seat],
               asked: int | None) -> "TableSeed":
        """The seed of a game at the table: the one asked for (its asker knows it already), else
        a new one. With a person seated at a game whose seed tells what is hidden
        (:func:`seed_is_secret`), a new seed is secret, said only once the game is over; else it
        is small and said at once, so the game can be replayed."""
        if asked is not None:
            return cls(asked)
        if any(seat.is_human for seat in seats) and seed_is_secret(game, variant):
            return cls(secret_seed(), secret=True)
        return cls(random.SystemRandom().randrange(10 ** 6))


def opening_line(title: str, setup: Sequence[str], seats: Sequence[Seat],
                 seed: TableSeed) -> str:
    """The line a game at the table opens with: what is played, who sits where, the seed that
    replays it (``kiwara play: classic layout, classic rules, first human vs second greedy,
    seed 1``), or that a secret seed is said at the end."""
    told = "seed said at the end" if seed.secret else f"seed {seed.value}"
    return (f"{title}: {', '.join(setup)}, first {seats[0].label} vs second {seats[1].label}, "
            f"{told}")


def closing_line(seed: TableSeed) -> str | None:
    """The line that says a secret seed once the game is over (None for a seed said at the
    start)."""
    return f"seed {seed.value}" if seed.secret else None


# -- the loop ---------------------------------------------------------------------------------
@dataclass
class TableResult:
    """Where the game stopped, the moves played (chance moves included, as records keep them),
    and whether it reached its end."""

    state: Any
    moves: list = field(default_factory=list)
    finished: bool = False


def play_at_table(state: Any, seats: Sequence[Seat], view: TableView, input: TextIO,
                  output: TextIO, rng: random.Random, chance_rng: random.Random | None = None,
                  echo: bool | None = None) -> TableResult:
    """Play from ``state`` to the end, or until a person quits or ``input`` ends.

    Agents choose with ``rng``, chance moves are drawn with ``chance_rng`` (default: ``rng``).
    ``echo`` (default: when ``input`` is not a terminal) writes each accepted line after its
    prompt, so a scripted game's transcript reads as if typed; a refused line is not echoed (it
    may name a card its typist cannot see)."""
    chance_rng = chance_rng or rng
    echo = not input.isatty() if echo is None else echo

    line_open = False                    # a prompt waits on the last line written

    def write(text: str, end: str = "\n") -> None:
        nonlocal line_open
        line_open = not (text + end).endswith("\n")     # first: Ctrl-C may come once it shows
        output.write(text + end)
        output.flush()

    def read() -> str | None:
        line = input.readline(LONGEST_LINE + 1)
        if len(line) > LONGEST_LINE and not line.endswith("\n"):
            while line and not line.endswith("\n"):     # skip the rest, a bounded bit at a time
                line = input.readline(LONGEST_LINE)
            return TOO_LONG
        return line or None

    try:
        return _play(state, seats, view, rng, chance_rng, echo, write, read)
    except KeyboardInterrupt:            # Ctrl-C: a prompt's line ends before the shell says so
        if line_open:
            output.write("\n")
            output.flush()
        raise


def _play(state: Any, seats: Sequence[Seat], view: TableView, rng: random.Random,
          chance_rng: random.Random, echo: bool, write, read) -> TableResult:
    """:func:`play_at_table`'s loop, writing and reading through ``write`` and ``read``."""

    public = state.game.perfect_information
    people = [s for s, seat in enumerate(seats) if seat.is_human]
    reader = people[0] if len(people) == 1 else None
    names = view.seat_names(reader)
    result, played = TableResult(state), 0
    if public:
        write(view.table(state, None))
    while not state.is_terminal():
        player = state.current_player()
        seat = None if player == CHANCE else seats[player]
        note, forced = "", False
        if seat is None:
            move = sample_chance(state, chance_rng)
        elif not seat.is_human:
            move, note = _agent_move(seat.agent, state, rng)
        elif len(state.legal_moves()) == 1:
            move, forced = state.legal_moves()[0], True
        else:
            if not public:
                write(view.table(state, player))
            move = _ask(state, view, names[player], read, write, echo)
            if move is None:
                write(f"game stopped after {plural(played, 'move')}.")
                result.state = state
                return result
        after = state.apply(move)
        played += seat is not None
        for line in view.narrate(Play(state, after, move, player, seat, forced, note), reader,
                                 names):
            write(line)
        if public:
            write(view.table(after, None))
        state = after
        result.moves.append(str(move))
    result.state, result.finished = state, True
    write(view.outcome(state, names))
    return result


def _agent_move(agent: Agent, state: Any, rng: random.Random) -> tuple[Any, str]:
    """The agent's move, and a note on what it thought when it can tell (a search)."""
    search = getattr(agent, "search", None)
    if search is None:
        return agent.choose(state, rng), ""
    found = search(state, rng)
    if not found.iterations:
        return found.move, " (forced)"
    return found.move, (f" ({found.iterations} iterations in {found.seconds:.1f} s, "
                        f"expects {found.expected:+.2f})")


def _ask(state: Any, view: TableView, who: str, read, write, echo: bool) -> Any | None:
    """The person's move (checked by the game: ``parse_move``, then ``apply``), or None when
    they stop."""
    moves = state.legal_moves()
    numbers = f"1–{len(moves)}, " if view.numbered else ""
    write(view.move_list(state))
    prompt = f"{who} to play ({numbers}? for moves, help, quit)> "
    while True:
        write(prompt, end="")
        line = read()
        if line is None:
            write("")
            return None
        text = line.strip()
        word = text.lower()
        if not text.isprintable():
            if echo:
                write("")
            write(f"illegal: a move is one line of at most {LONGEST_LINE:,} printable characters")
            continue
        if not text or word in QUIT_WORDS + LIST_WORDS + HELP_WORDS:
            if echo:
                write(text)
            if word in QUIT_WORDS:
                return None
            if word in LIST_WORDS:
                write(view.move_list(state))
            elif word in HELP_WORDS:
                write(f"{view.notation_help}\n{COMMANDS_HELP}")
            continue
        if view.numbered and text.isdigit():
            if echo:
                write(text)
            if len(text) <= LONGEST_NUMBER and 1 <= int(text) <= len(moves):
                return moves[int(text) - 1]
            write(f"choose 1–{len(moves)}")
            continue
        try:
            move = state.game.parse_move(state, text)
            state.apply(move)                # the engine says why a move is illegal here
        except KiwaraError as exc:
            if echo:
                write("")                    # a refused line is not echoed
            write(f"illegal: {exc}")
            continue
        if echo:
            write(text)
        return move
