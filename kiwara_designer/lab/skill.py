"""Balance against skill, from what a store holds: for each rules variant whose setups were
played in self-play at two or more skill levels (agents), the first player's win rate at each
level, pooled over the setups, with its 95 % Wilson interval, and whether the setups differ at
that level (the χ² homogeneity test, Holm-adjusted over the levels, as ``kiwara ladder``).

Levels are ordered by strength when the store can say: by their Elo ratings (the ladder's
Bradley–Terry fit) from the games *between* them it holds (a ``kiwara ladder`` run into the same
store), if those games link every level; otherwise by name, and the report says so. Pooling
over setups weighs each by its games: it answers "how does this set of boards play at this
skill", the question of docs/lab/skill-study.md.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ..core.stats import Homogeneity, Proportion, holm_together, proportion, rate_homogeneity
from .store import RankedExperiment

RATE = "first_player_win_rate"


@dataclass(frozen=True)
class SkillLevel:
    """One agent's self-play over the setups: the pooled first-player rate, each setup's
    (setup key, rate, games), the test of the setups' equality and, when the store can rate
    the levels, its Elo (None otherwise)."""

    agent: str
    first_player: Proportion
    setups: tuple[tuple[str, float, int], ...]
    homogeneity: Homogeneity
    elo: float | None = None


@dataclass(frozen=True)
class SkillCurve:
    """A variant's levels, weakest first when ``rated`` (by Elo), else by name."""

    game: str
    variant: str
    levels: tuple[SkillLevel, ...]
    rated: bool


def _rate(row: RankedExperiment, name: str) -> tuple[float, int] | None:
    found = row.metrics.get(name)
    if isinstance(found, dict) and "trials" in found and found["trials"]:
        return found["successes"], found["trials"]
    return None


def _connected(agents: Sequence[str], pairs: Sequence[tuple[str, str]]) -> bool:
    linked, frontier = {agents[0]}, [agents[0]]
    while frontier:
        agent = frontier.pop()
        for a, b in pairs:
            for here, there in ((a, b), (b, a)):
                if here == agent and there not in linked:
                    linked.add(there)
                    frontier.append(there)
    return linked >= set(agents)


def skill_curves(rows: Sequence[RankedExperiment]) -> list[SkillCurve]:
    """Every (game, variant) of ``rows`` played in self-play by at least two agents."""
    from .ladder import bradley_terry
    groups: dict[tuple[str, str, str], list[RankedExperiment]] = {}
    for row in rows:
        groups.setdefault((row.game, row.variant, row.variant_rules), []).append(row)
    curves = []
    for (game, variant, _), group in sorted(groups.items()):
        self_play: dict[str, list[RankedExperiment]] = {}
        between: dict[tuple[str, str], tuple[float, int]] = {}
        for row in group:
            a, _, b = row.agents.partition(",")
            if a == b and _rate(row, RATE):
                self_play.setdefault(a, []).append(row)
            elif a != b and _rate(row, "agent_a_win_rate"):
                score, n = _rate(row, "agent_a_win_rate")
                old = between.get((a, b), (0.0, 0))
                between[a, b] = (old[0] + score, old[1] + n)
        if len(self_play) < 2:
            continue
        agents = sorted(self_play)
        pairs = [(a, b) for a, b in between if a in self_play and b in self_play]
        elo = None
        if _connected(agents, pairs):
            fit = bradley_terry(agents, {p: between[p] for p in pairs})
            elo = {r.agent: r.elo for r in fit.ratings}
            agents.sort(key=elo.get)
        tests = holm_together({a: rate_homogeneity([_rate(r, RATE) for r in self_play[a]])
                               for a in agents})
        levels = []
        for agent in agents:
            counts = [_rate(r, RATE) for r in self_play[agent]]
            setups = tuple((r.setup, s / n, n) for r, (s, n) in zip(self_play[agent], counts))
            pooled = proportion(sum(s for s, _ in counts), sum(n for _, n in counts))
            levels.append(SkillLevel(agent, pooled, setups, tests[agent],
                                     None if elo is None else elo[agent]))
        curves.append(SkillCurve(game, variant, tuple(levels), elo is not None))
    return curves


# -- the report's section --------------------------------------------------------------------------
def skill_chart(curve: SkillCurve) -> str:
    """The curve as an SVG chart: each level's pooled rate and interval, its setups' faint."""
    from .report import levels_svg
    return levels_svg([level.agent for level in curve.levels],
                      [(level.first_player.value, level.first_player.low,
                        level.first_player.high) for level in curve.levels],
                      [[rate for _, rate, _ in level.setups] for level in curve.levels],
                      "first-player win rate")


def skill_section(curve: SkillCurve, noun: str = "setup") -> list[str]:
    """The chart of balance against skill and its table, for ``kiwara report``."""
    import html

    from .homogeneity import p_text
    from .report import fmt
    levels, noun = curve.levels, html.escape(noun)
    order = ("by Elo, from the games between the levels in this store" if curve.rated else
             "by name: the store holds no games between these agents to rate them (run "
             "<code>kiwara ladder</code> into it)")
    out = [f"<h2>{html.escape(curve.game)}: balance against skill ({html.escape(curve.variant)})"
           "</h2>",
           f'<p class="note">First-player win rate in self-play at each skill level, over the '
           f"{noun}s each level played (95 % Wilson interval; faint: each {noun}'s own rate). "
           f"Levels ordered {order}. Whether the {noun}s differ at a level: the χ² homogeneity "
           f"test, Holm-adjusted over the {len(levels)} levels.</p>",
           f"<div class=plots><figure>{skill_chart(curve)}</figure></div>",
           "<div class=scroll><table><tr><th>level</th>"
           + ("<th>Elo</th>" if curve.rated else "")
           + f"<th>{noun}s</th><th>games</th><th>first-player win rate</th>"
           f"<th>{noun}s differ?</th></tr>"]
    for level in levels:
        h, p = level.homogeneity, level.homogeneity.p_read
        verdict = ("–" if p is None else ("yes" if h.varies() else "cannot tell")
                   + f" ({html.escape(p_text(p))})")
        rate = level.first_player
        out.append(f"<tr><td>{html.escape(level.agent)}</td>"
                   + (f"<td>{level.elo:+.0f}</td>" if curve.rated else "")
                   + f"<td>{len(level.setups)}</td><td>{rate.trials:,}</td>"
                   f"<td>{fmt(rate.value)} [{fmt(rate.low)}, {fmt(rate.high)}]</td>"
                   f"<td>{verdict}</td></tr>")
    out.append("</table></div>")
    return out
