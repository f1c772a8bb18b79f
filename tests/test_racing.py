"""Racing: the confidence sequence keeps its coverage, the race names the true best, and it stops
on separation or on the budget and says which."""
import math
import random

import pytest

from kiwara_designer.lab.racing import (ACCEPTED, BALANCE, REJECTED, BettingSequence, Race,
                                        RaceSettings, RacingError, run_race, stitched_radius)


def coin_arms(rates, seed):
    """play_more for arms with known win rates: one generator per arm, so an arm's games do not
    depend on how the others were scheduled."""
    rngs = {arm: random.Random(f"{seed}:{arm}") for arm in range(len(rates))}

    def play_more(wants):
        return {arm: [float(rngs[arm].random() < rates[arm]) for _ in range(count)]
                for arm, count in wants.items()}
    return play_more


def test_radius_matches_the_papers_rounded_form():
    # Howard et al. (2021) round the stitched bound to 1.7·√(V (log log 2V + 0.72 log(5.2/α)))
    # when the stitching starts at V = 1; ours starts at n = 1, i.e. V = σ², so compare with
    # σ = 1 (V = n) where the two coincide
    for n in (10, 100, 10_000):
        for alpha in (0.05, 0.001):
            rounded = 1.7 * math.sqrt(n * (math.log(math.log(2 * n)) + 0.72 * math.log(5.2 / alpha))) / n
            assert stitched_radius(n, alpha, 1.0) == pytest.approx(rounded, rel=0.01)
    assert stitched_radius(0, 0.05, 0.5) == math.inf


def test_radius_beats_a_union_bound_over_time_late_in_a_race():
    alpha = 0.05 / 1000
    for n in (1000, 100_000):
        union = math.sqrt(math.log(math.pi ** 2 * n * n / (6 * alpha)) / (2 * n))   # Hoeffding
        assert stitched_radius(n, alpha, 0.5) < union


def test_confidence_sequence_covers_at_every_time():
    """A running mean of fair coin flips leaves the band at some n ≤ 2000 in at most α of the
    sequences (the bound is conservative; a wrong constant would show)."""
    alpha, length, runs = 0.1, 2000, 400
    radius = [stitched_radius(n, alpha, 0.5) for n in range(length + 1)]
    rng = random.Random(5)
    escaped = 0
    for _ in range(runs):
        total = 0
        for n in range(1, length + 1):
            total += rng.random() < 0.5
            if total / n - 0.5 > radius[n]:
                escaped += 1
                break
    assert escaped / runs <= alpha


def test_racing_names_the_true_best_in_at_least_95_percent_of_seeded_runs():
    rates = [0.30, 0.35, 0.40, 0.45, 0.50, 0.55, 0.65]   # arm 6 is best by 0.10
    runs, right, games = 100, 0, []
    for seed in range(runs):
        result = run_race(range(len(rates)), coin_arms(rates, seed), k=1, delta=0.05)
        assert result.separated and result.reason == "separated"
        right += result.top == (6,)
        games.append(result.games)
    assert right >= 95
    # racing spends its games on the close arms: the worst arm plays far less than the best
    last = run_race(range(len(rates)), coin_arms(rates, 0), k=1)
    assert last.arm(0).games * 4 < last.arm(6).games


def test_racing_top_k_by_balance():
    rates = [0.50, 0.20, 0.47, 0.80, 0.30, 0.65, 0.90, 0.10]   # fairest: arms 0, 2 then 5, 4
    for seed in range(20):
        result = run_race(range(len(rates)), coin_arms(rates, seed), k=2, objective=BALANCE)
        assert result.separated
        assert set(result.top) == {0, 2}
        assert result.arm(6).status == REJECTED
        assert result.arm(0).low <= 1.0 <= result.arm(0).high + 1e-12


def test_tolerance_stops_a_race_between_equal_arms_and_the_budget_stops_one_without():
    rates = [0.5] * 4
    fair = run_race(range(4), coin_arms(rates, 1), k=1, tolerance=0.2)
    assert fair.separated and fair.top[0] in range(4)
    stuck = run_race(range(4), coin_arms(rates, 1), k=1, budget=3000)
    assert not stuck.separated and stuck.reason == "budget"
    assert stuck.games <= 3000 and len(stuck.top) == 1


def test_reject_needs_k_certainly_better_arms_and_accept_needs_all_others_below():
    race = Race(["a", "b", "c"], RaceSettings(k=2, first_round=1))
    for arm, wins in (("a", 1900), ("b", 1000), ("c", 100)):
        race.add(arm, [1.0] * wins + [0.0] * (2000 - wins))
    race.decide()
    # a is above both others (accepted), c below both (rejected), b is above c only: with k = 2
    # it needs K − k = 1 arm below it, so it is accepted too
    assert [race.states[x].status for x in "abc"] == [ACCEPTED, ACCEPTED, REJECTED]
    assert race.finished()
    one = Race(["a", "b", "c"], RaceSettings(k=1, first_round=1))
    for arm, wins in (("a", 1100), ("b", 1000), ("c", 100)):
        one.add(arm, [1.0] * wins + [0.0] * (2000 - wins))
    one.decide()   # a and b overlap: neither is sure, c is certainly worse than a
    assert [one.states[x].status for x in "abc"] == ["undecided", "undecided", REJECTED]


def test_bad_requests_are_refused():
    with pytest.raises(RacingError, match="k must be"):
        run_race([1, 2], coin_arms([0.5, 0.5], 0), k=3)
    with pytest.raises(RacingError, match="distinct"):
        Race([1, 1], RaceSettings())
    race = Race([1], RaceSettings())
    with pytest.raises(RacingError, match="outside the stated range"):
        race.add(1, [2.0])
    with pytest.raises(RacingError, match="asked for"):
        run_race([1, 2], lambda wants: {a: [] for a in wants}, k=1)


@pytest.mark.parametrize("strategy", ["eliminate", "uniform"])
def test_other_strategies_keep_the_guarantee_and_uniform_costs_more(strategy):
    rates = [0.30, 0.40, 0.45, 0.50, 0.60]
    lucb = run_race(range(5), coin_arms(rates, 3), k=1)
    other = run_race(range(5), coin_arms(rates, 3), k=1, strategy=strategy)
    assert lucb.top == other.top == (4,)
    if strategy == "uniform":   # every arm plays every round: all end with the same count
        assert len({a.games for a in other.arms}) == 1
        assert other.games > lucb.games


def correlated_pairs(rng, p, rho, pairs):
    """Seat-swapped pairs of games with win rate ``p``: the second game repeats the first with
    probability ``rho`` (their correlation), else is drawn afresh."""
    games = []
    for _ in range(pairs):
        first = rng.random() < p
        games += [float(first), float(first if rng.random() < rho else rng.random() < p)]
    return games


def test_betting_sequence_on_correlated_pairs_covers_at_every_time():
    """Pairs of strongly correlated games (ρ = 0.5): the pair-based betting sequence's lower
    bound rises above the true mean at some n ≤ 500 pairs in at most α of the sequences (up to
    the binomial margin of 400 runs), looked at after every pair."""
    alpha, pairs, runs, p = 0.1, 500, 400, 0.5
    threshold = math.log(1 / alpha)
    rng = random.Random(11)
    escaped = 0
    for _ in range(runs):
        games = correlated_pairs(rng, p, 0.5, pairs)
        sequence = BettingSequence()
        for j in range(pairs):
            sequence.add((games[2 * j] + games[2 * j + 1]) / 2)
            if sequence.log_capital(p, +1) >= threshold:   # p is outside the interval
                escaped += 1
                break
    assert escaped / runs <= alpha + 2.33 * math.sqrt(alpha * (1 - alpha) / runs)


def test_betting_bounds_are_where_the_capital_crosses_and_cover_the_mean():
    sequence = BettingSequence()
    rng = random.Random(2)
    for _ in range(3000):
        sequence.add(rng.random() * 0.5 + 0.25)          # continuous values, mean ½
    alpha = 0.001
    low, high = sequence.bound(alpha, +1), sequence.bound(alpha, -1)
    assert 0.25 < low < 0.5 < high < 0.75
    assert sequence.log_capital(low, +1) >= math.log(1 / alpha)        # rejected, just
    assert sequence.log_capital(low + 1e-6, +1) < math.log(1 / alpha)
    assert sequence.log_capital(high, -1) >= math.log(1 / alpha)
    assert BettingSequence().bound(alpha, +1) == 0.0 and BettingSequence().bound(alpha, -1) == 1.0


@pytest.mark.parametrize("p", [0.5, 0.47, 0.53])
def test_pair_based_betting_interval_is_narrower_than_the_stitched_one_on_games(p):
    """After n games at a typical rate, the new interval (betting, on n/2 seat-swapped pairs) is
    narrower than the former one (stitched, on the n games taken as independent)."""
    arms = [f"arm {i}" for i in range(500)]          # α = 0.05 / 1000 a side, as in a race
    for n in (1000, 10_000):
        games = correlated_pairs(random.Random(n), p, 0.0, n // 2)
        new = Race(arms, RaceSettings(paired=True))
        old = Race(arms, RaceSettings(interval="stitched"))
        new.add(arms[0], games)
        old.add(arms[0], games)
        new_width = new.states[arms[0]].high - new.states[arms[0]].low
        old_width = old.states[arms[0]].high - old.states[arms[0]].low
        assert new_width < 0.93 * old_width, (n, new_width, old_width)


def test_a_paired_race_counts_whole_pairs_and_asks_for_them():
    race = Race(["a"], RaceSettings(paired=True, first_round=3))
    assert race.requests() == {"a": 4}
    race.add("a", [1.0])
    state = race.states["a"]
    assert state.units == 0 and state.low == -math.inf and state.mean == 1.0
    race.add("a", [0.0, 1.0])               # the pair (1, 0) counts, the last 1 waits
    assert state.units == 1 and state.unit_total == 0.5 and state.waiting == [1.0]
    assert state.games == 3
    race.add("a", [0.0])
    assert state.units == 2 and state.unit_total == 1.0 and not state.waiting
    result = run_race(range(3), coin_arms([0.2, 0.5, 0.8], 0), k=1, paired=True)
    assert result.top == (2,) and all(a.games % 2 == 0 for a in result.arms)
    with pytest.raises(RacingError, match="unknown interval"):
        Race(["a"], RaceSettings(interval="hoeffding"))


def test_first_round_spread_says_when_arms_look_alike():
    """The between-arm χ² after the first round: rarely below 5 % when the arms are equal (its
    level, over 300 seeded first rounds of 20 arms × 32 paired games), tiny when they differ."""
    def first_round(rates, seed):
        race = Race(range(len(rates)), RaceSettings(paired=True, tolerance=0.1))
        play = coin_arms(rates, seed)
        for arm, values in play({a: 32 for a in range(len(rates))}).items():
            race.add(arm, values)
        race.decide()
        return race.spread()
    rejected = sum(first_round([0.5] * 20, seed)["p_value"] < 0.05 for seed in range(300))
    assert rejected / 300 <= 0.05 + 2.33 * math.sqrt(0.05 * 0.95 / 300)
    spread = first_round([0.2 + 0.03 * i for i in range(20)], 0)
    assert spread["p_value"] < 0.001 and spread["df"] == 19 and spread["games"] == 32
    assert spread["units"] == 16
    assert Race(["a"], RaceSettings()).spread() is None
    result = run_race(range(4), coin_arms([0.5] * 4, 1), k=1, tolerance=0.3, paired=True)
    assert result.first_round is not None and result.to_json()["first_round"] == result.first_round
