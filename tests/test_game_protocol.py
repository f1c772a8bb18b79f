"""Conformance of every registered game, and of the tests' toy games, to the core protocol
(kiwara_designer/core/game.py): determinism from seeds, apply accepts exactly the legal moves,
chance outcomes are a distribution, information states hide what they must and determinize keeps
them, returns are zero-sum at the end."""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from kiwara_designer.core.game import (CHANCE, TERMINAL, GameNotFoundError, game_names, get_game,
                                       perft, sample_chance)
from kiwara_designer.core.errors import KiwaraError

sys.path.insert(0, str(Path(__file__).parent))
from playtest_toy import SMALL, TOY_GAME  # noqa: E402
from toy_games import GAMBLE, KUHN, TAKE_AWAY, Kuhn  # noqa: E402



class KiwaraDeck(type(get_game("kiwara"))):
    """Kiwara with the reinforcement deck and a handicap: chance nodes at the deal and the draw."""

    name = "kiwara-deck"

    def default_variant(self):
        from kiwara_designer.games.kiwara import KiwaraVariant
        return KiwaraVariant(reinforcement="deck", handicap=(1, 1))


GAMES = [get_game(name) for name in game_names()] + [KiwaraDeck(), TAKE_AWAY, KUHN, GAMBLE,
                                                     TOY_GAME]
SETUPS = {TOY_GAME.name: SMALL}
WALKS = 4          # random games walked per game and test


def start(game):
    return game.new_state(SETUPS.get(game.name), game.default_variant())


def walk(game, seed: int, limit: int = 500) -> list:
    """The states of one game played at random (chance drawn with its probabilities)."""
    rng = random.Random(seed)
    states = [start(game)]
    while not states[-1].is_terminal() and len(states) < limit:
        state = states[-1]
        if state.current_player() == CHANCE:
            move = sample_chance(state, rng)
        else:
            move = rng.choice(state.legal_moves())
        states.append(state.apply(move))
    assert states[-1].is_terminal(), f"{game.name}: no end after {limit} moves"
    return states


def moves_of(states) -> list[str]:
    """The moves between consecutive states, as text (found among the legal ones)."""
    found = []
    for before, after in zip(states, states[1:]):
        found.append(next(str(m) for m in before.legal_moves() if before.apply(m) == after))
    return found


ids = [g.name for g in GAMES]


def test_every_registered_game_is_found_by_name():
    assert "kiwara" in game_names()
    for name in game_names():
        game = get_game(name)
        assert game.name == name and game.players == 2
        assert start(game).game is game
    with pytest.raises(GameNotFoundError, match="unknown game 'chess'"):
        get_game("chess")


@pytest.mark.parametrize("game", GAMES, ids=ids)
def test_the_same_seed_plays_the_same_game(game):
    for seed in range(WALKS):
        one, two = walk(game, seed), walk(game, seed)
        assert one == two
        assert moves_of(one) == moves_of(two)
        for player in (0, 1):
            assert ([s.information_state(player) for s in one]
                    == [s.information_state(player) for s in two])
    assert len({tuple(moves_of(walk(game, seed))) for seed in range(8)}) > 1, "seeds matter"


@pytest.mark.parametrize("game", GAMES, ids=ids)
def test_apply_accepts_exactly_the_legal_moves(game):
    for seed in range(WALKS):
        states = walk(game, seed)
        seen = [m for s in states for m in s.legal_moves()]
        for state in states[::3]:
            legal = state.legal_moves()
            for move in legal:
                state.apply(move)                     # every legal move is accepted
            strangers = [m for m in seen if m not in legal][:20]
            for move in strangers:
                with pytest.raises(KiwaraError):
                    state.apply(move)
        with pytest.raises(KiwaraError):          # nothing is legal at the end
            states[-1].apply(seen[0])


@pytest.mark.parametrize("game", GAMES, ids=ids)
def test_who_moves_and_the_returns(game):
    for seed in range(WALKS):
        states = walk(game, seed)
        for state in states[:-1]:
            assert state.current_player() in (0, 1, CHANCE)
            assert state.legal_moves() and not state.is_terminal()
            assert tuple(state.returns()) == (0.0, 0.0)
        final = states[-1]
        assert final.current_player() == TERMINAL and final.legal_moves() == []
        returns = final.returns()
        assert len(returns) == 2 and sum(returns) == 0 and set(returns) <= {-1.0, 0.0, 1.0}
        outcome = game.outcome(final)
        winner = None if returns[0] == returns[1] else (0 if returns[0] > returns[1] else 1)
        assert outcome.winner == winner and len(outcome.scores) == 2


@pytest.mark.parametrize("game", GAMES, ids=ids)
def test_chance_outcomes_are_a_distribution_over_the_legal_moves(game):
    chance_nodes = 0
    for seed in range(WALKS):
        for state in walk(game, seed):
            outcomes = state.chance_outcomes()
            if state.current_player() != CHANCE:
                assert outcomes == []
                continue
            chance_nodes += 1
            assert [m for m, _ in outcomes] == state.legal_moves()
            assert all(p > 0 for _, p in outcomes)
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert (chance_nodes > 0) == game.has_chance(game.default_variant())


@pytest.mark.parametrize("game", GAMES, ids=ids)
def test_information_states_and_determinize(game):
    rng = random.Random(0)
    hidden_seen = other_saw = False
    for seed in range(WALKS):
        states = walk(game, seed)
        for state in states:
            for player in (0, 1):
                key = state.information_state(player)
                hash(key)
                for _ in range(3):
                    guess = state.determinize(player, rng)
                    assert guess.information_state(player) == key
                    if game.perfect_information:
                        assert guess == state
                    elif guess != state:
                        hidden_seen = True
                        # what was redrawn is hidden from this player; some of it may be hidden
                        # from both (Awimbawé's face-down cards), some seen by the other player
                        other_saw |= guess.information_state(1 - player) != \
                            state.information_state(1 - player)
        if game.perfect_information:
            # nothing is hidden: different positions are told apart by both players
            for player in (0, 1):
                keys = [s.information_state(player) for s in states]
                assert len(set(keys)) == len(set(states))
    assert hidden_seen != game.perfect_information
    assert other_saw != game.perfect_information


def test_kuhn_hides_the_other_card_and_nothing_else():
    dealt = Kuhn(("K", "J"), "p")
    other = Kuhn(("K", "Q"), "p")                 # differs only in the second player's card
    assert dealt.information_state(0) == other.information_state(0)
    assert dealt.information_state(1) != other.information_state(1)
    assert dealt.information_state(0) != Kuhn(("K", "J"), "b").information_state(0)
    assert dealt.information_state(0) != Kuhn(("Q", "J"), "p").information_state(0)
    # before the second card is dealt the second player has seen nothing
    assert Kuhn(("J",)).information_state(1) == Kuhn(("K",)).information_state(1)


def test_perft_counts_chance_moves_once_each():
    assert perft(KUHN.new_state(), 2) == 6          # 3 cards, then 2
    assert perft(KUHN.new_state(), 3) == 12         # then check or bet
    assert perft(get_game("kiwara").new_state(), 2) == 1800   # the rules reference's value


HIDDEN = [g for g in GAMES if not g.perfect_information]


@pytest.mark.parametrize("game", HIDDEN, ids=[g.name for g in HIDDEN])
def test_agents_decide_from_what_their_player_sees(game):
    """Hidden information is honest: an agent given a state, or another state its player cannot
    tell apart (a determinization), with the same generator, makes the same choice. Every agent
    but the declared cheats (cheat-ismcts: tests/test_agents_ismcts.py)."""
    from kiwara_designer.agents import AgentSpecError, agent_kinds, make_agent
    agents = []
    for kind in agent_kinds(game, honest=True):
        for spec in (f"{kind}:5", kind):        # a small budget where the agent takes one
            try:
                agents.append(make_agent(spec, game))
                break
            except AgentSpecError:
                continue
    assert {a.name for a in agents} >= {"random", "greedy"}
    rng = random.Random(1)
    compared = 0
    for seed in range(WALKS):
        # every third state: a search agent on a whole Awimbawé match costs ~30 ms a choice
        for state in walk(game, seed)[:-1][::3]:
            player = state.current_player()
            if player == CHANCE:
                continue
            twin = state.determinize(player, rng)
            for agent in agents:
                assert agent.choose(state, random.Random(seed)) == \
                    agent.choose(twin, random.Random(seed)), agent.name
            compared += twin != state
    assert compared, "no state with something hidden was compared"


@pytest.mark.parametrize("game", GAMES, ids=ids)
def test_a_setup_key_stands_for_the_setup_it_keys(game):
    setup = SETUPS.get(game.name)
    key = game.setup_key(setup)
    assert isinstance(key, str) and key
    again = game.setup_from_key(key)
    assert game.setup_key(again) == key
    assert game.new_state(again, game.default_variant()).legal_moves()   # a setup to play from


def test_kiwara_keys_a_layout_up_to_the_half_turn_only():
    from kiwara_designer.games.kiwara.formats import load_layout
    kiwara, board = get_game("kiwara"), load_layout("president")
    turns = {s.name: board.transformed(s) for s in board.grid.symmetries}
    assert kiwara.setup_key(turns["half-turn"]) == kiwara.setup_key(board)
    assert kiwara.setup_key(turns["left-right mirror"]) != kiwara.setup_key(board)
    assert kiwara.setup_from_key(kiwara.setup_key(board)) == board.canonical_game()


def test_awimbawe_keys_matches_dealt_from_their_seed_or_a_given_deck():
    from kiwara_designer.games.awimbawe.state import Deal
    awimbawe = get_game("awimbawe")
    assert awimbawe.setup_key(None) == "deals" and awimbawe.setup_from_key("deals") is None
    deck = ("D4 G6 P5 D3 D2 E9 M3 P2 E10 E7 M2 E8 M4 P4 G1 D1 M5 P6 P1 D6 G4 M6 G3 G2 P3 M1 "
            "G5 D5")
    assert awimbawe.setup_key(deck) == f"deck {deck}"
    led = Deal.parse(deck, 1)
    assert awimbawe.setup_key(led) == f"deck {deck} leader 1"
    assert awimbawe.setup_from_key(f"deck {deck} leader 1") == led
    with pytest.raises(KiwaraError, match="not an Awimbawé setup"):
        awimbawe.setup_from_key("shuffle")
