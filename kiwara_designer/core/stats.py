"""Small, dependency-free statistics: Wilson intervals, summaries with Student t intervals and
the significance tests used by ``kiwara compare``. Everything is plain maths so that it can be
checked by hand (and against printed tables) in the tests."""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

Z95 = 1.959963984540054   # two-sided 95 % quantile of the standard normal


@dataclass(frozen=True)
class Proportion:
    """``successes`` out of ``trials`` with its 95 % Wilson score interval."""

    successes: float
    trials: int
    low: float
    high: float

    @property
    def value(self) -> float | None:
        return self.successes / self.trials if self.trials else None

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    def to_json(self) -> dict:
        return {"value": self.value, "low": self.low, "high": self.high,
                "successes": self.successes, "trials": self.trials}


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval (Wilson 1927). Unlike the normal ("Wald") interval it stays inside
    [0, 1] and keeps its coverage near 0 and 1, where unbalanced games live. A half success (a
    draw counted as half a win) is allowed. With no trials the interval is the whole of [0, 1]."""
    if trials <= 0:
        return 0.0, 1.0
    if not 0 <= successes <= trials:
        raise ValueError(f"{successes} successes out of {trials} trials")
    p = successes / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z / denominator * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    # exact ends at 0 and n successes (the formula gives them only up to rounding)
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


def proportion(successes: float, trials: int) -> Proportion:
    low, high = wilson_interval(successes, trials)
    return Proportion(successes, trials, low, high)


def games_for_half_width(half_width: float, p: float = 0.5, z: float = Z95) -> int:
    """Games needed for a normal-approximation half width of ``half_width`` at rate ``p``
    (at p = 0.5, ±3 % needs 1,068 games)."""
    return math.ceil(z * z * p * (1 - p) / (half_width * half_width))


def student_t_within(t: float, df: int) -> float:
    """P(|T| < t) for Student's t with ``df`` degrees of freedom, in closed form (the finite
    series in θ = atan(t/√df) that holds for whole df; Abramowitz & Stegun 26.7.3–4)."""
    theta = math.atan(abs(t) / math.sqrt(df))
    c2 = math.cos(theta) ** 2
    total = term = 1.0
    if df % 2:
        if df == 1:
            return 2 / math.pi * theta
        for k in range(1, (df - 1) // 2):
            term *= c2 * (2 * k) / (2 * k + 1)
            total += term
        return 2 / math.pi * (theta + math.sin(theta) * math.cos(theta) * total)
    for k in range(1, df // 2):
        term *= c2 * (2 * k - 1) / (2 * k)
        total += term
    return math.sin(theta) * total


LARGE_DF = 300   # beyond: the Cornish–Fisher expansion is exact to 1e-7, and the series is long


@lru_cache(maxsize=4096)
def t_quantile(df: int, confidence: float = 0.95) -> float:
    """The two-sided ``confidence`` quantile of Student's t (t_{0.975, df} for 95 %): 12.706 at
    df = 1, 2.228 at 10, 1.984 at 100. Bisection on the closed-form distribution; for large df
    the Cornish–Fisher expansion around the normal quantile."""
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, got {df}")
    if df > LARGE_DF:
        z = Z95 if confidence == 0.95 else _normal_quantile((1 + confidence) / 2)
        return (z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)
                + (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * df ** 3))
    low, high = 0.0, 16.0
    while student_t_within(high, df) < confidence:
        high *= 2
    for _ in range(80):
        mid = (low + high) / 2
        low, high = (mid, high) if student_t_within(mid, df) < confidence else (low, mid)
    return (low + high) / 2


def _normal_quantile(p: float) -> float:
    low, high = -40.0, 40.0
    for _ in range(200):
        mid = (low + high) / 2
        low, high = (mid, high) if 0.5 * math.erfc(-mid / math.sqrt(2)) < p else (low, mid)
    return (low + high) / 2


def t_two_sided_p(t: float, df: int) -> float:
    """P(|T| >= |t|) for Student's t with ``df`` degrees of freedom."""
    if df > LARGE_DF:
        # Abramowitz & Stegun 26.7.8: t (1 − 1/4ν) / √(1 + t²/2ν) is nearly standard normal
        z = abs(t) * (1 - 1 / (4 * df)) / math.sqrt(1 + t * t / (2 * df))
        return normal_two_sided_p(z)
    return max(0.0, 1 - student_t_within(t, df))


@dataclass(frozen=True)
class Summary:
    """Mean, sample standard deviation and a 95 % Student t interval of the mean (t with n − 1
    degrees of freedom: wider than the normal interval for small samples, equal for large).
    With fewer than two values the sd and the interval are None (not known: one value says
    nothing of the spread), and with none the mean too."""

    n: int
    mean: float | None
    std: float | None
    low: float | None
    high: float | None

    def to_json(self) -> dict:
        return {"mean": self.mean, "std": self.std, "low": self.low, "high": self.high, "n": self.n}


def summarise(values: Sequence[float], within: tuple[float, float] | None = None) -> Summary:
    """Mean, sd and t interval; ``within``: the values' range, to which the interval is clipped
    (the mean cannot leave it: an absolute value's interval stops at 0). One value has a mean
    but no sd or interval (None), not an interval of width 0."""
    n = len(values)
    if n == 0:
        return Summary(0, None, None, None, None)
    mean = math.fsum(values) / n
    if n == 1:
        return Summary(1, mean, None, None, None)
    std = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1))
    half = t_quantile(n - 1) * std / math.sqrt(n)
    low, high = mean - half, mean + half
    if within is not None:
        low, high = max(low, within[0]), min(high, within[1])
    return Summary(n, mean, std, low, high)


def normal_two_sided_p(z: float) -> float:
    """P(|Z| >= |z|) for a standard normal Z."""
    return math.erfc(abs(z) / math.sqrt(2))


@dataclass(frozen=True)
class TestResult:
    """A test's statistic and two-sided p-value; both None when the test cannot be made (a t
    test of fewer than two values)."""

    name: str
    statistic: float | None
    p_value: float | None

    def to_json(self) -> dict:
        return {"test": self.name, "statistic": self.statistic, "p_value": self.p_value}


def two_proportion_z_test(x1: float, n1: int, x2: float, n2: int) -> TestResult:
    """Pooled two-proportion z test of p1 = p2 (independent samples); n/a (None) with fewer than
    two trials on a side."""
    if n1 < 2 or n2 < 2:
        return TestResult("two-proportion z", None, None)
    pooled = (x1 + x2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    if se == 0:
        return TestResult("two-proportion z", 0.0, 1.0)
    z = (x1 / n1 - x2 / n2) / se
    return TestResult("two-proportion z", z, normal_two_sided_p(z))


def binomial_two_sided_p(k: int, n: int) -> float:
    """Exact two-sided p-value of ``k`` successes in ``n`` fair coin flips (doubling the smaller
    tail, capped at 1). The tail is summed in integers and divided once: binomial coefficients
    pass the float range from n = 1,030 on."""
    if n == 0:
        return 1.0
    tail, term, total = min(k, n - k), 1, 0
    for i in range(tail + 1):            # term = comb(n, i)
        total += term
        term = term * (n - i) // (i + 1)
    return min(1.0, 2 * total / 2 ** n)


def mcnemar_exact(only_first: int, only_second: int) -> TestResult:
    """Exact McNemar test for paired binary outcomes: of the pairs that disagree, ``only_first``
    have the event only under condition 1 and ``only_second`` only under condition 2. Under the
    null both are equally likely, so the count is Binomial(b + c, 1/2)."""
    n = only_first + only_second
    return TestResult("exact McNemar (paired by seed)", float(only_first - only_second),
                      binomial_two_sided_p(only_first, n))


def paired_t_test(differences: Sequence[float]) -> TestResult:
    """Paired t test of mean difference 0 (n − 1 degrees of freedom); n/a (None) with fewer than
    two differences, which have no spread to test against."""
    s = summarise(differences)
    if s.n < 2:
        return TestResult("paired t (mean difference)", None, None)
    if not s.std:
        return TestResult("paired t (mean difference)", 0.0, 1.0)
    t = s.mean / (s.std / math.sqrt(s.n))
    return TestResult("paired t (mean difference)", t, t_two_sided_p(t, s.n - 1))


def sign_test(values_one: Sequence[float], values_two: Sequence[float]) -> TestResult:
    """Exact sign test on paired values: of the pairs that differ, how many are higher under
    condition 2. With win = 1, draw = ½, loss = 0 this is McNemar's test, extended to draws
    counted as half a win (a draw beside a loss is a better result, beside a win a worse one)."""
    up = sum(b > a for a, b in zip(values_one, values_two))
    down = sum(b < a for a, b in zip(values_one, values_two))
    result = mcnemar_exact(up, down)
    return TestResult("exact sign test (McNemar; paired by seed)", result.statistic,
                      result.p_value)
