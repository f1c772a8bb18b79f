"""make_agent: the spec grammar and its errors."""
from __future__ import annotations

import pytest

from kiwara_designer.agents import AgentSpecError, GreedyAgent, MctsAgent, RandomAgent, make_agent
from kiwara_designer.core.errors import KiwaraError


@pytest.mark.parametrize("spec, kind, iterations, seconds, playout", [
    ("random", RandomAgent, None, None, None),
    ("greedy", GreedyAgent, None, None, None),
    (" Greedy ", GreedyAgent, None, None, None),
    ("mcts:500", MctsAgent, 500, None, "random"),
    ("mcts", MctsAgent, 500, None, "random"),
    ("mcts:2s", MctsAgent, None, 2.0, "random"),
    ("mcts:0.5s", MctsAgent, None, 0.5, "random"),
    ("mcts:500:greedy", MctsAgent, 500, None, "greedy"),
    ("MCTS:1s:random", MctsAgent, None, 1.0, "random"),
])
def test_valid_specs(spec, kind, iterations, seconds, playout):
    agent = make_agent(spec)
    assert type(agent) is kind
    assert agent.name == spec.strip()
    if kind is MctsAgent:
        assert (agent.iterations, agent.seconds, agent.playout) == (iterations, seconds, playout)


@pytest.mark.parametrize("spec, message", [
    ("", "unknown agent"),
    ("human", "unknown agent"),
    ("minimax", "unknown agent"),
    ("random:3", "takes no parameters"),
    ("greedy:2", "takes no parameters"),
    ("mcts:abc", "neither a whole number"),
    ("mcts:-5", "neither a whole number"),
    ("mcts:2ms", "neither a whole number"),
    ("mcts:0", "1 to 1,000,000 iterations"),
    ("mcts:1000001", "1 to 1,000,000 iterations"),
    ("mcts:100000000000000000000", "1 to 1,000,000 iterations"),
    ("mcts:0s", "above 0 and up to 3600 s"),
    ("mcts:3601s", "above 0 and up to 3600 s"),
    ("mcts:500:smart", "unknown playout policy 'smart'"),
    ("mcts:1:greedy:x", "too many parts"),
    (None, "must be text"),
])
def test_bad_specs_are_one_line_kiwara_errors(spec, message):
    with pytest.raises(AgentSpecError, match=message) as info:
        make_agent(spec)
    assert isinstance(info.value, KiwaraError)
    assert "\n" not in str(info.value)
