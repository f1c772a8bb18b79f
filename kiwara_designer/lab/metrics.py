"""Balance and interest metrics of a set of games, and the combined score used for ranking (the
guide's "layout score": it ranks Kiwara's layouts, and any game's setups and variants).

The metrics every game shares are computed here from the neutral fields of each
:class:`GameResult`; each game adds its own from its registry (``Game.metrics()``, e.g. Kiwara's
Okapi rates and territory table), which read the games' ``stats``. Definitions (formula and why a
designer cares) are in docs/lab/metrics.md; each function below states its formula.
Seats: 0 = first player (for Kiwara, who opens with the totem), 1 = second.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from ..core.game import Game, Metric
from .matches import FIRST, GameResult, resolve_game
from ..core.stats import Proportion, Summary, proportion, summarise

# Weights of the combined score (docs/lab/metrics.md). Balance dominates: an unfair setup is
# useless however exciting; tension and skill separate the fair ones.
SCORE_WEIGHTS = {"balance": 0.5, "tension": 0.2, "lead_changes": 0.1, "skill": 0.2}
LEAD_CHANGE_RATE_FOR_FULL_MARKS = 0.5   # the leader switching every other move

# The ranges of per-game values whose mean's interval is clipped to them (an absolute margin's
# interval does not reach below 0, a share's above 1).
NON_NEGATIVE, UNIT = (0.0, math.inf), (0.0, 1.0)


def first_player_value(game: GameResult) -> float:
    """The first player's result: 1 win, ½ draw, 0 loss. Draws count as half a win in every
    rate of the lab."""
    return 0.5 if game.winner is None else float(game.winner == FIRST)


def agent_a_value(game: GameResult) -> float:
    """Agent A's result, whatever its seat: 1 win, ½ draw, 0 loss."""
    return 0.5 if game.winner is None else float(game.winner == game.a_seat)


@dataclass(frozen=True)
class SeatRates:
    """Agent A's win rate in each seat, and over seat-swapped pairs (games 2j and 2j + 1 share
    their seed and swap the seats): the mean of the pairs' (A opening + A second) / 2, with a t
    interval over the pairs, which the seat effect no longer widens."""

    opening: Proportion
    second: Proportion
    paired: Summary

    def to_json(self) -> dict:
        return {"opening": self.opening.to_json(), "second": self.second.to_json(),
                "paired": self.paired.to_json()}


def seat_rates(games: Sequence[GameResult]) -> SeatRates:
    opening = [agent_a_value(g) for g in games if g.a_seat == FIRST]
    second = [agent_a_value(g) for g in games if g.a_seat != FIRST]
    by_index = {g.index: agent_a_value(g) for g in games}
    pairs = [(v + by_index[i + 1]) / 2 for i, v in sorted(by_index.items())
             if i % 2 == 0 and i + 1 in by_index]
    return SeatRates(proportion(math.fsum(opening), len(opening)),
                     proportion(math.fsum(second), len(second)), summarise(pairs, (0.0, 1.0)))


@dataclass(frozen=True)
class Metrics:
    """Metrics of one (setup, variant, pairing). Proportions carry 95 % Wilson intervals;
    ``game_metrics`` are the game's own, with their values, in its registry's order."""

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
    agent_a_win: Proportion           # (A wins + draws / 2) / games, seats alternated
    agent_a_seats: SeatRates          # the same by seat, and over seat-swapped pairs
    skill_gap: Proportion | None      # stronger agent's win rate against the weaker one
    score: float
    game_metrics: tuple[tuple[Metric, Any], ...] = ()

    def game_metric(self, name: str) -> Any:
        """The value of the game's own metric ``name``."""
        for metric, value in self.game_metrics:
            if metric.name == name:
                return value
        raise KeyError(name)

    def value(self, name: str) -> float | None:
        """A metric as one number (for ``rank --by`` and the report's plots)."""
        getter = NEUTRAL_VALUES.get(name)
        if getter is not None:
            return getter(self)
        for metric, value in self.game_metrics:
            if name in metric.rank:
                return metric.rank[name](value)
        raise KeyError(name)

    def values(self) -> dict[str, float | None]:
        """Every single-number metric, in :func:`metric_names` order."""
        return {name: self.value(name) for name in
                _ranked_names([metric for metric, _ in self.game_metrics])}

    def to_json(self) -> dict:
        rows = {m.name: v.to_json() for m, v in self.game_metrics if not m.table}
        tables = {m.name: v.to_json() for m, v in self.game_metrics if m.table}
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
            **rows,
            "agent_a_by_seat": self.agent_a_seats.to_json(),
            "agent_a_win_rate": self.agent_a_win.to_json(),
            **tables,
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


def combined_score(balance: float, decisiveness: float | None, lead_change_rate: float | None,
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


def compute_metrics(games: Sequence[GameResult], setup: Any = None,
                    skill_games: Sequence[GameResult] = (), game: Game | None = None) -> Metrics:
    """Metrics of ``games`` (one pairing, seats alternated) played from ``setup``, with the
    game's own (default: the default game's). ``skill_games`` are games of a stronger agent A
    against a weaker agent B from the same setup (for the skill gap)."""
    n = len(games)
    first_wins = sum(g.winner == FIRST for g in games)
    draws = sum(g.winner is None for g in games)
    first_rate = proportion(first_wins + draws / 2, n)
    a_wins = sum(g.winner is not None and g.winner == g.a_seat for g in games)
    decisive = [g.decisiveness for g in games if g.decisiveness is not None]
    skill = None
    if skill_games:
        strong = sum(g.winner is not None and g.winner == g.a_seat for g in skill_games)
        skill_draws = sum(g.winner is None for g in skill_games)
        skill = proportion(strong + skill_draws / 2, len(skill_games))
    balance = balance_interval(first_rate)
    decisiveness = summarise(decisive, UNIT)
    lead_change_rate = summarise([g.lead_changes / (g.plies - 1) if g.plies > 1 else 0.0
                                  for g in games], UNIT)
    return Metrics(
        games=n,
        first_player_win=first_rate,
        balance=balance,
        draw_rate=proportion(draws, n),
        margin=summarise([g.margin for g in games]),
        abs_margin=summarise([abs(g.margin) for g in games], NON_NEGATIVE),
        length=summarise([g.plies for g in games], NON_NEGATIVE),
        branching=summarise([g.branching for g in games], NON_NEGATIVE),
        decision_moves=summarise([g.decisions / g.plies if g.plies else 0.0 for g in games],
                                 UNIT),
        lead_changes=summarise([g.lead_changes for g in games], NON_NEGATIVE),
        lead_change_rate=lead_change_rate,
        decisiveness=decisiveness,
        agent_a_win=proportion(a_wins + draws / 2, n),
        agent_a_seats=seat_rates(games),
        skill_gap=skill,
        score=combined_score(balance[0], decisiveness.mean, lead_change_rate.mean,
                           skill.value if skill else None),
        game_metrics=tuple((metric, metric.compute(games, setup))
                           for metric in resolve_game(game).metrics()),
    )


# The metrics every game has, as single numbers: rank --by and the store's summaries. A game's
# own follow (its rows' numbers after decisiveness, its tables' after the skill gap).
NEUTRAL_VALUES: dict[str, Callable[[Metrics], float | None]] = {
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
    "skill_gap": lambda m: m.skill_gap.value if m.skill_gap else None,
}


def _ranked_names(game_metrics: Sequence[Metric]) -> tuple[str, ...]:
    neutral = list(NEUTRAL_VALUES)
    rows = [name for m in game_metrics if not m.table for name in m.rank]
    tables = [name for m in game_metrics if m.table for name in m.rank]
    return tuple(neutral[:-1] + rows + neutral[-1:] + tables)


def metric_names(game: Game | None = None) -> tuple[str, ...]:
    """The metrics ``rank --by`` accepts for ``game`` (default: the default game), in order."""
    return _ranked_names(resolve_game(game).metrics())


def all_metric_names() -> tuple[str, ...]:
    """The metrics of every registered game, each once (the default game's first): what
    ``rank --by`` accepts."""
    from ..core.game import DEFAULT_GAME, game_names, get_game
    games = sorted(game_names(), key=lambda name: name != DEFAULT_GAME)
    return tuple(dict.fromkeys(_ranked_names([m for g in games for m in get_game(g).metrics()])))
