"""The Awimbawé play-test lab: each round's facts from its history (powers, fled eagles and
what fighting would have changed), the metrics over matches, and the playtest and compare
commands."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kiwara_designer.games.awimbawe.metrics import METRICS, round_facts
from kiwara_designer.games.awimbawe.state import RoundResult
from kiwara_designer.games.awimbawe.variant import AwimbaweVariant
from kiwara_designer.lab import play_games

sys.path.insert(0, str(Path(__file__).parent))

CROWNS = AwimbaweVariant().card_crowns


def a_round(moves, crowns, winner, by_hyenas=False):
    events = (("l", 0),) + tuple(("m", seat, text) for seat, text in moves)
    return RoundResult((), 0, events, winner, crowns, (0, 0), by_hyenas, len(moves) // 2)


# player 0 leads the mouse G1 (3 crowns); player 1's eagle flees; then a rhinoceros with its
# power, a bare cheetah, a snake blocking blind, and a fight
TRICKS = [(0, "G1"), (1, "E7:flee"), (0, "D2:3>1"), (1, "D3"), (1, "M5:h=G4"), (0, "M6"),
          (0, "P1"), (1, "E8:fight")]


def test_round_facts_count_powers_and_flees():
    facts = round_facts(a_round(TRICKS, (20, 25), 1), CROWNS)
    assert facts["played"] == {"rhinoceros": 1, "cheetah": 1, "snake": 1}
    assert facts["used"] == {"rhinoceros": 1, "cheetah": 0, "snake": 1}
    assert (facts["eagle_choices"], facts["flees"]) == (2, 1)


def test_a_fled_eagle_changes_the_winner_only_when_the_led_crowns_swing_it():
    # fighting would have moved the mouse's 3 crowns from player 0 to player 1
    assert round_facts(a_round(TRICKS, (20, 25), 1), CROWNS)["flee_changed_winner"] is False
    assert round_facts(a_round(TRICKS, (24, 21), 0), CROWNS)["flee_changed_winner"] is True
    # 22 - 3 = 19 against 20 + 3 = 23
    assert round_facts(a_round(TRICKS, (22, 20), 0), CROWNS)["flee_changed_winner"] is True
    # rounds ended by hyenas and rounds without a flee are not judged
    assert round_facts(a_round(TRICKS, (24, 21), 0, True), CROWNS)["flee_changed_winner"] is None
    assert round_facts(a_round(TRICKS[2:], (24, 21), 0), CROWNS)["flee_changed_winner"] is None


def test_metrics_over_matches_agree_with_the_rounds():
    from kiwara_designer.core.game import get_game
    game = get_game("awimbawe")
    games = play_games(None, None, "greedy,random", 12, 3, 1, game)
    values = {m.name: m.compute(games, None) for m in METRICS}
    rounds = [r for g in games for r in g.stats["round_facts"]]
    assert values["first_seat_round_win_rate"].trials == len(rounds) >= 2 * len(games)
    assert values["first_seat_round_win_rate"].successes == sum(r["winner"] == 0 for r in rounds)
    assert values["round1_leader_match_win_rate"].trials == 12
    assert values["hyena_round_rate"].successes == sum(r["by_hyenas"] for r in rounds)
    for g in games:                 # the match winner won the last round, and enough rounds
        facts = g.stats["round_facts"]
        assert facts[-1]["winner"] == g.winner
        assert sum(r["winner"] == g.winner for r in facts) == 2
        assert all(r["tricks"] <= 14 for r in facts)


def test_playtest_and_compare_commands(run):
    result = run("awimbawe", "playtest", "--games", "6", "--skill-games", "2", "-j", "1",
                 "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["games"] == 6 and out["metrics"]["skill_gap"]["trials"] == 2
    for name in ("round1_leader_match_win_rate", "hyena_round_rate", "flee_changes_winner_rate",
                 "snake_power_rate", "crowns_margin", "lead_changes"):
        assert name in out["metrics"], name
    text = run("awimbawe", "playtest", "--games", "4", "--skill-games", "0", "-j", "1")
    assert text.exit_code == 0 and "round-1 leader match win" in text.stdout
    compared = run("awimbawe", "compare", "--variant", "classic", "--variant", "gamepark",
                   "--games", "4", "-j", "1")
    assert compared.exit_code == 0, compared.output
    assert "McNemar" in compared.stdout and "gamepark" in compared.stdout
    bad = run("awimbawe", "compare", "--variant", "classic", "--games", "4")
    assert bad.exit_code == 2 and "exactly twice" in bad.output
    missing = run("awimbawe", "playtest", "--variant", "nowhere.toml", "--games", "2")
    assert missing.exit_code == 2 and "Traceback" not in missing.output


def test_the_lab_takes_the_cheat_as_a_strength_reference(run):
    """cheat-ismcts (the same search seeing every card) plays in the lab, under its own name."""
    result = run("awimbawe", "playtest", "--agents", "cheat-ismcts:4,ismcts:4", "--games", "2",
                 "--skill", "cheat-ismcts:3,random", "--skill-games", "1", "-j", "1", "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["agents"] == "cheat-ismcts:4,ismcts:4" and out["games"] == 2
    assert out["skill_agents"] == "cheat-ismcts:3,random"


# -- kiwara awimbawe sweep --------------------------------------------------------------------
SWEEP = ("awimbawe", "sweep", "--set", "hyenas_to_lose=3,4", "--set", "eagle_may_flee=true,false",
         "--agents", "random", "--skill-games", "0")


def test_sweep_plays_every_combination_once_and_ranks_them(run, tmp_path):
    from kiwara_designer.core.game import get_game
    from kiwara_designer.lab import Pairing, Store
    db = tmp_path / "awi.sqlite"
    first = run(*SWEEP, "--games", "4", "-j", "1", "--db", db)
    assert first.exit_code == 0, first.output
    lines = first.stdout.splitlines()
    assert lines[0].startswith("4 variants, 16 matches wanted: 0 already stored, 16 played, "
                               "16 stored")
    # the homogeneity lines (does the headline metric vary between the variants at all?)
    head = next(i for i, line in enumerate(lines) if line.startswith("rank "))
    assert any("round1_leader_balance (chi2 = " in line for line in lines[1:head])
    assert "round1_leader_balance" in lines[head]
    # (after the rates' intervals, "0.500 [0.15, 0.85]", the game's name and setup)
    assert sorted(line.split("awimbawe: ", 1)[1].split(", ", 2)[2]
                  for line in lines[head + 1:head + 5]) == [
        "eagle_may_flee=false", "eagle_may_flee=false hyenas_to_lose=3",
        "hyenas_to_lose=3", "the game's defaults"]
    again = run(*SWEEP, "--games", "6", "-j", "2", "--db", db, "--json")
    assert again.exit_code == 0, again.output
    out = json.loads(again.stdout)
    assert (out["variants"], out["games_already_stored"], out["games_stored"]) == (4, 16, 8)
    assert [r["rank"] for r in out["ranked"]] == [1, 2, 3, 4]
    balances = [r["values"]["round1_leader_balance"] for r in out["ranked"]]
    assert balances == sorted(balances, reverse=True)
    game = get_game("awimbawe")
    with Store(db) as store:
        assert store.totals()["duplicates"] == 0
        for entry in out["ranked"]:
            variant = AwimbaweVariant.from_dict(entry["rules"])
            exp = store.experiment(None, variant, Pairing("random", "random"), game)
            # exactly the seeded matches, whatever the worker count of each run
            assert store.games(exp) == play_games(None, variant, "random", 6, 0, 1, game)
    ranked = run("rank", "--db", db, "--game", "awimbawe", "--by", "round1_leader_balance")
    assert ranked.exit_code == 0 and ranked.stdout.count("awimbawe: deals, random,random") == 4
    report = run("report", "--db", db, "-o", "-")
    assert report.exit_code == 0 and "awimbawe: top 4 of 4 experiments" in report.stdout


@pytest.mark.parametrize("settings, message", [
    (("hyena=3",), "--set hyena: unknown key 'hyena'"),
    (("hyenas_to_lose=0,3",), "--set hyenas_to_lose=0: key 'hyenas_to_lose': must be between"),
    (("hyenas_to_lose=",), "--set hyenas_to_lose: no values"),
    (("hyenas_to_lose=3,,4",), "--set hyenas_to_lose: an empty value"),
    (("hyenas_to_lose",), "--set hyenas_to_lose: write KEY=VALUE"),
    (("eagle_may_flee=yes",), "--set eagle_may_flee=yes: key 'eagle_may_flee': must be true"),
    (("hyenas_to_lose=3", "hyenas_to_lose=4"), "--set hyenas_to_lose: given twice"),
    (("hyenas_to_lose=3,3",), "--set hyenas_to_lose: the value 3 is given twice"),
    (("name=a,b",), "--set name: a variant's name is not one of its rules"),
])
def test_a_bad_setting_is_a_one_line_error_naming_its_key(run, tmp_path, settings, message):
    db = tmp_path / "never.sqlite"
    result = run("awimbawe", "sweep", *[a for s in settings for a in ("--set", s)], "--db", db)
    assert result.exit_code == 2
    assert result.stderr.startswith(f"kiwara: error: {message}"), result.stderr
    assert len(result.stderr.splitlines()) == 1 and not db.exists()


def test_variant_grid_varies_the_first_setting_slowest_from_the_base_variant():
    from kiwara_designer.lab.sweep import variant_grid
    base = AwimbaweVariant.load("gamepark")
    grid = variant_grid(base, {"hyenas_to_lose": [3, 4], "eagle_may_flee": [True, False]})
    assert [(v.hyenas_to_lose, v.eagle_may_flee) for v in grid] == [
        (3, True), (3, False), (4, True), (4, False)]
    assert all(v.cheetah_may_pass == base.cheetah_may_pass for v in grid)
    assert grid[1].name == "gamepark:hyenas_to_lose=3,eagle_may_flee=false"


KILLED_SWEEP = ("awimbawe", "sweep", "--set", "hyenas_to_lose=3,4", "--set",
                "eagle_may_flee=true,false", "--agents", "random", "--skill-games", "0",
                "--games", "150", "-j", "2", "--seed", "4")


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
def test_a_sweep_killed_with_sigkill_resumes_to_exactly_every_match(tmp_path):
    from test_playtest_store import children_of, stored_games, wait_gone
    from kiwara_designer.core.game import get_game
    from kiwara_designer.lab import Pairing, Store
    db, total = tmp_path / "killed.sqlite", 4 * 150
    command = [sys.executable, "-m", "kiwara_designer.cli", *KILLED_SWEEP, "--db", str(db)]
    for kill_after, whole_group in ((20, False), (120, True)):
        proc = subprocess.Popen(command, start_new_session=True, stdout=subprocess.DEVNULL)
        deadline = time.time() + 300        # a loaded machine may take long to start Python
        while stored_games(db) < kill_after and time.time() < deadline and proc.poll() is None:
            time.sleep(0.02)
        assert proc.poll() is None, "the sweep finished before it could be killed"
        workers = children_of(proc.pid)
        if whole_group:
            os.killpg(proc.pid, signal.SIGKILL)
        else:
            os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        assert kill_after <= stored_games(db) < total
        assert wait_gone(workers, 30.0), "orphan workers kept running"
    finished = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert finished.returncode == 0, finished.stderr
    played = int(finished.stdout.split(" already stored, ")[1].split(" played")[0])
    assert 0 < played < total
    game = get_game("awimbawe")
    with Store(db) as store:
        assert store.integrity_ok() and store.totals()["duplicates"] == 0
        assert store.totals()["games"] == total
        variant = AwimbaweVariant(hyenas_to_lose=3, eagle_may_flee=False)
        exp = store.experiment(None, variant, Pairing("random", "random"), game)
        assert store.games(exp) == play_games(None, variant, "random", 150, 4, 1, game)


# -- kiwara awimbawe playtest --scheduler ------------------------------------------------------
def test_playtest_on_a_dask_cluster_gives_the_local_results(run):
    distributed = pytest.importorskip("dask.distributed")
    local = run("awimbawe", "playtest", "--games", "8", "--skill-games", "2", "-j", "1",
                "--json")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster:
        remote = run("awimbawe", "playtest", "--games", "8", "--skill-games", "2",
                     "--scheduler", cluster.scheduler_address, "--json")
    assert remote.exit_code == 0, remote.output
    assert json.loads(remote.stdout) == json.loads(local.stdout)


def test_an_unreachable_scheduler_is_a_one_line_error(run):
    pytest.importorskip("dask.distributed")
    result = run("awimbawe", "playtest", "--games", "2", "--scheduler", "not-an-address")
    assert result.exit_code == 2 and "cannot reach the Dask scheduler" in result.stderr
    assert len(result.stderr.splitlines()) == 1
