"""What varies between setups, per metric: before the lab ranks experiments by a metric it asks
whether the metric differs between them at all (docs/lab/metrics.md, "Is there anything to
rank?").

Each experiment's stored summary is enough: a rate's successes and trials (Pearson χ² on the
k × 2 table), a mean's n, mean and sd (one-way ANOVA F); the maths is in
:mod:`kiwara_designer.core.stats` (``rate_homogeneity``, ``mean_homogeneity``). A metric that
is a function of another (balance of the first-player rate) shares its test, and its spread is
the other's times the function's steepest slope there; the layout score, a weighted mean of
terms, varies if one of its terms does (Bonferroni over the terms' tests).

Games with the same index on different setups share their seed (common random numbers:
``game_seed`` ignores the setup). These tests treat the setups' games as independent, which
with positively correlated paired games makes them conservative: a "cannot be told apart" may
hide a difference a test blocked by game index would find; a "differ" stands.
"""
from __future__ import annotations

import dataclasses
from typing import Callable, Sequence

from ..core.stats import (Homogeneity, holm_together, mean_homogeneity, proportion,
                          rate_homogeneity)
from .metrics import balance_of
from .store import RankedExperiment, StoreError, game_named

LEVEL = 0.05
SCORE_TERMS = ("first_player_win_rate", "decisiveness", "lead_change_rate", "skill_gap")
DERIVED: dict[str, tuple[str, Callable[[float], float]]] = {
    "balance": ("first_player_win_rate", balance_of)}


def _slope(fn: Callable[[float], float | None], at: float, h: float = 1e-4) -> float | None:
    """The steeper one-sided slope of ``fn`` at ``at`` (balance: 2 at any rate, even at ½)."""
    try:
        mid, up, down = fn(at), fn(min(at + h, 1.0)), fn(max(at - h, 0.0))
    except (ValueError, ZeroDivisionError, TypeError):
        return None
    if None in (mid, up, down):
        return None
    return max(abs(up - mid), abs(mid - down)) / h


def _test(rows: Sequence[RankedExperiment], source: str) -> Homogeneity | None:
    """The homogeneity of the stored summary ``source`` (a rate or a mean) over ``rows``; None
    if no row stores it as either."""
    values = [r.metrics.get(source) for r in rows]
    values = [v for v in values if isinstance(v, dict)]
    if values and all("trials" in v for v in values):
        return rate_homogeneity([(v["successes"], v["trials"]) for v in values])
    if values and all("mean" in v and "n" in v for v in values):
        return mean_homogeneity([(v["n"], v["mean"], v["std"]) for v in values])
    return None


def _game_source(rows: Sequence[RankedExperiment], name: str):
    """(the stored metric ``name`` is read from, the function mapping its rate to ``name``)
    for a game's own metric; None for a table's (not a rate or a mean of the stored summary)."""
    for game_name in sorted({r.game for r in rows}):
        try:
            game = game_named(game_name)
        except StoreError:
            continue
        for metric in game.metrics():
            if name in metric.rank and not metric.table:
                fn = metric.rank[name]
                return metric.name, (lambda p, fn=fn: fn(proportion(p * 10 ** 6, 10 ** 6)))
    return None


def metric_homogeneity(rows: Sequence[RankedExperiment], name: str) -> Homogeneity | None:
    """Whether ``name`` (any ``rank --by`` metric) differs between the experiments ``rows``
    (those with games); None when it cannot be tested from their summaries (a game's table)."""
    rows = [r for r in rows if r.games]
    if name == "score":
        return _score_homogeneity(rows)
    if name in DERIVED:
        source, fn = DERIVED[name]
    elif any(name in r.metrics for r in rows):
        source, fn = name, None
    else:
        found = _game_source(rows, name)
        if found is None:
            return None
        source, fn = found
    result = _test(rows, source)
    if result is None or fn is None or source == name:
        return result
    slope = _slope(fn, result.pooled) if result.pooled is not None else None
    scale = (lambda x: None if x is None or slope is None else x * slope)
    rate = "trials" in next(r.metrics[source] for r in rows if isinstance(
        r.metrics.get(source), dict))
    high = scale(result.between_sd_high)
    if rate and high is not None:          # a function of a rate on a 0–1 scale (balance)
        high = min(high, 0.5)
    return dataclasses.replace(
        result, test=f"{result.test} of {source}", pooled=fn(result.pooled)
        if result.pooled is not None else None, between_sd=scale(result.between_sd),
        between_sd_low=scale(result.between_sd_low),
        between_sd_high=high, detectable=scale(result.detectable))


def _score_homogeneity(rows: Sequence[RankedExperiment]) -> Homogeneity:
    """The layout score is a weighted mean of its terms: it varies between setups only if a
    term does. Its test is Bonferroni's over the terms measured: p = min(1, m · min pᵢ)."""
    tests = {term: metric_homogeneity(rows, term) for term in SCORE_TERMS}
    tested = {t: h for t, h in tests.items() if h is not None and h.p_value is not None}
    k = len(rows)
    if not tested:
        return Homogeneity("Bonferroni over its terms", k, None, None, None, None,
                           None, None, None, None)
    p = min(1.0, len(tested) * min(h.p_value for h in tested.values()))
    return Homogeneity(f"Bonferroni over its terms {', '.join(tested)}", k, None, None,
                       p, None, None, None, None, None)


def homogeneity(rows: Sequence[RankedExperiment], names: Sequence[str]
                ) -> dict[str, Homogeneity]:
    """:func:`metric_homogeneity` of each of ``names`` that can be tested, by name, their
    p-values Holm-adjusted over the metrics tested together: a "differ" said of any of them
    then keeps the 5 % error for the family, not for each line."""
    found = {name: metric_homogeneity(rows, name) for name in dict.fromkeys(names)}
    return holm_together({name: h for name, h in found.items() if h is not None})


def shown_metrics(by: str) -> list[str]:
    """The metrics ``rank`` leads with: the ranking metric, the first-player win rate and, for
    the score, its terms."""
    names = [by, "first_player_win_rate"]
    if by == "score":
        names += [t for t in SCORE_TERMS if t != "first_player_win_rate"]
    return list(dict.fromkeys(names))


def noun_of(rows: Sequence[RankedExperiment]) -> str:
    """What the rows are: their game's setups (layouts) when all are of one game, variant and
    pairing; experiments otherwise."""
    if len({(r.game, r.setup, r.agents) for r in rows}) == 1 and len({r.variant_rules
                                                                        for r in rows}) > 1:
        return "variant"
    if len({(r.game, r.variant, r.agents) for r in rows}) == 1:
        try:
            return game_named(rows[0].game).setup_noun
        except StoreError:
            pass
    return "experiment"


def _number(x: float) -> str:
    return f"{x:.2g}" if abs(x) < 1 else f"{x:.3g}"


def p_text(p: float, level: float = LEVEL) -> str:
    """``p = …`` to two decimals (two figures below 0.01), with more digits where fewer would
    put the printed p on the other side of ``level`` than the verdict beside it: 0.0492 is
    "p = 0.049", never "p = 0.05" beside "differ"."""
    if p < 0.001:
        return "p < 0.001"
    text = f"{p:.2g}" if p < 0.01 else f"{p:.2f}"
    digits = 3
    while (float(text) < level) != (p < level) and digits < 17:
        text = f"{p:.{digits}f}".rstrip("0")
        digits += 1
    return f"p = {text}"


def _statistic_text(h: Homogeneity) -> str:
    if h.statistic is None:
        return h.test
    value = f"{h.statistic:,.0f}" if abs(h.statistic) >= 100 else f"{h.statistic:.3g}"
    if isinstance(h.df, tuple):
        return f"F = {value} on {h.df[0]:,} and {h.df[1]:,} df"
    return f"chi2 = {value} on {h.df:,} df"


def verdict(name: str, h: Homogeneity, noun: str) -> str:
    """One line: whether the setups differ on ``name``, with the test and the spread."""
    count = f"{h.setups:,} {noun}s"
    if h.p_value is None:
        return f"{name}: not tested ({count} with a value; two and some spread are needed)"
    evidence = f"{_statistic_text(h)}, {p_text(h.p_read)}"
    if h.varies(LEVEL):
        if h.between_sd is not None:
            interval = (f" [{_number(h.between_sd_low)}, {_number(h.between_sd_high)}]"
                        if h.between_sd_high is not None else "")
            evidence += f"; between-{noun} sd {_number(h.between_sd)}{interval}"
        return f"these {count} differ on {name} ({evidence})"
    if h.between_sd_high is not None:
        evidence += f"; between-{noun} sd < {_number(h.between_sd_high)}"
    if h.detectable and h.test.startswith("Pearson chi2") and h.detectable >= 0.5:
        evidence += ", no spread of rates detectable at this sample size"
    elif h.detectable:
        evidence += f", detectable {_number(h.detectable)}"
    return f"these {count} cannot be told apart on {name} ({evidence})"


def by_game(rows: Sequence[RankedExperiment]) -> dict[str, list[RankedExperiment]]:
    """The experiments with games, by game (a test compares one game's setups, never a
    Kiwara layout with an Awimbawé variant), games by name."""
    grouped: dict[str, list[RankedExperiment]] = {}
    for r in rows:
        if r.games:
            grouped.setdefault(r.game, []).append(r)
    return dict(sorted(grouped.items()))


def holm_family(found: dict[str, Homogeneity]) -> list[str]:
    """The metrics of ``found`` that were tested: the family their p-values are Holm-adjusted
    over."""
    return [name for name, h in found.items() if h.p_value is not None]


def ranking_tests(rows: Sequence[RankedExperiment], by: str
                  ) -> tuple[dict[str, Homogeneity], list[str]]:
    """Every metric of one game's ``rows`` that can be tested, the ranking one first, and the
    Holm family: the metrics ``rank`` leads with (:func:`shown_metrics`), adjusted over
    themselves alone, as its text says them; the other metrics' p-values are their own
    (``p_adjusted`` null: outside the family)."""
    family = homogeneity(rows, shown_metrics(by))
    rest = {name: metric_homogeneity(rows, name)
            for name in dict.fromkeys(_every_metric(rows[0].game, rows) if rows else [])
            if name not in family}
    return ({**family, **{name: h for name, h in rest.items() if h is not None}},
            holm_family(family))


def ranking_json(rows: Sequence[RankedExperiment], by: str) -> dict:
    """``rank --json``'s "homogeneity": {metric: test} for the one game ranked, or
    {game: {metric: test}} when the ranking holds several; every metric that can be tested,
    the ranking one first, p-values Holm-adjusted over the family only (the metrics the text
    leads with, :func:`ranking_tests`; :func:`ranking_family` names them)."""
    tested = {game: {name: h.to_json() for name, h in ranking_tests(group, by)[0].items()}
              for game, group in by_game(rows).items()}
    return next(iter(tested.values())) if len(tested) == 1 else tested


def ranking_family(rows: Sequence[RankedExperiment], by: str) -> list[str] | dict:
    """``rank --json``'s "holm_family": the metrics whose p-values were Holm-adjusted together
    (those the text leads with and names), as a list for one game ranked, by game for
    several."""
    families = {game: holm_family(homogeneity(group, shown_metrics(by)))
                for game, group in by_game(rows).items()}
    return next(iter(families.values())) if len(families) == 1 else families


def _every_metric(game_name: str, rows: Sequence[RankedExperiment]) -> list[str]:
    """Every ``rank --by`` metric of the game (of its stored values if it is not known here)."""
    from .metrics import metric_names
    try:
        return list(metric_names(game_named(game_name)))
    except StoreError:
        return list(dict.fromkeys(name for r in rows for name in r.values))


def lead_lines(rows: Sequence[RankedExperiment], by: str) -> list[str]:
    """The lines ``rank`` prints above its table: one per metric that matters, then a plain
    warning when the ranking metric does not vary ("ranking by noise"); each game's, headed by
    its name, when the ranking holds several."""
    groups = by_game(rows)
    if len(groups) > 1:
        return [f"{game}: {line}" for game, group in groups.items()
                for line in lead_lines(group, by)]
    rows = next(iter(groups.values()), [])
    if len(rows) < 2:
        return []
    noun = noun_of(rows)
    found = homogeneity(rows, shown_metrics(by))
    lines = [verdict(name, h, noun) for name, h in found.items()]
    family = holm_family(found)
    if len(family) > 1:
        lines.append(f"(p-values Holm-adjusted over the {len(family)} metrics tested together: "
                     f"{', '.join(family)})")
    ranked = found.get(by)
    if ranked is None:
        lines.insert(0, f"{by}: not tested for homogeneity (a table's number, not a rate or a "
                        f"mean of the stored summaries): read its ranking with care")
    elif ranked.varies(LEVEL) is False:
        lines.append(f"ranking by noise: the {noun}s cannot be told apart on {by} at this skill "
                     f"and sample size, so the order below is chance")
    return lines


SWEEP_METRICS = ("first_player_win_rate", "decisiveness", "abs_score_margin", "lead_change_rate")


def summary_sentence(rows: Sequence[RankedExperiment], names: Sequence[str]) -> str | None:
    """One line for a sweep's summary: which of ``names`` vary between ``rows`` and which do
    not (None with fewer than two setups with games)."""
    rows = [r for r in rows if r.games]
    if len(rows) < 2:
        return None
    found = {n: h for n, h in homogeneity(rows, names).items() if h.p_value is not None}
    if not found:
        return None
    noun = noun_of(rows)
    same = [f"{n} ({p_text(h.p_read)})" for n, h in found.items() if not h.varies(LEVEL)]
    differ = [f"{n} ({p_text(h.p_read)})" for n, h in found.items() if h.varies(LEVEL)]
    parts = []
    if same:
        parts.append(f"cannot be told apart on {', '.join(same)}")
    if differ:
        parts.append(f"differ on {', '.join(differ)}")
    held = " (p Holm-adjusted over these metrics)" if len(found) > 1 else ""
    return f"these {len(rows):,} {noun}s " + "; they ".join(parts) + held
