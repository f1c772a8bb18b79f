"""Awimbawé's agents: the greedy heuristic's rules on hand-built deals, its strength, and that
every agent of the game decides from what its player sees (ismcts included)."""
from __future__ import annotations

import random

from kiwara_designer.agents import GreedyAgent, make_agent, play_match
from kiwara_designer.games.awimbawe import AwimbaweVariant, new_round, parse_card
from kiwara_designer.games.awimbawe.greedy import AwimbaweGreedy
from kiwara_designer.core.game import CHANCE, get_game, sample_chance

GAME = get_game("awimbawe")
LIMIT_1 = AwimbaweVariant(hyenas_to_lose=1)
# Piles: player 0's bottoms and tops, player 1's; the hands (12 cards left) vary per test.
BOTTOMS = (("P1", "P2", "P3", "P4"), ("P5", "P6", "M1", "M2"))
TOPS = (("M3", "M5", "M6", "E8"), ("E9", "E10", "D5", "D6"))


def follower_choice(lead: str, hand0: str, hand1: str, variant=AwimbaweVariant()) -> str:
    """Player 0 leads ``lead`` in a round dealt with these hands; what greedy answers with."""
    names = [*BOTTOMS[0], *BOTTOMS[1], *TOPS[0], *TOPS[1], *hand0.split(), *hand1.split()]
    assert len(set(names)) == 28
    state = new_round([parse_card(n) for n in names], 0, variant).apply(lead)
    assert state.current_player() == 1
    return str(AwimbaweGreedy().choose(state, random.Random(0)))


def test_wins_a_trick_with_crowns_with_the_cheapest_winner():
    # the mouse (3 crowns) led: the elephant would lose to it; the hyena is the cheapest winner
    assert follower_choice("G1", "G1 G2 G3 D1 D2 D3", "G4 G5 G6 D4 M4 E7") == "G4"


def test_avoids_the_fatal_hyena_and_hands_it_over():
    # a hyena led: under the rulebook's 4 hyenas, take it with the snake (cheaper than the
    # elephant); when one hyena loses the round, duck under it with the cheetah instead
    assert follower_choice("G4", "G1 G2 G4 D1 D2 D3", "G3 G5 G6 D4 M4 E7").startswith("G5")
    assert follower_choice("G4", "G1 G2 G4 D1 D2 D3", "G3 G5 G6 D4 M4 E7",
                           LIMIT_1).startswith("G3")


def test_eagles_fight_for_crowns_and_flee_from_the_fatal_hyena():
    hands = ("G1 G2 G3 G4 G5 G6", "D1 D2 D3 D4 M4 E7")       # player 1 is void in grassland
    assert follower_choice("G1", *hands) == "E7:fight"       # the cheapest eagle takes 3 crowns
    assert follower_choice("G4", *hands, LIMIT_1) == "E7:flee"   # the leader takes the hyena


def test_greedy_is_the_games_own_and_beats_random():
    assert type(make_agent("greedy", GAME)) is AwimbaweGreedy
    assert type(make_agent("greedy")) is GreedyAgent          # other games keep the generic one
    greedy, rand = make_agent("greedy", GAME), make_agent("random", GAME)
    wins = games = 0
    for deal in range(40):                                    # each deal with seats swapped
        for seat in (0, 1):
            agents = (greedy, rand) if seat == 0 else (rand, greedy)
            final, _ = play_match(GAME.new_state(), agents, random.Random(f"{deal}:{seat}"),
                                  random.Random(deal))
            wins += final.returns()[seat] > 0
            games += 1
    assert wins / games > 0.55        # 0.67 over 200 matches in the benchmark


def test_agents_choose_alike_from_states_their_player_cannot_tell_apart():
    agents = [make_agent(spec, GAME) for spec in ("greedy", "ismcts:8", "random")]
    rng = random.Random(3)
    state, compared = GAME.new_state(), 0
    while not state.is_terminal() and compared < 30:
        player = state.current_player()
        if player == CHANCE:
            state = state.apply(sample_chance(state, rng))
            continue
        twin = state.determinize(player, rng)
        if twin != state:
            compared += 1
            for agent in agents:
                assert str(agent.choose(state, random.Random(compared))) == \
                    str(agent.choose(twin, random.Random(compared))), agent.name
        state = state.apply(rng.choice(state.legal_moves()))
    assert compared >= 10


def test_match_value_at_a_rounds_end_takes_later_rounds_as_coin_flips():
    from kiwara_designer.games.awimbawe.evaluation import match_win_chance
    # by hand: one round needed each, a coin flip; one against two: 1 − ¼; two each: ½;
    # two against three: the 2nd win comes before the 3rd loss in 2, 3 or 4 rounds,
    # ¼ + 2/8 + 3/16 = 11/16
    assert match_win_chance(1, 1) == 0.5
    assert match_win_chance(1, 2) == 0.75 and match_win_chance(2, 1) == 0.25
    assert match_win_chance(2, 2) == 0.5
    assert match_win_chance(2, 3) == 11 / 16
    assert match_win_chance(0, 2) == 1.0 and match_win_chance(2, 0) == 0.0


def _round_two(seed: int):
    """A match played at random to the first move of its second round, and the agents' rng."""
    rng = random.Random(seed)
    state = GAME.new_state()
    while state.round_index == 0 or state.current_player() == CHANCE:
        move = (sample_chance(state, rng) if state.current_player() == CHANCE
                else rng.choice(state.legal_moves()))
        state = state.apply(move)
    return state


def test_ismcts_playouts_stop_at_the_end_of_the_round_and_value_the_match(monkeypatch):
    state = _round_two(4)
    leader = state.rounds_won.index(1)
    assert GAME.stage(state) == 1 and GAME.stage_returns(state)[leader] == 0.5   # 1-0 of 2
    stopped = []
    plain = GAME.stage_returns

    def spy(world):
        stopped.append(world)
        return plain(world)

    monkeypatch.setattr(GAME, "stage_returns", spy)
    agent = make_agent("ismcts:40", GAME)
    agent.search(state, random.Random(0))
    # every playout started in round 2 stopped right where that round ended, at 1-1 (2-0
    # ends the match, whose returns() count as they are; so does a playout in round 3)
    assert len(stopped) >= 10
    for world in stopped:
        assert world.round_index == 2 and not world.is_terminal()
        assert world.rounds_won == (1, 1)
    stopped.clear()
    make_agent("ismcts:40:random:end", GAME).search(state, random.Random(0))
    assert stopped == []                                # to the match's end, as before
