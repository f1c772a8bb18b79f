"""Racing: find the k best of many arms (layouts, variants, …) by playing games adaptively, with
a stated confidence, spending the games where they decide something.

Game-neutral: an *arm* is any hashable key, and the race only asks a callback to "play ``c`` more
games of arm ``i`` and return their per-game values". The lab plugs its matches and results
store in (:mod:`.race_lab`); a simulation plugs in coin flips.

**The guarantee.** Assume (1) each game of an arm gives a value in a known range [a, b], (2) the
observations of one arm (its games, or its seat-swapped pairs of games in a paired race) are
independent and identically distributed, and (3) an arm's n-th game does not depend on when the
race asks for it (seeded games, one stream an arm); nothing is assumed about how different
arms' games relate. Let μᵢ be arm i's true mean and s(μ) the objective (the mean itself, or a
known function of it such as balance = 1 − 2|μ − ½|). Then with probability at least 1 − δ, *at
every moment of the race at once*, every arm's true mean lies in its interval (a confidence
*sequence*: the interval may be looked at after every game without paying for it), and so:

* if the race stops *separated*, every arm it returns has s(μᵢ) ≥ s₍ₖ₎ − ε, where s₍ₖ₎ is the k-th
  best true objective and ε the tolerance (with ε = 0 the returned arms are a true top k);
* an arm is eliminated only when k other arms are certainly better;
* if the budget runs out first, the race says so and returns its best guess without a guarantee
  (the arms already accepted keep theirs).

**The unit** (``paired``). In the lab, games 2j and 2j + 1 of an arm share a seed with the
seats swapped, so they need not be independent: fed games as if independent, the betting
interval below left its one-sided bound in 9.7 % of fair-coin sequences at a nominal 5 % when a
pair's second game repeated the first with probability 0.6 (1.7 % on pairs). A paired race takes
the *pair* as its unit: the mean of games 2j and 2j + 1 is one observation (in [a, b] too), the
pairs of an arm are independent and identically distributed, and an odd game waits for its
partner before it counts in the interval (it counts in the estimate). Requests are rounded up to
whole pairs.

**The interval** (``interval="betting"``, the default: Waudby-Smith & Ramdas 2023, "Estimating
means of bounded random variables by betting", J. R. Stat. Soc. B 86(1), a betting confidence
sequence). Scale the observations to xᵢ ∈ [0, 1]. For a candidate mean m and a constant bet
λ ∈ (0, 1), the capital Kₙ(m, λ) = ∏ (1 + λ (xᵢ − m)) is a nonnegative martingale when m is the
true mean, and so is the mixture Mₙ(m) = Σⱼ πⱼ Kₙ(m, λⱼ) over a fixed grid of bets (λⱼ = 0.9 ·
2^(−j/2), j = 0 … 15, πⱼ = 1/16: diversified constant bets, the paper's "dKelly"). By Ville's
inequality P(∃n: Mₙ(μ) ≥ 1/α) ≤ α, and Mₙ(m) decreases in m, so the lower bound after n
observations is the m where Mₙ(m) = 1/α (regula falsi); the upper bound is the same on 1 − xᵢ.
The capital adapts to the variance (a rate near 0 or 1, negatively correlated pairs) and, near
½, is about 10 % narrower than the sub-Gaussian sequence below at 1,000–100,000 games (tested).
The observations are kept as a histogram on the grid 0, 1/16, …, 1 (a value between two grid
points split between them in proportion: log(1 + λ(x − m)) is concave in x, so the split never
raises the capital and the bound stays valid; exact for win rates, whose pair means are
multiples of ¼): constant memory an arm, deterministic.

``interval="stitched"`` keeps the former sequence (Howard, Ramdas, McAuliffe & Sekhon 2021,
"Time-uniform, nonparametric, nonasymptotic confidence sequences", Ann. Statist. 49(2), Theorem 1
with polynomial stitching, η = 2, s = 1.4, sub-Gaussian case). A value in [a, b] is σ-sub-Gaussian
with σ = (b − a)/2, so the centred sum Sₙ of n values satisfies, with probability ≥ 1 − α, for all
n ≥ 1 at once,

    Sₙ ≤ k₁ √(Vₙ ℓ(Vₙ)),   Vₙ = σ² n,   ℓ(v) = s·log log(η v / σ²) + log(ζ(s) / (α · (log η)ˢ)),
    k₁ = (η^¼ + η^-¼) / √2

so the mean's radius after n values is rₙ = k₁ √(Vₙ ℓ(Vₙ)) / n (≈ 1.7 σ √((log log 2n + 0.72
log(5.2/α)) / n)).

Either way each arm gets α = δ / (2K) on each side (K arms, a union bound over arms and sides,
which needs no independence between arms: the lab's arms share their games' seeds), and keeps
the running intersection of its intervals (still valid, never wider).

**The race** (successive accepts and rejects, Bubeck, Wang & Viswanathan 2013; racing, Maron &
Moore 1994): each round some undecided arms play more games (which ones and how many:
:meth:`Race.requests`); then, with [Lᵢ, Uᵢ] the objective's interval of arm i,

* reject i if at least k arms j have Lⱼ > Uᵢ (i is certainly not in the top k);
* accept i if at least K − k arms j ≠ i have Uⱼ − ε ≤ Lᵢ (no more than k − 1 arms can beat i by
  more than ε);

accepted and rejected arms play no more. The race stops *separated* when k arms are accepted, or
when the accepted and undecided arms together number k (all others rejected); it stops on the
*budget* when the next round cannot be played. The rounds are a fixed function of the arms'
value sequences, so a race resumed from stored games makes exactly the same decisions.

**Which arms play** (``strategy="lucb"``, the default) decides only the cost, never the
guarantee (each interval holds at every count, so any adaptive choice is allowed). After a
first round of n₁ games each, the race draws a line c between the k best estimates T and the
rest, where the fewest further games are predicted to settle it: every undecided arm of T must
reach Lᵢ ≥ c and every other undecided arm Uⱼ ≤ c + ε (an interval's radius shrinks about as
1/√n, so an arm whose radius is r after n games needs about n (r/ρ)² to reach a radius ρ). For
balance, c = 1 − ε asks nothing of the other arms (every upper bound is at most 1), so arms
whose interval covers ½, stuck at an upper bound of 1, sit out while an arm of T can clear
1 − ε. The arms on the wrong side of the line play, and only while something on the other side
still stops the accept rule; each goes to its predicted need, at most g times the largest count
among them and four times its own (at least 5 % more than it has). An arm that fell behind so
rejoins the others within a round or two, and arms that cannot change the outcome wait.
"""
from __future__ import annotations

import math
from bisect import bisect_right
from statistics import NormalDist
from dataclasses import dataclass, field
from typing import Callable, Hashable, Mapping, Sequence

from ..core.errors import KiwaraError

Arm = Hashable
ACCEPTED, REJECTED, UNDECIDED = "accepted", "rejected", "undecided"
STRATEGIES = ("lucb", "eliminate", "uniform")

# Polynomial stitching constants of Howard et al. (2021), Theorem 1: η = 2, s = 1.4.
STITCH_ETA = 2.0
STITCH_S = 1.4
ZETA_S = 3.1055472779775810         # Riemann ζ(1.4)


# The betting sequence: a grid of constant bets, equally weighted, and the histogram's grid.
BETS = tuple(0.9 * 2 ** (-j / 2) for j in range(16))
NEGATIVE_BETS = tuple(-bet for bet in BETS)
LOG_BETS = math.log(len(BETS))
HISTOGRAM_STEPS = 16
ROOT_STEPS = 100
ROOT_PRECISION = 1e-9
INTERVALS = ("betting", "stitched")

# The allocation (Race.requests): lines tried between the k-th and the (k+1)-th estimate, and how
# many times its own count an arm that fell behind may jump in one round to rejoin the others.
LINES = 48
CATCH_UP = 4.0
MIN_STEP = 1.05


class RacingError(KiwaraError):
    """A race that cannot be run as asked (no arms, k out of range, a bad range of values)."""


def stitched_radius(n: int, alpha: float, sigma: float) -> float:
    """One-sided radius of the mean of ``n`` σ-sub-Gaussian values, valid for every n ≥ 1 at once
    with probability ≥ 1 − ``alpha`` (Howard et al. 2021, polynomial stitching; see the module
    docstring). Infinite before the first game."""
    if n <= 0:
        return math.inf
    variance = sigma * sigma * n
    ell = (STITCH_S * math.log(math.log(STITCH_ETA * n))
           + math.log(ZETA_S / (alpha * math.log(STITCH_ETA) ** STITCH_S)))
    k1 = (STITCH_ETA ** 0.25 + STITCH_ETA ** -0.25) / math.sqrt(2)
    return k1 * math.sqrt(variance * max(ell, 0.0)) / n


class BettingSequence:
    """The betting confidence sequence of one arm's observations scaled to [0, 1] (see the
    module docstring): a histogram on the grid 0, 1/B, …, 1 and the bounds it allows."""

    __slots__ = ("weights", "count", "total")

    def __init__(self) -> None:
        self.weights = [0.0] * (HISTOGRAM_STEPS + 1)
        self.count = 0
        self.total = 0.0

    def add(self, x: float) -> None:
        """One observation in [0, 1], split between the grid points around it."""
        x = min(1.0, max(0.0, x))
        scaled = x * HISTOGRAM_STEPS
        below = min(int(scaled), HISTOGRAM_STEPS - 1)
        share = scaled - below
        if share < 1e-12:
            self.weights[below] += 1.0
        elif share > 1 - 1e-12:
            self.weights[below + 1] += 1.0
        else:
            self.weights[below] += 1.0 - share
            self.weights[below + 1] += share
        self.count += 1
        self.total += x

    def log_capital(self, m: float, side: int = 1) -> float:
        """log Mₙ(m): the mixture of the constant bets' capitals against mean m; ``side`` +1
        bets on values above m (it grows when the mean is above m: the lower bound), −1 below."""
        return self._log_capital(self._points(), m, side)

    def _points(self) -> list[tuple[float, float]]:
        return [(g / HISTOGRAM_STEPS, w) for g, w in enumerate(self.weights) if w]

    @staticmethod
    def _log_capital(points: list[tuple[float, float]], m: float, side: int) -> float:
        log1p = math.log1p
        shifted = [(x - m, w) for x, w in points]
        logs = [sum(w * log1p(bet * d) for d, w in shifted)
                for bet in (BETS if side > 0 else NEGATIVE_BETS)]
        top = max(logs)
        return top + math.log(sum(math.exp(v - top) for v in logs)) - LOG_BETS

    def bound(self, alpha: float, side: int = 1, known: float | None = None) -> float:
        """The lower (``side`` +1) or upper (−1) bound at level α: (a point within 10⁻⁹ of) the
        m where the capital reaches 1/α, 0 or 1 when no m is rejected yet. ``known``: a bound
        already held (the running intersection); it is returned unchanged when the capital does
        not reject it, which saves the search."""
        far = 0.0 if side > 0 else 1.0
        if not self.count:
            return far
        if known is not None and (known - far) * side > 0:
            far = known
        threshold = math.log(1 / alpha)
        points = self._points()
        if self._log_capital(points, far, side) < threshold:
            return far
        # the Illinois variant of regula falsi between a point the capital rejects (outside)
        # and the mean, which it never rejects (inside); the capital is smooth and monotone
        outside, g_out = far, self._log_capital(points, far, side) - threshold
        inside = self.total / self.count
        g_in = self._log_capital(points, inside, side) - threshold
        last = 0
        for _ in range(ROOT_STEPS):
            if abs(inside - outside) <= ROOT_PRECISION:
                break
            mid = outside - g_out * (inside - outside) / (g_in - g_out)
            if not min(outside, inside) < mid < max(outside, inside):
                mid = (inside + outside) / 2
            g_mid = self._log_capital(points, mid, side) - threshold
            if g_mid >= 0:
                outside, g_out = mid, g_mid
                if last > 0:
                    g_in /= 2
                last = 1
            else:
                inside, g_in = mid, g_mid
                if last < 0:
                    g_out /= 2
                last = -1
        return outside


# -- objectives: the quantity ranked, as a function of an arm's mean -------------------------------
@dataclass(frozen=True)
class Objective:
    """What is ranked, higher is better: ``value(mean)`` and its bounds over an interval of the
    mean. Only the mean is estimated; any function of it whose range over an interval is known
    can be raced, and the intervals keep their coverage (they are images of the mean's)."""

    name: str
    kind: str = "mean"           # "mean", "lowest" (minimise the mean) or "closest"
    target: float = 0.5          # for "closest": value = 1 − 2·|mean − target| (balance at ½)

    def value(self, mean: float) -> float:
        if self.kind == "mean":
            return mean
        if self.kind == "lowest":
            return -mean
        return 1 - 2 * abs(mean - self.target)

    def bounds(self, low: float, high: float) -> tuple[float, float]:
        """The objective's range over the means in [low, high]: its minimum and maximum there
        (balance: 1 exactly when the interval covers ½, else the end nearer ½)."""
        if self.kind == "closest":
            ends = (self.value(low), self.value(high))
            top = 1.0 if low <= self.target <= high else max(ends)
            return min(ends), top
        a, b = self.value(low), self.value(high)
        return min(a, b), max(a, b)

    def radius_for(self, mean: float, low: float | None = None,
                   high: float | None = None, best: float = math.inf) -> float:
        """The largest radius ρ of a mean interval [mean − ρ, mean + ρ] whose objective range
        lies at or above ``low`` (an arm to accept) or at or below ``high`` (an arm it must beat);
        ``best`` is the highest value the objective can take, which any upper bound meets (ρ is
        then unlimited). Negative when the objective at ``mean`` itself is on the wrong side."""
        slope = 2.0 if self.kind == "closest" else 1.0
        if low is not None:
            return (self.value(mean) - low) / slope
        assert high is not None
        if high >= best:
            return math.inf
        return (high - self.value(mean)) / slope


HIGHEST_MEAN = Objective("mean")
BALANCE = Objective("balance", "closest", 0.5)


# -- the race ------------------------------------------------------------------------------------------
@dataclass
class ArmState:
    arm: Arm
    games: int = 0
    total: float = 0.0
    low: float = -math.inf       # running intersection of the mean's intervals
    high: float = math.inf
    status: str = UNDECIDED
    decided_round: int | None = None
    decided_after: int | None = None     # games played in the whole race when it was decided
    units: int = 0                       # observations in the interval (games, or pairs)
    unit_total: float = 0.0              # their sum, scaled to [0, 1]
    unit_squares: float = 0.0            # and the sum of their squares
    waiting: list = field(default_factory=list)    # a paired race's odd game, scaled
    sequence: BettingSequence = field(default_factory=BettingSequence)

    @property
    def mean(self) -> float | None:
        return self.total / self.games if self.games else None


@dataclass(frozen=True)
class ArmResult:
    arm: Arm
    games: int
    estimate: float | None        # objective at the arm's mean
    low: float                    # objective's interval
    high: float
    mean: float | None
    status: str                   # accepted, rejected or undecided
    decided_round: int | None
    decided_after: int | None

    def to_json(self) -> dict:
        return {"arm": self.arm if isinstance(self.arm, (int, str)) else repr(self.arm),
                "games": self.games, "estimate": self.estimate, "low": self.low,
                "high": self.high, "mean": self.mean, "status": self.status,
                "decided_round": self.decided_round, "decided_after": self.decided_after}


@dataclass(frozen=True)
class RaceResult:
    top: tuple[Arm, ...]           # the k arms named, best estimate first
    separated: bool                # True: the guarantee holds; False: the budget ran out
    reason: str                    # "separated" or "budget"
    games: int
    rounds: int
    k: int
    delta: float
    tolerance: float
    objective: str
    arms: tuple[ArmResult, ...] = field(repr=False)
    first_round: dict | None = None   # Race.spread() after the first round (see there)

    def arm(self, key: Arm) -> ArmResult:
        return next(a for a in self.arms if a.arm == key)

    def to_json(self) -> dict:
        return {"top": [a if isinstance(a, (int, str)) else repr(a) for a in self.top],
                "separated": self.separated, "reason": self.reason, "games": self.games,
                "rounds": self.rounds, "k": self.k, "delta": self.delta,
                "tolerance": self.tolerance, "objective": self.objective,
                "first_round": self.first_round, "arms": [a.to_json() for a in self.arms]}


PlayMore = Callable[[Mapping[Arm, int]], Mapping[Arm, Sequence[float]]]


@dataclass(frozen=True)
class RaceSettings:
    k: int = 1
    delta: float = 0.05
    tolerance: float = 0.0
    value_range: tuple[float, float] = (0.0, 1.0)
    objective: Objective = HIGHEST_MEAN
    first_round: int = 32
    growth: float = 1.25
    budget: int | None = None
    strategy: str = "lucb"       # which arms play each round: see Race.requests
    paired: bool = False         # games 2j and 2j + 1 are one observation (seat-swapped pairs)
    interval: str = "betting"    # the confidence sequence: "betting" or "stitched"

    def check(self, arms: int) -> None:
        if arms < 1:
            raise RacingError("a race needs at least one arm")
        if not 1 <= self.k <= arms:
            raise RacingError(f"k must be between 1 and the number of arms ({arms}), got {self.k}")
        if not 0 < self.delta < 1:
            raise RacingError(f"the error probability must be between 0 and 1, got {self.delta}")
        if not 0 <= self.tolerance < math.inf:         # nan accepted every arm at once
            raise RacingError(f"the tolerance must be a finite number at least 0, got "
                              f"{self.tolerance}")
        low, high = self.value_range
        if not high > low:
            raise RacingError(f"the range of a game's value must be a < b, got {self.value_range}")
        if self.first_round < 1 or self.growth <= 1:
            raise RacingError("the first round needs at least one game and the growth must be > 1")
        if self.strategy not in STRATEGIES:
            raise RacingError(f"unknown strategy {self.strategy!r}; choose from "
                              f"{', '.join(STRATEGIES)}")
        if self.interval not in INTERVALS:
            raise RacingError(f"unknown interval {self.interval!r}; choose from "
                              f"{', '.join(INTERVALS)}")
        if self.budget is not None and self.budget < 0:
            raise RacingError(f"the game budget must be at least 0, got {self.budget}")


class Race:
    """The state of a race; :func:`run_race` drives it. Separate so the lab can show it between
    rounds and a test can feed it by hand."""

    def __init__(self, arms: Sequence[Arm], settings: RaceSettings) -> None:
        if len(set(arms)) != len(arms):
            raise RacingError("the arms of a race must be distinct")
        settings.check(len(arms))
        self.settings = settings
        self.states = {arm: ArmState(arm) for arm in arms}
        self.alpha = settings.delta / (2 * len(arms))   # per arm and side
        self.round = 0
        self.games = 0
        self.first_round: dict | None = None     # spread() after the first round's decisions

    # -- data ---------------------------------------------------------------------------------
    def add(self, arm: Arm, values: Sequence[float]) -> None:
        low, high = self.settings.value_range
        state = self.states[arm]
        for v in values:
            if not low <= v <= high:
                raise RacingError(f"arm {arm!r}: a game's value {v} is outside the stated range "
                                  f"[{low}, {high}]; the guarantee would not hold")
        state.games += len(values)
        state.total += math.fsum(values)
        self.games += len(values)
        width = high - low
        scaled = [(v - low) / width for v in values]
        if self.settings.paired:
            scaled = state.waiting + scaled
            state.waiting = scaled[len(scaled) // 2 * 2:]
            scaled = [(scaled[i] + scaled[i + 1]) / 2 for i in range(0, len(scaled) - 1, 2)]
        if not scaled:
            return
        state.units += len(scaled)
        state.unit_total += math.fsum(scaled)
        state.unit_squares += math.fsum(x * x for x in scaled)
        if self.settings.interval == "betting":
            for x in scaled:
                state.sequence.add(x)
            held_low = (state.low - low) / width if state.low > low else None
            held_high = (state.high - low) / width if state.high < high else None
            lo_ = state.sequence.bound(self.alpha, +1, held_low)
            hi_ = state.sequence.bound(self.alpha, -1, held_high)
        else:
            r = stitched_radius(state.units, self.alpha, 0.5)
            mean = state.unit_total / state.units
            lo_, hi_ = mean - r, mean + r
        state.low = max(state.low, low + width * lo_, low)
        state.high = min(state.high, low + width * hi_, high)

    def interval(self, arm: Arm) -> tuple[float, float]:
        s = self.states[arm]
        lo, hi = self.settings.value_range
        return self.settings.objective.bounds(max(s.low, lo), min(s.high, hi))

    def undecided(self) -> list[Arm]:
        return [a for a, s in self.states.items() if s.status == UNDECIDED]

    # -- decisions ----------------------------------------------------------------------------
    def decide(self) -> None:
        """Accept and reject what the intervals allow (see the module docstring)."""
        k, eps = self.settings.k, self.settings.tolerance
        arms = list(self.states)
        bounds = {a: self.interval(a) for a in arms}
        lows = sorted(b[0] for b in bounds.values())
        highs = sorted(b[1] for b in bounds.values())
        count = len(arms)
        changes = []
        for arm in self.undecided():
            low, high = bounds[arm]
            better = count - bisect_right(lows, high)           # arms j with Lⱼ > Uᵢ
            beaten = bisect_right(highs, low + eps)             # arms j with Uⱼ − ε ≤ Lᵢ
            beaten -= high <= low + eps                          # i counted itself
            if better >= k:
                changes.append((arm, REJECTED))
            elif beaten >= count - k:
                changes.append((arm, ACCEPTED))
        for arm, status in changes:   # decided against the same intervals, then applied
            state = self.states[arm]
            state.status, state.decided_round, state.decided_after = status, self.round, self.games

    def spread(self) -> dict | None:
        """Whether the arms' means differ beyond their observations' noise: the between-arm
        χ² T = Σ nᵢ (x̄ᵢ − x̄)² / s² on K − 1 degrees of freedom (s² the pooled within-arm variance
        of the observations: games, or pairs in a paired race), its p-value by the
        Wilson–Hilferty approximation, and whether any arm is decided yet. On the first round,
        where every arm has the same count, a large p-value with no arm decided says the arms
        look indistinguishable at this sample size. None with fewer than two arms observed
        twice or no variance within them."""
        seen = [x for x in self.states.values() if x.units >= 2]
        if len(seen) < 2:
            return None
        units = sum(x.units for x in seen)
        grand = sum(x.unit_total for x in seen) / units
        within = sum(x.unit_squares - x.unit_total ** 2 / x.units for x in seen)
        variance = within / (units - len(seen))
        if variance <= 0:
            return None
        statistic = sum(x.units * (x.unit_total / x.units - grand) ** 2 for x in seen) / variance
        df = len(seen) - 1
        cube = ((statistic / df) ** (1 / 3) - (1 - 2 / (9 * df))) / math.sqrt(2 / (9 * df))
        p_value = 1 - NormalDist().cdf(cube)
        decided = sum(x.status != UNDECIDED for x in self.states.values())
        return {"arms": len(seen), "units": min(x.units for x in seen),
                "games": min(x.games for x in seen), "statistic": statistic,
                "df": df, "p_value": p_value, "decided": decided}

    def finished(self) -> bool:
        accepted = sum(s.status == ACCEPTED for s in self.states.values())
        return accepted >= self.settings.k or accepted + len(self.undecided()) <= self.settings.k

    def requests(self) -> dict[Arm, int]:
        """Games each arm plays next round (before the budget is applied).

        * ``eliminate``: every undecided arm is brought to ⌈n₁·gʳ⌉ games;
        * ``uniform``: every arm, decided or not (a fixed design that stops when the same rule
          separates: the benchmark's comparison);
        * ``lucb`` (batched LUCB, after Kalyanakrishnan et al. 2012): every arm first plays n₁
          games; then :meth:`contenders` names the arms on the wrong side of the decision line
          with the games each is predicted to need, and each goes to that need, at most g times
          the largest count among them (the round's level) and ``CATCH_UP`` times its own, at
          least ``MIN_STEP`` times its own. The contenders end a round level with each other or
          with what they need: one that fell behind rejoins the others within a round or two
          (it grew by a quarter of its own count before, and stayed behind while the others
          grew by a quarter of theirs), and a round's games grow geometrically with the
          contenders' counts, not with each arm's own history."""
        s = self.settings
        undecided = self.undecided()
        if s.strategy != "lucb":
            target = self._whole(math.ceil(s.first_round * s.growth ** self.round))
            playing = undecided if s.strategy == "eliminate" else list(self.states)
            return {a: max(0, target - self.states[a].games) for a in playing}
        fresh = [a for a in undecided if self.states[a].games == 0]
        if fresh:
            return {a: self._whole(s.first_round) for a in fresh}
        needs = self.contenders()[1] or {a: math.inf for a in undecided}
        if not needs:
            return {}
        level = math.ceil(s.growth * max(self.states[a].games for a in needs))
        wants = {}
        for a, need in needs.items():
            games = self.states[a].games
            target = math.ceil(min(level, CATCH_UP * games, max(need, MIN_STEP * games)))
            wants[a] = self._whole(max(target, games + 1)) - games
        return wants

    def contenders(self) -> tuple[float | None, dict[Arm, float]]:
        """The decision line c and the arms that must play to settle the race on it.

        With T the k best estimates among the arms not rejected (accepted arms first), the race
        is over once every undecided arm of T has Lᵢ ≥ c and every undecided arm outside T has
        Uⱼ ≤ c + ε (then each arm of T has at most k − 1 arms above Lᵢ + ε: accepted). c lies
        between the best estimate outside T minus ε and the worst estimate in T (and at most
        the objective's best value minus ε: balance 1 − ε, where any arm passes the second
        test, so arms whose interval covers ½ need not be played off it). Within that range the
        race takes the c that needs the fewest games, predicted from each arm's interval:
        the radius r of an arm's mean interval shrinks about as 1/√n, so reaching the radius ρ
        that the test needs takes about n (r/ρ)² games. The contenders are the undecided arms
        of T with Lᵢ < c and the undecided arms outside T with Uⱼ > c + ε, each only while an
        arm on the other side still stops the accept rule. (None, []) when there is no line to
        draw (nothing undecided on one side)."""
        s = self.settings
        objective, eps = s.objective, s.tolerance
        lowest, highest = s.value_range
        best = objective.bounds(lowest, highest)[1]
        undecided = self.undecided()
        estimate = {a: objective.value(x.mean) for a, x in self.states.items()
                    if x.mean is not None}
        alive = [a for a, x in self.states.items() if x.status != REJECTED and a in estimate]
        alive.sort(key=lambda a: (self.states[a].status != ACCEPTED, -estimate[a]))
        top = set(alive[:s.k])
        inside = [a for a in undecided if a in top]
        outside = [a for a in undecided if a not in top and a in estimate]
        if not inside or not outside:
            return None, {}
        bounds = {a: self.interval(a) for a in self.states}
        dropped = [bounds[a][1] for a, x in self.states.items() if x.status == REJECTED]
        floor = max([max(estimate[a] for a in outside)] + dropped) - eps
        ceiling = min(min(estimate[a] for a in inside), best - eps)
        radius = {a: (min(self.states[a].high, highest) - max(self.states[a].low, lowest)) / 2
                  for a in inside + outside}

        def needs(line: float) -> dict[Arm, float]:
            """Games each arm needs to pass its test on ``line`` (its count when it passes)."""
            out = {}
            for side, arms in ((True, inside), (False, outside)):
                for a in arms:
                    state = self.states[a]
                    rho = (objective.radius_for(state.mean, low=line) if side else
                           objective.radius_for(state.mean, high=line + eps, best=best))
                    out[a] = (math.inf if rho <= 0 else
                              state.games * max(1.0, (radius[a] / rho) ** 2))
            return out

        def games_needed(line: float) -> float:
            return sum(n - self.states[a].games for a, n in needs(line).items())

        if ceiling > floor:
            lines = [floor + (ceiling - floor) * (i + 1) / LINES for i in range(LINES)]
            line = min(lines, key=games_needed)       # the first of equals: deterministic
        else:
            line = ceiling
        blocking = max([bounds[a][1] for a in outside] + dropped)
        weakest = min(bounds[a][0] for a in inside)
        predicted = needs(line)
        playing = [a for a in inside if bounds[a][0] < line and bounds[a][0] + eps < blocking]
        playing += [a for a in outside if bounds[a][1] > line + eps and bounds[a][1] > weakest + eps]
        return line, {a: predicted[a] for a in playing}

    def _whole(self, games: int) -> int:
        """``games`` rounded up to whole pairs in a paired race."""
        return games + games % 2 if self.settings.paired else games

    def result(self, separated: bool) -> RaceResult:
        s = self.settings
        objective = s.objective

        def estimate(state: ArmState) -> float | None:
            return None if state.mean is None else objective.value(state.mean)

        def rank_key(state: ArmState) -> tuple:
            low, _ = self.interval(state.arm)
            est = estimate(state)
            return (-(est if est is not None else -math.inf), -low)

        def of(status: str) -> list[ArmState]:
            return sorted((x for x in self.states.values() if x.status == status), key=rank_key)

        # more than k accepted at once: the surest ones; fewer: the best estimates of the rest
        accepted = sorted(of(ACCEPTED), key=lambda x: -self.interval(x.arm)[0])[:s.k]
        chosen = sorted((accepted + of(UNDECIDED) + of(REJECTED))[:s.k], key=rank_key)
        arms = tuple(ArmResult(x.arm, x.games, estimate(x), *self.interval(x.arm), x.mean,
                               x.status, x.decided_round, x.decided_after)
                     for x in self.states.values())
        return RaceResult(tuple(x.arm for x in chosen), separated,
                          "separated" if separated else "budget", self.games, self.round, s.k,
                          s.delta, s.tolerance, objective.name, arms, self.first_round)


def run_race(arms: Sequence[Arm], play_more: PlayMore, settings: RaceSettings | None = None,
             on_round: Callable[[Race], None] | None = None, **options) -> RaceResult:
    """Race ``arms`` to name the k best (``RaceSettings`` or its fields as keywords).

    ``play_more({arm: c, …})`` must play c more games of each arm named and return
    ``{arm: [value, …]}`` (c values each, in the arm's game order); it is called once a round with
    every undecided arm, so it may play them all in parallel. ``on_round(race)`` is called after
    each round's decisions (progress, a report)."""
    settings = settings or RaceSettings(**options)
    race = Race(arms, settings)
    while True:
        race.decide()
        if race.round == 1:
            race.first_round = race.spread()
        if on_round:
            on_round(race)
        if race.finished():
            return race.result(True)
        wants = race.requests()
        if settings.budget is not None:
            left = settings.budget - race.games
            if sum(wants.values()) > left:
                share = left // max(1, len(wants))
                wants = {a: min(c, share) for a, c in wants.items()}
                if share == 0 or not any(wants.values()):
                    return race.result(False)
        wants = {a: c for a, c in wants.items() if c > 0}
        race.round += 1
        if not wants:
            continue
        values = play_more(wants)
        for arm, count in wants.items():
            got = list(values.get(arm, ()))
            if len(got) != count:
                raise RacingError(f"arm {arm!r}: asked for {count} games, got {len(got)} values")
            race.add(arm, got)
