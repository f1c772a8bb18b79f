"""Small, dependency-free statistics: Wilson intervals, summaries with Student t intervals and
the significance tests used by ``kiwara compare``. Everything is plain maths so that it can be
checked by hand (and against printed tables) in the tests."""
from __future__ import annotations

import dataclasses
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


def bounded_summary(values: Sequence[float], low: float, high: float) -> Summary:
    """Mean, sd and a 95 % interval of values bounded in [``low``, ``high``] (a paired change of
    win rate, in [−1, 1]): the t interval clipped to the bounds, except when every value agrees.
    Then the sample sd is 0 and the t interval has width 0, which says nothing of the variance:
    the Wilson score interval of the rescaled mean is given instead, which assumes the largest
    variance a bounded variable of that mean can have (a card that changed no game of 4 pairs:
    [−0.70, 0.70], not [0, 0]). One value: no interval, as :func:`summarise`."""
    plain = summarise(values, (low, high))
    if plain.n < 2 or plain.std:
        return plain
    span = high - low
    lo, hi = wilson_interval((plain.mean - low) / span * plain.n, plain.n)
    return Summary(plain.n, plain.mean, plain.std, low + span * lo, low + span * hi)


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


# -- homogeneity: does a metric vary between setups at all? -----------------------------------
# The χ² and F distributions through the regularized incomplete gamma and beta functions
# (Numerical Recipes, 3rd ed., §6.2 and §6.4: the series below a + 1, Lentz's continued fraction
# above), in plain floats: no scipy.

def _gamma_series(a: float, x: float) -> float:
    """P(a, x) by its series, for x < a + 1."""
    term = total = 1.0 / a
    ap = a
    for _ in range(10_000):
        ap += 1
        term *= x / ap
        total += term
        if abs(term) < abs(total) * 1e-16:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _gamma_fraction(a: float, x: float) -> float:
    """Q(a, x) by its continued fraction (modified Lentz), for x ≥ a + 1."""
    tiny = 1e-300
    b = x + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        step = d * c
        h *= step
        if abs(step - 1) < 1e-16:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


def gamma_q(a: float, x: float) -> float:
    """The regularized upper incomplete gamma function Q(a, x) = Γ(a, x) / Γ(a)."""
    if a <= 0:
        raise ValueError(f"gamma_q needs a > 0, got {a}")
    if x <= 0:
        return 1.0
    return 1 - _gamma_series(a, x) if x < a + 1 else _gamma_fraction(a, x)


def chi2_sf(x: float, df: float) -> float:
    """P(X ≥ x) for X ~ χ² with ``df`` degrees of freedom: Q(df/2, x/2)."""
    return gamma_q(df / 2, x / 2)


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1, a - 1
    c, d = 1.0, 1 - qab * x / qap
    d = 1 / (tiny if abs(d) < tiny else d)
    h = d
    for m in range(1, 10_000):
        m2 = 2 * m
        for aa in (m * (b - m) * x / ((qam + m2) * (a + m2)),
                   -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))):
            d = 1 + aa * d
            d = 1 / (tiny if abs(d) < tiny else d)
            c = 1 + aa / c
            c = tiny if abs(c) < tiny else c
            h *= d * c
        if abs(d * c - 1) < 1e-16:
            break
    return h


def beta_inc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if not 0 <= x <= 1:
        raise ValueError(f"beta_inc needs 0 <= x <= 1, got {x}")
    if x in (0.0, 1.0):
        return x
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                     + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return front * _beta_fraction(a, b, x) / a
    return 1 - front * _beta_fraction(b, a, 1 - x) / b


def f_sf(f: float, df1: float, df2: float) -> float:
    """P(X ≥ f) for X ~ F(df1, df2): I_{df2 / (df2 + df1 f)}(df2/2, df1/2)."""
    if f <= 0:
        return 1.0
    return beta_inc(df2 / 2, df1 / 2, df2 / (df2 + df1 * f))


def _quantile(sf, p: float) -> float:
    """The x with sf(x) = p (an upper-tail quantile), by bisection on a decreasing sf."""
    low, high = 0.0, 1.0
    while sf(high) > p:
        low, high = high, high * 2
    for _ in range(200):
        mid = (low + high) / 2
        low, high = (mid, high) if sf(mid) > p else (low, mid)
    return (low + high) / 2


def chi2_quantile(p: float, df: float) -> float:
    """The χ² quantile below which a share ``p`` lies (3.841 for p = 0.95, df = 1)."""
    return _quantile(lambda x: chi2_sf(x, df), 1 - p)


def f_quantile(p: float, df1: float, df2: float) -> float:
    """The F(df1, df2) quantile below which a share ``p`` lies."""
    return _quantile(lambda x: f_sf(x, df1, df2), 1 - p)


@dataclass(frozen=True)
class Homogeneity:
    """Whether a metric differs between k setups (groups of games), and by how much.

    ``test``: "Pearson chi2" (rates: the k × 2 table) or "one-way ANOVA F" (means);
    ``statistic``, ``df`` (an int, or (k − 1, N − k) for F) and ``p_value``: the test of "every
    setup has the same true value". ``between_sd``: the DerSimonian–Laird estimate τ of the sd of
    the setups' true values, ``between_sd_low``/``between_sd_high`` its 95 % Q-profile interval;
    ``detectable``: the between-setup sd this test would detect with 80 % power at the 5 % level
    (see :func:`detectable_sd`). ``pooled``: the value over all games; ``setups``: k.
    Everything is None when there is nothing to test (fewer than two setups with games)."""

    test: str
    setups: int
    statistic: float | None
    df: int | tuple[int, int] | None
    p_value: float | None
    pooled: float | None
    between_sd: float | None
    between_sd_low: float | None
    between_sd_high: float | None
    detectable: float | None
    p_adjusted: float | None = None    # when tested with other metrics: Holm-adjusted

    @property
    def p_read(self) -> float | None:
        """The p-value to read: the adjusted one when the test was one of several."""
        return self.p_value if self.p_adjusted is None else self.p_adjusted

    def varies(self, level: float = 0.05) -> bool | None:
        """True when the test rejects "no difference" at ``level`` (None: no test), read on
        the adjusted p-value when there is one."""
        return None if self.p_read is None else self.p_read < level

    def to_json(self) -> dict:
        return {"test": self.test, "setups": self.setups, "statistic": self.statistic,
                "df": list(self.df) if isinstance(self.df, tuple) else self.df,
                "p_value": self.p_value, "p_adjusted": self.p_adjusted, "pooled": self.pooled,
                "between_sd": self.between_sd, "between_sd_low": self.between_sd_low,
                "between_sd_high": self.between_sd_high, "detectable": self.detectable}


def _untestable(test: str, k: int, pooled: float | None = None) -> Homogeneity:
    return Homogeneity(test, k, None, None, None, pooled, None, None, None, None)


def generalised_q(values: Sequence[float], variances: Sequence[float], tau2: float) -> float:
    """Q(τ²) = Σ (yᵢ − μ̂)² / (vᵢ + τ²), μ̂ the mean weighted by 1/(vᵢ + τ²) (Cochran's Q at
    τ² = 0); it falls as τ² grows."""
    weights = [1 / (v + tau2) for v in variances]
    mean = math.fsum(w * y for w, y in zip(weights, values)) / math.fsum(weights)
    return math.fsum(w * (y - mean) ** 2 for w, y in zip(weights, values))


def dersimonian_laird(values: Sequence[float], variances: Sequence[float]) -> float:
    """τ² = max(0, (Q − (k − 1)) / (Σw − Σw²/Σw)), w = 1/vᵢ (DerSimonian & Laird 1986)."""
    w = [1 / v for v in variances]
    q = generalised_q(values, variances, 0.0)
    denominator = math.fsum(w) - math.fsum(x * x for x in w) / math.fsum(w)
    return max(0.0, (q - (len(values) - 1)) / denominator) if denominator > 0 else 0.0


def q_profile_interval(values: Sequence[float], variances: Sequence[float],
                       confidence: float = 0.95) -> tuple[float, float]:
    """The Q-profile interval of τ² (Viechtbauer 2007): the τ² where Q(τ²) equals the χ²(k − 1)
    quantiles (1 + c)/2 (lower end) and (1 − c)/2 (upper end); 0 where Q(0) is already below."""
    df = len(values) - 1
    spread = max(values) - min(values)

    def solve(target: float) -> float:
        if generalised_q(values, variances, 0.0) <= target:
            return 0.0
        low, high = 0.0, max(spread * spread, max(variances))
        while generalised_q(values, variances, high) > target:
            low, high = high, high * 2
        for _ in range(100):
            mid = (low + high) / 2
            low, high = (mid, high) if generalised_q(values, variances, mid) > target \
                else (low, mid)
        return (low + high) / 2

    return (solve(chi2_quantile((1 + confidence) / 2, df)),
            solve(chi2_quantile((1 - confidence) / 2, df)))


def detectable_sd(within_variance: float, sizes: Sequence[int], df2: int | None = None,
                  level: float = 0.05, power: float = 0.8) -> float:
    """The between-setup sd τ that the homogeneity test detects with probability ``power`` at
    ``level``. With n games in each of k setups, Q / (1 + nτ²/σ²) is χ²(k − 1) (balanced
    one-way random-effects model; F(k − 1, df2) for the ANOVA's mean squares), so the power is
    P(χ² > c₁₋ₐ / (1 + nτ²/σ²)) and reaches ``power`` when 1 + nτ²/σ² = c₁₋ₐ / c₁₋ₚₒwₑᵣ:

        τ = σ · √((c₁₋ₐ / c₁₋ₚₒwₑᵣ − 1) / ñ),   ñ = the harmonic mean of the setups' games.

    (k = 40, 4,000 games each, σ² = 1/4: τ ≈ 0.0068.)"""
    k = len(sizes)
    harmonic = k / math.fsum(1 / n for n in sizes)
    if df2 is None:
        ratio = chi2_quantile(1 - level, k - 1) / chi2_quantile(1 - power, k - 1)
    else:
        ratio = f_quantile(1 - level, k - 1, df2) / f_quantile(1 - power, k - 1, df2)
    return math.sqrt(within_variance * (ratio - 1) / harmonic)


def _spread(values: Sequence[float], variances: Sequence[float]) -> tuple[float, float, float]:
    low, high = q_profile_interval(values, variances)
    return math.sqrt(dersimonian_laird(values, variances)), math.sqrt(low), math.sqrt(high)


def rate_homogeneity(counts: Sequence[tuple[float, int]]) -> Homogeneity:
    """Do k rates differ? ``counts``: (successes, trials) per setup (a draw may count ½).

    Pearson's χ² on the k × 2 table, X² = Σ (xᵢ − nᵢp̄)² / (nᵢ p̄ (1 − p̄)), p̄ = Σx / Σn, on
    k − 1 degrees of freedom (Cochran 1954). It is Cochran's Q of the rates with the within
    variances vᵢ = p̄(1 − p̄)/nᵢ, which the between-setup sd uses too (DerSimonian–Laird τ with
    its Q-profile interval, whose upper end is capped at ½, the largest sd of values in
    [0, 1]). Setups without trials are left out."""
    rows = [(x, n) for x, n in counts if n > 0]
    k = len(rows)
    name = "Pearson chi2"
    if k == 0:
        return _untestable(name, 0)
    total = sum(n for _, n in rows)
    pooled = math.fsum(x for x, _ in rows) / total
    if k < 2:
        return _untestable(name, k, pooled)
    if pooled in (0.0, 1.0):          # every game alike: nothing varies
        return Homogeneity(name, k, 0.0, k - 1, 1.0, pooled, 0.0, 0.0, 0.0, 0.0)
    sigma2 = pooled * (1 - pooled)
    values = [x / n for x, n in rows]
    variances = [sigma2 / n for _, n in rows]
    statistic = generalised_q(values, variances, 0.0)
    tau, low, high = _spread(values, variances)
    # rates lie in [0, 1], whose sd is at most ½: the Q-profile end of a few setups is not
    return Homogeneity(name, k, statistic, k - 1, chi2_sf(statistic, k - 1), pooled, tau, low,
                       min(high, 0.5), detectable_sd(sigma2, [n for _, n in rows]))


def mean_homogeneity(groups: Sequence[tuple[int, float | None, float | None]]) -> Homogeneity:
    """Do k means differ? ``groups``: (n, mean, sd) per setup (sd None for a single value).

    One-way ANOVA: F = [SSB/(k − 1)] / [SSW/(N − k)], SSB = Σ nᵢ(ȳᵢ − ȳ)², SSW = Σ (nᵢ − 1)sᵢ²,
    on (k − 1, N − k) degrees of freedom. The between-setup sd is DerSimonian–Laird's τ with
    vᵢ = MSW/nᵢ, which equals the ANOVA's method-of-moments (MSB − MSW)/n₀, with its Q-profile
    interval (Q = SSB/MSW, read against χ²(k − 1): MSW is taken as known)."""
    rows = [(n, m, s) for n, m, s in groups if n > 0 and m is not None]
    k = len(rows)
    name = "one-way ANOVA F"
    if k == 0:
        return _untestable(name, 0)
    total = sum(n for n, _, _ in rows)
    pooled = math.fsum(n * m for n, m, _ in rows) / total
    if k < 2 or total - k < 1:
        return _untestable(name, k, pooled)
    ssb = math.fsum(n * (m - pooled) ** 2 for n, m, _ in rows)
    ssw = math.fsum((n - 1) * s * s for n, _, s in rows if s is not None)
    df1, df2 = k - 1, total - k
    if ssw == 0:                      # no spread within any setup
        p = 1.0 if ssb == 0 else 0.0
        return Homogeneity(name, k, None if ssb else 0.0, (df1, df2), p, pooled,
                           None if ssb else 0.0, None, None, None)
    msw = ssw / df2
    f = ssb / df1 / msw
    values = [m for _, m, _ in rows]
    variances = [msw / n for n, _, _ in rows]
    tau, low, high = _spread(values, variances)
    return Homogeneity(name, k, f, (df1, df2), f_sf(f, df1, df2), pooled, tau, low, high,
                       detectable_sd(msw, [n for n, _, _ in rows], df2))


def blocked_homogeneity(table: Sequence[Sequence[float]]) -> Homogeneity:
    """Do k setups differ, their games paired by game index? ``table[s][i]``: game i's value on
    setup s (a first-player result 1, ½ or 0, or any per-game number), every setup the same
    games. Two-way ANOVA without replication, setups × game index (the index is a block: game i
    of every setup shares its seed, common random numbers): F = MS_setups / MS_residual on
    (k − 1, (k − 1)(b − 1)) df; for 0/1 values it is the F form of Cochran's Q test (Cochran
    1950). Removing the index's share of the variance is what gains power over the pooled test
    when games with one seed are alike. The spread (τ from (MS_setups − MS_residual)/b) is
    given without an interval."""
    k, b = len(table), len(table[0]) if table else 0
    name = "two-way ANOVA F, blocked by game index"
    if k < 2 or b < 2 or any(len(row) != b for row in table):
        return _untestable(name, k)
    grand = math.fsum(v for row in table for v in row) / (k * b)
    setup_means = [math.fsum(row) / b for row in table]
    index_means = [math.fsum(row[i] for row in table) / k for i in range(b)]
    ss_setups = b * math.fsum((m - grand) ** 2 for m in setup_means)
    ss_index = k * math.fsum((m - grand) ** 2 for m in index_means)
    ss_total = math.fsum((v - grand) ** 2 for row in table for v in row)
    df1, df2 = k - 1, (k - 1) * (b - 1)
    ms_error = max(ss_total - ss_setups - ss_index, 0.0) / df2
    ms_setups = ss_setups / df1
    if ms_error == 0:
        p = 1.0 if ms_setups == 0 else 0.0
        return Homogeneity(name, k, None, (df1, df2), p, grand, None, None, None, None)
    f = ms_setups / ms_error
    tau = math.sqrt(max(0.0, (ms_setups - ms_error) / b))
    return Homogeneity(name, k, f, (df1, df2), f_sf(f, df1, df2), grand, tau, None, None,
                       detectable_sd(ms_error, [b] * k, df2))


def holm_together(tests: dict) -> dict:
    """``tests`` ({key: Homogeneity}) with the p-values of those tested Holm-adjusted over
    them (``p_adjusted``), so that a "differ" said of any keeps the 5 % error for the family."""
    tested = [key for key, h in tests.items() if h.p_value is not None]
    adjusted = dict(zip(tested, holm([tests[key].p_value for key in tested])))
    return {key: dataclasses.replace(h, p_adjusted=adjusted[key]) if key in adjusted else h
            for key, h in tests.items()}


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjustment of ``p_values`` for testing them together (Holm 1979): the
    family-wise error stays at the level each adjusted p is compared with. All nan if any is
    nan (a fit without residuals leaves them). Written here, as statsmodels' ``multipletests``
    (which gives the same, tested) runs a full garbage collection on every call: 0.1 s, which
    the null simulation of the suite would pay hundreds of times."""
    if any(not math.isfinite(p) for p in p_values):
        return [math.nan] * len(p_values)
    m = len(p_values)
    adjusted, running = [0.0] * m, 0.0
    for rank, i in enumerate(sorted(range(m), key=lambda i: p_values[i])):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted
