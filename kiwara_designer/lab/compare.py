"""Compare two rules variants (or any two settings) from the same setup and the same seeds.

Game i of both runs uses the same seed and seats, so the runs are paired: the first-player win
rates (win 1, draw ½, loss 0) are compared by the per-game differences, with a t interval of their
mean and an exact sign test on the games whose result differs (McNemar's test, draws as half a
win; the two-proportion z test, which ignores the pairing, is given alongside for reference), and
score margins with a paired t test on the per-game differences.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from ..core.game import Game
from .matches import GameResult, Pairing, play_games
from .metrics import Metrics, compute_metrics, first_player_value
from ..core.stats import (Summary, TestResult, bounded_summary, paired_t_test, sign_test,
                          two_proportion_z_test)

SIGNIFICANCE = 0.05


@dataclass(frozen=True)
class Comparison:
    names: tuple[str, str]
    metrics: tuple[Metrics, Metrics]
    win_rate_difference: float          # second − first variant, first-player win rate
    win_rate_paired: Summary            # mean per-game difference with its t interval
    win_rate_test: TestResult           # exact sign test (McNemar), paired by seed
    win_rate_unpaired: TestResult       # two-proportion z, for reference
    margin_difference: float            # mean score margin, second − first
    margin_test: TestResult

    @property
    def significant(self) -> bool:
        p = self.win_rate_test.p_value
        return p is not None and p < SIGNIFICANCE

    def to_json(self) -> dict:
        return {"variants": list(self.names),
                "metrics": {n: m.to_json() for n, m in zip(self.names, self.metrics)},
                "first_player_win_rate_difference": self.win_rate_difference,
                "first_player_win_rate_paired_difference": self.win_rate_paired.to_json(),
                "first_player_win_rate_test": self.win_rate_test.to_json(),
                "first_player_win_rate_unpaired_test": self.win_rate_unpaired.to_json(),
                "score_margin_difference": self.margin_difference,
                "score_margin_test": self.margin_test.to_json(),
                "significant_at": SIGNIFICANCE, "significant": self.significant}


def compare_games(names: tuple[str, str], runs: tuple[Sequence[GameResult], Sequence[GameResult]],
                  setup: Any = None, game: Game | None = None) -> Comparison:
    """Compare two runs of the same game indices (paired by index), from ``setup``."""
    one, two = ({g.index: g for g in run} for run in runs)
    common = sorted(one.keys() & two.keys())
    pairs = [(one[i], two[i]) for i in common]
    values = [(first_player_value(a), first_player_value(b)) for a, b in pairs]
    metrics = tuple(compute_metrics([p[k] for p in pairs], setup, game=game) for k in (0, 1))
    first = tuple(m.first_player_win for m in metrics)
    return Comparison(
        names=names, metrics=metrics,
        win_rate_difference=(first[1].value or 0) - (first[0].value or 0),
        win_rate_paired=bounded_summary([b - a for a, b in values], -1.0, 1.0),
        win_rate_test=sign_test(*zip(*values)) if values else sign_test((), ()),
        win_rate_unpaired=two_proportion_z_test(first[1].successes, first[1].trials,
                                                first[0].successes, first[0].trials),
        margin_difference=(metrics[1].margin.mean or 0) - (metrics[0].margin.mean or 0),
        margin_test=paired_t_test([b.margin - a.margin for a, b in pairs]))


def compare_variants(setup: Any, variants: tuple[Any, Any], names: tuple[str, str],
                     pairing: Pairing | str, games: int, seed: int, workers: int | None = None,
                     game: Game | None = None) -> Comparison:
    runs = tuple(play_games(setup, v, pairing, games, seed, workers, game) for v in variants)
    return compare_games(names, runs, setup, game)
