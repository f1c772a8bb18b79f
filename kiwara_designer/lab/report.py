"""The HTML report of a results store: one self-contained page, hand-made inline SVG, no network.

Also ``kiwara rank --export``. Boards are drawn by :mod:`kiwara_designer.printing` (thumbnails in
the report, true-scale pages in the export), so they look the same everywhere.
"""
from __future__ import annotations

import html
import json
import math
import time
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Sequence

from ..core.io import make_folder, write_text
from ..games.kiwara.formats import format_text
from .store import RankedExperiment, Store, StoreError, game_named

if TYPE_CHECKING:                 # printing (and svgwrite) is imported only to draw: the lab's
    from ..printing import PrintOptions      # matches and sweeps start without it

INK = "#2b2b2b"


# -- boards ------------------------------------------------------------------------------------
def export_layouts(rows: Sequence[RankedExperiment], directory: str | Path,
                   options: PrintOptions | None = None) -> list[Path]:
    """Write each ranked layout as a layout file and a true-scale printable SVG board (see
    :mod:`kiwara_designer.printing`): ``rank01-layout17.txt``, ``rank01-layout17.svg``…
    (experiments whose setup is not a layout have no board, and are left out)."""
    rows = [r for r in rows if r.layout is not None]
    from ..printing import PrintOptions, write_pages
    from ..games.kiwara.printing import print_set
    options = options or PrintOptions()
    folder = make_folder(directory, "layouts")
    written = []
    for i, r in enumerate(rows, start=1):
        stem = f"rank{i:02d}-layout{r.layout_id}"
        text = folder / f"{stem}.txt"
        write_text(text, f"# rank {i}, score {r.score:.3f}, {r.games} games "
                         f"({r.agents}, variant {r.variant})\n" + format_text(r.layout), "a layout")
        written.append(text)
        pages = print_set(r.layout, options, title=f"rank {i}: layout #{r.layout_id}")
        written += [Path(f) for f in write_pages(pages, str(folder / f"{stem}.svg"))]
    return written


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


def _ticks(lo: float, hi: float) -> list[float]:
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
    out, sx, sy = _axes(lo, hi, 0, ytop, xlabel, "count", _ticks(lo, hi), _ticks(0, ytop))
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


def integer_bins(low: float, high: float, most: int = 40) -> tuple[int, int, int]:
    """(lo, hi, bins) for integer data: bins of an even whole width aligned on even numbers, so
    every bin holds as many odd and even values — classic margins are all odd, and bins of
    uneven width would make a comb of alternating bars."""
    lo = math.floor(low)
    lo -= lo % 2
    hi = math.floor(high) + 1
    width = max(2, math.ceil((hi - lo) / most))
    width += width % 2
    bins = max(1, math.ceil((hi - lo) / width))
    return lo, lo + bins * width, bins


def rate_bins(rates: Sequence[float], games: Sequence[int], most: int = 40
              ) -> tuple[float, float, int]:
    """(lo, hi, bins) for rates measured on ``games`` games each: one bin per value a rate can
    take (k / n, or k / 2n when a draw made a half win), or per few such values when there are
    more than ``most``, laid out so a bin is centred on ½: a fair layout falls in the middle of a
    bar, not on the edge between two. With unequal game counts, n is the most common one."""
    n = max(set(games), key=list(games).count) if games else 20
    unit = 1 / n
    if any(abs(r * n - round(r * n)) > 1e-9 for r in rates):
        unit /= 2                                   # half wins (draws)
    width = unit * math.ceil((1 / unit) / most)
    half_span = (math.ceil(0.5 / width - 1e-9) + 0.5) * width
    return 0.5 - half_span, 0.5 + half_span, round(2 * half_span / width)


def scatter_svg(points: Sequence[tuple[float, float]], xlabel: str, ylabel: str) -> str:
    """Points, with the mean of y at each distinct x joined by a line."""
    if not points:
        return histogram_svg([], 0, 1, 1, xlabel)
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    x0, x1 = min(xs) - 1, max(xs) + 1
    y0, y1 = min(0.0, min(ys)), max(1.0, max(ys))
    out, sx, sy = _axes(x0, x1, y0, y1, xlabel, ylabel, _ticks(x0, x1), _ticks(y0, y1))
    for x, y in points:
        out.append(f'<circle cx="{sx(x):.1f}" cy="{sy(y):.1f}" r="2.5" fill="#5b8fc7" '
                   f'fill-opacity="0.55"/>')
    means = sorted((x, sum(y for px, y in points if px == x) / xs.count(x)) for x in set(xs))
    path = " ".join(f"{sx(x):.1f},{sy(y):.1f}" for x, y in means)
    out.append(f'<polyline points="{path}" fill="none" stroke="#c0392b" stroke-width="1.5"/>')
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


def _fmt(value, digits: int = 3) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def _interval(metric: dict | None) -> str:
    """A rate (``value``) or a mean (``mean``) with its interval."""
    value = (metric or {}).get("value", (metric or {}).get("mean"))
    if value is None:
        return "–"
    return f'{value:.3f} <span class="note">[{metric["low"]:.3f}, {metric["high"]:.3f}]</span>'


def effects_svg(explanation) -> str:
    """A forest plot: each feature's effect per standard deviation with its 95 % interval."""
    effects = explanation.effects
    row_h, left, width = 22, 120, PLOT_W
    height = MARGIN_T + row_h * len(effects) + MARGIN_B
    span = max([abs(x) for e in effects for x in (e.low, e.high)] + [1e-9])
    ticks = _ticks(-span, span)
    lo, hi = min(ticks + [-span]), max(ticks + [span])

    def sx(x: float) -> float:
        return left + (x - lo) / (hi - lo) * (width - left - MARGIN_R)
    out = [f'<svg width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
           f'font-family="sans-serif" font-size="10">',
           f'<line x1="{sx(0):.1f}" y1="{MARGIN_T}" x2="{sx(0):.1f}" '
           f'y2="{height - MARGIN_B:.1f}" stroke="#c0392b" stroke-dasharray="4 3"/>']
    for t in ticks:
        out.append(f'<text x="{sx(t):.1f}" y="{height - MARGIN_B + 14:.1f}" '
                   f'text-anchor="middle">{t:g}</text>')
    for i, e in enumerate(effects):
        y = MARGIN_T + row_h * (i + 0.5)
        colour = INK if e.clear else "#9a9a9a"
        out.append(f'<text x="{left - 8}" y="{y + 3:.1f}" text-anchor="end">'
                   f'{html.escape(e.feature)}</text>'
                   f'<line x1="{sx(e.low):.1f}" y1="{y:.1f}" x2="{sx(e.high):.1f}" y2="{y:.1f}" '
                   f'stroke="{colour}" stroke-width="1.5"/>'
                   f'<circle cx="{sx(e.per_sd):.1f}" cy="{y:.1f}" r="3.5" fill="{colour}">'
                   f'<title>{e.per_sd:+.4f} [{e.low:+.4f}, {e.high:+.4f}]</title></circle>')
    out.append(f'<text x="{(left + width) / 2:.1f}" y="{height - 4}" text-anchor="middle">'
               f'change of {html.escape(explanation.metric)} per sd of the feature</text></svg>')
    return "".join(out)


def explain_section(store: Store) -> list[str]:
    """What the layouts' shape explains of their first-player win rate (needs statsmodels and
    enough layouts of one pairing; otherwise the section is left out, saying why)."""
    from ..games.kiwara.explain import ExplainError, explain
    try:
        e = explain(store)
    except ExplainError as exc:
        return [f'<h2>What makes a board fair</h2><p class="note">Not fitted: '
                f'{html.escape(str(exc))}</p>']
    clear = [f for f in e.effects if f.clear]
    said = (", ".join(f"{f.feature} ({f.per_sd:+.3f} per sd)" for f in clear)
            or "no feature clearly")
    return ["<h2>What makes a board fair</h2>",
            f"<p>Weighted least squares of the first-player win rate of {e.layouts} layouts "
            f"on their standardised shape features (HC1 robust 95 % intervals; "
            f"R² = {e.r_squared:.3f}): {html.escape(said)} moves it beyond the games' noise. "
            f"Grey: intervals that include 0. See <code>kiwara explain</code>.</p>",
            "<div class=plots><figure>" + effects_svg(e) + "<figcaption>Effect of each feature "
            "per standard deviation, with its 95 % interval.</figcaption></figure></div>"]


def games_spent_caption(arms: list[dict], named: set) -> str:
    """What the games-per-layout histogram shows, said from the race's own counts (a race
    stopped by its budget may have played every layout alike)."""
    games = [a["games"] for a in arms]
    fewest = min(games)
    spent = sorted(a["games"] for a in arms if a["arm"] in named)
    text = (f"Games spent per layout: {sum(g == fewest for g in games)} of {len(games)} played "
            f"the fewest, {fewest:,}")
    if spent:
        text += (f"; the named ones {spent[0]:,} each" if spent[0] == spent[-1] else
                 f"; the named ones {spent[0]:,} to {spent[-1]:,}")
    return text + "."


def race_section(store: Store) -> list[str]:
    """The races of the store (``kiwara race``): how each stopped, the layouts it named, and
    every layout's fate: games spent, interval, and when it was dropped."""
    from .race_lab import stored_races
    races = stored_races(store)
    if not races:
        return []
    out = ["<h2>Races</h2>"]
    for race in races:
        arms = race["arms"]
        rows = dict(store.db.execute(
            f"SELECT id, canonical FROM layouts WHERE id IN ({','.join('?' * len(arms))})",
            [a["arm"] for a in arms]))
        verdict = ("separated: the guarantee holds" if race["separated"] else
                   "stopped by the game budget before the top k were separated: best guesses, "
                   "no guarantee")
        out.append(f"<p>{len(arms)} layouts, top {race['k']} by {html.escape(race['objective'])}"
                   f" at {1 - race['delta']:.0%} confidence, tolerance {race['tolerance']:g} "
                   f"({html.escape(race['strategy'])}): <b>{verdict}</b> after "
                   f"{race['games']:,} games in {race['rounds']} rounds.</p>")
        named = set(race["top"])
        order = sorted(arms, key=lambda a: (a["arm"] not in named, a["status"] == "rejected",
                                            -(a["estimate"] or 0)))
        header = ("<div class=scroll><table><tr><th>layout</th><th>rows</th><th>fate</th>"
                  "<th>estimate</th><th>interval</th><th>games</th>"
                  "<th>decided after (games in the race)</th></tr>")
        lines = {True: [], False: []}
        for a in order:
            fate = "named" if a["arm"] in named else (
                "dropped" if a["status"] == "rejected" else a["status"])
            when = "–" if a["decided_after"] is None else (
                f"{a['decided_after']:,} (round {a['decided_round']})")
            board = html.escape(rows.get(a["arm"], "").replace(chr(10), " "))
            lines[a["arm"] in named].append(
                f"<tr><td>{a['arm']}</td><td><code>{board}</code></td><td>{fate}</td>"
                f"<td>{_fmt(a['estimate'])}</td><td>[{a['low']:.3f}, {a['high']:.3f}]</td>"
                f"<td>{a['games']:,}</td><td>{when}</td></tr>")
        out += [header, *lines[True], "</table></div>",
                f"<details><summary>The other {len(lines[False])} layouts: when each was "
                f"dropped, games spent</summary>", header, *lines[False], "</table></div>",
                "</details>"]
        games = [a["games"] for a in arms]
        lo, hi, bins = integer_bins(0, max(games))
        out.append("<div class=plots><figure>" + histogram_svg(games, lo, hi, bins,
                                                              "games played on a layout") +
                   f"<figcaption>{games_spent_caption(arms, named)}</figcaption></figure></div>")
    return out


def rules_text(spec: str) -> str:
    """A variant's rules that differ from its game's defaults, as ``key=value`` words."""
    table = json.loads(spec)
    if not table:
        return "the game's defaults"
    return " ".join(f"{k}={json.dumps(v) if isinstance(v, (dict, list)) else _word(v)}"
                    for k, v in table.items())


def _word(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def headline(game_name: str) -> str:
    """The metric a game's experiments are ranked by (``Game.headline_metric``, or the lab's
    combined score)."""
    try:
        return getattr(game_named(game_name), "headline_metric", "score")
    except StoreError:
        return "score"


def setups_section(game_name: str, rows: Sequence[RankedExperiment], top: int) -> list[str]:
    """A game played without layouts (Awimbawé's variants): its experiments ranked by its
    headline metric, each with the rules played and the game's own rates with intervals."""
    by = headline(game_name)
    try:
        own = [m for m in game_named(game_name).metrics() if not m.table and m.label]
    except StoreError:
        own = []
    ordered = sorted(rows, key=lambda r: (r.values.get(by) is None, -(r.values.get(by) or 0),
                                          -r.score, r.layout_id))
    shown = ordered[:top]
    out = [f"<h2>{html.escape(game_name)}: top {len(shown)} of {len(rows)} experiments by "
           f"{html.escape(by)}</h2>",
           f'<p class="note">Each row is one rules variant (the rules that differ from the '
           f"game's defaults) played from one setup by one pairing; the setups: "
           f"{html.escape(', '.join(sorted({r.setup for r in rows})))}. "
           f"Rates with 95 % Wilson intervals.</p>",
           "<div class=scroll><table><tr><th>#</th><th>variant</th><th>rules</th>"
           f"<th>agents</th><th>games</th><th>{html.escape(by)}</th><th>score</th>"
           "<th>1st-seat win rate</th>"
           + "".join(f"<th>{html.escape(m.label)}</th>" for m in own) + "</tr>"]
    for i, r in enumerate(shown, start=1):
        cells = "".join(f"<td>{_interval(r.metrics.get(m.name))}</td>" for m in own)
        out.append(f"<tr><td>{i}</td><td>{html.escape(r.variant)}</td>"
                   f"<td><code>{html.escape(rules_text(r.variant_rules))}</code></td>"
                   f"<td>{html.escape(r.agents)}</td><td>{r.games}</td>"
                   f"<td>{_fmt(r.values.get(by))}</td><td>{_fmt(r.score)}</td>"
                   f"<td>{_interval(r.metrics.get('first_player_win_rate'))}</td>{cells}</tr>")
    out.append("</table></div>")
    return out


def render_report(store: Store, top: int = 12, title: str = "Kiwara play-test report") -> str:
    """The whole report as one HTML string: the layouts' sections (boards, distributions,
    races, explain), then a section for each game played without layouts."""
    every = store.ranked("score")
    rows = [r for r in every if r.layout is not None]
    others: dict[str, list[RankedExperiment]] = {}
    for r in every:
        if r.layout is None:
            others.setdefault(r.game, []).append(r)
    body = [f"<h1>{html.escape(title)}</h1>"]
    if rows or not others:
        body += layout_sections(store, rows, top)
    else:
        body.append(f"<p>{store.totals()['games']:,} games stored. Generated "
                    f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}.</p>")
    for game_name, game_rows in sorted(others.items()):
        body += setups_section(game_name, game_rows, top)
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{html.escape(title)}</title><style>{CSS}</style></head><body>\n"
            + "\n".join(body) + "\n</body></html>\n")


def layout_sections(store: Store, rows: Sequence[RankedExperiment], top: int) -> list[str]:
    """The experiments played on layouts: the best boards, races, explain, distributions."""
    from ..games.kiwara.printing import board_thumbnail
    totals = store.totals()
    margins = [r[0] for r in store.db.execute(
        "SELECT g.score_first - g.score_second FROM games g JOIN experiments e ON "
        "e.layout_id = g.layout_id AND e.variant_id = g.variant_id AND e.agents_id = g.agents_id "
        "JOIN layouts l ON l.id = g.layout_id WHERE l.canonical IS NOT NULL")]
    pairings = sorted({(r.variant, r.agents) for r in rows})
    first_rates = [r.values["first_player_win_rate"] for r in rows
                   if r.values.get("first_player_win_rate") is not None]
    body = [f'<p>{totals["layouts"]} layouts, {totals["games"]:,} games stored; '
            f'{len(rows)} layout summaries ({", ".join(html.escape(f"variant {v}, agents {a}") for v, a in pairings) or "none"}). '
            f'Generated {time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}. '
            f'Intervals are 95 % (Wilson for rates, Student t for means).</p>']
    body.append(f"<h2>Top {min(top, len(rows))} layouts by layout score</h2>")
    body.append("<div class=scroll><table><tr><th>#</th><th>board</th><th>score</th><th>balance</th>"
                "<th>1st-player win rate</th><th>mean margin</th><th>lead changes</th>"
                "<th>decisiveness</th><th>skill gap</th><th>contested</th><th>rivers</th>"
                "<th>sizes</th><th>games</th></tr>")
    for i, r in enumerate(rows[:top], start=1):
        m, v = r.metrics, r.values
        body.append(
            f"<tr><td>{i}</td><td class=board>{board_thumbnail(r.layout)}<br>"
            f'<span class="note">layout {r.layout_id}</span>'
            f'<pre class="rows">{html.escape(chr(10).join(r.layout.rows))}</pre></td>'
            f"<td>{r.score:.3f}</td>"
            f"<td>{_fmt(v.get('balance'))}</td><td>{_interval(m.get('first_player_win_rate'))}</td>"
            f"<td>{_fmt(v.get('score_margin'), 2)}</td><td>{_fmt(v.get('lead_changes'), 2)}</td>"
            f"<td>{_fmt(v.get('decisiveness'))}</td><td>{_interval(m.get('skill_gap'))}</td>"
            f"<td>{_fmt(v.get('contestedness'))}</td><td>{r.rivers}</td>"
            f"<td>{html.escape(r.size_mix)}</td><td>{r.games}</td></tr>")
    body.append("</table></div>")
    body += race_section(store)
    body += explain_section(store)
    body.append("<h2>Distributions</h2><div class=plots>")
    lo, hi, bins = rate_bins(first_rates, [r.games for r in rows
                                           if r.values.get("first_player_win_rate") is not None])
    body.append("<figure>" + histogram_svg(first_rates, lo, hi, bins, "first-player win rate",
                                           0.5) +
                "<figcaption>First-player win rate across layouts, one bar per value the game "
                "count allows (dashed: a fair 0.5, the centre of its bar).</figcaption></figure>")
    if margins:
        lo, hi, bins = integer_bins(min(margins), max(margins))
        body.append("<figure>" + histogram_svg(margins, lo, hi, bins, "score margin (first − second)",
                                               0) +
                    f"<figcaption>Final score margin of all {len(margins):,} games.</figcaption>"
                    "</figure>")
    for key, label in (("score", "layout score"), ("first_player_win_rate", "first-player win rate")):
        points = [(r.rivers, r.values[key]) for r in rows if r.values.get(key) is not None]
        body.append("<figure>" + scatter_svg(points, "river segments", label) +
                    f"<figcaption>{label.capitalize()} against the number of river segments "
                    "(red: mean per river count).</figcaption></figure>")
    body.append("</div>")
    body.append('<p class="note">Layout score = weighted mean of balance (0.5), tension = 1 − '
                "decisiveness (0.2), lead changes per move / 0.5 capped at 1 (0.1) and skill = 2 × (skill gap "
                "− 0.5) (0.2); see the README, section Play-test lab.</p>")
    return body
