"""A game of Kiwara in the terminal: a person against an agent, two agents, or two people.

The loop is a library function over two callables (``read`` a line, ``write`` text), so the
command line, a notebook or a test can drive it; ``kiwara play`` is a thin shell over it.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable

from ...agents import Agent, make_agent
from ...core.game import CHANCE, sample_chance
from ...core.errors import KiwaraError
from ...core.numbers import plural
from .view import (PLAYER_COLOURS, PLAYER_NAMES, dealt_text, draw_game, list_moves, outcome_line,
                   styled)

HUMAN = "human"
QUIT_WORDS = {"quit", "q", "exit", "resign"}
LIST_WORDS = {"?", "moves", "list"}
HELP = ("Type a move in notation: T7 (opening: totem to 7), Zc3>12 (zebra on c3, totem to 12), "
        "Cb2xc2>4 (crocodile on b2 swapping with the gazelle on c2), Gf5 (last placement), pass; "
        "in a deck game +drums:14 uses a card (the card's name, then its target). "
        "Animals Z G E L C = zebra gazelle elephant lion crocodile. "
        "The numbers around the board are the totem's stones (0 above column a, then "
        "clockwise); the totem's stone shows an arrow pointing at the column or row it faces. "
        "'?' lists the legal moves, 'quit' ends the game.")


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


# -- the game loop ----------------------------------------------------------------------------
@dataclass
class PlayResult:
    state: Any
    moves: list[str] = field(default_factory=list)
    finished: bool = False


def _agent_move(agent: Agent, state: Any, rng: random.Random) -> tuple[Any, str]:
    """The agent's move, and a note on what it thought when it can tell (MCTS)."""
    search = getattr(agent, "search", None)
    if search is None:
        return agent.choose(state, rng), ""
    found = search(state, rng)
    if not found.iterations:
        return found.move, " (forced)"
    return found.move, (f" ({found.iterations} iterations in {found.seconds:.1f} s, "
                        f"expects {found.expected:+.2f})")


def play_game(state: Any, seats: tuple[Seat, Seat], rng: random.Random,
              read: Callable[[str], str | None], write: Callable[[str], None],
              colour: bool = False) -> PlayResult:
    """Play from ``state`` to the end (or until a person quits or input ends).

    ``read(prompt)`` returns a line, or None at the end of input. A person's forced pass (empty
    reserve) is played for them. Chance moves (a deck game's deals, order hidden from every
    seat) are drawn with ``rng``.
    """
    result = PlayResult(state)
    write(draw_game(state, [seat.label for seat in seats], colour))
    while not state.is_terminal():
        player = state.current_player()
        if player == CHANCE:
            move = sample_chance(state, rng)
            after = state.apply(move)
            write(dealt_text(state, after, colour))
            state = after
            result.moves.append(str(move))
            write(draw_game(state, [seat.label for seat in seats], colour))
            continue
        seat = seats[player]
        who = styled(PLAYER_NAMES[player], colour, fg=PLAYER_COLOURS[player], bold=True)
        if not seat.is_human:
            move, note = _agent_move(seat.agent, state, rng)
            write(f"{who} ({seat.label}) plays {move}{note}")
            after = state.apply(move)
        elif [m.is_pass for m in state.legal_moves()] == [True]:
            move = state.legal_moves()[0]
            write(f"{who} has no token left in hand and passes")
            after = state.apply(move)
        else:
            asked = _ask_move(state, who, read, write)
            if asked is None:
                write(f"game stopped after {plural(state.ply, 'move')}.")
                result.state = state
                return result
            move, after = asked
        state = after
        result.moves.append(str(move))
        write(draw_game(state, [seat.label for seat in seats], colour))
    result.state, result.finished = state, True
    write(outcome_line(state))
    return result


def _ask_move(state, who: str, read, write) -> tuple[Any, Any] | None:
    """A person's move and the state after it, or None when they stop."""
    from . import Move
    while True:
        text = read(f"{who} to play (? for moves, quit to stop)> ")
        if text is None:
            return None
        text = text.strip()
        if not text:
            continue
        word = text.lower()
        if word in QUIT_WORDS:
            return None
        if word in LIST_WORDS:
            write(list_moves(state))
            continue
        if word in {"help", "h"}:
            write(HELP)
            continue
        try:
            move = Move.parse(text, state.layout.grid)
            return move, state.apply(move)     # the engine says why a move is illegal
        except KiwaraError as exc:
            write(f"not played: {exc} (type ? for the legal moves, help for the notation)")


# -- a session: what ``kiwara play`` sets up ---------------------------------------------------
@dataclass
class Session:
    layout_source: str
    layout: Any
    variant: Any
    variant_source: str | None
    seats: tuple[Seat, Seat]
    seed: int
    state: Any

    def play(self, read, write, colour: bool = False) -> PlayResult:
        write(f"kiwara play: {self.layout_source} layout, "
              f"{self.variant.name if self.variant_source else 'classic'} rules, "
              f"first {self.seats[0].label} vs second {self.seats[1].label}, seed {self.seed}")
        return play_game(self.state, self.seats, random.Random(self.seed), read, write, colour)

    def record(self, result: PlayResult):
        """The engine's game record of what was played (a stopped game too)."""
        from . import KiwaraRecord
        extra = {"players": [s.label for s in self.seats], "seed": self.seed}
        if result.finished:
            scoring = result.state.scoring()
            extra["result"] = {"scores": list(scoring.totals), "winner": scoring.winner}
        return KiwaraRecord.from_moves(self.layout, self.variant, result.moves, **extra)


def start_session(layout_name: str, first: str, second: str, variant_file: str | None = None,
                  seed: int | None = None) -> Session:
    """Load the layout and variant, parse both seats and open the game; errors are
    :class:`KiwaraError` naming the bad option."""
    from . import KIWARA, load_variant, new_game
    from .formats import load_layout

    seats = parse_seats({"--first": first, "--second": second}, KIWARA)
    layout = load_layout(layout_name)
    variant = load_variant(variant_file)
    if seed is None:
        seed = random.SystemRandom().randrange(10 ** 6)
    return Session(layout_name, layout, variant, variant_file, (seats[0], seats[1]), seed,
                   new_game(layout, variant))
