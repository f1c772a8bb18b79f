"""The HTML report of a results store: one self-contained page, hand-made inline SVG, no network.

Each game played in the store has its sections: its own (``Game.report_sections``: Kiwara draws
its best boards, races and what makes a board fair), or the lab's table of its experiments
ranked by its headline metric, with their pictures if the game draws its setups
(``Game.setup_picture``); then, where setups were played in self-play at several skill levels,
balance against skill (:mod:`.skill`). The plots and tables here are the toolkit of all.
"""
from __future__ import annotations

import html
import json
import math
import time
from typing import Iterable, Sequence

from ..core.game import DEFAULT_GAME, Game, GameBase
from .store import RankedExperiment, Store, StoreError, game_named

INK = "#2b2b2b"


# -- plots -------------------------------------------------------------------------------------
PLOT_W, PLOT_H, MARGIN_L, MARGIN_B, MARGIN_T, MARGIN_R = 420, 220, 46, 36, 12, 12


def _axes(x0: float, x1: float, y0: float, y1: float, xlabel: str, ylabel: str,
          xticks: Iterable[float], yticks: Iterable[float]) -> tuple[list[str], callable, callable]:
    inner_w = PLOT_W - MARGIN_L - MARGIN_R
    inner_h = PLOT_H - MARGIN_B - MARGIN_T

    def sx(x: float) -> float:
        return MARGIN_L + (x - x0) / ((x1 - x0) or 1) * inner_w

    def sy(y: float) -> float:
        return MARGIN_T + inner_h - (y - y0) / ((y1 - y0) or 1) * inner_h

    out = [f'<svg width="{PLOT_W}" height="{PLOT_H}" '
           f'viewBox="0 0 {PLOT_W} {PLOT_H}" font-family="sans-serif" font-size="10">',
           f'<line x1="{MARGIN_L}" y1="{sy(y0):.1f}" x2="{PLOT_W - MARGIN_R}" y2="{sy(y0):.1f}" '
           f'stroke="{INK}"/>',
           f'<line x1="{MARGIN_L}" y1="{MARGIN_T}" x2="{MARGIN_L}" y2="{sy(y0):.1f}" stroke="{INK}"/>']
    for t in xticks:
        out.append(f'<line x1="{sx(t):.1f}" y1="{sy(y0):.1f}" x2="{sx(t):.1f}" '
                   f'y2="{sy(y0) + 4:.1f}" stroke="{INK}"/><text x="{sx(t):.1f}" '
                   f'y="{sy(y0) + 14:.1f}" text-anchor="middle">{t:g}</text>')
    for t in yticks:
        out.append(f'<line x1="{MARGIN_L - 4}" y1="{sy(t):.1f}" x2="{PLOT_W - MARGIN_R}" '
                   f'y2="{sy(t):.1f}" stroke="#e4e4e4"/><text x="{MARGIN_L - 6}" '
                   f'y="{sy(t) + 3:.1f}" text-anchor="end">{t:g}</text>')
    out.append(f'<text x="{MARGIN_L + inner_w / 2:.1f}" y="{PLOT_H - 4}" text-anchor="middle">'
               f'{html.escape(xlabel)}</text>')
    out.append(f'<text x="12" y="{MARGIN_T + inner_h / 2:.1f}" text-anchor="middle" '
               f'transform="rotate(-90 12 {MARGIN_T + inner_h / 2:.1f})">{html.escape(ylabel)}</text>')
    return out, sx, sy


def _nice_step(span: float, target: int = 5) -> float:
    raw = span / max(target, 1)
    power = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1
    return next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)


def ticks(lo: float, hi: float) -> list[float]:
    step = _nice_step(hi - lo)
    start = math.ceil(lo / step - 1e-9) * step
    return [round(start + i * step, 10) for i in range(int((hi - start) / step + 1e-9) + 1)]


def histogram_svg(values: Sequence[float], lo: float, hi: float, bins: int, xlabel: str,
                  marker: float | None = None) -> str:
    """Counts of ``values`` in ``bins`` equal bins over [lo, hi] (values outside are clamped)."""
    counts = [0] * bins
    for v in values:
        k = int((v - lo) / (hi - lo) * bins) if hi > lo else 0
        counts[min(max(k, 0), bins - 1)] += 1
    top = max(counts) if counts and max(counts) else 1
    step = _nice_step(top)
    ytop = step * math.ceil(top / step)      # the axis ends on a labelled tick
    out, sx, sy = _axes(lo, hi, 0, ytop, xlabel, "count", ticks(lo, hi), ticks(0, ytop))
    width = (hi - lo) / bins
    for k, n in enumerate(counts):
        if n:
            x0, x1 = sx(lo + k * width), sx(lo + (k + 1) * width)
            out.append(f'<rect x="{x0 + 0.5:.1f}" y="{sy(n):.1f}" width="{max(x1 - x0 - 1, 0.5):.1f}" '
                       f'height="{sy(0) - sy(n):.1f}" fill="#5b8fc7"><title>{n}</title></rect>')
    if marker is not None:
        out.append(f'<line x1="{sx(marker):.1f}" y1="{MARGIN_T}" x2="{sx(marker):.1f}" '
                   f'y2="{sy(0):.1f}" stroke="#c0392b" stroke-dasharray="4 3"/>')
    out.append("</svg>")
    return "".join(out)


def freedman_diaconis(values: Sequence[float]) -> float | None:
    """The Freedman–Diaconis bin width 2·IQR·n^(−1/3) of ``values`` (Freedman & Diaconis 1981),
    quartiles by linear interpolation; None with fewer than 4 values or no spread between the
    quartiles."""
    xs = sorted(values)
    n = len(xs)
    if n < 4:
        return None

    def quantile(q: float) -> float:
        at = q * (n - 1)
        i = int(at)
        return xs[i] + (xs[min(i + 1, n - 1)] - xs[i]) * (at - i)
    iqr = quantile(0.75) - quantile(0.25)
    return 2 * iqr * n ** (-1 / 3) if iqr > 0 else None


def integer_bins(low: float, high: float, most: int = 40,
                 values: Sequence[float] | None = None) -> tuple[int, int, int]:
    """(lo, hi, bins) for integer data: bins of an even whole width aligned on even numbers, so
    every bin holds as many odd and even values — classic margins are all odd, and bins of
    uneven width would make a comb of alternating bars. The width is the smallest such that
    fits [low, high] in ``most`` bins, or, given the ``values``, their Freedman–Diaconis width
    if that is wider: few values get few, wide bars, many values narrow ones."""
    lo = math.floor(low)
    lo -= lo % 2
    hi = math.floor(high) + 1
    width = max(2, math.ceil((hi - lo) / most))
    fd = freedman_diaconis(values) if values is not None else None
    if fd is not None:
        width = max(width, math.ceil(fd))
    width += width % 2
    bins = max(1, math.ceil((hi - lo) / width))
    return lo, lo + bins * width, bins


def rate_bins(rates: Sequence[float], games: Sequence[int], most: int = 40, few: int = 12
              ) -> tuple[float, float, int]:
    """(lo, hi, bins) for rates measured on ``games`` games each, over the span of the rates
    (and ½), laid out so a bin is centred on ½: a fair setup falls in the middle of a bar, not
    on the edge between two. One bin per value a rate can take (k / n, or k / 2n when a draw
    made a half win) when the span holds at most ``few`` of them (few games a setup); otherwise
    the Freedman–Diaconis width of the rates rounded up to an odd number of such values (so no
    value falls on an edge), and never more than ``most`` bins — at 4,000 games a layout the
    rates' spread sets the bars, not the game count. With unequal game counts (a race), n is
    the most common one."""
    n = max(set(games), key=list(games).count) if games else 20
    unit = 1 / n
    if any(abs(r * n - round(r * n)) > 1e-9 for r in rates):
        unit /= 2                                   # half wins (draws)
    if not rates:
        width = unit * math.ceil((1 / unit) / most)
        half_span = (math.ceil(0.5 / width - 1e-9) + 0.5) * width
        return 0.5 - half_span, 0.5 + half_span, round(2 * half_span / width)
    lo, hi = min(min(rates), 0.5), max(max(rates), 0.5)
    width = unit
    if (hi - lo) / unit + 1 > few:
        fd = freedman_diaconis(rates) or 0.0
        m = max(math.ceil(fd / unit - 1e-9), math.ceil((hi - lo) / unit / most), 1)
        width = unit * (m + 1 - m % 2)                    # odd: values stay off the edges
    first = math.floor((lo - 0.5) / width + 0.5 + 1e-9)
    last = math.floor((hi - 0.5) / width + 0.5 + 1e-9)
    bins = last - first + 1
    while bins > most:                               # rounding left one too many
        width += 2 * unit
        first = math.floor((lo - 0.5) / width + 0.5 + 1e-9)
        last = math.floor((hi - 0.5) / width + 0.5 + 1e-9)
        bins = last - first + 1
    return 0.5 + (first - 0.5) * width, 0.5 + (last + 0.5) * width, bins


def scatter_svg(points: Sequence[tuple[float, float]], xlabel: str, ylabel: str) -> str:
    """Points, with the mean of y at each distinct x joined by a line."""
    if not points:
        return histogram_svg([], 0, 1, 1, xlabel)
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    x0, x1 = min(xs) - 1, max(xs) + 1
    y0, y1 = min(0.0, min(ys)), max(1.0, max(ys))
    out, sx, sy = _axes(x0, x1, y0, y1, xlabel, ylabel, ticks(x0, x1), ticks(y0, y1))
    for x, y in points:
        out.append(f'<circle cx="{sx(x):.1f}" cy="{sy(y):.1f}" r="2.5" fill="#5b8fc7" '
                   f'fill-opacity="0.55"/>')
    means = sorted((x, sum(y for px, y in points if px == x) / xs.count(x)) for x in set(xs))
    path = " ".join(f"{sx(x):.1f},{sy(y):.1f}" for x, y in means)
    out.append(f'<polyline points="{path}" fill="none" stroke="#c0392b" stroke-width="1.5"/>')
    out.append("</svg>")
    return "".join(out)


def funnel_svg(points: Sequence[tuple[int, float, float, float]], ylabel: str,
               marker: float | None = 0.5) -> str:
    """Rates drawn with their game counts: one point per setup at (games, rate) on a log scale
    of games, with its 95 % interval as a vertical bar, so a rate of few games shows as the
    uncertain one it is (a race's layouts played 32 games and 2,000 side by side)."""
    if not points:
        return histogram_svg([], 0, 1, 1, "games")
    games = [g for g, *_ in points]
    x0 = math.log10(max(1, min(games)) / 1.5)
    x1 = math.log10(max(games) * 1.5)
    y0 = min(0.0, min(lo for *_, lo, _ in points))
    y1 = max(1.0, max(hi for *_, hi in points))
    decades = [10 ** e for e in range(math.floor(x0), math.ceil(x1) + 1)]
    marks = [d * m for d in decades for m in (1, 2, 5) if x0 <= math.log10(d * m) <= x1]
    out, sx, sy = _axes(x0, x1, y0, y1, "games played (log scale)", ylabel, [], ticks(y0, y1))
    for t in marks:
        x = sx(math.log10(t))
        out.append(f'<line x1="{x:.1f}" y1="{sy(y0):.1f}" x2="{x:.1f}" y2="{sy(y0) + 4:.1f}" '
                   f'stroke="{INK}"/><text x="{x:.1f}" y="{sy(y0) + 14:.1f}" '
                   f'text-anchor="middle">{t:,g}</text>')
    if marker is not None:
        out.append(f'<line x1="{MARGIN_L}" y1="{sy(marker):.1f}" x2="{PLOT_W - MARGIN_R}" '
                   f'y2="{sy(marker):.1f}" stroke="#c0392b" stroke-dasharray="4 3"/>')
    for g, value, low, high in points:
        x = sx(math.log10(max(g, 1)))
        out.append(f'<line x1="{x:.1f}" y1="{sy(low):.1f}" x2="{x:.1f}" y2="{sy(high):.1f}" '
                   f'stroke="#5b8fc7" stroke-opacity="0.6"/><circle cx="{x:.1f}" '
                   f'cy="{sy(value):.1f}" r="2.5" fill="#2b5f97"><title>{value:.3f} '
                   f'[{low:.3f}, {high:.3f}], {g:,} games</title></circle>')
    out.append("</svg>")
    return "".join(out)


def levels_svg(labels: Sequence[str], pooled: Sequence[tuple[float, float, float]],
               each: Sequence[Sequence[float]], ylabel: str, marker: float | None = 0.5) -> str:
    """Categories side by side (skill levels, weakest first): each one's pooled value with its
    95 % interval as a bar, the points joined; behind them, faint, the values of its parts (each
    setup's rate), spread a little sideways so that they do not hide each other."""
    if not labels:
        return histogram_svg([], 0, 1, 1, "")
    values = [v for point in pooled for v in point] + [v for part in each for v in part]
    values += [] if marker is None else [marker]
    y0, y1 = min(values), max(values)
    pad = max((y1 - y0) * 0.08, 0.01)
    y0, y1 = max(0.0, y0 - pad), min(1.0, y1 + pad)
    out, sx, sy = _axes(-0.5, len(labels) - 0.5, y0, y1, "", ylabel, [], ticks(y0, y1))
    for i, label in enumerate(labels):
        out.append(f'<text x="{sx(i):.1f}" y="{sy(y0) + 14:.1f}" text-anchor="middle">'
                   f"{html.escape(label)}</text>")
    if marker is not None:
        out.append(f'<line x1="{MARGIN_L}" y1="{sy(marker):.1f}" x2="{PLOT_W - MARGIN_R}" '
                   f'y2="{sy(marker):.1f}" stroke="#c0392b" stroke-dasharray="4 3"/>')
    for i, part in enumerate(each):
        for k, v in enumerate(part):      # a fixed spread: the same page for the same store
            dx = ((k * 0.618034) % 1 - 0.5) * 0.5
            out.append(f'<circle cx="{sx(i + dx):.1f}" cy="{sy(v):.1f}" r="1.8" '
                       f'fill="#5b8fc7" fill-opacity="0.35"/>')
    path = " ".join(f"{sx(i):.1f},{sy(v):.1f}" for i, (v, _, _) in enumerate(pooled))
    out.append(f'<polyline points="{path}" fill="none" stroke="{INK}" stroke-width="1.2"/>')
    for i, (v, low, high) in enumerate(pooled):
        out.append(f'<line x1="{sx(i):.1f}" y1="{sy(low):.1f}" x2="{sx(i):.1f}" '
                   f'y2="{sy(high):.1f}" stroke="{INK}" stroke-width="2"/><circle '
                   f'cx="{sx(i):.1f}" cy="{sy(v):.1f}" r="3.5" fill="{INK}"><title>'
                   f"{html.escape(labels[i])}: {v:.3f} [{low:.3f}, {high:.3f}]</title></circle>")
    out.append("</svg>")
    return "".join(out)


# -- the page ----------------------------------------------------------------------------------
CSS = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1100px; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.15em; margin-top: 1.8em; }
table { border-collapse: collapse; font-size: 0.85em; }
th, td { padding: 4px 8px; border-bottom: 1px solid #ddd; text-align: right; vertical-align: middle;
         white-space: nowrap; }
.scroll { overflow-x: auto; max-width: 100%; }
pre.rows { font-size: 0.95em; margin: 4px 0 0; user-select: all; }
th { background: #f3f3f3; } td.board { text-align: center; }
.plots { display: flex; flex-wrap: wrap; gap: 1.5em; } figure { margin: 0; }
figcaption { font-size: 0.85em; color: #555; max-width: 420px; }
.note { color: #555; font-size: 0.85em; }
"""


def fmt(value, digits: int = 3) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def interval_cell(metric: dict | None) -> str:
    """A rate (``value``) or a mean (``mean``) with its interval."""
    value = (metric or {}).get("value", (metric or {}).get("mean"))
    if value is None:
        return "–"
    if metric.get("low") is None or metric.get("high") is None:    # one value: no interval
        return f'{value:.3f} <span class="note">[n/a]</span>'
    return f'{value:.3f} <span class="note">[{metric["low"]:.3f}, {metric["high"]:.3f}]</span>'


def value_cell(r: RankedExperiment, name: str, digits: int = 3) -> str:
    """``name`` of the ranked experiment ``r`` with its 95 % interval when the lab has one
    (:func:`.ties.interval_of`), the bare value otherwise (the score: a point summary)."""
    from .ties import interval_of
    found = interval_of(r, name)
    if found is None:
        return "–"
    value, low, high = found
    if low is None:
        return f"{value:.{digits}f}"
    inner = max(digits - 1, 1)
    return (f'{value:.{digits}f} <span class="note">[{low:.{inner}f}, {high:.{inner}f}]'
            "</span>")


def tie_cell(ties, i: int) -> str:
    """``=`` for the ``i``-th row (from 1) of a ranking when it is in the leading tie group."""
    return "=" if ties is not None and i <= len(ties.tied) and ties.tied[i - 1] else ""


def tie_note(ties, noun: str) -> str:
    """A paragraph saying what the ``=`` column means and how the group was formed."""
    if ties is None or len(ties.tied) < 2:
        return ""
    return (f'<p class="note">=: the {ties.size} of {len(ties.tied)} {html.escape(noun)}s that '
            f"cannot be told from the best on {html.escape(ties.metric)} "
            f"({html.escape(ties.method)}). Numbers with their 95 % interval in brackets; the "
            f"score is a point summary, without one.</p>")


def games_spent_caption(arms: list[dict], named: set, noun: str) -> str:
    """What the games-per-setup histogram shows, said from the race's own counts (a race
    stopped by its budget may have played every setup alike)."""
    games = [a["games"] for a in arms]
    fewest = min(games)
    spent = sorted(a["games"] for a in arms if a["arm"] in named)
    text = (f"Games spent per {noun}: {sum(g == fewest for g in games)} of {len(games)} played "
            f"the fewest, {fewest:,}")
    if spent:
        text += (f"; the named ones {spent[0]:,} each" if spent[0] == spent[-1] else
                 f"; the named ones {spent[0]:,} to {spent[-1]:,}")
    return text + "."


def race_section(store: Store, game: Game) -> list[str]:
    """The races of ``game``'s setups in the store (``kiwara race``): how each stopped, the
    setups it named, and every setup's fate: games spent, interval, and when it was dropped."""
    noun = game.setup_noun
    out = []
    for race in store.races():                  # decoded and checked by the store
        arms = race["arms"]
        keys = {i: (name, key) for i, name, key in store.db.execute(
            f"SELECT id, game, setup FROM setups WHERE id IN ({','.join('?' * len(arms))})",
            [a["arm"] for a in arms])}
        if not any(name == game.name for name, _ in keys.values()):
            continue
        texts = {i: " ".join(key.split()) for i, (_, key) in keys.items()}   # its words
        verdict = ("separated: the guarantee holds" if race["separated"] else
                   "stopped by the game budget before the top k were separated: best guesses, "
                   "no guarantee")
        out.append(f"<p>{len(arms)} {noun}s, top {race['k']} by "
                   f"{html.escape(race['objective'])} at {1 - race['delta']:.0%} confidence, "
                   f"tolerance {race['tolerance']:g} ({html.escape(race['strategy'])}): "
                   f"<b>{verdict}</b> after {race['games']:,} games in {race['rounds']} "
                   f"rounds.</p>")
        named = set(race["top"])
        order = sorted(arms, key=lambda a: (a["arm"] not in named, a["status"] == "rejected",
                                            -(a["estimate"] or 0)))
        header = (f"<div class=scroll><table><tr><th>{noun}</th><th>rows</th><th>fate</th>"
                  "<th>estimate</th><th>interval</th><th>games</th>"
                  "<th>decided after (games in the race)</th></tr>")
        lines = {True: [], False: []}
        for a in order:
            fate = "named" if a["arm"] in named else (
                "dropped" if a["status"] == "rejected" else a["status"])
            when = "–" if a["decided_after"] is None else (
                f"{a['decided_after']:,} (round {a['decided_round']})")
            text = html.escape(texts.get(a["arm"], ""))
            lines[a["arm"] in named].append(
                f"<tr><td>{a['arm']}</td><td><code>{text}</code></td><td>{fate}</td>"
                f"<td>{fmt(a['estimate'])}</td><td>[{a['low']:.3f}, {a['high']:.3f}]</td>"
                f"<td>{a['games']:,}</td><td>{when}</td></tr>")
        out += [header, *lines[True], "</table></div>",
                f"<details><summary>The other {len(lines[False])} {noun}s: when each was "
                f"dropped, games spent</summary>", header, *lines[False], "</table></div>",
                "</details>"]
        games = [a["games"] for a in arms]
        lo, hi, bins = integer_bins(0, max(games))
        out.append("<div class=plots><figure>" + histogram_svg(games, lo, hi, bins,
                                                              f"games played on a {noun}") +
                   f"<figcaption>{games_spent_caption(arms, named, noun)}</figcaption></figure>"
                   "</div>")
    return ["<h2>Races</h2>", *out] if out else []


def rules_text(spec: str) -> str:
    """A variant's rules that differ from its game's defaults, as ``key=value`` words."""
    table = json.loads(spec)
    if not table:
        return "the game's defaults"
    return " ".join(f"{k}={json.dumps(v) if isinstance(v, (dict, list)) else _word(v)}"
                    for k, v in table.items())


def _word(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def setups_section(game: Game, rows: Sequence[RankedExperiment], top: int) -> list[str]:
    """The lab's section of a game without its own (Awimbawé's variants): its experiments
    ranked by its headline metric, each with the rules played, its setup's picture if the game
    draws one, and the game's own rates with intervals."""
    by = game.headline_metric
    own = [m for m in game.metrics() if not m.table and m.label]
    ordered = sorted(rows, key=lambda r: (r.values.get(by) is None, -(r.values.get(by) or 0),
                                          -r.score, r.setup_id))
    shown = ordered[:top]
    from .homogeneity import noun_of
    from .ties import tie_group
    ties = tie_group(ordered, by)
    setups = {r.setup: game.setup_from_key(r.setup) for r in rows}
    pictures = [game.setup_picture(setups[r.setup]) for r in shown]
    drawn = any(p is not None for p in pictures)
    out = [f"<h2>{html.escape(game.name)}: top {len(shown)} of {len(rows)} experiments by "
           f"{html.escape(by)}</h2>",
           f'<p class="note">Each row is one rules variant (the rules that differ from the '
           f"game's defaults) played from one {html.escape(game.setup_noun)} by one pairing; "
           f"the {html.escape(game.setup_noun)}s: "
           f"{html.escape(', '.join(sorted(game.setup_text(s) for s in setups.values())))}. "
           f"Rates with 95 % Wilson intervals.</p>",
           tie_note(ties, noun_of(ordered) if ordered else "experiment"),
           "<div class=scroll><table><tr><th>#</th><th>=</th>"
           + (f"<th>{html.escape(game.setup_noun)}</th>" if drawn else "")
           + "<th>variant</th><th>rules</th>"
           f"<th>agents</th><th>games</th><th>{html.escape(by)}</th><th>score</th>"
           "<th>1st-seat win rate</th>"
           + "".join(f"<th>{html.escape(m.label)}</th>" for m in own) + "</tr>"]
    for i, (r, picture) in enumerate(zip(shown, pictures), start=1):
        cells = "".join(f"<td>{interval_cell(r.metrics.get(m.name))}</td>" for m in own)
        out.append(f"<tr><td>{i}</td><td>{tie_cell(ties, i)}</td>"
                   + (f"<td class=board>{picture or ''}</td>" if drawn else "")
                   + f"<td>{html.escape(r.variant)}</td>"
                   f"<td><code>{html.escape(rules_text(r.variant_rules))}</code></td>"
                   f"<td>{html.escape(r.agents)}</td><td>{r.games}</td>"
                   f"<td>{value_cell(r, by)}</td><td>{fmt(r.score)}</td>"
                   f"<td>{interval_cell(r.metrics.get('first_player_win_rate'))}</td>{cells}</tr>")
    out.append("</table></div>")
    return out


def _homogeneity_note(name: str, rows: Sequence[RankedExperiment],
                      game: Game | None) -> list[str]:
    """A paragraph saying which metrics vary between the game's experiments at all (the
    homogeneity tests of :mod:`.homogeneity`), so that a ranking is read only where they do."""
    from .homogeneity import SWEEP_METRICS, summary_sentence
    try:
        headline = [game_named(name, game).headline_metric]
    except (StoreError, AttributeError):
        headline = []
    sentence = summary_sentence(rows, [*headline, *SWEEP_METRICS])
    if sentence is None:
        return []
    return [f'<p class="note">{html.escape(name)}: {html.escape(sentence)} (homogeneity tests '
            f"at the 5 % level: Pearson chi2 for rates, one-way ANOVA for means). A ranking by "
            f"a metric that does not vary is a ranking by noise.</p>"]


class _StoredOnly(GameBase):
    """A game this kiwara does not know: its experiments are reported from what is stored,
    setups by their keys."""

    def __init__(self, name: str) -> None:
        self.name = name

    def setup_key(self, setup: str) -> str:
        return setup

    def setup_from_key(self, key: str) -> str:
        return key


def render_report(store: Store, top: int = 12, title: str = "Play-test report",
                  game: Game | None = None) -> str:
    """The whole report as one HTML string: for each game played in the store, its own
    sections (``Game.report_sections``; first, by name) or the lab's (:func:`setups_section`,
    with its races), by name. An empty store is reported as the default game's. ``game``: a
    game outside the registry (a test's) whose experiments the store holds."""
    from .skill import skill_curves, skill_section
    grouped: dict[str, list[RankedExperiment]] = {}
    for r in store.ranked("score"):
        grouped.setdefault(r.game, []).append(r)
    own, default = [], []
    for name in sorted(grouped or {DEFAULT_GAME: []}):
        try:
            played = game_named(name, game)
        except StoreError:
            played = _StoredOnly(name)
        rows = grouped.get(name, [])
        by_skill = [line for curve in skill_curves(rows)
                    for line in skill_section(curve, played.setup_noun)]
        sections = played.report_sections(store, rows, top)
        if sections is None:
            default.append(setups_section(played, rows, top) + race_section(store, played)
                           + by_skill)
        else:
            own.append(sections + by_skill)
    body = [f"<h1>{html.escape(title)}</h1>"]
    body += [line for name in sorted(grouped) for line in _homogeneity_note(name, grouped[name],
                                                                             game)]
    if not own:
        body.append(f"<p>{store.totals()['games']:,} games stored. Generated "
                    f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}.</p>")
    for sections in own + default:
        body += sections
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{html.escape(title)}</title><style>{CSS}</style></head><body>\n"
            + "\n".join(body) + "\n</body></html>\n")
