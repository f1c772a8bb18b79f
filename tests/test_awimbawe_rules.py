"""Hand-checked Awimbawé rule situations (issue 11, "Done when"), on hand-built positions.

Rules: docs/rules/awimbawe.md. Seat 0 leads unless said otherwise; piles are bottom to top,
``~`` before a face-down card (tests/awimbawe_positions.py)."""
from __future__ import annotations

import pytest

from kiwara_designer.games.awimbawe.cards import BIT, parse_card
from kiwara_designer.games.awimbawe.moves import IllegalMoveError
from kiwara_designer.games.awimbawe.state import CHOOSING_LEADER, DEALING, OVER, PLAYING, TIED_LEAD
from kiwara_designer.core.game import CHANCE
from awimbawe_positions import cards, deal, legal, mask, position, record_legal

GAMEPARK = "gamepark"


def won(state, seat) -> set[str]:
    from kiwara_designer.games.awimbawe.cards import NAMES, cards_of
    return {NAMES[c] for c in cards_of(state.won[seat])}


def cards_in(moves) -> set[str]:
    return {m.split(":")[0] for m in moves}


# -- following -----------------------------------------------------------------------------------
def test_follower_must_follow_suit_with_any_value():
    state = position("G1 D4", "G6 G4 D1 E7", ["~M1 P4"], ["~M2 G5"])
    state = state.apply("D4")
    assert cards_in(legal(state)) == {"D1"}
    state = position("G1 D4", "G6 G4 D1 E7", ["~M1 P4"], ["~M2 G5"])
    state = state.apply("G1")
    assert cards_in(legal(state)) == {"G6", "G4", "G5"}      # a face-up pile top counts


def test_follower_without_the_suit_must_play_an_eagle():
    state = position("G1", "D1 P6 E7 E10", ["~M1 P4"], ["~M2 D5"]).apply("G1")
    assert legal(state) == ["E7:flee", "E7:fight", "E10:flee", "E10:fight"]


def test_follower_with_neither_discards_anything_and_the_discard_loses():
    state = position("G1 M1", "D6 P6", ["~M2 P4"], ["~M3 D5"]).apply("G1")
    assert cards_in(legal(state)) == {"D6", "P6", "D5"}
    state = state.apply("P6")
    assert won(state, 0) == {"G1", "P6"} and state.to_move == 0


def test_a_card_uncovered_by_a_play_is_revealed_at_the_end_of_the_trick():
    state = position("G1", "D6 P2", ["~M3 P4"], ["~G6 D5"]).apply("P4")
    assert state.down & BIT[parse_card("M3")]                 # uncovered, still face down
    after = state.apply("P2")                                 # P4 wins; seat 0 leads again
    assert not after.down & BIT[parse_card("M3")] and ("r", parse_card("M3")) in after.events
    assert "M3" in cards_in(legal(after))


def test_face_down_pile_cards_are_not_available():
    state = position("G1", "D6", ["~M2 P4"], ["~G6 D5"]).apply("G1")
    assert cards_in(legal(state)) == {"D6", "D5"}


def test_a_blocked_card_does_not_count_for_following():
    # seat 0 leads M5 blocking seat 1's only mountain card (pile 1 top): seat 1 has no unblocked
    # mountain card, so must play an eagle
    state = position("M5 G1", "D1 E8", ["~G2 G3"], ["~P1 M6", "~P2 D2"]).apply("M5:p1")
    assert legal(state) == ["E8:flee", "E8:fight"]
    # with blocked_cards_follow the blocked M6 counts: seat 1 "can follow" yet may not play it,
    # so any unblocked card goes (the discard loses)
    state = position("M5 G1", "D1 E8", ["~G2 G3"], ["~P1 M6", "~P2 D2"],
                     variant={"blocked_cards_follow": True}).apply("M5:p1")
    assert cards_in(legal(state)) == {"D1", "E8", "D2"}


# -- winning a trick ---------------------------------------------------------------------------
def test_eagle_flee_gives_the_trick_to_the_leader_and_the_eagle_to_its_player():
    state = position("G4 M1", "E9 D1", ["~M2 P4"], ["~M3 D5"]).apply("G4").apply("E9:flee")
    assert won(state, 0) == {"G4"} and won(state, 1) == {"E9"}
    assert state.to_move == 0 and state.leader == 0


def test_eagle_fight_trumps():
    state = position("G4 M1", "E7 D1", ["~M2 P4"], ["~M3 D5"]).apply("G4").apply("E7:fight")
    assert won(state, 1) == {"G4", "E7"} and won(state, 0) == set()
    assert state.to_move == 1


def test_no_flee_variant_leaves_only_fight():
    state = position("G4 M1", "E7 D1", ["~M2 P4"], ["~M3 D5"], variant="no_flee").apply("G4")
    assert legal(state) == ["E7:fight"]


def test_an_eagle_lead_must_be_answered_by_an_eagle_without_flee_and_higher_wins():
    state = position("E8 G1", "E7 E10 D1", ["~M2 P4"], ["~M3 D5"])
    assert "E8" in legal(state) and not any(m.startswith("E8:") for m in legal(state))
    state = state.apply("E8")
    assert legal(state) == ["E7", "E10"]
    assert won(state.apply("E10"), 1) == {"E8", "E10"}
    assert won(state.apply("E7"), 0) == {"E8", "E7"}


def test_an_eagle_lead_against_no_eagle_wins_whatever_is_discarded():
    state = position("E7 G1", "G6 D1", ["~M2 P4"], ["~M3 D5"]).apply("E7")
    assert cards_in(legal(state)) == {"G6", "D1", "D5"}
    assert won(state.apply("G6"), 0) == {"E7", "G6"}


def test_higher_value_wins_in_suit():
    state = position("G4 M1", "G5 D1", ["~M2 P4"], ["~M3 D5"]).apply("G4").apply("G5")
    assert won(state, 1) == {"G4", "G5"}


@pytest.mark.parametrize("lead,follow,winner", [("G1", "G6", 0), ("G6", "G1", 1)])
def test_mouse_beats_its_elephant_in_either_order(lead, follow, winner):
    state = position(lead + " M1", follow + " D1", ["~M2 P4"], ["~M3 D5"])
    state = state.apply(lead).apply(follow)
    assert won(state, winner) == {lead, follow}
    plain = position(lead + " M1", follow + " D1", ["~M2 P4"], ["~M3 D5"],
                     variant={"mouse_beats_elephant": False}).apply(lead).apply(follow)
    assert won(plain, 1 - winner) == {lead, follow}


def test_a_discarded_mouse_of_another_suit_does_not_beat_the_elephant():
    state = position("G6 M1", "D1 P2", ["~M2 P4"], ["~M3 D5"]).apply("G6").apply("D1")
    assert won(state, 0) == {"G6", "D1"}


# -- rhinoceros ----------------------------------------------------------------------------------
RHINO_PILES1 = ["~M1 M2", "~D1 D2", "", ""]


def test_rhinoceros_moves_offered():
    state = position("G2 G1", "P1 P6", ["~M3 P4"], RHINO_PILES1)
    rhino = [m for m in legal(state) if m.startswith("G2")]
    # from piles 1 and 2 (two cards each: within their own pile too) to any of the 4 positions
    assert rhino == ["G2"] + [f"G2:{i}>{j}" for i in (1, 2) for j in (1, 2, 3, 4)]


def test_rhinoceros_to_another_pile_slides_under_it():
    state = position("G2 G1", "P1 P6", ["~M3 P4"], RHINO_PILES1).apply("G2:1>2")
    assert state.piles[1][0] == (parse_card("M1"),)
    assert state.piles[1][1] == tuple(cards("M2 D1 D2"))
    # the uncovered M1 stays face down (not available) until the end of the trick
    assert state.down & BIT[parse_card("M1")]
    assert cards_in(legal(state)) == {"P1", "P6", "D2"}
    after = state.apply("P1")
    assert not after.down & BIT[parse_card("M1")]              # revealed at the trick's end
    assert ("r", parse_card("M1")) in after.events


def test_rhinoceros_to_an_empty_position_makes_a_pile_alone_face_up():
    state = position("G2 G1", "P1 P6", ["~M3 P4"], RHINO_PILES1).apply("G2:1>3")
    assert state.piles[1][2] == (parse_card("M2"),)
    assert cards_in(legal(state)) == {"P1", "P6", "M2", "D2"}


def test_rhinoceros_within_its_own_pile_brings_the_card_below_on_top():
    state = position("G2 G1", "P1 P6", ["~M3 P4"], RHINO_PILES1).apply("G2:2>2")
    assert state.piles[1][1] == tuple(cards("D2 D1"))
    assert state.down & BIT[parse_card("D1")]                 # face down: revealed at the end
    assert "D1" not in cards_in(legal(state))


def test_rhinoceros_immediate_reveal_when_all_pile_cards_end_in_one_pile():
    state = position("G2 G1", "P1 P6", ["~M3 P4"], ["~M1 M2"]).apply("G2:1>1")
    assert state.piles[1][0] == tuple(cards("M2 M1"))
    assert not state.down & BIT[parse_card("M1")]             # revealed at once
    assert "M1" in cards_in(legal(state))
    # to another position: two piles, no immediate reveal
    other = position("G2 G1", "P1 P6", ["~M3 P4"], ["~M1 M2"]).apply("G2:1>4")
    assert other.down & BIT[parse_card("M1")]


def test_rhinoceros_needs_two_opponent_pile_cards():
    state = position("G2 G1", "P1 P6", ["~M3 P4"], ["M2"])
    assert [m for m in legal(state) if m.startswith("G2")] == ["G2"]


def test_rhinoceros_can_take_a_face_down_top_uncovered_in_the_trick():
    # seat 0 leads its pile-1 top P4: M3 is uncovered face down; seat 1's rhinoceros may move it
    state = position("G1", "P2 G3", ["~M3 P4", "~M4 P5"], ["~D1 D2"]).apply("P4")
    assert "P2:1>3" in legal(state)
    after = state.apply("P2:1>3")
    assert after.piles[0][2] == (parse_card("M3"),)           # kept its face until the end
    assert not after.down & BIT[parse_card("M3")]              # then revealed


def test_rhinoceros_may_not_leave_the_opponent_without_a_card_to_play():
    # seat 1: no hand, pile 1 = M1 face down under M2, pile 2 = D2 blocked by a snake
    state = position("G2 G1", "", ["~M3 P4"], ["~M1 M2", "D2"], blocked1="D2")
    rhino = set(m for m in legal(state) if m.startswith("G2"))
    assert "G2:1>1" not in rhino       # M1 on top, face down: nothing playable
    assert "G2:1>2" not in rhino       # M2 under the blocked D2, M1 face down
    assert {"G2", "G2:1>3", "G2:1>4", "G2:2>1", "G2:2>3", "G2:2>4"} <= rhino


# -- snake ---------------------------------------------------------------------------------------
def test_snake_on_a_pile_blocks_it_for_the_next_play_only():
    state = position("M5 G1 D3", "M6 G2 G5", ["~M1 P4"], ["~M2 M3", "~P1 P2"])
    assert "M5:p1" in legal(state) and "M5:p2" in legal(state)
    state = state.apply("M5:p1")
    assert cards_in(legal(state)) == {"M6"}                    # M3 blocked
    state = state.apply("M6")
    assert state.blocked[1] == 0                               # lifted as seat 1 played
    state = state.apply("G2").apply("G1")
    assert "M3" in cards_in(legal(state))


def test_snake_blind_on_a_hand_is_a_chance_node_and_one_move_per_card_in_records():
    state = position("M5 G1", "D1 D2 P2", ["~M1 P4"], ["~M2 G3"])
    assert "M5:h" in legal(state)
    assert [m for m in record_legal(state) if m.startswith("M5:h")] == \
        ["M5:h=D1", "M5:h=D2", "M5:h=P2"]
    chance = state.apply("M5:h")
    assert chance.current_player() == CHANCE
    assert [(m.text, p) for m, p in chance.chance_outcomes()] == \
        [("h=D1", 1 / 3), ("h=D2", 1 / 3), ("h=P2", 1 / 3)]
    picked = chance.apply("h=D2")
    assert picked.blocked[1] == mask("D2") and picked.to_move == 1
    assert picked.round_record()["moves"] == ["M5:h=D2"]
    direct = state.apply_recorded("M5:h=D2")
    assert direct.blocked == picked.blocked and direct.events == picked.events


def test_snake_offer_conditions():
    # one card left: no power
    assert [m for m in legal(position("M5 G1", "D1")) if m.startswith("M5")] == ["M5"]
    # two cards, both in one pile: no power
    assert [m for m in legal(position("M5 G1", "", [], ["~D1 D2"]))
            if m.startswith("M5")] == ["M5"]
    # two cards in two piles: offered
    assert [m for m in legal(position("M5 G1", "", [], ["D1", "D2"]))
            if m.startswith("M5")] == ["M5", "M5:p1", "M5:p2"]


def test_snake_never_blocks_the_last_playable_card_and_may_name_a_blocked_one():
    # seat 1 already has D1 blocked (seat 0's snake as follower last trick); its only other
    # available card is P2 in hand
    state = position("M5 G1", "P2", [], ["~D3 D1"], blocked1="D1")
    moves = [m for m in record_legal(state) if m.startswith("M5")]
    assert moves == ["M5", "M5:p1"]                           # not M5:h=P2; D1 again is legal
    assert "M5:h" not in legal(state)


def test_snake_two_in_a_row_cannot_freeze_the_opponent():
    # seat 0 follows with a blind snake that blocks D1, wins (M5 > M1) and leads another snake:
    # seat 1 then holds D1 (blocked) and P1; blocking P1 would leave nothing, so the blind pick
    # may only fall on D1 again (which changes nothing)
    state = position("M5 P5 M6", "M1 D1 P1", [], [], leader=1)
    state = state.apply("M1").apply_recorded("M5:h=D1")
    assert state.to_move == 0
    assert [m for m in record_legal(state) if m.startswith("P5")] == ["P5", "P5:h=D1"]
    chance = state.apply("P5:h")
    assert [m.text for m, _ in chance.chance_outcomes()] == ["h=D1"]
    assert cards_in(legal(chance.apply("h=D1"))) == {"P1"}


def test_snake_hidden_tops_in_the_game_park_variant():
    state = position("G1", "M5 D2", ["~P1 P4", "~P2 G4"], ["~D1 D3"])
    state = state.apply("P4")                                 # uncovers P1 face down
    classic = [m for m in legal(state) if m.startswith("M5")]
    assert "M5:p1" not in classic and "M5:p2" in classic
    gp = position("G1", "M5 D2", ["~P1 P4", "~P2 G4"], ["~D1 D3"], variant=GAMEPARK)
    gp = gp.apply("P4")
    assert "M5:p1" in legal(gp)
    after = gp.apply("M5:p1")                                  # P1 revealed at the end, blocked
    assert not after.down & BIT[parse_card("P1")] and after.blocked[0] & BIT[parse_card("P1")]


# -- cheetah -------------------------------------------------------------------------------------
def test_cheetah_choices_classic_and_compulsory_in_game_park():
    state = position("G3 G1", "D1 D2", ["~M1 P4"], ["~M2 M4"])
    assert [m for m in legal(state) if m.startswith("G3")] == ["G3", "G3:me", "G3:you"]
    gp = position("G3 G1", "D1 D2", ["~M1 P4"], ["~M2 M4"], variant=GAMEPARK)
    assert [m for m in legal(gp) if m.startswith("G3")] == ["G3:me", "G3:you"]


def test_cheetah_not_offered_on_the_last_trick():
    for variant in (None, GAMEPARK):
        state = position("G3", "D1", variant=variant)
        assert legal(state) == ["G3"]


def test_cheetah_decides_the_next_leader_whoever_wins():
    state = position("G3 G1", "D1 D2", ["~M1 P4"], ["~M2 M4"]).apply("G3:you").apply("D1")
    assert won(state, 0) == {"G3", "D1"} and state.to_move == 1


def test_the_second_cheetah_decides():
    state = position("G3 G1", "D3 D2", ["~M1 P4"], ["~M2 M4"]).apply("G3:me").apply("D3:me")
    assert won(state, 0) == {"G3", "D3"} and state.to_move == 1
    # a bare second cheetah leaves the first one's choice standing, unless the variant reads
    # "the second decides" as "a bare one leaves the lead to the trick's winner" (the leader:
    # D3 is a discard)
    state = position("G3 G1", "D3 D2", ["~M1 P4"], ["~M2 M4"]).apply("G3:you").apply("D3")
    assert state.to_move == 1
    state = position("G3 G1", "D3 D2", ["~M1 P4"], ["~M2 M4"],
                     variant={"bare_second_cheetah_keeps_choice": False})
    state = state.apply("G3:you").apply("D3")
    assert won(state, 0) == {"G3", "D3"} and state.to_move == 0
    assert position("G3 G1", "D3 D2", ["~M1 P4"], ["~M2 M4"], variant={
        "bare_second_cheetah_keeps_choice": False}).apply("G3").apply("D3:me").to_move == 1


# -- end of round and match ----------------------------------------------------------------------
def test_the_fourth_hyena_ends_the_round_at_once():
    state = position("G4 G1", "G6 P5", ["~M1 D1"], ["~M2 M3"], won1="D4 P4")
    assert state.apply("G4").apply("G6").phase == PLAYING     # a third hyena: play goes on
    state = position("G4 G1", "G6 P5", ["~M1 D1"], ["~M2 M3"], won1="D4 P4 M4")
    state = state.apply("G4").apply("G6")                      # seat 1's fourth hyena
    assert state.phase == DEALING and state.rounds[0].by_hyenas
    assert state.rounds[0].winner == 0 and state.rounds[0].hyenas == (0, 4)
    assert state.rounds[0].crowns == (0, 3 * 4 + 1)           # crowns of the whole scoring pile
    three = position("G4 G1", "G6 P5", ["~M1 D1"], ["~M2 M3"], won1="D4 P4",
                     variant="three_hyenas").apply("G4").apply("G6")
    assert three.phase == DEALING and three.rounds[0].winner == 0


def test_round_1_leader_has_fewer_crowns_on_face_up_pile_cards():
    # seat 0 tops: four elephants (4 crowns); seat 1: four mice (12)
    state = deal("", "", tops0="G6 D6 M6 P6", tops1="G1 D1 M1 P1", leader=None)
    assert state.to_move == 0 and state.first_leader == 0
    state = deal("", "", tops0="G1 D1 M1 P1", tops1="G6 D6 M6 P6", leader=None)
    assert state.to_move == 1
    tie = deal("", "", tops0="G1 D1 M6 P6", tops1="G6 D6 M1 P1", leader=None)
    assert tie.phase == TIED_LEAD and tie.current_player() == CHANCE
    assert [m.text for m in tie.legal_moves()] == ["leader:0", "leader:1"]
    assert tie.apply("leader:1").to_move == 1


def _finish_round(state, choose=0):
    while state.phase not in (DEALING, OVER):
        state = state.apply(state.legal_moves()[choose % len(state.legal_moves())])
    return state


def test_crowns_add_up_to_45_when_the_cards_run_out_and_the_loser_chooses_the_next_leader():
    state = _finish_round(deal("", "", leader=0))
    result = state.rounds[0]
    if not result.by_hyenas:
        assert sum(result.crowns) == 45
    loser = 1 - result.winner
    for k in range(28):
        state = state.apply(state.legal_moves()[0])            # deal round 2 in card order
    assert state.phase == CHOOSING_LEADER and state.to_move == loser
    assert [m.text for m in state.legal_moves()] == ["start:me", "start:you"]
    assert state.apply("start:me").to_move == loser
    assert state.apply("start:you").to_move == 1 - loser
    assert state.apply("start:you").round_record()["moves"] == ["start:you"]


def test_first_to_two_rounds_wins_the_match():
    import random
    from kiwara_designer.core.game import get_game, sample_chance
    game = get_game("awimbawe")
    rng = random.Random(5)
    for _ in range(20):
        state = game.new_state()
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state = state.apply(sample_chance(state, rng))
            else:
                state = state.apply(rng.choice(state.legal_moves()))
        wins = state.rounds_won
        assert max(wins) == 2 and min(wins) <= 1 and len(state.rounds) == sum(wins)
        assert state.rounds[-1].winner == state.match_winner == wins.index(2)
        assert state.returns()[state.match_winner] == 1
        outcome = game.outcome(state)
        assert outcome.winner == state.match_winner and outcome.scores == tuple(map(float, wins))
    state = deal("", "", leader=0, variant={"rounds_to_win": 1})
    assert _finish_round(state).is_terminal()


def test_illegal_moves_say_why():
    state = position("G1 D4", "G6 D1", ["~M1 P4"], ["~M2 G5"]).apply("G1")
    with pytest.raises(IllegalMoveError, match="must follow suit G"):
        state.apply("D1")
    with pytest.raises(IllegalMoveError, match="holds no such available card"):
        state.apply("P6")
    with pytest.raises(IllegalMoveError, match="not a move"):
        state.apply("X9")
    with pytest.raises(IllegalMoveError, match="chance"):
        deal("", "", leader=0).apply("deal:G1")
    from kiwara_designer.games.awimbawe.state import new_match
    dealt_once = new_match().apply("deal:G1")
    with pytest.raises(IllegalMoveError, match="not one of this chance node's outcomes"):
        dealt_once.apply("deal:G1")


def test_rhinoceros_legal_through_the_immediate_reveal():
    # seat 1 has no hand and one pile: sliding M2 under itself leaves M1 face down on top of the
    # only pile, revealed at once, so seat 1 still has a card to play
    state = position("G2 G1", "", ["~M3 P4"], ["~M1 M2"])
    assert "G2:1>1" in legal(state)
    after = state.apply("G2:1>1")
    assert cards_in(legal(after)) == {"M1"}
