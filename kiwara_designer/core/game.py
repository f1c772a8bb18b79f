"""The game protocol every agent, the play-test lab and the CLI's generic commands work through.

Shaped like OpenSpiel's Python games (``open_spiel/python/games``) with python-chess's neutral
outcome: a :class:`Game` declares itself and builds start states; a :class:`State` is an immutable
position offering ``current_player`` / ``legal_moves`` / ``apply`` / ``is_terminal`` /
``returns``, chance outcomes at chance nodes, and what each player may see
(``information_state``, ``observation``) with ``determinize`` to redraw what they may not.

Players are numbered 0 and 1 (seats, fixed for a whole game); :data:`CHANCE` and :data:`TERMINAL`
are the two other values ``current_player()`` may return.
"""
from __future__ import annotations

import functools
import importlib
import pkgutil
from types import ModuleType
import random
from dataclasses import dataclass, field
from typing import Any, Callable, Hashable, Mapping, Protocol, Sequence, runtime_checkable

from .errors import KiwaraError

CHANCE = -2      # a chance node: the next move is drawn from ``chance_outcomes()``
TERMINAL = -1    # the game is over (Kiwara's engine has always said -1 here)


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended, in terms every game shares.

    ``scores`` are the players' final totals (points, crowns, rounds won: the game says which in
    its docs), ``winner`` a seat or None for a draw, ``stats`` the game's own statistics of the
    finished game (plain JSON-ready values, named as in the game's metric registry)."""

    scores: tuple[float, ...]
    winner: int | None
    stats: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)

    @property
    def margin(self) -> float:
        """First seat's score minus second seat's."""
        return self.scores[0] - self.scores[1]


@runtime_checkable
class State(Protocol):
    """A position. Immutable: ``apply`` returns a new state. ``game`` is the :class:`Game` it
    belongs to (OpenSpiel's ``get_game()``): agents find the game's evaluation through it."""

    game: "Game"

    def current_player(self) -> int:
        """The seat to move, :data:`CHANCE` at a chance node, :data:`TERMINAL` at the end."""

    def legal_moves(self) -> list:
        """Every legal move in a fixed order (at a chance node: the chance outcomes' moves)."""

    def apply(self, move: Any) -> "State":
        """The state after ``move``; raises a :class:`KiwaraError` subclass for an illegal one."""

    def is_terminal(self) -> bool: ...

    def returns(self) -> tuple[float, ...]:
        """+1 for the winner, −1 for the loser, 0 each for a draw or an unfinished game."""

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        """At a chance node, ``(move, probability)`` pairs summing to 1; elsewhere ``[]``."""

    def information_state(self, player: int) -> Hashable:
        """A key equal for two states exactly when ``player`` cannot tell them apart (their own
        past moves and everything they saw, nothing they did not)."""

    def observation(self, player: int) -> Any:
        """What ``player`` sees now (for display and agents' features); a function of
        ``information_state(player)``."""

    def determinize(self, player: int, rng: random.Random) -> "State":
        """A state with the same ``information_state(player)``, everything ``player`` has not
        seen redrawn at random consistently with what they saw. The state itself under perfect
        information."""


@runtime_checkable
class Game(Protocol):
    """A game: its name, what kind of game it is, and its entry points.

    ``setup`` is what a game starts from beside its rules (a Kiwara layout; an Awimbawé deal, or
    None to deal at a chance node); ``variant`` the rules variant value (None: the default).
    A game may name, as ``headline_metric``, the one of its ``rank`` metrics that reports sort
    its experiments by (default: the lab's combined ``score``), and, as ``default_agents``, the
    pairing its play-tests use when none is asked for (default: greedy self-play)."""

    name: str
    perfect_information: bool
    players: int
    headline_metric: str
    default_agents: str

    def has_chance(self, variant: Any = None) -> bool:
        """Whether games of ``variant`` (None: the default) have chance nodes."""

    def has_hidden_information(self, variant: Any = None) -> bool:
        """Whether a player of ``variant`` may not see something another player sees (a hand);
        a deck's unknown order, unknown to all alike, is chance, not hidden information."""

    def new_state(self, setup: Any = None, variant: Any = None) -> State: ...

    def default_variant(self) -> Any: ...

    def parse_move(self, state: State, text: str) -> Any:
        """The move written ``text`` in the game's notation, for ``state``."""

    def evaluate(self, state: State, player: int) -> float:
        """Heuristic value of ``state`` for ``player`` (higher is better for them), computed only
        from what ``player`` may see."""

    def outcome(self, state: State) -> Outcome:
        """The neutral outcome of a finished game."""

    def evaluation_key(self, move: Any) -> Hashable:
        """Moves with equal keys lead, from one state, to states that :meth:`evaluate` scores
        alike, so a one-ply search evaluates one of them (the move itself when nothing is known)."""

    def tracker(self, state: State) -> "Tracker | None":
        """A fresh :class:`Tracker` of the game's own per-move statistics from ``state`` on, or
        None if the game keeps none."""

    def metrics(self) -> Sequence["Metric"]:
        """The game's own metrics of a set of games, in the order they are reported."""

    def record(self, setup: Any, variant: Any, moves: Sequence[str], **meta: Any) -> Any:
        """The game's record of a game played from ``setup`` (``meta``: players, seeds)."""

    def setup_key(self, setup: Any) -> str:
        """The text under which the lab stores games played from ``setup``: equal for two setups
        exactly when they play the same game (Kiwara: the layout's form up to the half-turn)."""

    def setup_from_key(self, key: str) -> Any:
        """The setup a key stands for (the one the lab plays): ``setup_key`` of it is ``key``."""

    def compiled(self, state: State) -> "CompiledState | None":
        """``state``'s twin in the game's compiled core, None without one (see
        :class:`CompiledState`)."""

    def stage(self, state: State) -> Hashable | None:
        """The stage ``state`` is in (an Awimbawé round), or None for a game without stages: a
        search's playout may stop where its stage ends (:mod:`kiwara_designer.agents.playouts`)."""

    def stage_returns(self, state: State) -> tuple[float, ...]:
        """What the end of a stage is worth to each player, from public facts only."""


    # -- the lab's questions about setups (issue 21: the lab knows no game) -----------------------
    # Optional: GameBase gives the defaults said here.

    setup_noun: str
    """What the game calls a setup, in the lab's words to a person ("layout"). Default: "setup"."""

    def setup_descriptors(self, setup: Any) -> Mapping[str, Any]:
        """What describes ``setup``, as JSON-ready values the lab stores beside it (for
        regressions and reports; Kiwara: a layout's size mix, rivers, territory graph).
        Default: nothing, ``{}``."""

    def setup_text(self, setup: Any) -> str:
        """``setup`` on one line, for ranking tables and reports. Default: its ``setup_key``."""

    def setup_picture(self, setup: Any) -> str | None:
        """An inline SVG picture of ``setup`` for the HTML report (Kiwara: the board's
        thumbnail). Default: None, no picture."""

    def rank_columns(self, setup: Any) -> Sequence[tuple[str, str]]:
        """The ranking table's columns for ``setup`` after the common ones, as (header, cell)
        texts already padded to one width; a game giving some is ranked with an id column for
        its setups. Default: none, ``()``: the lab then shows the game, setup and rules played."""

    def report_sections(self, store: Any, rows: Sequence[Any], top: int) -> Sequence[str] | None:
        """The game's own sections of the lab's HTML report (HTML text, the first an ``<h2>``)
        for its experiments ``rows`` of the results ``store``, best ``top`` shown (Kiwara: the
        best boards, races, what makes a board fair, distributions). Default: None, the lab's
        table of the experiments by the headline metric, with the setups' pictures."""
    # -- end of the lab's questions about setups ------------------------------------------------


class GameBase:
    """The defaults of a game's optional members, so a game declares only what it has (as
    OpenSpiel's ``GameType`` and python-chess's ``Board`` defaults): no chance, perfect
    information, no stages, no statistics of its own, the lab's ``score`` as headline, moves
    parsed by their text among the legal ones, a neutral evaluation. A game subclasses it and
    sets ``name``; agents and the lab then call every member of :class:`Game` directly."""

    name: str = ""
    perfect_information = True
    chance = False              # chance nodes in the default variant; see has_chance
    players = 2
    headline_metric = "score"   # the lab's combined score; a game may name one of its metrics
    default_agents = "greedy,greedy"    # every game has greedy; a game may choose stronger

    def has_chance(self, variant: Any = None) -> bool:
        return self.chance

    def has_hidden_information(self, variant: Any = None) -> bool:
        return not self.perfect_information

    def default_variant(self) -> Any:
        return None

    def parse_move(self, state: State, text: str) -> Any:
        for move in state.legal_moves():
            if str(move) == text.strip():
                return move
        raise KiwaraError("not a legal move here")

    def evaluate(self, state: State, player: int) -> float:
        return state.returns()[player] if state.is_terminal() else 0.0

    def evaluation_key(self, move: Any) -> Hashable:
        return move

    def tracker(self, state: State) -> "Tracker | None":
        return None

    def metrics(self) -> Sequence["Metric"]:
        return ()

    def stage(self, state: State) -> Hashable | None:
        return None

    def stage_returns(self, state: State) -> tuple[float, ...]:
        return state.returns()

    def outcome(self, state: State) -> Outcome:
        returns = state.returns()
        best = max(returns)
        winners = [p for p, r in enumerate(returns) if r == best]
        return Outcome(tuple(returns), winners[0] if len(winners) == 1 else None)

    # -- the lab's questions about setups (see Game): nothing to describe, draw or show apart ----
    setup_noun = "setup"

    def setup_descriptors(self, setup: Any) -> Mapping[str, Any]:
        return {}

    def setup_text(self, setup: Any) -> str:
        return self.setup_key(setup)

    def setup_picture(self, setup: Any) -> str | None:
        return None

    def rank_columns(self, setup: Any) -> Sequence[tuple[str, str]]:
        return ()

    def report_sections(self, store: Any, rows: Sequence[Any], top: int) -> Sequence[str] | None:
        return None
    # -- end of the lab's questions about setups ------------------------------------------------

    def compiled(self, state: State) -> "CompiledState | None":
        """``state``'s twin in the game's compiled core, or None (no core, or not for this
        variant): searches and whole games then run in Python."""
        return None

    # A game is one instance, the module global named as its name in capitals (KIWARA): a worker
    # process unpickles it as that instance, not a copy.
    def __reduce__(self) -> str:
        return self.name.upper()

    def __repr__(self) -> str:
        return self.name.upper()


@dataclass(frozen=True)
class PlayedGame:
    """A whole game, the lab's per-game trace: the moves (if kept), the number of legal moves at
    each turn, the first player's evaluated lead after each move (the final score difference
    after the last), the final state and the tracker's statistics."""

    moves: tuple
    legal: tuple[int, ...]
    leads: tuple[float, ...]
    final: State
    tracker_stats: Mapping[str, Any]


@runtime_checkable
class CompiledState(Protocol):
    """A state's twin in a game's compiled core (OpenSpiel: C++ rules driven from Python).
    Each method does inside the core exactly what the Python loop it replaces does, drawing the
    same numbers from the same ``random.Random`` (left in the same state), so a game is the same
    whichever runs it; None where the core cannot (an agent or playout it does not know)."""

    def perft(self, depth: int) -> int: ...

    def perft_divide(self, depth: int) -> list[int]:
        """perft(depth - 1) under each legal move, in move order."""

    def search(self, iterations: int | None, deadline: float | None, playout: str,
               exploration: float, rng: random.Random
               ) -> tuple[int, list[tuple[int, int, float]]] | None:
        """UCT search from this state (``mcts``'s loop): the iterations done and each root child
        as (index in ``legal_moves()``, visits, sum of returns), in the order they were made."""

    def solve(self, budget: int) -> tuple[int, int] | None:
        """The exact endgame search (``agents/solver.py``): (value, index) or None."""

    def greedy(self, rng: random.Random) -> int | None:
        """The greedy agent's choice, as an index in ``legal_moves()``."""

    def play(self, agents: Sequence[Any], seeds: Sequence[str],
             keep_moves: bool = True) -> PlayedGame | None:
        """The whole game from here, ``agents[seat]`` drawing from ``random.Random(seeds[seat])``
        (a stream made for this game alone); agents describe themselves by ``core_spec()``.
        Without ``keep_moves`` the trace's moves are left out (only records need them)."""


@runtime_checkable
class Tracker(Protocol):
    """Follows one game move by move for statistics only the whole course shows (Kiwara: how
    often each territory changed hands). The lab calls ``update`` after every move."""

    def update(self, state: State) -> None: ...

    def stats(self) -> Mapping[str, Any]:
        """Plain JSON-ready values, merged into the game's :attr:`Outcome.stats`."""


@dataclass(frozen=True)
class Metric:
    """One of a game's own metrics over a set of finished games, the play-test lab's registry
    entry (as GerryChain's updaters): ``compute(games, setup)`` reads the games' ``stats`` and
    returns a value with ``to_json()``.

    A metric with a ``label`` is one row of the lab's text table (its value a rate or a summary);
    a ``table`` one prints its own lines (``value.text_lines(label_width)``) after the rows.
    ``rank`` names the single numbers it offers to ``kiwara rank --by``."""

    name: str
    compute: Callable[[Sequence[Any], Any], Any]
    label: str | None = None
    table: bool = False
    rank: Mapping[str, Callable[[Any], float | None]] = field(default_factory=dict)


class GameNotFoundError(KiwaraError):
    """A game name that is not in the registry."""


# The registry: name → "module:attribute" of the Game object, imported on first use so that
# naming a game costs nothing until it is played. Every package under GAMES_PACKAGE is a game
# that registers itself by being there (its module ``game`` holds the instance named as the
# game in capitals: games/kiwara/game.py's KIWARA); a game kept elsewhere (the tests' toys, a
# plug-in) calls register_game.
GAMES_PACKAGE = "kiwara_designer.games"
GAMES: dict[str, str] = {}    # games registered from elsewhere, by register_game
DEFAULT_GAME = "kiwara"       # what the lab plays when no game is named: the tool's own game


def register_game(name: str, target: str) -> None:
    """Register the game ``name`` as ``"module:attribute"`` of its Game object."""
    GAMES[name] = target


@functools.cache
def _packaged_games() -> dict[str, str]:
    package = importlib.import_module(GAMES_PACKAGE)
    return {found.name: f"{GAMES_PACKAGE}.{found.name}.game:{found.name.upper()}"
            for found in pkgutil.iter_modules(package.__path__) if found.ispkg}


def _registry() -> dict[str, str]:
    return {**_packaged_games(), **GAMES}


def game_names() -> list[str]:
    return sorted(_registry())


def get_game(name: str = DEFAULT_GAME) -> Game:
    """The registered game called ``name``."""
    try:
        target = _registry()[name]
    except (KeyError, TypeError):
        raise GameNotFoundError(f"unknown game {name!r}; known games: "
                                f"{', '.join(game_names())}") from None
    module, _, attribute = target.partition(":")
    return getattr(importlib.import_module(module), attribute)


def game_part(name: str, part: str) -> ModuleType | None:
    """The module ``part`` of game ``name``'s package (the shells ask each game for its
    commands, ``cli``, and its studio adapter, ``studio``), None if the game has no such part."""
    module_name = f"{_registry()[name].partition(':')[0].rpartition('.')[0]}.{part}"
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and (module_name + ".").startswith(exc.name + "."):
            return None                  # no such part (its own imports failing is a bug)
        raise


def sample_chance(state: State, rng: random.Random) -> Any:
    """Draw a chance node's move with its probability, by one ``rng.random()`` call (so the
    draws are reproducible and independent of the players' generators)."""
    outcomes = state.chance_outcomes()
    if not outcomes:
        raise KiwaraError("not a chance node: there is no chance outcome to draw")
    x, total = rng.random(), 0.0
    for move, probability in outcomes:
        total += probability
        if x < total:
            return move
    return outcomes[-1][0]


def perft(state: State, depth: int, *, moves: Callable[[Any], list] | None = None,
          apply: Callable[[Any, Any], Any] | None = None) -> int:
    """Number of move sequences of length ``depth`` from ``state`` (perft(0) = 1; chance moves
    count as moves, each outcome once; a finished game has none), the move generator's truth as
    in chess engines. ``moves(state)`` and ``apply(state, move)`` default to the protocol's
    ``legal_moves`` and ``apply``; a game whose rules count moves otherwise (Awimbawé's record
    notation) or has an unchecked fast apply passes its own."""
    if depth < 0:
        raise KiwaraError("perft depth must be >= 0")
    if moves is None and apply is None:
        fast = compiled_twin(state)
        if fast is not None:
            return fast.perft(depth)
    moves = moves or _legal_moves
    apply = apply or _apply

    def count(state: Any, depth: int) -> int:
        if depth == 0:
            return 1
        children = moves(state)
        if depth == 1:        # bulk counting: the leaves are not played
            return len(children)
        return sum(count(apply(state, m), depth - 1) for m in children)
    return count(state, depth)


def perft_divide(state: State, depth: int, *, moves: Callable[[Any], list] | None = None,
                 apply: Callable[[Any, Any], Any] | None = None) -> list[tuple[Any, int]]:
    """perft(depth - 1) under each move from ``state``, in move order (depth >= 1)."""
    if depth < 1:
        raise KiwaraError("perft_divide needs depth >= 1")
    if moves is None and apply is None:
        fast = compiled_twin(state)
        if fast is not None:
            return list(zip(state.legal_moves(), fast.perft_divide(depth)))
    apply = apply or _apply
    return [(m, perft(apply(state, m), depth - 1, moves=moves, apply=apply))
            for m in (moves or _legal_moves)(state)]


def compiled_twin(state: State) -> CompiledState | None:
    """``state``'s twin in its game's compiled core, or None (no core, no such variant there, or
    a game that declares no ``compiled``)."""
    compiled = getattr(getattr(state, "game", None), "compiled", None)
    return compiled(state) if compiled is not None else None


def _legal_moves(state: State) -> list:
    return state.legal_moves()


def _apply(state: State, move: Any) -> State:
    return state.apply(move)
