"""Records carry and check their result, and both games' replay read JSON lines (issue 20,
point 4).

The expected values are worked out by hand (a four-trick Awimbawé round, the README's Kiwara
positions) or by the independent reference implementations (tests/awimbawe_reference.py,
tests/kiwara_reference.py), never by the code under test.
"""
from __future__ import annotations

import json

import pytest

import awimbawe_reference
from kiwara_designer.games.awimbawe.record import MatchRecord
from kiwara_designer.games.awimbawe.state import new_match
from kiwara_reference import Reference

# -- Awimbawé: a round worked out by hand ------------------------------------------------------
# Player 0: snakes face down, elephants face up (4 crowns: fewer, so they lead), hand the four
# hyenas, E9, E10. Player 1: cheetahs face down, rhinoceroses face up (8 crowns), hand the four
# mice, E7, E8. Player 0 leads a hyena, player 1 follows suit with its mouse (1 < 4), four
# times: player 0 takes the fourth hyena after 4 tricks and loses the round at once. Their
# scoring pile: 4 hyenas (3 crowns each) and 4 mice (3 each) = 24; player 1's is empty.
DECK = "G5 D5 M5 P5 G3 D3 M3 P3 G6 D6 M6 P6 G2 D2 M2 P2 G4 D4 M4 P4 E9 E10 G1 D1 M1 P1 E7 E8"
ROUND = ["G4", "G1", "D4", "D1", "M4", "M1", "P4", "P1"]
ROUND_RESULT = {"winner": 1, "crowns": [24, 0], "hyenas": True, "tricks": 4}
# Round 2 deals the same cards; player 0, who lost, leads again (start:me) and loses again.
MATCH = {"game": "awimbawe", "variant": "classic",
         "rounds": [{"deck": DECK, "leader": 0, "moves": ROUND},
                    {"deck": DECK, "moves": ["start:me", *ROUND]}]}
MATCH_RESULT = {"rounds": [ROUND_RESULT, ROUND_RESULT], "winner": 1}


def with_result(result, record=MATCH) -> dict:
    return {**record, "result": result}


def changed(edit) -> dict:
    result = json.loads(json.dumps(MATCH_RESULT))
    edit(result)
    return result


def awimbawe(run, *args, input=None):
    return run("awimbawe", *args, input=input)


def test_the_hand_worked_match_replays_to_its_hand_worked_result(run):
    result = awimbawe(run, "replay", "-", "--json", input=json.dumps(MATCH))
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == MATCH_RESULT


def test_a_record_with_its_correct_result_replays(run, tmp_path):
    path = tmp_path / "match.json"
    path.write_text(json.dumps(with_result(MATCH_RESULT)))
    text = awimbawe(run, "replay", path)
    assert text.exit_code == 0 and text.stderr == ""
    assert text.stdout.splitlines() == [
        "round 1: player 1 wins by four hyenas · crowns 24–0 · 4 tricks",
        "round 2: player 1 wins by four hyenas · crowns 24–0 · 4 tricks",
        "match: player 1 wins"]
    as_json = awimbawe(run, "replay", path, "--json")
    assert as_json.exit_code == 0 and json.loads(as_json.stdout) == MATCH_RESULT


@pytest.mark.parametrize("edit,where,recorded,replayed", [
    (lambda r: r.update(winner=0), 'the match "winner"', "0", "1"),
    (lambda r: r["rounds"][1].update(winner=0), 'round 2 "winner"', "0", "1"),
    (lambda r: r["rounds"][0].update(crowns=[0, 24]), 'round 1 "crowns"', "[0, 24]", "[24, 0]"),
    (lambda r: r["rounds"][1].update(hyenas=False), 'round 2 "hyenas"', "false", "true"),
    (lambda r: r["rounds"][0].update(tricks=14), 'round 1 "tricks"', "14", "4"),
    (lambda r: r["rounds"].pop(), "the number of rounds", "1", "2"),
    (lambda r: r["rounds"].append(dict(ROUND_RESULT)), "the number of rounds", "3", "2"),
])
def test_a_wrong_result_exits_1_naming_the_first_field_that_differs(run, tmp_path, edit, where,
                                                                     recorded, replayed):
    path = tmp_path / "match.json"
    path.write_text(json.dumps(with_result(changed(edit))))
    result = awimbawe(run, "replay", path)
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr == (f"kiwara: {path}: the record's result differs from what its moves "
                             f"give in {where}: the record says {recorded}, its moves give "
                             f"{replayed}\n")
    as_json = awimbawe(run, "replay", path, "--json")
    assert as_json.exit_code == 1
    error = json.loads(as_json.stdout)
    assert error["error"] == result.stderr[len("kiwara: "):].rstrip("\n")
    assert json.dumps(error["recorded"]) == recorded and json.dumps(error["replayed"]) == replayed
    field = "rounds" if "number" in where else where.split('"')[1]
    assert error["field"] == field
    assert error["round"] == (int(where.split()[1]) if where.startswith("round") else None)


def test_the_first_difference_in_reading_order_is_named(run):
    both = changed(lambda r: (r.update(winner=0), r["rounds"][1].update(tricks=9)))
    result = awimbawe(run, "replay", "-", input=json.dumps(with_result(both)))
    assert result.exit_code == 1 and 'round 2 "tricks"' in result.stderr
    assert '"winner"' not in result.stderr


@pytest.mark.parametrize("result,message", [
    ([1, 0], '"result" must be {"rounds": [{"winner", "crowns", "hyenas", "tricks"}, …], '
             '"winner"}, as replay --json prints it, got [1, 0] (a list)'),
    ({"scores": [24, 0], "winner": 1}, '"result" has an unknown key \'scores\' (keys: rounds, '
                                       'winner)'),
    ({"rounds": []}, '"result" has no key \'winner\' (keys: rounds, winner)'),
    (changed(lambda r: r["rounds"][0].update(held=[4, 0])),
     '"result" round 1 has an unknown key \'held\' (keys: winner, crowns, hyenas, tricks)'),
    (changed(lambda r: r["rounds"][1].pop("tricks")),
     '"result" round 2 has no key \'tricks\' (keys: winner, crowns, hyenas, tricks)'),
    ({"rounds": {}, "winner": 1}, '"result" "rounds" must be a list of rounds, got {} (a table)'),
    ({"rounds": [3], "winner": 1}, '"result" round 1 must be {"winner", "crowns", "hyenas", '
                                   '"tricks"}, got 3'),
    (changed(lambda r: r["rounds"][0].update(crowns=[24])),
     '"result" round 1 "crowns" must be two whole numbers [player 0, player 1], got [24] '
     '(a list)'),
    (changed(lambda r: r["rounds"][0].update(winner=True)),
     '"result" round 1 "winner" must be 0 or 1, got true (true/false)'),
    (changed(lambda r: r["rounds"][0].update(hyenas="yes")),
     '"result" round 1 "hyenas" must be true or false, got "yes" (text)'),
    (changed(lambda r: r["rounds"][0].update(tricks=-1)),
     '"result" round 1 "tricks" must be a whole number from 0, got -1'),
    (changed(lambda r: r.update(winner=2)), '"result" "winner" must be 0, 1 or null, got 2'),
])
def test_a_malformed_result_is_bad_input(run, result, message):
    replay = awimbawe(run, "replay", "-", input=json.dumps(with_result(result)))
    assert replay.exit_code == 2 and replay.stdout == ""
    assert replay.stderr == f"kiwara: <stdin>: {message}\n"


def test_an_unfinished_match_may_carry_its_result_so_far(run):
    one_round = {**MATCH, "rounds": MATCH["rounds"][:1]}
    so_far = {"rounds": [ROUND_RESULT], "winner": None}
    ok = awimbawe(run, "replay", "-", input=json.dumps(with_result(so_far, one_round)))
    assert ok.exit_code == 0 and ok.stdout.splitlines()[-1] == "match: unfinished"
    claimed = awimbawe(run, "replay", "-", input=json.dumps(
        with_result({**so_far, "winner": 1}, one_round)))
    assert claimed.exit_code == 1
    assert 'in the match "winner": the record says 1, its moves give null' in claimed.stderr


def test_json_lines_of_matches_check_each_result_and_name_the_line(run, tmp_path):
    path = tmp_path / "matches.jsonl"
    lines = [with_result(MATCH_RESULT), with_result(changed(lambda r: r.update(winner=0))),
             with_result({"rounds": [], "winner": 1, "loser": 0})]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    result = awimbawe(run, "replay", path, "--json")
    assert result.exit_code == 2
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(out) == 3 and out[0] == MATCH_RESULT
    assert out[1]["error"].startswith(f"{path}:2: the record's result differs")
    assert out[1]["field"] == "winner" and out[1]["recorded"] == 0
    assert out[2] == {"error": f"{path}:3: \"result\" has an unknown key 'loser' "
                               f"(keys: rounds, winner)"}
    assert [line.split(": ")[1] for line in result.stderr.splitlines()] == [f"{path}:2",
                                                                             f"{path}:3"]


def reference_result(record: dict) -> dict:
    """The result of a classic match record by the reference, which knows rounds alone: round
    k > 1 starts with its leader's choice, made by round k - 1's loser."""
    rounds, wins = [], [0, 0]
    for k, entry in enumerate(record["rounds"]):
        moves, variant, leader = entry["moves"], {}, entry.get("leader")
        if k:
            loser = 1 - rounds[-1]["winner"]
            leader = loser if moves[0] == "start:me" else 1 - loser
            moves, variant = moves[1:], {"round1_leader": "random"}   # the leader is given
        rounds.append(awimbawe_reference.round_result(entry["deck"], leader, variant, moves))
        wins[rounds[-1]["winner"]] += 1
    return {"rounds": rounds, "winner": next((p for p in (0, 1) if wins[p] == 2), None)}


@pytest.mark.parametrize("seed", [3, 8])
def test_awimbawe_play_record_carries_the_result_and_replay_checks_it(run, seed):
    played = awimbawe(run, "play", "--first", "random", "--second", "greedy", "--seed", seed,
                      "--record", "-")
    assert played.exit_code == 0
    record = json.loads(played.stdout.splitlines()[-1])
    assert list(record)[-3:] == ["players", "seed", "result"]
    assert record["result"] == reference_result(record)
    replay = awimbawe(run, "replay", "-", input=json.dumps(record))
    assert replay.exit_code == 0 and replay.stderr == ""
    record["result"]["rounds"][0]["crowns"][0] += 1
    wrong = awimbawe(run, "replay", "-", input=json.dumps(record))
    assert wrong.exit_code == 1 and 'round 1 "crowns"' in wrong.stderr


def test_an_unfinished_match_record_carries_no_result():
    state = new_match(None)
    assert "result" not in MatchRecord.from_state(state, seed=1).to_dict()


# -- Kiwara: JSON lines -------------------------------------------------------------------------
# The README's records: six legal moves (provisional score 0 to 6, the second player leading),
# and a fourth move that sends the totem where it may not go.
PROVISIONAL = {"layout": "classic", "moves": ["T7", "Gb2>8", "Cb3xb2>9", "Lb4>10", "Zb5>11",
                                              "Ef3>12"]}
ILLEGAL = {"layout": "classic", "moves": ["T7", "Gb2>8", "Cb3xb2>9", "Lb4>8"]}
ILLEGAL_REASON = "totem position 8 is not allowed here; the totem can go to 10, 11, 12"


def test_kiwara_json_lines_give_one_line_per_record(run, tmp_path):
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(PROVISIONAL) + "\n" + json.dumps(ILLEGAL) + "\n\nnot json\n")
    text = run("replay", path)
    assert text.exit_code == 2
    assert text.stdout == (f"{path}:1: provisional score: first 0, second 6: second player "
                           f"leads (6 moves)\n")
    assert text.stderr.splitlines() == [
        f"kiwara: {path}:2: move 4 ('Lb4>8') is illegal: {ILLEGAL_REASON}",
        f"kiwara: {path}:4: column 1: invalid JSON: Expecting value"]
    as_json = run("replay", path, "--json")
    assert as_json.exit_code == 2
    first, second, third = map(json.loads, as_json.stdout.splitlines())
    assert (first["scores"], first["winner"], first["final"], first["moves"]) == ([0, 6], 1,
                                                                                   False, 6)
    assert second == {"error": f"{path}:2: move 4 ('Lb4>8') is illegal: {ILLEGAL_REASON}",
                      "index": 3, "move": "Lb4>8", "reason": ILLEGAL_REASON}
    assert third == {"error": f"{path}:4: column 1: invalid JSON: Expecting value"}


def test_kiwara_json_lines_with_an_illegal_record_exit_1(run):
    result = run("replay", "-", "--json",
                 input=json.dumps(ILLEGAL) + "\n" + json.dumps(PROVISIONAL) + "\n")
    assert result.exit_code == 1 and len(result.stdout.splitlines()) == 2
    assert result.stderr.startswith("kiwara: <stdin>:1: move 4 ('Lb4>8') is illegal")


def test_a_broken_record_over_several_lines_is_one_error(run):
    pretty = json.dumps(PROVISIONAL, indent=1).splitlines()
    assert pretty[3] == '  "T7",'
    pretty[3] = '  "T7"'                    # the comma after the first move left out
    result = run("replay", "-", input="\n".join(pretty) + "\n")
    assert result.exit_code == 2
    assert result.stderr == ("kiwara: error: <stdin>:5:3: invalid JSON: Expecting ',' "
                             "delimiter\n")


def reference_scores(record: dict) -> tuple[int, int]:
    reference = Reference(["ABCCCC", "ABBCFF", "AABCCF", "DABBBE", "DDEEEE"])   # classic
    state = reference.start()
    for move in record["moves"]:
        state = reference.play(state, move)
    assert reference.is_over(state)
    return reference.score(state)


def test_kiwara_play_records_as_json_lines_round_trip(run, tmp_path):
    records = []
    for seed in (1, 2):
        played = run("play", "--first", "random", "--second", "greedy", "--seed", seed,
                     "--record", "-")
        assert played.exit_code == 0
        records.append(json.loads(played.stdout))
    for record in records:
        scores = reference_scores(record)
        assert record["result"] == {"scores": list(scores),
                                    "winner": 0 if scores[0] > scores[1] else 1}
    path = tmp_path / "games.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    replay = run("replay", path, "--json")
    assert replay.exit_code == 0 and replay.stderr == ""
    out = [json.loads(line) for line in replay.stdout.splitlines()]
    assert [o["scores"] for o in out] == [r["result"]["scores"] for r in records]
    assert all(o["final"] and o["stored_result_differs"] is None for o in out)
    text = run("replay", path)
    assert [line.split(": ")[0] for line in text.stdout.splitlines()] == [f"{path}:1",
                                                                          f"{path}:2"]
    records[1]["result"]["scores"][0] += 1
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    wrong = run("replay", path)
    assert wrong.exit_code == 1 and len(wrong.stdout.splitlines()) == 2
    assert wrong.stderr.startswith(f"kiwara: {path}:2: the record's result (")
