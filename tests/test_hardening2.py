"""Hardening II (issue 22): each test failed before its fix."""
from __future__ import annotations

import json
import sys

from click.testing import CliRunner

from kiwara_designer.cli import main
from kiwara_designer.games.kiwara.formats import stream_layouts


def run(*args, input=None):
    return CliRunner().invoke(main, [*map(str, args)], input=input)


def test_validate_json_writes_each_result_as_it_comes(monkeypatch):
    # point 14: --json held every result until the end (6 MB of layouts: 1.17 GB of memory)
    from kiwara_designer.games.kiwara.cli import layouts as command
    entries = list(stream_layouts("classic")) * 3
    written_before = []

    def stream(name):
        for entry in entries:
            written_before.append(sys.stdout.buffer.getvalue().count(b'"valid"'))
            yield entry

    monkeypatch.setattr(command, "stream_layouts", stream)
    result = run("validate", "-", "--json")
    assert written_before == [0, 1, 2]
    whole = json.loads(result.output)
    assert [r["valid"] for r in whole["results"]] == [True] * 3


def test_validate_refuses_empty_sizes():
    # point 22: --sizes '' used the default sizes and called the ruleset "custom"
    result = run("validate", "classic", "--sizes", "")
    assert result.exit_code == 2 and result.output == "kiwara: error: --sizes must not be empty\n"


def test_a_file_name_with_a_newline_is_quoted_in_one_line_errors(tmp_path):
    # point 21: a name with a newline broke the one-line error in two
    bad = tmp_path / "bad\nname.txt"
    bad.write_text("{")
    missing = tmp_path / "missing\nvariant.toml"
    quoted = '"' + str(tmp_path) + '/bad\\nname.txt"'
    for args, words in [(("awimbawe", "replay", bad), f"kiwara: {quoted}:1:2: invalid JSON"),
                        (("validate", bad), f"kiwara: error: {quoted}:1:2: invalid JSON"),
                        (("perft", 1, "--variant", missing), "no such file or built-in variant"),
                        (("export", "classic", "-o", tmp_path / "no\ndir" / "x.svg"),
                         "cannot write the board")]:
        result = run(*args)
        assert result.exit_code in (1, 2) and result.output.count("\n") == 1, result.output
        assert words in result.output and "\\n" in result.output


def test_a_persons_line_is_read_within_a_bound(monkeypatch):
    # point 15: interactive play read a line without limit (100 MB of NULs: 439 MB of memory)
    import tracemalloc
    flood = ("\0" * 4_000_000 + "\n" + "x" * 5_000 + "\nquit\n").encode()
    tracemalloc.start()
    result = run("awimbawe", "play", "--seed", 3, "--second", "greedy", input=flood)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert result.exit_code == 0 and "\0" not in result.output
    assert result.output.count("illegal: a move is one line of at most 1,000 printable "
                               "characters") == 2
    assert peak < 3_000_000          # the flood is never held whole (it is 4 MB)


def test_ctrl_c_exits_130_in_one_line(monkeypatch):
    # point 18: Ctrl-C exited 1, the code of a negative answer
    from kiwara_designer.games.kiwara.cli import layouts as command

    def interrupted(name):
        raise KeyboardInterrupt
        yield

    monkeypatch.setattr(command, "stream_layouts", interrupted)
    result = CliRunner().invoke(main, ["validate", "classic"], standalone_mode=True)
    # and no blank line before it (click wrote one: issue 32 point 7)
    assert (result.exit_code, result.output) == (130, "kiwara: interrupted\n")


def test_awimbawe_perft_is_bounded_and_reads_its_deck_like_every_reader():
    # points 5, 8, 16: depth 12 never ended, an empty deck printed zeros, --deck - read
    # without the project's reader (a BOM refused, binary mangled, an endless stream echoed)
    deck = run("awimbawe", "deal", "--seed", 7, "--deck-only").output.strip()
    too_deep = run("awimbawe", "perft", 7, "--deck", deck)
    assert too_deep.exit_code == 2 and "7 is not in the range 0<=x<=6" in too_deep.output
    for given, stdin in (("", None), ("-", ""), ("-", "   \n")):
        empty = run("awimbawe", "perft", 2, "--leader", 1, "--deck", given, input=stdin)
        assert (empty.exit_code, empty.output) == (2, "kiwara: error: --deck: a deck has 28 "
                                                      "cards, got 0\n")
    with_bom = run("awimbawe", "perft", 2, "--deck", "-", input=b"\xef\xbb\xbf" + deck.encode())
    assert with_bom.output == "perft 1 36\nperft 2 243\n"
    binary = run("awimbawe", "perft", 2, "--deck", "-", input=b"G1\0\xff")
    assert binary.output == "kiwara: error: <stdin>:1: binary data (NUL byte), not a deck\n"
    endless = run("awimbawe", "perft", 2, "--deck", "-", input="G" * 300_000)
    assert endless.output == "kiwara: error: <stdin>: larger than 10,000 bytes, not a deck\n"


def test_a_file_named_as_a_built_in_is_read_with_a_note(tmp_path, monkeypatch):
    # point 20: `mkdir president; kiwara show president` said "is a directory", and a file
    # named classic silently replaced the built-in board
    monkeypatch.chdir(tmp_path)
    (tmp_path / "president").mkdir()
    builtin = run("show", "president", "--json")
    assert builtin.exit_code == 0 and json.loads(builtin.output)["rows"][0] == "ADDDFF"
    (tmp_path / "classic").write_text("AAABBB\nAAABBB\nCCCDDD\nCCCEEE\nFFFEEE\n")
    shadowed = run("show", "classic", "--json")
    assert shadowed.exit_code == 0
    assert json.loads(shadowed.stdout)["rows"][0] == "AAABBB"
    assert shadowed.stderr == ("kiwara: note: classic: read the file ./classic, not the "
                               "built-in layout (builtin:classic)\n")
    explicit = run("show", "builtin:classic", "--json")
    assert json.loads(explicit.output)["rows"][0] == "ABCCCC" and not explicit.stderr
    (tmp_path / "gazelles_3").write_text('name = "mine"\n')
    variant = run("perft", 1, "--variant", "gazelles_3", "--layout", "builtin:classic")
    assert variant.stderr.count("kiwara: note:") == 1 and "builtin:gazelles_3" in variant.stderr


def test_a_set_value_too_long_or_too_deep_is_one_line(tmp_path):
    # point 3: --set hyenas_to_lose=<5,000 nines> ended in a ValueError traceback
    db = tmp_path / "s.sqlite"
    for value, words in (("9" * 5_000, "a number of more than 4,300 digits"),
                         ("[" * 100 + "]" * 100, "a value nested too deeply")):
        result = run("awimbawe", "sweep", "--set", f"hyenas_to_lose={value}", "--db", db)
        assert (result.exit_code, result.output) == (
            2, f"kiwara: error: --set hyenas_to_lose: {words}\n")
    assert not db.exists()


def test_smaller_points(tmp_path):
    # point 23: `awimbawe perft -1` said "No such option"; `awimbawe cards -o dir.pdf` said it
    # could not write "the board"
    negative = run("awimbawe", "perft", -1, "--deck", "x")
    assert negative.output.startswith("kiwara: error: Invalid value for 'DEPTH': -1 is not in "
                                      "the range 0<=x<=6 (see ")
    (tmp_path / "dir.pdf").mkdir()
    cards = run("awimbawe", "cards", "-o", tmp_path / "dir.pdf")
    assert cards.exit_code == 2 and "cannot write the card sheet: Is a directory" in cards.output


def test_perft_and_cards_say_when_a_layout_is_not_valid_and_cards_use_the_cores(tmp_path):
    # point 23: perft and cards ran an invalid layout without the note the other commands
    # print; cards value|handicap|versus ran on one process while every other command uses
    # the cores
    small = tmp_path / "small.txt"
    small.write_text("AAB\nABB\n")
    note = f"kiwara: note: {small} is not a valid free-play layout: board is 3 × 2"
    perft = run("perft", 1, "--layout", small)
    assert perft.exit_code == 0 and perft.stdout == "perft 1 10\n" and note in perft.stderr
    cards = run("cards", "versus", "--layout", small, "-n", 2)
    assert cards.exit_code == 0 and note in cards.stderr
    for command in ("value", "handicap", "versus"):
        assert "default: number of cores" in run("cards", command, "--help").output


def test_options_read_numbers_as_everything_else_does():
    # points 7 and 17: options parsed numbers with int()/float(): `perft ３`, `--seed ٣`,
    # `-n 1_0` were accepted while --mix, --set and moves refused the same text, and a float
    # option took nan and inf
    for args in (("perft", "３"), ("layouts", "sample", "--seed", "٣"),
                 ("layouts", "sample", "-n", "1_0"), ("awimbawe", "deal", "--seed", "+3")):
        result = run(*args)
        assert result.exit_code == 2 and "is not a whole number (digits 0-9)" in result.output
    for value in ("nan", "inf", "-inf", "1e400", "0x10"):
        result = run("export", "classic", "--cell-mm", value, "-o", "-")
        assert result.exit_code == 2 and result.output.count("\n") == 1, result.output
        assert "--cell-mm" in result.output
    huge = run("layouts", "list", "--min-rivers", "9" * 30, "--limit", 1)
    assert huge.exit_code == 2 and "beyond the numbers the tool reads" in huge.output


def test_every_count_and_real_option_of_the_lab_is_bounded_and_finite(tmp_path):
    # points 1 and 7: race --first-round 1000000000 had no upper bound (memory grew 250 MB/s)
    # and --tolerance nan accepted every layout ("separated after 0 games")
    db = tmp_path / "r.sqlite"
    race = ("race", "--from", "classic", "--db", db)
    for args, words in (
            (("--first-round", 1_000_000_000), "1000000000 is not in the range 1<=x<=1000000"),
            (("--tolerance", "nan"), "'nan' is not a decimal number"),
            (("--tolerance", "inf"), "'inf' is not a decimal number"),
            (("--confidence", "1e400"), "inf is not in the range 0<x<1"),
            (("--top", 10 ** 6), "1000000 is not in the range 1<=x<=100000"),
            (("--seed", "٣"), "is not a whole number (digits 0-9)"),
            (("--workers", "1_0"), "is not a whole number (digits 0-9)")):
        result = run(*race, *args)
        assert result.exit_code == 2 and result.output.count("\n") == 1, result.output
        assert words in result.output, result.output
    assert not db.exists()
    for args in (("playtest", "classic", "--precision", "nan"),
                 ("awimbawe", "playtest", "--precision", "inf"),
                 ("awimbawe", "cards", "-o", "-", "--bleed-mm", "nan"),
                 ("awimbawe", "cards", "-o", "x.png", "--dpi", "٣٠٠"),
                 ("awimbawe", "sweep", "--set", "hyenas_to_lose=3", "--db", db, "--top", "x"),
                 ("rank", "--db", db, "--top", "1_0"), ("report", "--db", db, "-o", "-",
                                                         "--top", "+3")):
        result = run(*args)
        assert result.exit_code == 2 and result.output.count("\n") == 1, (args, result.output)
    from kiwara_designer.lab.racing import RaceSettings, RacingError
    import pytest
    with pytest.raises(RacingError, match="finite"):
        RaceSettings(k=1, tolerance=float("nan")).check(3)


def test_a_precision_too_fine_to_count_is_one_line():
    # point 4: playtest --precision 1e-300 ended in ZeroDivisionError (1e-160: OverflowError)
    for game in (("playtest", "classic"), ("awimbawe", "playtest")):
        for fine in ("1e-300", "1e-160"):
            result = run(*game, "--precision", fine)
            assert result.exit_code == 2 and result.output == (
                f"kiwara: error: a precision of ±{float(fine):g} may need more games than can "
                f"be counted (at a 50 % win rate), more than the 20,000 played at most; ask for "
                f"±0.007 or more\n"), result.output


def test_one_game_has_no_interval_sd_or_test():
    # point 9: compare --games 1 printed [-37.0, -37.0] sd 0.0 and a paired t with p = 1; an
    # absolute margin's interval reached below 0
    from kiwara_designer.core.stats import paired_t_test, summarise, two_proportion_z_test
    one = summarise([-37.0])
    assert (one.mean, one.std, one.low, one.high) == (-37.0, None, None, None)
    assert (paired_t_test([26.0]).statistic, paired_t_test([26.0]).p_value) == (None, None)
    assert two_proportion_z_test(0, 1, 1, 1).p_value is None
    assert summarise([0.0, 7.0, 14.0], (0.0, float("inf"))).low == 0.0
    text = run("compare", "--variant", "classic", "--variant", "totem_1_2", "--games", 1, "-j", 1,
               "--agents", "greedy")
    assert text.exit_code == 0, text.output
    assert "1 game per variant" in text.output
    assert "-37.0  [n/a]  sd n/a" in text.output and "[-37.0, -37.0]" not in text.output
    assert "t = n/a, p = n/a" in text.output and "(no t interval over 1 game)" in text.output
    data = json.loads(run("compare", "--variant", "classic", "--variant", "totem_1_2",
                          "--games", 1, "-j", 1, "--json").output)
    assert data["score_margin_test"] == {"test": "paired t (mean difference)",
                                         "statistic": None, "p_value": None}
    margin = data["metrics"]["classic"]["score_margin"]
    assert (margin["std"], margin["low"], margin["high"]) == (None, None, None)
    two = json.loads(run("playtest", "classic", "--games", 2, "--skill-games", 0, "-j", 1,
                         "--json").output)["metrics"]
    assert two["abs_score_margin"]["low"] >= 0 and two["decisiveness"]["low"] >= 0


def test_lab_lines_count_in_words_and_numbers_alike(tmp_path, monkeypatch):
    # point 23: "1 workers", "1 layouts", "best//", "2,000 games wanted: 1232 played",
    # --set nosuch=1,2 reported as --set nosuch=1
    from types import SimpleNamespace

    from kiwara_designer.commands import summary_line
    monkeypatch.chdir(tmp_path)
    race = run("race", "--from", "classic", "--db", "r.sqlite", "--top", 1, "--agents",
               "random", "-j", 1, "--first-round", 2)
    assert "race: 1 layout, top 1" in race.output and "(1 worker)" in race.output
    run("sweep", "--from", "classic", "--db", "r.sqlite", "--games", 2, "--agents", "random",
        "--skill-games", 0, "-j", 1)
    exported = run("rank", "--db", "r.sqlite", "--export", "best/")
    assert exported.stderr == "2 files written to best/\n"
    summary = SimpleNamespace(setups=1, games_wanted=2000, games_already_stored=1232,
                              games_played=768, games_stored=768, seconds=1.0, workers=1)
    assert summary_line(summary, "layout") == ("1 layout, 2,000 games wanted: 1,232 already "
                                               "stored, 768 played, 768 stored in 1.0 s "
                                               "(1 worker)")
    unknown = run("awimbawe", "sweep", "--set", "nosuch=1,2", "--db", "a.sqlite")
    assert unknown.output == "kiwara: error: --set nosuch: unknown key 'nosuch'\n"


def test_rank_by_a_metric_no_stored_game_measures_says_so(tmp_path):
    # point 11: rank --by okapi_taker_win_rate on an Awimbawé-only store said "no play-tested
    # layouts yet", exit 0
    db = tmp_path / "aw.sqlite"
    run("awimbawe", "sweep", "--set", "hyenas_to_lose=3", "--games", 2, "--skill-games", 0,
        "--agents", "random", "-j", 1, "--db", db)
    for extra in ((), ("--json",)):
        result = run("rank", "--db", db, "--by", "okapi_taker_win_rate", *extra)
        assert result.exit_code == 1 and result.stdout == "", result.output
        assert result.stderr.startswith(
            f"kiwara: {db}: okapi_taker_win_rate is not measured by the game it holds (a metric "
            f"of kiwara); awimbawe measures: score, balance, ")
        assert "round1_leader_balance" in result.stderr and result.stderr.count("\n") == 1
    assert run("rank", "--db", db, "--by", "decisiveness").exit_code == 0


def test_a_damaged_store_says_rerunning_cannot_repair_it(tmp_path):
    # point 13: a corrupted page said "(stored games are kept; rerun to resume)"
    db = tmp_path / "c.sqlite"
    sweep = ("sweep", "--from", "classic", "--db", db, "--skill-games", 0, "--agents", "random",
             "-j", 1)
    assert run(*sweep, "--games", 40).exit_code == 0
    size = db.stat().st_size
    with open(db, "r+b") as f:
        f.seek(size - 2 * 4096)
        f.write(b"\xff" * 4096)
    result = run(*sweep, "--games", 80)
    assert result.exit_code == 2 and result.output == (
        f"kiwara: error: {db}: database disk image is malformed (the file is damaged and "
        f"rerunning cannot repair it: recover what it holds with sqlite3 {db} .recover | "
        f"sqlite3 recovered.sqlite, or start a new database)\n")


def _store_with_stale_summaries(db):
    run("sweep", "--from", "classic", "--db", db, "--games", 4, "--skill-games", 0, "--agents",
        "random", "-j", 1)
    import sqlite3
    with sqlite3.connect(db) as conn:          # as a sweep killed before its summaries
        conn.execute("DELETE FROM metric_summaries")
    conn.close()


def test_reading_commands_never_create_or_change_a_file(tmp_path, monkeypatch):
    # point 12: `: > notes.txt; kiwara rank --db notes.txt` made the empty file a 77 KB
    # database, exit 0; rank, report and explain open the store read-only
    import hashlib
    import sqlite3
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.txt").write_bytes(b"")
    (tmp_path / "hello.txt").write_text("hello\n")
    with sqlite3.connect(tmp_path / "other.db") as conn:
        conn.execute("CREATE TABLE t (x)")
    conn.close()
    with sqlite3.connect(tmp_path / "blank.db") as conn:
        conn.execute("PRAGMA user_version = 1")
    conn.close()
    refused = {"notes.txt": "an empty file, not a results database (kiwara sweep or race "
                            "creates one)",
               "hello.txt": "not a results database (not an SQLite file)",
               "other.db": "not a kiwara results database (it holds tables t)",
               "blank.db": "not a kiwara results database (it holds no tables)"}
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    for name, words in refused.items():
        for command in (("rank",), ("report", "-o", "-"), ("explain",)):
            result = run(*command, "--db", name)
            assert (result.exit_code, result.output) == (2, f"kiwara: error: {name}: {words}\n")
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before
    # a store whose summaries are stale is read as it is: the summaries are brought up to date
    # for the reading only
    _store_with_stale_summaries("r.sqlite")
    digest = hashlib.sha256((tmp_path / "r.sqlite").read_bytes()).hexdigest()
    ranked = run("rank", "--db", "r.sqlite", "--json")
    assert ranked.exit_code == 0 and json.loads(ranked.output)["ranking"][0]["games"] == 4
    assert run("report", "--db", "r.sqlite", "-o", "-").exit_code == 0
    assert hashlib.sha256((tmp_path / "r.sqlite").read_bytes()).hexdigest() == digest
    with sqlite3.connect("r.sqlite") as conn:
        assert conn.execute("SELECT COUNT(*) FROM metric_summaries").fetchone() == (0,)
    conn.close()
    # where SQLite cannot make its WAL index (a read-only mount), the file is read as immutable
    import os
    for side in ("r.sqlite-wal", "r.sqlite-shm"):      # left by SQLite's read-only readers
        (tmp_path / side).unlink(missing_ok=True)
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda path, mode, **kw: False if mode == os.W_OK
                        else real_access(path, mode, **kw))
    assert json.loads(run("rank", "--db", "r.sqlite", "--json").output)["ranking"][0][
        "games"] == 4
    assert not (tmp_path / "r.sqlite-shm").exists()       # immutable: no index made


def test_a_print_given_as_a_layout_is_one_short_line(tmp_path):
    # an SVG given as a layout: the message listed every bad character (9,859 characters)
    board = tmp_path / "board.svg"
    assert run("export", "classic", "-o", board).exit_code == 0
    result = run("export", board, "-o", tmp_path / "again.svg")
    assert result.exit_code == 2
    line, = result.output.strip().splitlines()
    assert line.startswith(f"kiwara: error: {board}:1:1: unknown character '<' at row 1, column 1")
    assert "more problems; territories are named by A-Z, a-z, 0-9" in line
    assert len(line) < 400 and line.count("unknown character") == 4
