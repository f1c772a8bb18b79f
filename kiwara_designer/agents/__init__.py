"""Agents that play any game of the core protocol (:mod:`kiwara_designer.core.game`):
``random``, ``greedy`` (one ply on the game's ``evaluate``), ``mcts`` (UCT), ``ismcts``
(information-set MCTS, for hidden information) and ``cheat-ismcts`` (the same search seeing every
hidden card: a strength reference for the lab). Build them with :func:`make_agent`; a game adds
its own kinds with :func:`register_agent`; :func:`agent_kinds` and :func:`agent_syntax` say which
a game accepts."""
from .base import (Agent, AgentSpecError, RandomAgent, agent_kinds, agent_syntax, make_agent,
                   register_agent)
from .greedy import GreedyAgent
from .ismcts import IsmctsAgent
from .match import play_match
from .mcts import MctsAgent

__all__ = ["Agent", "AgentSpecError", "GreedyAgent", "IsmctsAgent", "MctsAgent", "RandomAgent",
           "agent_kinds", "agent_syntax", "make_agent", "play_match", "register_agent"]
