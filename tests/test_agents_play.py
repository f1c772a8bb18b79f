"""kiwara play, driven through click's CliRunner with scripted input."""
from __future__ import annotations

import json
import random


from kiwara_designer.agents import make_agent, play_match
from kiwara_designer.games.kiwara import KiwaraRecord, new_game
from kiwara_designer.games.kiwara.formats import load_layout


def test_person_against_agent_lists_moves_rejects_bad_ones_and_quits(run):
    result = run("play", "--second", "greedy", "--seed", "1", input="T7\n?\nZz9\nZa1>3\nquit\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "second (greedy) plays " in out
    assert "legal moves: " in out
    assert "illegal: 'Zz9': no cell 'z9'" in out
    assert "illegal: Za1>3:" in out               # legal notation, illegal here: the reason
    assert "game stopped after 2 moves." in out
    assert "Traceback" not in out


def test_end_of_input_stops_cleanly(run):
    result = run("play", "--second", "random", "--seed", "2", input="")
    assert result.exit_code == 0
    assert "game stopped after 0 moves." in result.output


def test_a_whole_game_typed_by_two_people_is_recorded_for_replay(run, tmp_path):
    # The moves of a seeded random game, typed in (with blank lines and a listing in between).
    _, moves = play_match(new_game(load_layout("classic")), (make_agent("random"),) * 2,
                          random.Random(8))
    typed = "\n".join(["", "?"] + [str(m) for m in moves]) + "\n"
    path = tmp_path / "game.json"
    result = run("play", "--first", "human", "--second", "human", "--record", path, input=typed)
    assert result.exit_code == 0, result.output
    assert "game over: " in result.output
    record = KiwaraRecord.load(str(path))
    assert list(record.moves) == [str(m) for m in moves]
    final = record.replay()
    data = json.loads(path.read_text())
    assert data["players"] == ["human", "human"]
    assert data["result"]["scores"] == list(final.scoring().totals)


def test_agents_play_each_other_reproducibly_and_replay_accepts_the_record(run):
    args = ["--first", "greedy", "--second", "mcts:10", "--seed", "4", "--record", "-"]
    first, second = run("play", *args), run("play", *args)
    assert first.exit_code == 0
    record = json.loads(first.stdout)
    assert record == json.loads(second.stdout)
    assert record["players"] == ["greedy", "mcts:10"] and record["seed"] == 4
    replay = run("replay", "-", "--json", input=first.stdout)
    assert replay.exit_code == 0, replay.output
    assert json.loads(replay.output)["scores"] == record["result"]["scores"]


def test_colour_only_when_asked(run):
    plain = run("play", "--first", "random", "--second", "random", "--seed", "3")
    coloured = run("play", "--first", "random", "--second", "random", "--seed", "3", "--colour")
    assert "\x1b[" not in plain.output and "\x1b[" in coloured.output


def test_bad_agent_spec_is_a_one_line_usage_error(run):
    result = run("play", "--second", "mcts:lots")
    assert result.exit_code == 2
    assert result.output.count("\n") == 1
    assert "--second" in result.output and "mcts:lots" in result.output
    # Kiwara hides nothing from its players: the lab's cheat has nothing to see, even watched
    for seats in (("--second", "cheat-ismcts:5"), ("--first", "greedy", "--second",
                                                   "cheat-ismcts:5")):
        cheat = run("play", *seats)
        assert cheat.exit_code == 2 and cheat.output.count("\n") == 1
        assert "--second: cheat-ismcts sees the hidden cards, but kiwara has no hidden" in \
            cheat.output


def test_bad_layout_is_a_one_line_error(run):
    result = run("play", "--layout", "no-such-board.txt", "--first", "random", "--second", "random")
    assert result.exit_code == 2 and result.output.startswith("kiwara: error:")


def test_layout_from_stdin_is_refused_when_a_person_plays(run):
    result = run("play", "--layout", "-", input="ABCCCC\nABBCFF\nAABCCF\nDABBBE\nDDEEEE\n")
    assert result.exit_code == 2 and "stdin carries a person's moves" in result.output


def test_library_loop_passes_for_a_person_with_an_empty_hand():
    import io
    from kiwara_designer.games.kiwara import setup_position
    from kiwara_designer.games.kiwara.view import KiwaraTableView
    from kiwara_designer.table import Seat, play_at_table

    # The first player holds nothing, the second one zebra: the person must pass, the agent then
    # places the last token and the game ends. Nothing needs to be typed.
    state = setup_position(load_layout("classic"), tokens={"a1": "Z"}, totem=0, to_move=0,
                           reserves=({}, {"Z": 1}))
    seats = (Seat.parse("human"), Seat.parse("random"))
    output = io.StringIO()
    result = play_at_table(state, seats, KiwaraTableView(["human", "random"]), io.StringIO(),
                           output, random.Random(0))
    assert result.finished
    assert result.moves[0] == "pass" and result.moves[1].startswith("Za")
    written = output.getvalue().splitlines()
    assert "first has no token left in hand and passes" in written
    assert written[-1].startswith("game over: ")


DECK_VARIANT = 'reinforcement = "deck"\ndeck = "sample"\nhandicap = [2, 1]\n'


def test_a_deck_game_deals_at_chance_and_shows_the_cards_each_player_holds(run, tmp_path):
    # the handicap deal and the Okapi draw are chance nodes (the order is hidden from the
    # agents): play draws them from its seed, and the board shows each hand of cards
    variant = tmp_path / "deck.toml"
    variant.write_text(DECK_VARIANT)
    record_path = tmp_path / "game.json"
    args = ["play", "--variant", variant, "--first", "greedy", "--second", "random",
            "--seed", "5", "--record", record_path]
    result = run(*args)
    assert result.exit_code == 0, result.output
    start = next(KiwaraRecord.load(str(record_path)).states())     # the deal, replayed
    assert len(start.hand(0)) == 2 and len(start.hand(1)) == 1
    assert "game over: " in result.output
    first_board = result.output.split(" deals ")[0]
    assert "cards: first none; second none; 10 in the deck (order hidden)" in first_board
    dealt = result.output.split("plays T")[0]         # the board before the opening
    shown = [line for line in dealt.splitlines() if line.startswith("cards: ")][-1]
    assert shown.endswith("; 7 in the deck (order hidden)")
    for name in start.hand(0) + start.hand(1):
        assert name in shown
    assert run(*args).output == result.output          # the seed fixes the draws too


def test_replay_shows_the_cards_each_player_holds(run, tmp_path):
    from kiwara_designer.games.kiwara import KiwaraVariant
    variant = KiwaraVariant.from_toml(DECK_VARIANT, "deck.toml")
    order = ["drums", "okapi", "hunter", "waterhole", "storm", "stampede", "migration",
             "sunrise", "jackal", "ford"]
    record = KiwaraRecord.from_moves(load_layout("classic"), variant, ["T7"], deck=order)
    path = tmp_path / "game.json"
    path.write_text(record.to_json())
    result = run("replay", path)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "first player's cards: okapi (+5 points), drums (totem)" in lines
    assert "second player's cards: hunter (scare)" in lines
    assert "deck: 7 cards (order hidden)" in lines
    plain = run("replay", "-", input='{"layout": "classic", "moves": ["T7"]}')
    assert "cards" not in plain.output
