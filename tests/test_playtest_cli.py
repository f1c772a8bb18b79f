"""The lab's commands through click's CliRunner, on the real engine with cheap agents, and the
real engine through the library (determinism, records that replay)."""
from __future__ import annotations

import json

import pytest

from kiwara_designer.games.kiwara import load_layout
from kiwara_designer.games.kiwara import KiwaraRecord, KiwaraVariant
from kiwara_designer.core.game import get_game
from kiwara_designer.lab import play_games, replay_game
from svg_support import board_group, expected_rivers, parse, rivers_drawn, size_mm

FAST = ["--agents", "random", "--workers", "1", "--skill-games", "0"]


def test_real_engine_match_is_deterministic_and_replays():
    classic = load_layout("classic")
    one = play_games(classic, None, "random", games=6, seed=3, workers=1)
    two = play_games(classic, None, "random", games=6, seed=3, workers=2)
    assert one == two
    for g in one:
        assert sum(g.scores) % 2 == 1 and g.winner is not None   # classic: odd total, no draw
        assert g.winner == (0 if g.scores[0] > g.scores[1] else 1)
        assert len(g.stats["control"]) == 6 and g.plies >= 31
    result, record = replay_game(classic, None, "random", 3, 4)
    assert result == one[4]
    final = KiwaraRecord.from_dict(json.loads(record.to_json())).replay()
    assert final.is_terminal()
    assert tuple(final.scoring().totals) == tuple(int(s) for s in one[4].scores)


def test_playtest_json_reports_every_metric(run):
    r = run("playtest", "classic", "--games", "6", "--agents", "random", "--workers", "1",
            "--skill", "greedy,random", "--skill-games", "2", "--seed", "5", "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    m = data["metrics"]
    assert data["games"] == 6 and data["skill_games"] == 2 and m["games"] == 6
    for key in ("first_player_win_rate", "balance", "draw_rate", "score_margin", "length",
                "branching_factor", "lead_changes", "decisiveness", "okapi_taker_win_rate",
                "territories", "skill_gap", "score"):
        assert m[key] is not None, key
    rate = m["first_player_win_rate"]
    assert 0 <= rate["low"] <= rate["value"] <= rate["high"] <= 1
    assert len(m["territories"]) == 6 and m["skill_gap"]["trials"] == 2
    again = run("playtest", "classic", "--games", "6", "--agents", "random", "--workers", "2",
                "--skill", "greedy,random", "--skill-games", "2", "--seed", "5", "--json")
    assert json.loads(again.output) == data     # same seed, other worker count: same report


def test_playtest_table_and_records(run, tmp_path):
    r = run("playtest", "classic", "president", "--games", "4", *FAST, "--records",
            str(tmp_path / "games"))
    assert r.exit_code == 0, r.output
    assert r.output.count("first-player win rate") == 2
    assert "classic: variant classic, agents random,random, 4 games, seed 0" in r.output
    files = sorted((tmp_path / "games").iterdir())
    assert [f.name for f in files][:2] == ["classic-game00000.json", "classic-game00001.json"]
    assert len(files) == 8
    record = KiwaraRecord.from_dict(json.loads(files[5].read_text()))
    assert record.replay().is_terminal()


def test_compare_two_variants_on_the_same_seeds(run):
    r = run("compare", "--variant", "classic", "--variant", "totem_1_2", "--games", "6",
            "--agents", "random", "--workers", "1", "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["variants"] == ["classic", "totem_1_2"]
    assert "McNemar" in data["first_player_win_rate_test"]["test"]
    assert 0 <= data["first_player_win_rate_test"]["p_value"] <= 1
    text = run("compare", "--variant", "classic", "--variant", "classic", "--games", "4",
               "--agents", "random", "--workers", "1")
    # the same rules on the same seeds: identical games, no difference at all
    assert "first-player win rate classic - classic: +0.000" in text.output
    assert "p = 1 " in text.output


def test_sweep_rank_export_and_report(run, tmp_path):
    shortlist = tmp_path / "shortlist.txt"
    shortlist.write_text("\n".join(load_layout("classic").rows) + "\n\n" +
                         "\n".join(load_layout("president").rows) + "\n")
    db = str(tmp_path / "r.sqlite")
    r = run("sweep", "--from", str(shortlist), "--db", db, "--games", "4", *FAST)
    assert r.exit_code == 0, r.output
    assert "2 layouts, 8 games wanted: 0 already stored, 8 played, 8 stored" in r.output
    assert "s choosing the layouts" in r.output
    again = run("sweep", "--from", str(shortlist), "--db", db, "--games", "4", *FAST, "--json")
    assert json.loads(again.output)["games_played"] == 0
    assert json.loads(again.output)["choosing_seconds"] >= 0
    ranked = run("rank", "--db", db, "--json", "--export", str(tmp_path / "best"))
    assert ranked.exit_code == 0, ranked.output
    rows = json.loads(ranked.stdout)["ranking"]
    assert [r["rank"] for r in rows] == [1, 2] and rows[0]["score"] >= rows[1]["score"]
    assert rows[0]["tied_with_best"] is True and isinstance(rows[1]["tied_with_best"], bool)
    group = json.loads(ranked.stdout)["tie_group"]
    assert group["metric"] == "balance" and group["of"] == 2
    assert group["size"] == sum(r["tied_with_best"] for r in rows)
    first = rows[0]["interval"]
    assert first["metric"] == "balance" and first["low"] <= first["value"] <= first["high"]
    assert {tuple(r["rows"]) for r in rows} == {load_layout("classic").canonical_game().rows,
                                                load_layout("president").canonical_game().rows}
    assert len(list((tmp_path / "best").glob("*.txt"))) == 2
    # and a printable board per layout: an A4 sheet in mm, the classic-size board at its 25 mm
    # default cell (see test_svg_board), every river once on its cut edge
    for row in rows:
        (board,) = (tmp_path / "best").glob(f"rank{row['rank']:02d}-layout{row['layout_id']}.svg")
        root = parse(board.read_text())
        assert size_mm(root) == (297, 210)
        drawn = rivers_drawn(board_group(root))
        assert len(drawn) == len(set(drawn)) and set(drawn) == expected_rivers(row["rows"], 25)
    letter = run("rank", "--db", db, "--top", "1", "--export", str(tmp_path / "letter"),
                 "--paper", "letter")
    assert letter.exit_code == 0, letter.output
    assert "2 files written" in letter.output
    (board,) = (tmp_path / "letter").glob("rank01-*.svg")
    root = parse(board.read_text())
    assert size_mm(root) == (279.4, 215.9)
    table = run("rank", "--db", db, "--by", "lead_changes", "--top", "1")
    lines = table.output.strip().splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("rank "))
    # the one row shown, the tie group's line and what the intervals are
    assert table.exit_code == 0 and len(lines) - head == 4
    assert lines[head + 1].split()[1] == "=" and "cannot be told from the best" in lines[-2] \
        or "told apart from the other" in lines[-2]
    assert lines[-1].startswith("intervals: 95 %")
    # led by whether the two layouts differ at all on the ranking metric and the first-player
    # rate, each line's verdict agreeing with its p-value
    assert [line.split(" (")[0].rsplit(" on ", 1)[1] for line in lines[:2]] == [
        "lead_changes", "first_player_win_rate"]
    tested = json.loads(run("rank", "--db", db, "--by", "lead_changes", "--json").stdout)
    for line, name in zip(lines, ("lead_changes", "first_player_win_rate")):
        p = tested["homogeneity"][name]["p_value"]
        assert ("differ on" in line) == (p < 0.05) and ("cannot be told apart" in line) == (
            p >= 0.05)
    out = tmp_path / "report.html"
    rep = run("report", "--db", db, "-o", str(out))
    assert rep.exit_code == 0, rep.output
    page = out.read_text()
    assert page.startswith("<!DOCTYPE html>")
    assert "http://" not in page and "https://" not in page


@pytest.mark.parametrize("args, message", [
    (["playtest", "no-such-board.txt"], "no-such-board.txt"),
    (["playtest", "classic", "--agents", "bogus"], "unknown agent"),
    (["playtest", "classic", "--variant", "no-such-variant"], "no-such-variant"),
    (["compare", "--variant", "classic"], "exactly twice"),
    (["sweep", "--db", "x.sqlite"], "exactly one of"),
    (["rank", "--db", "missing.sqlite"], "no such results database"),
    (["rank", "--db", "missing.sqlite", "--export", "d", "--paper", "a5"], "unknown paper 'a5'"),
    (["rank", "--db", "missing.sqlite", "--paper", "letter"], "--paper only applies with --export"),
])
def test_user_errors_are_one_line_and_exit_2(run, args, message, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = run(*args)
    assert r.exit_code == 2
    assert message in r.output
    assert "Traceback" not in r.output


def test_sweep_through_a_dask_scheduler_address(run, tmp_path):
    distributed = pytest.importorskip("dask.distributed")
    shortlist = tmp_path / "one.txt"
    shortlist.write_text("\n".join(load_layout("president").rows) + "\n")
    db = str(tmp_path / "dask.sqlite")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster:
        r = run("sweep", "--from", str(shortlist), "--db", db, "--games", "6", "--agents",
                "random", "--skill-games", "0", "--scheduler", cluster.scheduler_address, "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["games_stored"] == 6 and data["database"]["games"] == 6
    # the same games as a local sweep with the same seed
    local = str(tmp_path / "local.sqlite")
    run("sweep", "--from", str(shortlist), "--db", local, "--games", "6", *FAST)
    from kiwara_designer.lab import Pairing, Store
    from kiwara_designer.games.kiwara import KiwaraVariant
    games = []
    for path in (db, local):
        with Store(path) as store:
            exp = store.experiment(load_layout("president").canonical_game(), KiwaraVariant(),
                                   Pairing("random", "random"))
            games.append(store.games(exp))
    assert games[0] == games[1] and len(games[0]) == 6


@pytest.mark.parametrize("command, pairing", [
    (("playtest", "classic"), "mcts:200,mcts:200"),        # Kiwara: the skill study's choice
    (("awimbawe", "playtest"), "greedy,greedy"),           # a game without its own: greedy
])
def test_the_default_pairing_is_the_games_own(run, command, pairing):
    r = run(*command, "--games", "2", "--skill-games", "0", "-j", "1", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["agents"] == pairing
    help_text = " ".join(run(*command, "--help").output.split())
    assert f"[default: {pairing}]" in help_text


def test_the_library_plays_the_games_default_pairing_when_none_is_given():
    from kiwara_designer.lab import PlaySettings
    classic = load_layout("classic")
    assert play_games(classic, games=2, seed=4, workers=1) == play_games(
        classic, None, "mcts:200,mcts:200", games=2, seed=4, workers=1)
    assert PlaySettings().pairing is None
    assert str(PlaySettings().for_game(get_game("kiwara")).pairing) == "mcts:200,mcts:200"
