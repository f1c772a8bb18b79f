"""Reinforcement deck and handicap cards, hand-built from the rules reference ("Reinforcement
deck"): every effect primitive with legal and illegal targets, the draw at the Okapi moment,
records, notation and variant files.

The classic layout, for the positions below (D = a4 a5 b5, F = e2 f2 f3):

    a b c d e f
 1  A B C C C C
 2  A B B C F F
 3  A A B C C F
 4  D A B B B E
 5  D D E E E E
"""
from __future__ import annotations

import random

import pytest

from kiwara_designer.core.game import CHANCE, sample_chance
from kiwara_designer.games.kiwara import (PASS, KiwaraRecord, IllegalMoveError, Move, PositionError,
                                          RecordError, KiwaraVariant, VariantError, new_game, perft,
                                          setup_position)
from kiwara_designer.games.kiwara.formats import load_layout

CLASSIC = load_layout("classic")
DECK = KiwaraVariant(reinforcement="deck")
SAMPLE = ["okapi", "waterhole", "drums", "storm", "stampede", "migration", "sunrise", "hunter",
          "jackal", "ford"]


def position(tokens=None, *, hands=((), ()), deck=None, totem=0, to_move=0, okapi=None,
             variant=DECK):
    return setup_position(CLASSIC, variant, tokens=tokens or {}, totem=totem, to_move=to_move,
                          okapi=okapi, hands=hands, deck=deck)


def card_moves(state):
    return [str(m) for m in state.legal_moves() if m.is_card]


def illegal(state, text, *words):
    with pytest.raises(IllegalMoveError) as info:
        state.play(text)
    for word in words:
        assert word in str(info.value), str(info.value)


# -- the default game is unchanged ---------------------------------------------------------------
def test_okapi_game_has_no_cards():
    state = new_game(CLASSIC)
    assert state.hand(0) == () and state.deck_size() == 0 and state.deck_order() is None
    illegal(state.play("T3"), "+drums:4", "no reinforcement cards")
    with pytest.raises(PositionError, match="no deck"):
        new_game(CLASSIC, KiwaraVariant(), deck=SAMPLE)


def test_passive_handicap_cards_leave_perft_unchanged():
    # okapi and waterhole on top: both players hold only points cards, which are never used.
    state = new_game(CLASSIC, KiwaraVariant(reinforcement="deck", handicap=(1, 1)), deck=SAMPLE)
    assert (state.hand(0), state.hand(1)) == (("okapi",), ("waterhole",))
    assert [perft(state, d) for d in (1, 2, 3)] == [22, 1800, 146058]


# -- points ---------------------------------------------------------------------------------------
def test_points_cards_score_for_their_holder_and_are_never_used():
    state = position(hands=(["okapi"], ["waterhole"]), to_move=0)
    assert card_moves(state) == []
    illegal(state, "+okapi", "points card", "never used")
    assert state.scoring().totals == (5, 3) and state.scoring().okapi is None


def test_a_tied_deck_game_is_a_draw():
    rng = random.Random(5)
    final = new_game(CLASSIC)
    while not final.is_terminal():
        final = final.apply(rng.choice(final.legal_moves()))
    first, second = final.scoring().totals
    okapi = final.okapi
    # The same board in a deck game: the Okapi is a card; give the trailing player a card that
    # makes up exactly the difference, so the totals tie.
    bonus = first - second - (5 if okapi == 0 else -5)
    tokens = {CLASSIC.grid.cell_name(c): _text(t) for c, t in enumerate(final.tokens())}
    variant = KiwaraVariant(reinforcement="deck",
                          deck=[{"name": "gift", "effect": "points", "value": abs(bonus)}])
    tied = setup_position(CLASSIC, variant, tokens=tokens, totem=final.totem, okapi=okapi,
                          hands=(["gift"], []) if bonus < 0 else ([], ["gift"]))
    totals = tied.scoring().totals
    assert tied.is_terminal() and totals[0] == totals[1]
    assert tied.scoring().winner is None and tied.returns() == (0.0, 0.0)


def _text(token):
    letter = token.kind if token.owner == 0 else token.kind.lower()
    return letter if token.face_up else f"[{letter}]"


# -- totem ----------------------------------------------------------------------------------------
def test_totem_card_moves_the_totem_then_the_turn_goes_on_from_there():
    column_b = {"b1": "Z", "b2": "z", "b3": "G", "b4": "g", "b5": "E"}
    state = position(column_b, hands=(["drums"], ["storm"]), totem=0, to_move=1)
    # every other stone whose line has an empty cell: not 0 (the totem's), not 1 and 15 (column b)
    assert card_moves(state) == [f"+storm:{q}" for q in range(2, 22) if q != 15]
    illegal(state, "+storm:0", "another stone")
    illegal(state, "+storm:15", "another stone", "15 is not")
    illegal(state, "+storm:c3", "+storm:STONE")
    illegal(state, "+drums:3", "you hold no card 'drums'", "storm")
    after = state.play("+storm:9")          # right of row 4
    assert after.totem == 9 and after.current_player() == 1 and after.card_used
    moves = after.legal_moves()
    assert card_moves(after) == [] and PASS not in moves
    assert {m.cell for m in moves} == {CLASSIC.grid.parse_cell(c) for c in ("a4", "c4", "d4", "e4", "f4")}
    assert {m.totem for m in moves} == {10, 11, 12}
    assert after.play("Za4>12").current_player() == 0 and after.play("Za4>12").hand(1) == ()


def test_card_names_make_moves_distinct_and_identical_cards_are_one_move():
    state = position(hands=(["drums", "storm"], []), totem=0)
    assert "+drums:14" in card_moves(state) and "+storm:14" in card_moves(state)
    twin = KiwaraVariant(reinforcement="deck", deck=[{"name": "drums", "effect": "totem"}] * 2)
    state = position(hands=(["drums", "drums"], []), totem=0, variant=twin)
    assert card_moves(state) == [f"+drums:{q}" for q in range(1, 22)]
    assert state.play("+drums:5").hand(0) == ("drums",)


# -- again ----------------------------------------------------------------------------------------
def test_again_gives_the_same_player_one_more_whole_turn():
    state = position(hands=(["stampede"], []), totem=0, to_move=0)
    assert card_moves(state) == ["+stampede"]
    illegal(state, "+stampede:3", "+stampede")
    used = state.play("+stampede")
    assert used.extra_turn and card_moves(used) == []
    again = used.play("Za1>1")
    assert again.current_player() == 0 and not again.extra_turn and not again.card_used
    assert again.play("Zb1>2").current_player() == 1


def test_again_with_an_empty_reserve_is_a_forced_pass():
    # The first player has one token left: after the card and that token, their extra turn is a pass.
    tokens = {"a1": "z", "a2": "Z"}
    reserves = ({"Z": 1}, {"Z": 3})
    state = setup_position(CLASSIC, DECK, tokens=tokens, totem=1, to_move=0, okapi=None,
                           reserves=reserves, hands=(["stampede"], []))
    after = state.play("+stampede").play("Zb1>2")
    assert after.current_player() == 0 and after.legal_moves() == [PASS]
    assert after.apply(PASS).current_player() == 1


def test_again_at_the_end_of_the_game_gives_nothing():
    state = _one_cell_left(hands=(["migration"], []))
    last = state.play("+migration").play("Gf5")
    assert last.is_terminal() and last.legal_moves() == []


def _one_cell_left(hands):
    """A full board but f5, the first player to move with one gazelle left."""
    first = list("ZZZZZGGGGGELCC")         # 14 of the first player's 15 tokens
    second = list("zzzzzggggggelcc")
    cells = [CLASSIC.grid.cell_name(c) for c in range(29)]
    tokens = {}
    for i, cell in enumerate(cells):
        tokens[cell] = (first if i % 2 == 0 and first or not second else second).pop()
    return setup_position(CLASSIC, DECK, tokens=tokens, totem=5, to_move=0, okapi=1,
                          hands=hands)


# -- rise, scare, chase ---------------------------------------------------------------------------
def test_rise_turns_your_own_face_down_token_up_even_next_to_a_lion():
    tokens = {"a1": "[Z]", "b1": "l", "c1": "[z]", "d1": "Z", "e1": "[G]"}
    state = position(tokens, hands=(["sunrise"], []), totem=1)
    assert card_moves(state) == ["+sunrise:a1", "+sunrise:e1"]
    illegal(state, "+sunrise:c1", "your face-down")
    illegal(state, "+sunrise:d1", "your face-down", "d1 is not")
    illegal(state, "+sunrise", "+sunrise:CELL")
    after = state.play("+sunrise:a1")
    assert after.token(0).face_up and after.hand(0) == ()


def test_scare_turns_an_opponents_face_up_zebra_down():
    tokens = {"a1": "z", "b1": "[z]", "c1": "Z", "d1": "g", "e1": "z"}
    state = position(tokens, hands=([], ["hunter"]), totem=1, to_move=1)
    assert card_moves(state) == ["+hunter:c1"]      # the second player's target: the first's zebra
    state = position(tokens, hands=(["hunter"], []), totem=1, to_move=0)
    assert card_moves(state) == ["+hunter:a1", "+hunter:e1"]
    illegal(state, "+hunter:b1", "face-up zebras")
    illegal(state, "+hunter:d1", "face-up zebras")
    assert not state.play("+hunter:e1").token(4).face_up


def test_chase_sends_an_opponents_gazelle_back_and_breaks_a_full_territory():
    # D (a4 a5 b5) is full: the Okapi moment has passed (second player). The jackal chases the
    # face-down gazelle on a5; refilling D later draws nothing more.
    tokens = {"a4": "Z", "a5": "[g]", "b5": "z", "c1": "G"}
    state = position(tokens, hands=(["jackal"], []), totem=0, to_move=0, okapi=1,
                     deck=[c for c in SAMPLE if c != "jackal"])
    assert card_moves(state) == ["+jackal:a5"]
    illegal(state, "+jackal:c1", "opponent's gazelles")
    illegal(state, "+jackal:b5", "opponent's gazelles")
    chased = state.play("+jackal:a5")
    assert chased.token(CLASSIC.grid.parse_cell("a5")) is None
    assert chased.reserve(1)["G"] == 6 and chased.okapi == 1
    refilled = chased.play("Ga5>1")
    assert refilled.hand(0) == () and refilled.deck_size() == 9 and refilled.okapi == 1


# -- swap -----------------------------------------------------------------------------------------
def test_swap_targets_adjacent_tokens_of_both_players_across_a_river():
    tokens = {"b1": "Z", "c1": "g", "b2": "e", "a1": "C", "a2": "z"}
    state = position(tokens, hands=(["ford"], []), totem=2)
    # b1 (B) with c1 (C); a1 (A) with b1? same owner; b1-b2 both B; a1-a2 both A.
    assert card_moves(state) == ["+ford:b1-c1"]
    illegal(state, "+ford:b1-b2", "another territory")
    illegal(state, "+ford:c1-b1", "your token")
    illegal(state, "+ford:b1", "+ford:OWN-THEIRS")
    after = state.play("+ford:b1-c1")
    assert after.token(1).kind == "G" and after.token(1).owner == 1 and after.token(1).face_up
    assert after.token(2).kind == "Z" and after.token(2).owner == 0


def test_swap_landing_next_to_a_lion_turns_face_down_and_a_moved_lion_scares_nobody():
    # The zebra from b1 lands on c1, next to the lion on d1: face down.
    state = position({"b1": "Z", "c1": "g", "d1": "l"}, hands=(["ford"], []), totem=2)
    after = state.play("+ford:b1-c1")
    assert not after.token(2).face_up and after.token(1).face_up
    # The lion from b1 lands on c1 next to a gazelle on d1 and a zebra on c2: nothing happens
    # to them; the opponent's zebra lands on b1, next to the lion: face down.
    state = position({"b1": "L", "c1": "z", "d1": "g", "c2": "z"}, hands=(["ford"], []), totem=2)
    after = state.play("+ford:b1-c1")
    grid = CLASSIC.grid
    assert after.token(grid.parse_cell("c1")).kind == "L"
    assert after.token(grid.parse_cell("d1")).face_up and after.token(grid.parse_cell("c2")).face_up
    assert not after.token(grid.parse_cell("b1")).face_up


# -- when cards may be used -----------------------------------------------------------------------
def test_no_card_in_the_opening_nor_on_a_pass_turn():
    state = new_game(CLASSIC, KiwaraVariant(reinforcement="deck", handicap=(1, 0)),
                     deck=["drums"] + SAMPLE[:2] + SAMPLE[3:])
    assert state.hand(0) == ("drums",) and card_moves(state) == []
    illegal(state, "+drums:3", "not in the opening")
    passing = setup_position(CLASSIC, DECK, tokens={"a1": "z"}, totem=1, to_move=0,
                             reserves=({}, {"Z": 3}), hands=(["drums"], []))
    assert passing.legal_moves() == [PASS]
    illegal(passing, "+drums:3", "you must pass")


def test_handicap_cards_are_dealt_first_player_first_and_usable_at_once():
    variant = KiwaraVariant(reinforcement="deck", handicap=(2, 1))
    order = ["jackal", "drums", "storm"] + [c for c in SAMPLE if c not in ("jackal", "drums", "storm")]
    state = new_game(CLASSIC, variant, deck=order)
    assert (state.hand(0), state.hand(1)) == (("drums", "jackal"), ("storm",))
    assert state.deck_order() == tuple(order[3:])
    opened = state.play("T3")
    assert opened.current_player() == 1 and card_moves(opened)[0] == "+storm:0"


def test_handicap_deal_and_draw_are_chance_nodes_when_the_order_is_unknown():
    variant = KiwaraVariant(reinforcement="deck", handicap=(1, 1))
    state = new_game(CLASSIC, variant)
    assert state.current_player() == CHANCE and not state.is_terminal()
    outcomes = state.chance_outcomes()
    assert [str(m) for m, _ in outcomes] == [f"draw:{c}" for c in SAMPLE]
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert state.legal_moves() == [m for m, _ in outcomes]
    state = state.play("draw:ford")
    assert state.current_player() == CHANCE and state.hand(0) == ("ford",)
    illegal(state, "draw:ford", "left:")
    state = state.play("draw:okapi")
    assert state.current_player() == 0 and state.hand(1) == ("okapi",) and state.deck_size() == 8
    assert [p for _, p in state.play("T0").chance_outcomes()] == []


def test_okapi_moment_draws_the_top_card_which_an_extra_turn_may_use_at_once():
    # F (e2 f2 f3): the stampede's placement on f3 completes it; the top card (drums) comes to
    # the first player, whose extra turn may use it.
    tokens = {"e2": "z", "f2": "Z"}
    state = position(tokens, hands=(["stampede"], []), totem=8, to_move=0,
                     deck=["drums"] + [c for c in SAMPLE if c not in ("stampede", "drums")])
    completed = state.play("+stampede").play("Zf3>9")
    assert completed.okapi == 0 and completed.hand(0) == ("drums",)
    assert completed.current_player() == 0 and "+drums:0" in card_moves(completed)


def test_the_okapi_moment_with_an_unknown_order_is_a_chance_node_then_play_goes_on():
    state = position({"e2": "z", "f2": "Z"}, totem=8, to_move=0)
    unknown = state.determinize(0, random.Random(1))
    assert unknown.deck_order() is None and unknown.information_state(1) == state.information_state(1)
    drawn = unknown.play("Zf3>9")
    assert drawn.current_player() == CHANCE and drawn.okapi == 0
    assert len(drawn.chance_outcomes()) == 10
    after = drawn.apply(sample_chance(drawn, random.Random(3)))
    assert after.current_player() == 1 and len(after.hand(0)) == 1


def test_empty_deck_gives_nothing_and_there_is_one_okapi_moment():
    state = position({"e2": "z", "f2": "Z"}, totem=8, to_move=0, hands=(SAMPLE[:5], SAMPLE[5:]),
                     deck=[])
    after = state.play("Zf3>9")
    assert after.okapi == 0 and len(after.hand(0)) == 5 and after.current_player() == 1
    # the moment passed: completing D later gives nothing, even with cards in the deck
    state = position({"e2": "z", "f2": "Z", "a4": "G", "a5": "g"}, totem=17, to_move=0, okapi=1)
    after = state.play("Zb5>18")
    assert after.hand(0) == () and after.deck_size() == 10


def test_the_okapi_moment_is_checked_after_a_card_but_no_card_completes_a_territory():
    # Before the moment no territory is full, and no effect fills a cell: a card never draws.
    state = position({"e2": "z", "f2": "Z", "f1": "g"}, hands=(["ford", "jackal"], []), totem=8)
    for text in card_moves(state):
        after = state.play(text)
        assert after.okapi is None and after.deck_size() == 8 and after.current_player() == 0


def test_information_state_hides_the_deck_order_only():
    a = position(deck=SAMPLE)
    b = position(deck=list(reversed(SAMPLE)))
    assert a != b and a.information_state(0) == b.information_state(0)
    assert a.information_state(1) == b.information_state(1)
    c = position(hands=(["drums"], []), deck=[x for x in SAMPLE if x != "drums"])
    assert c.information_state(0) != a.information_state(0)   # held cards are open


# -- notation and records -------------------------------------------------------------------------
def test_every_legal_move_round_trips_and_apply_accepts_exactly_them():
    rng = random.Random(11)
    variant = KiwaraVariant(reinforcement="deck", handicap=(2, 2))
    uses = set()
    for game in range(12):
        state = new_game(CLASSIC, variant, deck=rng.sample(SAMPLE, 10))
        while not state.is_terminal():
            moves = state.legal_moves()
            for move in moves:
                assert Move.parse(str(move), CLASSIC.grid) == move
            texts = {str(m) for m in moves}
            for miss in ("+drums:0", "+jackal:a1", "+ford:a1-b1", "+stampede", "+sunrise:c3",
                         "+hunter:d4", "+storm:21", "+migration"):
                if miss not in texts:
                    with pytest.raises(IllegalMoveError):
                        state.play(miss)
            move = rng.choice(moves)
            uses.update([move.card] if move.is_card else [])
            state = state.apply(move)
    assert uses == {"drums", "storm", "stampede", "migration", "sunrise", "hunter", "jackal", "ford"}


def test_record_stores_the_deck_and_replays_exactly():
    variant = KiwaraVariant(reinforcement="deck", handicap=(1, 2), name="handicapped")
    rng = random.Random(2)
    state, moves = new_game(CLASSIC, variant), []
    while not state.is_terminal():
        move = sample_chance(state, rng) if state.current_player() == CHANCE else \
            rng.choice(state.legal_moves())
        moves.append(move)
        state = state.apply(move)
    draws = [m.card for m in moves if m.draw]
    assert len(draws) == 4
    record = KiwaraRecord.from_moves(CLASSIC, variant, moves, seed=2)
    assert record.deck[:4] == tuple(draws) and sorted(record.deck) == sorted(SAMPLE)
    assert not any(text.startswith("draw:") for text in record.moves)
    again = KiwaraRecord.from_json(record.to_json())
    assert again.to_dict()["deck"] == list(record.deck) and again == record
    final = again.replay()
    assert final.scoring() == state.scoring() and final.hand(0) == state.hand(0)
    # the same game from the chance moves themselves, without "deck"
    chance = KiwaraRecord(CLASSIC, variant, tuple(map(str, moves)))
    assert chance.replay().scoring() == state.scoring()


def test_okapi_records_are_unchanged():
    record = KiwaraRecord.from_moves(CLASSIC, None, ["T7", "Gb2>8"])
    assert record.to_dict() == {"layout": "classic", "variant": "classic", "moves": ["T7", "Gb2>8"]}


@pytest.mark.parametrize("deck,words", [
    ('["okapi"]', ["r.json", '"deck"', "no 'waterhole'"]),
    ('["okapi", "okapi", "waterhole", "drums", "storm", "stampede", "migration", "sunrise", '
     '"hunter", "jackal"]', ["one more 'okapi'", "no 'ford'"]),
    ('["thunder"]', ["no card 'thunder'"]),
    ('"sample"', ["list of card names"]),
])
def test_bad_deck_orders_in_records(deck, words):
    text = ('{"layout": "classic", "variant": {"reinforcement": "deck"}, "deck": ' + deck +
            ', "moves": []}')
    with pytest.raises(RecordError) as info:
        KiwaraRecord.from_json(text, "r.json")
    for word in words:
        assert word in str(info.value)


# -- deck files -----------------------------------------------------------------------------------
@pytest.mark.parametrize("toml,words", [
    ('reinforcement = "deck"\ndeck = [{name = "thunder", effect = "lightning"}]',
     ["card 1 ('thunder')", "unknown effect 'lightning'", "points, totem"]),
    ('reinforcement = "deck"\ndeck = [{name = "a", effect = "totem"}, {name = "gold", effect = "points"}]',
     ["card 2 ('gold')", "missing value"]),
    ('reinforcement = "deck"\ndeck = [{name = "a", effect = "again", value = 3}]',
     ["card 1 ('a')", "only for points"]),
    ('reinforcement = "deck"\ndeck = [{effect = "again"}]', ["card 1", "missing name"]),
    ('reinforcement = "deck"\ndeck = [{name = "A b", effect = "again"}]', ["card 1", "name 'A b'"]),
    ('reinforcement = "deck"\ndeck = [{name = "a", effect = "again", colour = "red"}]',
     ["card 1 ('a')", "unknown key 'colour'"]),
    ('reinforcement = "deck"\ndeck = [{name = "a", effect = "again"}, {name = "a", effect = "rise"}]',
     ["card 2 ('a')", "same name"]),
    ('reinforcement = "deck"\ndeck = [{name = "a", effect = "again"}]\nhandicap = [1, 1]',
     ["handicap", "2 cards", "the deck has 1"]),
    ('handicap = [1, 0]', ["handicap", 'reinforcement = "deck"']),
    ('reinforcement = "deck"\nhandicap = [1]', ["handicap", "two whole numbers"]),
    ('reinforcement = "cards"', ["reinforcement", '"okapi" or "deck"']),
    ('reinforcement = "deck"\ndeck = "published"', ["no built-in deck 'published'", "sample"]),
])
def test_deck_file_errors_name_the_file_and_the_card(tmp_path, toml, words):
    path = tmp_path / "mydeck.toml"
    path.write_text(toml)
    with pytest.raises(VariantError) as info:
        KiwaraVariant.load(str(path))
    message = str(info.value)
    assert message.startswith(str(path)) and "\n" not in message
    for word in words:
        assert word in message, message


def test_a_deck_variant_round_trips_through_toml_and_json():
    variant = KiwaraVariant(name="mine", reinforcement="deck", handicap=(0, 2),
                          deck=[{"name": "gold", "effect": "points", "value": 4},
                                {"name": "wind", "effect": "totem"},
                                {"name": "owl", "effect": "swap"}])
    assert KiwaraVariant.from_toml(variant.to_toml()) == variant
    table = variant.to_dict(only_changes=True)
    assert table["deck"][0] == {"name": "gold", "effect": "points", "value": 4}
    assert KiwaraVariant.from_dict(table) == variant
    assert len({variant, KiwaraVariant.from_dict(table)}) == 1


# -- perft ----------------------------------------------------------------------------------------
def test_perft_counts_card_uses_as_moves_with_the_deck_order_fixed(tmp_path):
    from click.testing import CliRunner
    from kiwara_designer.cli import main
    # drums (a totem card) to the first player, ford (a swap) to the second: the second player's
    # first placement has no token to swap with; then each of the first player's turns adds the
    # drums' 21 other stones (every line still has an empty cell) to the 146,058 placements.
    variant = tmp_path / "handicap.toml"
    variant.write_text('reinforcement = "deck"\nhandicap = [1, 1]\n')
    order = "drums,ford,okapi,waterhole,storm,stampede,migration,sunrise,hunter,jackal"
    result = CliRunner().invoke(main, ["perft", "3", "--variant", str(variant), "--deck", order])
    assert result.exit_code == 0, result.output
    assert result.output.split("\n")[:3] == ["perft 1 22", "perft 2 1800",
                                             f"perft 3 {146058 + 1800 * 21}"]
    result = CliRunner().invoke(main, ["perft", "1", "--variant", str(variant), "--deck", "drums"])
    assert result.exit_code == 2 and "no 'ford'" in result.output
