"""One play-test of a setup and variant, as ``kiwara playtest`` and ``kiwara awimbawe playtest``
run it: the main pairing's games (a fixed number, or until the first player's win rate is known
to a precision), the skill pairing's games, and their metrics."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

from ..core.game import Game
from .matches import GameResult, Pairing, play_match, play_to_precision
from .metrics import Metrics, compute_metrics


@dataclass(frozen=True)
class Playtest:
    games: Sequence[GameResult]
    skill_games: Sequence[GameResult]
    metrics: Metrics


def run_playtest(setup: Any, variant: Any, pairing: Pairing, games: int, seed: int = 0,
                 workers: int | None = None, game: Game | None = None,
                 skill: Pairing | None = None, skill_games: int = 0,
                 precision: float | None = None, keep_moves: bool = False,
                 scheduler: Any = None,
                 progress: Callable[[int, int], None] | None = None) -> Playtest:
    """Play ``games`` games of ``pairing`` (with ``precision``: until the first player's win
    rate is known to ± it, ``games`` being the first round) and ``skill_games`` of ``skill``
    from ``setup``, on ``workers`` processes or a Dask ``scheduler``; their metrics.
    ``keep_moves`` keeps every main game's moves (for records)."""
    if precision:
        results = play_to_precision(setup, variant, pairing, precision, seed, workers, game,
                                    first_round=games, progress=progress, scheduler=scheduler)
        if keep_moves:    # replayed with their moves only when asked: records are rarely wanted
            results = play_match(setup, variant, pairing, len(results), seed, workers, game,
                                 keep_moves=True, scheduler=scheduler)
    else:
        results = play_match(setup, variant, pairing, games, seed, workers, game,
                             keep_moves=keep_moves, progress=progress, scheduler=scheduler)
    skill_results = (play_match(setup, variant, skill, skill_games, seed, workers, game,
                                scheduler=scheduler) if skill and skill_games else [])
    return Playtest(results, skill_results, compute_metrics(results, setup, skill_results, game))
