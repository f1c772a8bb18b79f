"""Statistics and metric maths against hand-computed values and independent implementations."""
from __future__ import annotations

import math
from fractions import Fraction
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiwara_designer.lab.matches import GameResult, game_seed, lead_statistics
from kiwara_designer.lab.metrics import balance_interval, compute_metrics, combined_score
from kiwara_designer.core.stats import (binomial_two_sided_p, games_for_half_width, mcnemar_exact,
                                        paired_t_test, proportion, sign_test, summarise, t_quantile,
                                        t_two_sided_p, two_proportion_z_test, wilson_interval)


# -- Wilson ------------------------------------------------------------------------------------
@pytest.mark.parametrize("x, n, low, high", [
    (5, 10, 0.2366, 0.7634),          # textbook value
    (0, 10, 0.0, 0.2775),             # upper end z²/(n + z²) = 3.8415 / 13.8415
    (10, 10, 0.7225, 1.0),
    (81, 263, 0.2553, 0.3662),        # Newcombe (1998) example 81/263: 0.2553–0.3662
])
def test_wilson_known_values(x, n, low, high):
    lo, hi = wilson_interval(x, n)
    assert lo == pytest.approx(low, abs=1e-4)
    assert hi == pytest.approx(high, abs=1e-4)


def wilson_by_quadratic(x: float, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """Independent route: the interval is where (x/n − p)² = z² p (1 − p) / n, a quadratic in p."""
    phat = x / n
    a = 1 + z * z / n
    b = -(2 * phat + z * z / n)
    c = phat * phat
    root = math.sqrt(max(b * b - 4 * a * c, 0.0))
    return (-b - root) / (2 * a), (-b + root) / (2 * a)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 5000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_wilson_matches_the_quadratic_and_contains_the_estimate(xn):
    x, n = xn
    lo, hi = wilson_interval(x, n)
    qlo, qhi = wilson_by_quadratic(x, n)
    assert lo == pytest.approx(max(0.0, qlo), abs=1e-9)
    assert hi == pytest.approx(min(1.0, qhi), abs=1e-9)
    assert 0 <= lo <= x / n <= hi <= 1


def test_no_trials_is_the_whole_unit_interval():
    assert wilson_interval(0, 0) == (0.0, 1.0)
    assert proportion(0, 0).value is None


def test_games_needed_for_three_percent():
    assert games_for_half_width(0.03) == 1068     # 1.96² · 0.25 / 0.03² = 1067.07


# -- tests of significance -------------------------------------------------------------------------
def test_two_proportion_z_by_hand():
    # 60/100 vs 40/100: pooled 0.5, se = sqrt(0.25 · 0.02) = 0.0707107, z = 2.828427
    result = two_proportion_z_test(60, 100, 40, 100)
    assert result.statistic == pytest.approx(2.828427, abs=1e-6)
    assert result.p_value == pytest.approx(0.004678, abs=1e-6)


def test_mcnemar_exact_by_hand():
    # 1 vs 9 discordant pairs: p = 2 · (C(10,0) + C(10,1)) / 2¹⁰ = 22 / 1024
    assert mcnemar_exact(1, 9).p_value == pytest.approx(22 / 1024)
    assert mcnemar_exact(5, 5).p_value == 1.0
    assert mcnemar_exact(0, 0).p_value == 1.0
    assert binomial_two_sided_p(0, 3) == pytest.approx(0.25)


@pytest.mark.parametrize("only_first, only_second", [(550, 650), (600, 601), (1040, 1200)])
def test_mcnemar_exact_with_more_disagreements_than_floats_can_count(only_first, only_second):
    # From 1,030 disagreeing pairs on, C(n, k) passes the float range (`kiwara compare` once
    # crashed with OverflowError there). Checked against the tail summed as an exact fraction.
    n = only_first + only_second
    tail = min(only_first, only_second)
    exact = Fraction(2 * sum(math.comb(n, i) for i in range(tail + 1)), 2 ** n)
    p = mcnemar_exact(only_first, only_second).p_value
    assert p == pytest.approx(float(min(exact, 1)), rel=1e-12)
    # and near the normal approximation with continuity correction
    z = (abs(only_first - only_second) - 1) / math.sqrt(n)
    assert p == pytest.approx(math.erfc(z / math.sqrt(2)), rel=0.05)


def test_mcnemar_exact_extremes_of_many_pairs():
    assert mcnemar_exact(2000, 2000).p_value == 1.0
    assert mcnemar_exact(0, 1500).p_value == 0.0          # 2 / 2^1500 is below the float range
    assert mcnemar_exact(1500, 0).p_value == 0.0


def test_paired_t_by_hand():
    # differences 1, 2, 3: mean 2, sd 1, t = 2 / (1/√3) = 3.4641 on 2 degrees of freedom, where
    # P(|T| < t) = t / √(t² + 2) in closed form
    result = paired_t_test([1, 2, 3])
    t = 2 * math.sqrt(3)
    assert result.statistic == pytest.approx(t)
    assert result.p_value == pytest.approx(1 - t / math.sqrt(t * t + 2))


# two-sided 95 % points of Student's t, from printed tables
@pytest.mark.parametrize("df, expected", [(1, 12.706), (2, 4.303), (3, 3.182), (4, 2.776),
                                          (5, 2.571), (10, 2.228), (20, 2.086), (30, 2.042),
                                          (60, 2.000), (120, 1.980), (1000, 1.962)])
def test_t_quantiles_match_the_tables(df, expected):
    assert t_quantile(df) == pytest.approx(expected, abs=0.0006)


def test_t_p_values_both_sides_of_the_large_df_switch():
    for df in (299, 301, 2000):
        assert t_two_sided_p(t_quantile(df), df) == pytest.approx(0.05, abs=2e-4)
    assert t_two_sided_p(0.0, 5) == pytest.approx(1.0)


def test_summary_by_hand_uses_t():
    s = summarise([2, 4, 4, 4, 5, 5, 7, 9])
    assert s.mean == 5
    assert s.std == pytest.approx(math.sqrt(32 / 7))
    # t_{0.975, 7} = 2.3646 (tables): wider than the normal 1.96 on 8 values
    assert s.high - s.mean == pytest.approx(2.3646 * math.sqrt(32 / 7) / math.sqrt(8), rel=1e-4)
    assert summarise([0.0, 1.0], within=(0.0, 1.0)) .low == 0.0


def test_sign_test_counts_a_draw_as_half_a_win():
    # pairs (loss, draw) and (draw, win) are improvements, (win, draw) a worsening, (win, win) a tie
    result = sign_test([0, 0.5, 1, 1], [0.5, 1, 0.5, 1])
    assert result.statistic == 1.0          # 2 up − 1 down
    assert result.p_value == pytest.approx(1.0)   # 2 of 3 is no evidence
    assert sign_test([0] * 8, [1] * 8).p_value == pytest.approx(2 / 2 ** 8)


# -- lead changes and decisiveness ------------------------------------------------------------------
def test_lead_statistics_by_hand():
    # leaders: first, second, nobody, first, first → 2 changes; the winner (first) is ahead from
    # move 4 of 5 on, so 1 − 4/5 = 0.2 of the game was played with the result settled
    assert lead_statistics([1, -2, 0, 3, 5], 0) == (2, pytest.approx(0.2))
    # winner ahead from the first move: 1 − 1/4
    assert lead_statistics([1, 1, 2, 3], 0) == (0, pytest.approx(0.75))
    # decided by the last move only
    assert lead_statistics([1, 1, 2, -3], 1) == (1, pytest.approx(0.0))
    # a draw has no decisiveness
    assert lead_statistics([1, -1, 0], None) == (1, None)


def test_game_seeds_are_stable_shared_by_seat_swapped_pairs_and_distinct_otherwise():
    assert game_seed(0, 0) == game_seed(0, 0)
    assert all(game_seed(s, 2 * j) == game_seed(s, 2 * j + 1) for s in range(3) for j in range(50))
    assert len({game_seed(s, i) for s in range(5) for i in range(200)}) == 500
    assert 0 <= game_seed(7, 3) < 2 ** 63


# -- metrics ---------------------------------------------------------------------------------
def game(index, winner, scores, a_seat=None, okapi=None, control=(0, 1), changes=(0, 0),
         plies=10, decisions=8, branching=4.0, lead_changes=1, decisiveness=0.5):
    return GameResult(index=index, seed=index, a_seat=index % 2 if a_seat is None else a_seat,
                      winner=winner, scores=scores, plies=plies, decisions=decisions,
                      branching=branching, lead_changes=lead_changes,
                      decisiveness=decisiveness if winner is not None else None,
                      stats={"okapi": okapi, "control": list(control),
                             "control_changes": list(changes)})


def test_metrics_by_hand():
    games = [
        game(0, 0, (30, 20), okapi=0, control=(0, 0), changes=(1, 0), lead_changes=2,
             decisiveness=0.4),
        game(1, 0, (25, 24), okapi=1, control=(0, 1), lead_changes=0, decisiveness=0.9),
        game(2, 1, (10, 40), okapi=1, control=(1, 1), changes=(0, 2), lead_changes=1,
             decisiveness=0.5, plies=12, decisions=6, branching=5.0),
        game(3, None, (20, 20), okapi=None, control=(None, 0), lead_changes=3),
    ]
    m = compute_metrics(games, SimpleNamespace(names=("A", "B"), sizes=(3, 5)))
    # first player: 2 wins + 1 draw / 2 = 2.5 of 4
    assert m.first_player_win.value == pytest.approx(0.625)
    assert m.balance[0] == pytest.approx(0.75)
    assert m.draw_rate.value == pytest.approx(0.25)
    assert m.margin.mean == pytest.approx((10 + 1 - 30 + 0) / 4)
    assert m.abs_margin.mean == pytest.approx((10 + 1 + 30 + 0) / 4)
    assert m.length.mean == pytest.approx(10.5)
    assert m.branching.mean == pytest.approx(4.25)
    assert m.decision_moves.mean == pytest.approx((0.8 * 3 + 0.5) / 4)
    assert m.lead_changes.mean == pytest.approx(1.5)
    assert m.decisiveness.mean == pytest.approx((0.4 + 0.9 + 0.5) / 3)
    # Okapi taken in 3 games, taker won 2 of them (game 0: seat 0, game 2: seat 1); first took 1
    taker, first = (m.game_metric(n) for n in ("okapi_taker_win_rate", "okapi_first_player_rate"))
    assert (taker.successes, taker.trials) == (2, 3)
    assert (first.successes, first.trials) == (1, 3)
    # agent A sits in seat 0 in games 0 and 2, seat 1 in 1 and 3: A won game 0 only, 1 draw
    assert m.agent_a_win.value == pytest.approx(1.5 / 4)
    # by seat: A opened games 0 (won) and 2 (lost), was second in 1 (lost) and 3 (draw);
    # pairs (0, 1) and (2, 3): (1 + 0) / 2 and (0 + ½) / 2
    seats = m.agent_a_seats
    assert (seats.opening.successes, seats.opening.trials) == (1, 2)
    assert (seats.second.successes, seats.second.trials) == (0.5, 2)
    assert (seats.paired.n, seats.paired.mean) == (2, pytest.approx(0.375))
    # t with 1 degree of freedom: 12.706 × 0.1768 / √2 = ±1.59, clipped to the rate's range
    assert (seats.paired.low, seats.paired.high) == (0.0, 1.0)
    a, b = m.game_metric("territories")
    assert (a.first, a.second, a.nobody, a.contested) == (0.5, 0.25, 0.25, 0.25)
    assert (b.first, b.second, b.nobody, b.contested) == (0.5, 0.5, 0.0, 0.25)
    assert m.skill_gap is None
    # lead changes per move: 2/9, 0/9, 1/11, 3/9 → mean 0.16162; term = that / 0.5
    rate = (2 / 9 + 0 + 1 / 11 + 3 / 9) / 4
    assert m.lead_change_rate.mean == pytest.approx(rate)
    expected = (0.5 * 0.75 + 0.2 * (1 - 0.6) + 0.1 * rate / 0.5) / 0.8
    assert m.score == pytest.approx(expected)


def test_skill_gap_and_full_score():
    skill = [game(i, i % 2 if i < 3 else 1 - i % 2, (1, 0)) for i in range(4)]
    # agent A (the stronger) sits in seat i % 2 and wins games 0, 1, 2: 3 of 4
    m = compute_metrics([game(0, 0, (2, 1))], skill_games=skill)
    assert m.skill_gap.value == pytest.approx(0.75)
    assert combined_score(1.0, 0.25, 0.6, 0.75) == pytest.approx(0.5 + 0.2 * 0.75 + 0.1 + 0.2 * 0.5)
    assert combined_score(0.5, None, None, None) == pytest.approx(0.5)


def test_balance_interval_reaches_one_when_the_win_rate_interval_covers_a_half():
    value, low, high = balance_interval(proportion(5, 10))
    assert value == 1.0 and high == 1.0 and low == pytest.approx(1 - 2 * (0.7634 - 0.5), abs=1e-3)
    value, low, high = balance_interval(proportion(9, 10))
    assert value == pytest.approx(0.2)
    assert low < value < high < 1


def naive_lead_statistics(leads, winner):
    """Independent, brute-force reading of the definitions."""
    signs = [(v > 0) - (v < 0) for v in leads]
    nonzero = [s for s in signs if s]
    changes = sum(a != b for a, b in zip(nonzero, nonzero[1:]))
    if winner is None or not leads:
        return changes, None
    wanted = 1 if winner == 0 else -1
    L = len(leads)
    for m in range(1, L + 1):          # move m (1-based) after which the winner always led
        if all(s == wanted for s in signs[m - 1:]):
            return changes, 1 - m / L
    return changes, 0.0


@settings(max_examples=80, deadline=None)
@given(st.lists(st.integers(-3, 3), min_size=1, max_size=40), st.sampled_from([0, 1, None]))
def test_lead_statistics_match_a_brute_force_reading(leads, winner):
    changes, decisive = lead_statistics(leads, winner)
    want_changes, want_decisive = naive_lead_statistics(leads, winner)
    assert changes == want_changes
    assert decisive == (None if want_decisive is None else pytest.approx(want_decisive))
    if decisive is not None:
        assert 0 <= decisive < 1


@st.composite
def random_games(draw):
    n = draw(st.integers(1, 30))
    territories = draw(st.integers(1, 4))
    games = []
    for i in range(n):
        first, second = draw(st.integers(0, 60)), draw(st.integers(0, 60))
        winner = 0 if first > second else 1 if second > first else None
        games.append(game(i, winner, (first, second),
                          okapi=draw(st.sampled_from([0, 1, None])),
                          control=tuple(draw(st.sampled_from([0, 1, None]))
                                        for _ in range(territories)),
                          changes=tuple(draw(st.integers(0, 2)) for _ in range(territories)),
                          plies=draw(st.integers(2, 40))))
    return games


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(random_games())
def test_metrics_invariants_on_random_games(games):
    m = compute_metrics(games)
    n = len(games)
    wins = sum(g.scores[0] > g.scores[1] for g in games)
    draws = sum(g.scores[0] == g.scores[1] for g in games)
    assert m.first_player_win.value == pytest.approx((wins + draws / 2) / n)
    assert m.draw_rate.value == pytest.approx(draws / n)
    assert 0 <= m.balance[1] <= m.balance[0] <= m.balance[2] <= 1
    assert m.margin.mean == pytest.approx(sum(a - b for a, b in (g.scores for g in games)) / n)
    for t in m.game_metric("territories"):
        assert t.first + t.second + t.nobody == pytest.approx(1)
        assert 0 <= t.contested <= 1
    # agent A and agent B share the decisive games: A's rate + B's rate = 1
    b_wins = sum(g.winner is not None and g.winner != g.a_seat for g in games)
    assert m.agent_a_win.value + (b_wins + draws / 2) / n == pytest.approx(1)
    assert 0 <= m.score <= 1


def test_a_bounded_mean_never_has_a_zero_width_interval():
    # issue 27: `cards value` printed [0.0, 0.0] % when every pair agreed (a t interval with sd 0)
    from kiwara_designer.core.stats import bounded_summary, summarise, wilson_interval
    same = bounded_summary([0.0] * 4, -1.0, 1.0)
    low, high = wilson_interval(2.0, 4)          # by hand: half of 4 "successes" rescaled
    assert (same.low, same.high) == pytest.approx((2 * low - 1, 2 * high - 1))
    assert same.low < -0.6 and same.high > 0.6 and same.std == 0.0
    spread = bounded_summary([1.0, 1.0, 0.5, 1.0, 1.0, 1.0], -1.0, 1.0)
    t = summarise([1.0, 1.0, 0.5, 1.0, 1.0, 1.0], (-1.0, 1.0))     # values differ: the t interval
    assert (spread.low, spread.high) == (t.low, t.high) and spread.high == 1.0
    assert bounded_summary([0.5], -1.0, 1.0).low is None          # one value: no interval
