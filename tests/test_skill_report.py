"""Balance against skill in the report (issue 25): levels pooled over the setups, ordered by the
Elo of the games between them when the store holds them, by name otherwise."""
from __future__ import annotations

import math

import pytest

from kiwara_designer.games.kiwara import load_layout
from kiwara_designer.lab.skill import skill_curves
from kiwara_designer.lab.store import RankedExperiment


def row(i, agents, setup, wins, n, variant="classic", a_wins=None):
    metrics = {"first_player_win_rate": {"successes": wins, "trials": n}}
    if a_wins is not None:
        metrics["agent_a_win_rate"] = {"successes": a_wins, "trials": n}
    return RankedExperiment(i, "kiwara", setup, {}, variant, agents, n, 0.5, {}, metrics)


SELF_PLAY = [row(1, "random,random", "s1", 50, 100), row(2, "random,random", "s2", 30, 100),
             row(3, "greedy,greedy", "s1", 45, 100), row(4, "greedy,greedy", "s2", 47, 100),
             row(5, "mcts:9,mcts:9", "s1", 60, 100), row(6, "mcts:9,mcts:9", "s2", 58, 100)]


def test_levels_are_pooled_over_the_setups_and_ordered_by_name_without_games_between():
    curve, = skill_curves(SELF_PLAY)
    assert not curve.rated and [level.agent for level in curve.levels] == [
        "greedy", "mcts:9", "random"]
    random_level = curve.levels[2]
    assert (random_level.first_player.successes, random_level.first_player.trials) == (80, 200)
    assert sorted(random_level.setups) == [("s1", 0.5, 100), ("s2", 0.3, 100)]
    assert random_level.elo is None


def test_games_between_the_levels_order_them_by_elo():
    # random loses to greedy 10-90 and to mcts 5-95; greedy loses to mcts 30-70: the order is
    # random, greedy, mcts whatever the names say
    between = [row(7, "greedy,random", "s1", 50, 100, a_wins=90),
               row(8, "mcts:9,random", "s1", 50, 100, a_wins=95),
               row(9, "greedy,mcts:9", "s1", 50, 100, a_wins=30)]
    curve, = skill_curves(SELF_PLAY + between)
    assert curve.rated and [level.agent for level in curve.levels] == [
        "random", "greedy", "mcts:9"]
    elos = [level.elo for level in curve.levels]
    assert elos[0] < elos[1] < elos[2] and sum(elos) == pytest.approx(0, abs=1e-6)


def test_a_level_not_linked_to_the_others_leaves_them_unrated():
    between = [row(7, "greedy,random", "s1", 50, 100, a_wins=90)]      # mcts:9 plays no one
    curve, = skill_curves(SELF_PLAY + between)
    assert not curve.rated and all(level.elo is None for level in curve.levels)


def test_each_levels_test_is_holm_adjusted_over_the_levels():
    curve, = skill_curves(SELF_PLAY)
    # random's 50/100 against 30/100, by hand: pooled 0.4, so 40 wins and 60 losses expected
    # of each; Pearson chi2 = 2·(10²/40 + 10²/60) = 25/3
    random_test = curve.levels[2].homogeneity
    assert random_test.statistic == pytest.approx(25 / 3)
    p = math.erfc(math.sqrt(25 / 3 / 2))                   # chi2 on 1 df
    assert random_test.p_value == pytest.approx(p)
    assert random_test.p_adjusted == pytest.approx(min(1.0, 3 * p))   # the smallest of three


def test_one_level_or_other_variants_make_no_curve():
    assert skill_curves(SELF_PLAY[:2]) == []
    other = [row(10, "greedy,greedy", "s1", 40, 100, variant="totem_1_2")]
    curves = skill_curves(SELF_PLAY + other)
    assert [c.variant for c in curves] == ["classic"]


def test_the_report_draws_balance_against_skill_after_a_ladder(run, tmp_path):
    db = tmp_path / "ladder.sqlite"
    assert run("ladder", "classic", "--agents", "random,greedy", "--games", "4", "--seed", "1",
               "-j", "1", "--db", db).exit_code == 0
    page = tmp_path / "report.html"
    assert run("report", "--db", db, "-o", page).exit_code == 0
    html = page.read_text("utf-8")
    section = html[html.index("kiwara: balance against skill (classic)"):]
    assert "Levels ordered by Elo" in section and "<svg" in section
    assert section.index("<td>random</td>") < section.index("<td>greedy</td>")   # by Elo
    sweep = tmp_path / "sweep.sqlite"
    assert run("sweep", "--from", "-", "--db", sweep, "--agents", "random", "--games", "2",
               "--skill-games", "0", "-j", "1",
               input="\n".join(load_layout("classic").rows) + "\n").exit_code == 0
    assert run("report", "--db", sweep, "-o", page).exit_code == 0
    assert "balance against skill" not in page.read_text("utf-8")       # one level: no chart
