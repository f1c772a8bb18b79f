"""Awimbawé through the core game protocol: registry, chance nodes, evaluation from a player's
information only, and random rounds that always end properly."""
from __future__ import annotations

import random

import pytest

from kiwara_designer.games.awimbawe.state import (DEALING, OVER, new_round, round_perft,
                                                  shuffled_deck)
from kiwara_designer.core.game import CHANCE, TERMINAL, Game, State, get_game, perft, sample_chance

GAME = get_game("awimbawe")


def test_registered_and_protocol_shaped():
    assert isinstance(GAME, Game) and GAME.name == "awimbawe"
    assert not GAME.perfect_information and GAME.chance and GAME.players == 2
    state = GAME.new_state()
    assert isinstance(state, State) and state.current_player() == CHANCE
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 28 and abs(sum(p for _, p in outcomes) - 1) < 1e-12


def test_the_deal_card_by_card_lays_out_the_deck():
    state = GAME.new_state()
    deck = shuffled_deck(random.Random(1))
    from kiwara_designer.games.awimbawe.cards import NAMES
    for k, card in enumerate(deck):
        assert len(state.chance_outcomes()) == 28 - k
        state = state.apply(f"deal:{NAMES[card]}")
    direct = new_round(deck)
    assert (state.hand, state.piles, state.down, state.to_move) == \
        (direct.hand, direct.piles, direct.down, direct.to_move)


def test_perft_of_the_protocol_counts_chance_moves_and_the_record_view_blind_outcomes():
    state = new_round(shuffled_deck(random.Random(11)), 0)
    assert perft(state, 1) == len(state.legal_moves())
    assert round_perft(state, 1) == len(state.record_moves())
    # the record view never has a bare blind "M5:h"; the protocol never has "M5:h=…"
    assert not any(m.text.endswith(":h") for m in state.record_moves())
    assert not any(":h=" in m.text for m in state.legal_moves())


def random_round(rng, variant=None):
    state = new_round(shuffled_deck(rng), None, variant)
    while state.phase not in (DEALING, OVER):
        if state.current_player() == CHANCE:
            state = state.apply(sample_chance(state, rng))
        else:
            state = state.apply(rng.choice(state.legal_moves()))
    return state.rounds[0]


@pytest.mark.parametrize("variant", [None, "gamepark", "three_hyenas", "no_snake"])
def test_random_rounds_end_by_hyenas_or_with_all_crowns_shared(variant):
    # benchmarks/awimbawe_speed.py runs the same check over 100,000 rounds
    rng = random.Random(len(variant or ""))
    limit = 3 if variant == "three_hyenas" else 4
    for _ in range(300):
        result = random_round(rng, variant)
        if result.by_hyenas:
            # a trick may bring two hyenas at once
            assert result.hyenas[1 - result.winner] in (limit, limit + 1)
        else:
            assert sum(result.crowns) == 45 and max(result.hyenas) < limit
            assert result.crowns[result.winner] > result.crowns[1 - result.winner]
            assert result.tricks == 14


def test_evaluate_uses_only_the_player_information():
    rng = random.Random(4)
    for seed in range(20):
        state = new_round(shuffled_deck(random.Random(seed)), 0)
        for _ in range(seed):
            if state.phase != 3:
                break
            state = state.apply_recorded(rng.choice(state.record_moves()))
        for player in (0, 1):
            world = state.determinize(player, rng)
            assert GAME.evaluate(world, player) == GAME.evaluate(state, player)
            assert -1 <= GAME.evaluate(state, player) <= 1


def test_terminal_returns_and_outcome():
    rng = random.Random(9)
    state = GAME.new_state()
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state = state.apply(sample_chance(state, rng))
        else:
            state = state.apply(rng.choice(state.legal_moves()))
    assert state.current_player() == TERMINAL and state.legal_moves() == []
    winner = state.match_winner
    assert state.returns()[winner] == 1 and state.returns()[1 - winner] == -1
    assert GAME.evaluate(state, winner) == 1
    outcome = GAME.outcome(state)
    assert outcome.scores[winner] == 2 and outcome.stats["rounds_played"] == len(state.rounds)
