"""Balance and interest metrics of a set of games, and the combined layout score used for ranking.

Definitions (formula and why a designer cares) are in the README section "Play-test lab"; each
function below states its formula. Seats: 0 = first player (opens with the totem), 1 = second.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from .matches import FIRST, SECOND, GameResult
from .stats import Proportion, Summary, proportion, summarise

# Weights of the combined layout score (README: "Layout score"). Balance dominates: an unfair
# layout is useless however exciting; tension and skill separate the fair ones.
SCORE_WEIGHTS = {"balance": 0.5, "tension": 0.2, "lead_changes": 0.1, "skill": 0.2}
LEAD_CHANGE_RATE_FOR_FULL_MARKS = 0.5   # the leader switching every other move


@dataclass(frozen=True)
class TerritoryStats:
    name: str
    size: int
    first: float          # share of games the first player controlled it at the end
    second: float
    nobody: float
    contested: float      # share of games in which its majority changed hands at least once

    def to_json(self) -> dict:
        return {"name": self.name, "size": self.size, "first": self.first, "second": self.second,
                "nobody": self.nobody, "contested": self.contested}


@dataclass(frozen=True)
class Metrics:
    """Metrics of one (layout, variant, pairing). Proportions carry 95 % Wilson intervals."""

    games: int
    first_player_win: Proportion      # (first-player wins + draws / 2) / games
    balance: tuple[float, float, float]   # value, low, high
    draw_rate: Proportion
    margin: Summary                   # first − second final score
    abs_margin: Summary
    length: Summary                   # plies
    branching: Summary                # mean legal moves per turn, per game
    decision_moves: Summary           # share of turns with a real choice, per game
    lead_changes: Summary
    lead_change_rate: Summary         # lead changes / (plies − 1), per game
    decisiveness: Summary
    okapi_taker_win: Proportion       # among games with an Okapi and a winner
    okapi_first: Proportion           # share of Okapis taken by the first player
    agent_a_win: Proportion           # (A wins + draws / 2) / games, seats alternated
    territories: tuple[TerritoryStats, ...]
    skill_gap: Proportion | None      # stronger agent's win rate against the weaker one
    score: float

    def value(self, name: str) -> float | None:
        """A metric as one number (for ``rank --by`` and the report's plots)."""
        getter = METRIC_VALUES.get(name)
        if getter is None:
            raise KeyError(name)
        return getter(self)

    def to_json(self) -> dict:
        return {
            "games": self.games,
            "first_player_win_rate": self.first_player_win.to_json(),
            "balance": dict(zip(("value", "low", "high"), self.balance)),
            "draw_rate": self.draw_rate.to_json(),
            "score_margin": self.margin.to_json(),
            "abs_score_margin": self.abs_margin.to_json(),
            "length": self.length.to_json(),
            "branching_factor": self.branching.to_json(),
            "decision_moves": self.decision_moves.to_json(),
            "lead_changes": self.lead_changes.to_json(),
            "lead_change_rate": self.lead_change_rate.to_json(),
            "decisiveness": self.decisiveness.to_json(),
            "okapi_taker_win_rate": self.okapi_taker_win.to_json(),
            "okapi_first_player_rate": self.okapi_first.to_json(),
            "agent_a_win_rate": self.agent_a_win.to_json(),
            "territories": [t.to_json() for t in self.territories],
            "skill_gap": self.skill_gap.to_json() if self.skill_gap else None,
            "score": self.score,
        }


def balance_of(p: float) -> float:
    """1 − |p − 0.5| × 2: 1 for a coin flip, 0 when one seat always wins."""
    return 1 - abs(p - 0.5) * 2


def balance_interval(rate: Proportion) -> tuple[float, float, float]:
    """Balance and its interval, mapped from the win-rate interval (1 if that contains 0.5)."""
    value = balance_of(rate.value) if rate.trials else 0.0
    ends = (balance_of(rate.low), balance_of(rate.high))
    high = 1.0 if rate.low <= 0.5 <= rate.high else max(ends)
    return value, min(ends), high


def layout_score(balance: float, decisiveness: float | None, lead_change_rate: float | None,
                 skill_gap: float | None) -> float:
    """score = Σ wᵢ·termᵢ / Σ wᵢ over the measured terms (weights in SCORE_WEIGHTS), each in [0, 1]:
    balance; tension = 1 − decisiveness; lead changes = min(lead change rate / 0.5, 1);
    skill = 2·(skill gap − 0.5) clipped to [0, 1]. A term that was not measured (no skill games)
    is left out, not zeroed."""
    terms = {"balance": balance}
    if decisiveness is not None:
        terms["tension"] = 1 - decisiveness
    if lead_change_rate is not None:
        terms["lead_changes"] = min(lead_change_rate / LEAD_CHANGE_RATE_FOR_FULL_MARKS, 1.0)
    if skill_gap is not None:
        terms["skill"] = min(max(2 * (skill_gap - 0.5), 0.0), 1.0)
    total = sum(SCORE_WEIGHTS[k] for k in terms)
    return sum(SCORE_WEIGHTS[k] * v for k, v in terms.items()) / total


def compute_metrics(games: Sequence[GameResult], territory_names: Sequence[str] = (),
                    territory_sizes: Sequence[int] = (),
                    skill_games: Sequence[GameResult] = ()) -> Metrics:
    """Metrics of ``games`` (one pairing, seats alternated). ``skill_games`` are games of a
    stronger agent A against a weaker agent B on the same layout (for the skill gap)."""
    n = len(games)
    first_wins = sum(g.winner == FIRST for g in games)
    draws = sum(g.winner is None for g in games)
    first_rate = proportion(first_wins + draws / 2, n)
    a_wins = sum(g.winner is not None and g.winner == g.a_seat for g in games)
    decisive = [g.decisiveness for g in games if g.decisiveness is not None]
    with_okapi = [g for g in games if g.okapi is not None]
    okapi_decided = [g for g in with_okapi if g.winner is not None]
    territories = []
    count = len(games[0].control) if games else len(territory_names)
    names = list(territory_names) or [chr(ord("A") + i) for i in range(count)]
    sizes = list(territory_sizes) or [0] * count
    for t in range(count):
        held = [g.control[t] for g in games]
        territories.append(TerritoryStats(
            names[t], sizes[t],
            first=held.count(FIRST) / n if n else 0.0,
            second=held.count(SECOND) / n if n else 0.0,
            nobody=held.count(None) / n if n else 0.0,
            contested=sum(g.control_changes[t] > 0 for g in games) / n if n else 0.0))
    skill = None
    if skill_games:
        strong = sum(g.winner is not None and g.winner == g.a_seat for g in skill_games)
        skill_draws = sum(g.winner is None for g in skill_games)
        skill = proportion(strong + skill_draws / 2, len(skill_games))
    balance = balance_interval(first_rate)
    decisiveness = summarise(decisive)
    lead_change_rate = summarise([g.lead_changes / (g.plies - 1) if g.plies > 1 else 0.0
                                  for g in games])
    return Metrics(
        games=n,
        first_player_win=first_rate,
        balance=balance,
        draw_rate=proportion(draws, n),
        margin=summarise([g.margin for g in games]),
        abs_margin=summarise([abs(g.margin) for g in games]),
        length=summarise([g.plies for g in games]),
        branching=summarise([g.branching for g in games]),
        decision_moves=summarise([g.decisions / g.plies if g.plies else 0.0 for g in games]),
        lead_changes=summarise([g.lead_changes for g in games]),
        lead_change_rate=lead_change_rate,
        decisiveness=decisiveness,
        okapi_taker_win=proportion(sum(g.winner == g.okapi for g in okapi_decided),
                                   len(okapi_decided)),
        okapi_first=proportion(sum(g.okapi == FIRST for g in with_okapi), len(with_okapi)),
        agent_a_win=proportion(a_wins + draws / 2, n),
        territories=tuple(territories),
        skill_gap=skill,
        score=layout_score(balance[0], decisiveness.mean, lead_change_rate.mean,
                           skill.value if skill else None),
    )


METRIC_VALUES = {
    "score": lambda m: m.score,
    "balance": lambda m: m.balance[0],
    "first_player_win_rate": lambda m: m.first_player_win.value,
    "draw_rate": lambda m: m.draw_rate.value,
    "score_margin": lambda m: m.margin.mean,
    "abs_score_margin": lambda m: m.abs_margin.mean,
    "length": lambda m: m.length.mean,
    "branching_factor": lambda m: m.branching.mean,
    "decision_moves": lambda m: m.decision_moves.mean,
    "lead_changes": lambda m: m.lead_changes.mean,
    "lead_change_rate": lambda m: m.lead_change_rate.mean,
    "decisiveness": lambda m: m.decisiveness.mean,
    "okapi_taker_win_rate": lambda m: m.okapi_taker_win.value,
    "skill_gap": lambda m: m.skill_gap.value if m.skill_gap else None,
    "contestedness": lambda m: (sum(t.contested for t in m.territories) / len(m.territories)
                                if m.territories else None),
}
METRIC_NAMES = tuple(METRIC_VALUES)
