"""Intervals of ranked numbers and the leading tie group of a ranking (issue 24 item 4).

Every number ``rank`` and the report print comes with its 95 % interval where the lab has one:
a rate's Wilson interval, a mean's Student t interval, balance's interval mapped from the
first-player rate's. The layout score has none: it is a point summary (a weighted mean of terms
measured on partly the same games, whose joint distribution the store does not keep).

The **leading tie group** of a ranking is the experiments that cannot be told from the best one
(the first row) on the ranking metric:

- a rate stored with its counts (first-player win rate, draw rate, skill gap, a game's own
  rates): the pooled two-proportion z test of each against the best, its p-values
  Holm-adjusted over the comparisons (Holm 1979); tied when the adjusted p ≥ 0.05;
- a mean stored with n, mean and sd (margin, decisiveness, …): Welch's t test against the best
  (Welch–Satterthwaite degrees of freedom, rounded down), Holm-adjusted likewise;
- any other number with an interval (balance; a game's metric derived from a rate, whose
  interval is the image of the rate's): tied when its 95 % interval overlaps the best one's. Overlap is a conservative screen, not a test: two
  intervals can overlap while a test would separate the values;
- the layout score (a point summary): the group is formed on balance, its dominant term.

The tests treat the experiments' games as independent; games with the same index on different
setups share their seed, which with positively correlated games makes them conservative.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

from ..core.stats import holm, t_two_sided_p, two_proportion_z_test

LEVEL = 0.05


def interval_of(r, name: str) -> tuple[float, float | None, float | None] | None:
    """(value, low, high) of ``name`` for the ranked experiment ``r`` (low, high None if the
    lab has no interval for it: the score, one game's mean); None if not measured."""
    value = r.values.get(name) if name != "score" else r.score
    if value is None:
        return None
    stored = r.metrics.get(name)
    if isinstance(stored, dict) and stored.get("low") is not None \
            and stored.get("high") is not None:
        return value, stored["low"], stored["high"]
    mapped = _derived_interval(r, name) if name != "score" else None
    return (value, *mapped) if mapped is not None else (value, None, None)


def _derived_interval(r, name: str, points: int = 200) -> tuple[float, float] | None:
    """A game's metric computed from one of its rates (Awimbawé's round-1 leader balance): the
    image of the rate's Wilson interval under the game's function, by its range over a grid of
    the interval (a confidence set for the function of the rate, as balance's is)."""
    from .homogeneity import _game_source
    found = _game_source([r], name)
    if found is None:
        return None
    source, fn = found
    stored = r.metrics.get(source)
    if not (isinstance(stored, dict) and stored.get("low") is not None):
        return None
    low, high = stored["low"], stored["high"]
    grid = [fn(low + (high - low) * i / points) for i in range(points + 1)]
    grid = [g for g in grid if g is not None]
    return (min(grid), max(grid)) if grid else None


def _rate(stored) -> bool:
    return isinstance(stored, dict) and "trials" in stored and stored.get("trials")


def _mean(stored) -> bool:
    return isinstance(stored, dict) and stored.get("n", 0) >= 2 and stored.get("std") is not None


def welch_p(a: dict, b: dict) -> float:
    """Two-sided p of Welch's t test between two stored means (n, mean, std)."""
    va, vb = a["std"] ** 2 / a["n"], b["std"] ** 2 / b["n"]
    if va + vb == 0:
        return 1.0 if a["mean"] == b["mean"] else 0.0
    t = (a["mean"] - b["mean"]) / math.sqrt(va + vb)
    df = (va + vb) ** 2 / ((va ** 2 / (a["n"] - 1) if va else 0) +
                           (vb ** 2 / (b["n"] - 1) if vb else 0))
    return t_two_sided_p(t, max(1, math.floor(df)))


@dataclass(frozen=True)
class TieGroup:
    """Which of the ranked experiments (in ranking order) cannot be told from the first on
    ``metric`` (``tied[0]`` is the best itself), and how that was decided (``method``); the
    Holm-adjusted p of each comparison with the best where a test was made (None otherwise)."""

    metric: str
    method: str
    tied: tuple[bool, ...]
    p_adjusted: tuple[float | None, ...]

    @property
    def size(self) -> int:
        return sum(self.tied)

    def line(self, noun: str = "experiment") -> str:
        """One sentence for ``rank``'s text."""
        n, total = self.size, len(self.tied)
        if total < 2:
            return ""
        if n == 1:
            return (f"the best {noun} is told apart from the other {total - 1} on "
                    f"{self.metric} ({self.method}); '=' marks ties")
        every = "all " if n == total else ""
        return (f"{every}{n} of {total} {noun}s cannot be told from the best on {self.metric} "
                f"('=' below; {self.method})")


def tie_group(rows: Sequence, by: str) -> TieGroup | None:
    """The leading tie group of ``rows`` (ranked best first by ``by``); None if there are no
    rows or the best has no value."""
    metric = "balance" if by == "score" else by
    # the unmeasured (no games; a skill gap without skill games) are ranked last: left out
    rows = [r for r in rows if r.games and interval_of(r, metric) is not None]
    if not rows:
        return None
    best = rows[0]
    stored = [r.metrics.get(metric) for r in rows]
    if all(_rate(s) for s in stored):
        p = [two_proportion_z_test(s["successes"], s["trials"], stored[0]["successes"],
                                   stored[0]["trials"]).p_value for s in stored[1:]]
        p = [1.0 if x is None else x for x in p]
        method = "two-proportion z tests against the best, Holm-adjusted at 5 %"
    elif all(_mean(s) for s in stored):
        p = [welch_p(s, stored[0]) for s in stored[1:]]
        method = "Welch t tests against the best, Holm-adjusted at 5 %"
    else:
        first = interval_of(best, metric)
        if first is None or first[1] is None:
            return None
        tied = [True]
        for r in rows[1:]:
            own = interval_of(r, metric)
            tied.append(own is not None and own[1] is not None
                        and own[1] <= first[2] and first[1] <= own[2])
        method = "95 % intervals overlapping the best's, a conservative screen, not a test"
        if by == "score":
            method = "score is a point summary; its dominant term balance, " + method
        return TieGroup(metric, method, tuple(tied), (None,) * len(tied))
    adjusted = holm(p) if p else []
    tied = (True, *(q >= LEVEL for q in adjusted))
    return TieGroup(metric, method, tied, (None, *adjusted))


def number_text(value: float | None, low: float | None = None, high: float | None = None,
                digits: int | None = None) -> str:
    """``0.512 [0.47, 0.55]``: the value to 3 decimals (1 beyond 10), its interval to one
    fewer; the value alone when there is no interval."""
    if value is None:
        return "n/a"
    if digits is None:
        digits = 3 if abs(value) < 10 else 1
    text = f"{value:.{digits}f}"
    if low is None or high is None:
        return text
    inner = max(digits - 1, 1)
    return f"{text} [{low:.{inner}f}, {high:.{inner}f}]"
