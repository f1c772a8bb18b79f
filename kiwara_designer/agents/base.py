"""The agent protocol, the agent registry with ``make_agent``, and the uniform random agent.

An agent sees a game only through the core protocol (:mod:`kiwara_designer.core.game`): the
state's ``legal_moves``, ``apply``, ``current_player``, ``is_terminal``, ``returns`` and its
``game`` (for ``evaluate``), so it plays every registered game, any setup and any variant.

Agents are registered by kind (``random``, ``greedy``, ``mcts``: each module registers its own)
for every game, or for one game (a game may bring its own ``greedy``, or an ``ismcts`` for hidden
information); ``make_agent`` looks up the game's own kinds first. A kind may refuse a game
(``mcts`` refuses hidden information) and may *peek* (see what its player may not: a strength
reference for the lab, never an opponent for a person); :func:`agent_kinds` and
:func:`agent_syntax` say what a game accepts, so help texts and errors list only what works.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable, Protocol, runtime_checkable

from ..core.game import CHANCE
from ..core.errors import KiwaraError
from ..core.numbers import shorten

class AgentSpecError(KiwaraError):
    """An agent spec that names no agent, or a budget that is not a positive number."""


@runtime_checkable
class Agent(Protocol):
    """Something that picks a move: ``choose`` must be deterministic given the state of ``rng``
    (agents with a time budget are the documented exception)."""

    name: str

    def choose(self, state: Any, rng: random.Random) -> Any: ...


def legal_moves_to_choose(state: Any) -> list:
    """The legal moves an agent chooses among; an error at a chance node or the game's end."""
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
        return rng.choice(legal_moves_to_choose(state))

    def core_spec(self) -> tuple:
        """How a game's compiled core names this agent (see CompiledState.play)."""
        return ("random",)


# -- the registry ------------------------------------------------------------------------------
# factory(spec text, parameters after the kind, game) -> the agent
AgentFactory = Callable[[str, list, Any], Agent]


@dataclass(frozen=True)
class AgentKind:
    """A registered kind of agent: how to build it, how its spec is written (``mcts:N``: a
    budget of N iterations, or seconds as ``mcts:2s``), which games it refuses and whether it
    peeks at what its player may not see."""

    kind: str
    factory: AgentFactory
    syntax: str
    refusal: Callable[[Any], str | None] | None = None   # game -> why it cannot play it, or None
    peeks: bool = False

    def refuses(self, game: Any) -> str | None:
        return self.refusal(game) if self.refusal is not None and game is not None else None


# (game name or None for every game, kind) -> AgentKind, in the order registered (help order)
_AGENTS: dict[tuple[str | None, str], AgentKind] = {}


def register_agent(kind: str, factory: AgentFactory, game: str | None = None, *,
                   syntax: str | None = None, refusal: Callable[[Any], str | None] | None = None,
                   peeks: bool = False) -> None:
    """Make ``kind`` (lower case) an agent spec, for every game or only for the game named
    ``game``; the factory raises :class:`AgentSpecError` on bad parameters. ``syntax`` is the
    spec as help texts write it (default: the kind; ``KIND:N`` for a budget). ``refusal(game)``
    says why the kind cannot play ``game`` (None: it can). ``peeks``: the agent decides from
    what its player may not see, so it is refused where a person plays (``honest=True``)."""
    kind = kind.lower()
    _AGENTS[(game, kind)] = AgentKind(kind, factory, syntax or kind, refusal, peeks)


def _kind(kind: str, game: Any) -> AgentKind | None:
    name = getattr(game, "name", None)
    return _AGENTS.get((name, kind)) or _AGENTS.get((None, kind))


def _accepted(game: Any, honest: bool) -> list[AgentKind]:
    kinds = dict.fromkeys(kind for _, kind in _AGENTS)       # every kind, in registration order
    found = [_kind(kind, game) for kind in kinds]
    return [k for k in found if k is not None and not k.refuses(game)
            and not (honest and k.peeks)]


def agent_kinds(game: Any = None, *, honest: bool = False) -> list[str]:
    """The agent kinds ``make_agent`` accepts for ``game`` (None: for every game), in the order
    registered; ``honest``: only those that decide from what their player sees."""
    return [k.kind for k in _accepted(game, honest)]


def agent_syntax(game: Any = None, *, honest: bool = False) -> str:
    """The specs of :func:`agent_kinds` in words, for help texts and errors:
    ``random, greedy, ismcts:N (N: iterations per move, or seconds as in ismcts:2s)``."""
    kinds = _accepted(game, honest)
    text = ", ".join(k.syntax for k in kinds)
    budgeted = [k.kind for k in kinds if k.syntax.endswith(":N")]
    if budgeted:
        text += f" (N: iterations per move, or seconds as in {budgeted[0]}:2s)"
    return text


def _specs(game: Any, honest: bool) -> str:
    name = getattr(game, "name", None)
    return f"agent specs{f' for {name}' if name else ''}: {agent_syntax(game, honest=honest)}"


def make_agent(spec: str, game: Any = None, *, honest: bool = False) -> Agent:
    """Build an agent from its spec: ``random``, ``greedy``, ``mcts:500`` (iterations),
    ``mcts:2s`` (seconds of thinking per move), ``mcts:500:greedy`` (greedy-biased playouts;
    ``:random`` is the default). ``mcts`` alone means ``mcts:500``. ``game`` (a Game; None: any)
    selects the game's own agents and lets an agent refuse a game it cannot play. ``honest``
    refuses the agents that peek at what their player may not see (a person plays). Raises
    :class:`AgentSpecError` (a :class:`KiwaraError`) on anything else."""
    if not isinstance(spec, str):
        raise AgentSpecError(f"agent spec must be text, got {spec!r}; {_specs(game, honest)}")
    text = spec.strip()
    parts = text.lower().split(":")
    kind, args = parts[0], parts[1:]
    found = _kind(kind, game)
    if found is None:
        raise AgentSpecError(f"unknown agent {shorten(text)!r}; {_specs(game, honest)}")
    refusal = found.refuses(game)
    if refusal:
        raise AgentSpecError(refusal)
    if honest and found.peeks:
        raise AgentSpecError(f"{shorten(text)} sees what its player may not (the hidden cards): "
                             f"a strength reference for the play-test lab, never an opponent "
                             f"for a person")
    return found.factory(text, args, game)


def no_parameters(kind: str, agent_type: type) -> AgentFactory:
    """The factory of an agent spec that is just its kind (``random``, ``greedy``)."""
    def factory(text: str, args: list, game: Any) -> Agent:
        if args:
            raise AgentSpecError(f"agent {kind!r} takes no parameters, got {shorten(text)!r}")
        return agent_type(text)
    return factory


register_agent("random", no_parameters("random", RandomAgent))
