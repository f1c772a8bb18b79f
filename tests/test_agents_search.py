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
from kiwara_designer.agents.playouts import greedy_playout

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
    from kiwara_designer.core.errors import KiwaraError
    with pytest.raises(KiwaraError, match="over"):
        make_agent("random").choose(TakeAway(0), random.Random(0))


# -- chance, hidden information and the registry ---------------------------------------------------
def test_mcts_draws_chance_with_its_probabilities():
    # gambling wins 2 times in 5 (mean -0.2, standing is 0); drawn uniformly it would win 2 in 3
    from toy_games import Gamble
    result = MctsAgent("mcts:3000", iterations=3000).search(Gamble(), random.Random(2))
    assert result.move == "stand"
    gamble = next(s for s in result.children if s.move == "gamble")
    assert gamble.mean == pytest.approx(-0.2, abs=0.25)


def test_mcts_refuses_hidden_information_and_names_ismcts():
    from kiwara_designer.agents import AgentSpecError
    from kiwara_designer.core.errors import KiwaraError
    from toy_games import KUHN, Kuhn
    with pytest.raises(AgentSpecError, match="use the ismcts agent instead"):
        make_agent("mcts:100", KUHN)
    with pytest.raises(KiwaraError, match="kuhn hides information.*ismcts"):
        MctsAgent().choose(Kuhn(("K", "J")), random.Random(0))
    assert type(make_agent("random", KUHN)) is RandomAgent     # the others play it


def test_greedy_plays_any_game_through_its_evaluation():
    from toy_games import TakeAway
    greedy = make_agent("greedy")
    # TakeAway's evaluation knows the theory: from 6 the only winning take leaves 4
    assert {greedy.choose(TakeAway(6), random.Random(s)) for s in range(10)} == {2}


def test_a_game_can_register_its_own_agents():
    from kiwara_designer.agents import agent_kinds, register_agent
    from toy_games import TAKE_AWAY

    class TakeOne:
        name = "one"

        def choose(self, state, rng):
            return 1

    register_agent("one", lambda text, args, game: TakeOne(), game=TAKE_AWAY.name)
    assert make_agent("one", TAKE_AWAY).choose(TakeAway(9), random.Random(0)) == 1
    assert "one" in agent_kinds(TAKE_AWAY) and "one" not in agent_kinds()
    with pytest.raises(Exception, match="unknown agent 'one'"):
        make_agent("one")                      # not an agent of every game


def test_the_registry_offers_each_game_only_the_agents_that_play_it():
    """One mechanism for help texts and errors: a kind's refusal (mcts: hidden information;
    cheat-ismcts: nothing hidden) and its peeking (left out where a person plays)."""
    from kiwara_designer.agents import AgentSpecError, agent_kinds, agent_syntax
    from kiwara_designer.core.game import get_game
    from toy_games import KUHN
    kiwara = get_game("kiwara")
    assert agent_kinds(kiwara) == ["random", "greedy", "mcts", "ismcts", "expert"]
    assert agent_kinds(KUHN) == ["random", "greedy", "ismcts", "cheat-ismcts"]
    assert agent_kinds(KUHN, honest=True) == ["random", "greedy", "ismcts"]
    assert agent_syntax(KUHN, honest=True) == ("random, greedy, ismcts:N (N: iterations per "
                                               "move, or seconds as in ismcts:2s)")
    with pytest.raises(AgentSpecError) as info:
        make_agent("minimax", KUHN)
    assert str(info.value) == ("unknown agent 'minimax'; agent specs for kuhn: random, greedy, "
                               "ismcts:N, cheat-ismcts:N (N: iterations per move, or seconds "
                               "as in ismcts:2s)")
    with pytest.raises(AgentSpecError, match="kuhn hides information .* use the ismcts agent"):
        make_agent("mcts:5", KUHN)


def test_play_match_draws_chance_with_its_own_generator():
    from kiwara_designer.agents import play_match
    from toy_games import KUHN
    deals = set()
    for seed in range(12):
        agents = (make_agent("random"), make_agent("greedy"))
        final, moves = play_match(KUHN.new_state(), agents, random.Random(0),
                                  random.Random(seed))
        assert final.is_terminal() and moves[:2] == list(final.cards)
        deals.add(tuple(moves[:2]))
    assert len(deals) > 2


def test_no_agent_chooses_at_a_chance_node():
    from kiwara_designer.core.errors import KiwaraError
    from toy_games import Gamble
    for spec in ("random", "greedy", "mcts:10"):
        with pytest.raises(KiwaraError, match="chance node"):
            make_agent(spec).choose(Gamble(("gamble",)), random.Random(0))
