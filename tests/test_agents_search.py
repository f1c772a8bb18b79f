"""The agents' search, checked on a toy game whose best moves are known by hand.

Take-away: a pile of stones, each move takes 1, 2 or 3, whoever takes the last stone wins. The
player to move loses exactly when the pile is a multiple of 4, so from 5, 6 or 7 the only winning
move leaves 4 (``tests/toy_games.py``; it has an optional "pass" rule, the same player moving
twice, to check that MCTS credits the right player).
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from kiwara_designer.agents import MctsAgent, RandomAgent, make_agent
from kiwara_designer.agents.mcts import greedy_playout

sys.path.insert(0, str(Path(__file__).parent))
from toy_games import TakeAway  # noqa: E402


@pytest.mark.parametrize("pile, best", [(5, 1), (6, 2), (7, 3), (9, 1)])
def test_mcts_finds_the_only_winning_take(pile, best):
    agent = MctsAgent("mcts:2000", iterations=2000)
    assert agent.choose(TakeAway(pile), random.Random(1)) == best


def winning_moves(game: TakeAway) -> set[int]:
    """Plain minimax: the moves after which the mover wins with best play."""
    def wins(state: TakeAway, player: int) -> bool:
        if state.is_terminal():
            return state.returns()[player] > 0
        outcomes = [wins(state.apply(m), player) for m in state.legal_moves()]
        return any(outcomes) if state.current_player() == player else all(outcomes)
    mover = game.current_player()
    return {m for m in game.legal_moves() if wins(game.apply(m), mover)}


@pytest.mark.parametrize("pile", [6, 8, 10, 11])
def test_mcts_credits_the_mover_when_a_player_moves_twice(pile):
    # Landing on 4 grants the mover another turn, which changes which takes win.
    game = TakeAway(pile, extra_turn_at=4)
    good = winning_moves(game)
    assert good and good != set(game.legal_moves())      # the test can fail
    assert MctsAgent("mcts:3000", iterations=3000).choose(game, random.Random(3)) in good


def test_mcts_is_deterministic_given_the_rng():
    agent = MctsAgent("mcts:200", iterations=200)
    results = {agent.search(TakeAway(11), random.Random(42)).children for _ in range(3)}
    assert len(results) == 1


def test_search_reports_its_budget_and_statistics():
    result = MctsAgent("mcts:300", iterations=300).search(TakeAway(7), random.Random(0))
    assert result.iterations == 300
    assert sum(s.visits for s in result.children) == 300
    assert result.move == result.children[0].move == 3
    assert result.expected > 0.5            # a won position, seen from the mover


def test_mcts_time_budget_stops():
    result = MctsAgent("mcts:0.05s", seconds=0.05).search(TakeAway(30), random.Random(0))
    assert 1 <= result.iterations and result.seconds < 1.0


def test_forced_move_is_returned_without_search():
    result = MctsAgent().search(TakeAway(1), random.Random(0))
    assert result.move == 1 and result.iterations == 0


def test_random_agent_is_uniform_and_seeded():
    agent = RandomAgent()
    picks = [agent.choose(TakeAway(10), random.Random(s)) for s in range(300)]
    assert picks == [agent.choose(TakeAway(10), random.Random(s)) for s in range(300)]
    assert all(picks.count(k) > 70 for k in (1, 2, 3))     # expected 100 each


def test_agents_refuse_a_finished_game():
    from kiwara_designer.errors import KiwaraError
    with pytest.raises(KiwaraError, match="over"):
        make_agent("random").choose(TakeAway(0), random.Random(0))
