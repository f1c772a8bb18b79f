"""Kiwara's sections of the lab's HTML report (``KIWARA.report_sections``): the best layouts drawn
as boards with their metrics, the races, what makes a board fair (:mod:`.explain`) and the
distributions across layouts, drawn with the lab's plots."""
from __future__ import annotations

import html
import math
import time
from typing import Sequence

from ...core.game import Game
from ...lab.report import (INK, MARGIN_B, MARGIN_R, MARGIN_T, PLOT_W, fmt, histogram_svg,
                           funnel_svg, integer_bins, race_section, rate_bins, scatter_svg,
                           tie_cell, tie_note, ticks, value_cell)
from ...lab.store import RankedExperiment, Store


def effects_svg(explanation) -> str:
    """A forest plot: each feature's effect per standard deviation with its 95 % interval."""
    effects = explanation.effects
    row_h, left, width = 22, 120, PLOT_W
    height = MARGIN_T + row_h * len(effects) + MARGIN_B
    span = max([abs(x) for e in effects for x in (e.low, e.high)] + [1e-9])
    marks = ticks(-span, span)
    lo, hi = min(marks + [-span]), max(marks + [span])

    def sx(x: float) -> float:
        return left + (x - lo) / (hi - lo) * (width - left - MARGIN_R)
    out = [f'<svg width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
           f'font-family="sans-serif" font-size="10">',
           f'<line x1="{sx(0):.1f}" y1="{MARGIN_T}" x2="{sx(0):.1f}" '
           f'y2="{height - MARGIN_B:.1f}" stroke="#c0392b" stroke-dasharray="4 3"/>']
    for t in marks:
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


def explain_section(store: Store, game: str) -> list[str]:
    """What the shape of ``game``'s layouts explains of their first-player win rate (needs
    statsmodels and enough layouts of one pairing; otherwise it says why it was not fitted).
    The joint test speaks first: when it does not reject, the section says that no feature
    explains the rate beyond the noise, and nothing is drawn as clear."""
    from .explain import ExplainError, explain, shown
    try:
        e = explain(store, game=game)
    except ExplainError as exc:
        return [f'<h2>What makes a board fair</h2><p class="note">Not fitted: '
                f'{html.escape(str(exc))}</p>']
    clear = [f for f in e.effects if f.clear]
    joint = e.joint
    tested = (f"a joint robust test that every effect is zero gives p = {joint.p_value:.3g}"
              if math.isfinite(joint.p_value) else "the joint test could not be computed")
    if not e.explained:
        verdict = f"{tested}: no feature explains the rate beyond the games' noise."
    elif clear:
        verdict = (f"{tested}: the features together explain part of it, and "
                   + ", ".join(f"{f.feature} ({f.per_sd:+.3f} per sd)" for f in clear)
                   + " moves it beyond the games' noise (Holm-adjusted p < 0.05).")
    else:
        verdict = (f"{tested}: the features together explain part of it, but no single feature "
                   f"does clearly once its p-value is adjusted for the {len(e.effects)} tests "
                   f"(Holm).")
    fitted = (f" Games per layout differ ({e.game_counts[0]}–{e.game_counts[1]}): fitted on the "
              f"first {e.first_games} games of every layout." if e.first_games is not None else "")
    return ["<h2>What makes a board fair</h2>",
            f"<p>Weighted least squares of the first-player win rate of {e.layouts} layouts "
            f"on their standardised shape features (HC3 robust 95 % intervals with t quantiles; "
            f"R² = {shown(e.r_squared, '.3f')}).{fitted} "
            f"{html.escape(verdict[0].upper() + verdict[1:], quote=False)} "
            f"Black: a clear effect (the joint test rejects and the Holm-adjusted p &lt; 0.05); "
            f"grey: the others (the intervals are not adjusted for the {len(e.effects)} tests, so "
            f"a grey one may exclude 0). See <code>kiwara explain</code>.</p>",
            "<div class=plots><figure>" + effects_svg(e) + "<figcaption>Effect of each feature "
            "per standard deviation, with its 95 % interval.</figcaption></figure></div>"]


def layout_sections(game: Game, store: Store, rows: Sequence[RankedExperiment],
                    top: int) -> list[str]:
    """The report's sections of ``game``'s experiments ``rows``, played on Kiwara's layouts
    (``KiwaraGame.report_sections``): the best boards, races, explain, distributions."""
    stored = store.db.execute("SELECT COUNT(*) FROM games g JOIN setups s ON s.id = g.setup_id "
                              "WHERE s.game = ?", (game.name,)).fetchone()[0]
    margins = store.score_margins(game.name)        # each score checked finite
    pairings = sorted({(r.variant, r.agents) for r in rows})
    first_rates = [r.values["first_player_win_rate"] for r in rows
                   if r.values.get("first_player_win_rate") is not None]
    layouts = store.setup_counts().get(game.name, 0)
    body = [f'<p>{layouts} layouts, {stored:,} games stored; '
            f'{len(rows)} layout summaries ({", ".join(html.escape(f"variant {v}, agents {a}") for v, a in pairings) or "none"}). '
            f'Generated {time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}. '
            f'Intervals are 95 % (Wilson for rates, Student t for means).</p>']
    from ...lab.ties import tie_group
    ties = tie_group(rows, "score")
    body.append(f"<h2>Top {min(top, len(rows))} layouts by layout score</h2>")
    body.append(tie_note(ties, "layout"))
    body.append("<div class=scroll><table><tr><th>#</th><th>=</th><th>board</th><th>score</th>"
                "<th>balance</th>"
                "<th>1st-player win rate</th><th>mean margin</th><th>lead changes</th>"
                "<th>decisiveness</th><th>skill gap</th><th>contested</th><th>rivers</th>"
                "<th>sizes</th><th>games</th></tr>")
    for i, r in enumerate(rows[:top], start=1):
        m, v, shape = r.metrics, r.values, r.descriptors
        body.append(
            f"<tr><td>{i}</td><td>{tie_cell(ties, i)}</td><td class=board>{game.setup_picture(game.setup_from_key(r.setup))}<br>"
            f'<span class="note">layout {r.setup_id}</span>'
            f'<pre class="rows">{html.escape(r.setup)}</pre></td>'
            f"<td>{r.score:.3f}</td>"
            f"<td>{value_cell(r, 'balance')}</td>"
            f"<td>{value_cell(r, 'first_player_win_rate')}</td>"
            f"<td>{value_cell(r, 'score_margin', 2)}</td><td>{value_cell(r, 'lead_changes', 2)}</td>"
            f"<td>{value_cell(r, 'decisiveness')}</td><td>{value_cell(r, 'skill_gap')}</td>"
            f"<td>{fmt(v.get('contestedness'))}</td><td>{shape['rivers']}</td>"
            f"<td>{html.escape(shape['size_mix'])}</td><td>{r.games}</td></tr>")
    body.append("</table></div>")
    body += race_section(store, game)
    body += explain_section(store, game.name)
    body.append("<h2>Distributions</h2><div class=plots>")
    counts = [r.games for r in rows if r.values.get("first_player_win_rate") is not None]
    lo, hi, bins = rate_bins(first_rates, counts)
    unequal = len(set(counts)) > 1
    body.append("<figure>" + histogram_svg(first_rates, lo, hi, bins, "first-player win rate",
                                           0.5) +
                "<figcaption>First-player win rate across layouts, one bar per value the game "
                "count allows, or per few when the rates spread over many (Freedman–Diaconis; "
                "dashed: a fair 0.5, the centre of its bar)."
                + (f" The layouts played different numbers of games ({min(counts):,}–"
                   f"{max(counts):,}): a rate of few games is far less certain than one of "
                   f"many, and the next plot draws each with its count and interval."
                   if unequal else "") + "</figcaption></figure>")
    if unequal:
        points = [(r.games, m["value"], m["low"], m["high"]) for r in rows
                  for m in [r.metrics.get("first_player_win_rate")]
                  if isinstance(m, dict) and m.get("value") is not None]
        body.append("<figure>" + funnel_svg(points, "first-player win rate") +
                    "<figcaption>Each layout's first-player win rate at its game count, with "
                    "its 95 % Wilson interval (dashed: 0.5). Layouts of a race played as many "
                    "games as deciding them took: the short bars are the certain ones."
                    "</figcaption></figure>")
    if margins:
        lo, hi, bins = integer_bins(min(margins), max(margins), values=margins)
        body.append("<figure>" + histogram_svg(margins, lo, hi, bins, "score margin (first − second)",
                                               0) +
                    f"<figcaption>Final score margin of all {len(margins):,} games.</figcaption>"
                    "</figure>")
    for key, label in (("score", "layout score"), ("first_player_win_rate", "first-player win rate")):
        points = [(r.descriptors["rivers"], r.values[key]) for r in rows
                  if r.values.get(key) is not None]
        body.append("<figure>" + scatter_svg(points, "river segments", label) +
                    f"<figcaption>{label.capitalize()} against the number of river segments "
                    "(red: mean per river count).</figcaption></figure>")
    body.append("</div>")
    body.append('<p class="note">Layout score = weighted mean of balance (0.5), tension = 1 − '
                "decisiveness (0.2), lead changes per move / 0.5 capped at 1 (0.1) and skill = 2 × (skill gap "
                "− 0.5) (0.2); see the guide, docs/lab/metrics.md.</p>")
    return body
