"""Awimbawé rounds whose crowns tie (impossible with the rulebook's 45 crowns, possible under a
variant): the variant parameter ``crown_tie`` decides, hand-checked on one-trick rounds, and the
engine agrees with the independent reference (tests/awimbawe_reference.py) along random rounds
of a variant where ties are common."""
from __future__ import annotations

import random

import pytest

import awimbawe_reference as reference
from kiwara_designer.games.awimbawe import NAMES, AwimbaweVariant, new_round
from kiwara_designer.games.awimbawe.state import PLAYING, shuffled_deck
from kiwara_designer.core.variants import VariantError

# One card each: player 0 holds the hyena G4, player 1 the eagle E7 (the rest is set aside).
# Player 0 leads G4; player 1 cannot follow suit and must play the eagle, fleeing or fighting.
DECK = "G4 E7 G1 G2 G3 G5 G6 D1 D2 D3 D4 D5 D6 M1 M2 M3 M4 M5 M6 P1 P2 P3 P4 P5 P6 E8 E9 E10"
ONE_TRICK = {"piles": 0, "hand_size": 1, "crowns": {"hyena": 0}}     # G4 and E7: 0 crowns each


@pytest.mark.parametrize("answer,crown_tie,winner", [
    # flee: player 0 wins the trick and keeps G4 (1 hyena), player 1 banks E7: 0-0 crowns
    ("E7:flee", "last_trick", 0),
    ("E7:flee", "fewer_hyenas", 1),     # player 1 holds no hyena, player 0 one
    # fight: player 1 wins the trick and takes both cards (G4 among them): still 0-0 crowns
    ("E7:fight", "last_trick", 1),
    ("E7:fight", "fewer_hyenas", 0),
])
def test_a_tied_round_goes_as_crown_tie_says(answer, crown_tie, winner):
    rules = {**ONE_TRICK, "crown_tie": crown_tie}
    state = new_round(DECK, 0, rules).apply("G4").apply(answer)
    result = state.rounds[0]
    assert (result.crowns, result.by_hyenas, result.tricks) == ((0, 0), False, 1)
    assert result.winner == winner and state.rounds_won[winner] == 1
    expected = reference.round_result(DECK, 0, rules, ["G4", answer])
    assert (expected["winner"], expected["crowns"]) == (winner, [0, 0])


@pytest.mark.parametrize("crown_tie", ["last_trick", "fewer_hyenas"])
def test_more_crowns_win_whatever_crown_tie_says(crown_tie):
    rules = {**ONE_TRICK, "crowns": {"hyena": 1}, "crown_tie": crown_tie}
    state = new_round(DECK, 0, rules).apply("G4").apply("E7:flee")    # G4 now 1 crown, E7 0
    assert state.rounds[0].crowns == (1, 0) and state.rounds[0].winner == 0
    assert reference.round_result(DECK, 0, rules, ["G4", "E7:flee"])["winner"] == 0


def test_crown_tie_is_checked_and_defaults_to_the_last_trick():
    assert AwimbaweVariant().crown_tie == "last_trick"
    with pytest.raises(VariantError, match=r"key 'crown_tie': must be \"last_trick\" or "
                                           r"\"fewer_hyenas\", got \"nobody\" \(text\)"):
        AwimbaweVariant.from_toml('crown_tie = "nobody"', "v.toml")
    with pytest.raises(ValueError, match="crown_tie"):
        reference.round_result(DECK, 0, {**ONE_TRICK, "crown_tie": "nobody"}, ["G4", "E7:flee"])


@pytest.mark.parametrize("crown_tie", ["last_trick", "fewer_hyenas"])
def test_random_rounds_with_frequent_ties_agree_with_the_reference(crown_tie):
    # every card one crown and 8 cards dealt (4 tricks): a 2-2 split of tricks ties
    rules = {"piles": 1, "hand_size": 2, "crown_tie": crown_tie,
             "crowns": dict.fromkeys(("mouse", "rhinoceros", "cheetah", "hyena", "snake",
                                      "elephant"), 1),
             "eagle_crowns": dict.fromkeys(("7", "8", "9", "10"), 1)}
    ties = 0
    for seed in range(120):
        deck = [NAMES[c] for c in shuffled_deck(random.Random(seed))]
        state = new_round(deck, seed % 2, {**rules, "round1_leader": "random"})
        rng, moves = random.Random(seed), []
        while state.phase == PLAYING:
            move = rng.choice(state.record_moves())
            state = state.apply_recorded(move)
            moves.append(move.text)
        result = state.rounds[0]
        expected = reference.round_result(deck, seed % 2, {**rules, "round1_leader": "random"},
                                          moves)
        assert (result.winner, list(result.crowns)) == (expected["winner"], expected["crowns"])
        ties += result.crowns[0] == result.crowns[1] and not result.by_hyenas
    assert ties >= 10       # the variant does tie often (a test of something)
