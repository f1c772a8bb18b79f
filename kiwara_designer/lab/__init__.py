"""The play-test lab: seeded self-play matches, balance metrics with honest intervals, a
resumable SQLite results store, sweeps over many setups or rules variants (local processes or
Dask), races and an HTML report. It knows no game: what it needs of one it asks the game
(:class:`~kiwara_designer.core.game.Game`). A library first; ``kiwara playtest/compare/sweep/
rank/report`` are thin shells over it."""
from .compare import Comparison, compare_games, compare_variants
from .matches import (DEFAULT_SKILL, Batch, GameResult, Pairing, PlaySettings, PlaytestError,
                      game_seed, lab_pairing, make_game_record, play_game, play_games,
                      play_to_precision, replay_game)
from .metrics import Metrics, combined_score, compute_metrics, metric_names
from .report import render_report
from ..core.stats import mcnemar_exact, paired_t_test, two_proportion_z_test, wilson_interval
from .store import Store, StoreError, open_store
from .sweep import SweepSummary, run_sweep, run_variant_sweep

__all__ = ["DEFAULT_SKILL", "Batch", "Comparison", "GameResult",
           "Metrics", "Pairing", "PlaySettings", "PlaytestError", "Store", "StoreError",
           "SweepSummary", "combined_score", "compare_games", "compare_variants",
           "compute_metrics", "game_seed", "lab_pairing", "make_game_record", "mcnemar_exact",
           "metric_names", "open_store", "paired_t_test", "play_game", "play_games", "play_to_precision",
           "render_report", "replay_game", "run_sweep", "run_variant_sweep",
           "two_proportion_z_test", "wilson_interval"]
