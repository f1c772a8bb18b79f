"""The agent protocol, the spec parser ``make_agent`` and the uniform random agent.

An agent sees a game only through the engine's public surface (``legal_moves``, ``apply``,
``is_terminal``, ``returns``, ``current_player``, ``scoring``), so it plays any layout and any
rules variant, and so does any other game object offering that surface (the tests use a toy one).
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from ..errors import KiwaraError

SPEC_HELP = ('agent specs: "random", "greedy", "mcts:ITERATIONS" (e.g. mcts:500), '
             '"mcts:SECONDSs" (e.g. mcts:2s), optionally followed by ":random" or ":greedy" '
             "(the playout policy, e.g. mcts:500:greedy)")


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
    return moves


@dataclass(frozen=True)
class RandomAgent:
    """Uniform over the legal moves."""

    name: str = "random"

    def choose(self, state: Any, rng: random.Random) -> Any:
        return rng.choice(_legal_moves(state))


_BUDGET = re.compile(r"^(?:(?P<iterations>\d+)|(?P<seconds>\d+(?:\.\d*)?|\.\d+)s)$")


# Budgets beyond these would think for hours per move (about 1,500 iterations/s): a typo, not a wish.
MAX_ITERATIONS, MAX_SECONDS = 1_000_000, 3600.0


def make_agent(spec: str) -> Agent:
    """Build an agent from its spec: ``random``, ``greedy``, ``mcts:500`` (iterations),
    ``mcts:2s`` (seconds of thinking per move), ``mcts:500:greedy`` (greedy-biased playouts;
    ``:random`` is the default). ``mcts`` alone means ``mcts:500``. Raises
    :class:`AgentSpecError` (a :class:`KiwaraError`) on anything else."""
    from .greedy import GreedyAgent
    from .mcts import DEFAULT_ITERATIONS, PLAYOUTS, MctsAgent

    if not isinstance(spec, str):
        raise AgentSpecError(f"agent spec must be text, got {spec!r}; {SPEC_HELP}")
    text = spec.strip()
    parts = text.lower().split(":")
    kind, args = parts[0], parts[1:]
    if kind in ("random", "greedy"):
        if args:
            raise AgentSpecError(f"agent {kind!r} takes no parameters, got {text!r}")
        return RandomAgent(text) if kind == "random" else GreedyAgent(text)
    if kind != "mcts":
        raise AgentSpecError(f"unknown agent {text!r}; {SPEC_HELP}")
    if len(args) > 2:
        raise AgentSpecError(f"too many parts in {text!r}; {SPEC_HELP}")
    budget = args[0] if args else str(DEFAULT_ITERATIONS)
    playout = args[1] if len(args) == 2 else "random"
    match = _BUDGET.match(budget)
    if not match:
        raise AgentSpecError(f"mcts budget {budget!r} in {text!r} is neither a whole number of "
                             f"iterations (mcts:500) nor seconds (mcts:2s)")
    if playout not in PLAYOUTS:
        raise AgentSpecError(f"unknown playout policy {playout!r} in {text!r}; "
                             f"use one of {', '.join(PLAYOUTS)}")
    if match["iterations"] is not None:
        iterations = int(match["iterations"])
        if not 1 <= iterations <= MAX_ITERATIONS:
            raise AgentSpecError(f"mcts takes 1 to {MAX_ITERATIONS:,} iterations per move, "
                                 f"got {text!r}")
        return MctsAgent(text, iterations=iterations, playout=playout)
    seconds = float(match["seconds"])
    if not 0 < seconds <= MAX_SECONDS:
        raise AgentSpecError(f"mcts takes a time budget above 0 and up to {MAX_SECONDS:g} s per "
                             f"move, got {text!r}")
    return MctsAgent(text, seconds=seconds, playout=playout)
