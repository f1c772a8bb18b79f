"""Racing: find the k best of many arms (layouts, variants, …) by playing games adaptively, with
a stated confidence, spending the games where they decide something.

Game-neutral: an *arm* is any hashable key, and the race only asks a callback to "play ``c`` more
games of arm ``i`` and return their per-game values". The lab plugs its matches and results
store in (:mod:`.race_lab`); a simulation plugs in coin flips.

**The guarantee.** Assume (1) each game of an arm gives a value in a known range [a, b], (2) the
values of one arm are independent and identically distributed (the games are seeded
independently; their order does not matter), and (3) the arms' games are independent of each
other. Let μᵢ be arm i's true mean and s(μ) the objective (the mean itself, or a known function
of it such as balance = 1 − 2|μ − ½|). Then with probability at least 1 − δ, *at every moment of
the race at once*, every arm's true mean lies in its interval (a confidence *sequence*: the
interval may be looked at after every game without paying for it), and so:

* if the race stops *separated*, every arm it returns has s(μᵢ) ≥ s₍ₖ₎ − ε, where s₍ₖ₎ is the k-th
  best true objective and ε the tolerance (with ε = 0 the returned arms are a true top k);
* an arm is eliminated only when k other arms are certainly better;
* if the budget runs out first, the race says so and returns its best guess without a guarantee
  (the arms already accepted keep theirs).

**The interval** (Howard, Ramdas, McAuliffe & Sekhon 2021, "Time-uniform, nonparametric,
nonasymptotic confidence sequences", Ann. Statist. 49(2), Theorem 1 with polynomial stitching,
η = 2, s = 1.4, sub-Gaussian case). A value in [a, b] is σ-sub-Gaussian with σ = (b − a)/2, so
the centred sum Sₙ of n values satisfies, with probability ≥ 1 − α, for all n ≥ 1 at once,

    Sₙ ≤ k₁ √(Vₙ ℓ(Vₙ)),   Vₙ = σ² n,   ℓ(v) = s·log log(η v / σ²) + log(ζ(s) / (α · (log η)ˢ)),
    k₁ = (η^¼ + η^-¼) / √2

so the mean's radius after n games is rₙ = k₁ √(Vₙ ℓ(Vₙ)) / n (≈ 1.7 σ √((log log 2n + 0.72
log(5.2/α)) / n): it grows like √(log log n / n), not √(log n / n) as a union bound over time
would). Each arm gets α = δ / (2K) on each side (K arms, a union bound over arms and sides), and
keeps the running intersection of its intervals (still valid, never wider).

**The race** (successive accepts and rejects, Bubeck, Wang & Viswanathan 2013; racing, Maron &
Moore 1994): in round r every undecided arm is brought to n_r = ⌈n₁ · gʳ⁻¹⌉ games; then, with
[Lᵢ, Uᵢ] the objective's interval of arm i,

* reject i if at least k arms j have Lⱼ > Uᵢ (i is certainly not in the top k);
* accept i if at least K − k arms j ≠ i have Uⱼ − ε ≤ Lᵢ (no more than k − 1 arms can beat i by
  more than ε);

accepted and rejected arms play no more. The race stops *separated* when k arms are accepted, or
when the accepted and undecided arms together number k (all others rejected); it stops on the
*budget* when the next round cannot be played. The rounds are a fixed function of the arms'
value sequences, so a race resumed from stored games makes exactly the same decisions.
"""
from __future__ import annotations

import math
from bisect import bisect_right
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
        if self.kind == "closest":
            ends = (self.value(low), self.value(high))
            top = 1.0 if low <= self.target <= high else max(ends)
            return min(ends), top
        a, b = self.value(low), self.value(high)
        return min(a, b), max(a, b)


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

    def arm(self, key: Arm) -> ArmResult:
        return next(a for a in self.arms if a.arm == key)

    def to_json(self) -> dict:
        return {"top": [a if isinstance(a, (int, str)) else repr(a) for a in self.top],
                "separated": self.separated, "reason": self.reason, "games": self.games,
                "rounds": self.rounds, "k": self.k, "delta": self.delta,
                "tolerance": self.tolerance, "objective": self.objective,
                "arms": [a.to_json() for a in self.arms]}


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
    arms_per_round: int = 8      # lucb: contenders on each side of the boundary per round

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
        if self.arms_per_round < 1:
            raise RacingError(f"arms per round must be at least 1, got {self.arms_per_round}")
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
        self.sigma = (settings.value_range[1] - settings.value_range[0]) / 2
        self.round = 0
        self.games = 0

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
        if state.games:
            r = stitched_radius(state.games, self.alpha, self.sigma)
            state.low = max(state.low, state.total / state.games - r, low)
            state.high = min(state.high, state.total / state.games + r, high)

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

    def finished(self) -> bool:
        accepted = sum(s.status == ACCEPTED for s in self.states.values())
        return accepted >= self.settings.k or accepted + len(self.undecided()) <= self.settings.k

    def requests(self) -> dict[Arm, int]:
        """Games each arm plays next round (before the budget is applied).

        * ``eliminate``: every undecided arm is brought to ⌈n₁·gʳ⌉ games;
        * ``uniform``: every arm, decided or not (a fixed design that stops when the same rule
          separates: the benchmark's comparison);
        * ``lucb`` (batched LUCB, after Kalyanakrishnan et al. 2012): every arm first plays n₁
          games; then, with T the k best estimates among the arms not rejected (accepted arms
          first), the ``arms_per_round`` undecided arms of T with the lowest lower bounds and
          as many outside T with the highest upper bounds each grow by the factor g. Only arms
          that could still swap sides of the boundary play, and the surest-looking arms are
          measured tightly first, so far-off arms are dropped after few games."""
        s = self.settings
        undecided = self.undecided()
        if s.strategy != "lucb":
            target = math.ceil(s.first_round * s.growth ** self.round)
            playing = undecided if s.strategy == "eliminate" else list(self.states)
            return {a: max(0, target - self.states[a].games) for a in playing}
        fresh = [a for a in undecided if self.states[a].games == 0]
        if fresh:
            return {a: s.first_round for a in fresh}
        bounds = {a: self.interval(a) for a in self.states}
        alive = [a for a, x in self.states.items() if x.status != REJECTED]
        alive.sort(key=lambda a: (self.states[a].status != ACCEPTED,
                                  -self.settings.objective.value(self.states[a].mean)))
        top = set(alive[:s.k])
        inside = sorted((a for a in undecided if a in top), key=lambda a: bounds[a][0])
        outside = sorted((a for a in undecided if a not in top), key=lambda a: -bounds[a][1])
        chosen = inside[:s.arms_per_round] + outside[:s.arms_per_round]
        return {a: max(1, math.ceil(self.states[a].games * (s.growth - 1))) for a in chosen}

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
                          s.delta, s.tolerance, objective.name, arms)


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
