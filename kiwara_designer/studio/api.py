"""The studio's library API: plain functions and one :class:`Studio` object over the library,
returning JSON-ready dicts. The web server (:mod:`.server`) is a thin shell over this module; a
notebook or a test can call it directly.

The studio's parts, by concern: :mod:`.requests` (checking what a request carries),
:mod:`.boards` (the Draw view), :mod:`.prints` (the Print view's files), :mod:`.sessions` (games
against an agent, through each game's studio adapter) and, here, the catalogue and the quick
play-test. Everything a request may carry is checked, with a :class:`StudioError` that says in
words what is wrong. Nothing here reads or writes a file: layouts, variants and records come as
text or built-in names, never as paths.
"""
from __future__ import annotations

from typing import Any

from ..games.kiwara import KIWARA
from ..games.kiwara.printing.screen import name_tint
from ..games.kiwara.validation import RULESETS
from .boards import (TERRITORY_KEYS, board_from_rows, builtin_layout, check_board,
                     parse_mix, random_board, read_layout_text, size_mixes)
from .jobs import Job
from .prints import PRINT_FORMATS, PrintFile, kiwara_variant, print_file
from .requests import MAX_TEXT, StudioError, need_int, seed_or_new
from .sessions import (MCTS_MAX_ITERATIONS, GameSessions, adapters, agent_choices,
                       agent_spec, budgeted_kinds)

__all__ = ["MAX_TEXT", "PRINT_FORMATS", "PrintFile", "Studio", "StudioError", "board_from_rows",
           "builtin_layout", "catalogue", "check_board", "parse_mix", "print_file",
           "random_board", "read_layout_text", "size_mixes"]

PLAYTEST_MAX_GAMES = 2000
PLAYTEST_MAX_WORK = 100_000    # games × MCTS iterations a quick play-test may ask for


def catalogue() -> dict:
    """What the page offers: built-in layouts, rulesets, mixes, palette and papers for the
    board views; each game's title, variants and agents (those that take a strength:
    ``budgeted``); the limits."""
    from ..games.kiwara.printing.board import TINTS
    from ..games.kiwara.printing.kit import PLAYERS
    from ..games.kiwara.formats import builtin_names
    return {
        "layouts": {name: list(builtin_layout(name).rows) for name in builtin_names()},
        "rules": list(RULESETS),
        "mixes": size_mixes(),
        "games": {name: {"title": found.title, "variants": found.variants.builtin_names(),
                         "agents": agent_choices(found.game),
                         "budgeted": budgeted_kinds(found.game)}
                  for name, found in adapters().items()},
        "palette": {name: name_tint(name) for name in TERRITORY_KEYS},
        "player_colours": [colours.fill for colours in PLAYERS],
        "tints": list(TINTS),
        "papers": ["a4", "letter"],
        "limits": {"playtest_games": PLAYTEST_MAX_GAMES, "playtest_work": PLAYTEST_MAX_WORK,
                   "mcts_iterations": MCTS_MAX_ITERATIONS},
    }


class Studio(GameSessions):
    """Open games, quick play-tests and their background jobs, of one studio (the server holds
    one; tests make their own). ``workers`` is the play-test's process count (None: one per
    core)."""

    def __init__(self, workers: int | None = None) -> None:
        super().__init__()
        self.workers = workers

    # -- play-test -------------------------------------------------------------------------------
    def start_playtest(self, rows: Any, agent: Any = "greedy", iterations: Any = None,
                       opponent: Any = None, games: Any = 200, seed: Any = None,
                       variant: Any = "classic") -> Job:
        """A quick play-test of the board in the background: ``games`` seeded games of
        ``agent`` against ``opponent`` (default: itself), seats alternating, on the server's
        cores; the job's result is :func:`playtest_summary`. Refused beyond the limits."""
        from ..lab import Pairing, compute_metrics, play_games
        layout = board_from_rows(rows)
        rules = kiwara_variant(variant)
        first = agent_spec(KIWARA, agent, iterations)
        second = first if opponent in (None, "") else agent_spec(KIWARA, opponent, iterations)
        n = need_int(games, "games", 2, PLAYTEST_MAX_GAMES)
        work_per_move = max(int(s.split(":")[1]) if ":" in s else 1 for s in (first, second))
        if work_per_move > 1 and n * work_per_move > PLAYTEST_MAX_WORK:
            raise StudioError(f"{n} games with {first} against {second} is too much for a quick "
                              f"play-test (games × iterations at most {PLAYTEST_MAX_WORK:,}); "
                              f"use `kiwara playtest` for long runs")
        seed = seed_or_new(seed)
        pairing = Pairing(first, second)

        def work(job: Job) -> dict:
            job.progress(0, n)
            results = play_games(layout, rules, pairing, n, seed, self.workers,
                                 progress=job.progress)
            return playtest_summary(compute_metrics(results, layout), pairing, seed)

        return self.jobs.start("playtest", work)

    def job(self, job_id: Any) -> Job:
        return self.jobs.get(job_id)


def playtest_summary(metrics, pairing, seed: int) -> dict:
    """What the Test view shows: first-player win rate with its interval, margin,
    decisiveness, length and the lab's layout score."""
    def proportion(p) -> dict:
        return {"value": p.value, "low": p.low, "high": p.high}

    def summary(s) -> dict:
        return {"mean": s.mean, "low": s.low, "high": s.high}

    return {"games": metrics.games, "agents": [pairing.a, pairing.b], "seed": seed,
            "first_player_win": proportion(metrics.first_player_win),
            "draws": proportion(metrics.draw_rate),
            "margin": summary(metrics.margin), "abs_margin": summary(metrics.abs_margin),
            "decisiveness": summary(metrics.decisiveness), "length": summary(metrics.length),
            "lead_changes": summary(metrics.lead_changes), "score": metrics.score}
