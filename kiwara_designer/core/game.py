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

import importlib
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
    its experiments by (default: the lab's combined ``score``)."""

    name: str
    perfect_information: bool
    chance: bool
    players: int

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
# naming a game costs nothing until it is played. Adding a game is one line here.
GAMES: dict[str, str] = {
    "awimbawe": "kiwara_designer.games.awimbawe.game:AWIMBAWE",
    "kiwara": "kiwara_designer.games.kiwara.game:KIWARA",
}
DEFAULT_GAME = "kiwara"   # what the lab plays when no game is named


def game_names() -> list[str]:
    return sorted(GAMES)


def get_game(name: str = DEFAULT_GAME) -> Game:
    """The registered game called ``name``."""
    try:
        target = GAMES[name]
    except KeyError:
        raise GameNotFoundError(f"unknown game {name!r}; known games: "
                                f"{', '.join(game_names())}") from None
    module, _, attribute = target.partition(":")
    return getattr(importlib.import_module(module), attribute)


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
    apply = apply or _apply
    return [(m, perft(apply(state, m), depth - 1, moves=moves, apply=apply))
            for m in (moves or _legal_moves)(state)]


def _legal_moves(state: State) -> list:
    return state.legal_moves()


def _apply(state: State, move: Any) -> State:
    return state.apply(move)
