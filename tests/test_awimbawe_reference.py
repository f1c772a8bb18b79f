"""Hand-checked situations for the Awimbawé reference (tests/awimbawe_reference.py) itself.

Most situations use small deals (variant ``piles``/``hand_size``) so every expected list below can be
worked out by hand from the rules page; the comments give that working.
"""
from __future__ import annotations

import random

import pytest

from awimbawe_reference import (ALL_CARDS, DEFAULTS, apply, crowns_of, legal_in, legal_moves, make_rules,
                                perft, replay, round_result)


def deal(bottoms0, bottoms1, tops0, tops1, hand0, hand1):
    """Deck in the page's deal order, the cards not dealt appended (set aside by small variants)."""
    dealt = bottoms0 + bottoms1 + tops0 + tops1 + hand0 + hand1
    return dealt + [c for c in ALL_CARDS if c not in dealt]


def small(piles, hand_size, **more):
    return dict({"piles": piles, "hand_size": hand_size, "round1_leader": "random"}, **more)


# -- cards, crowns, first leader -------------------------------------------------------------------
def test_the_deck_holds_45_crowns():
    rules = make_rules({})
    # 4 suits x (3+2+2+3+1+1) = 48, eagles 0+0-1-2 = -3
    assert sum(crowns_of(c, rules) for c in ALL_CARDS) == 45
    assert len(ALL_CARDS) == 28


def test_fewer_crowns_on_face_up_pile_cards_leads():
    # player 0's face-up tops: 4 elephants = 4 crowns; player 1's: 4 mice = 12 crowns
    deck = deal(["G2", "D2", "M2", "P2"], ["G3", "D3", "M3", "P3"], ["G6", "D6", "M6", "P6"],
                ["G1", "D1", "M1", "P1"], ["G4", "D4", "M4", "P4", "E7", "E8"],
                ["G5", "D5", "M5", "P5", "E9", "E10"])
    moves = legal_moves(deck, None, {}, [])
    assert {m.split(":")[0] for m in moves} == {"G6", "D6", "M6", "P6", "G4", "D4", "M4", "P4",
                                               "E7", "E8"}
    assert legal_moves(deck, 0, {}, []) == moves
    with pytest.raises(ValueError):
        legal_moves(deck, 1, {}, [])          # the record contradicts the crowns
    # random first leader: the record's leader is taken as given
    assert legal_moves(deck, 1, {"round1_leader": "random"}, [])[0] == "G1"


def test_a_tie_of_face_up_crowns_is_settled_by_the_leader_field():
    deck = deal(["M1"], ["M6"], ["G1"], ["P1"], ["D1"], ["D6"])
    variant = {"piles": 1, "hand_size": 1}
    assert legal_moves(deck, 1, variant, []) == ["D6", "P1"]
    assert legal_moves(deck, 0, variant, []) == ["G1", "D1"]
    with pytest.raises(ValueError):
        legal_moves(deck, None, variant, [])


# -- following ----------------------------------------------------------------------------------------
def test_follow_suit_counts_hand_and_face_up_tops_only():
    # player 1's grassland bottoms G1 G2 are face down: they neither count nor can be played
    deck = deal(["M1", "M2"], ["G1", "G2"], ["G3", "D6"], ["D1", "G4"], ["P1", "P2", "E7"],
                ["G6", "E8", "P6"])
    assert legal_moves(deck, 0, small(2, 3), ["G3"]) == ["G4", "G6"]


def test_no_led_suit_means_an_eagle_that_flees_or_fights():
    deck = deal(["M1", "M2"], ["G1", "G2"], ["G3", "D6"], ["D1", "M4"], ["P1", "P2", "E7"],
                ["E8", "P6", "D4"])
    assert sorted(legal_moves(deck, 0, small(2, 3), ["G3"])) == ["E8:fight", "E8:flee"]
    assert legal_moves(deck, 0, small(2, 3, eagle_may_flee=False), ["G3"]) == ["E8:fight"]


def test_no_led_suit_and_no_eagle_means_any_card():
    # player 0 played G3 from pile 1: holds M1 (face down, uncovered), M2+D6 in pile 2, P1 P2 E7.
    # The snake may name pile 2's top D6 (not the face-down M1) or, blind, a hand card; the cheetah
    # may choose the next leader; the hyena and the elephant are bare.
    deck = deal(["M1", "M2"], ["E8", "G1"], ["G3", "D6"], ["D1", "M4"], ["P1", "P2", "E7"],
                ["P6", "D5", "M3"])
    assert sorted(legal_moves(deck, 0, small(2, 3), ["G3"])) == sorted(
        ["D1", "M4", "P6", "D5", "D5:p2", "D5:h=P1", "D5:h=P2", "D5:h=E7", "M3", "M3:me", "M3:you"])


def test_a_discard_loses_and_the_mouse_beats_its_elephant():
    # T1 G1 (p0) vs discard P6: p0 wins (a discard loses whatever its value).
    # T2 D1 (p0) vs D6: the desert mouse beats the desert elephant. T3 M1 vs M6: the same.
    deck = deal(["M1"], ["M6"], ["G1"], ["P6"], ["D1"], ["D6"])
    moves = ["G1", "P6", "D1", "D6", "M1", "M6"]
    assert round_result(deck, 0, small(1, 1), moves) == {
        "winner": 0, "crowns": [3 + 1 + 3 + 1 + 3 + 1, 0], "hyenas": False, "tricks": 3}
    # without the mouse's power the elephants win T2 and T3 (player 1 leads T3 with M6)
    plain = small(1, 1, mouse_beats_elephant=False)
    assert round_result(deck, 0, plain, ["G1", "P6", "D1", "D6", "M6", "M1"]) == {
        "winner": 1, "crowns": [4, 8], "hyenas": False, "tricks": 3}


def test_an_elephant_led_loses_to_the_mouse_that_follows():
    deck = deal(["G1"], ["P1"], ["M6"], ["D6"], ["G6"], ["M1"])
    # T1 M6 vs M1 (must follow): the mouse wins, so player 1 leads next, with its pile top D6
    # (P1 beneath it stays covered)
    assert legal_moves(deck, 0, small(1, 1), ["M6"]) == ["M1"]
    assert legal_moves(deck, 0, small(1, 1), ["M6", "M1"]) == ["D6"]


def test_perft_of_a_tiny_round_counted_by_hand():
    deck = deal(["M1"], ["M6"], ["G1"], ["P6"], ["D1"], ["D6"])
    # p0: pile [M1 down, G1 up], hand D1; p1: pile [M6 down, P6 up], hand D6.
    # depth 1: G1 D1. 2: G1 -> P6|D6 (discards), D1 -> D6 (follow).
    # 3: p0 wins each; after G1 it holds M1 D1 (2 + 2), after D1 only G1 (M1 still covered): 5.
    # 4: (G1,P6,M1)->M6 (G1,P6,D1)->D6 (G1,D6,M1)->P6 (G1,D6,D1)->P6 (D1,D6,G1)->P6: 5.
    counts = [perft(deck, 0, small(1, 1), [], d) for d in range(8)]
    assert counts[:5] == [1, 2, 3, 5, 5]
    assert counts[6] == counts[5] and counts[7] == 0   # every line ends after 3 tricks (6 moves)
    assert legal_moves(deck, 0, small(1, 1), ["G1", "P6", "D1", "D6", "M1", "M6"]) == []


def test_illegal_moves_raise():
    deck = deal(["M1"], ["M6"], ["G1"], ["P6"], ["D1"], ["D6"])
    for moves in (["M1"],            # a face-down card
                  ["D1", "P6"],      # must follow with D6
                  ["G3"],            # not held
                  ["G1:me"],         # a mouse has no choice
                  ["G1", "P6", "D1", "D6", "M1", "M6", "G1"]):   # after the round
        with pytest.raises(ValueError):
            legal_moves(deck, 0, small(1, 1), moves)


# -- eagles --------------------------------------------------------------------------------------------
def test_a_fleeing_eagle_scores_for_its_player_but_the_leader_wins_the_trick():
    deck = deal(["M1"], ["M6"], ["G6"], ["E9"], ["D1"], ["P6"])
    assert legal_moves(deck, 0, small(1, 1), ["G6", "E9:flee"]) == ["D1", "M1"]     # p0 leads
    assert legal_moves(deck, 0, small(1, 1), ["G6", "E9:fight"]) == ["M6", "P6"]    # p1 leads
    # flee, then D1 vs discard P6 and M1 vs M6 for player 0; player 1 keeps only E9 (-1 crown)
    assert round_result(deck, 0, small(1, 1), ["G6", "E9:flee", "D1", "P6", "M1", "M6"]) == {
        "winner": 0, "crowns": [1 + 3 + 1 + 3 + 1, -1], "hyenas": False, "tricks": 3}


def test_an_eagle_lead_is_answered_by_an_eagle_bare():
    deck = deal(["M1"], ["M6"], ["E9"], ["E8"], ["D1"], ["E10"])
    assert legal_moves(deck, 0, small(1, 1), []) == ["D1", "E9"]
    assert legal_moves(deck, 0, small(1, 1), ["E9"]) == ["E8", "E10"]
    assert legal_moves(deck, 0, small(1, 1), ["E9", "E8"]) == ["D1", "M1"]      # 9 beats 8
    assert legal_moves(deck, 0, small(1, 1), ["E9", "E10"]) == ["E8"]           # 10 beats 9
    no_eagle = deal(["M1"], ["M6"], ["E9"], ["G6"], ["D1"], ["P6"])
    assert legal_moves(no_eagle, 0, small(1, 1), ["E9"]) == ["G6", "P6"]        # a discard


# -- rhinoceros -----------------------------------------------------------------------------------
def test_rhinoceros_targets_count_every_pile_and_position():
    # At the start each opponent pile holds two cards: 4 sources x 4 positions (its own allowed)
    # + the bare card = 17 moves for each rhinoceros.
    deck = deal(["G1", "D1", "M1", "P1"], ["G6", "D6", "M6", "P6"], ["G2", "D4", "M4", "P4"],
                ["G5", "D5", "M5", "P5"], ["E7", "E8", "G3", "D3", "M3", "P3"],
                ["E9", "E10", "G4", "D2", "M2", "P2"])
    moves = legal_moves(deck, 0, {"round1_leader": "random"}, [])
    assert len([m for m in moves if m.startswith("G2")]) == 17
    assert "G2:3>3" in moves and "G2:1>4" in moves


def test_a_following_rhinoceros_may_move_an_uncovered_face_down_card():
    # p0 leads G6 from pile 1: its piles are [G1 down] and [D1 down, D6 up]. p1 follows with G2:
    # pile 1 (one card) may go only under pile 2; pile 2's top under pile 1 or under itself.
    deck = deal(["G1", "D1"], ["P1", "P6"], ["G6", "D6"], ["G2", "M4"], ["M1", "M6"], ["P4", "E7"])
    variant = small(2, 2)
    assert legal_moves(deck, 0, variant, ["G6"]) == ["G2", "G2:1>2", "G2:2>1", "G2:2>2"]
    # G6 beats G2: p0 leads. After 1>2 p0's only pile is pile 2 = [G1, D1, D6]: D6 is its top.
    assert legal_moves(deck, 0, variant, ["G6", "G2:1>2"]) == ["D6", "M1", "M6"]
    # After 2>2 pile 2 = [D6, D1]; at the end of the trick G1 and D1 are turned up.
    assert legal_moves(deck, 0, variant, ["G6", "G2:2>2"]) == ["G1", "D1", "M1", "M6"]


def test_a_rhinoceros_may_slide_a_card_onto_an_empty_position():
    # p0 plays out pile 1 (G6 then G1); p1 follows G4 then G2. When G2 is played p0's pile 1 is
    # empty and pile 2 is [M1 down, M6 up]: M6 may go to the empty position 1 or under pile 2.
    deck = deal(["G1", "M1"], ["P4", "P6"], ["G6", "M6"], ["G4", "G2"], [], [])
    variant = small(2, 0)
    start = ["G6", "G4", "G1"]
    assert legal_moves(deck, 0, variant, start) == ["G2", "G2:2>1", "G2:2>2"]
    # G2 beats G1, p1 leads P4; p0 discards from what it holds then
    assert legal_moves(deck, 0, variant, start + ["G2:2>1", "P4"]) == ["M1", "M6"]   # two piles
    assert legal_moves(deck, 0, variant, start + ["G2:2>2", "P4"]) == ["M1"]         # M6 beneath


def test_a_rhinoceros_that_leaves_one_pile_with_a_face_down_top_reveals_it_at_once():
    deck = deal(["G1"], ["M6"], ["M2"], ["P1"], ["D6"], ["G6"])
    variant = small(1, 1)
    assert legal_moves(deck, 0, variant, []) == ["D6", "M2", "M2:1>1"]
    # bare: M6 stays face down, so p1 cannot follow and discards
    assert legal_moves(deck, 0, variant, ["M2"]) == ["G6", "P1"]
    # P1 slid under its own pile: M6 is the single pile's face-down top, revealed at once
    assert legal_moves(deck, 0, variant, ["M2:1>1"]) == ["M6"]


def test_no_rhinoceros_power_against_fewer_than_two_pile_cards():
    deck = deal(["G1"], ["M6"], ["G2"], ["P1"], ["D6"], ["G4"])
    variant = small(1, 1)
    # p1 leads P1 from its pile, keeping one pile card (M6): p0's discarded G2 has no power
    assert legal_moves(deck, 1, variant, ["P1"]) == ["G2", "D6"]
    # p1 leads G4 from its hand, keeping two pile cards: p0 follows with G2, power offered
    assert legal_moves(deck, 1, variant, ["G4"]) == ["G2", "G2:1>1"]


def test_a_rhinoceros_may_not_leave_the_opponent_without_a_playable_card():
    # No hands. T1 p1 leads G4; p0 answers G5:p2 blocking p1's M6 and wins; M1 is turned up.
    # T2 p0 leads D2: moving M1 under pile 2 would leave p1 only the blocked M6 -> illegal.
    deck = deal(["E7", "D1"], ["M1", "P6"], ["G5", "D2"], ["G4", "M6"], [], [])
    variant = small(2, 0)
    assert legal_moves(deck, 1, variant, ["G4"]) == ["G5", "G5:p2"]
    assert legal_moves(deck, 1, dict(variant, snake_hidden_tops=True), ["G4"]) == [
        "G5", "G5:p1", "G5:p2"]
    assert legal_moves(deck, 1, variant, ["G4", "G5:p2"]) == ["D2", "D2:2>1", "D2:2>2", "E7"]
    # without the block every slide is fine
    assert legal_moves(deck, 1, variant, ["G4", "G5"]) == [
        "D2", "D2:1>2", "D2:2>1", "D2:2>2", "E7"]


# -- snake ------------------------------------------------------------------------------------------------
def test_snake_needs_two_opponent_cards_not_all_in_one_pile():
    deck = deal(["G1"], ["M1"], ["D6"], ["P6"], ["G5"], ["G4"])
    variant = small(1, 1)
    # p1 led its hand card: it holds M1 and P6 in one pile -> no snake power
    assert legal_moves(deck, 1, variant, ["G4"]) == ["G5"]
    # p1 led P6 from its pile: it holds M1 (face down) and G4 in hand -> only the blind hand target
    assert legal_moves(deck, 1, variant, ["P6"]) == ["G5", "G5:h=G4", "D6"]
    assert legal_moves(deck, 1, dict(variant, snake_hidden_tops=True), ["P6"]) == [
        "G5", "G5:p1", "G5:h=G4", "D6"]


def test_a_snake_never_blocks_the_last_playable_card():
    # Same deal as the rhinoceros case, with a snake D5 in place of D2. After G5:p2 blocked M6,
    # p1 holds M1 (pile 1) and M6 (pile 2, blocked): naming M1 would leave nothing -> illegal;
    # naming M6 again is legal (it changes nothing).
    deck = deal(["E7", "D1"], ["M1", "P6"], ["G5", "D5"], ["G4", "M6"], [], [])
    assert legal_moves(deck, 1, small(2, 0), ["G4", "G5:p2"]) == ["D5", "D5:p2", "E7"]
    assert legal_moves(deck, 1, small(2, 0), ["G4", "G5"]) == ["D5", "D5:p1", "D5:p2", "E7"]


HAND_DEAL = deal(["M4"], ["D4"], ["P4"], ["D6"], ["G5", "M5", "G1"], ["G4", "P6", "M6"])
HAND_START = ["D6", "P4", "D4", "M4", "G4"]   # p1 leads D6, D4, G4; p0 discards P4 and M4


def test_the_blind_snake_counts_one_move_per_hand_card_and_blocks_only_legal_ones():
    variant = small(1, 3)
    # p1 holds P6 and M6 in hand only: both blind outcomes are moves
    assert legal_moves(HAND_DEAL, 1, variant, HAND_START) == ["G1", "G5", "G5:h=M6", "G5:h=P6"]
    # G5 wins; p0 leads a second snake while P6 is blocked: blocking M6 would leave nothing
    assert legal_moves(HAND_DEAL, 1, variant, HAND_START + ["G5:h=P6"]) == [
        "G1", "M5", "M5:h=P6"]
    # p1 follows M6 (P6 is blocked anyway); the block lifts as it plays, so M6 beats M5 and p1
    # leads its last card P6
    assert legal_moves(HAND_DEAL, 1, variant, HAND_START + ["G5:h=P6", "M5"]) == ["M6"]
    assert legal_moves(HAND_DEAL, 1, variant, HAND_START + ["G5:h=P6", "M5", "M6"]) == ["P6"]


def test_a_blocked_card_does_not_count_for_following_suit():
    deck = deal(["M4"], ["D4"], ["P4"], ["D6"], ["G5", "M5", "G1", "G6"], ["G4", "E7", "M6", "P6"])
    start = ["D6", "P4", "D4", "M4", "G4", "G5:h=M6", "M5"]
    # M6 is blocked: p1 cannot follow, so it must play its eagle
    assert sorted(legal_moves(deck, 1, small(1, 4), start)) == ["E7:fight", "E7:flee"]
    # blocked_cards_follow: the blocked M6 counts as following, which frees p1 from the eagle
    assert sorted(legal_moves(deck, 1, small(1, 4, blocked_cards_follow=True), start)) == [
        "E7:fight", "E7:flee", "P6"]


# -- cheetah -----------------------------------------------------------------------------------------------
CHEETAHS = deal(["M1"], ["M6"], ["G3"], ["D3"], ["P1"], ["P6"])


P0_LEADS, P1_LEADS = ["M1", "P1"], ["M6", "P6"]


@pytest.mark.parametrize("moves,expected", [
    (["G3:me", "D3:me"], P1_LEADS),      # the second cheetah decides
    (["G3:me", "D3"], P0_LEADS),         # a bare second cheetah leaves the first choice
    (["G3:you", "D3"], P1_LEADS),
    (["G3", "D3:you"], P0_LEADS),        # "you" of player 1 is player 0
    (["G3", "D3"], P0_LEADS),            # no choice: the winner (G3, against a discard) leads
    (["G3:you", "P6"], ["D3", "D3:me", "D3:you"]),   # M6 stays covered by D3
])
def test_the_cheetah_decides_who_leads(moves, expected):
    assert legal_moves(CHEETAHS, 0, small(1, 1), moves) == expected


@pytest.mark.parametrize("moves,expected", [
    (["G3:me", "D3"], P0_LEADS),         # the winner (G3, against a discard) leads anyway
    (["G3:you", "D3"], P0_LEADS),        # the bare second cheetah takes the choice back
    (["G3:you", "D3:you"], P0_LEADS),
    (["G3:me", "D3:me"], P1_LEADS),
])
def test_a_bare_second_cheetah_may_leave_the_lead_to_the_winner(moves, expected):
    variant = small(1, 1, bare_second_cheetah_keeps_choice=False)
    assert legal_moves(CHEETAHS, 0, variant, moves) == expected


def test_cheetah_choices_and_the_last_trick():
    assert legal_moves(CHEETAHS, 0, small(1, 1), []) == ["G3", "G3:me", "G3:you", "P1"]
    assert legal_moves(CHEETAHS, 0, small(1, 1, cheetah_may_pass=False), []) == [
        "G3:me", "G3:you", "P1"]
    assert legal_moves(CHEETAHS, 0, small(1, 1, cheetah_power=False), []) == ["G3", "P1"]
    # a cheetah on the round's last trick has no choice to make, whatever cheetah_may_pass says
    last = deal(["G3"], ["M6"], ["M1"], ["D6"], ["P1"], ["P6"])
    moves = ["M1", "D6", "P1", "P6"]   # mouse vs discard, then the plain mouse beats its elephant
    for variant in (small(1, 1), small(1, 1, cheetah_may_pass=False)):
        assert legal_moves(last, 0, variant, moves) == ["G3"]


# -- end of round ----------------------------------------------------------------------------------------
def test_the_fourth_hyena_ends_the_round_at_once():
    deck = deal(["G6"], ["D1"], ["G4"], ["D4"], ["M4", "M6"], ["P4", "P6"])
    moves = ["G4", "D4", "M4", "P4"]   # p0 wins two tricks of two hyenas each
    assert legal_moves(deck, 0, small(1, 2), moves) == []
    assert round_result(deck, 0, small(1, 2), moves) == {
        "winner": 1, "crowns": [12, 0], "hyenas": True, "tricks": 2}
    with pytest.raises(ValueError):
        round_result(deck, 0, small(1, 2), moves[:3])
    # with hyenas_to_lose = 2 the round already ends after the first trick
    assert round_result(deck, 0, small(1, 2, hyenas_to_lose=2), moves[:2])["tricks"] == 1


def test_random_full_rounds_count_45_crowns_unless_ended_by_hyenas():
    rng = random.Random(7)
    seen_hyena_end = seen_crown_end = False
    for _ in range(60):
        deck = ALL_CARDS[:]
        rng.shuffle(deck)
        moves = []
        state = replay(deck, 0, {"round1_leader": "random"}, [])
        while legal_in(state):   # stepping the state: replaying every prefix would be quadratic
            moves.append(rng.choice(legal_in(state)))
            state = apply(state, moves[-1])
        result = round_result(deck, 0, {"round1_leader": "random"}, moves)
        if result["hyenas"]:
            seen_hyena_end = True
            assert result["tricks"] <= 14
        else:
            seen_crown_end = True
            assert sum(result["crowns"]) == 45 and result["tricks"] == 14
            assert result["crowns"][result["winner"]] > result["crowns"][1 - result["winner"]]
    assert seen_crown_end and seen_hyena_end


@pytest.mark.parametrize("variant", [
    {"cheetah_may_pass": False, "snake_hidden_tops": True},      # the Game Park adaptation
    {"blocked_cards_follow": True, "eagle_may_flee": False},
    {"hyenas_to_lose": 3, "mouse_beats_elephant": False},
])
def test_no_variant_ever_leaves_the_player_to_move_without_a_move(variant):
    # every card is somewhere (hands, piles, trick, scoring piles) and a round only stops at its end
    rng = random.Random(11)
    variant = dict(variant, round1_leader="random")
    for _ in range(25):
        deck = ALL_CARDS[:]
        rng.shuffle(deck)
        state = replay(deck, rng.randrange(2), variant, [])
        while not state["over"]:
            legal = legal_in(state)
            assert legal, "a player is left with nothing to play"
            state = apply(state, rng.choice(legal))
            held = [c for p in (0, 1) for c in state["hands"][p]]
            held += [c for p in (0, 1) for pile in state["piles"][p] for c, _ in pile]
            held += [c for _, c, _ in state["trick"]] + state["scored"][0] + state["scored"][1]
            assert sorted(held) == sorted(ALL_CARDS)


def test_unknown_variant_keys_are_refused():
    deck = ALL_CARDS
    with pytest.raises(ValueError):
        legal_moves(deck, 0, {"snakes_bite": True}, [])
    assert set(DEFAULTS) == {
        "crowns", "eagle_crowns", "hyenas_to_lose", "rounds_to_win", "piles", "hand_size",
        "eagle_may_flee", "mouse_beats_elephant", "rhinoceros_power", "cheetah_power",
        "snake_power", "cheetah_may_pass", "bare_second_cheetah_keeps_choice", "snake_hidden_tops",
        "blocked_cards_follow", "round1_leader", "crown_tie"}
