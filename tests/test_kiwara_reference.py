"""Hand-checked situations for the Kiwara reference's totem direction and reinforcement deck.

The board is 3 x 2 so every list can be worked out by hand::

    A A B        a1 b1 c1      stones: 0 1 2 above columns a b c, 3 4 right of rows 1 2,
    C C B        a2 b2 c2              5 6 7 below columns c b a, 8 9 left of rows 2 1

Rivers: b1|c1, a1|a2, b1|b2, b2|c2.
"""
from __future__ import annotations

import random
import re

import pytest

from kiwara_reference import SAMPLE_DECK, Reference

ROWS = ["AAB", "CCB"]
TOKENS = {"Z": 1, "G": 2, "E": 0, "L": 1, "C": 0}


def reference(**rules):
    return Reference(ROWS, tokens=TOKENS, **rules)


def position(ref, tokens, totem, player=0, held=((), ()), deck=(), okapi=None):
    """A state by hand: tokens maps a cell to owner + animal letter, lower case for face down."""
    board = {}
    reserves = (dict(ref.rules["tokens"]), dict(ref.rules["tokens"]))
    for serial, (name, spec) in enumerate(tokens.items()):
        owner, letter = int(spec[0]), spec[1]
        cell = ("abc".index(name[0]), int(name[1]) - 1)
        board[cell] = {"owner": owner, "animal": letter.upper(), "up": letter.isupper(), "id": serial}
        reserves[owner][letter.upper()] -= 1
    as_cards = [tuple(next(c for c in SAMPLE_DECK if c[0] == n) for n in names) for names in held]
    return {"board": board, "reserves": reserves, "totem": totem, "player": player, "okapi": okapi,
            "serial": len(tokens), "deck": tuple(next(c for c in SAMPLE_DECK if c[0] == n) for n in deck),
            "held": tuple(as_cards), "card_used": False, "extra": False}


def texts(ref, state):
    return sorted(text for text, _ in ref.moves(state))


def cards(ref, state):
    return sorted(text for text, _ in ref.moves(state) if text.startswith("+"))


# -- totem direction -----------------------------------------------------------------------------
def test_anticlockwise_steps_go_down_the_stone_numbers():
    ref = reference(totem_direction="anticlockwise")
    after_opening = ref.play(ref.start(), "T0")
    # player 1 places on column a; from stone 0 the totem goes to 9, 8 or 7
    assert [t for t in texts(ref, after_opening) if t.startswith("Za1")] == ["Za1>7", "Za1>8", "Za1>9"]
    clockwise = reference()
    assert [t for t in texts(clockwise, clockwise.play(clockwise.start(), "T0"))
            if t.startswith("Za1")] == ["Za1>1", "Za1>2", "Za1>3"]


def test_the_forced_jump_searches_in_the_totem_direction():
    # Row 1 is full and c2 taken; after Za2 only b2 is empty: stones with room are 1 and 6
    # (column b) and 4 and 8 (row 2). With a single step from stone 0, anticlockwise reaches 9
    # (row 1, full), so the forced jump goes on to 8; clockwise reaches 1, which has room.
    ref = reference(totem_direction="anticlockwise", steps=(1,))
    state = position(ref, {"b1": "0G", "a1": "1G", "c1": "0L", "c2": "1L"}, totem=0, player=1)
    assert [t for t in texts(ref, state) if t.startswith("Za2")] == ["Za2>8"]
    clockwise = reference(steps=(1,))
    assert [t for t in texts(clockwise, state) if t.startswith("Za2")] == ["Za2>1"]


def mirror_move(ref, text):
    """A move's text on the left-right mirrored board: cells reflected, each stone sent to the stone
    facing the reflected line from the reflected side (above stays above, right becomes left)."""
    w, h = ref.width, ref.height

    def stone(p):
        if p < w:
            return w - 1 - p                                   # above column x -> above w-1-x
        if p < w + h:
            return 2 * w + h + (h - 1 - (p - w))               # right of row y -> left of row y
        if p < 2 * w + h:
            return w + h + (w - 1 - (p - w - h))               # below: the same reflection
        return w + (h - 1 - (p - 2 * w - h))                   # left of row y -> right of row y

    def cell(match):
        return "abcdefghijklmnopqrstuvwxyz"[w - 1 - "abcdefghijklmnopqrstuvwxyz".index(match[1])] + match[2]

    if text.startswith("T"):
        return "T" + str(stone(int(text[1:])))
    body, _, target = text.partition(">")
    body = re.sub(r"([a-z])(\d+)", cell, body)
    return body + (">" + str(stone(int(target))) if target else "")


@pytest.mark.parametrize("rows", [["AAB", "CCB"], ["AAB", "ACB", "CCB"], ["AB", "AB", "CB", "CC"]])
def test_a_mirror_under_the_other_direction_is_the_same_game(rows):
    tokens = {"Z": 2, "G": 3, "E": 0, "L": 1, "C": 2}
    plain = Reference(rows, tokens=tokens)
    mirror = [row[::-1] for row in rows]
    other = Reference(mirror, tokens=tokens, totem_direction="anticlockwise")
    same = Reference(mirror, tokens=tokens)
    rng = random.Random(len(rows))
    differs = False
    for _ in range(12):
        state, other_state, same_state = plain.start(), other.start(), same.start()
        while plain.moves(state):
            moves = sorted(mirror_move(plain, t) for t, _ in plain.moves(state))
            assert moves == sorted(t for t, _ in other.moves(other_state))
            if same_state is not None:
                if moves != sorted(t for t, _ in same.moves(same_state)):
                    differs, same_state = True, None
            text = rng.choice(plain.moves(state))[0]
            state, other_state = plain.play(state, text), other.play(other_state, mirror_move(plain, text))
            if same_state is not None:
                same_state = same.play(same_state, mirror_move(plain, text))
        assert plain.score(state) == other.score(other_state)
    assert differs      # under the same direction the mirror is another game


# -- deck setup --------------------------------------------------------------------------------------
def test_handicap_cards_come_off_the_top_first_player_first():
    ref = reference(reinforcement="deck", deck=["jackal", "ford", "drums", "okapi"], handicap=(1, 2))
    start = ref.start()
    assert [c[0] for c in start["held"][0]] == ["jackal"]
    assert [c[0] for c in start["held"][1]] == ["ford", "drums"]
    assert [c[0] for c in start["deck"]] == ["okapi"]
    # the sample deck in the rules page's order
    assert [c[0] for c in reference(reinforcement="deck").start()["deck"]] == [
        "okapi", "waterhole", "drums", "storm", "stampede", "migration", "sunrise", "hunter",
        "jackal", "ford"]


def test_bad_handicaps_are_refused():
    with pytest.raises(ValueError):
        reference(handicap=(1, 0))                              # no deck
    with pytest.raises(ValueError):
        reference(reinforcement="deck", deck=["okapi"], handicap=(1, 1))
    with pytest.raises(ValueError):
        reference(reinforcement="deck", deck=[("x", "fly", None)])
    with pytest.raises(ValueError):
        reference(reinforcement="deck", deck=[{"name": "gold", "effect": "points"}])


def test_no_card_in_the_opening_nor_on_a_pass():
    ref = reference(reinforcement="deck", deck=["drums", "stampede"], handicap=(1, 1))
    start = ref.start()
    assert cards(ref, start) == []                               # opening: totem only
    after = ref.play(start, "T0")                                # player 1's first placement turn
    assert cards(ref, after) == ["+stampede"]                    # handicap cards: usable at once
    empty = position(ref, {"a1": "0Z", "b1": "0G", "c1": "0G", "a2": "0L"}, totem=0, player=0,
                     held=(("drums",), ()))
    assert texts(ref, empty) == ["pass"]                         # reserve empty: no card either


# -- using a card ------------------------------------------------------------------------------------
def test_totem_card_goes_to_any_other_stone_with_room_then_the_turn_places_there():
    ref = reference(reinforcement="deck", deck=[])
    # column c full: stones 2 and 5 have no room; the totem stands on 0
    state = position(ref, {"c1": "0G", "c2": "1G"}, totem=0, held=(("drums", "storm"), ()))
    expected = [f"+{name}:{p}" for name in ("drums", "storm") for p in (1, 3, 4, 6, 7, 8, 9)]
    assert cards(ref, state) == sorted(expected)                 # card names make moves distinct
    after = ref.play(state, "+drums:4")
    assert cards(ref, after) == []                               # one card per turn, then place
    assert after["player"] == 0 and [c[0] for c in after["held"][0]] == ["storm"]
    # row 2 (a2 b2, c2 taken); the totem then moves on from stone 4: 5 is column c, full -> 6, 7
    assert [t for t in texts(ref, after) if t[0] == "Z"] == ["Za2>6", "Za2>7", "Zb2>6", "Zb2>7"]
    next_turn = ref.play(after, "Za2>6")
    assert next_turn["player"] == 1 and next_turn["card_used"] is False


def test_again_gives_the_same_player_one_more_whole_turn():
    ref = reference(reinforcement="deck", deck=[])
    state = position(ref, {}, totem=0, held=(("stampede", "migration"), ()))
    after_card = ref.play(state, "+stampede")
    assert after_card["player"] == 0 and cards(ref, after_card) == []
    extra = ref.play(after_card, "Za1>1")
    assert extra["player"] == 0                                  # the extra turn
    assert cards(ref, extra) == ["+migration"]                   # a new turn: another card is fine
    assert ref.play(extra, "Gb1>2")["player"] == 1


def test_again_with_an_empty_reserve_is_a_forced_pass():
    ref = reference(reinforcement="deck", deck=[])
    state = position(ref, {"a1": "0Z", "b1": "0G", "a2": "0G", "c1": "1L"}, totem=2,
                     held=(("stampede",), ()))
    # player 0 has only its lion left; it uses the card, places the lion, then must pass
    extra = ref.play(ref.play(state, "+stampede"), "Lc2>4")
    assert extra["player"] == 0 and texts(ref, extra) == ["pass"]
    assert ref.play(extra, "pass")["player"] == 1


def test_rise_turns_one_of_your_face_down_tokens_up_even_next_to_a_lion():
    ref = reference(reinforcement="deck", deck=[])
    state = position(ref, {"a1": "0z", "b1": "1L", "c1": "0g", "a2": "1g"}, totem=1,
                     held=(("sunrise",), ()))
    assert cards(ref, state) == ["+sunrise:a1", "+sunrise:c1"]   # not the opponent's a2
    after = ref.play(state, "+sunrise:a1")
    assert after["board"][(0, 0)]["up"] is True


def test_scare_turns_an_opponent_face_up_zebra_down():
    ref = reference(reinforcement="deck", deck=[])
    state = position(ref, {"a1": "1Z", "b1": "1G", "c1": "0Z", "a2": "1g"}, totem=1,
                     held=(("hunter",), ()))
    assert cards(ref, state) == ["+hunter:a1"]                   # not gazelles, own or face-down zebras
    assert ref.play(state, "+hunter:a1")["board"][(0, 0)]["up"] is False
    assert cards(ref, position(ref, {"a1": "1z"}, totem=0, held=(("hunter",), ()))) == []


def test_chase_sends_an_opponent_gazelle_back_to_its_reserve():
    ref = reference(reinforcement="deck", deck=[])
    state = position(ref, {"a1": "1G", "b1": "1g", "c1": "0G", "a2": "1Z"}, totem=1,
                     held=(("jackal",), ()))
    assert cards(ref, state) == ["+jackal:a1", "+jackal:b1"]     # either face, the opponent's only
    assert {t[1:3] for t in texts(ref, state) if not t.startswith("+")} == {"b2"}
    after = ref.play(state, "+jackal:b1")
    assert (1, 0) not in after["board"] and after["reserves"][1]["G"] == 1
    # the freed b1 is on the totem's line (column b): the placement may use it
    assert {t[1:3] for t in texts(ref, after) if not t.startswith("+")} == {"b1", "b2"}


def test_swap_needs_neighbours_of_different_owners_across_a_river():
    ref = reference(reinforcement="deck", deck=[])
    # a1-b1 share territory A; b1-c1, b1-b2 and a1-a2 are across rivers
    state = position(ref, {"a1": "0Z", "b1": "0G", "c1": "1G", "a2": "1Z", "b2": "0L"}, totem=2,
                     held=(("ford",), ()))
    assert cards(ref, state) == ["+ford:a1-a2", "+ford:b1-c1"]
    after = ref.play(state, "+ford:b1-c1")
    assert after["board"][(1, 0)]["owner"] == 1 and after["board"][(2, 0)]["owner"] == 0
    # the gazelle landing on b1 is next to the lion on b2: it turns face down; the one on c1 keeps
    assert after["board"][(1, 0)]["up"] is False and after["board"][(2, 0)]["up"] is True


def test_a_lion_moved_by_a_swap_scares_nobody():
    ref = reference(reinforcement="deck", deck=[])
    # my lion b2 swaps with their zebra c2 (river b2|c2). The lion lands on c2 next to the gazelle
    # on c1: it stays; the zebra lands on b2 next to the lion now on c2: it turns face down.
    state = position(ref, {"b2": "0L", "c2": "1Z", "c1": "1G"}, totem=0, held=(("ford",), ()))
    assert cards(ref, state) == ["+ford:b2-c2"]
    board = ref.play(state, "+ford:b2-c2")["board"]
    assert board[(2, 1)]["animal"] == "L" and board[(2, 0)] == state["board"][(2, 0)]
    assert board[(1, 1)]["animal"] == "Z" and board[(1, 1)]["up"] is False


# -- drawing and scoring -----------------------------------------------------------------------------
def test_the_first_full_territory_draws_the_top_card_usable_from_the_next_turn():
    ref = reference(reinforcement="deck", deck=[])
    # territory B = c1 c2: player 0 fills c2 and draws the top card, drums
    state = position(ref, {"c1": "1G"}, totem=2, deck=("drums", "okapi"))
    after = ref.play(state, "Zc2>3")
    assert after["okapi"] == 0 and [c[0] for c in after["held"][0]] == ["drums"]
    assert [c[0] for c in after["deck"]] == ["okapi"]
    assert cards(ref, after) == []                               # player 1's turn
    later = ref.play(after, "Ga1>4")
    assert cards(ref, later) != [] and all(t.startswith("+drums:") for t in cards(ref, later))
    # only one Okapi moment: player 1 completing territory A (a1 b1) draws nothing
    end = ref.play(ref.play(later, "Gb2>6"), "Zb1>7")
    assert end["deck"] == after["deck"] and end["held"][1] == ()


def test_a_card_drawn_in_an_again_turn_is_usable_in_the_extra_turn_that_follows():
    ref = reference(reinforcement="deck", deck=[])
    state = position(ref, {"c1": "1G"}, totem=2, held=(("stampede",), ()), deck=("jackal",))
    after = ref.play(ref.play(state, "+stampede"), "Zc2>3")   # completes B, draws jackal
    assert after["player"] == 0 and cards(ref, after) == ["+jackal:c1"]


def test_an_empty_deck_gives_nothing_and_points_cards_score_for_their_holder():
    ref = reference(reinforcement="deck", deck=[])
    state = position(ref, {"c1": "1G"}, totem=2, held=(("waterhole",), ("okapi",)))
    after = ref.play(state, "Zc2>3")
    assert after["okapi"] == 0 and after["held"][0] == state["held"][0]
    # B: one token each -> a tie, nobody scores it. No Okapi bonus in a deck game: points cards only.
    assert ref.score(after) == (3, 5)
    assert Reference(ROWS, tokens=TOKENS).score(after) == (5, 0)   # the plain game: Okapi +5
    # unused action cards score nothing
    assert ref.score(position(ref, {}, totem=0, held=(("drums",), ("ford",)))) == (0, 0)


def test_perft_counts_a_card_use_and_the_turn_after_it():
    ref = reference(reinforcement="deck", deck=[])
    state = position(ref, {}, totem=0, held=(("stampede",), ()))
    plain = position(ref, {}, totem=0)
    # Z, G or L on a1 or a2 (column a), totem to 1, 2 or 3: 18 placements, + the card
    assert ref.perft(plain, 1) == 18 and ref.perft(state, 1) == 19
    # after the card, player 0 places (18). After a placement player 1 answers: from stones 1 and
    # 2 (columns b, c) 3 kinds x 2 cells x 3 = 18; from 3 (row 1) 18 if a1 was taken, else 27.
    # Per kind: a1 18+18+18, a2 18+18+27 -> 117; three kinds 351.
    assert ref.perft(ref.play(state, "+stampede"), 1) == 18
    assert ref.perft(plain, 2) == 351 and ref.perft(state, 2) == 351 + 18


def test_the_okapi_moment_is_checked_again_after_a_card():
    # A hand-made position with territory B full and no Okapi moment yet: using a card is enough
    # to give its user the top card (the rule page checks after every card effect).
    ref = reference(reinforcement="deck", deck=[])
    state = position(ref, {"c1": "1G", "c2": "0z"}, totem=0, held=(("sunrise",), ()),
                     deck=("hunter",))
    after = ref.play(state, "+sunrise:c2")
    assert after["okapi"] == 0 and [c[0] for c in after["held"][0]] == ["hunter"]
    assert cards(ref, after) == []                               # not usable in this turn


def test_a_chase_that_breaks_a_full_territory_takes_nothing_back_and_gives_no_second_draw():
    ref = reference(reinforcement="deck", deck=[])
    # B (c1 c2) is full and the Okapi moment went to player 1, who drew drums
    state = position(ref, {"c1": "1G", "c2": "0G"}, totem=2, held=(("jackal",), ("drums",)),
                     deck=("okapi",), okapi=1)
    after = ref.play(state, "+jackal:c1")
    assert (2, 0) not in after["board"] and after["held"][1] == state["held"][1]
    # player 0 refills c1: B is full again, but there is one Okapi moment per game
    refilled = ref.play(after, "Zc1>3")
    assert refilled["deck"] == state["deck"] and refilled["okapi"] == 1


def test_again_when_the_turn_ends_the_game_gives_nothing():
    ref = reference(reinforcement="deck", deck=[])
    tokens = {"a1": "0Z", "b1": "0G", "c1": "1G", "a2": "1Z", "b2": "1G"}
    state = position(ref, tokens, totem=2, held=(("stampede",), ()), okapi=0)
    end = ref.play(ref.play(state, "+stampede"), "Gc2")            # the last cell: no totem move
    assert ref.moves(end) == [] and ref.is_over(end)
