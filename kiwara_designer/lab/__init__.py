"""The play-test lab: seeded self-play matches, balance metrics with honest intervals, a
resumable SQLite results store, sweeps over many layouts (local processes or Dask) and an HTML
report. A library first; ``kiwara playtest/compare/sweep/rank/report`` are thin shells over it."""
from .compare import Comparison, compare_games, compare_variants
from .matches import (DEFAULT_AGENTS, DEFAULT_SKILL, Batch, GameResult, Pairing, PlaytestError,
                      game_seed, make_game_record, play_game, play_match, play_to_precision,
                      replay_game)
from .metrics import Metrics, compute_metrics, layout_score, metric_names
from .report import export_layouts, render_report
from ..core.stats import mcnemar_exact, paired_t_test, two_proportion_z_test, wilson_interval
from .store import Store, StoreError, open_store
from .sweep import SweepSummary, choose_layouts, run_sweep

__all__ = ["DEFAULT_AGENTS", "DEFAULT_SKILL", "Batch", "Comparison", "GameResult",
           "Metrics", "Pairing", "PlaytestError", "Store", "StoreError",
           "SweepSummary", "choose_layouts", "compare_games", "compare_variants", "compute_metrics",
           "export_layouts", "game_seed", "layout_score", "make_game_record", "mcnemar_exact",
           "metric_names",
           "open_store", "paired_t_test", "play_game", "play_match", "play_to_precision",
           "render_report", "replay_game", "run_sweep", "two_proportion_z_test",
           "wilson_interval"]
