"""Plain-text tables of metrics, comparisons and rankings (what the CLI prints)."""
from __future__ import annotations

from typing import Sequence

from ..core.game import Game
from .compare import Comparison
from .fairness import (FAIR, FIRST_FAIRER, SECOND_FAIRER, UNDECIDED, Fairness,
                       FairnessComparison)
from .metrics import Metrics
from ..core.numbers import plural
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
    if s.low is None:                    # one game: a value, no spread
        return f"{s.mean:{sign}7.{digits}f}  [n/a]  sd n/a"
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
    if s.low is None:
        return f"{s.mean:6.3f}  [n/a]  (1 pair, no t interval)"
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


def _signed(x: float | None, digits: int = 3) -> str:
    return "n/a" if x is None else f"{x:+.{digits}f}"


def _p_value(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.4g}"


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
        + (f"[{_signed(c.win_rate_paired.low)}, {_signed(c.win_rate_paired.high)}] "
           f"({'paired t interval' if c.win_rate_paired.std else 'every pair alike: Wilson interval'}"
           f" over {c.win_rate_paired.n} games); " if c.win_rate_paired.low is not None
           else f"[n/a] (no t interval over {plural(c.win_rate_paired.n, 'game')}); ")
        + f"{t.name}: p = {_p_value(t.p_value)} ({verdict} at 0.05); {u.name}: "
        f"z = {_signed(u.statistic, 2)}, p = {_p_value(u.p_value)}",
        f"  score margin {b} - {a}: {c.margin_difference:+.2f} points; "
        f"{mt.name}: t = {_signed(mt.statistic, 2)}, p = {_p_value(mt.p_value)}",
    ]
    return "\n".join(lines)


def format_ranking(rows: Sequence, by: str, game: Game | None = None,
                   ties: "TieGroup | None" = None) -> str:
    """Ranked experiments as a table: rank, a ``=`` when the row cannot be told from the best
    (the leading tie group, :mod:`.ties`; ``ties``: the group over every experiment ranked,
    default: over ``rows``), score (a point summary), the ranked metric and the first-player
    win rate with their 95 % intervals, games, then the columns their game gives for its setups
    (``Game.rank_columns``, after an id column headed by its ``setup_noun``) when every row is
    of one such game; otherwise the game, setup, agents and rules played of each (``game``:
    the game of the rows if it is not a registered one, such as a test's). A closing line says
    how the tie group was formed and that the score has no interval."""
    from .report import rules_text
    from .ties import tie_group
    shown = by if by != "score" else "balance"
    ties = ties if ties is not None else tie_group(rows, by)
    numbers = [_ranked_numbers(r, shown) for r in rows]
    width = max([len(shown)] + [len(n[0]) for n in numbers])
    first_width = max([7] + [len(n[1]) for n in numbers])
    names = {r.game for r in rows}
    game = _known(names.pop(), game) if len(names) == 1 else None
    columns = [game.rank_columns(game.setup_from_key(r.setup)) for r in rows] if game else []
    from .homogeneity import noun_of
    noun = noun_of(rows) if rows else "experiment"
    if columns and all(columns):
        noun = game.setup_noun
        ident = max(6, len(noun))
        head = f"{noun:<{ident}} "
        ids = [f"{'#' + str(r.setup_id):<{ident}} " for r in rows]
        tails = [" " + " ".join(cell for _, cell in row) for row in columns]
        tail_head = " " + " ".join(header for header, _ in columns[0])
        played = _played_columns(rows)      # several variants or pairings: which row is which
        if played:
            tail_head = "  " + played[0] + tail_head
            tails = ["  " + cells + tail for cells, tail in zip(played[1:], tails)]
    else:
        played = []                 # the tails below name the agents and rules of each row
        head, ids = "", [""] * len(rows)
        tail_head = "  game: setup, agents, rules played"
        tails = [f"  {r.game}: {_setup_text(r, game)}, {r.agents}, "
                 f"{rules_text(r.variant_rules)}" for r in rows]
    lines = [f"{'rank':>4} = {head}{'score':>6} {shown:<{width}} {'1st win':<{first_width}} "
             f"{'games':>6}{tail_head}"]
    for i, (r, ident_text, tail, (shown_text, first_text, score_text)) in enumerate(
            zip(rows, ids, tails, numbers), start=1):
        mark = "=" if ties is not None and i <= len(ties.tied) and ties.tied[i - 1] else " "
        lines.append(f"{i:>4} {mark} {ident_text}{score_text:>6} {shown_text:<{width}} "
                     f"{first_text:<{first_width}} {r.games:>6}{tail}")
    if played:                      # the rows are (layout, variant, pairing) experiments
        noun = "experiment"
    if ties is not None and ties.line(noun):
        lines.append(ties.line(noun))
    lines.append("intervals: 95 % (Wilson for rates, Student t for means, balance mapped from "
                 "the first-player rate's); the score is a point summary without one")
    return "\n".join(lines)


def _played_columns(rows: Sequence) -> list[str]:
    """The variant and agents columns (header first, then a cell per row) when ``rows`` were
    played under more than one variant or pairing (a setup's id alone would then show twice);
    none when they share both. A variant's name that stands for two rules is followed by them."""
    if len({(r.variant_rules, r.agents) for r in rows}) < 2:
        return []
    from .report import rules_text
    rules_of: dict[str, set[str]] = {}
    for r in rows:
        rules_of.setdefault(r.variant, set()).add(r.variant_rules)
    names = [r.variant if len(rules_of[r.variant]) == 1 else
             f"{r.variant} ({rules_text(r.variant_rules)})" for r in rows]
    width = max([len("variant")] + [len(n) for n in names])
    agents = max([len("agents")] + [len(r.agents) for r in rows])
    return ([f"{'variant':<{width}} {'agents':<{agents}}"]
            + [f"{name:<{width}} {r.agents:<{agents}}" for name, r in zip(names, rows)])


def _known(name: str, given: Game | None) -> Game | None:
    """The game called ``name`` (``given`` if it is), None if this kiwara does not know it."""
    from .store import StoreError, game_named
    try:
        return game_named(name, given)
    except StoreError:
        return None


def _setup_text(r, given: Game | None) -> str:
    """A ranked experiment's setup on one line, in its game's words (its key's words if the
    game is not known here)."""
    game = _known(r.game, given)
    return game.setup_text(game.setup_from_key(r.setup)) if game else " ".join(r.setup.split())


def _key_words(game: Game, setup) -> str:
    """The words of ``setup``'s key on one line (a Kiwara layout's rows)."""
    return " ".join(game.setup_key(setup).split())


def _ranked_numbers(r, shown: str) -> tuple[str, str, str]:
    """The ranked value and the first-player win rate with their 95 % intervals, and the score,
    as text (``n/a`` for an experiment registered by a sweep stopped before its first game: no
    metrics yet)."""
    from .ties import interval_of, number_text
    value = interval_of(r, shown)
    shown_text = number_text(*value) if value is not None else "n/a"
    first = interval_of(r, "first_player_win_rate")
    first_text = number_text(*first) if first is not None else "n/a"
    score_text = "n/a" if r.score is None else format(r.score, "6.3f")
    return shown_text, first_text, score_text


def format_race(race) -> str:
    """A finished :class:`~.race_lab.SetupRace`: how it stopped, the setups named, the fates."""
    r, noun = race.result, race.game.setup_noun
    confidence = f"{1 - r.delta:.0%}".replace("%", " %")
    where = (plural(race.workers, "worker") if isinstance(race.workers, int)
             else f"Dask scheduler {race.workers}")
    if r.separated:
        how = f"separated after {r.games:,} games in {r.rounds} rounds"
    else:
        how = (f"NOT separated: the budget was spent after {r.games:,} games in {r.rounds} "
               f"rounds; the {noun}s below are best guesses, without the guarantee")
    counts = {s: sum(a.status == s for a in r.arms) for s in ("accepted", "rejected", "undecided")}
    games = sorted(a.games for a in r.arms)
    lines = []
    spread = r.first_round
    if spread and not spread["decided"] and spread["p_value"] >= 0.05:
        lines.append(f"the {noun}s look indistinguishable so far: after the first round "
                     f"({spread['games']:,} games each) none is separated and their spread is "
                     f"within the games' noise (χ² = {spread['statistic']:.1f} on {spread['df']} "
                     f"df, p = {spread['p_value']:.2f})")
    lines += [
        f"race: {plural(len(r.arms), noun)}, top {r.k} by {r.objective} at {confidence} confidence "
        f"(tolerance {r.tolerance:g}): {how}",
        f"  {race.games_played:,} games played now, {r.games - race.games_played:,} read from "
        f"the store; {race.seconds:.1f} s ({where})",
        f"  {counts['accepted']} accepted, {counts['rejected']} dropped, "
        f"{counts['undecided']} undecided; games per {noun}: median {games[len(games) // 2]:,}, "
        f"max {games[-1]:,}",
        f"{'rank':>4}  {noun:<7}{r.objective:>9}  {'interval':<16} {'games':>7}  "
        f"{'status':<9} rows",
    ]
    for i, arm in enumerate(r.top, start=1):
        a = r.arm(arm)
        estimate = "n/a" if a.estimate is None else f"{a.estimate:.3f}"
        lines.append(f"{i:>4}  #{arm:<6}{estimate:>9}  [{a.low:.3f}, {a.high:.3f}] "
                     f"{a.games:>7,}  {a.status:<9} {_key_words(race.game, race.setups[arm])}")
    return "\n".join(lines)


def format_fairness(f: Fairness, title: str, unit: str = "game", units: str = "games") -> str:
    """``kiwara fair``'s answer: the verdict first, then how it was reached and what knowing
    more would cost, then how ``units`` (games, matches) go, in words."""
    pace = f.seconds / f.games
    lines = [f"{title}: {f.verdict()}",
             f"  {plural(f.games, unit, units)} of {f.pairing} in seat-swapped pairs, "
             f"{f.seconds:,.0f} s; the interval is a 95 % confidence sequence, valid however "
             f"long the test ran"]
    # what knowing more means: half the asked precision once it is reached, the asked one
    # when the budget ran out first, half the interval of a clear advantage
    finer = {FAIR: f.precision / 2, UNDECIDED: f.precision}.get(f.outcome, f.half_width / 2)
    more = f.games_for(finer) - f.games
    lines.append(f"  to know the rate to ±{100 * finer:.1f} points: about "
                 f"{plural(more, unit, units)} more (about {_duration(more * pace)} at this pace)")
    m = f.metrics
    if m is not None and m.abs_margin.mean is not None:
        lines.append(f"  how close {units} are: the final score margin averages "
                     f"{m.abs_margin.mean:.1f}{_interval(m.abs_margin)}; "
                     f"{100 * m.draw_rate.value:.1f} % are drawn")
    if m is not None and m.lead_changes.mean is not None:
        lines.append(f"  how often the lead changes: {m.lead_changes.mean:.1f} times a {unit}"
                     f"{_interval(m.lead_changes)}")
    return "\n".join(lines)


def format_fairness_comparison(c: FairnessComparison, title: str | None = None,
                               unit: str = "game", units: str = "games") -> str:
    """``kiwara fair --against``'s answer: the comparison first (after ``title``, if any), then
    each side's own verdict (``format_fairness``'s first line) and what the games cost."""
    first = f"{title}: {c.verdict()}" if title else c.verdict()
    lines = [first, *(f"  {name}: {side.verdict()}" for name, side in zip(c.names, c.sides))]
    a = c.sides[0]
    lines.append(f"  {plural(a.games, unit, units)} of {a.pairing} on each side in seat-swapped "
                 f"pairs, {unit} i of both on the same seed and seats, "
                 f"{sum(side.seconds for side in c.sides):,.0f} s; each interval is a "
                 f"{100 * a.confidence:g} % confidence sequence (both hold together at "
                 f"{100 * c.confidence:g} %), valid however long the test ran")
    if c.outcome not in (FIRST_FAIRER, SECOND_FAIRER):
        finer = a.precision / 2 if c.answered else a.precision
        more = max(side.games_for(finer) for side in c.sides) - a.games
        pace = sum(side.seconds for side in c.sides) / a.games
        lines.append(f"  to know both rates to ±{100 * finer:.1f} points: about "
                     f"{plural(more, unit, units)} more on each side (about "
                     f"{_duration(more * pace)} at this pace)")
    return "\n".join(lines)


def _interval(s: Summary) -> str:
    return "" if s.low is None else f" [{s.low:.1f}, {s.high:.1f}]"


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"
