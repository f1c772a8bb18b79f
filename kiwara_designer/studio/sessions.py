"""Games against an agent, for every game that has a studio adapter: sessions, the opponent from
the agent registry, the seed rule, and the move loop (the person's move, the agent's turn as a
background job, chance nodes drawn, forced moves played).

Nothing here knows a game: what is a game's own comes from its adapter (:mod:`.adapters`). The
seed rule is one for all games (:func:`session_seed`, over the table's
:func:`~kiwara_designer.table.seed_is_secret`, which the terminal's games follow too).
"""
from __future__ import annotations

import itertools
import random
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from ..agents import agent_kinds, agent_syntax, make_agent
from ..core.checks import MAX_TEXT, need_choice, need_int, need_text, seed_or_new
from ..core.errors import KiwaraError
from ..core.game import CHANCE, sample_chance
from ..core.io import BUILTIN_PREFIX
from ..table import secret_seed, seed_is_secret
from .adapters import adapter
from .jobs import Job, Jobs
from .requests import StudioError, call_with_fields

MAX_GAMES = 200                # open games; the oldest is dropped beyond
MCTS_MAX_ITERATIONS = 5000
DEFAULT_ITERATIONS = 500
LOG_LINES = 40                 # the log's last lines in a view
COMMON_FIELDS = ("agent", "iterations", "seat", "variant", "seed")   # new_game's own


# -- the opponent ----------------------------------------------------------------------------------
def agent_choices(game: Any) -> list[str]:
    """The agent kinds that may face a person at ``game``: decided from what their seat sees."""
    return agent_kinds(game, honest=True)


def budgeted_kinds(game: Any) -> list[str]:
    """The kinds among :func:`agent_choices` that take a budget (the registry writes them
    ``KIND:N``): the page offers them a strength."""
    return re.findall(r"([\w-]+):N\b", agent_syntax(game, honest=True))


def agent_spec(game: Any, kind: Any, iterations: Any = None) -> str:
    """``random``, ``greedy``, ``mcts:N``… from the page's choice of agent and strength."""
    kind = need_choice(kind, "agent", agent_choices(game))
    if kind not in budgeted_kinds(game):
        return kind
    n = DEFAULT_ITERATIONS if iterations is None else need_int(
        iterations, f"{kind} iterations", 10, MCTS_MAX_ITERATIONS)
    return f"{kind}:{n}"


def built_in_variant(found: Any, name: Any) -> Any:
    """One of the game's built-in rules variants by name (the page never names a file: a file
    of that name in the server's folder is not read)."""
    chosen = need_choice(name or "classic", "variant", found.variants.builtin_names())
    return found.variants.load(BUILTIN_PREFIX + chosen)


# -- the seed rule ---------------------------------------------------------------------------------
def session_seed(adapter: Any, variant: Any, asked: Any) -> int:
    """A new game's seed: secret where :func:`seed_is_secret` (and then a request may not choose
    it), else the request's or a new one."""
    if not seed_is_secret(adapter.game, variant):
        return seed_or_new(asked)
    if asked is not None:
        raise StudioError(f"seed: {adapter.title} games with these rules are seeded by the "
                          f"studio, never chosen (it would tell you every deal); it is shown "
                          f"once the game is over")
    return secret_seed()


# -- sessions --------------------------------------------------------------------------------------
@dataclass
class Session:
    """A game between the page's person and an agent. ``lock`` guards the state: the agent's
    job and the person's moves never interleave."""

    id: str
    adapter: Any
    state: Any
    human: int                       # the person's seat
    agent: Any
    agent_label: str
    seed: int
    seed_secret: bool                # withheld until the game is over
    rng: random.Random
    chance_rng: random.Random
    setup: Any = None
    variant: Any = None
    moves: list = field(default_factory=list)    # every move as text, chance's included
    log: list = field(default_factory=list)
    last: dict | None = None
    job: Job | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def game(self) -> Any:
        return self.adapter.game

    @property
    def busy(self) -> bool:
        return self.job is not None and self.job.running

    @property
    def names(self) -> list[str]:
        """Each seat's name at the table: "you", and the agent's label (one name everywhere)."""
        return ["you" if s == self.human else self.agent_label for s in (0, 1)]

    @property
    def shown_seed(self) -> int | None:
        """The seed, once the person may know it."""
        return None if self.seed_secret and not self.state.is_terminal() else self.seed


class GameSessions:
    """Open games of one studio and their background jobs (the agents' searches)."""

    def __init__(self) -> None:
        self.jobs = Jobs()
        self.sessions: OrderedDict[str, Session] = OrderedDict()
        self._lock = threading.Lock()
        self._numbers = itertools.count(1)

    # -- opening ---------------------------------------------------------------------------------
    def new_game(self, game: str, agent: Any = "greedy", iterations: Any = None, seat: Any = 0,
                 variant: Any = None, seed: Any = None, **setup: Any) -> dict:
        """A new game of ``game`` against an agent; the person plays seat ``seat``. ``setup``:
        the game's own fields (its adapter's ``setup`` names them: Kiwara's ``rows``)."""
        found = adapter(game)
        board = call_with_fields(found.setup, setup, listed=COMMON_FIELDS)
        rules = built_in_variant(found, variant)
        spec = agent_spec(found.game, agent, iterations)
        human = need_int(seat, "seat", 0, 1)
        seed = session_seed(found, rules, seed)
        session = self._open(found, found.game.new_state(board, rules), human, spec, seed,
                             board, rules)
        return self.view(session)

    def load_game(self, game: str, record: Any, agent: Any = "greedy", iterations: Any = None,
                  seat: Any = None) -> dict:
        """A game from a record's text (as downloaded), replayed move by move; the person takes
        ``seat`` (default: the player to move) and the game goes on from there. The record's
        seed is kept only where it is no secret."""
        found = adapter(game)
        loaded = found.load(need_text(record, "record", MAX_TEXT))
        state = loaded.state
        if seat is None:
            human = state.current_player() if state.current_player() in (0, 1) else 0
        else:
            human = need_int(seat, "seat", 0, 1)
        spec = agent_spec(found.game, agent, iterations)
        if seed_is_secret(found.game, loaded.variant) or loaded.seed is None:
            seed = session_seed(found, loaded.variant, None)
        else:
            seed = loaded.seed
        session = self._open(found, state, human, spec, seed, loaded.setup, loaded.variant,
                             loaded.moves)
        session.log.append(loaded.note)
        return self.view(session)

    def _open(self, found: Any, state: Any, human: int, spec: str, seed: int, setup: Any,
              variant: Any, moves: list | None = None) -> Session:
        """A new game's session: the agent from its spec, one random stream for the agent's
        choices and one for chance (so the agent's appetite never shifts the deals); chance
        nodes at the start are drawn at once."""
        agent = make_agent(spec, found.game, honest=True)
        secret = seed_is_secret(found.game, variant)
        with self._lock:
            session = Session(f"g{next(self._numbers)}", found, state, human, agent, spec, seed,
                              secret, random.Random(f"{seed}:agent"),
                              random.Random(f"{seed}:chance"), setup, variant,
                              moves=list(moves or ()))
            self.sessions[session.id] = session
            while len(self.sessions) > MAX_GAMES:
                self.sessions.popitem(last=False)
        with session.lock:
            self._settle(session)
        return session

    def session(self, game_id: Any, game_name: str) -> Session:
        session = self.sessions.get(game_id) if isinstance(game_id, str) else None
        if session is None or session.game.name != game_name:
            raise StudioError(f"no {game_name} game of that id (start a new one)")   # no echo
        return session

    # -- moves -----------------------------------------------------------------------------------
    def play(self, game_id: Any, move: Any, game_name: str) -> dict:
        """The person's move (in notation). Only the game's ``parse_move`` reads it, and it says
        why an illegal one is refused in words the person may know (Awimbawé's never repeat the
        text, nor tell a blind snake's chosen pick from another); nothing here echoes it."""
        session = self.session(game_id, game_name)
        text = need_text(move, "move", 80, echo=False)
        with session.lock:
            if session.busy:
                raise StudioError("the agent is still thinking; wait for its move")
            state = session.state
            if state.is_terminal():
                raise StudioError("the game is over: start a new one")
            if state.current_player() != session.human:
                raise StudioError("it is the agent's turn, not yours")
            self._apply(session, session.game.parse_move(state, text))
            self._settle(session)
        return self.view(session)

    def agent_turn(self, game_id: Any, game_name: str) -> Job | None:
        """Start the agent's moves in the background (None when it is not the agent's turn):
        it plays until the person is to move or the game is over."""
        session = self.session(game_id, game_name)
        with session.lock:
            if session.busy:
                return session.job
            if session.state.is_terminal() or session.state.current_player() == session.human:
                return None

            def work(job: Job) -> dict:
                with session.lock:
                    while not session.state.is_terminal() and \
                            session.state.current_player() != session.human:
                        job.check()
                        try:
                            self._apply(session, session.agent.choose(session.state,
                                                                      session.rng))
                        except KiwaraError:
                            # the engine's words would be about the agent's own cards, which
                            # the person must not read (a bug in the agent: never expected)
                            raise StudioError("the agent could not make a legal move (a bug in "
                                              "the agent); start a new game") from None
                        self._settle(session)
                return {"game": session.id}

            def finish(job: Job) -> None:
                if job.state == "failed":
                    session.log.append(f"the agent failed: {job.error}")

            session.job = self.jobs.start("agent", work, finish)
            return session.job

    def _apply(self, session: Session, move: Any) -> None:
        before = session.state
        session.state = before.apply(move)
        session.moves.append(str(move))
        lines, session.last = session.adapter.tell(before, session.state, move, session.human,
                                                   session.names)
        session.log += lines

    def _settle(self, session: Session) -> None:
        """Draw chance nodes, and play the person's forced moves: nothing to decide there."""
        while not session.state.is_terminal():
            player = session.state.current_player()
            if player == CHANCE:
                move = sample_chance(session.state, session.chance_rng)
            elif player == session.human:
                move = session.adapter.forced_move(session.state)
            else:
                move = None
            if move is None:
                return
            self._apply(session, move)

    # -- what the page sees ----------------------------------------------------------------------
    def view(self, session: Session) -> dict:
        """Every game answer (new, move, view, the agent's turn) is this dict: the adapter's
        table from the person's seat, their own legal moves on their turn, the log told from
        their seat, and the seed once they may know it."""
        state = session.state
        over = state.is_terminal()
        yours = not over and state.current_player() == session.human and not session.busy
        found = session.adapter
        view = {
            "game": session.game.name, "id": session.id, "seats": session.names,
            "you": session.human, "your_turn": yours, "over": over,
            **found.view(state, session.human, session.names, session.last),
            "legal": [found.move_json(state, m) for m in state.legal_moves()] if yours else [],
            "log": session.log[-LOG_LINES:],
            "busy": session.job.id if session.busy else None,
        }
        if session.shown_seed is not None:
            view["seed"] = session.shown_seed
        return view

    def game_view(self, game_id: Any, game_name: str) -> dict:
        return self.view(self.session(game_id, game_name))

    def record(self, game_id: Any, game_name: str) -> dict:
        """The game's record as its adapter gives it (the seed in it once it is no secret)."""
        session = self.session(game_id, game_name)
        with session.lock:
            return session.adapter.record(session, session.shown_seed)

    def close(self) -> None:
        self.jobs.cancel_all()
