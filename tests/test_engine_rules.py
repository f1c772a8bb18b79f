"""Hand-checked rule situations (issue 4, "Done when"), on hand-built positions.

Classic layout, for reference (a1 top-left):
    A B C C C C
    A B B C F F
    A A B C C F
    D A B B B E
    D D E E E E
Totem positions: 0-5 above columns a-f, 6-10 right of rows 1-5, 11-16 below columns f-a,
17-21 left of rows 5-1.
"""
from __future__ import annotations

import pytest

from kiwara_designer.games.kiwara import (PASS, IllegalMoveError, Move, KiwaraVariant, new_game,
                                          setup_position)
from kiwara_designer.games.kiwara.state import PositionError
from kiwara_designer.games.kiwara.formats import load_layout
from kiwara_designer.games.kiwara.layout import Layout

CLASSIC = load_layout("classic")


def moves_text(state):
    return [str(m) for m in state.legal_moves()]


def cell(state, name):
    return state.token(state.grid.parse_cell(name))


def test_opening_then_second_player_places():
    state = new_game(CLASSIC)
    assert state.current_player() == 0 and state.totem is None
    assert moves_text(state) == [f"T{p}" for p in range(22)]
    state = state.play("T7")
    assert (state.current_player(), state.totem, state.ply) == (1, 7, 1)
    # Row 2 (right of it), six cells, five kinds, three steps: 8, 9, 10.
    assert len(state.legal_moves()) == 6 * 5 * 3
    assert "Za2>8" in moves_text(state) and "Za2>11" not in moves_text(state)
    first_places = new_game(CLASSIC, KiwaraVariant(first_placer="first")).play("T7")
    assert first_places.current_player() == 0


def test_lion_makes_gazelles_of_both_colours_flee_and_flips_zebras():
    state = setup_position(CLASSIC, tokens={
        "c2": "G", "b3": "g",          # gazelles of both players next to c3: they flee
        "d3": "[G]",                   # face-down gazelle next to c3: flees too
        "c4": "Z",                     # zebra next to c3 (across a river): turned face down
        "b2": "g", "d4": "Z",          # diagonal: untouched
        "b4": "E",                     # not adjacent; elephants are never affected anyway
    }, totem=2, to_move=1, okapi=None)
    after = state.play("lc3>3")
    assert cell(after, "c3") == (1, "L", True)
    for name in ("c2", "b3", "d3"):
        assert cell(after, name) is None
    assert cell(after, "c4") == (0, "Z", False)
    assert cell(after, "b2") == (1, "G", True) and cell(after, "d4") == (0, "Z", True)
    assert after.reserve(0)["G"] == 4 + 2          # c2 and d3 came back to the first player
    assert after.reserve(1)["G"] == 4 + 1          # b3 came back to the second player
    assert after.reserve(1)["L"] == 0


def test_lion_effects_can_be_switched_off():
    tokens = {"c2": "G", "c4": "Z"}
    variant = KiwaraVariant(lion_gazelles_flee=False, lion_flips_zebras=False)
    after = setup_position(CLASSIC, variant, tokens=tokens, totem=2, to_move=1).play("lc3>3")
    assert cell(after, "c2") == (0, "G", True) and cell(after, "c4") == (0, "Z", True)
    blocked = KiwaraVariant(lion_blocked_by_rivers=True)
    # c3 is in B; c2 is in B too (flees), c4 is in B (flips), b3 is in A (shielded by the river).
    after = setup_position(CLASSIC, blocked, tokens={"c2": "G", "b3": "g", "c4": "Z"},
                           totem=2, to_move=1).play("lc3>3")
    assert cell(after, "c2") is None and cell(after, "b3") == (1, "G", True)
    assert cell(after, "c4") == (0, "Z", False)


def test_zebra_and_gazelle_placed_next_to_a_lion_go_face_down():
    state = setup_position(CLASSIC, tokens={"c3": "l"}, totem=2, to_move=0)
    zebra = state.play("Zc2>3")
    assert cell(zebra, "c2") == (0, "Z", False)
    gazelle = state.play("Gc4>3")
    assert cell(gazelle, "c4") == (0, "G", False)          # face down, and it does not flee
    away = state.play("Zc5>3")                              # not adjacent to the lion
    assert cell(away, "c5") == (0, "Z", True)
    elephant = state.play("Ec2>3")
    assert cell(elephant, "c2") == (0, "E", True)           # elephants are not affected
    plain = setup_position(CLASSIC, KiwaraVariant(face_down_next_to_lion=False),
                           tokens={"c3": "l"}, totem=2, to_move=0)
    assert cell(plain.play("Zc2>3"), "c2") == (0, "Z", True)


def test_crocodile_chain_with_optional_stops_and_gazelle_landing_next_to_a_lion():
    # a1 (A) | b1 (B) | c1 (C): rivers between each; a lion on a2 is next to a1 only.
    tokens = {"b1": "g", "c1": "G", "a2": "L", "a3": "z", "a4": "z", "a5": "Z"}
    state = setup_position(CLASSIC, tokens=tokens, totem=0, to_move=0)
    crocodile = [t for t in moves_text(state) if t.startswith("Ca1")]
    assert crocodile == ["Ca1>1", "Ca1>2", "Ca1>3",
                         "Ca1xb1>1", "Ca1xb1>2", "Ca1xb1>3",
                         "Ca1xb1xc1>1", "Ca1xb1xc1>2", "Ca1xb1xc1>3"]
    stop = state.play("Ca1xb1>2")                    # the player may stop after one swap
    assert cell(stop, "b1") == (0, "C", True)
    assert cell(stop, "a1") == (1, "G", False)       # landed next to the lion on a2: face down
    assert cell(stop, "c1") == (0, "G", True)
    chain = state.play("Ca1xb1xc1>2")
    assert cell(chain, "c1") == (0, "C", True)
    assert cell(chain, "b1") == (0, "G", True)       # not next to a lion: keeps its face
    assert cell(chain, "a1") == (1, "G", False)
    one = setup_position(CLASSIC, KiwaraVariant(crocodile_swaps=1), tokens=tokens, totem=0)
    assert [t for t in moves_text(one) if t.startswith("Ca1")][-1] == "Ca1xb1>3"
    with pytest.raises(IllegalMoveError, match="at most 1"):
        one.play("Ca1xb1xc1>2")
    never = setup_position(CLASSIC, KiwaraVariant(crocodile_swaps=0), tokens=tokens, totem=0)
    assert [t for t in moves_text(never) if t.startswith("Ca1")] == ["Ca1>1", "Ca1>2", "Ca1>3"]


def test_crocodile_never_swaps_twice_with_the_same_gazelle():
    # Four territories around a 2 x 2 board: every edge is a river.
    square = Layout.from_rows(["AB", "CD"])
    variant = KiwaraVariant(zebra_tokens=0, gazelle_tokens=2, elephant_tokens=0, lion_tokens=0,
                          crocodile_tokens=1)
    state = setup_position(square, variant, tokens={"b1": "G", "b2": "g", "a2": "G"},
                           totem=0, to_move=0, okapi=1)   # position 0 faces column a
    # a1 -> b1 -> b2 -> a2, then the gazelle from b1 sits on a1: never again. The crocodile
    # fills the board, so no totem move.
    assert moves_text(state) == ["Ca1", "Ca1xb1", "Ca1xb1xb2", "Ca1xb1xb2xa2",
                                 "Ca1xa2", "Ca1xa2xb2", "Ca1xa2xb2xb1"]
    end = state.play("Ca1xb1xb2xa2")
    # a1 b1 / a2 b2: each gazelle moved one step back along the crocodile's path.
    assert [tuple(end.token(c)) for c in range(4)] == [
        (0, "G", True), (1, "G", True), (0, "C", True), (0, "G", True)]
    with pytest.raises(IllegalMoveError):
        state.apply(Move("C", 0, (1, 3, 2, 0), None, 2))


def test_crocodile_swaps_only_across_a_river():
    # b2 and c2 are both in territory B: no swap; a2 (A) is across a river from b2.
    state = setup_position(CLASSIC, tokens={"c2": "g", "a2": "G", "a1": "z", "a3": "z"},
                           totem=1, to_move=0)
    crocodile = {t for t in moves_text(state) if t.startswith("Cb2")}
    assert crocodile == {"Cb2>2", "Cb2>3", "Cb2>4", "Cb2xa2>2", "Cb2xa2>3", "Cb2xa2>4"}
    anywhere = setup_position(CLASSIC, KiwaraVariant(crocodile_swap_needs_river=False),
                              tokens={"c2": "g", "a2": "G", "a1": "z", "a3": "z"}, totem=1)
    assert "Cb2xc2>2" in moves_text(anywhere)


def test_pass_with_an_empty_reserve():
    empty = {k: 0 for k in "ZGELC"}
    state = setup_position(CLASSIC, tokens={"a1": "Z"}, totem=1, to_move=1,
                           reserves=({"G": 2}, empty))
    assert state.legal_moves() == [PASS]
    after = state.apply(PASS)
    assert (after.current_player(), after.totem, after.ply) == (0, 1, state.ply + 1)
    assert after.legal_moves()[0] == Move.parse("Gb1>2", CLASSIC.grid)
    with pytest.raises(IllegalMoveError, match="must pass"):
        state.play("Gb1>2")
    with pytest.raises(IllegalMoveError, match="must place"):
        after.apply(PASS)


def test_lion_gives_back_gazelles_so_the_other_player_passes():
    # Last tokens: the first player's lion makes the second player's gazelle flee; the first
    # player's reserve is then empty, the second player replays the gazelle, first passes, ...
    rows = {"a1": "Z", "b1": "z", "c1": "Z", "d1": "z", "e1": "Z", "f1": "z"}
    variant = KiwaraVariant(zebra_tokens=3, gazelle_tokens=1, elephant_tokens=0, lion_tokens=1,
                          crocodile_tokens=0)
    state = setup_position(CLASSIC, variant, tokens={**rows, "a3": "g", "b3": "G"}, totem=0,
                           to_move=0, reserves=({"L": 1}, {"L": 1}))
    after = state.play("La2>1")       # a2: next to a3 (g) flees; b2 is empty
    assert cell(after, "a3") is None and after.reserve(1) == {"Z": 0, "G": 1, "E": 0, "L": 1,
                                                              "C": 0}
    assert after.current_player() == 1 and not after.is_terminal()
    assert cell(after, "a1") == (0, "Z", False)
    again = after.apply(after.legal_moves()[0])
    assert again.legal_moves() == [PASS] and not again.is_terminal()


def test_forced_totem_jump():
    # Totem at 5 (column f from above). Rows 1-3 full except f1: placing on f1 fills them, so
    # positions 6, 7, 8 (right of rows 1-3) have no room: the totem jumps to 9 (row 4).
    tokens = {}
    fill = iter(["Z", "z", "G", "g"] * 10)
    for row in "123":
        for col in "abcdef":
            if col + row != "f1":
                tokens[col + row] = next(fill)
    variant = KiwaraVariant(zebra_tokens=9, gazelle_tokens=9)
    state = setup_position(CLASSIC, variant, tokens=tokens, totem=5, to_move=0, okapi=0)
    assert moves_text(state)[:1] == ["Zf1>9"]
    assert {t.split(">")[1] for t in moves_text(state) if t.startswith("Zf1")} == {"9"}
    # A lion on f1 makes the gazelle on f2 flee: row 2 (position 7) has room again.
    assert {t.split(">")[1] for t in moves_text(state) if t.startswith("Lf1")} == {"7"}
    # On f4, row 1 keeps its room at f1: position 6 qualifies, no jump.
    assert {t.split(">")[1] for t in moves_text(state) if t[1:3] == "f4"} == {"6"}
    with pytest.raises(IllegalMoveError, match="can go to 9"):
        state.play("Zf1>6")


def test_forced_jump_goes_further_clockwise_and_wraps():
    # Only column a (positions 0 and 16) and row 5 (10, 17) keep room, at a5.
    tokens = {}
    fill = iter(["Z", "z", "G", "g"] * 10)
    for row in "12345":
        for col in "abcdef":
            if col + row not in ("a5", "b5"):
                tokens[col + row] = next(fill)
    variant = KiwaraVariant(zebra_tokens=9, gazelle_tokens=9)
    # Totem at 17 (left of row 5). Placing on b5 leaves a5: steps 18-20 (rows 4-2) are full,
    # the first position further clockwise with room is 0 (column a from above).
    state = setup_position(CLASSIC, variant, tokens=tokens, totem=17, to_move=0, okapi=0)
    assert {t for t in moves_text(state) if t.startswith("Zb5")} == {"Zb5>0"}
    # Placing on a5 leaves b5: the first position with room is 1 (column b from above).
    assert {t for t in moves_text(state) if t.startswith("Za5")} == {"Za5>1"}


def test_okapi_is_decided_after_the_effects():
    # Territory D = a4, a5, b5. a4 holds the second player's gazelle, b5 an elephant.
    tokens = {"a4": "g", "b5": "E"}
    state = setup_position(CLASSIC, tokens=tokens, totem=0, to_move=0)
    lion = state.play("La5>1")        # completes D, but the gazelle on a4 flees: not complete
    assert lion.okapi is None and cell(lion, "a4") is None
    zebra = state.play("Za5>1")       # completes D: the first player takes the Okapi
    assert zebra.okapi == 0
    assert zebra.scoring().totals[0] == 2 + 6 + 5 + 5    # D: g2 + Z6 + E5, and the Okapi
    later = zebra.play("lb1>2")
    assert later.okapi == 0 and later.scoring().okapi == 0


def test_final_scoring_of_a_hand_built_full_board():
    board = {
        "a1": "Z", "b1": "z", "c1": "G", "d1": "g", "e1": "E", "f1": "e",
        "a2": "Z", "b2": "G", "c2": "z", "d2": "C", "e2": "[g]", "f2": "G",
        "a3": "g", "b3": "c", "c3": "[Z]", "d3": "[z]", "e3": "L", "f3": "[g]",
        "a4": "[G]", "b4": "z", "c4": "Z", "d4": "g", "e4": "C", "f4": "z",
        "a5": "l", "b5": "[g]", "c5": "Z", "d5": "c", "e5": "G", "f5": "G",
    }
    state = setup_position(CLASSIC, tokens=board, totem=3, okapi=1)
    assert state.is_terminal() and state.current_player() == -1 and state.legal_moves() == []
    scoring = state.scoring()
    by_name = {t.name: (t.tokens, t.controller, t.points) for t in scoring.territories}
    # Worked out by hand from the rules (face-down tokens count for majority, score 0):
    assert by_name == {
        "A": ((2, 3), 1, 6 + 6 + 2 + 0 + 6),          # a1 Z, a2 Z, a3 g, b3 c, b4 z
        "B": ((4, 3), 0, 6 + 2 + 6 + 0 + 6 + 2 + 0),  # b1 z, b2 G, c2 z, c3 [Z], c4 Z, d4 g, e4 C
        "C": ((4, 3), 0, 2 + 2 + 5 + 5 + 0 + 0 + 1),  # c1 G, d1 g, e1 E, f1 e, d2 C, d3 [z], e3 L
        "F": ((1, 2), 1, 0 + 2 + 0),                  # e2 [g], f2 G, f3 [g]
        "D": ((1, 2), 1, 0 + 1 + 0),                  # a4 [G], a5 l, b5 [g]
        "E": ((3, 2), 0, 6 + 6 + 0 + 2 + 2),          # f4 z, c5 Z, d5 c, e5 G, f5 G
    }
    assert scoring.totals == (22 + 15 + 16, 20 + 2 + 1 + 5)
    assert scoring.winner == 0 and scoring.okapi == 1 and scoring.final
    assert state.returns() == (1.0, -1.0)


def test_tied_territory_scores_for_nobody_or_both():
    tokens = {"a4": "Z", "a5": "z"}
    nobody = setup_position(CLASSIC, tokens=tokens, totem=0).scoring()
    d = next(t for t in nobody.territories if t.name == "D")
    assert d.controller is None and nobody.totals == (0, 0) and nobody.winner is None
    both = setup_position(CLASSIC, KiwaraVariant(territory_tie="both"), tokens=tokens,
                          totem=0).scoring()
    assert both.totals == (12, 12)


def test_a_finished_game_has_no_moves_and_illegal_moves_say_why():
    state = new_game(CLASSIC)
    with pytest.raises(IllegalMoveError, match="totem on a position"):
        state.play("Za1>1")
    state = state.play("T0")
    with pytest.raises(IllegalMoveError, match="not on column a"):
        state.play("Zb1>1")
    with pytest.raises(IllegalMoveError, match="is not allowed here"):
        state.play("Za1>5")
    state = state.play("Za1>1")
    with pytest.raises(IllegalMoveError, match="occupied"):
        setup_position(CLASSIC, tokens={"b1": "Z"}, totem=1, to_move=1).play("zb1>2")
    assert state.ply == 2


def test_last_placement_has_no_totem_move():
    board = {f"{c}{r}": ("Z" if (i % 2) else "z") for i, (c, r) in
             enumerate((c, r) for r in "12345" for c in "abcdef")}
    del board["f5"]
    variant = KiwaraVariant(zebra_tokens=15, gazelle_tokens=0, elephant_tokens=0, lion_tokens=0,
                          crocodile_tokens=0)
    state = setup_position(CLASSIC, variant, tokens=board, totem=5, to_move=0, okapi=0)
    # Position 5 faces column f: only f5 is empty; this placement fills the board.
    assert moves_text(state) == ["Zf5"]
    end = state.play("Zf5")
    assert end.is_terminal() and end.totem == 5 and end.current_player() == -1
    with pytest.raises(IllegalMoveError, match="ends the game"):
        state.play("Zf5>6")


def test_setup_rejects_impossible_positions():
    with pytest.raises(PositionError):
        setup_position(CLASSIC, tokens={"a1": "X"}, totem=0)
    with pytest.raises(PositionError):
        setup_position(CLASSIC, tokens={"a4": "Z", "a5": "z", "b5": "Z"}, totem=0)  # Okapi?


def test_names_of_territories_and_variants_are_kept():
    renamed = Layout.from_rows([row.replace("A", "Q") for row in CLASSIC.rows])
    assert renamed == CLASSIC
    new_game(CLASSIC)
    assert new_game(renamed).scoring().territories[0].name == "Q"
    new_game(CLASSIC, KiwaraVariant(name="one"))
    assert new_game(CLASSIC, KiwaraVariant(name="two")).variant.name == "two"
