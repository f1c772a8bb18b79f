"""Hidden information in Awimbawé: what each player sees, and determinization consistent with it."""
from __future__ import annotations

import random

from kiwara_designer.games.awimbawe.cards import NAMES, SUIT_MASK
from kiwara_designer.games.awimbawe.state import AwimbaweState, new_round
from kiwara_designer.core.game import CHANCE, sample_chance
from awimbawe_positions import deal, position


def swapped(state: AwimbaweState, a: str, b: str) -> AwimbaweState:
    """``state`` with two cards exchanged everywhere (deck, hands, piles)."""
    from kiwara_designer.games.awimbawe.cards import parse_card
    x, y = parse_card(a), parse_card(b)
    swap = {x: y, y: x}
    deck = [swap.get(c, c) for c in state.deck]
    return new_round(deck, state.first_leader)


def test_information_state_hides_the_opponent_hand_and_face_down_cards():
    state = deal("G1 G2 G3 G4 G5 G6", "D1 D2 D3 D4 D5 D6", bottoms0="M1 M2 M3 M4",
                 bottoms1="P1 P2 P3 P4", leader=0)
    # swapping a card of seat 1's hand with a face-down card: seat 0 cannot tell, seat 1 can
    other = swapped(state, "D1", "P1")
    assert other.information_state(0) == state.information_state(0)
    assert other.information_state(1) != state.information_state(1)
    # swapping two face-down cards: nobody can tell
    both = swapped(state, "M1", "P2")
    assert both.information_state(0) == state.information_state(0)
    assert both.information_state(1) == state.information_state(1)
    view = state.observation(0)
    assert view.hand == ("G1", "G2", "G3", "G4", "G5", "G6") and view.opponent_hand_size == 6
    assert all(pile[0] == "?" for pile in view.piles[1]) and all(p[0] == "?" for p in view.piles[0])


def test_the_blind_pick_is_seen_by_its_victim_only():
    state = position("M5 G1", "D1 D2 P2", ["~M1 P4"], ["~M2 G3"])
    a, b = state.apply_recorded("M5:h=D1"), state.apply_recorded("M5:h=D2")
    assert a.information_state(0) == b.information_state(0)
    assert a.information_state(1) != b.information_state(1)
    assert a.observation(0).blind_blocks == 1 and a.observation(0).blocked == ()
    assert a.observation(1).blocked == ("D1",)


def play_random(state, rng, plies):
    for _ in range(plies):
        if state.is_terminal():
            break
        if state.current_player() == CHANCE:
            state = state.apply(sample_chance(state, rng))
        else:
            state = state.apply(rng.choice(state.legal_moves()))
    return state


def test_determinize_keeps_the_information_state_and_redeals_the_rest():
    rng = random.Random(7)
    for seed in range(30):
        state = play_random(new_round(list(random.Random(seed).sample(NAMES, 28)), 0),
                            random.Random(seed), seed % 20)
        if state.current_player() < 0:
            continue
        for player in (0, 1):
            seen_other = set()
            for _ in range(5):
                world = state.determinize(player, rng)
                assert world.information_state(player) == state.information_state(player)
                assert world.hand[player] == state.hand[player]
                seen_other.add(world.hand[1 - player])
                if player == state.current_player():
                    assert world.legal_moves() == state.legal_moves()
            if state.hand[1 - player].bit_count() >= 2 and seed % 20 < 10:
                assert len(seen_other) > 1          # the opponent's hand really is redealt


def test_determinize_respects_a_shown_void():
    # seat 1 cannot follow grassland and plays an eagle: no grassland card may be in its hand
    state = deal("G1 G2 D1 D2 D3 D4", "E7 M1 M2 M3 P1 P2", tops0="M4 M5 M6 P3",
                 tops1="P4 P5 P6 E8", bottoms0="D5 D6 E9 E10", bottoms1="G3 G4 G5 G6", leader=0)
    state = state.apply("G1").apply("E7:fight")
    rng = random.Random(3)
    for _ in range(50):
        world = state.determinize(0, rng)
        assert not world.hand[1] & SUIT_MASK[0]
    # a discard (no grassland, no eagle): neither grassland nor eagles in hand
    state = deal("G1 G2 D1 D2 D3 D4", "M1 M2 M3 P1 P2 P3", tops0="M5 M6 E7 D5",
                 tops1="P4 P5 P6 M4", bottoms0="D6 E9 E10 G3", bottoms1="G4 G5 G6 E8", leader=0)
    state = state.apply("G1").apply("M1")
    for _ in range(50):
        world = state.determinize(0, rng)
        assert not world.hand[1] & (SUIT_MASK[0] | SUIT_MASK[4])
        assert world.hand[1].bit_count() == 5


def test_determinize_of_a_finished_or_undealt_match_is_itself():
    from kiwara_designer.games.awimbawe.state import new_match
    fresh = new_match()
    assert fresh.determinize(0, random.Random(1)) is fresh
