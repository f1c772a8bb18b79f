"""One play-test of a setup and variant, as ``kiwara playtest`` and ``kiwara awimbawe playtest``
run it: the main pairing's games (a fixed number, or until the first player's win rate is known
to a precision), the skill pairing's games, and their metrics."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

from ..core.game import Game
from .matches import GameResult, PlaySettings, play_games, play_to_precision, resolve_game
from .metrics import Metrics, compute_metrics


@dataclass(frozen=True)
class Playtest:
    games: Sequence[GameResult]
    skill_games: Sequence[GameResult]
    metrics: Metrics


def run_playtest(setup: Any, variant: Any, settings: PlaySettings, game: Game | None = None,
                 precision: float | None = None, keep_moves: bool = False,
                 progress: Callable[[int, int], None] | None = None) -> Playtest:
    """Play ``settings.games`` games of its pairing (with ``precision``: until the first
    player's win rate is known to ± it, ``games`` being the first round) and its skill games
    from ``setup``, where ``settings`` says; their metrics. ``keep_moves`` keeps every main
    game's moves (for records)."""
    game = resolve_game(game)
    s = settings.for_game(game)
    where = dict(workers=s.workers, game=game, scheduler=s.scheduler)
    if precision:
        results = play_to_precision(setup, variant, s.pairing, precision, s.seed,
                                    first_round=s.games, progress=progress, **where)
        if keep_moves:    # replayed with their moves only when asked: records are rarely wanted
            results = play_games(setup, variant, s.pairing, len(results), s.seed,
                                 keep_moves=True, **where)
    else:
        results = play_games(setup, variant, s.pairing, s.games, s.seed, keep_moves=keep_moves,
                             progress=progress, **where)
    skill_results = (play_games(setup, variant, s.skill, s.skill_jobs, s.seed, **where)
                     if s.skill_jobs else [])
    return Playtest(results, skill_results, compute_metrics(results, setup, skill_results, game))
