"""Homogeneity of a metric between setups (core.stats): χ², F and τ against hand-worked values
and printed tables, and a null simulation on synthetic counts (no games played)."""
from __future__ import annotations

import math
import random

import pytest

from kiwara_designer.core.stats import (beta_inc, chi2_quantile, chi2_sf, dersimonian_laird,
                                        detectable_sd, f_quantile, f_sf, gamma_q,
                                        generalised_q, mean_homogeneity, q_profile_interval,
                                        rate_homogeneity)


@pytest.mark.parametrize("x, df, p", [
    (3.841458820694124, 1, 0.05),      # the 95 % quantiles of printed tables
    (5.991464547107979, 2, 0.05),
    (18.307038053275146, 10, 0.05),
    (6.634896601021214, 1, 0.01),
    (2.0, 2, math.exp(-1)),            # df 2: P(X ≥ x) = e^(−x/2), exactly
    (1.3, 2, math.exp(-0.65)),
    (124.342112587, 100, 0.05),
])
def test_chi2_survival_at_known_quantiles(x, df, p):
    assert chi2_sf(x, df) == pytest.approx(p, rel=1e-6)


def test_chi2_survival_of_one_df_is_the_normal_tail():
    for z in (0.3, 1.0, 1.96, 3.5):
        assert chi2_sf(z * z, 1) == pytest.approx(math.erfc(z / math.sqrt(2)), rel=1e-9)


def test_gamma_q_of_whole_a_is_a_poisson_tail():
    # Q(a, x) = Σ_{j < a} e^(−x) x^j / j! for whole a: both branches (x below and above a + 1)
    for a in (1, 3, 7, 20):
        for x in (0.5, 2.0, 6.0, 25.0):
            poisson = math.fsum(math.exp(-x) * x ** j / math.factorial(j) for j in range(a))
            assert gamma_q(a, x) == pytest.approx(poisson, rel=1e-10, abs=1e-300)


def test_the_issue_figures():
    # issue 24: 40 layouts χ² = 43.4 on 39 df, p = 0.29; 8 built-ins χ² = 6.0 on 7 df
    assert chi2_sf(43.4, 39) == pytest.approx(0.2893, abs=1e-4)
    assert chi2_sf(6.0, 7) == pytest.approx(0.5397, abs=1e-4)


@pytest.mark.parametrize("f, df1, df2, p", [
    (4.964602743730712, 1, 10, 0.05),   # printed F tables, 95 %
    (3.098391212407870, 3, 20, 0.05),
    (2.533554, 5, 30, 0.05),
    (10.044289273396, 1, 10, 0.01),
])
def test_f_survival_at_known_quantiles(f, df1, df2, p):
    assert f_sf(f, df1, df2) == pytest.approx(p, rel=1e-5)


def test_f_with_one_numerator_df_is_a_squared_t():
    # F(1, ν) = T², P(T² ≥ t²) = the two-sided t tail; df 2: P(|T| ≥ t) = 1 − t/√(2 + t²)
    for t in (0.5, 1.0, 2.5):
        assert f_sf(t * t, 1, 2) == pytest.approx(1 - t / math.sqrt(2 + t * t), rel=1e-10)


def test_incomplete_beta_closed_forms():
    for x in (0.1, 0.5, 0.93):
        assert beta_inc(1, 1, x) == pytest.approx(x)
        assert beta_inc(2, 1, x) == pytest.approx(x * x)
        assert beta_inc(1, 3, x) == pytest.approx(1 - (1 - x) ** 3)
        assert beta_inc(2.5, 4, x) + beta_inc(4, 2.5, 1 - x) == pytest.approx(1)


def test_quantiles_invert_the_survival_functions():
    assert chi2_quantile(0.95, 39) == pytest.approx(54.5722, abs=1e-3)
    assert chi2_quantile(0.025, 2) == pytest.approx(0.0506356, abs=1e-6)
    assert f_quantile(0.95, 3, 20) == pytest.approx(3.0984, abs=1e-4)


def test_rate_homogeneity_on_a_table_worked_by_hand():
    # 30/100, 50/100, 40/100: p̄ = 0.4, X² = (100 + 100 + 0) / (100 · 0.24) = 8.333 on 2 df,
    # p = e^(−8.333/2) = 0.01550
    h = rate_homogeneity([(30, 100), (50, 100), (40, 100)])
    assert (h.test, h.df, h.setups) == ("Pearson chi2", 2, 3)
    assert h.statistic == pytest.approx(25 / 3)
    assert h.p_value == pytest.approx(math.exp(-25 / 6))
    assert h.pooled == pytest.approx(0.4)
    # DL: w = 100/0.24 each, Σw − Σw²/Σw = 2w, τ² = (8.333 − 2) / (2 · 416.67) = 0.0076
    assert h.between_sd == pytest.approx(math.sqrt((25 / 3 - 2) / (2 * 100 / 0.24)))
    assert h.between_sd_low < h.between_sd < h.between_sd_high
    assert h.varies() is True


def test_rate_homogeneity_of_equal_rates_is_zero():
    h = rate_homogeneity([(10, 20), (20, 40), (0, 0), (5, 10)])
    assert (h.statistic, h.p_value, h.between_sd, h.setups) == (0.0, 1.0, 0.0, 3)
    assert h.varies() is False


def test_rate_homogeneity_with_nothing_to_compare():
    assert rate_homogeneity([(3, 10)]).p_value is None
    assert rate_homogeneity([]).varies() is None
    assert rate_homogeneity([(0, 10), (0, 30)]).p_value == 1.0


def test_anova_on_a_table_worked_by_hand():
    # means 1, 2, 3 of 10 values each, sd 1: SSB = 20, MSB = 10, MSW = 1, F = 10 on (2, 27);
    # τ² = (MSB − MSW)/n = 0.9
    h = mean_homogeneity([(10, 1.0, 1.0), (10, 2.0, 1.0), (10, 3.0, 1.0)])
    assert (h.test, h.df) == ("one-way ANOVA F", (2, 27))
    assert h.statistic == pytest.approx(10)
    assert h.p_value == pytest.approx(f_sf(10, 2, 27))
    assert h.p_value == pytest.approx(0.000562, abs=1e-6)
    assert h.between_sd == pytest.approx(math.sqrt(0.9))


def test_anova_matches_the_textbook_from_raw_values():
    groups = [[6, 8, 4, 5, 3, 4], [8, 12, 9, 11, 6, 8], [13, 9, 11, 8, 7, 12]]
    # the classic example: F = 9.3 on (2, 15)
    summaries = []
    for g in groups:
        m = sum(g) / len(g)
        summaries.append((len(g), m, math.sqrt(sum((v - m) ** 2 for v in g) / (len(g) - 1))))
    h = mean_homogeneity(summaries)
    assert h.statistic == pytest.approx(9.2647, abs=1e-4)
    assert h.p_value == pytest.approx(0.0024, abs=1e-4)


def test_anova_without_spread():
    assert mean_homogeneity([(5, 31.0, 0.0), (5, 31.0, 0.0)]).p_value == 1.0
    assert mean_homogeneity([(5, 31.0, 0.0), (5, 32.0, 0.0)]).p_value == 0.0
    assert mean_homogeneity([(1, 3.0, None), (1, 4.0, None)]).p_value is None


def test_dersimonian_laird_equals_the_anova_moments_unbalanced():
    sizes, means, msw = [5, 12, 30, 8], [1.0, 1.8, 1.2, 2.5], 2.0
    n, k = sum(sizes), len(sizes)
    grand = sum(s * m for s, m in zip(sizes, means)) / n
    msb = sum(s * (m - grand) ** 2 for s, m in zip(sizes, means)) / (k - 1)
    n0 = (n - sum(s * s for s in sizes) / n) / (k - 1)
    tau2 = dersimonian_laird(means, [msw / s for s in sizes])
    assert tau2 == pytest.approx((msb - msw) / n0)


def test_q_profile_ends_solve_the_profile_equation():
    values, variances = [0.30, 0.50, 0.40, 0.62, 0.45], [0.0024] * 5
    low, high = q_profile_interval(values, variances)
    assert generalised_q(values, variances, low) == pytest.approx(chi2_quantile(0.975, 4))
    assert generalised_q(values, variances, high) == pytest.approx(chi2_quantile(0.025, 4))
    assert low < dersimonian_laird(values, variances) < high


def test_detectable_sd_formula_and_power():
    # k = 40 setups of 4,000 games at p = ½: τ = ½ √((c₀.₉₅ / c₀.₂₀ − 1) / 4000)
    ratio = chi2_quantile(0.95, 39) / chi2_quantile(0.2, 39)
    assert detectable_sd(0.25, [4000] * 40) == pytest.approx(0.5 * math.sqrt((ratio - 1) / 4000))
    # simulated: setups with true rates spread by that sd are flagged about 80 % of the time
    rng = random.Random(5)
    k, n = 10, 400
    tau = detectable_sd(0.25, [n] * k)
    hits = 0
    for _ in range(300):
        rates = [min(max(rng.gauss(0.5, tau), 0), 1) for _ in range(k)]
        hits += rate_homogeneity([(_binomial(rng, n, r), n) for r in rates]).p_value < 0.05
    assert 0.7 <= hits / 300 <= 0.9


def _binomial(rng: random.Random, n: int, p: float) -> int:
    return sum(rng.random() < p for _ in range(n))


def test_null_simulation_rates_p_values_are_uniform():
    """k setups with one true rate: the χ² test rejects at 5 % about 5 % of the time and its
    p-values spread evenly (each quarter holds about a quarter)."""
    rng = random.Random(24)
    p_values = []
    for _ in range(400):
        k = rng.choice((3, 8, 20))
        n = rng.choice((40, 200))
        p_values.append(rate_homogeneity([(_binomial(rng, n, 0.48), n) for _ in range(k)])
                        .p_value)
    rejected = sum(p < 0.05 for p in p_values) / len(p_values)
    assert rejected <= 0.08
    quarters = [sum(q / 4 <= p < (q + 1) / 4 for p in p_values) / len(p_values)
                for q in range(4)]
    assert all(0.18 <= share <= 0.32 for share in quarters), quarters


def test_null_simulation_means_p_values_are_uniform():
    rng = random.Random(7)
    p_values = []
    for _ in range(400):
        groups = []
        for _ in range(rng.choice((3, 10))):
            values = [rng.gauss(15.0, 11.0) for _ in range(30)]
            m = sum(values) / 30
            groups.append((30, m, math.sqrt(sum((v - m) ** 2 for v in values) / 29)))
        p_values.append(mean_homogeneity(groups).p_value)
    assert sum(p < 0.05 for p in p_values) / len(p_values) <= 0.08
    assert 0.4 <= sum(p < 0.5 for p in p_values) / len(p_values) <= 0.6


def test_heterogeneous_rates_are_detected():
    rng = random.Random(3)
    rates = [0.40, 0.45, 0.50, 0.55, 0.60]
    h = rate_homogeneity([(_binomial(rng, 500, r), 500) for r in rates])
    assert h.p_value < 0.001
    assert h.between_sd_low < math.sqrt(sum((r - 0.5) ** 2 for r in rates) / 4) \
        < h.between_sd_high


def test_heterogeneous_means_are_detected():
    rng = random.Random(4)
    groups = []
    for mu in (0.34, 0.36, 0.38, 0.40):
        values = [min(max(rng.gauss(mu, 0.28), 0), 1) for _ in range(1000)]
        m = sum(values) / len(values)
        groups.append((1000, m, math.sqrt(sum((v - m) ** 2 for v in values) / 999)))
    assert mean_homogeneity(groups).p_value < 0.01


# -- the lab: rank, sweep and report on a small real store -------------------------------------
def test_rank_leads_with_verdicts_that_agree_with_their_p_values(run, tmp_path):
    import json
    db = str(tmp_path / "six.sqlite")
    swept = run("sweep", "--sample", "6", "--seed", "3", "-n", "20", "--db", db, "-j", "1")
    assert swept.exit_code == 0, swept.output
    assert "these 6 layouts " in swept.output.splitlines()[-1]
    for by in ("score", "balance", "decisiveness", "length"):
        text = run("rank", "--db", db, "--by", by, "--top", "3").stdout.splitlines()
        tested = json.loads(run("rank", "--db", db, "--by", by, "--json").stdout)["homogeneity"]
        head = next(i for i, line in enumerate(text) if line.startswith("rank "))
        lead = text[:head]
        # the top 3, but tested on all 6; then the tie group's line and the intervals' line
        assert len(text) - head == 6 and text[-1].startswith("intervals: 95 %")
        verdicts = [line for line in lead if line.startswith("these 6 layouts")]
        # the lines' metrics lead the JSON's, which go on with every metric that can be tested
        assert [line.split(" (")[0].rsplit(" on ", 1)[1] for line in verdicts] == list(
            tested)[:len(verdicts)]
        assert {"draw_rate", "abs_score_margin", "okapi_taker_win_rate"} <= set(tested)
        assert "contestedness" not in tested          # a table's number: not tested
        assert by in tested and "first_player_win_rate" in tested
        for line, (name, h) in zip(verdicts, tested.items()):
            assert set(h) >= {"test", "statistic", "df", "p_value", "between_sd",
                              "between_sd_high", "detectable"}
            assert ("differ on" in line) == (h["p_value"] < 0.05), line
            assert ("cannot be told apart" in line) == (h["p_value"] >= 0.05), line
        noise = any(line.startswith("ranking by noise") for line in lead)
        assert noise == (tested[by]["p_value"] >= 0.05)
    page = run("report", "--db", db, "-o", "-").stdout
    assert "kiwara: these 6 layouts " in page


def test_a_metric_that_differs_is_said_to_differ():
    from kiwara_designer.lab.homogeneity import lead_lines, metric_homogeneity
    from kiwara_designer.lab.store import RankedExperiment

    def row(i, wins, n, mean):
        metrics = {"first_player_win_rate": {"successes": wins, "trials": n},
                   "decisiveness": {"n": n, "mean": mean, "std": 0.28}}
        return RankedExperiment(i, "kiwara", f"key{i}", {}, "classic", "greedy,greedy", n, 0.5,
                                {"decisiveness": mean, "balance": 1.0}, metrics)

    rows = [row(i, 2000, 4000, 0.30 + 0.02 * i) for i in range(5)]
    assert metric_homogeneity(rows, "first_player_win_rate").p_value == 1.0
    balance = metric_homogeneity(rows, "balance")       # balance shares the rate's test
    assert balance.p_value == 1.0 and balance.test.endswith("of first_player_win_rate")
    lines = lead_lines(rows, "decisiveness")
    assert lines[0].startswith("these 5 layouts differ on decisiveness (F = ")
    assert "p < 0.001" in lines[0]
    assert lines[1].startswith("these 5 layouts cannot be told apart on first_player_win_rate")
    assert not any(line.startswith("ranking by noise") for line in lines)
    assert lead_lines(rows, "balance")[-1].startswith("ranking by noise")


def test_a_ranking_of_two_games_tests_each_game_alone():
    from kiwara_designer.lab.homogeneity import lead_lines, ranking_json
    from kiwara_designer.lab.store import RankedExperiment

    def row(i, game, wins):
        return RankedExperiment(i, game, f"key{i}", {}, "classic", "greedy,greedy", 100, 0.5,
                                {}, {"first_player_win_rate": {"successes": wins,
                                                               "trials": 100}})

    rows = [row(1, "kiwara", 50), row(2, "kiwara", 52), row(3, "awimbawe", 20),
            row(4, "awimbawe", 80)]
    tested = ranking_json(rows, "first_player_win_rate")
    assert set(tested) == {"kiwara", "awimbawe"}
    assert tested["kiwara"]["first_player_win_rate"]["p_value"] > 0.5
    assert tested["awimbawe"]["first_player_win_rate"]["p_value"] < 0.001
    lines = lead_lines(rows, "first_player_win_rate")
    assert lines[0].startswith("awimbawe: these 2 setups differ on first_player_win_rate")
    assert any(line.startswith("kiwara: ranking by noise") for line in lines)
    alone = ranking_json(rows[:2], "first_player_win_rate")
    assert "first_player_win_rate" in alone and "kiwara" not in alone


def test_blocked_anova_on_a_table_worked_by_hand():
    from kiwara_designer.core.stats import blocked_homogeneity
    # 3 setups × 4 game indices: setup means 2, 3, 4 (SS = 4 · 2 = 8, MS = 4), index means
    # 1, 3, 3, 5, residuals ±1 in four cells (SS = 4 on 6 df, MS = 2/3): F = 6, and for
    # F(2, 6), P(F ≥ f) = (1 + f/3)^−3 = 1/27
    table = [[1, 1, 2, 4], [0, 4, 3, 5], [2, 4, 4, 6]]
    h = blocked_homogeneity(table)
    assert h.df == (2, 6)
    assert h.statistic == pytest.approx(6.0)
    assert h.p_value == pytest.approx(1 / 27)
    assert h.between_sd == pytest.approx(math.sqrt((4 - 2 / 3) / 4))


def test_blocking_by_the_shared_seed_gains_power():
    from kiwara_designer.core.stats import blocked_homogeneity
    # games with one seed alike across setups (a strong common index effect) and a small
    # setup effect: the blocked test sees it, the pooled one-way test hardly
    rng = random.Random(11)
    blocked = pooled = 0
    for _ in range(100):
        seeds = [rng.gauss(0, 1.0) for _ in range(40)]
        table = [[shift + s + rng.gauss(0, 0.3) for s in seeds] for shift in (0.0, 0.1, 0.2)]
        blocked += blocked_homogeneity(table).p_value < 0.05
        groups = []
        for row in table:
            m = sum(row) / len(row)
            groups.append((len(row), m, math.sqrt(sum((v - m) ** 2 for v in row) / 39)))
        pooled += mean_homogeneity(groups).p_value < 0.05
    assert blocked >= 60 and pooled <= 20, (blocked, pooled)


def test_blocked_null_simulation_first_player_results():
    """Setups alike, games of one index correlated (a shared seed tilts the first player's
    chance): the blocked test on 0/½/1 results rejects about 5 % of the time."""
    from kiwara_designer.core.stats import blocked_homogeneity
    rng = random.Random(12)
    rejected = 0
    for _ in range(300):
        tilts = [rng.uniform(0.3, 0.7) for _ in range(30)]
        table = [[0.5 if rng.random() < 0.05 else float(rng.random() < t) for t in tilts]
                 for _ in range(6)]
        rejected += blocked_homogeneity(table).p_value < 0.05
    assert rejected / 300 <= 0.08


def test_a_table_metric_is_said_to_be_untested():
    from kiwara_designer.lab.homogeneity import lead_lines
    from kiwara_designer.lab.store import RankedExperiment
    rows = [RankedExperiment(i, "kiwara", f"key{i}", {}, "classic", "greedy,greedy", 50, 0.5,
                             {"contestedness": 0.2 + i / 10},
                             {"first_player_win_rate": {"successes": 25, "trials": 50}})
            for i in range(3)]
    lines = lead_lines(rows, "contestedness")
    assert lines[0].startswith("contestedness: not tested for homogeneity")
    assert lines[1].startswith("these 3 layouts cannot be told apart on first_player_win_rate")
