"""What makes a board fair? A regression of a per-layout metric (default: the first-player win
rate) on the shape of the layouts of a results store: its territory graph (borders, articulation
territories), its rivers and its size mix.

The fit is weighted least squares (weights: the layout's games, since a rate measured on more
games is known better) with heteroscedasticity-robust (HC1) standard errors, done by statsmodels
(an optional dependency: ``pip install 'kiwara-designer[stats]'``). Each feature is standardised,
so an effect reads "the metric moves this much per standard deviation of the feature (with the
others held fixed)", comparable across features; its 95 % interval and p-value say whether it
matters beyond the noise of the games.
"""
from __future__ import annotations

import math
import statistics
import warnings
from dataclasses import dataclass
from typing import Callable

from ...core.errors import KiwaraError
from ...core.numbers import plural
from .game import KIWARA
from .layout import Layout
from ...lab.store import Store, StoreError


class ExplainError(KiwaraError):
    """A regression that cannot be fitted (too few layouts, statsmodels missing)."""


@dataclass(frozen=True)
class Feature:
    name: str
    description: str
    value: Callable[[Layout], float]


def _degrees(layout: Layout) -> list[int]:
    return list(layout.descriptors().degrees.values())


FEATURES = {f.name: f for f in (
    Feature("rivers", "river segments on the board", lambda l: len(l.river_edges())),
    Feature("mean_degree", "territories a territory borders, on average",
            lambda l: statistics.fmean(_degrees(l))),
    Feature("max_degree", "most territories one territory borders", lambda l: max(_degrees(l))),
    Feature("articulations", "territories whose removal cuts the others apart",
            lambda l: len(l.descriptors().articulation_territories)),
    Feature("nines", "territories of 9 cells", lambda l: l.size_mix.count(9)),
    Feature("threes", "territories of 3 cells", lambda l: l.size_mix.count(3)),
    Feature("longest_border", "most river segments around one territory",
            lambda l: max(l.descriptors().river_lengths.values())),
)}


@dataclass(frozen=True)
class Effect:
    feature: str
    description: str
    mean: float               # of the feature across the layouts
    sd: float
    per_sd: float             # change of the metric per standard deviation of the feature
    low: float                # 95 % interval of per_sd
    high: float
    p_value: float            # nan when the fit leaves no residual to test against

    @property
    def clear(self) -> bool:
        """The interval excludes zero (and the test could be made)."""
        return math.isfinite(self.p_value) and (self.low > 0 or self.high < 0)

    def to_json(self) -> dict:
        return {k: _number(v) for k, v in dict(self.__dict__, clear=self.clear).items()}


def _number(value):
    """A float for JSON: None (null) for nan and infinities, which JSON does not have."""
    return None if isinstance(value, float) and not math.isfinite(value) else value


@dataclass(frozen=True)
class Explanation:
    metric: str
    layouts: int
    games: int
    mean: float               # weighted mean of the metric (the intercept: an average layout)
    mean_low: float
    mean_high: float
    r_squared: float                     # nan when the metric does not vary
    effects: tuple[Effect, ...]          # largest |per_sd| first
    dropped: tuple[str, ...]             # features that do not vary across these layouts
    notes: tuple[str, ...] = ()          # what the fit could not determine, in words

    def to_json(self) -> dict:
        return {"metric": self.metric, "layouts": self.layouts, "games": self.games,
                "mean": _number(self.mean), "mean_low": _number(self.mean_low),
                "mean_high": _number(self.mean_high), "r_squared": _number(self.r_squared),
                "effects": [e.to_json() for e in self.effects],
                "dropped": list(self.dropped), "notes": list(self.notes),
                "method": "weighted least squares (weights: games), HC1 robust standard errors, "
                          "standardised features"}


def _statsmodels():
    try:
        import numpy
        import statsmodels.api as sm
    except ImportError:
        raise ExplainError("kiwara explain needs statsmodels: pip install "
                           "'kiwara-designer[stats]'") from None
    return numpy, sm


def explain(store: Store, metric: str = "first_player_win_rate", features: tuple[str, ...] = (),
            variant: str | None = None, agents: str | None = None,
            game: str = KIWARA.name) -> Explanation:
    """Fit ``metric`` of every play-tested layout of ``game`` (a game played on Kiwara's
    layouts) in ``store`` (one variant and pairing, as ``rank`` filters) against the layout
    ``features`` (default: all of :data:`FEATURES`)."""
    names = tuple(dict.fromkeys(features)) or tuple(FEATURES)     # a feature given twice: once
    unknown = [n for n in names if n not in FEATURES]
    if unknown:
        raise ExplainError(f"unknown feature {unknown[0]!r}; choose from {', '.join(FEATURES)}")
    rows = [r for r in store.ranked(metric, variant=variant, agents=agents)
            if r.values.get(metric) is not None and r.games > 0 and r.game == game]
    pairings = {(r.variant, r.agents) for r in rows}
    if len(pairings) > 1:
        raise ExplainError.about("{path} holds several variants or pairings ({pairings}); choose "
                                 "one with {variant} and {agents}", path=store.path,
                                 pairings=", ".join(sorted(f"{v} {a}" for v, a in pairings)))
    layouts = [KIWARA.setup_from_key(r.setup) for r in rows]
    columns = {n: [float(FEATURES[n].value(layout)) for layout in layouts] for n in names}
    dropped = tuple(n for n in names if len(set(columns[n])) < 2)
    kept = [n for n in names if n not in dropped]
    if len(rows) < len(kept) + 3:
        raise ExplainError(f"{store.path}: {plural(len(rows), 'layout')} with {metric} measured; "
                           f"a fit of {plural(len(kept), 'feature')} needs at least "
                           f"{len(kept) + 3} (sweep more)")
    numpy, sm = _statsmodels()
    means = {n: statistics.fmean(columns[n]) for n in kept}
    sds = {n: statistics.stdev(columns[n]) for n in kept}
    x = numpy.column_stack([[(v - means[n]) / sds[n] for v in columns[n]] for n in kept]
                           ) if kept else numpy.empty((len(rows), 0))
    x = sm.add_constant(x, has_constant="add")
    y = numpy.array([float(r.values[metric]) for r in rows])
    weights = numpy.array([float(r.games) for r in rows])
    with warnings.catch_warnings(record=True) as caught:      # said in words below, not as
        warnings.simplefilter("always")                     # statsmodels' two-line warnings
        fit = sm.WLS(y, x, weights=weights).fit(cov_type="HC1")
        ci = fit.conf_int(0.05)
        r2, pvalues = float(fit.rsquared), fit.pvalues
    notes = []
    if len(set(y)) < 2:
        notes.append(f"{metric} is the same on every layout: there is nothing to explain")
    elif any("rank-deficient" in str(w.message) for w in caught):
        notes.append("some features are combinations of others on these layouts: their "
                     "effects are not determined separately")
    effects = [Effect(n, FEATURES[n].description, means[n], sds[n], float(fit.params[i + 1]),
                      float(ci[i + 1][0]), float(ci[i + 1][1]), float(pvalues[i + 1]))
               for i, n in enumerate(kept)]
    effects.sort(key=lambda e: -abs(e.per_sd))
    return Explanation(metric, len(rows), sum(r.games for r in rows), float(fit.params[0]),
                       float(ci[0][0]), float(ci[0][1]), r2, tuple(effects), dropped,
                       tuple(notes))


def shown(value: float, spec: str) -> str:
    """``value`` formatted, or n/a if it is not a number (a p-value of a fit without residuals,
    the R² of a metric that does not vary)."""
    return format(value, spec) if math.isfinite(value) else "n/a"


def format_explanation(e: Explanation) -> str:
    lines = [f"{e.metric} of {e.layouts} layouts ({e.games:,} games), weighted least squares on "
             f"standardised features, HC1 robust 95 % intervals",
             f"  average layout: {e.mean:.3f} [{e.mean_low:.3f}, {e.mean_high:.3f}]; "
             f"R² = {shown(e.r_squared, '.3f')}",
             f"  {'feature':<15}{'mean':>7}{'sd':>7}   {'effect per sd':>13}  "
             f"{'95 % interval':<18} {'p':>8}"]
    for f in e.effects:
        mark = "  *" if f.clear else ""
        lines.append(f"  {f.feature:<15}{f.mean:7.2f}{f.sd:7.2f}   {f.per_sd:+13.4f}  "
                     f"[{f.low:+.4f}, {f.high:+.4f}] {shown(f.p_value, '8.3g'):>8}{mark}")
    lines.append("  * the interval excludes 0: the feature matters beyond the games' noise")
    lines += [f"  note: {note}" for note in e.notes]
    if e.dropped:
        lines.append(f"  not varying in these layouts, left out: {', '.join(e.dropped)}")
    return "\n".join(lines)
