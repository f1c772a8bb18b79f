"""Monte Carlo tree search with the UCT selection rule (Kocsis & Szepesvári, 2006).

Each iteration walks down the tree picking the child with the best upper confidence bound
``mean + c·sqrt(ln N / n)``, adds one untried move, plays the game out to the end (uniformly at
random, or greedy-biased), and credits the game's ``returns()`` to every node on the way back,
each from the view of the player who made the move into it. Passes need no special case: a node
remembers who moved, not whose turn alternates. At a chance node the walk and the playouts draw
the outcome with its probability (``sample_chance``). The move played is the most visited child.

Searching the true state needs perfect information: for a game with hidden information the
agent refuses, naming ``ismcts`` (information-set MCTS over determinizations) instead.

With an iteration budget the search is a pure function of the state and the rng; a time budget
makes the number of iterations (and so the move) depend on the machine's speed.
"""
from __future__ import annotations

import math
import numbers
import random
import re
import time
from dataclasses import dataclass
from typing import Any, Callable

from ..core.game import CHANCE, compiled_twin, sample_chance
from ..core.errors import KiwaraError
from ..core.numbers import parse_whole, shorten
from .base import AgentSpecError, legal_moves_to_choose, register_agent
from .playouts import PLAYOUTS

DEFAULT_ITERATIONS = 500


class _Node:
    __slots__ = ("state", "move", "parent", "mover", "player", "children", "untried",
                 "visits", "value")

    def __init__(self, state: Any, move: Any, parent: "_Node | None", mover: int) -> None:
        self.state, self.move, self.parent, self.mover = state, move, parent, mover
        self.player = state.current_player()
        self.children: list[_Node] = []
        self.untried: list | None = None      # legal moves not yet expanded, computed on demand
        self.visits = 0
        self.value = 0.0                      # sum of returns for ``mover``

    def untried_moves(self) -> list:
        if self.untried is None:
            self.untried = [] if self.player < 0 else list(self.state.legal_moves())
        return self.untried

    def chance_child(self, move: Any) -> "_Node":
        """The child after chance drew ``move`` (made on its first draw; nobody is credited)."""
        for child in self.children:
            if child.move == move:
                return child
        child = _Node(self.state.apply(move), move, self, CHANCE)
        self.children.append(child)
        return child

    def select(self, exploration: float) -> "_Node":
        log_n = math.log(self.visits)
        best, best_score = None, -math.inf
        for child in self.children:
            score = child.value / child.visits + exploration * math.sqrt(log_n / child.visits)
            if score > best_score:
                best, best_score = child, score
        return best


@dataclass(frozen=True)
class MoveStats:
    move: Any
    visits: int
    mean: float     # average return for the player choosing at the root, in [-1, 1]


@dataclass(frozen=True)
class SearchResult:
    move: Any
    iterations: int
    seconds: float
    children: tuple[MoveStats, ...]   # most visited first

    @property
    def expected(self) -> float:
        """Mean return of the chosen move for the player to move (−1 lost … +1 won)."""
        return self.children[0].mean if self.children else 0.0




def check_search_numbers(who: str, iterations: Any = None, seconds: Any = None,
                         exploration: Any = 1.0) -> None:
    """The numbers of a search, checked once for both engines (a NaN exploration left the
    compiled search without a child to select, the Python one with None): a whole number of
    iterations from 1, a time budget in seconds above 0 and finite, an exploration constant
    finite and from 0. ValueError otherwise, naming the setting."""
    if iterations is not None and (isinstance(iterations, bool) or
                                   not isinstance(iterations, numbers.Integral) or iterations < 1):
        raise ValueError(f"{who}: iterations must be a whole number from 1, got {iterations!r}")
    if seconds is not None and not (_is_number(seconds) and math.isfinite(seconds)
                                    and seconds > 0):
        raise ValueError(f"{who}: seconds must be a finite number above 0, got {seconds!r}")
    if not (_is_number(exploration) and math.isfinite(exploration) and exploration >= 0):
        raise ValueError(f"{who}: exploration must be a finite number from 0, got "
                         f"{exploration!r}")


def _is_number(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def check_search_settings(agent: Any) -> None:
    """One check for every search agent (mcts, ismcts): a time budget replaces the iteration
    budget, one of them is needed, the playout policy must be known, and the numbers must be
    ones a search can use (:func:`check_search_numbers`)."""
    if agent.seconds is not None:
        object.__setattr__(agent, "iterations", None)
    if agent.iterations is None and agent.seconds is None:
        raise ValueError(f"{type(agent).__name__} needs an iteration or a time budget")
    if agent.playout not in PLAYOUTS:
        raise ValueError(f"unknown playout {agent.playout!r}")
    check_search_numbers(type(agent).__name__, agent.iterations, agent.seconds,
                         agent.exploration)


def search_within_budget(agent: Any, started: float, iterate: Callable[[], None]) -> int:
    """Call ``iterate`` until ``agent``'s budget is spent (``agent.iterations`` calls, or
    ``agent.seconds`` since ``started``; at least one call); the number of calls."""
    deadline = None if agent.seconds is None else started + agent.seconds
    iterations = 0
    while True:
        iterate()
        iterations += 1
        if deadline is None:
            if iterations >= agent.iterations:
                return iterations
        elif time.perf_counter() >= deadline:
            return iterations


@dataclass(frozen=True)
class MctsAgent:
    """UCT search with a budget of ``iterations`` or of ``seconds`` per move (exactly one of
    them), playouts ``"random"`` or ``"greedy"``; ``exploration`` is UCT's constant c (returns
    lie in [−1, 1])."""

    name: str = f"mcts:{DEFAULT_ITERATIONS}"
    iterations: int | None = DEFAULT_ITERATIONS
    seconds: float | None = None
    playout: str = "random"
    exploration: float = 1.0

    def __post_init__(self) -> None:
        check_search_settings(self)

    def choose(self, state: Any, rng: random.Random) -> Any:
        return self.search(state, rng).move

    def search(self, state: Any, rng: random.Random) -> SearchResult:
        started = time.perf_counter()
        refuse_hidden_information(state.game)
        moves = legal_moves_to_choose(state)
        if len(moves) == 1:   # forced (a pass, a forced last placement): nothing to think about
            return SearchResult(moves[0], 0, 0.0, (MoveStats(moves[0], 0, 0.0),))
        # Search what the player may know: a state that fixes something nobody has seen (Kiwara:
        # a deck order) forgets it, and the search samples it at chance nodes instead.
        root_state = state.determinize(state.current_player(), rng)
        deadline = None if self.seconds is None else started + self.seconds
        fast = compiled_twin(root_state)
        searched = None if fast is None else fast.search(
            self.iterations, deadline, self.playout, self.exploration, rng)
        if searched is not None:      # the same search in the game's compiled core
            iterations, children = searched
            found = [(moves[i], visits, value) for i, visits, value in children]
        else:
            root = _Node(root_state, None, None, -1)
            root.untried = list(moves)
            playout = PLAYOUTS[self.playout]
            iterations = search_within_budget(self, started,
                                              lambda: self._iterate(root, playout, rng))
            found = [(c.move, c.visits, c.value) for c in root.children]
        # Most visited first; equal visits: better mean, then the engine's move order.
        position = {str(m): i for i, m in enumerate(moves)}
        ranked = sorted(found, key=lambda c: (-c[1], -c[2] / c[1], position[str(c[0])]))
        stats = tuple(MoveStats(move, visits, value / visits) for move, visits, value in ranked)
        return SearchResult(ranked[0][0], iterations, time.perf_counter() - started, stats)

    def core_spec(self) -> tuple | None:
        """An iteration budget's search runs whole in a compiled core; a time budget's only
        move by move (its iterations depend on the clock)."""
        if self.iterations is None:
            return None
        return ("mcts", self.iterations, self.playout, self.exploration)

    def _iterate(self, root: _Node, playout, rng: random.Random) -> None:
        node = root
        while True:                                            # selection
            if node.player == CHANCE:
                node = node.chance_child(sample_chance(node.state, rng))
            elif not node.untried_moves() and node.children:
                node = node.select(self.exploration)
            else:
                break
        untried = node.untried_moves()
        if untried:                                            # expansion
            i = rng.randrange(len(untried))
            untried[i], untried[-1] = untried[-1], untried[i]
            move = untried.pop()
            child = _Node(node.state.apply(move), move, node, node.player)
            node.children.append(child)
            node = child
        returns = playout(node.state, rng)                     # simulation
        while node is not None:                                # backpropagation
            node.visits += 1
            if node.mover >= 0:
                node.value += returns[node.mover]
            node = node.parent


def hidden_information_refusal(game: Any) -> str | None:
    """Why MCTS cannot play ``game`` (None: it can): it would search the true state, peeking at
    what the player may not see."""
    if game is not None and not game.perfect_information:
        return (f"mcts searches the true state, but {game.name} hides information from the "
                f"players: use the ismcts agent instead")
    return None


def refuse_hidden_information(game: Any) -> None:
    refusal = hidden_information_refusal(game)
    if refusal:
        raise KiwaraError(refusal)


_BUDGET = re.compile(r"^(?:(?P<iterations>[0-9]+)|(?P<seconds>[0-9]+(?:\.[0-9]*)?|\.[0-9]+)s)$")
# Budgets beyond these would think for hours per move (about 1,500 iterations/s): a typo, not a wish.
MAX_ITERATIONS, MAX_SECONDS = 1_000_000, 3600.0


def parse_search_spec(kind: str, text: str, args: list) -> tuple[int | None, float | None, str]:
    """``(iterations, seconds, playout)`` of a ``KIND[:BUDGET[:PLAYOUT]]`` search spec (``mcts``,
    ``ismcts``); exactly one of the budgets is set."""
    shown = shorten(text)                 # quoted in messages: mcts:<5,000 digits> stays short
    if len(args) > 2:
        raise AgentSpecError(f"too many parts in {shown!r}; write {kind}:BUDGET or "
                             f"{kind}:BUDGET:PLAYOUT (e.g. {kind}:500:greedy)")
    budget = args[0] if args else str(DEFAULT_ITERATIONS)
    playout = args[1] if len(args) == 2 else "random"
    match = _BUDGET.match(budget)
    if not match:
        raise AgentSpecError(f"{kind} budget {shorten(budget)!r} in {shown!r} is neither a whole "
                             f"number of iterations ({kind}:500) nor seconds ({kind}:2s)")
    if playout not in PLAYOUTS:
        raise AgentSpecError(f"unknown playout policy {shorten(playout)!r} in {shown!r}; "
                             f"use one of {', '.join(PLAYOUTS)}")
    if match["iterations"] is not None:
        try:
            iterations = parse_whole(match["iterations"], 1, MAX_ITERATIONS, "iterations")
        except KiwaraError:
            raise AgentSpecError(f"{kind} takes 1 to {MAX_ITERATIONS:,} iterations per move, "
                                 f"got {shown!r}") from None
        return iterations, None, playout
    seconds = float(match["seconds"])
    if not 0 < seconds <= MAX_SECONDS:
        raise AgentSpecError(f"{kind} takes a time budget above 0 and up to {MAX_SECONDS:g} s "
                             f"per move, got {shown!r}")
    return None, seconds, playout


def make_mcts(text: str, args: list, game: Any) -> MctsAgent:
    """The ``mcts[:BUDGET[:PLAYOUT]]`` spec (the agent registry's factory)."""
    iterations, seconds, playout = parse_search_spec("mcts", text, args)
    return MctsAgent(text, iterations=iterations, seconds=seconds, playout=playout)


register_agent("mcts", make_mcts, syntax="mcts:N", refusal=hidden_information_refusal)
