"""Intervals in rank's table and the leading tie group (issue 24 item 4), on small cases checked
by hand."""
from __future__ import annotations

import pytest

from kiwara_designer.core.stats import proportion, summarise
from kiwara_designer.lab.store import RankedExperiment
from kiwara_designer.lab.text import format_ranking
from kiwara_designer.lab.ties import interval_of, number_text, tie_group, welch_p


def _row(i: int, metrics: dict, score: float = 0.5, games: int = 40) -> RankedExperiment:
    values = {name: m.get("value", m.get("mean")) for name, m in metrics.items()}
    return RankedExperiment(i, "nogame", f"setup {i}", {}, "classic", "greedy,greedy", games,
                            score, values, metrics)


def _rate(x: float, n: int) -> dict:
    return proportion(x, n).to_json()


def test_rates_are_compared_with_the_best_by_holm_adjusted_z_tests():
    # 30/40 best; 28/40: z = 0.50, p = 0.617; 20/40: z = 2.31, p = 0.021; 15/40: z = 3.38,
    # p = 0.0007. Holm over 3: 0.0022, 0.042, 0.617 -> only 28/40 is tied with the best.
    rows = [_row(i, {"first_player_win_rate": _rate(x, 40)}) for i, x in
            enumerate((30, 28, 20, 15), start=1)]
    group = tie_group(rows, "first_player_win_rate")
    assert group.tied == (True, True, False, False)
    assert group.p_adjusted[1:] == pytest.approx((0.617, 0.0418, 0.0022), abs=2e-3)
    assert "Holm" in group.method and group.size == 2
    # the Wilson intervals of 30/40 and 20/40 overlap: the test separates what overlap cannot
    best, third = proportion(30, 40), proportion(20, 40)
    assert third.high > best.low


def test_means_are_compared_with_the_best_by_welch_t_tests():
    # mean 10 vs 9 (sd 2, n 20 each): t = 1.58 on 38 df, p = 0.12; vs 8: t = 3.16, p = 0.003;
    # Holm: 0.006 and 0.12 -> the 9 is tied, the 8 is not
    def mean(m: float) -> dict:
        return {"mean": m, "std": 2.0, "n": 20, "low": m - 0.94, "high": m + 0.94}
    rows = [_row(i, {"decisiveness": mean(m)}) for i, m in enumerate((10, 9, 8), start=1)]
    assert welch_p(mean(10), mean(9)) == pytest.approx(0.122, abs=2e-3)
    group = tie_group(rows, "decisiveness")
    assert group.tied == (True, True, False) and "Welch" in group.method


def test_the_score_is_grouped_on_balance_by_overlapping_intervals():
    def balance(v: float, low: float, high: float) -> dict:
        return {"value": v, "low": low, "high": high}
    rows = [_row(1, {"balance": balance(0.9, 0.6, 1.0)}, 0.9),
            _row(2, {"balance": balance(0.7, 0.55, 0.9)}, 0.8),
            _row(3, {"balance": balance(0.3, 0.2, 0.5)}, 0.7)]
    group = tie_group(rows, "score")
    assert group.metric == "balance" and group.tied == (True, True, False)
    assert "point summary" in group.method and "not a test" in group.method
    assert interval_of(rows[0], "score") == (0.9, None, None)


def test_ranking_text_shows_intervals_and_marks_the_tie_group():
    rows = [_row(i, {"first_player_win_rate": _rate(x, 40)}, 0.5) for i, x in
            enumerate((30, 28, 20, 15), start=1)]
    text = format_ranking(rows, "first_player_win_rate").splitlines()
    assert text[0].startswith("rank = ")
    assert [line.split()[1] for line in text[1:5]] == ["=", "=", "0.500", "0.500"]
    assert "0.750 [0.60, 0.86]" in text[1]            # Wilson interval of 30/40
    assert text[5].startswith("2 of 4 experiments cannot be told from the best on "
                              "first_player_win_rate")
    assert "score is a point summary" in text[6]


def test_number_text():
    s = summarise([14.0, 15.0, 16.0, 15.5])
    assert number_text(0.5123, 0.4712, 0.5534) == "0.512 [0.47, 0.55]"
    assert number_text(s.mean, s.low, s.high) == "15.1 [13.8, 16.5]"   # 15.125 ± 3.182 × 0.854 / 2
    assert number_text(0.8, None, None) == "0.800" and number_text(None) == "n/a"


def test_a_games_derived_metric_gets_the_image_of_its_rates_interval():
    """Awimbawé's round-1 leader balance is a function of a stored rate: its interval is the
    rate's Wilson interval mapped through it (1 at the top when the rate's covers ½)."""
    from kiwara_designer.lab.ties import interval_of
    rate = _rate(30, 40)                                    # 0.750 [0.598, 0.858]
    r = RankedExperiment(1, "awimbawe", "deals", {}, "classic", "random,random", 40, 0.5,
                         {"round1_leader_balance": 0.5}, {"round1_leader_match_win_rate": rate})
    value, low, high = interval_of(r, "round1_leader_balance")
    assert value == 0.5
    assert low == pytest.approx(1 - 2 * (rate["high"] - 0.5), abs=1e-6)
    assert high == pytest.approx(1 - 2 * (rate["low"] - 0.5), abs=1e-2)


def test_unmeasured_rows_are_left_out_of_the_group():
    rows = [_row(1, {"skill_gap": _rate(9, 10)}), _row(2, {"skill_gap": _rate(8, 10)}),
            RankedExperiment(3, "nogame", "setup 3", {}, "classic", "greedy,greedy", 40, 0.5,
                             {"skill_gap": None}, {"skill_gap": None})]
    group = tie_group(rows, "skill_gap")
    assert group.tied == (True, True) and "z tests" in group.method


def test_rates_of_a_race_are_drawn_at_their_game_counts():
    from kiwara_designer.lab.report import funnel_svg
    svg = funnel_svg([(32, 0.6, 0.42, 0.76), (2324, 0.5, 0.48, 0.52)], "first-player win rate")
    assert svg.count("<circle") == 2 and "2,324 games" in svg and "32 games" in svg
    assert "games played (log scale)" in svg
