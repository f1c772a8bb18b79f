"""The engine against tests/awimbawe_reference.py, an independent simple implementation written
from the rules page alone: perft to depth 4 from seeded deals, and every legal-move list and
round result along hundreds of random rounds, in the rulebook's and the Game Park variant."""
from __future__ import annotations

import random

import pytest

import awimbawe_reference as reference
from kiwara_designer.games.awimbawe import NAMES, new_round, round_perft
from kiwara_designer.games.awimbawe.state import DEALING, OVER, PLAYING, shuffled_deck

VARIANTS = {"classic": {}, "gamepark": {"cheetah_may_pass": False, "snake_hidden_tops": True}}


def seeded_deal(seed: int, variant: dict):
    deck = [NAMES[c] for c in shuffled_deck(random.Random(seed))]
    state = new_round(deck, None, variant)
    if state.phase != PLAYING:                      # a tie: the seed settles it
        state = new_round(deck, seed % 2, variant)
    return deck, state.first_leader, state


@pytest.mark.parametrize("name", sorted(VARIANTS))
@pytest.mark.parametrize("seed,plies", [(1, 0), (2, 0), (3, 6), (4, 11)])
def test_perft_4_agrees(name, seed, plies):
    """From the deal, and from a position a few random moves in (powers then in play)."""
    variant = VARIANTS[name]
    deck, leader, state = seeded_deal(seed, variant)
    rng = random.Random(seed)
    moves: list[str] = []
    for _ in range(plies):
        move = rng.choice(state.record_moves())
        state = state.apply_recorded(move)
        moves.append(move.text)
    ours = [round_perft(state, d) for d in range(1, 5)]
    theirs = [reference.perft(deck, leader, variant, moves, d) for d in range(1, 5)]
    assert ours == theirs


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_every_legal_move_list_along_random_rounds_agrees(name):
    variant = VARIANTS[name]
    for seed in range(150):
        deck, leader, state = seeded_deal(1000 + seed, variant)
        rng = random.Random(seed)
        theirs = reference.replay(deck, leader, variant, [])
        moves = []
        while state.phase == PLAYING:
            ours = {m.text for m in state.record_moves()}
            assert ours == set(reference.legal_in(theirs)), (deck, leader, moves)
            move = rng.choice(state.record_moves())
            state = state.apply_recorded(move)
            theirs = reference.apply(theirs, move.text)
            moves.append(move.text)
        assert state.phase in (DEALING, OVER) and reference.legal_in(theirs) == []
        result = state.rounds[0]
        expected = reference.round_result(deck, leader, variant, moves)
        assert (result.winner, list(result.crowns), result.by_hyenas, result.tricks) == \
            (expected["winner"], expected["crowns"], expected["hyenas"], expected["tricks"])
