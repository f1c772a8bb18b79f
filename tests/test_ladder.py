"""The ladder (issue 25 item 2): the Bradley-Terry fit against hand-computed cases, and
``kiwara ladder`` / ``kiwara awimbawe ladder`` end to end on tiny game counts."""
from __future__ import annotations

import json
import math

import pytest

from kiwara_designer.lab.ladder import ELO, bradley_terry


def test_two_agents_mle_is_the_log_odds_of_the_win_share():
    # 14 wins, 2 draws, 4 losses: share p = 15/20
    fit = bradley_terry(["a", "b"], {("a", "b"): (15.0, 20)})
    a, b = fit.ratings
    assert not fit.prior
    assert a.elo - b.elo == pytest.approx(400 * math.log10(0.75 / 0.25), abs=1e-6)
    assert a.elo + b.elo == pytest.approx(0, abs=1e-9)            # anchored: mean 0
    # Fisher information: var(θa − θb) = 1 / (n p (1 − p)); each mean-zero rating has half
    se_difference = ELO / math.sqrt(20 * 0.75 * 0.25)
    assert a.se == pytest.approx(se_difference / 2, rel=1e-6)
    assert a.low == pytest.approx(a.elo - 1.959963984540054 * a.se)
    assert (a.games, a.score, b.score) == (20, 15.0, 5.0)


def test_pairs_given_both_ways_add_up():
    fit = bradley_terry(["a", "b"], {("a", "b"): (6.0, 10), ("b", "a"): (1.0, 10)})
    a, b = fit.ratings
    assert a.elo - b.elo == pytest.approx(400 * math.log10(15 / 5), abs=1e-6)


def _newton(k, wins, games):
    """An independent solve: θ0 fixed at 0, Newton on the others' score equations."""
    theta = [0.0] * k
    for _ in range(100):
        grad, hess = [0.0] * k, [[0.0] * k for _ in range(k)]
        for (i, j), n in games.items():
            p = 1 / (1 + math.exp(theta[j] - theta[i]))
            grad[i] += wins[i, j] - n * p
            hess[i][i] -= n * p * (1 - p)
            hess[i][j] += n * p * (1 - p)
        # solve the (k-1) x (k-1) system for the free parameters 1..k-1 (Cramer for k = 3)
        (a, b), (c, d) = [[hess[r][s] for s in (1, 2)] for r in (1, 2)]
        det = a * d - b * c
        step1 = (grad[1] * d - b * grad[2]) / det
        step2 = (a * grad[2] - c * grad[1]) / det
        theta[1] -= step1
        theta[2] -= step2
    return theta


def test_three_agents_against_an_independent_newton_solve():
    results = {("a", "b"): (7.0, 10), ("a", "c"): (8.5, 10), ("b", "c"): (4.0, 10)}
    fit = bradley_terry(["a", "b", "c"], results)
    index = {"a": 0, "b": 1, "c": 2}
    wins, games = {}, {}
    for (x, y), (s, n) in results.items():
        i, j = index[x], index[y]
        wins[i, j], wins[j, i] = s, n - s
        games[i, j] = games[j, i] = n
    theta = _newton(3, wins, games)
    elo = [r.elo for r in fit.ratings]
    for i in (1, 2):
        assert elo[i] - elo[0] == pytest.approx(ELO * theta[i], abs=1e-6)
    # stationarity: each agent's expected score equals its observed score
    for i in range(3):
        expected = sum(n / (1 + 10 ** ((elo[j] - elo[i]) / 400))
                       for (x, j), n in games.items() if x == i)
        assert expected == pytest.approx(sum(w for (x, _), w in wins.items() if x == i),
                                         abs=1e-6)
    assert sum(elo) == pytest.approx(0, abs=1e-9)


def test_a_clean_sweep_gets_the_virtual_draw_and_stays_finite():
    fit = bradley_terry(["a", "b"], {("a", "b"): (10.0, 10)})
    assert fit.prior
    a, b = fit.ratings
    assert a.elo - b.elo == pytest.approx(400 * math.log10(10.5 / 0.5), abs=1e-6)


def test_ladder_rates_greedy_above_random_and_gives_the_json_fields(run):
    result = run("ladder", "classic", "twin-nines", "--agents", "random,greedy", "--games", "6",
                 "--seed", "1", "-j", "1", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["elo"]["greedy"]["elo"] > data["elo"]["random"]["elo"]
    for agent in ("random", "greedy"):
        elo = data["elo"][agent]
        assert elo["low"] < elo["elo"] < elo["high"] and elo["games"] == 12
        assert [s["setup"] for s in data["self_play"][agent]] == ["classic", "twin-nines"]
        row = data["self_play"][agent][0]
        assert row["games"] == 6 and row["low"] <= row["first_player_win_rate"] <= row["high"]
        assert set(row["margin"]) >= {"mean", "low", "high"}
        h = data["homogeneity"][agent]["first_player_win_rate"]
        assert h["setups"] == 2 and h["df"] == 1 and 0 <= h["p_value"] <= 1
    assert data["elo_fit"]["anchor"] == "mean 0"
    assert data["summary"]["games_wanted"] == 2 * 3 * 6


def test_ladder_text_lists_the_table_and_each_level(run):
    result = run("ladder", "--agents", "random,greedy", "--games", "4", "-j", "1")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Elo (Bradley-Terry, mean 0")
    assert "self-play random:" in lines and "self-play greedy:" in lines


def test_ladder_resumes_from_its_database(run, tmp_path):
    db = tmp_path / "ladder.sqlite"
    args = ("ladder", "classic", "--agents", "random,greedy", "--games", "4", "--seed", "2",
            "-j", "1", "--db", db, "--json")
    first = json.loads(run(*args).stdout)
    assert first["summary"]["games_played"] == 12
    second = json.loads(run(*args).stdout)
    assert second["summary"]["games_played"] == 0
    assert second["summary"]["games_already_stored"] == 12
    assert second["elo"] == first["elo"]


@pytest.mark.parametrize("agents, words", [
    ("random", "at least two agents"),
    ("random,nosuch", "unknown agent 'nosuch'"),
    ("greedy,greedy", "listed twice"),
])
def test_bad_agents_are_one_line(run, agents, words):
    result = run("ladder", "--agents", agents, "--games", "2", "-j", "1")
    assert result.exit_code == 2
    assert words in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_awimbawe_ladder_allows_the_cheating_reference(run):
    result = run("awimbawe", "ladder", "--agents", "random,greedy,cheat-ismcts:3", "--games",
                 "2", "-j", "1", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data["elo"]) == {"random", "greedy", "cheat-ismcts:3"}
    assert data["self_play"]["greedy"][0]["games"] == 2
    assert data["homogeneity"]["greedy"]["first_player_win_rate"]["p_value"] is None


def test_dask_plays_the_same_ladder(tmp_path):
    distributed = pytest.importorskip("dask.distributed")
    from kiwara_designer.games.kiwara import load_layout
    from kiwara_designer.lab.ladder import run_ladder
    setups = [("classic", load_layout("classic"))]
    local = run_ladder(setups, ["random", "greedy"], 4, seed=5, workers=1)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        remote = run_ladder(setups, ["random", "greedy"], 4, seed=5, scheduler=client)
    assert remote.pair_scores == local.pair_scores
    assert remote.fit.ratings == local.fit.ratings
    assert remote.summary.played == 12


def test_each_levels_homogeneity_is_holm_adjusted_over_the_levels(run):
    # Two levels tested together: the smaller p doubles, the larger is at least that (Holm).
    result = run("ladder", "classic", "twin-nines", "--agents", "random,greedy", "--games", "8",
                 "--seed", "3", "-j", "1", "--json")
    assert result.exit_code == 0, result.output
    tests = json.loads(result.stdout)["homogeneity"]
    p = {a: tests[a]["first_player_win_rate"]["p_value"] for a in ("random", "greedy")}
    low, high = sorted(p, key=p.get)
    assert tests[low]["first_player_win_rate"]["p_adjusted"] == pytest.approx(
        min(1.0, 2 * p[low]))
    assert tests[high]["first_player_win_rate"]["p_adjusted"] == pytest.approx(
        max(min(1.0, 2 * p[low]), p[high]))
    text = run("ladder", "classic", "twin-nines", "--agents", "random,greedy", "--games", "8",
               "--seed", "3", "-j", "1").stdout
    assert "(homogeneity p-values Holm-adjusted over the 2 levels tested)" in text
