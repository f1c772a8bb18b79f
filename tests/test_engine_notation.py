"""Move notation, game records, and the `kiwara perft` / `kiwara replay` commands."""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiwara_designer.games.kiwara import (PASS, KiwaraRecord, IllegalMoveError, Move, NotationError,
                                          RecordError, ReplayError, KiwaraVariant, new_game)
from kiwara_designer.games.kiwara.formats import load_layout
from kiwara_designer.games.kiwara.geometry import Grid

CLASSIC = load_layout("classic")
GRID = CLASSIC.grid


@pytest.mark.parametrize("text,fields", [
    ("T7", (None, None, (), 7)),
    ("Zc3>12", ("Z", 14, (), 12)),                 # c3 = column 2, row 2 -> 2 * 6 + 2
    ("Cb2xc2xd3>4", ("C", 7, (8, 15), 4)),
    ("Gf5", ("G", 29, (), None)),
    ("pass", (None, None, (), None)),
])
def test_examples_of_the_issue(text, fields):
    move = Move.parse(text, GRID)
    assert (move.kind, move.cell, move.swaps, move.totem) == fields
    assert str(move) == text


def test_lenient_input_canonical_output():
    assert str(Move.parse(" zc3 > 12 ", GRID)) == "Zc3>12"
    assert str(Move.parse("PASS", GRID)) == "pass" and Move.parse("Pass", GRID) == PASS
    assert str(Move.parse("t21", GRID)) == "T21"


@pytest.mark.parametrize("text,reason", [
    ("Xc3>1", "is not a move"), ("Zg1>1", "no cell 'g1'"), ("Zc6>1", "no cell"),
    ("T22", "not in 0..21"), ("Zc3>22", "not in 0..21"), ("Zc3xc4>1", "only a crocodile"),
    ("", "is not a move"), ("Zc3>", "is not a move"),
])
def test_bad_notation(text, reason):
    with pytest.raises(NotationError, match=reason):
        Move.parse(text, GRID)


cells = st.integers(0, 29)


@settings(max_examples=200, deadline=None)
@given(st.one_of(
    st.builds(Move.opening, st.integers(0, 21)),
    st.just(PASS),
    st.builds(lambda k, c, t: Move(k, c, (), t, 6), st.sampled_from("ZGEL"), cells,
              st.one_of(st.none(), st.integers(0, 21))),
    st.builds(lambda c, s, t: Move("C", c, tuple(s), t, 6), cells, st.lists(cells, max_size=6),
              st.one_of(st.none(), st.integers(0, 21)))))
def test_notation_round_trip(move):
    assert Move.parse(str(move), GRID) == move
    assert str(Move.parse(str(move), GRID)) == str(move)


@settings(max_examples=50, deadline=None)
@given(st.integers(1, 26), st.integers(1, 30), st.data())
def test_notation_round_trip_on_any_board(width, height, data):
    grid = Grid(width, height)
    cell = data.draw(st.integers(0, grid.size - 1))
    totem = data.draw(st.integers(0, grid.positions - 1))
    move = Move("E", cell, (), totem, width)
    assert Move.parse(str(move), grid) == move


def play_random_game(seed, layout=CLASSIC, variant=None):
    rng = random.Random(seed)
    state = new_game(layout, variant)
    moves = []
    while not state.is_terminal():
        move = rng.choice(state.legal_moves())
        moves.append(move)
        state = state.apply(move)
    return state, moves


def test_legal_moves_round_trip_in_real_games():
    state = new_game(CLASSIC)
    rng = random.Random(2)
    while not state.is_terminal():
        for move in state.legal_moves():
            assert Move.parse(str(move), GRID) == move
        state = state.apply(rng.choice(state.legal_moves()))


def test_record_round_trip_and_replay():
    final, moves = play_random_game(4)
    record = KiwaraRecord.from_moves(CLASSIC, None, moves, players=["random", "random"], seed=4)
    data = json.loads(record.to_json())
    assert data["layout"] == "classic" and data["variant"] == "classic"
    assert data["moves"][0].startswith("T") and data["seed"] == 4
    again = KiwaraRecord.from_json(record.to_json())
    assert again == record and again.extra["players"] == ["random", "random"]
    assert again.replay() == final
    assert again.replay().scoring() == final.scoring()


def test_record_with_rows_and_variant_table():
    layout = load_layout("president").transformed(load_layout("president").grid.symmetries[1])
    variant = KiwaraVariant(name="mine", crocodile_swaps=1, gazelle_points=3)
    final, moves = play_random_game(5, layout, variant)
    record = KiwaraRecord.from_moves(layout, variant, moves)
    data = json.loads(record.to_json())
    assert data["layout"] == list(layout.rows)
    assert data["variant"] == {"name": "mine", "crocodile_swaps": 1, "gazelle_points": 3}
    assert KiwaraRecord.from_json(record.to_json()).replay() == final


def test_doctored_record_is_rejected_with_index_move_and_reason():
    _, moves = play_random_game(6)
    texts = [str(m) for m in moves]
    texts[5] = texts[5].split(">")[0] + ">0" if not texts[5].endswith(">0") else texts[5][:-1] + "1"
    with pytest.raises(ReplayError) as info:
        KiwaraRecord(CLASSIC, KiwaraVariant(), tuple(texts)).replay()
    assert info.value.index == 5 and info.value.move == texts[5]
    assert "totem" in info.value.reason
    extra = KiwaraRecord(CLASSIC, KiwaraVariant(), tuple(str(m) for m in moves) + ("pass",))
    with pytest.raises(ReplayError, match="game is over"):
        extra.replay()


@pytest.mark.parametrize("text,reason", [
    ("{", "invalid JSON"), ("[]", "JSON object"), ('{"moves": []}', "missing key 'layout'"),
    ('{"layout": "nowhere", "moves": []}', "no built-in layout"),
    ('{"layout": ["AB", "ABC"], "moves": []}', "layout"),
    ('{"layout": "classic", "variant": {"crocodile_swaps": 5}, "moves": []}', "crocodile_swaps"),
    ('{"layout": "classic", "moves": [1, 2]}', "list of moves"),
])
def test_malformed_records(text, reason):
    with pytest.raises(RecordError, match=reason):
        KiwaraRecord.from_json(text, "game.json")


# -- command line ---------------------------------------------------------------------------


def test_cli_perft(run):
    result = run("perft", "2")
    assert result.exit_code == 0 and result.output == "perft 1 22\nperft 2 1800\n"
    divide = run("perft", "1", "--divide", "--layout", "president")
    assert divide.output.splitlines()[0] == "T0 1" and divide.output.endswith("perft 1 22\n")
    data = json.loads(run("perft", "2", "--json", "--moves", "T7",
                          "--variant", "totem_1_2").output)
    # Row 2, six cells, five kinds, two steps; then rows 3 or 4, still empty: 60 each, plus a
    # crocodile swap under a gazelle across a river (Gb2>8 then Cb3xb2, Ge2>8 then Ce3xe2),
    # two totem steps each.
    assert data["perft"] == [{"depth": 1, "nodes": 60}, {"depth": 2, "nodes": 60 * 60 + 4}]
    assert run("perft", "1", "--moves", "T7 Zc3>9").exit_code == 1
    assert run("perft", "1", "--variant", "nope").exit_code == 2


def test_cli_replay(run, tmp_path):
    final, moves = play_random_game(7)
    path = tmp_path / "game.json"
    KiwaraRecord.from_moves(CLASSIC, None, moves).save(str(path))
    shown = run("replay", str(path), "--no-colour")
    assert shown.exit_code == 0
    assert "final score: first" in shown.output and " a   b   c" in shown.output
    data = json.loads(run("replay", str(path), "--json").output)
    assert data["scores"] == list(final.scoring().totals)
    assert data["winner"] == final.scoring().winner and len(data["territories"]) == 6
    described = " ".join(run("replay", "--help").output.split())
    for key in [*data, *data["territories"][0]]:       # --help names every field printed
        assert f'"{key}"' in described, key
    piped = run("replay", "-", "--json", input=path.read_text())
    assert json.loads(piped.output)["scores"] == data["scores"]
    doctored = json.loads(path.read_text())
    doctored["moves"][3] = "pass"
    path.write_text(json.dumps(doctored))
    bad = run("replay", str(path))
    assert bad.exit_code == 1 and "move 4 ('pass')" in bad.output
    path.write_text("{not json")
    assert run("replay", str(path)).exit_code == 2
    assert run("replay", str(tmp_path / "missing.json")).exit_code == 2


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ZGELCTzgelctxabcdefgh0123456789>pas ", max_size=14))
def test_any_text_is_a_move_or_a_notation_error(text):
    state = new_game(CLASSIC).play("T3")
    try:
        move = Move.parse(text, GRID)
    except NotationError:
        return
    assert Move.parse(str(move), GRID) == move
    try:
        state.apply(move)
    except IllegalMoveError:
        pass
