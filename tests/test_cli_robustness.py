"""Bad input across the commands: one line naming the file and the problem, exit 2 (or 1 for a
negative answer), never a traceback, a hang or lost data. Each case here was a real failure."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kiwara_designer.games.kiwara import KiwaraRecord, KiwaraVariant
from kiwara_designer.core.errors import KiwaraError
from kiwara_designer.games.kiwara.formats import load_layout, parse_layouts

FAST = ["--agents", "random", "--workers", "1", "--skill-games", "0"]
KIWARA = [sys.executable, "-m", "kiwara_designer.cli"]
SMALL_LIST = ["layouts", "list", "--width", "3", "--height", "2", "--territories", "2",
              "--sizes", "3"]   # 3 layouts, no cost: the default 6 x 5 board takes seconds


def assert_one_line_error(result, *words, code=2):
    assert result.exit_code == code, (result.output, result.exception)
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("kiwara:"), lines
    for word in words:
        assert word in lines[0], (word, lines[0])


# -- rules variants ------------------------------------------------------------------------------
def test_huge_totem_step_is_refused_not_a_hang(run, tmp_path):
    # range(1, 10**21) per totem position: the engine never finished building its tables
    path = tmp_path / "far.toml"
    path.write_text("totem_max_step = 1000000000000000000000\n")
    assert_one_line_error(run("perft", "1", "--variant", path), "far.toml", "totem_max_step",
                          "1000000000000000000000")
    with pytest.raises(KiwaraError, match="totem_min_step"):
        KiwaraVariant(totem_min_step=10**6, totem_max_step=10**6)
    assert KiwaraVariant(totem_min_step=22, totem_max_step=40).totem_max_step == 40


@pytest.mark.parametrize("data, words", [
    (b"zebra_tokens = 4\n\xff\xfe\n", ["bad.toml:2", "not UTF-8"]),
    (b"zebra_tokens = 4\0\n", ["bad.toml", "binary"]),
])
def test_variant_file_that_is_not_text(run, tmp_path, data, words):
    (tmp_path / "bad.toml").write_bytes(data)
    assert_one_line_error(run("perft", "1", "--variant", tmp_path / "bad.toml"), *words)


def test_variant_file_too_large(run, tmp_path):
    path = tmp_path / "big.toml"
    path.write_text("# padding\n" * 200_000)
    assert_one_line_error(run("perft", "1", "--variant", path), "big.toml", "larger than")


# -- JSON nested too deeply ----------------------------------------------------------------------
def test_deeply_nested_json_layout_is_an_input_error(run, tmp_path):
    text = "[" * 100_000 + "]" * 100_000
    entries = parse_layouts(text, "deep.json")
    assert len(entries) == 1 and "nested too deeply" in str(entries[0].error)
    path = tmp_path / "deep.json"
    path.write_text(text)
    assert_one_line_error(run("validate", path), "deep.json", "nested too deeply")
    assert_one_line_error(run("show", path), "deep.json", "nested too deeply")


def test_deeply_nested_game_record_is_an_input_error(run, tmp_path):
    path = tmp_path / "deep.json"
    path.write_text('{"layout": ' + "[" * 100_000 + "]" * 100_000 + "}")
    assert_one_line_error(run("replay", path), "deep.json", "nested too deeply")


# -- game records ---------------------------------------------------------------------------------
def test_replay_names_the_file_and_says_the_move_once(run, tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps({"layout": "classic", "moves": ["T7", "Zc3>99"]}))
    result = run("replay", path)
    assert_one_line_error(result, "game.json", "move 2", "totem position 99", code=1)
    assert result.stderr.count("Zc3>99") == 1


def test_record_with_bad_layout_rows_names_the_file_once(run, tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps({"layout": ["ABC", "AB"], "moves": []}))
    result = run("replay", path)
    assert_one_line_error(result, "game.json", "row 2 has 2 cells")
    assert result.stderr.count("game.json") == 1


# -- lab ------------------------------------------------------------------------------------------
def test_rank_shows_a_layout_without_games(run, tmp_path):
    # a sweep stopped between registering a layout and storing its first game leaves one
    from kiwara_designer.lab import Pairing, open_store
    db = tmp_path / "r.sqlite"
    with open_store(str(db)) as store:
        exp = store.experiment(load_layout("classic").canonical(), KiwaraVariant(),
                               Pairing.parse("random"))
        store.register(exp)
        store.refresh_summaries()
    result = run("rank", "--db", db)
    assert result.exit_code == 0, result.output
    assert "n/a" in result.stdout and "Traceback" not in result.output


def test_sweep_seed_beyond_sqlite_integers_is_refused_before_playing(run, tmp_path):
    db = tmp_path / "s.sqlite"
    result = run("sweep", "--from", "classic", "--db", db, "--games", "1", "--seed", 2 ** 63, *FAST)
    assert_one_line_error(result, "seed", str(2 ** 63), "64-bit")
    assert not db.exists()                            # refused before the store is opened
    result = run("sweep", "--from", "classic", "--db", db, "--games", "1", "--seed",
                 2 ** 63 - 1, *FAST)
    assert result.exit_code == 0, result.output


def test_sweep_with_unreachable_scheduler_is_one_line(run, tmp_path, monkeypatch):
    pytest.importorskip("dask.distributed")
    import dask.distributed

    class Unreachable:    # what Client does after its 30 s connect timeout, without the wait
        def __init__(self, address, **kwargs):
            raise OSError(f"Timed out trying to connect to {address} after 30 s")
    monkeypatch.setattr(dask.distributed, "Client", Unreachable)
    result = run("sweep", "--from", "classic", "--db", tmp_path / "s.sqlite", "--games", "1",
                 "--scheduler", "tcp://127.0.0.1:1", *FAST)
    assert_one_line_error(result, "tcp://127.0.0.1:1", "Timed out")


# -- generator commands (checks in the CLI; the generator's own Filters accept these) -------------
def test_list_limit_beyond_machine_integers_means_no_limit(run):
    result = run("layouts", "list", "--width", "3", "--height", "2", "--territories", "2",
                 "--sizes", "3", "--limit", 10 ** 21, "--format", "jsonl")
    assert result.exit_code == 0, result.output
    rows = {tuple(json.loads(line)["rows"]) for line in result.stdout.splitlines()}
    # 3 x 2 board cut into two connected triples, by hand: rows, or two mirrored L-shapes
    assert rows == {("AAA", "BBB"), ("AAB", "ABB"), ("ABB", "AAB")}


@pytest.mark.parametrize("args, words", [
    (["--min-rivers", "5", "--max-rivers", "2"], ["--min-rivers 5", "--max-rivers 2"]),
    (["--max-span", "0"], ["--max-span", "at least 1"]),
])
@pytest.mark.parametrize("command", [["layouts", "list", "--limit", "1"], ["layouts", "sample"]])
def test_filters_nothing_can_pass_are_refused_at_once(run, command, args, words):
    # they used to enumerate all 10,967,346 layouts before printing nothing
    assert_one_line_error(run(*command, *args), *words)


# -- closed pipes --------------------------------------------------------------------------------
@pytest.mark.parametrize("args", [["show", "classic"], ["layouts", "builtin"],
                                  ["validate", "classic", "president"], ["perft", "2", "--divide"],
                                  ["--help"], SMALL_LIST])
def test_reader_that_stops_early_is_not_an_error(args):
    # `kiwara show classic | true`: no traceback, no "Exception ignored", exit 0 like layouts list
    read_end, write_end = os.pipe()
    os.close(read_end)
    process = subprocess.run(KIWARA + args, stdout=write_end, stderr=subprocess.PIPE, timeout=20)
    os.close(write_end)
    assert process.stderr == b"" and process.returncode == 0, process.stderr.decode()


def _foreign_database(path, *statements):
    import sqlite3
    db = sqlite3.connect(path)
    for statement in statements:
        db.execute(statement)
    db.commit()
    db.close()


@pytest.mark.parametrize("command", [["rank"], ["report", "-o", "-"],
                                     ["sweep", "--from", "classic", "--games", "1", *FAST]])
def test_another_programs_sqlite_file_is_refused_untouched(run, tmp_path, command):
    db = tmp_path / "theirs.sqlite"
    _foreign_database(db, "CREATE TABLE games (x INTEGER)", "INSERT INTO games VALUES (1)")
    before = db.read_bytes()
    result = run(*command, "--db", db)
    assert_one_line_error(result, "theirs.sqlite", "not a kiwara results database", "games")
    assert db.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == [
        "theirs.sqlite"]


def test_results_database_with_a_mangled_table_or_version(run, tmp_path):
    db = tmp_path / "half.sqlite"
    _foreign_database(db, "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
                      "INSERT INTO meta VALUES ('schema_version', '1')",
                      "CREATE TABLE layouts (id INTEGER PRIMARY KEY)")
    assert_one_line_error(run("rank", "--db", db), "half.sqlite", "'layouts'", "canonical")
    db = tmp_path / "version.sqlite"
    _foreign_database(db, "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
                      "INSERT INTO meta VALUES ('schema_version', 'abc')")
    assert_one_line_error(run("rank", "--db", db), "version.sqlite", "schema version abc")


@pytest.mark.parametrize("pattern, words", [
    ("ABCDEFG\n", ["pat.txt", "7 × 1", "6 × 5 board"]),
    ("AB\nCD\nEF\nG.\n", ["pat.txt", "7 territories", "6"]),
])
@pytest.mark.parametrize("command", [["layouts", "list", "--limit", "1"], ["layouts", "sample"]])
def test_patterns_no_layout_can_contain_are_refused_at_once(run, tmp_path, command, pattern, words):
    (tmp_path / "pat.txt").write_text(pattern)
    assert_one_line_error(run(*command, "--contains", tmp_path / "pat.txt"), *words)


@pytest.mark.parametrize("args", [
    ["playtest", "classic", "--games", 10 ** 23, *FAST],
    ["playtest", "classic", "--games", "2", *FAST, "--skill-games", 10 ** 23],
    ["compare", "--variant", "classic", "--variant", "classic", "--games", 10 ** 23, *FAST[:4]],
    ["sweep", "--sample", "1", "--db", "never.sqlite", "--games", 10 ** 23, *FAST],
    ["sweep", "--sample", 10 ** 23, "--db", "never.sqlite", "--games", "1", *FAST],
    ["layouts", "sample", "-n", 10 ** 23],
])
def test_absurd_counts_are_usage_errors(run, args, tmp_path, monkeypatch):
    # these were OverflowError tracebacks, or ran out of memory building the whole list
    monkeypatch.chdir(tmp_path)
    result = run(*args)
    assert result.exit_code == 2 and "not in the range" in result.stderr, result.output
    assert not (tmp_path / "never.sqlite").exists()


def test_png_of_a_huge_paper_is_refused_not_rasterised(run, tmp_path):
    # 5000 mm at 150 dpi is 29528 pixels a side: cairo ran for minutes towards 3.5 GB
    result = run("export", "classic", "-o", tmp_path / "big.png", "--paper", "5000x5000")
    assert_one_line_error(result, "29528 × 29528 pixels", ".svg or .pdf")
    assert list(tmp_path.iterdir()) == []


def test_print_job_of_thousands_of_pages_is_refused(run, tmp_path):
    # a 26 x 99 board at 500 mm cells: 17,172 A4 tiles, each with the whole clipped board;
    # this used to run for minutes before writing anything
    board = tmp_path / "huge.txt"
    board.write_text("A" * 26 + "\n" + ("B" * 26 + "\n") * 98)
    result = run("export", board, "-o", tmp_path / "t.svg", "--cell-mm", "500")
    assert result.exit_code == 2
    error = result.stderr.strip().splitlines()[-1]
    assert "17,172 pages" in error and "--cell-mm" in error and "Traceback" not in result.output
    assert [p.name for p in tmp_path.iterdir()] == ["huge.txt"]


def test_paper_too_small_to_tile_says_what_to_change(run, tmp_path):
    result = run("export", "classic", "-o", tmp_path / "t.svg", "--paper", "50x50")
    assert_one_line_error(result, "too small", "--paper")


def test_playtest_records_of_layouts_with_the_same_file_name_are_all_kept(run, tmp_path):
    # a/board.txt's records used to be overwritten by b/board.txt's: board-game00000.json
    from kiwara_designer.games.kiwara.formats import builtin_text
    for folder, name in (("a", "classic"), ("b", "president")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "board.txt").write_text(builtin_text(name))
    result = run("playtest", tmp_path / "a" / "board.txt", tmp_path / "b" / "board.txt",
                 "--games", "1", *FAST, "--records", tmp_path / "recs")
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in (tmp_path / "recs").iterdir())
    assert names == ["board-2-game00000.json", "board-game00000.json"]
    first = KiwaraRecord.load(str(tmp_path / "recs" / "board-game00000.json"))
    second = KiwaraRecord.load(str(tmp_path / "recs" / "board-2-game00000.json"))
    assert first.layout.rows == load_layout("classic").rows
    assert second.layout.rows == load_layout("president").rows


def test_play_record_in_a_missing_directory_is_refused_before_the_game(run, tmp_path):
    # the game was played to its end (perhaps an hour of a person's moves), then not saved
    target = tmp_path / "missing" / "game.json"
    result = run("play", "--first", "human", "--second", "random", "--seed", "1",
                 "--record", target, input="T7\n")
    assert_one_line_error(result, "--record", "no such directory")
    assert "T7" not in result.stdout      # refused before the first prompt


def test_playtest_records_directory_that_cannot_be_made_is_refused_before_playing(run, 
        tmp_path, monkeypatch):
    import kiwara_designer.lab as lab
    (tmp_path / "file").write_text("not a directory")

    def never(*args, **kwargs):
        raise AssertionError("games were played before the records directory was checked")
    monkeypatch.setattr(lab, "play_games", never)
    result = run("playtest", "classic", "--games", "1", *FAST, "--records",
                 tmp_path / "file" / "recs")
    assert_one_line_error(result, "cannot write game records")


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs Linux's /dev/full")
@pytest.mark.parametrize("args", [["show", "classic"], SMALL_LIST,
                                  ["export", "classic", "-o", "-"]])
def test_full_disk_on_stdout_is_an_error_not_a_traceback(args):
    # a truncated output must not look like success
    with open("/dev/full", "w") as full:
        process = subprocess.run(KIWARA + args, stdout=full, stderr=subprocess.PIPE, timeout=20)
    assert process.returncode == 2
    assert process.stderr.decode().strip() == (
        "kiwara: error: cannot write the output: No space left on device")


def test_closed_stdout_is_like_a_closed_pipe():
    process = subprocess.run(KIWARA + SMALL_LIST, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, timeout=20, preexec_fn=lambda: os.close(1))
    assert process.returncode == 0 and process.stderr == b"", process.stderr.decode()


def test_disk_full_during_a_sweep_is_one_line(run, tmp_path, monkeypatch):
    import sqlite3
    from kiwara_designer.lab.store import Store

    def full(self, *args, **kwargs):
        error = sqlite3.OperationalError("database or disk is full")
        error.sqlite_errorname = "SQLITE_FULL"
        raise error
    monkeypatch.setattr(Store, "add_game", full)
    result = run("sweep", "--from", "classic", "--db", tmp_path / "s.sqlite", "--games", "1",
                 *FAST)
    assert_one_line_error(result, "s.sqlite", "disk is full", "rerun")


def test_deep_perft_shows_each_depth_as_it_is_counted():
    # perft 5 runs for minutes: the shallow depths used to be held back until the deepest was done
    process = subprocess.Popen(KIWARA + ["perft", "5"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    try:
        first_lines = [process.stdout.readline() for _ in range(2)]
    finally:
        process.kill()
        process.wait(timeout=20)
    # rules reference: 22 openings; then (12 positions x 5 cells + 10 x 6) x 5 kinds x 3 steps
    assert first_lines == [b"perft 1 22\n", b"perft 2 1800\n"]


@pytest.mark.parametrize("args", [
    ["compare", "--variant", "-", "--variant", "-", "--games", "1", *FAST[:4]],
    ["perft", "1", "--layout", "-", "--variant", "-"],
    ["playtest", "-", "--variant", "-", "--games", "1", *FAST],
])
def test_stdin_given_twice_is_refused(run, args):
    # compare read the variant from stdin, then an empty stdin: the classic game, silently
    result = run(*args, input="totem_max_step = 2\n")
    assert_one_line_error(result, "stdin", "2 times")
