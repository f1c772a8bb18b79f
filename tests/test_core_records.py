"""The core's one record mechanism (core/records.py), as both games use it: the bytes each
game's rules reference fixes, round trips of random games, and the envelope's checks (game,
variant, the optional keys every record may carry, size and JSON errors in one line)."""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiwara_designer.games.awimbawe.record import MatchRecord, RoundEntry, read_records
from kiwara_designer.games.awimbawe.state import new_match
from kiwara_designer.games.awimbawe.variant import AwimbaweVariant
from kiwara_designer.core.game import CHANCE, sample_chance
from kiwara_designer.core.records import RecordError
from kiwara_designer.games.kiwara import KiwaraRecord, KiwaraVariant, new_game
from kiwara_designer.games.kiwara.formats import load_layout
from test_awimbawe_information import play_random

CLASSIC = load_layout("classic")
DECK = "G1 G2 G3 G4 G5 G6 D1 D2 D3 D4 D5 D6 M1 M2 M3 M4 M5 M6 P1 P2 P3 P4 P5 P6 E7 E8 E9 E10"


def test_kiwara_record_bytes():
    record = KiwaraRecord.from_moves(CLASSIC, KiwaraVariant(name="short", totem_max_step=2),
                                   ["T7", "Gb2>8"], players=["random", "greedy"], seed=3)
    assert record.to_json() == (
        '{\n "layout": "classic",\n "variant": {\n  "name": "short",\n  "totem_max_step": 2\n'
        ' },\n "moves": [\n  "T7",\n  "Gb2>8"\n ],\n "players": [\n  "random",\n  "greedy"\n'
        ' ],\n "seed": 3\n}')


def test_kiwara_deck_record_bytes():
    record = KiwaraRecord.from_moves(CLASSIC, KiwaraVariant(reinforcement="deck"), ["T7"],
                                   deck=["ford", "okapi"])
    assert json.loads(record.to_json()) == {"layout": "classic", "variant": {
        "name": "classic", "reinforcement": "deck"}, "deck": ["ford", "okapi"], "moves": ["T7"]}
    assert list(json.loads(record.to_json())) == ["layout", "variant", "deck", "moves"]


def test_awimbawe_record_bytes_as_the_rules_write_them():
    record = MatchRecord(AwimbaweVariant(), (RoundEntry(tuple(range(28)), 0, ("P3", "P5")),))
    names = " ".join(json.loads(record.to_json())["rounds"][0]["deck"].split())
    assert record.to_json() == ('{"game": "awimbawe", "variant": "classic", "rounds": '
                                f'[{{"deck": "{names}", "leader": 0, "moves": ["P3", "P5"]}}]}}')
    gamepark = MatchRecord(AwimbaweVariant.load("gamepark"), ())     # no name, no built-in name
    assert gamepark.to_json() == ('{"game": "awimbawe", "variant": {"cheetah_may_pass": false, '
                                  '"snake_hidden_tops": true}, "rounds": []}')
    mine = MatchRecord(AwimbaweVariant(name="mine", hyenas_to_lose=3), (), {"seed": 4})
    assert mine.to_json() == ('{"game": "awimbawe", "variant": {"hyenas_to_lose": 3}, '
                              '"rounds": [], "seed": 4}')


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([None, "totem_1_2", "no_crocodile_swaps"]),
       st.integers(0, 40))
def test_kiwara_records_round_trip_exactly(seed, variant_name, length):
    rng = random.Random(seed)
    variant = None if variant_name is None else KiwaraVariant.load(variant_name)
    state, moves = new_game(CLASSIC, variant), []
    while not state.is_terminal() and len(moves) < length:
        move = rng.choice(state.legal_moves())
        moves.append(str(move))
        state = state.apply(move)
    record = KiwaraRecord.from_moves(CLASSIC, variant, moves, seed=seed, players=["a", "b"])
    text = record.to_json()
    again = KiwaraRecord.from_json(text)
    assert again == record and again.to_json() == text and again.extra == record.extra
    assert again.replay() == state


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 200))
def test_awimbawe_unfinished_records_round_trip_exactly(seed, length):
    rng = random.Random(seed)
    state = play_random(new_match(None), rng, length)
    while state.current_player() == CHANCE:   # a blind snake's pick has no notation until drawn
        state = state.apply(sample_chance(state, rng))
    record = MatchRecord.from_state(state, players=["a", "b"], seed=seed)
    text = record.to_json()
    again = MatchRecord.from_json(text)
    assert again == record and again.to_json() == text and again.extra == record.extra
    again.replay()


@pytest.mark.parametrize("load,obj,message", [
    (KiwaraRecord.from_dict, {"game": "awimbawe", "layout": "classic", "moves": []},
     '"game" must be "kiwara", got "awimbawe" (text)'),
    (MatchRecord.from_dict, {"game": "kiwara", "rounds": []},
     '"game" must be "awimbawe", got "kiwara" (text)'),
    (MatchRecord.from_dict, {"rounds": []}, '"game" must be "awimbawe", got null'),
    (MatchRecord.from_dict, {"game": "awimbawe", "rounds": [], "seed": "7"},
     '"seed" must be a whole number, got "7" (text)'),
    (MatchRecord.from_dict, {"game": "awimbawe", "rounds": [], "players": ["x"]},
     '"players" must be a list of the two players\' names'),
    (KiwaraRecord.from_dict, {"layout": "classic", "moves": [], "version": 2},
     '"version" must be 1'),
    (MatchRecord.from_dict, [], "a match record is a JSON object with game, variant and rounds"),
    (KiwaraRecord.from_dict, [], "a game record is a JSON object with layout, variant and moves"),
    (MatchRecord.from_dict, {"game": "awimbawe", "rounds": [], "variant": "nope"},
     "no built-in variant 'nope'"),
    (KiwaraRecord.from_dict, {"layout": "classic", "moves": [], "variant": {"lion_pts": 1}},
     "unknown key 'lion_pts'"),
])
def test_envelope_errors_are_one_line_naming_the_source(load, obj, message):
    with pytest.raises(RecordError) as info:
        load(obj, "r.json")
    assert str(info.value).startswith("r.json: ") and message in str(info.value)
    assert "\n" not in str(info.value)


def test_a_kiwara_record_may_say_its_game_and_keeps_it():
    text = '{"game": "kiwara", "layout": "classic", "variant": "classic", "moves": ["T7"]}'
    record = KiwaraRecord.from_json(text)
    assert json.loads(record.to_json()) == json.loads(text)


def test_json_errors_and_huge_numbers_name_line_and_column(tmp_path):
    with pytest.raises(RecordError, match=r"^r.json:2:9: invalid JSON: a number of 5,000 digits"):
        MatchRecord.from_json('{"game": "awimbawe",\n"seed": ' + "9" * 5000 + "}", "r.json")
    path = tmp_path / "lines.jsonl"
    path.write_text('{"game": "awimbawe", "rounds": []}\n{"seed": ' + "9" * 5000 + "}\n")
    (first, ok), (second, error) = read_records(str(path))
    assert isinstance(ok, MatchRecord) and second == f"{path}:2"
    assert str(error).startswith(f"{path}:2: column 10: invalid JSON: a number of 5,000 digits")


def test_a_match_recorded_just_after_a_deal_replays():
    rng, state = random.Random(0), new_match(None)
    for _ in range(85):         # seed 0: round 1 over, round 2 dealt, its loser still to choose
        move = sample_chance(state, rng) if state.current_player() == CHANCE \
            else rng.choice(state.legal_moves())
        state = state.apply(move)
    record = MatchRecord.from_state(state)
    assert len(record.rounds) == 2 and record.rounds[1].moves == ()
    replayed = MatchRecord.from_json(record.to_json()).replay()
    assert replayed.rounds == state.rounds and replayed.current_player() == state.current_player()
