"""Matches, the results store and sweeps, on the toy game (fast, independent of the engine):
determinism across worker counts, resume after SIGKILL, two writers, the Dask path."""
from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from kiwara_designer.lab import (Pairing, PlaySettings, Store, StoreError, play_game, play_games,
                                 run_sweep)
from kiwara_designer.lab.matches import agent_a_seat

sys.path.insert(0, str(Path(__file__).parent))
from playtest_toy import LAYOUTS, SMALL, TOY_GAME, ToyVariant  # noqa: E402

TESTS = Path(__file__).parent


def test_match_is_deterministic_whatever_the_worker_count():
    one = play_games(SMALL, None, "random", games=40, seed=11, workers=1, game=TOY_GAME)
    two = play_games(SMALL, None, "random", games=40, seed=11, workers=2, game=TOY_GAME)
    assert one == two
    assert [g.index for g in one] == list(range(40))
    other = play_games(SMALL, None, "random", games=40, seed=12, workers=1, game=TOY_GAME)
    assert one != other


def test_seats_alternate_and_any_game_replays_alone():
    games = play_games(SMALL, None, "first,random", games=6, seed=5, workers=1, game=TOY_GAME)
    assert [g.a_seat for g in games] == [0, 1, 0, 1, 0, 1]
    assert [agent_a_seat(i) for i in range(4)] == [0, 1, 0, 1]
    alone = play_game(SMALL, ToyVariant(), Pairing("first", "random"), 5, 3, TOY_GAME)
    assert alone == games[3]


def test_a_stronger_toy_agent_wins_more():
    games = play_games(SMALL, None, "greedy,first", games=40, seed=1, workers=1, game=TOY_GAME)
    a_wins = sum(g.winner_agent == "a" for g in games)
    b_wins = sum(g.winner_agent == "b" for g in games)
    assert a_wins > b_wins


def test_bad_pairing_is_a_user_error():
    with pytest.raises(Exception, match="agent specs"):
        Pairing.parse("a,b,c")
    with pytest.raises(Exception, match="at least 1"):
        play_games(SMALL, None, "random", games=0, game=TOY_GAME)


# -- store --------------------------------------------------------------------------------------
def count_games(db: Path) -> list[tuple[int, int, int]]:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT setup_id, COUNT(*), COUNT(DISTINCT game_index) FROM games "
                            "GROUP BY setup_id ORDER BY setup_id").fetchall()


def test_sweep_stores_every_game_once_and_resumes(tmp_path):
    db = tmp_path / "r.sqlite"
    with Store(db) as store:
        first = run_sweep(store, LAYOUTS[:3], PlaySettings("random", games=10, seed=2, workers=1),
                          game=TOY_GAME)
        assert (first.games_wanted, first.games_played, first.games_stored) == (30, 30, 30)
        again = run_sweep(store, LAYOUTS[:3], PlaySettings("random", games=12, seed=2, workers=2),
                          game=TOY_GAME)
        assert (again.games_already_stored, again.games_played, again.games_stored) == (30, 6, 6)
        assert store.totals()["duplicates"] == 0
        assert store.integrity_ok()
        # the store's games are exactly those of a fresh match, whatever the worker count
        exp = store.experiment(LAYOUTS[0].canonical_game(), ToyVariant(),
                               Pairing("random", "random"), TOY_GAME)
        stored = store.games(exp)
        fresh = play_games(LAYOUTS[0].canonical_game(), None, "random", games=12, seed=2, workers=1,
                           game=TOY_GAME)
        assert stored == fresh
        ranked = store.ranked()
        assert len(ranked) == 3 and all(r.games == 12 for r in ranked)
        assert ranked[0].score >= ranked[-1].score
    assert count_games(db) == [(1, 12, 12), (2, 12, 12), (3, 12, 12)]


def test_resuming_with_another_seed_is_refused(tmp_path):
    with Store(tmp_path / "r.sqlite") as store:
        run_sweep(store, LAYOUTS[:1], PlaySettings("random", games=4, seed=1, workers=1),
                  game=TOY_GAME)
        with pytest.raises(StoreError, match="seed 1"):
            run_sweep(store, LAYOUTS[:1], PlaySettings("random", games=4, seed=2, workers=1),
                      game=TOY_GAME)


def test_skill_games_are_summarised(tmp_path):
    with Store(tmp_path / "r.sqlite") as store:
        run_sweep(store, LAYOUTS[:2], PlaySettings("random", games=6, seed=1, workers=1,
                                                   skill="greedy,first", skill_games=8),
                  game=TOY_GAME)
        for r in store.ranked():
            assert r.metrics["skill_gap"]["trials"] == 8
            assert r.games == 6


def test_not_a_database_is_a_one_line_error(tmp_path):
    bad = tmp_path / "bad.sqlite"
    bad.write_text("this is not sqlite " * 100)
    with pytest.raises(StoreError, match="not a usable results database"):
        Store(bad)


SWEEP_SCRIPT = textwrap.dedent("""
    import sys
    sys.path.insert(0, {tests!r})
    from playtest_toy import LAYOUTS, TOY_GAME
    from kiwara_designer.lab import PlaySettings, Store, run_sweep
    with Store({db!r}) as store:
        run_sweep(store, LAYOUTS, PlaySettings("slow", {games}, seed=9, workers=2), game=TOY_GAME)
""")


def stored_games(db: Path) -> int:
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(db, timeout=10) as conn:
            return conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    except sqlite3.OperationalError:     # tables not created yet
        return 0


def children_of(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"      # a zombie has ended; only its exit status is left


def wait_gone(pids: list[int], seconds: float) -> bool:
    deadline = time.time() + seconds
    while time.time() < deadline:
        if not any(alive(p) for p in pids):
            return True
        time.sleep(0.05)
    for p in pids:           # never leave processes behind, even when the test fails
        if alive(p):
            os.kill(p, signal.SIGKILL)
    return False


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
def test_sweep_killed_twice_with_sigkill_resumes_to_exactly_n_games(tmp_path):
    db, games = tmp_path / "kill.sqlite", 8
    script = SWEEP_SCRIPT.format(tests=str(TESTS), db=str(db), games=games)
    total = len(LAYOUTS) * games
    for kill_after, whole_group in ((10, False), (25, True)):
        proc = subprocess.Popen([sys.executable, "-c", script], start_new_session=True)
        deadline = time.time() + 30
        while stored_games(db) < kill_after and time.time() < deadline and proc.poll() is None:
            time.sleep(0.02)
        assert proc.poll() is None, "the sweep finished before it could be killed"
        workers = children_of(proc.pid)
        if whole_group:     # the sweep and its worker processes, all at once
            os.killpg(proc.pid, signal.SIGKILL)
        else:               # only the sweep: its workers must notice and end
            os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        assert kill_after <= stored_games(db) < total
        assert workers and wait_gone(workers, 5.0), "orphan workers kept running"
    subprocess.run([sys.executable, "-c", script], check=True, timeout=60)
    assert count_games(db) == [(i, games, games) for i in range(1, len(LAYOUTS) + 1)]
    with Store(db) as store:
        assert store.integrity_ok()
        assert len(store.ranked()) == len(LAYOUTS)
        exp = store.experiment(LAYOUTS[4].canonical_game(), ToyVariant(),
                               Pairing("slow", "slow"), TOY_GAME)
        fresh = play_games(LAYOUTS[4].canonical_game(), None, "random", games=games, seed=9,
                           workers=1, game=TOY_GAME)
        # "slow" is "random" with a delay: the resumed store holds exactly the seeded games
        assert [g.scores for g in store.games(exp)] == [g.scores for g in fresh]


WRITER_SCRIPT = textwrap.dedent("""
    import sys
    sys.path.insert(0, {tests!r})
    from playtest_toy import LAYOUTS, TOY_GAME
    from kiwara_designer.lab import PlaySettings, Store, run_sweep
    with Store({db!r}) as store:
        run_sweep(store, LAYOUTS{part}, PlaySettings("random", 30, seed=4, workers=1),
                  game=TOY_GAME)
""")


@pytest.mark.slow
def test_two_sweeps_on_one_database(tmp_path):
    db = tmp_path / "shared.sqlite"
    # overlapping layout sets: both processes race to store the same games of LAYOUTS[2:4]
    procs = [subprocess.Popen([sys.executable, "-c",
                               WRITER_SCRIPT.format(tests=str(TESTS), db=str(db), part=part)])
             for part in ("[:4]", "[2:]")]
    assert [p.wait(timeout=60) for p in procs] == [0, 0]
    assert count_games(db) == [(i, 30, 30) for i in range(1, len(LAYOUTS) + 1)]
    with Store(db) as store:
        assert store.integrity_ok()
        assert store.totals()["duplicates"] == 0


def test_dask_local_cluster_path(tmp_path):
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client, Store(tmp_path / "dask.sqlite") as store:
        summary = run_sweep(store, LAYOUTS[:3], PlaySettings("random", games=8, seed=3,
                                                             scheduler=client), game=TOY_GAME)
        assert summary.games_stored == 24
        exp = store.experiment(LAYOUTS[1].canonical_game(), ToyVariant(),
                               Pairing("random", "random"), TOY_GAME)
        local = play_games(LAYOUTS[1].canonical_game(), None, "random", games=8, seed=3, workers=1,
                           game=TOY_GAME)
        assert store.games(exp) == local
        # and through the scheduler's address, as `--scheduler tcp://…` does
        again = run_sweep(store, LAYOUTS[:4],
                          PlaySettings("random", games=8, seed=3,
                                       scheduler=cluster.scheduler_address), game=TOY_GAME)
        assert (again.games_already_stored, again.games_stored) == (24, 8)


def test_play_to_precision_reaches_the_interval_and_is_one_long_match():
    from kiwara_designer.lab import play_to_precision
    from kiwara_designer.core.stats import wilson_interval
    games = play_to_precision(SMALL, None, "random", 0.05, seed=2, workers=1, game=TOY_GAME,
                              first_round=50)
    wins = sum(g.winner == 0 for g in games) + sum(g.winner is None for g in games) / 2
    low, high = wilson_interval(wins, len(games))
    assert (high - low) / 2 <= 0.05
    assert len(games) < 450          # ±5 % needs about 385 games at a rate near 0.5
    assert games == play_games(SMALL, None, "random", len(games), 2, workers=1, game=TOY_GAME)


def test_sweep_streams_layouts_and_reports_progress(tmp_path):
    seen = []
    with Store(tmp_path / "r.sqlite") as store:
        run_sweep(store, LAYOUTS[:2], PlaySettings("random", games=5, seed=1, workers=1),
                  game=TOY_GAME, progress=lambda done, total: seen.append((done, total)))
        assert seen[-1] == (10, 10) and all(total == 10 for _, total in seen)
        seen.clear()
        # a lazy iterator of unknown length: resumed games count as done, no total
        summary = run_sweep(store, (layout for layout in LAYOUTS[:3]),
                            PlaySettings("random", games=5, seed=1, workers=2), game=TOY_GAME,
                            progress=lambda done, total: seen.append((done, total)))
        assert (summary.setups, summary.games_already_stored, summary.games_played) == (3, 10, 5)
        assert seen[-1] == (15, None)


def test_missing_summaries_are_rebuilt_from_the_games(tmp_path):
    # a sweep killed before its final summaries leaves games without summaries
    with Store(tmp_path / "r.sqlite") as store:
        run_sweep(store, LAYOUTS[:2], PlaySettings("random", games=6, seed=1, workers=1),
                  game=TOY_GAME)
        before = {r.setup_id: r.metrics for r in store.ranked()}
        store.db.execute("DELETE FROM metric_summaries")
        assert store.ranked() == []
        assert store.refresh_summaries(TOY_GAME) == 2     # with the toy's own metrics again
        assert {r.setup_id: r.metrics for r in store.ranked()} == before
        assert store.refresh_summaries(TOY_GAME) == 0      # up to date: nothing recomputed


# -- the game's own statistics and metrics, chance, older files ------------------------------------
def test_the_toy_games_own_statistics_and_metrics_reach_the_store(tmp_path):
    with Store(tmp_path / "r.sqlite") as store:
        run_sweep(store, LAYOUTS[:2], PlaySettings("random", games=6, seed=1, workers=1),
                  game=TOY_GAME)
        exp = store.experiment(LAYOUTS[0].canonical_game(), ToyVariant(),
                               Pairing("random", "random"), TOY_GAME)
        games = store.games(exp)
        assert games == play_games(LAYOUTS[0].canonical_game(), None, "random", 6, 1, workers=1,
                                   game=TOY_GAME)
        for g in games:
            assert sum(g.stats["regions_won"]) <= 4 and 1 <= g.stats["first_full_region"] <= g.plies
            assert "okapi" not in g.stats
        ranked = store.ranked("regions_won_by_first", game=TOY_GAME)
        first = ranked[0]
        assert first.values["regions_won_by_first"] == pytest.approx(
            sum(g.stats["regions_won"][0] for g in store.games(
                store.experiment(TOY_GAME.setup_from_key(first.setup), ToyVariant(),
                                 Pairing("random", "random"), TOY_GAME))) / 6)
        assert "regions" in first.metrics and "territories" not in first.metrics
        with pytest.raises(StoreError, match="unknown metric 'contestedness'"):
            store.ranked("contestedness", game=TOY_GAME)
        # each layout's shape is stored beside it (the game's descriptors), for relating
        # balance to board shape
        rows = store.db.execute("SELECT game, setup, descriptors FROM setups ORDER BY id")
        for layout, (game, key, descriptors) in zip(LAYOUTS, rows):
            shape = json.loads(descriptors)
            assert (game, key) == ("claim", "\n".join(layout.canonical_game().rows))
            played = TOY_GAME.setup_from_key(key)
            assert shape == json.loads(json.dumps(TOY_GAME.setup_descriptors(played)))
            assert shape["degree_sequence"] == list(layout.descriptors().degree_sequence)
            assert shape["articulations"] == len(layout.descriptors().articulation_territories)


def test_the_toy_metrics_print_as_rows_and_tables():
    from kiwara_designer.lab import compute_metrics
    from kiwara_designer.lab.text import format_metrics
    games = play_games(SMALL, None, "random", 10, 3, workers=1, game=TOY_GAME)
    m = compute_metrics(games, SMALL, game=TOY_GAME)
    text = format_metrics(m, "toy")
    assert "  regions won by 1st player" in text and "  region held by 1st" in text
    assert text.index("decisiveness") < text.index("regions won") < text.index("agent A win")
    assert text.index("skill gap") < text.index("region held") < text.index("layout score")
    assert list(m.to_json()).index("regions") == list(m.to_json()).index("agent_a_win_rate") + 1


def test_chance_is_drawn_with_its_own_generator_whatever_the_agents():
    from toy_games import KUHN
    deals = {}
    for pairing in ("random,random", "greedy,random", "greedy,greedy"):
        games = play_games(None, None, pairing, 12, 5, workers=1, game=KUHN, keep_moves=True)
        deals[pairing] = [g.moves[:2] for g in games]
        assert all(g.plies == len(g.moves) - 2 for g in games)    # the deals are not plies
    assert deals["random,random"] == deals["greedy,random"] == deals["greedy,greedy"]
    assert len(set(deals["random,random"])) > 2
    with pytest.raises(Exception, match="ismcts"):
        play_games(None, None, "mcts:10", 2, 5, workers=1, game=KUHN)


OLD_FILE_SCRIPT = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO meta VALUES ('schema_version', '1');
CREATE TABLE layouts (id INTEGER PRIMARY KEY, canonical TEXT NOT NULL UNIQUE,
    width INTEGER NOT NULL, height INTEGER NOT NULL, size_mix TEXT NOT NULL,
    rivers INTEGER NOT NULL);
CREATE TABLE variants (id INTEGER PRIMARY KEY, name TEXT NOT NULL, spec TEXT NOT NULL UNIQUE);
CREATE TABLE agent_configs (id INTEGER PRIMARY KEY, agent_a TEXT NOT NULL, agent_b TEXT NOT NULL,
    UNIQUE (agent_a, agent_b));
CREATE TABLE games (layout_id INTEGER NOT NULL REFERENCES layouts(id),
    variant_id INTEGER NOT NULL REFERENCES variants(id),
    agents_id INTEGER NOT NULL REFERENCES agent_configs(id), game_index INTEGER NOT NULL,
    master_seed INTEGER NOT NULL, seed INTEGER NOT NULL, a_seat INTEGER NOT NULL, winner INTEGER,
    score_first REAL NOT NULL, score_second REAL NOT NULL, plies INTEGER NOT NULL,
    decisions INTEGER NOT NULL, branching REAL NOT NULL, lead_changes INTEGER NOT NULL,
    decisiveness REAL, okapi INTEGER, control TEXT NOT NULL, control_changes TEXT NOT NULL,
    seconds REAL NOT NULL, finished_at REAL NOT NULL,
    UNIQUE (layout_id, variant_id, agents_id, game_index));
CREATE TABLE experiments (layout_id INTEGER NOT NULL REFERENCES layouts(id),
    variant_id INTEGER NOT NULL REFERENCES variants(id),
    agents_id INTEGER NOT NULL REFERENCES agent_configs(id),
    skill_agents_id INTEGER REFERENCES agent_configs(id),
    PRIMARY KEY (layout_id, variant_id, agents_id));
CREATE TABLE metric_summaries (layout_id INTEGER NOT NULL REFERENCES layouts(id),
    variant_id INTEGER NOT NULL REFERENCES variants(id),
    agents_id INTEGER NOT NULL REFERENCES agent_configs(id),
    skill_agents_id INTEGER REFERENCES agent_configs(id), games INTEGER NOT NULL,
    skill_games INTEGER NOT NULL, score REAL NOT NULL, vals TEXT NOT NULL, metrics TEXT NOT NULL,
    updated_at REAL NOT NULL, PRIMARY KEY (layout_id, variant_id, agents_id));
INSERT INTO variants VALUES (1, 'classic', '{}');
INSERT INTO agent_configs VALUES (1, 'greedy', 'greedy');
INSERT INTO experiments VALUES (1, 1, 1, NULL);
INSERT INTO games VALUES (1, 1, 1, 0, 0, 11, 0, 0, 40, 33, 31, 29, 20.5, 2, 0.5, 1,
    '[0, 1, 1, 0, null, 0]', '[1, 0, 0, 0, 0, 2]', 0.1, 0);
INSERT INTO games VALUES (1, 1, 1, 1, 0, 12, 1, 1, 30, 43, 31, 29, 20.5, 1, 0.7, NULL,
    '[1, 1, 1, 0, 0, 0]', '[0, 0, 0, 0, 0, 0]', 0.1, 0);
"""


def test_a_file_of_the_first_schema_is_migrated_and_read(tmp_path):
    from kiwara_designer.core.game import get_game
    from kiwara_designer.games.kiwara import KIWARA
    from kiwara_designer.games.kiwara.formats import load_layout
    db = tmp_path / "old.sqlite"
    classic = load_layout("classic")
    with sqlite3.connect(db) as conn:
        conn.executescript(OLD_FILE_SCRIPT)
        conn.execute("INSERT INTO layouts VALUES (1, ?, 6, 5, '3,3,5,5,7,7', 25)",
                     (KIWARA.setup_key(classic),))
    with Store(db) as store:
        # copied into today's schema: the old tables are gone, the version is today's
        tables = {r[0] for r in store.db.execute("SELECT name FROM sqlite_master "
                                                 "WHERE type = 'table'")}
        assert {"setups", "games"} <= tables and "layouts" not in tables
        assert store.db.execute("SELECT value FROM meta WHERE key = 'schema_version'"
                                ).fetchone()[0] == "3"
        # keyed as Kiwara's, described by the game
        (game, key, described), = store.db.execute("SELECT game, setup, descriptors FROM setups")
        assert (game, key) == ("kiwara", KIWARA.setup_key(classic))
        played = KIWARA.setup_from_key(key)
        assert json.loads(described) == json.loads(json.dumps(KIWARA.setup_descriptors(played)))
        assert json.loads(described)["rivers"] == 25
        exp = store.experiment(classic, load_variant_classic(), Pairing("greedy", "greedy"))
        assert exp.setup_id == 1
        # the games' old statistics columns became their stats
        assert [g.stats for g in store.games(exp)] == [
            {"okapi": 1, "control": [0, 1, 1, 0, None, 0], "control_changes": [1, 0, 0, 0, 0, 2]},
            {"okapi": None, "control": [1, 1, 1, 0, 0, 0], "control_changes": [0] * 6}]
        assert store.refresh_summaries() == 1
        (row,) = store.ranked("contestedness")
        assert row.values["contestedness"] == pytest.approx(2 / 12)     # 2 territories, 1 game each
        assert row.metrics["okapi_taker_win_rate"]["trials"] == 1
        assert row.descriptors == json.loads(described)
        # its games were seeded one by one: read, but a sweep may not add paired-seed games
        with pytest.raises(StoreError, match="seat-swapped pairs"):
            run_sweep(store, [classic], PlaySettings("random", games=4))
        # no column of a layout is required any more: another game's setups go in too
        assert store.setup_id(None, get_game("awimbawe")) == 2
    with Store(db) as store:                  # opened again: nothing left to migrate
        assert store.totals() == {"setups": 2, "games": 2, "summaries": 1, "duplicates": 0}


# The layouts table as written before setups of any game: its columns NOT NULL, no game or key.
PREVIOUS_LAYOUTS = """
CREATE TABLE layouts (id INTEGER PRIMARY KEY, canonical TEXT NOT NULL UNIQUE,
    width INTEGER NOT NULL, height INTEGER NOT NULL, size_mix TEXT NOT NULL,
    rivers INTEGER NOT NULL, degree_sequence TEXT, articulations INTEGER, descriptors TEXT);
"""

# Schema version 1 as last written, before the store knew no game: setups in ``layouts`` with a
# layout's columns, Kiwara's statistics in columns of ``games`` beside ``stats``.
V1_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS layouts (     -- setups (of any game), a historical name
    id INTEGER PRIMARY KEY,
    canonical TEXT,                        -- a layout: rows of its game form, joined by newlines
    width INTEGER, height INTEGER,         -- these columns describe a setup that is a layout
    size_mix TEXT,                         -- e.g. "3,3,5,5,7,7"
    rivers INTEGER,                        -- river segments (sticks) on the board
    degree_sequence TEXT,                  -- territories each borders, smallest first: "2,2,3,3"
    articulations INTEGER,                 -- territories whose removal cuts the others apart
    descriptors TEXT,                      -- JSON of Layout.descriptors()
    game TEXT,                             -- registered game name (files from before: kiwara)
    setup TEXT                             -- Game.setup_key(setup), unique per game
);
CREATE TABLE IF NOT EXISTS variants (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    spec TEXT NOT NULL UNIQUE              -- JSON of the rule parameters that differ from classic
);
CREATE TABLE IF NOT EXISTS agent_configs (
    id INTEGER PRIMARY KEY,
    agent_a TEXT NOT NULL, agent_b TEXT NOT NULL,
    UNIQUE (agent_a, agent_b)
);
CREATE TABLE IF NOT EXISTS games (
    layout_id INTEGER NOT NULL REFERENCES layouts(id),
    variant_id INTEGER NOT NULL REFERENCES variants(id),
    agents_id INTEGER NOT NULL REFERENCES agent_configs(id),
    game_index INTEGER NOT NULL,
    master_seed INTEGER NOT NULL,
    seed INTEGER NOT NULL,                 -- derived from master_seed and game_index
    a_seat INTEGER NOT NULL,               -- 0: agent A opened with the totem
    winner INTEGER,                        -- seat 0 / 1, NULL for a draw
    score_first REAL NOT NULL, score_second REAL NOT NULL,
    plies INTEGER NOT NULL, decisions INTEGER NOT NULL, branching REAL NOT NULL,
    lead_changes INTEGER NOT NULL, decisiveness REAL,
    okapi INTEGER,                         -- LEGACY_STATS: Kiwara's statistics, the only ones
    control TEXT NOT NULL,                 -- files written before the stats column held (JSON
    control_changes TEXT NOT NULL,         -- lists for control and control_changes)
    seconds REAL NOT NULL,
    finished_at REAL NOT NULL,
    stats TEXT,                            -- JSON of the game's own statistics (GameResult.stats)
    UNIQUE (layout_id, variant_id, agents_id, game_index)
);
CREATE TABLE IF NOT EXISTS experiments (   -- what a sweep set out to measure
    layout_id INTEGER NOT NULL REFERENCES layouts(id),
    variant_id INTEGER NOT NULL REFERENCES variants(id),
    agents_id INTEGER NOT NULL REFERENCES agent_configs(id),
    skill_agents_id INTEGER REFERENCES agent_configs(id),   -- stronger,weaker pairing, if any
    PRIMARY KEY (layout_id, variant_id, agents_id)
);
CREATE TABLE IF NOT EXISTS metric_summaries (
    layout_id INTEGER NOT NULL REFERENCES layouts(id),
    variant_id INTEGER NOT NULL REFERENCES variants(id),
    agents_id INTEGER NOT NULL REFERENCES agent_configs(id),
    skill_agents_id INTEGER REFERENCES agent_configs(id),
    games INTEGER NOT NULL, skill_games INTEGER NOT NULL,
    score REAL NOT NULL,
    vals TEXT NOT NULL,                    -- JSON {metric name: number}, for rank --by
    metrics TEXT NOT NULL,                 -- JSON of every metric with its interval
    updated_at REAL NOT NULL,
    PRIMARY KEY (layout_id, variant_id, agents_id)
);
CREATE TABLE IF NOT EXISTS races (         -- races (kiwara race): settings and outcome
    id INTEGER PRIMARY KEY,
    variant_id INTEGER NOT NULL REFERENCES variants(id),
    agents_id INTEGER NOT NULL REFERENCES agent_configs(id),
    master_seed INTEGER NOT NULL,
    settings TEXT NOT NULL,                -- JSON: metric, k, delta, tolerance, schedule, budget
    layouts TEXT NOT NULL,                 -- JSON list of the raced layout ids, sorted
    result TEXT NOT NULL,                  -- JSON: named layouts, stop reason, every arm's fate
    finished_at REAL NOT NULL,
    UNIQUE (variant_id, agents_id, master_seed, settings, layouts)
);
"""


def test_a_file_from_before_setup_keys_is_migrated_and_resumed(tmp_path):
    from kiwara_designer.games.kiwara import KIWARA
    from kiwara_designer.games.kiwara.formats import load_layout
    db, classic = tmp_path / "previous.sqlite", load_layout("classic").canonical_game()
    played = play_games(classic, None, "random", games=6, seed=5, workers=1)
    with sqlite3.connect(db) as conn:      # the tables as they were; 4 of 6 games stored
        conn.executescript(PREVIOUS_LAYOUTS)
        conn.executescript(V1_SCHEMA.replace(
            ",\n    game TEXT,", ",").replace(",\n    setup TEXT", ""))
        conn.executescript("INSERT INTO meta VALUES ('schema_version', '1');"
                           "INSERT INTO meta VALUES ('game_seeding', 'seat-swapped pairs');"
                           "INSERT INTO variants VALUES (1, 'classic', '{}');"
                           "INSERT INTO agent_configs VALUES (1, 'random', 'random');"
                           "INSERT INTO experiments VALUES (1, 1, 1, NULL);")
        conn.execute("INSERT INTO layouts VALUES (1, ?, 6, 5, '3,3,5,5,7,7', 25, NULL, NULL, "
                     "NULL)", (KIWARA.setup_key(classic),))
        for g in played[:4]:
            conn.execute(
                "INSERT INTO games VALUES (1, 1, 1, ?, 5, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
                "0.1, 0, ?)", (g.index, g.seed, g.a_seat, g.winner, *g.scores, g.plies,
                               g.decisions, g.branching, g.lead_changes, g.decisiveness,
                               g.stats["okapi"], json.dumps(g.stats["control"]),
                               json.dumps(g.stats["control_changes"]), json.dumps(g.stats)))
    assert "game" not in {r[1] for r in sqlite3.connect(db).execute("PRAGMA table_info(layouts)")}
    with Store(db) as store:
        summary = run_sweep(store, [classic], PlaySettings("random", games=6, seed=5, workers=1))
        assert (summary.games_already_stored, summary.games_stored) == (4, 2)
        exp = store.experiment(classic, load_variant_classic(), Pairing("random", "random"))
        assert exp.setup_id == 1 and store.games(exp) == played
        (row,) = store.ranked()
        assert (row.game, row.setup, row.games) == ("kiwara", KIWARA.setup_key(classic), 6)
        assert store.totals() == {"setups": 1, "games": 6, "summaries": 1, "duplicates": 0}
        # the new games' statistics are in stats alone: no legacy column is written
        assert not {"okapi", "control", "control_changes"} & _columns(store.db, "games")


def test_a_file_of_the_last_version_1_schema_with_two_games_and_a_race(tmp_path):
    from kiwara_designer.core.game import get_game
    from kiwara_designer.games.awimbawe import AwimbaweVariant
    from kiwara_designer.games.kiwara import KIWARA
    from kiwara_designer.games.kiwara.formats import load_layout
    db, classic = tmp_path / "v1.sqlite", load_layout("classic").canonical_game()
    awimbawe = get_game("awimbawe")
    kiwara_games = play_games(classic, None, "random", games=4, seed=2, workers=1)
    matches = play_games(None, None, "random", games=2, seed=2, workers=1, game=awimbawe)
    race = {"arms": [{"arm": 1}], "top": [1]}
    with sqlite3.connect(db) as conn:
        conn.executescript(V1_SCHEMA)
        conn.executescript("INSERT INTO meta VALUES ('schema_version', '1');"
                           "INSERT INTO meta VALUES ('game_seeding', 'seat-swapped pairs');"
                           "INSERT INTO variants VALUES (1, 'classic', '{}');"
                           "INSERT INTO agent_configs VALUES (1, 'random', 'random');")
        conn.execute("INSERT INTO layouts VALUES (1, ?, 6, 5, '3,3,5,5,7,7', 25, '2,2', 0, "
                     "'{\"degrees\": {}}', 'kiwara', ?)", (KIWARA.setup_key(classic),) * 2)
        conn.execute("INSERT INTO layouts (id, game, setup) VALUES (2, 'awimbawe', 'deals')")
        conn.execute("INSERT INTO layouts (id, width, descriptors, game, setup) "
                     "VALUES (3, 4, '{\"heaps\": 3}', 'nim', '3 5 7')")
        for setup_id, done in ((1, kiwara_games), (2, matches)):
            conn.execute("INSERT INTO experiments VALUES (?, 1, 1, NULL)", (setup_id,))
            for g in done:
                stats = dict(g.stats)
                conn.execute(
                    "INSERT INTO games VALUES (?, 1, 1, ?, 2, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
                    "'[]', '[]', 0.1, 0, ?)", (setup_id, g.index, g.seed, g.a_seat, g.winner,
                                                *g.scores, g.plies, g.decisions, g.branching,
                                                g.lead_changes, g.decisiveness,
                                                stats.get("okapi"), json.dumps(stats)))
        conn.execute("INSERT INTO races VALUES (1, 1, 1, 2, '{}', '[1]', ?, 0)",
                     (json.dumps(race),))
    with Store(db) as store:
        kiwara = store.experiment(classic, load_variant_classic(), Pairing("random", "random"))
        deals = store.experiment(None, AwimbaweVariant(), Pairing("random", "random"), awimbawe)
        assert (kiwara.setup_id, deals.setup_id) == (1, 2)
        assert store.games(kiwara) == kiwara_games and store.games(deals) == matches
        assert store.db.execute("SELECT setups, result FROM races").fetchall() == [
            ("[1]", json.dumps(race))]
        assert store.refresh_summaries() == 2
        assert {r.game for r in store.ranked()} == {"kiwara", "awimbawe"}
        # each setup described by its game; one of a game this kiwara does not know keeps
        # what its old columns said
        described = dict(store.db.execute("SELECT setup, descriptors FROM setups"))
        assert json.loads(described["deals"]) == {}
        assert json.loads(described["3 5 7"]) == {"width": 4, "heaps": 3}
        assert json.loads(described[KIWARA.setup_key(classic)])["size_mix"] == "3,3,5,5,7,7"


def test_processes_opening_an_old_file_together_migrate_it_once(tmp_path):
    db = tmp_path / "old.sqlite"
    with sqlite3.connect(db) as conn:
        conn.executescript(OLD_FILE_SCRIPT)
        conn.execute("INSERT INTO layouts VALUES (1, 'AB\nAB', 2, 2, '2,2', 2)")
    script = ("from kiwara_designer.lab import Store\n"
              f"with Store({str(db)!r}) as store:\n"
              "    print(store.totals())\n")
    openers = [subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
               for _ in range(3)]
    said = {opener.communicate(timeout=60)[0] for opener in openers}
    assert all(opener.returncode == 0 for opener in openers)
    assert said == {"{'setups': 1, 'games': 2, 'summaries': 0, 'duplicates': 0}\n"}


def _columns(db, table: str) -> set[str]:
    return {r[1] for r in db.execute(f"PRAGMA table_info({table})")}


def load_variant_classic():
    from kiwara_designer.games.kiwara import KiwaraVariant
    return KiwaraVariant()


def test_opening_retries_when_sqlite_says_locked_without_waiting(tmp_path, monkeypatch):
    # SQLite returns SQLITE_BUSY at once (no busy handler) in some moments of opening, e.g. while
    # another process switches a new file to WAL: two sweeps started together failed on it.
    real_open, calls = Store._open, []

    def open_busy_twice(self):
        calls.append(1)
        if len(calls) <= 2:
            self.db = sqlite3.connect(":memory:")
            error = sqlite3.OperationalError("database is locked")
            error.sqlite_errorname = "SQLITE_BUSY"
            raise error
        return real_open(self)

    monkeypatch.setattr(Store, "_open", open_busy_twice)
    with Store(tmp_path / "retry.sqlite") as store:
        assert store.integrity_ok()
    assert len(calls) == 3


def test_opening_does_not_retry_other_errors(tmp_path):
    with pytest.raises(StoreError, match="not a usable results database"):
        Store(tmp_path / "missing-folder" / "x.sqlite")


# -- setups of any game: the (game, setup key) columns -------------------------------------------
def test_setups_are_keyed_by_their_game_and_the_games_setup_key(tmp_path):
    from kiwara_designer.games.awimbawe import AwimbaweVariant
    from kiwara_designer.core.game import get_game
    from kiwara_designer.games.kiwara.formats import load_layout
    awimbawe, kiwara = get_game("awimbawe"), get_game("kiwara")
    classic = load_layout("classic")
    pairing = Pairing("random", "random")
    with Store(tmp_path / "games.sqlite") as store:
        ids = {"kiwara": store.setup_id(classic, kiwara),
               "claim": store.setup_id(classic, TOY_GAME),         # the same layout, another game
               "deals": store.setup_id(None, awimbawe)}
        assert len(set(ids.values())) == 3
        # the same setup again, as a half-turn of the layout: the same ids
        half_turn = next(s for s in classic.grid.symmetries if s.name == "half-turn")
        assert store.setup_id(classic.transformed(half_turn), kiwara) == ids["kiwara"]
        assert store.setup_id(None, awimbawe) == ids["deals"]
        rows = {r[0]: (r[1], r[2], json.loads(r[3])) for r in store.db.execute(
            "SELECT id, game, setup, descriptors FROM setups")}
        assert rows[ids["kiwara"]][:2] == ("kiwara", "\n".join(classic.canonical_game().rows))
        assert rows[ids["claim"]][:2] == ("claim", rows[ids["kiwara"]][1])
        shape = rows[ids["kiwara"]][2]
        assert (shape["width"], shape["size_mix"], shape["rivers"]) == (6, "3,3,5,5,7,7", 25)
        # each game describes its own setups: a deal, nothing
        assert rows[ids["deals"]] == ("awimbawe", "deals", {})
        exp = store.experiment(None, AwimbaweVariant(hyenas_to_lose=3), pairing, awimbawe)
        assert exp.setup_id == ids["deals"]
        # the rulebook's variants of both games have no differing rule: one row, two games
        assert (store.variant_id(AwimbaweVariant()) ==
                store.variant_id(load_variant_classic()) != exp.variant_id)
        game, setup = store.setup(ids["deals"])
        assert (game, setup) == (awimbawe, None)
        assert store.setup(ids["claim"], TOY_GAME)[0] is TOY_GAME
        with pytest.raises(StoreError, match="'claim', which this kiwara does not know"):
            store.setup(ids["claim"])


def test_awimbawe_matches_are_stored_summarised_and_ranked_by_their_own_metrics(tmp_path):
    from kiwara_designer.games.awimbawe import AwimbaweVariant
    from kiwara_designer.core.game import get_game
    from kiwara_designer.lab.sweep import run_variant_sweep
    awimbawe = get_game("awimbawe")
    variants = [AwimbaweVariant(name="four"), AwimbaweVariant(name="three", hyenas_to_lose=3)]
    with Store(tmp_path / "awi.sqlite") as store:
        summary = run_variant_sweep(store, variants,
                                    PlaySettings("random", games=6, seed=3, workers=1),
                                    game=awimbawe)
        assert (summary.setups, summary.games_stored) == (2, 12)
        exp = store.experiment(None, variants[1], Pairing("random", "random"), awimbawe)
        fresh = play_games(None, variants[1], "random", games=6, seed=3, workers=1, game=awimbawe)
        assert store.games(exp) == fresh
        ranked = store.ranked("round1_leader_balance")
        assert [r.game for r in ranked] == ["awimbawe"] * 2 and ranked[0].setup == "deals"
        wins = [sum(g.winner == g.stats["round_facts"][0]["leader"] for g in store.games(
            store.experiment(None, v, Pairing("random", "random"), awimbawe))) for v in variants]
        assert sorted(r.values["round1_leader_balance"] for r in ranked) == sorted(
            1 - 2 * abs(w / 6 - 0.5) for w in wins)
        assert json.loads(ranked[0].variant_rules) in ({}, {"hyenas_to_lose": 3})
        # Kiwara's own metrics are not Awimbawé's: no row ranks by them
        assert store.ranked("contestedness") == []


def _both_games_store(db):
    """A store where Awimbawé's default rules (swept as hyenas_to_lose=4, its default) were
    written first, then Kiwara's classic layout under its default rules."""
    from click.testing import CliRunner

    from kiwara_designer.cli import main
    for args in (("awimbawe", "sweep", "--set", "hyenas_to_lose=4", "--games", 2,
                  "--skill-games", 0, "--agents", "random", "-j", 1, "--db", db),
                 ("sweep", "--from", "classic", "--games", 2, "--skill-games", 0, "--agents",
                  "random", "-j", 1, "--db", db)):
        result = CliRunner().invoke(main, [*map(str, args)])
        assert result.exit_code == 0, result.output


def test_each_game_has_its_own_variants(tmp_path):
    # issue 22 point 10: both games' default rules were one variants row ({}), named by the game
    # that wrote first: Kiwara's classic games showed as "classic:hyenas_to_lose=4" and
    # rank --variant classic found nothing
    from click.testing import CliRunner

    from kiwara_designer.cli import main
    db = tmp_path / "both.sqlite"
    _both_games_store(db)
    with Store(db) as store:
        assert sorted(store.db.execute("SELECT game, name, spec FROM variants")) == [
            ("awimbawe", "classic:hyenas_to_lose=4", "{}"), ("kiwara", "classic", "{}")]
        assert {(r.game, r.variant) for r in store.ranked()} == {
            ("awimbawe", "classic:hyenas_to_lose=4"), ("kiwara", "classic")}
    ranked = CliRunner().invoke(main, ["rank", "--db", str(db), "--variant", "classic",
                                       "--json"])
    assert ranked.exit_code == 0 and [r["game"] for r in json.loads(ranked.output)["ranking"]] == [
        "kiwara"]


def test_a_version_2_file_with_one_shared_variant_is_split_by_game(tmp_path):
    # issue 22 point 10: a file written before variants were keyed by game is migrated: the game
    # that played the shared row first keeps it, the other gets its own, its games moved to it
    db = tmp_path / "v2.sqlite"
    _both_games_store(db)
    with sqlite3.connect(db) as conn:          # back to version 2: one row for both games' {}
        conn.executescript("""
            UPDATE games SET variant_id = 1; UPDATE experiments SET variant_id = 1;
            UPDATE metric_summaries SET variant_id = 1; UPDATE races SET variant_id = 1;
            CREATE TABLE v2 (id INTEGER PRIMARY KEY, name TEXT NOT NULL,
                             spec TEXT NOT NULL UNIQUE);
            INSERT INTO v2 SELECT id, name, spec FROM variants WHERE id = 1;
            DROP TABLE variants; ALTER TABLE v2 RENAME TO variants;
            UPDATE meta SET value = '2' WHERE key = 'schema_version';""")
        before = conn.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    with Store(db) as store:
        assert store.db.execute("SELECT value FROM meta WHERE key = 'schema_version'"
                                ).fetchone()[0] == "3"
        assert sorted(store.db.execute("SELECT id, game, name, spec FROM variants")) == [
            (1, "awimbawe", "classic:hyenas_to_lose=4", "{}"), (2, "kiwara", "classic", "{}")]
        assert store.totals()["games"] == before
        by_game = dict(store.db.execute(
            "SELECT s.game, GROUP_CONCAT(DISTINCT g.variant_id) FROM games g JOIN setups s "
            "ON s.id = g.setup_id GROUP BY s.game"))
        assert by_game == {"awimbawe": "1", "kiwara": "2"}
        store.refresh_summaries()
        assert {(r.game, r.variant) for r in store.ranked()} == {
            ("awimbawe", "classic:hyenas_to_lose=4"), ("kiwara", "classic")}
        assert store.integrity_ok()
        assert not store.db.execute("PRAGMA foreign_key_check").fetchall()


def test_a_reading_command_reads_an_old_file_without_migrating_it(tmp_path):
    # issue 22 point 12: rank, report and explain open the store read-only; a file of an older
    # schema is migrated in a copy in memory, the file left as it was (a sweep upgrades it)
    import hashlib

    from click.testing import CliRunner

    from kiwara_designer.cli import main
    from kiwara_designer.games.kiwara import KIWARA
    from kiwara_designer.games.kiwara.formats import load_layout
    db = tmp_path / "old.sqlite"
    with sqlite3.connect(db) as conn:
        conn.executescript(OLD_FILE_SCRIPT)
        conn.execute("INSERT INTO layouts VALUES (1, ?, 6, 5, '3,3,5,5,7,7', 25)",
                     (KIWARA.setup_key(load_layout("classic")),))
    conn.close()
    digest = hashlib.sha256(db.read_bytes()).hexdigest()
    ranked = CliRunner().invoke(main, ["rank", "--db", str(db), "--json"])
    assert ranked.exit_code == 0, ranked.output
    (row,) = json.loads(ranked.output)["ranking"]
    assert (row["games"], row["variant"]) == (2, "classic")
    assert CliRunner().invoke(main, ["report", "--db", str(db), "-o", "-"]).exit_code == 0
    assert hashlib.sha256(db.read_bytes()).hexdigest() == digest
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT value FROM meta WHERE key = 'schema_version'"
                            ).fetchone() == ("1",)
    conn.close()
    with Store(db) as store:                   # a writing opener upgrades it
        assert store.db.execute("SELECT value FROM meta WHERE key = 'schema_version'"
                                ).fetchone() == ("3",)
