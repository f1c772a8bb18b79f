"""The agent protocol, the agent registry with ``make_agent``, and the uniform random agent.

An agent sees a game only through the core protocol (:mod:`kiwara_designer.core.game`): the
state's ``legal_moves``, ``apply``, ``current_player``, ``is_terminal``, ``returns`` and its
``game`` (for ``evaluate``), so it plays every registered game, any setup and any variant.

Agents are registered by kind (``random``, ``greedy``, ``mcts``: each module registers its own)
for every game, or for one game (a game may bring its own ``greedy``, or an ``ismcts`` for hidden
information); ``make_agent`` looks up the game's own kinds first.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable, Protocol, runtime_checkable

from ..core.game import CHANCE
from ..errors import KiwaraError
from ..numbers import shorten

SPEC_HELP = ('agent specs: "random", "greedy", "mcts:ITERATIONS" (e.g. mcts:500), '
             '"mcts:SECONDSs" (e.g. mcts:2s), optionally followed by ":random" or ":greedy" '
             '(the playout policy, e.g. mcts:500:greedy); "ismcts" takes the same budgets and '
             "plays games with hidden information")


class AgentSpecError(KiwaraError):
    """An agent spec that names no agent, or a budget that is not a positive number."""


@runtime_checkable
class Agent(Protocol):
    """Something that picks a move: ``choose`` must be deterministic given the state of ``rng``
    (agents with a time budget are the documented exception)."""

    name: str

    def choose(self, state: Any, rng: random.Random) -> Any: ...


def _legal_moves(state: Any) -> list:
    moves = state.legal_moves()
    if not moves:
        raise KiwaraError("the game is over: there is no move to choose")
    if state.current_player() == CHANCE:
        raise KiwaraError("a chance node: its outcome is drawn (sample_chance), not chosen")
    return moves


@dataclass(frozen=True)
class RandomAgent:
    """Uniform over the legal moves."""

    name: str = "random"

    def choose(self, state: Any, rng: random.Random) -> Any:
        return rng.choice(_legal_moves(state))


# -- the registry ------------------------------------------------------------------------------
# (game name or None for every game, kind) -> factory(spec text, parameters after the kind, game)
AgentFactory = Callable[[str, list, Any], Agent]
_AGENTS: dict[tuple[str | None, str], AgentFactory] = {}


def register_agent(kind: str, factory: AgentFactory, game: str | None = None) -> None:
    """Make ``kind`` (lower case) an agent spec, for every game or only for the game named
    ``game``; the factory raises :class:`AgentSpecError` on bad parameters."""
    _AGENTS[(game, kind.lower())] = factory


def agent_kinds(game: Any = None) -> list[str]:
    """The agent kinds ``make_agent`` accepts for ``game`` (None: for every game)."""
    name = getattr(game, "name", None)
    return sorted({kind for owner, kind in _AGENTS if owner is None or owner == name})


def make_agent(spec: str, game: Any = None) -> Agent:
    """Build an agent from its spec: ``random``, ``greedy``, ``mcts:500`` (iterations),
    ``mcts:2s`` (seconds of thinking per move), ``mcts:500:greedy`` (greedy-biased playouts;
    ``:random`` is the default). ``mcts`` alone means ``mcts:500``. ``game`` (a Game; None: any)
    selects the game's own agents and lets an agent refuse a game it cannot play. Raises
    :class:`AgentSpecError` (a :class:`KiwaraError`) on anything else."""
    if not isinstance(spec, str):
        raise AgentSpecError(f"agent spec must be text, got {spec!r}; {SPEC_HELP}")
    text = spec.strip()
    parts = text.lower().split(":")
    kind, args = parts[0], parts[1:]
    name = getattr(game, "name", None)
    factory = _AGENTS.get((name, kind)) or _AGENTS.get((None, kind))
    if factory is None:
        raise AgentSpecError(f"unknown agent {shorten(text)!r}; {SPEC_HELP}")
    return factory(text, args, game)


def no_parameters(kind: str, agent_type: type) -> AgentFactory:
    """The factory of an agent spec that is just its kind (``random``, ``greedy``)."""
    def factory(text: str, args: list, game: Any) -> Agent:
        if args:
            raise AgentSpecError(f"agent {kind!r} takes no parameters, got {shorten(text)!r}")
        return agent_type(text)
    return factory


register_agent("random", no_parameters("random", RandomAgent))
