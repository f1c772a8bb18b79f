"""What makes a board fair? A regression of a per-layout metric (default: the first-player win
rate) on the shape of the layouts of a results store: its territory graph (borders, articulation
territories), its rivers and its size mix.

The fit is weighted least squares (weights: the layout's games, since a rate measured on more
games is known better) done by statsmodels (an optional dependency: ``pip install
'kiwara-designer[stats]'``). Each feature is standardised, so an effect reads "the metric moves
this much per standard deviation of the feature (with the others held fixed)", comparable across
features. Seven features fitted to a few dozen noisy rates find something by chance more often
than not, so the fit is guarded (issue 24):

* the standard errors are HC3 (heteroscedasticity-robust with a leverage correction) and the
  intervals and p-values use Student t on the residual degrees of freedom;
* a **joint test** comes first: a robust Wald test, as F, that every feature's effect is zero;
  when it does not reject at 5 %, the features together do not explain the metric beyond the
  games' noise and no feature is starred;
* the per-feature p-values are adjusted for multiplicity (Holm); a feature is starred (``clear``)
  only when the joint test rejects and its adjusted p is below 5 %. The 95 % interval shown per
  feature is not adjusted, so an interval may exclude 0 without a star;
* a fit needs at least :data:`LAYOUTS_PER_FEATURE` layouts per feature fitted;
* on a store whose layouts have different game counts (a race plays more games on the layouts it
  keeps, and weighting by those adaptive counts biases the fit) the metric is recomputed on the
  first *N* games of every layout, *N* the smallest count, and the fit says so.

The core, :func:`fit_metric`, takes a feature matrix, the metric's values and the weights, with no
store (the suite's null simulation calls it on synthetic rates).
"""
from __future__ import annotations

import dataclasses
import math
import statistics
import warnings
from dataclasses import dataclass
from typing import Callable, Sequence

from ...core.errors import KiwaraError
from ...core.numbers import plural
from ...core.stats import holm
from .game import KIWARA
from .layout import Layout
from ...lab.store import Experiment, Store, StoreError


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


LEVEL = 0.05                  # of the joint test, of the Holm-adjusted p-values and the intervals
LAYOUTS_PER_FEATURE = 10      # a fit of k features needs at least 10 k layouts
BOOTSTRAP_DRAWS = 999         # of the joint test's wild bootstrap (seeded: the same every run)
METHOD = ("weighted least squares (weights: games), HC3 robust standard errors with t "
          "quantiles, standardised features; a robust Wald F test that every effect is zero "
          "first (p by a wild bootstrap), then Holm-adjusted p-values: a feature is clear when "
          "the joint test rejects and its adjusted p < 0.05; the 95 % intervals are per "
          "feature, not adjusted")


@dataclass(frozen=True)
class Effect:
    feature: str
    description: str
    mean: float               # of the feature across the layouts
    sd: float
    per_sd: float             # change of the metric per standard deviation of the feature
    low: float                # 95 % interval of per_sd (t, HC3; not adjusted for multiplicity)
    high: float
    p_value: float            # nan when the fit leaves no residual to test against
    p_adjusted: float = math.nan     # Holm-adjusted over the features fitted
    clear: bool = False       # the joint test rejects and p_adjusted < LEVEL

    def to_json(self) -> dict:
        return {k: _number(v) for k, v in self.__dict__.items()}


def _number(value):
    """A float for JSON: None (null) for nan and infinities, which JSON does not have."""
    return None if isinstance(value, float) and not math.isfinite(value) else value


@dataclass(frozen=True)
class JointTest:
    """The robust (HC3) Wald test, as F, that every feature's effect is zero; its p-value by a
    wild bootstrap (``p_value``), and by the F distribution (``p_value_f``, which over-rejects
    with few layouts: 9 % at a nominal 5 % on 40 or 70 layouts and seven features)."""
    statistic: float          # F; nan when it cannot be computed (no residuals, no variation)
    df: tuple[float, float]   # numerator (features), denominator (residual) degrees of freedom
    p_value: float
    p_value_f: float = math.nan

    @property
    def rejects(self) -> bool:
        return math.isfinite(self.p_value) and self.p_value < LEVEL

    def to_json(self) -> dict:
        return {"test": f"robust Wald (HC3) F, p by a wild bootstrap ({BOOTSTRAP_DRAWS} "
                        f"Rademacher draws under the null)",
                "statistic": _number(self.statistic),
                "df": [_number(float(d)) for d in self.df], "p_value": _number(self.p_value),
                "p_value_f": _number(self.p_value_f), "rejects": self.rejects}


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
    joint: JointTest = JointTest(math.nan, (0.0, 0.0), math.nan)
    first_games: int | None = None       # games per layout fitted, when the counts differed
    game_counts: tuple[int, int] | None = None    # the stored counts' range, then

    @property
    def explained(self) -> bool:
        """The features together explain the metric beyond the games' noise."""
        return self.joint.rejects

    def to_json(self) -> dict:
        return {"metric": self.metric, "layouts": self.layouts, "games": self.games,
                "mean": _number(self.mean), "mean_low": _number(self.mean_low),
                "mean_high": _number(self.mean_high), "r_squared": _number(self.r_squared),
                "joint": self.joint.to_json(),
                "effects": [e.to_json() for e in self.effects],
                "dropped": list(self.dropped), "notes": list(self.notes),
                "first_games": self.first_games,
                "game_counts": list(self.game_counts) if self.game_counts else None,
                "method": METHOD}


def _statsmodels():
    try:
        import numpy
        import statsmodels.api as sm
    except ImportError:
        raise ExplainError("kiwara explain needs statsmodels: pip install "
                           "'kiwara-designer[stats]'") from None
    return numpy, sm


def layouts_needed(features: int) -> int:
    """The fewest layouts a fit of ``features`` features accepts: :data:`LAYOUTS_PER_FEATURE`
    each (the common rule of thumb of ten observations per regressor), and at least the
    features + 3 of the earlier rule when there is no feature."""
    return max(LAYOUTS_PER_FEATURE * features, features + 3)


def wild_bootstrap_wald(numpy, x, y, weights, draws: int = BOOTSTRAP_DRAWS,
                        seed: int = 0) -> tuple[float, float]:
    """The HC3 Wald statistic (as F: divided by the features) that every slope of the weighted
    fit of ``y`` on ``x`` (a constant first) is zero, and its wild-bootstrap p-value: the
    residuals of the fit under the null (the weighted mean) times Rademacher signs, ``draws``
    times (Davidson & Flachaire 2008, "The wild bootstrap, tamed at last"). (nan, nan) when
    the statistic cannot be computed (a rank-deficient fit, a layout of leverage 1)."""
    root = numpy.sqrt(weights)
    xw = x * root[:, None]
    n, k = xw.shape[0], xw.shape[1] - 1
    try:
        bread = numpy.linalg.inv(xw.T @ xw)
    except numpy.linalg.LinAlgError:
        return math.nan, math.nan
    leverage = numpy.einsum("ij,jk,ik->i", xw, bread, xw)
    if numpy.linalg.matrix_rank(xw) < k + 1 or leverage.max() > 1 - 1e-9:
        return math.nan, math.nan

    outer = (xw[:, :, None] * xw[:, None, :]).reshape(n, -1)    # row i: x_i x_iᵀ, flattened

    def statistic(ys):                    # ys: n × draws, whitened; one statistic a column
        beta = bread @ xw.T @ ys
        scaled = ((ys - xw @ beta) / (1 - leverage)[:, None]) ** 2
        cov = bread @ (scaled.T @ outer).reshape(-1, k + 1, k + 1) @ bread     # one product
        slopes = beta[1:].T[:, :, None]
        return (numpy.linalg.solve(cov[:, 1:, 1:], slopes)[:, :, 0] * slopes[:, :, 0]
                ).sum(axis=1) / k

    observed = float(statistic((y * root)[:, None])[0])
    if not math.isfinite(observed):
        return math.nan, math.nan
    null = (y - (weights * y).sum() / weights.sum()) * root
    signs = numpy.random.default_rng(seed).choice([-1.0, 1.0], size=(n, draws))
    with numpy.errstate(all="ignore"):
        boot = statistic(null[:, None] * signs)
    return observed, float((1 + numpy.count_nonzero(boot >= observed)) / (draws + 1))


def fit_metric(columns: dict[str, Sequence[float]], values: Sequence[float],
               weights: Sequence[float], metric: str = "first_player_win_rate",
               games: int | None = None, minimum: bool = True,
               where: str = "these layouts", draws: int = BOOTSTRAP_DRAWS) -> Explanation:
    """The core of :func:`explain`, without a store: fit ``values`` (one per layout) on the
    feature ``columns`` (name → one value per layout, names of :data:`FEATURES` or any other),
    weighted by ``weights`` (the layouts' games). ``minimum=False`` skips the rule of
    :func:`layouts_needed` (for simulations only); ``where`` names the layouts in a refusal;
    ``draws``: of the joint test's wild bootstrap."""
    n = len(values)
    names = tuple(columns)
    dropped = tuple(name for name in names if len(set(columns[name])) < 2)
    kept = [name for name in names if name not in dropped]
    if minimum and n < layouts_needed(len(kept)):
        raise ExplainError(f"{where}: {plural(n, 'layout')} with {metric} measured; a fit of "
                           f"{plural(len(kept), 'feature')} needs at least "
                           f"{layouts_needed(len(kept))} ({LAYOUTS_PER_FEATURE} a feature: "
                           f"sweep more layouts, or fit fewer with --feature)")
    if n < len(kept) + 2:
        raise ExplainError(f"{where}: {plural(n, 'layout')} cannot fit "
                           f"{plural(len(kept), 'feature')}")
    numpy, sm = _statsmodels()
    means = {name: statistics.fmean(columns[name]) for name in kept}
    sds = {name: statistics.stdev(columns[name]) for name in kept}
    x = numpy.column_stack([[(v - means[name]) / sds[name] for v in columns[name]]
                            for name in kept]) if kept else numpy.empty((n, 0))
    x = sm.add_constant(x, has_constant="add")
    y = numpy.asarray(values, dtype=float)
    w = numpy.asarray(weights, dtype=float)
    with warnings.catch_warnings(record=True) as caught:      # said in words below, not as
        warnings.simplefilter("always")                     # statsmodels' two-line warnings
        fit = sm.WLS(y, x, weights=w).fit(cov_type="HC3", use_t=True)
        ci = fit.conf_int(LEVEL)
        r2, pvalues = float(fit.rsquared), [float(p) for p in fit.pvalues]
    # the joint hypothesis (every effect zero: the fitted values are constant) is tested on
    # independent columns, so features that are combinations of others still get a joint test
    basis = [0]
    for j in range(1, x.shape[1]):
        if numpy.linalg.matrix_rank(x[:, basis + [j]]) == len(basis) + 1:
            basis.append(j)
    identified = len(basis) == x.shape[1]         # else single effects are not determined
    df = (float(len(basis) - 1), float(fit.df_resid))
    joint = JointTest(math.nan, df, math.nan)
    if len(basis) > 1 and len(set(y)) > 1 and fit.df_resid > 0:
        statistic, p_value = wild_bootstrap_wald(numpy, x[:, basis], y, w, draws)
        if math.isfinite(statistic):
            from scipy.stats import f as f_distribution
            joint = JointTest(statistic, df, p_value,
                              float(f_distribution.sf(statistic, df[0], df[1])))
    notes = []
    if len(set(y)) < 2:
        notes.append(f"{metric} is the same on every layout: there is nothing to explain")
    elif any("rank-deficient" in str(w.message) for w in caught):
        notes.append("some features are combinations of others on these layouts: their "
                     "effects are not determined separately, and none is starred")
    adjusted = holm(pvalues[1:])
    effects = [Effect(name, FEATURES[name].description if name in FEATURES else name,
                      means[name], sds[name], float(fit.params[i + 1]), float(ci[i + 1][0]),
                      float(ci[i + 1][1]), pvalues[i + 1], adjusted[i],
                      joint.rejects and identified and math.isfinite(adjusted[i])
                      and adjusted[i] < LEVEL)
               for i, name in enumerate(kept)]
    effects.sort(key=lambda e: -abs(e.per_sd))
    return Explanation(metric, n, int(sum(weights)) if games is None else games,
                       float(fit.params[0]), float(ci[0][0]), float(ci[0][1]), r2,
                       tuple(effects), dropped, tuple(notes), joint)


def feature_columns(layouts: Sequence[Layout], names: Sequence[str] = ()) -> dict[str, list[float]]:
    """The values of the features ``names`` (default: all) of ``layouts``, by name."""
    return {name: [float(FEATURES[name].value(layout)) for layout in layouts]
            for name in (names or FEATURES)}


def _on_first_games(store: Store, rows: list, metric: str, first: int) -> list[float]:
    """``metric`` of every layout of ``rows`` (one variant and pairing) recomputed on its first
    ``first`` games (by game index), with the first games of its skill pairing as many as the
    layout with the fewest has."""
    variant, agents = rows[0].variant, rows[0].agents
    ids = {sid: (vid, aid, skill) for sid, vid, aid, skill in store.db.execute(
        "SELECT s.setup_id, s.variant_id, s.agents_id, s.skill_agents_id FROM metric_summaries s "
        "JOIN variants v ON v.id = s.variant_id JOIN agent_configs a ON a.id = s.agents_id "
        "WHERE v.name = ? AND a.agent_a || ',' || a.agent_b = ?", (variant, agents))}
    played = {}
    for r in rows:
        vid, aid, skill = ids[r.setup_id]
        played[r.setup_id] = (store.games(Experiment(r.setup_id, vid, aid))[:first],
                              store.games(Experiment(r.setup_id, vid, skill)) if skill else [])
    skilled = min((len(s) for _, s in played.values()), default=0)
    values = []
    for r in rows:
        games, skill_games = played[r.setup_id]
        values.append(store.metrics_of(games, KIWARA.setup_from_key(r.setup),
                                       skill_games[:skilled], KIWARA,
                                       f"setup {r.setup_id}").values().get(metric))
    return values


def explain(store: Store, metric: str = "first_player_win_rate", features: tuple[str, ...] = (),
            variant: str | None = None, agents: str | None = None,
            game: str = KIWARA.name) -> Explanation:
    """Fit ``metric`` of every play-tested layout of ``game`` (a game played on Kiwara's
    layouts) in ``store`` (one variant and pairing, as ``rank`` filters) against the layout
    ``features`` (default: all of :data:`FEATURES`). When the layouts' game counts differ (a
    race database), the metric is recomputed on the first games of each, as many as the layout
    with the fewest has, and every layout weighs the same."""
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
    counts = sorted({r.games for r in rows})
    first = counts[0] if len(counts) > 1 else None
    if first is not None:
        values = _on_first_games(store, rows, metric, first)
        kept = [(r, v) for r, v in zip(rows, values) if v is not None]
        rows, values = [r for r, _ in kept], [float(v) for _, v in kept]
        weights = [float(first)] * len(rows)
    else:
        values = [float(r.values[metric]) for r in rows]
        weights = [float(r.games) for r in rows]
    columns = feature_columns([KIWARA.setup_from_key(r.setup) for r in rows], names)
    e = fit_metric(columns, values, weights, metric, int(sum(weights)), where=store.path)
    if first is not None:
        e = dataclasses.replace(e, first_games=first, game_counts=(counts[0], counts[-1]))
    return e


def shown(value: float, spec: str) -> str:
    """``value`` formatted, or n/a if it is not a number (a p-value of a fit without residuals,
    the R² of a metric that does not vary)."""
    return format(value, spec) if math.isfinite(value) else "n/a"


def joint_sentence(e: Explanation) -> str:
    """The joint test in words: whether the features together explain the metric."""
    j = e.joint
    if not math.isfinite(j.p_value):
        return ("joint test: not computable on these values (a metric that does not vary, no "
                "residual, or a layout the fit must match exactly); no feature is starred")
    said = (f"joint test (robust Wald): F = {j.statistic:.2f} on {j.df[0]:g} and {j.df[1]:g} df, "
            f"p = {j.p_value:.3g}")
    if j.rejects:
        return f"{said}: the features together explain part of {e.metric}"
    return (f"{said}: the features together do not explain {e.metric} beyond the games' "
            f"noise; no feature is starred")


def format_explanation(e: Explanation) -> str:
    lines = [f"{e.metric} of {e.layouts} layouts ({e.games:,} games), weighted least squares on "
             f"standardised features, HC3 robust 95 % intervals (t)"]
    if e.first_games is not None:
        low, high = e.game_counts
        lines.append(f"  games per layout differ ({low}–{high}: a race's, or an unfinished "
                     f"sweep's); fitted on the first {e.first_games} games of every layout, equally weighted")
    lines += [f"  average layout: {e.mean:.3f} [{e.mean_low:.3f}, {e.mean_high:.3f}]; "
              f"R² = {shown(e.r_squared, '.3f')}",
              f"  {joint_sentence(e)}",
              f"  {'feature':<15}{'mean':>7}{'sd':>7}   {'effect per sd':>13}  "
              f"{'95 % interval':<18} {'p':>8} {'Holm p':>8}"]
    for f in e.effects:
        mark = "  *" if f.clear else ""
        lines.append(f"  {f.feature:<15}{f.mean:7.2f}{f.sd:7.2f}   {f.per_sd:+13.4f}  "
                     f"[{f.low:+.4f}, {f.high:+.4f}] {shown(f.p_value, '8.3g'):>8} "
                     f"{shown(f.p_adjusted, '8.3g'):>8}{mark}")
    lines.append("  * the joint test rejects and the Holm-adjusted p < 0.05: the feature matters "
                 "beyond the games' noise (intervals are per feature, not adjusted)")
    lines += [f"  note: {note}" for note in e.notes]
    if e.dropped:
        lines.append(f"  not varying in these layouts, left out: {', '.join(e.dropped)}")
    return "\n".join(lines)
