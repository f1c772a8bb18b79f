"""Awimbawé variants, notation and records: validation with file, key and reason; exact round
trips (hypothesis)."""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings, strategies as st

from kiwara_designer.games.awimbawe.cards import NAMES, CardError, parse_card, parse_deck
from kiwara_designer.games.awimbawe.moves import MOVES, IllegalMoveError, parse_move
from kiwara_designer.games.awimbawe.record import (MatchRecord, RecordError, ReplayError,
                                                   read_records, replay_summary)
from kiwara_designer.games.awimbawe.state import new_match, shuffled_deck
from kiwara_designer.games.awimbawe.variant import AwimbaweVariant, builtin_variant_names
from kiwara_designer.core.game import CHANCE, sample_chance
from kiwara_designer.games.kiwara.variant import VariantError


# -- variants ------------------------------------------------------------------------------------
def test_builtin_variants_and_classic_lists_every_parameter():
    assert {"classic", "gamepark", "no_flee", "three_hyenas", "no_snake"} <= \
        set(builtin_variant_names())
    assert AwimbaweVariant.load("classic") == AwimbaweVariant()
    from importlib import resources
    text = resources.files("kiwara_designer.games.awimbawe.variants").joinpath("classic.toml").read_text()
    for key in AwimbaweVariant().to_dict():
        assert f"\n{key} = " in "\n" + text, key
    gp = AwimbaweVariant.load("gamepark")
    assert gp.to_dict(only_changes=True) == {"cheetah_may_pass": False, "snake_hidden_tops": True}


def test_variant_crowns_tables():
    v = AwimbaweVariant.from_toml('crowns = {mouse = 5}\neagle_crowns = {"10" = -3}')
    assert v.crowns == (5, 2, 2, 3, 1, 1) and v.eagle_crowns == (0, 0, -1, -3)
    assert sum(AwimbaweVariant().card_crowns) == 45
    assert AwimbaweVariant.from_toml(v.to_toml()) == v


@pytest.mark.parametrize("text,message", [
    ("cheetah_may_pas = true", "unknown key 'cheetah_may_pas' (did you mean 'cheetah_may_pass'?)"),
    ("hyenas_to_lose = 0", "key 'hyenas_to_lose': must be between 1 and 99, got 0"),
    ("snake_power = 1", "key 'snake_power': must be true or false, got 1"),
    ('round1_leader = "youngest"', 'must be "fewer_crowns" or "random"'),
    ("piles = 5", "need 32 cards, the deck has 28"),
    ("crowns = {lion = 3}", "unknown entry 'lion'"),
    ("crowns = 3", "must be a table"),
    ("piles = ", "invalid TOML"),
])
def test_bad_variant_files_name_file_key_and_reason(tmp_path, text, message):
    path = tmp_path / "mine.toml"
    path.write_text(text)
    with pytest.raises(VariantError) as error:
        AwimbaweVariant.load(str(path))
    assert str(path) in str(error.value) and message in str(error.value)


def test_unknown_variant_name():
    with pytest.raises(VariantError, match="no such file or built-in Awimbawé variant"):
        AwimbaweVariant.load("nope")


# -- notation ------------------------------------------------------------------------------------
def test_card_names():
    assert [NAMES[c] for c in (0, 5, 6, 23, 24, 27)] == ["G1", "G6", "D1", "P6", "E7", "E10"]
    assert parse_card("e10") == 27
    with pytest.raises(CardError):
        parse_card("E6")


@given(st.sampled_from(sorted(MOVES)))
def test_every_move_text_round_trips(text):
    assert parse_move(text).text == text
    assert parse_move(text.lower()) is parse_move(text)
    assert str(parse_move(text)) == text


def test_reference_notation_examples():
    for text in ("G3:me", "G3:you", "D2:3>1", "D2:3>3", "M5:p2", "M5:h", "M5:h=G4", "E9:flee",
                 "E9:fight", "start:me", "start:you", "P3"):
        assert parse_move(text).text == text
    for bad in ("G3:them", "D2:3>9", "M5:p9", "G1:me", "E9:run", ""):
        with pytest.raises(IllegalMoveError):
            parse_move(bad)


@given(st.randoms(use_true_random=False))
def test_deck_round_trips(rng):
    deck = shuffled_deck(rng)
    assert parse_deck(" ".join(NAMES[c] for c in deck)) == deck


def test_bad_decks():
    with pytest.raises(CardError, match="28 cards"):
        parse_deck("G1 G2")
    with pytest.raises(CardError, match="twice"):
        parse_deck(" ".join(("G1",) + NAMES[1:27] + ("G1",)))


# -- records -------------------------------------------------------------------------------------
def random_match(seed: int, variant=None):
    rng = random.Random(seed)
    state = new_match(variant)
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state = state.apply(sample_chance(state, rng))
        else:
            state = state.apply(rng.choice(state.legal_moves()))
    return state


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([None, "gamepark", "three_hyenas"]))
def test_records_round_trip_exactly(seed, variant):
    state = random_match(seed, variant)
    record = MatchRecord.from_state(state)
    text = record.to_json()
    again = MatchRecord.from_json(text)
    assert again == record and again.to_json() == text
    data = json.loads(text)
    assert data["game"] == "awimbawe"
    assert data["variant"] == {None: "classic", "three_hyenas": {"hyenas_to_lose": 3},
                               "gamepark": {"cheetah_may_pass": False,
                                            "snake_hidden_tops": True}}[variant]
    replayed = again.replay()
    assert replay_summary(replayed) == replay_summary(state)
    assert replayed.information_state(0) == state.information_state(0)


def test_replay_names_the_illegal_move():
    record = MatchRecord.from_state(random_match(1)).to_dict()
    record["rounds"][0]["moves"][3] = "E10:flee"
    with pytest.raises(ReplayError, match=r"round 1, move 4 \('E10:flee'\) is illegal"):
        MatchRecord.from_dict(record).replay()


def test_replay_summary_shape():
    state = random_match(2)
    summary = replay_summary(MatchRecord.from_state(state).replay())
    assert set(summary) == {"rounds", "winner"}
    for r in summary["rounds"]:
        assert set(r) == {"winner", "crowns", "hyenas", "tricks"}
        assert r["hyenas"] or sum(r["crowns"]) == 45


@pytest.mark.parametrize("change,message", [
    (lambda r: r.update(game="kiwara"), '"game" must be "awimbawe"'),
    (lambda r: r["rounds"][0].update(deck="G1 G2"), "a deck has 28 cards"),
    (lambda r: r["rounds"][0].update(leader=1 - r["rounds"][0]["leader"]),
     "has fewer crowns on their face-up pile cards"),
    (lambda r: r["rounds"][1]["moves"].pop(0), "start:me or start:you"),
    (lambda r: r["rounds"][0]["moves"].pop(), "round 1 is not finished"),
    (lambda r: r["rounds"].append(r["rounds"][0]), "already won"),
    (lambda r: r.update(variant={"snake_powr": False}), "unknown key 'snake_powr'"),
])
def test_bad_records(change, message):
    state = random_match(4)
    record = MatchRecord.from_state(state).to_dict()
    change(record)
    with pytest.raises((RecordError, ReplayError), match=message):
        MatchRecord.from_dict(record).replay()


def test_read_records_json_lines_and_one_object(tmp_path):
    lines = [MatchRecord.from_state(random_match(s)).to_json() for s in range(3)]
    path = tmp_path / "games.jsonl"
    path.write_text("\n".join(lines[:2]) + "\nnot json\n" + lines[2] + "\n")
    got = list(read_records(str(path)))
    assert len(got) == 4 and isinstance(got[2][1], RecordError) and got[2][0].endswith(":3")
    pretty = tmp_path / "one.json"
    pretty.write_text(json.dumps(json.loads(lines[0]), indent=2))
    (source, record), = read_records(str(pretty))
    assert isinstance(record, MatchRecord)
    with pytest.raises(RecordError, match="no such file"):
        list(read_records(str(tmp_path / "missing.json")))
