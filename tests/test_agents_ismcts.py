"""Information-set MCTS: it decides from what its player sees (never peeks), plays the toy games
sensibly, follows its budgets and seeds; the cheating variant (cheat-ismcts) does see through
hidden cards, and is kept away from people."""
from __future__ import annotations

import itertools
import random
import sys
from pathlib import Path

import pytest

from kiwara_designer.agents import IsmctsAgent, make_agent, play_match
from kiwara_designer.core.game import CHANCE

sys.path.insert(0, str(Path(__file__).parent))
from test_agents_search import winning_moves  # noqa: E402
from toy_games import CARDS, KUHN, TAKE_AWAY, Gamble, Kuhn, TakeAway  # noqa: E402

HISTORIES = ("", "p", "b", "pb")          # every Kuhn decision point


def decision_states():
    for cards in itertools.permutations(CARDS, 2):
        for actions in HISTORIES:
            yield Kuhn(cards, actions)


def test_states_alike_for_the_agent_give_the_same_search():
    """No peeking: every pair of Kuhn states that the player to move cannot tell apart (only the
    opponent's card differs) gives the same move and the same statistics for the same seed."""
    agent = IsmctsAgent("ismcts:150", iterations=150)
    groups: dict = {}
    for state in decision_states():
        player = state.current_player()
        groups.setdefault(state.information_state(player), []).append(state)
    assert len(groups) == 12 and all(len(g) == 2 for g in groups.values())
    for states in groups.values():
        for seed in range(3):
            results = [agent.search(s, random.Random(seed)) for s in states]
            assert results[0].move == results[1].move
            assert results[0].children == results[1].children


def test_the_cheat_sees_the_hidden_card_and_the_honest_agent_does_not():
    # the second player holds the queen after a check; the first holds the jack or the king
    honest = make_agent("ismcts:300", KUHN)
    cheat = make_agent("cheat-ismcts:300", KUHN)
    assert type(cheat) is IsmctsAgent and cheat.peek and cheat.name == "cheat-ismcts:300"
    against_jack, against_king = Kuhn(("J", "Q"), "p"), Kuhn(("K", "Q"), "p")
    assert (honest.search(against_jack, random.Random(0)).children
            == honest.search(against_king, random.Random(0)).children)
    assert cheat.search(against_jack, random.Random(0)).expected == 1.0     # wins whatever
    assert cheat.search(against_king, random.Random(0)).expected < -0.5     # loses nearly always
    # facing a bet with the queen, states its player cannot tell apart: the cheat calls the
    # jack's bluff and folds to the king, the honest agent makes one choice for both
    facing_jack, facing_king = Kuhn(("J", "Q"), "b"), Kuhn(("K", "Q"), "b")
    assert facing_jack.information_state(1) == facing_king.information_state(1)
    for seed in range(3):
        assert cheat.choose(facing_jack, random.Random(seed)) == "b"
        assert cheat.choose(facing_king, random.Random(seed)) == "p"
        assert (honest.choose(facing_jack, random.Random(seed))
                == honest.choose(facing_king, random.Random(seed)))


def test_the_cheat_is_for_hidden_information_and_never_faces_a_person():
    from kiwara_designer.agents import AgentSpecError, agent_kinds, agent_syntax
    assert "cheat-ismcts" in agent_kinds(KUHN)
    assert "cheat-ismcts" not in agent_kinds(KUHN, honest=True)
    assert "cheat-ismcts:N" not in agent_syntax(KUHN, honest=True)
    with pytest.raises(AgentSpecError, match="sees what its player may not .*never an opponent "
                                             "for a person"):
        make_agent("cheat-ismcts:50", KUHN, honest=True)
    # a game that hides nothing has nothing to peek at: the cheat would be ismcts
    assert "cheat-ismcts" not in agent_kinds(TAKE_AWAY)
    with pytest.raises(AgentSpecError, match="has no hidden information: use ismcts"):
        make_agent("cheat-ismcts:50", TAKE_AWAY)


def test_calls_with_the_king_and_beats_random_at_kuhn():
    agent = make_agent("ismcts:200", KUHN)
    assert agent.choose(Kuhn(("J", "K"), "b"), random.Random(0)) == "b"     # calling wins
    # with the queen facing a bet, calling wins against the jack (half the deals it could be),
    # folding never wins: the agent must not read the king it cannot see
    assert agent.choose(Kuhn(("Q", "K"), "pb"), random.Random(0)) == "b"
    rand = make_agent("random")
    wins, games = 0, 200
    for game in range(games):
        seat = game % 2
        agents = (agent, rand) if seat == 0 else (rand, agent)
        final, _ = play_match(KUHN.new_state(), agents, random.Random(game))
        wins += final.returns()[seat] > 0
    assert wins / games > 0.6      # 0.70 over 400 games while writing this test; random wins 0.5


def test_plays_perfect_information_games_like_mcts():
    agent = IsmctsAgent("ismcts:1500", iterations=1500)
    for pile, best in ((5, 1), (6, 2), (7, 3)):
        assert agent.choose(TakeAway(pile), random.Random(0)) == best
    # a player moving twice in a row is credited as the mover, not by alternation
    for pile in (6, 8, 10):
        game = TakeAway(pile, extra_turn_at=4)
        good = winning_moves(game)
        assert good != set(game.legal_moves())
        assert agent.choose(game, random.Random(1)) in good


def test_chance_is_drawn_with_its_probabilities():
    result = IsmctsAgent("ismcts:3000", iterations=3000).search(Gamble(), random.Random(2))
    assert result.move == "stand"         # drawn uniformly, gambling would win 2 times in 3
    gamble = next(s for s in result.children if s.move == "gamble")
    assert gamble.mean < 0


def test_seeded_and_budgeted():
    agent = make_agent("ismcts:100")
    state = Kuhn(("Q", "J"), "")
    result = agent.search(state, random.Random(5))
    assert agent.search(state, random.Random(5)).children == result.children
    assert result.iterations == 100 and sum(s.visits for s in result.children) == 100
    timed = make_agent("ismcts:0.05s").search(TakeAway(30), random.Random(0))
    assert timed.iterations > 1 and 0.05 <= timed.seconds < 1.0
    forced = agent.search(TakeAway(1), random.Random(0))
    assert (forced.move, forced.iterations) == (1, 0)
    with pytest.raises(Exception, match="chance node"):
        agent.choose(Kuhn(("Q",)), random.Random(0))
    assert Kuhn(("Q",)).current_player() == CHANCE


@pytest.mark.parametrize("kind", ["ismcts", "cheat-ismcts"])
@pytest.mark.parametrize("spec, iterations, seconds, playout", [
    ("ismcts", 500, None, "random"),
    ("ismcts:40", 40, None, "random"),
    ("ismcts:1.5s", None, 1.5, "random"),
    ("ISMCTS:30:greedy", 30, None, "greedy"),
])
def test_specs(kind, spec, iterations, seconds, playout):
    spec = spec.replace("ismcts", kind).replace("ISMCTS", kind.upper())
    agent = make_agent(spec, KUHN)
    assert type(agent) is IsmctsAgent and agent.name == spec
    assert agent.peek == (kind == "cheat-ismcts")          # and its name says so
    assert (agent.iterations, agent.seconds, agent.playout) == (iterations, seconds, playout)
    assert agent.horizon == "stage"


def test_the_playout_horizon_in_the_spec():
    assert make_agent("ismcts:40:random:end", KUHN).horizon == "end"
    assert make_agent("ismcts:40:greedy:stage", KUHN).horizon == "stage"
    assert make_agent("cheat-ismcts:40:random:end", KUHN).horizon == "end"


@pytest.mark.parametrize("spec, message", [
    ("ismcts:lots", "ismcts budget 'lots'.*ismcts:500"),
    ("ismcts:0", "1 to 1,000,000 iterations"),
    ("ismcts:9000s", "above 0 and up to 3600 s"),
    ("ismcts:10:clever", "unknown playout policy 'clever'"),
    ("ismcts:10:random:sideways", "unknown playout horizon 'sideways'.*stage, end"),
    ("ismcts:10:random:end:x", "too many parts"),
    ("cheat-ismcts:lots", "cheat-ismcts budget 'lots'.*cheat-ismcts:500"),
])
def test_bad_specs(spec, message):
    from kiwara_designer.agents import AgentSpecError
    with pytest.raises(AgentSpecError, match=message):
        make_agent(spec, KUHN)
