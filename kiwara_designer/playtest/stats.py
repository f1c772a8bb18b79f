"""Small, dependency-free statistics: Wilson intervals, summaries and the significance tests used by
``kiwara compare``. Everything is plain maths so that it can be checked by hand in the tests."""
from __future__ import annotations

import math
from dataclasses import dataclass
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


@dataclass(frozen=True)
class Summary:
    """Mean, sample standard deviation and a 95 % normal interval of the mean."""

    n: int
    mean: float | None
    std: float | None
    low: float | None
    high: float | None

    def to_json(self) -> dict:
        return {"mean": self.mean, "std": self.std, "low": self.low, "high": self.high, "n": self.n}


def summarise(values: Sequence[float]) -> Summary:
    n = len(values)
    if n == 0:
        return Summary(0, None, None, None, None)
    mean = math.fsum(values) / n
    if n == 1:
        return Summary(1, mean, 0.0, mean, mean)
    std = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1))
    half = Z95 * std / math.sqrt(n)
    return Summary(n, mean, std, mean - half, mean + half)


def normal_two_sided_p(z: float) -> float:
    """P(|Z| >= |z|) for a standard normal Z."""
    return math.erfc(abs(z) / math.sqrt(2))


@dataclass(frozen=True)
class TestResult:
    name: str
    statistic: float
    p_value: float

    def to_json(self) -> dict:
        return {"test": self.name, "statistic": self.statistic, "p_value": self.p_value}


def two_proportion_z_test(x1: float, n1: int, x2: float, n2: int) -> TestResult:
    """Pooled two-proportion z test of p1 = p2 (independent samples)."""
    if n1 == 0 or n2 == 0:
        return TestResult("two-proportion z", 0.0, 1.0)
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


def paired_z_test(differences: Sequence[float]) -> TestResult:
    """Paired test of mean difference 0 (normal approximation to the paired t test; the lab
    compares hundreds of games, where the two agree to the third decimal)."""
    s = summarise(differences)
    if s.n < 2 or not s.std:
        return TestResult("paired z (mean difference)", 0.0, 1.0)
    z = s.mean / (s.std / math.sqrt(s.n))
    return TestResult("paired z (mean difference)", z, normal_two_sided_p(z))
