"""``kiwara awimbawe``: deal, perft, replay, play; exit codes 0/1/2 and one-line errors."""
from __future__ import annotations

import json

from click.testing import CliRunner

from kiwara_designer.games.awimbawe import new_round, round_perft
from kiwara_designer.cli import main

DECK = ("D4 G6 P5 D3 D2 E9 M3 P2 E10 E7 M2 E8 M4 P4 G1 D1 M5 P6 P1 D6 G4 M6 G3 G2 P3 M1 G5 "
        "D5")       # `deal --seed 7`: seat 0 has 0 crowns face up, seat 1 has 12


def run(*args, input=None):
    return CliRunner().invoke(main, ["awimbawe", *map(str, args)], input=input)


def test_deal_is_seeded():
    result = run("deal", "--seed", 7, "--json")
    assert result.exit_code == 0
    assert json.loads(result.output) == {"seed": 7, "deck": DECK, "leader": 0,
                                         "crowns": [0, 12], "tie": False}
    assert run("deal", "--seed", 7, "--deck-only").output.strip() == DECK
    assert run("deal", "--seed", 8, "--deck-only").output.strip() != DECK


def test_perft_lines_divide_and_json():
    state = new_round(DECK)
    result = run("perft", 2, "--deck", DECK)
    assert result.exit_code == 0
    assert result.output.splitlines() == [f"perft 1 {round_perft(state, 1)}",
                                          f"perft 2 {round_perft(state, 2)}"]
    divide = run("perft", 2, "--deck", DECK, "--divide").output.splitlines()
    first = [line.split() for line in divide[:-2]]
    assert [m for m, _ in first] == [m.text for m in state.record_moves()]
    assert sum(int(n) for _, n in first) == round_perft(state, 2)
    data = json.loads(run("perft", 1, "--deck", "-", "--json", input=DECK).output)
    assert data["perft"] == [{"depth": 1, "nodes": round_perft(state, 1)}] and data["leader"] == 0
    after = run("perft", 1, "--deck", DECK, "--moves", "E7", "--leader", 0)
    assert after.output.strip() == f"perft 1 {round_perft(state.apply('E7'), 1)}"
    gamepark = run("perft", 1, "--deck", DECK, "--variant", "gamepark")
    assert gamepark.exit_code == 0


def test_perft_errors():
    illegal = run("perft", 1, "--deck", DECK, "--moves", "P3")
    assert illegal.exit_code == 1 and "illegal move 1 in --moves: P3" in illegal.output
    bad = run("perft", 1, "--deck", "G1 G2")
    assert bad.exit_code == 2 and "a deck has 28 cards" in bad.output
    assert "Traceback" not in bad.output and len(bad.output.splitlines()) == 1
    tie = "G1 G2 G3 G4 G5 G6 D1 D2 M1 D6 M6 P6 M3 D3 M5 P5 " \
          "D4 D5 M2 M4 P1 P2 P3 P4 E7 E8 E9 E10"      # face-up crowns 6 and 6
    result = run("perft", 1, "--deck", tie)
    assert result.exit_code == 2 and "give --leader" in result.output
    assert run("perft", 1, "--deck", tie, "--leader", 1).exit_code == 0
    variant = run("perft", 1, "--deck", DECK, "--variant", "nope")
    assert variant.exit_code == 2 and "no such file or built-in Awimbawé variant" in variant.output


def test_play_agents_record_and_replay(tmp_path):
    path = tmp_path / "match.json"
    result = run("play", "--first", "random", "--second", "greedy", "--seed", 3,
                 "--record", path)
    assert result.exit_code == 0 and "match over" in result.output
    record = json.loads(path.read_text())
    assert record["game"] == "awimbawe" and record["seed"] == 3
    again = run("play", "--first", "random", "--second", "greedy", "--seed", 3, "--record", "-")
    assert json.loads(again.stdout.splitlines()[-1]) == record      # same seed, same match
    replay = run("replay", path, "--json")
    assert replay.exit_code == 0
    summary = json.loads(replay.output)
    assert set(summary) == {"rounds", "winner"} and summary["winner"] in (0, 1)
    text = run("replay", path)
    assert "match: player" in text.output


def test_replay_many_records_and_an_illegal_one(tmp_path):
    good = run("play", "--first", "random", "--second", "random", "--seed", 1,
               "--record", "-").stdout.splitlines()[-1]
    bad = json.loads(good)
    bad["rounds"][0]["moves"][0] = "E10:flee"
    lines = "\n".join([good, json.dumps(bad), good]) + "\n"
    result = run("replay", "-", "--json", input=lines)
    assert result.exit_code == 1
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert out[0] == out[2] and "rounds" in out[0]
    assert out[1]["round"] == 1 and out[1]["index"] == 1 and out[1]["move"] == "E10:flee"
    assert "illegal" in out[1]["error"]
    missing = run("replay", tmp_path / "none.json")
    assert missing.exit_code == 2 and "no such file" in missing.output


def test_play_as_a_person_help_numbers_and_quit():
    result = run("play", "--second", "random", "--seed", 2, input="help\n1\nG9\nmoves\nquit\n")
    assert result.exit_code == 0
    out = result.output
    assert "rhinoceros: the opponent's pile 3 top" in out          # help
    assert "legal moves: 1) " in out and "illegal: not a move" in out
    assert "game stopped after 3 moves." in out
    assert "you: piles" in out and "opponent: hand 5 cards" in out   # the opponent led
    # end of input stops cleanly too
    assert run("play", "--second", "random", "--seed", 2, input="").exit_code == 0


def test_play_offers_only_the_agents_that_play_awimbawe():
    from kiwara_designer.games.awimbawe.cli.play import play_cmd
    first = next(p for p in play_cmd.params if p.name == "first")
    assert first.help == ("Seat 0: human, random, greedy, ismcts:N, cheat-ismcts:N (N: iterations "
                          "per move, or seconds as in ismcts:2s); cheat-ismcts sees the hidden "
                          "cards: only when no person plays.")
    assert "mcts:200" not in run("play", "--help").output      # mcts refuses hidden cards
    refused = run("play", "--second", "mcts:200", input="")
    assert refused.exit_code == 2 and "use the ismcts agent instead" in refused.output
    unknown = run("play", "--second", "minimax", input="")
    assert unknown.exit_code == 2
    assert ("--second: unknown agent 'minimax'; agent specs for awimbawe: random, greedy, "
            "ismcts:N (N: iterations per move" in unknown.output)     # a person plays: no cheat


def test_the_cheat_never_plays_a_person_but_two_agents_may_be_watched():
    for seats in (("--second", "cheat-ismcts:5"),
                  ("--first", "cheat-ismcts:5", "--second", "human")):
        result = run("play", *seats, "--seed", 1, input="1\n")
        assert result.exit_code == 2
        assert result.output == (f"kiwara: error: {seats[0]}: cheat-ismcts:5 sees what its player "
                                 f"may not (the hidden cards): a strength reference for the "
                                 f"play-test lab, never an opponent for a person\n")
    watched = run("play", "--first", "cheat-ismcts:5", "--second", "greedy", "--seed", 1,
                  "--record", "-")
    assert watched.exit_code == 0, watched.output
    assert json.loads(watched.stdout.splitlines()[-1])["players"] == ["cheat-ismcts:5", "greedy"]
    assert "player 0 plays" in watched.stderr
