"""Plain-text tables of metrics, comparisons and rankings (what the CLI prints)."""
from __future__ import annotations

from typing import Sequence

from .compare import Comparison
from .metrics import Metrics
from ..core.stats import Proportion, Summary

LABEL_WIDTH = 28


def _p(p: Proportion) -> str:
    if p.value is None:
        return "n/a (no games)"
    return f"{p.value:6.3f}  [{p.low:.3f}, {p.high:.3f}]  ({p.successes:g}/{p.trials})"


def _s(s: Summary, digits: int = 2, signed: bool = False) -> str:
    if s.mean is None:
        return "n/a"
    sign = "+" if signed else ""
    return (f"{s.mean:{sign}7.{digits}f}  [{s.low:{sign}.{digits}f}, {s.high:{sign}.{digits}f}]"
            f"  sd {s.std:.{digits}f}")


def _row(value: Proportion | Summary) -> str:
    """A game's own metric as one row: a rate with its interval, or a mean."""
    return _p(value) if isinstance(value, Proportion) else _s(value)


def _rate(p: Proportion) -> str:
    return "n/a" if p.value is None else f"{p.value:.3f} [{p.low:.3f}, {p.high:.3f}]"


def _pairs(s: Summary) -> str:
    if s.mean is None:
        return "n/a (no complete pair)"
    return f"{s.mean:6.3f}  [{s.low:.3f}, {s.high:.3f}]  ({s.n} pairs, t interval)"


def metric_lines(m: Metrics) -> list[tuple[str, str]]:
    b = m.balance
    rows = [
        ("first-player win rate", _p(m.first_player_win)),
        ("balance", f"{b[0]:6.3f}  [{b[1]:.3f}, {b[2]:.3f}]"),
        ("draw rate", _p(m.draw_rate)),
        ("score margin (1st - 2nd)", _s(m.margin, 1, signed=True)),
        ("|score margin|", _s(m.abs_margin, 1)),
        ("game length (plies)", _s(m.length, 1)),
        ("branching factor", _s(m.branching, 1)),
        ("decision moves", _s(m.decision_moves, 3)),
        ("lead changes", _s(m.lead_changes, 2)),
        ("lead changes per move", _s(m.lead_change_rate, 3)),
        ("decisiveness", _s(m.decisiveness, 3)),
        *((metric.label, _row(value)) for metric, value in m.game_metrics if metric.label),
        ("agent A win rate", _p(m.agent_a_win)),
        ("  A opening / A second", f"{_rate(m.agent_a_seats.opening)} / "
                                   f"{_rate(m.agent_a_seats.second)}"),
        ("  A, seat-swapped pairs", _pairs(m.agent_a_seats.paired)),
        ("skill gap (strong vs weak)", _p(m.skill_gap) if m.skill_gap else "not measured"),
    ]
    return rows


def format_metrics(m: Metrics, title: str) -> str:
    lines = [title]
    lines += [f"  {label:<{LABEL_WIDTH}}{value}" for label, value in metric_lines(m)]
    for metric, value in m.game_metrics:
        if metric.table:
            lines += value.text_lines(LABEL_WIDTH)
    lines.append(f"  {'layout score':<{LABEL_WIDTH}}{m.score:6.3f}")
    return "\n".join(lines)


def _signed(x: float | None) -> str:
    return "n/a" if x is None else f"{x:+.3f}"


def format_comparison(c: Comparison, title: str) -> str:
    a, b = c.names
    ma, mb = c.metrics
    width = max(len(a), len(b), 24)
    lines = [title, f"  {'':<{LABEL_WIDTH}}{a:<{width + 22}}{b}"]
    for (label, va), (_, vb) in zip(metric_lines(ma), metric_lines(mb)):
        lines.append(f"  {label:<{LABEL_WIDTH}}{va:<{width + 22}}{vb}")
    lines.append(f"  {'layout score':<{LABEL_WIDTH}}{ma.score:<{width + 22}.3f}{mb.score:.3f}")
    t, u, mt = c.win_rate_test, c.win_rate_unpaired, c.margin_test
    verdict = "significant" if c.significant else "not significant"
    lines += [
        f"  first-player win rate {b} - {a}: {c.win_rate_difference:+.3f} "
        f"[{_signed(c.win_rate_paired.low)}, {_signed(c.win_rate_paired.high)}] (paired t "
        f"interval over {c.win_rate_paired.n} games); "
        f"{t.name}: p = {t.p_value:.4g} ({verdict} at 0.05); {u.name}: z = {u.statistic:+.2f}, "
        f"p = {u.p_value:.4g}",
        f"  score margin {b} - {a}: {c.margin_difference:+.2f} points; "
        f"{mt.name}: t = {mt.statistic:+.2f}, p = {mt.p_value:.4g}",
    ]
    return "\n".join(lines)


def format_ranking(rows: Sequence, by: str) -> str:
    """Ranked experiments as a table: layouts with their rows; others (a game played without
    layouts, such as Awimbawé's variants) with their game, setup and the rules played."""
    if not all(r.layout is not None for r in rows):
        return format_setup_ranking(rows, by)
    header = (f"{'rank':>4}  {'layout':<6} {'score':>6} {by if by != 'score' else 'balance':>12} "
              f"{'1st win':>7} {'games':>6} {'rivers':>6}  size mix      rows")
    lines = [header]
    for i, r in enumerate(rows, start=1):
        shown_text, first_text, score_text = _ranked_numbers(r, by if by != "score" else "balance")
        lines.append(f"{i:>4}  #{r.layout_id:<5} {score_text:>6} {shown_text} "
                     f"{first_text:>7} {r.games:>6} "
                     f"{r.rivers:>6}  {r.size_mix:<13} {' '.join(r.layout.rows)}")
    return "\n".join(lines)


def format_setup_ranking(rows: Sequence, by: str) -> str:
    from .report import rules_text
    shown = by if by != "score" else "balance"
    width = max(12, len(shown))
    lines = [f"{'rank':>4}  {'score':>6} {shown:>{width}} {'1st win':>7} {'games':>6}  "
             f"game: setup, agents, rules played"]
    for i, r in enumerate(rows, start=1):
        shown_text, first_text, score_text = _ranked_numbers(r, shown, width)
        setup = f"layout {' '.join(r.layout.rows)}" if r.layout is not None else r.setup
        lines.append(f"{i:>4}  {score_text:>6} {shown_text} {first_text:>7} {r.games:>6}  "
                     f"{r.game}: {setup}, {r.agents}, {rules_text(r.variant_rules)}")
    return "\n".join(lines)


def _ranked_numbers(r, shown: str, width: int = 12) -> tuple[str, str, str]:
    """The ranked value, the first-player win rate and the score, as text (``n/a`` for an
    experiment registered by a sweep stopped before its first game: no metrics yet)."""
    value = r.values.get(shown)
    shown_text = (f"{value:{width}.3f}" if isinstance(value, (int, float))
                  else f"{'n/a':>{width}}")
    first = r.values.get("first_player_win_rate")
    first_text = "n/a" if first is None else format(first, "7.3f")
    score_text = "n/a" if r.score is None else format(r.score, "6.3f")
    return shown_text, first_text, score_text


def format_race(race) -> str:
    """A finished :class:`~.race_lab.LayoutRace`: how it stopped, the layouts named, the fates."""
    r = race.result
    confidence = f"{1 - r.delta:.0%}".replace("%", " %")
    where = (f"{race.workers} workers" if isinstance(race.workers, int)
             else f"Dask scheduler {race.workers}")
    if r.separated:
        how = f"separated after {r.games:,} games in {r.rounds} rounds"
    else:
        how = (f"NOT separated: the budget was spent after {r.games:,} games in {r.rounds} "
               f"rounds; the layouts below are best guesses, without the guarantee")
    counts = {s: sum(a.status == s for a in r.arms) for s in ("accepted", "rejected", "undecided")}
    games = sorted(a.games for a in r.arms)
    lines = [
        f"race: {len(r.arms)} layouts, top {r.k} by {r.objective} at {confidence} confidence "
        f"(tolerance {r.tolerance:g}): {how}",
        f"  {race.games_played:,} games played now, {r.games - race.games_played:,} read from "
        f"the store; {race.seconds:.1f} s ({where})",
        f"  {counts['accepted']} accepted, {counts['rejected']} dropped, "
        f"{counts['undecided']} undecided; games per layout: median {games[len(games) // 2]:,}, "
        f"max {games[-1]:,}",
        f"{'rank':>4}  {'layout':<7}{r.objective:>9}  {'interval':<16} {'games':>7}  "
        f"{'status':<9} rows",
    ]
    for i, arm in enumerate(r.top, start=1):
        a = r.arm(arm)
        estimate = "n/a" if a.estimate is None else f"{a.estimate:.3f}"
        lines.append(f"{i:>4}  #{arm:<6}{estimate:>9}  [{a.low:.3f}, {a.high:.3f}] "
                     f"{a.games:>7,}  {a.status:<9} {' '.join(race.layouts[arm].rows)}")
    return "\n".join(lines)
