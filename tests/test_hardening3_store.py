"""Hardening III (issue 32), points 8, 13 and 14: a damaged results store, rank's Holm family,
and rank's rows of several variants or pairings. Each test failed before its fix."""
from __future__ import annotations

import json
import re
import shutil
import sqlite3

import pytest
from click.testing import CliRunner

from kiwara_designer.cli import main

TWO = """ABCCCC
ABBCFF
AABCCF
DABBBE
DDEEEE

ADDDFF
ABBDDF
ABCCDD
BBCEED
CCCCED
"""
FAST = ("--skill-games", 0, "--agents", "random", "-j", 1)


def run(*args):
    return CliRunner().invoke(main, [*map(str, args)])


def commands(db, folder):
    """Every command that reads the store, by name: the reading ones, and the writing ones
    resumed with the arguments that built it."""
    return {
        "rank": ("rank", "--db", db),
        "rank --json": ("rank", "--db", db, "--json"),
        "report": ("report", "--db", db, "-o", folder / "report.html"),
        "explain": ("explain", "--db", db),
        "sweep": ("sweep", "--from", folder / "two.txt", "--db", db, "--games", 4, *FAST),
        "ladder": ("ladder", "classic", "--agents", "random,greedy", "--games", 2, "-j", 1,
                   "--db", db),
        "awimbawe sweep": ("awimbawe", "sweep", "--set", "hyenas_to_lose=3,4", "--games", 2,
                           *FAST, "--db", db),
        "awimbawe ladder": ("awimbawe", "ladder", "--agents", "random,greedy", "--games", 2,
                            "-j", 1, "--db", db),
    }


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """A store holding a Kiwara sweep, a ladder, a race and an Awimbawé sweep and ladder."""
    folder = tmp_path_factory.mktemp("store")
    (folder / "two.txt").write_text(TWO)
    db = folder / "base.sqlite"
    for name, args in commands(db, folder).items():
        if name in ("sweep", "ladder", "awimbawe sweep", "awimbawe ladder"):
            result = run(*args)
            assert result.exit_code == 0, (name, result.output)
    raced = run("race", "--from", "classic", "--db", db, "--top", 1, "--agents", "random",
                "-j", 1, "--first-round", 2)
    assert raced.exit_code == 0, raced.output
    return db


def damaged(built, tmp_path, *statements):
    """A copy of the built store with ``statements`` run on it by sqlite3."""
    (tmp_path / "two.txt").write_text(TWO)
    db = tmp_path / "damaged.sqlite"
    for side in ("-wal", "-shm"):       # the last copy's, which SQLite would read with this one
        tmp_path.joinpath(f"damaged.sqlite{side}").unlink(missing_ok=True)
    shutil.copy(built, db)
    conn = sqlite3.connect(db)
    with conn:
        for statement in statements:
            conn.execute(statement)
    conn.close()
    return db


def assert_one_line_exit_2(result, db, name):
    assert result.exit_code == 2, (name, result.output)
    assert "Traceback" not in result.output, (name, result.output)
    assert result.output.count("\n") == 1 and result.output.startswith(
        f"kiwara: error: {db}: "), (name, result.output)
    assert "damaged" in result.output, (name, result.output)


FIRST_GAME = "(SELECT MIN(rowid) FROM games)"
STALE = "DELETE FROM metric_summaries"           # as a sweep killed before its summaries
ALL = ("rank", "rank --json", "report", "explain", "sweep", "ladder", "awimbawe sweep",
       "awimbawe ladder")
SUMMARIES = ("rank", "rank --json", "report", "explain", "sweep", "awimbawe sweep")

# (what, the damage, the commands that read it and must refuse it, the words of the message)
DAMAGES = [
    ("stats not JSON", [f"UPDATE games SET stats = 'not json' WHERE rowid = {FIRST_GAME}",
                        STALE], ALL, "stats 'not json' is not JSON"),
    ("stats a list", [f"UPDATE games SET stats = '[]' WHERE rowid = {FIRST_GAME}", STALE], ALL,
     "stats is a list, not an object"),
    ("stats an infinity", [f"UPDATE games SET stats = '{{\"okapi\": Infinity}}' WHERE rowid = "
                           f"{FIRST_GAME}", STALE], ALL, "Infinity is not a finite number"),
    ("plies not a number", [f"UPDATE games SET plies = 'many' WHERE rowid = {FIRST_GAME}",
                            STALE], ALL, "plies is 'many', not a whole number"),
    ("winner not a seat", [f"UPDATE games SET winner = 7 WHERE rowid = {FIRST_GAME}", STALE],
     ALL, "winner is 7, not a seat"),
    ("infinite score", [f"UPDATE games SET score_first = 9e999 WHERE rowid = {FIRST_GAME}",
                        STALE], ALL, "score_first is inf, not a finite number"),
    ("vals a list", ["UPDATE metric_summaries SET vals = '[]'"], SUMMARIES,
     "vals is a list, not an object"),
    ("metrics null", ["UPDATE metric_summaries SET metrics = 'null'"], SUMMARIES,
     "metrics is null, not an object"),
    ("a metric's number text", ["UPDATE metric_summaries SET metrics = json_set(metrics, "
                                "'$.first_player_win_rate.value', 'half')"], SUMMARIES,
     "has value 'half', not a finite number"),
    ("a metric's number overflowing", ["UPDATE metric_summaries SET metrics = replace(metrics, "
                                       "'\"games\": ', '\"games\": 1e999, \"x\": ')"],
     SUMMARIES, "metric 'games' is inf, not a number"),
    ("vals of text", ["UPDATE metric_summaries SET vals = '{\"score\": \"high\"}'"], SUMMARIES,
     "vals has score 'high', not a number"),
    ("summary score infinite", ["UPDATE metric_summaries SET score = 9e999"], SUMMARIES,
     "score is inf, not a finite number"),
    ("summary score text", ["UPDATE metric_summaries SET score = 'abc'"], SUMMARIES,
     "score is 'abc', not a finite number"),
    ("descriptors not JSON", ["UPDATE setups SET descriptors = '{'"], SUMMARIES,
     "descriptors '{' is not JSON"),
    ("spec not JSON", ["UPDATE variants SET spec = 'x' WHERE id = 1"], ("rank", "rank --json", "report",
                                                            "explain"), "spec 'x' is not JSON"),
    ("a table missing", ["DROP TABLE setups"], ALL, "table setups: the table is missing"),
    ("races missing", ["DROP TABLE races"], ALL, "table races: the table is missing"),
]


@pytest.mark.parametrize("what,statements,refusing,words", DAMAGES,
                         ids=[d[0] for d in DAMAGES])
def test_a_damaged_store_is_one_line_exit_2_in_every_command(built, tmp_path, what, statements,
                                                              refusing, words):
    # point 8: AttributeError or JSONDecodeError tracebacks (exit 1) in rank, report, explain,
    # sweep and ladder
    for name in refusing:
        db = damaged(built, tmp_path, *statements)
        result = run(*commands(db, tmp_path)[name])
        assert_one_line_exit_2(result, db, name)
        assert words in result.output, (name, result.output)
        assert (" rerun" in result.output or "new --db" in result.output), result.output


def test_the_message_names_the_table_row_and_what_to_do(built, tmp_path):
    db = damaged(built, tmp_path, "UPDATE games SET stats = 'nope' WHERE rowid = 1", STALE)
    game = sqlite3.connect(db).execute("SELECT setup_id, game_index FROM games WHERE rowid = 1"
                                       ).fetchone()
    assert run("rank", "--db", db).output == (
        f"kiwara: error: {db}: damaged store: table games, rowid 1 (setup {game[0]}, game "
        f"index {game[1]}): stats 'nope' is not JSON (Expecting value: line 1 column 1 (char "
        f"0)); rerunning into it cannot repair it: play the games again into a new --db\n")
    db = damaged(built, tmp_path, "UPDATE metric_summaries SET vals = '[]'")
    said = run("report", "--db", db, "-o", tmp_path / "r.html").output
    assert re.fullmatch(
        rf"kiwara: error: {re.escape(str(db))}: damaged store: table metric_summaries, the row "
        rf"of setup \d+, variant \d+, agents \d+: vals is a list, not an object; the summaries "
        rf"are recomputed from the games: delete them \(sqlite3 {re.escape(str(db))} 'DELETE "
        rf"FROM metric_summaries'\) and rerun\n", said), said


def test_deleting_damaged_summaries_as_told_recovers_the_store(built, tmp_path):
    db = damaged(built, tmp_path, "UPDATE metric_summaries SET metrics = 'null'")
    assert run("rank", "--db", db).exit_code == 2
    damaged_conn = sqlite3.connect(db)
    with damaged_conn:
        damaged_conn.execute("DELETE FROM metric_summaries")
    damaged_conn.close()
    for name in ("rank", "report", "sweep"):
        assert run(*commands(db, tmp_path)[name]).exit_code == 0, name


def test_a_ladder_reads_games_not_other_summaries(built, tmp_path):
    # a ladder reads its games and brings its own summaries up to date: another experiment's
    # damaged summary is not read, so not refused
    db = damaged(built, tmp_path, "UPDATE metric_summaries SET vals = '[]'")
    for name in ("ladder", "awimbawe ladder"):
        result = run(*commands(db, tmp_path)[name])
        assert result.exit_code == 0, (name, result.output)


def test_report_on_infinite_scores_is_refused_in_one_line(built, tmp_path):
    # point 8: OverflowError in the margins' histogram, with every summary up to date
    db = damaged(built, tmp_path, f"UPDATE games SET score_first = 9e999 WHERE rowid = "
                                  f"{FIRST_GAME}")
    result = run("report", "--db", db, "-o", tmp_path / "r.html")
    assert_one_line_exit_2(result, db, "report")
    assert "score_first is inf, not a finite number" in result.output
    db = damaged(built, tmp_path, "UPDATE games SET score_second = -9e999")
    assert "score_second is -inf" in run("report", "--db", db, "-o", "-").output


def test_a_damaged_race_is_refused_by_the_report(built, tmp_path):
    for statement, words in (("UPDATE races SET result = '{'", "result '{' is not JSON"),
                             ("UPDATE races SET result = json_remove(result, '$.arms')",
                              "it lacks arms"),
                             ("UPDATE races SET settings = '[1]'",
                              "settings is a list, not an object")):
        db = damaged(built, tmp_path, statement)
        result = run("report", "--db", db, "-o", tmp_path / "r.html")
        assert_one_line_exit_2(result, db, "report")
        assert f"table races, rowid 1: {words}" in result.output


@pytest.mark.parametrize("keep", [0.3, 0.6, 0.9])
def test_a_truncated_store_is_one_line_exit_2_in_every_command(built, tmp_path, keep):
    for name in ALL:
        db = damaged(built, tmp_path)
        with open(db, "r+b") as f:
            f.truncate(int(db.stat().st_size * keep) // 4096 * 4096 + 100)
        result = run(*commands(db, tmp_path)[name])
        assert_one_line_exit_2(result, db, name)
        assert "rerunning cannot repair it" in result.output, (name, result.output)


def test_a_damaged_store_is_a_damaged_store_error_in_the_library(built, tmp_path):
    from kiwara_designer.lab import StoreError, open_store
    from kiwara_designer.lab.store import DamagedStoreError
    assert issubclass(DamagedStoreError, StoreError)
    db = damaged(built, tmp_path, "UPDATE metric_summaries SET vals = '[]'")
    with open_store(db, read_only=True) as store:
        with pytest.raises(DamagedStoreError, match="vals is a list"):
            store.ranked()


# -- point 13: one Holm family in the text and the JSON, p printed to agree with the verdict --
def test_rank_text_and_json_adjust_over_one_family_named_in_both(tmp_path):
    db = tmp_path / "six.sqlite"
    swept = run("sweep", "--sample", 6, "--seed", 3, "--games", 10, "--db", db, *FAST)
    assert swept.exit_code == 0, swept.output
    for by in ("score", "decisiveness", "balance"):
        text = run("rank", "--db", db, "--by", by).stdout.splitlines()
        data = json.loads(run("rank", "--db", db, "--by", by, "--json").stdout)
        family, tests = data["holm_family"], data["homogeneity"]
        named = next(line for line in text if line.startswith("(p-values Holm-adjusted"))
        assert named.endswith(f"tested together: {', '.join(family)})"), named
        assert family[0] == by and "first_player_win_rate" in family
        from kiwara_designer.lab.homogeneity import p_text
        verdicts = [line for line in text if line.startswith("these 6 layouts")]
        assert len(verdicts) == len(family)
        for line, name in zip(verdicts, family):
            assert f" on {name} (" in line
            assert p_text(tests[name]["p_adjusted"]) in line, (line, tests[name])
        # the other metrics are tested too, each alone: outside the family, not adjusted
        others = [name for name in tests if name not in family]
        assert "draw_rate" in others
        assert all(tests[name]["p_adjusted"] is None for name in others)


def test_a_p_value_is_printed_with_the_digits_its_verdict_needs():
    from kiwara_designer.core.stats import Homogeneity
    from kiwara_designer.lab.homogeneity import p_text, verdict
    h = Homogeneity("Pearson chi2", 4, 7.9, 3, 0.0123, 0.5, 0.1, 0.0, 0.2, 0.1,
                    p_adjusted=0.0492)
    line = verdict("first_player_win_rate", h, "layout")
    assert "differ on first_player_win_rate" in line and "p = 0.049;" in line, line
    assert p_text(0.04996) == "p = 0.04996"
    assert p_text(0.0501) == "p = 0.05" and p_text(0.3) == "p = 0.30"
    assert p_text(0.005) == "p = 0.005" and p_text(0.0004) == "p < 0.001"


# -- point 14: rows of several variants or pairings say which is which -------------------------
def test_rank_rows_of_several_pairings_show_their_variant_and_agents(tmp_path):
    db = tmp_path / "pairs.sqlite"
    for agents, variant in (("random", "classic"), ("greedy", "classic"),
                            ("random", "totem_1_2")):
        result = run("sweep", "--from", "classic", "--db", db, "--games", 2, "--skill-games", 0,
                     "--agents", agents, "--variant", variant, "-j", 1)
        assert result.exit_code == 0, result.output
    text = run("rank", "--db", db).stdout.splitlines()
    head = next(i for i, line in enumerate(text) if line.startswith("rank "))
    assert re.search(r"games +variant +agents +rivers", text[head]), text[head]
    rows = text[head + 1:head + 4]
    assert [row.split()[2] for row in rows] == ["#1"] * 3          # one layout, three times
    played = sorted(tuple(row.split()[11:13]) for row in rows)
    assert played == [("classic", "greedy,greedy"), ("classic", "random,random"),
                      ("totem_1_2", "random,random")], rows
    assert "of 3 experiments" in text[head + 4], text[head + 4]
    ranking = json.loads(run("rank", "--db", db, "--json").stdout)["ranking"]
    assert sorted((r["variant"], r["agents"]) for r in ranking) == [
        ("classic", "greedy,greedy"), ("classic", "random,random"),
        ("totem_1_2", "random,random")]
    # one pairing and variant: the table is as it was, without the two columns
    alone = run("rank", "--db", db, "--agents", "greedy,greedy").stdout.splitlines()
    assert alone[0].startswith("rank = layout") and "agents" not in alone[0], alone
    assert alone[1].split()[2] == "#1" and "greedy" not in alone[1]


def test_report_shows_a_metric_of_one_value_without_an_interval(built, tmp_path):
    # found with point 8's store: an Awimbawé ladder of 2 matches has metrics of one value (no
    # interval, low and high null), and the report's table formatted None: TypeError
    result = run("report", "--db", built, "-o", "-")
    assert result.exit_code == 0, result.output
    assert '<span class="note">[n/a]</span>' in result.stdout
