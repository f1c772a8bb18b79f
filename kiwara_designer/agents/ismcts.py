"""Single-observer information-set Monte Carlo tree search (SO-ISMCTS: Cowling, Powley &
Whitehouse 2012, *Information Set Monte Carlo Tree Search*, IEEE TCIAIG 4(2)).

The searching player (the *observer*) cannot see the whole state, so each iteration first draws
one *determinization*: ``state.determinize(observer, rng)``, a full state agreeing with everything
the observer has seen. The iteration then walks that determinization down one shared tree whose
nodes are the observer's information sets: a node is keyed by who is to move and
``information_state(observer)``, never by anything the observer cannot see. So the tree, the
statistics and the move played depend on the root state only through what the observer knows,
and two states the observer cannot tell apart give the same move for the same ``rng`` (tested).

Because a move legal in one determinization (the opponent's cards) may be illegal in another,
selection uses *availability* counts: a move's exploration term is
``c·sqrt(ln a / n)`` with ``a`` the number of visits of the node in which the move was legal
(not the node's visits), ``n`` its own visits. Each iteration adds at most one move of the first
node with an untried move legal in its determinization, plays out (uniformly or greedy-biased)
and credits the returns of the mover to each (node, move) on its path. Chance nodes are drawn
with their probabilities (``sample_chance``), both in the tree and in playouts. The move played
is the root's most visited (then best mean, then the game's move order).

**Playout horizon.** A game made of stages (Awimbawé: rounds, each dealt afresh) may say so
with ``game.stage(state)`` (which stage is being played) and ``game.stage_returns(state)`` (the
returns a stage's end is worth, from public facts only). Then a playout stops where the stage
it started in ends and backs up ``stage_returns`` (``horizon="stage"``, the default): playing
the later stages out at random adds noise and costs time, not knowledge. ``horizon="end"``
(spec ``ismcts:N:random:end``) plays out to the game's end, ``returns()``, as games without
stages always do.

``peek=True`` skips determinization and searches the true state, seeing every hidden card: a
*cheating* player, only for measuring what hidden information costs. Its spec says so,
``cheat-ismcts:N``, and the registry marks it as peeking: it breaks the rule that an agent
decides from what its player sees, so it is refused wherever a person plays (``make_agent(...,
honest=True)``) and kept for the play-test lab, as a strength reference.
"""
from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import Any

from ..core.game import CHANCE, sample_chance
from ..core.numbers import shorten
from .base import AgentSpecError, legal_moves_to_choose, register_agent
from .playouts import PLAYOUTS, stage_playout
from .mcts import (DEFAULT_ITERATIONS, MoveStats, SearchResult,
                   check_search_settings, parse_search_spec, search_within_budget)


HORIZONS = ("stage", "end")    # where a playout stops: the stage's end (if the game has stages)


class _InfoNode:
    """One information set of the observer: per move, its visits, summed returns for the mover
    and availability (how often the node was visited with the move legal)."""

    __slots__ = ("visits", "value", "available")

    def __init__(self) -> None:
        self.visits: dict = {}
        self.value: dict = {}
        self.available: dict = {}


@dataclass(frozen=True)
class IsmctsAgent:
    """SO-ISMCTS with a budget of ``iterations`` or of ``seconds`` per move (exactly one),
    playouts ``"random"`` or ``"greedy"``, UCB constant ``exploration`` (returns in [−1, 1])."""

    name: str = f"ismcts:{DEFAULT_ITERATIONS}"
    iterations: int | None = DEFAULT_ITERATIONS
    seconds: float | None = None
    playout: str = "random"
    exploration: float = 0.7
    peek: bool = False
    horizon: str = "stage"

    def __post_init__(self) -> None:
        check_search_settings(self)
        if self.horizon not in HORIZONS:
            raise ValueError(f"unknown playout horizon {self.horizon!r}")

    def choose(self, state: Any, rng: random.Random) -> Any:
        return self.search(state, rng).move

    def search(self, state: Any, rng: random.Random) -> SearchResult:
        started = time.perf_counter()
        moves = legal_moves_to_choose(state)
        if len(moves) == 1:
            return SearchResult(moves[0], 0, 0.0, (MoveStats(moves[0], 0, 0.0),))
        observer = state.current_player()
        tree: dict = {}
        playout = PLAYOUTS[self.playout]
        if self.horizon == "stage" and state.game.stage(state) is not None:
            playout = stage_playout(playout, state.game.stage)

        def iterate() -> None:
            world = state if self.peek else state.determinize(observer, rng)
            self._iterate(world, observer, tree, playout, rng)

        iterations = search_within_budget(self, started, iterate)
        root = tree[(observer, state.information_state(observer))]
        order = {move: i for i, move in enumerate(moves)}
        tried = [m for m in moves if m in root.visits]
        ranked = sorted(tried, key=lambda m: (-root.visits[m], -root.value[m] / root.visits[m],
                                              order[m]))
        stats = tuple(MoveStats(m, root.visits[m], root.value[m] / root.visits[m])
                      for m in ranked)
        return SearchResult(ranked[0], iterations, time.perf_counter() - started, stats)

    def _iterate(self, state: Any, observer: int, tree: dict, playout, rng: random.Random) -> None:
        path = []
        while not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                state = state.apply(sample_chance(state, rng))
                continue
            key = (player, state.information_state(observer))
            node = tree.get(key)
            if node is None:
                node = tree[key] = _InfoNode()
            moves = state.legal_moves()
            available = node.available
            for move in moves:
                available[move] = available.get(move, 0) + 1
            untried = [m for m in moves if m not in node.visits]
            if untried:                                   # expansion: one new move, then play out
                move = untried[rng.randrange(len(untried))]
                node.visits[move], node.value[move] = 0, 0.0
                path.append((node, player, move))
                state = state.apply(move)
                break
            move = self._select(node, moves)
            path.append((node, player, move))
            state = state.apply(move)
        returns = playout(state, rng)
        for node, player, move in path:
            node.visits[move] += 1
            node.value[move] += returns[player]

    def _select(self, node: _InfoNode, moves: list) -> Any:
        """UCB1 over the moves legal here, exploring by availability, first best in move order."""
        best, best_score = None, -math.inf
        c = self.exploration
        for move in moves:
            visits = node.visits[move]
            score = (node.value[move] / visits
                     + c * math.sqrt(math.log(node.available[move]) / visits))
            if score > best_score:
                best, best_score = move, score
        return best


def ismcts_factory(kind: str, peek: bool = False):
    """The registry's factory of the ``KIND[:BUDGET[:PLAYOUT[:HORIZON]]]`` spec: ``ismcts``, or
    ``cheat-ismcts`` with ``peek``."""
    def factory(text: str, args: list, game: Any) -> IsmctsAgent:
        horizon = "stage"
        if len(args) == 3:
            *args, horizon = args
            if horizon not in HORIZONS:
                raise AgentSpecError(f"unknown playout horizon {shorten(horizon)!r} in "
                                     f"{shorten(text)!r}; use one of {', '.join(HORIZONS)}")
        iterations, seconds, playout = parse_search_spec(kind, text, args)
        return IsmctsAgent(text, iterations=iterations, seconds=seconds, playout=playout,
                           horizon=horizon, peek=peek)
    return factory


def nothing_hidden_refusal(game: Any) -> str | None:
    """Peeking needs something hidden: on a game of perfect information the cheat would be
    ismcts under another name (None: the game hides information, the cheat may play it)."""
    if game is not None and game.perfect_information:
        return (f"cheat-ismcts sees the hidden cards, but {game.name} has no hidden "
                f"information: use ismcts")
    return None


register_agent("ismcts", ismcts_factory("ismcts"), syntax="ismcts:N")
# The perfect-information reference: the same search on the true state. Its name says it cheats
# (records and tables show the spec), and `peeks` keeps it away from a person.
register_agent("cheat-ismcts", ismcts_factory("cheat-ismcts", peek=True),
               syntax="cheat-ismcts:N", refusal=nothing_hidden_refusal, peeks=True)
