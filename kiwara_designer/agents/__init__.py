"""Agents that play Kiwara through the engine's public surface: ``random``, ``greedy`` (one ply
on the static evaluation :func:`evaluate`) and ``mcts`` (UCT). Build them with :func:`make_agent`."""
from .base import Agent, AgentSpecError, RandomAgent, make_agent
from .evaluation import evaluate
from .greedy import GreedyAgent
from .match import play_match
from .mcts import MctsAgent

__all__ = ["Agent", "AgentSpecError", "GreedyAgent", "MctsAgent", "RandomAgent", "evaluate",
           "make_agent", "play_match"]
