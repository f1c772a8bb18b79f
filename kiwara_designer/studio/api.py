"""The studio's library API: plain functions and one :class:`Studio` object over the library,
returning JSON-ready dicts. The web server (:mod:`.server`) is a thin shell over this module; a
notebook or a test can call it directly.

The studio's parts, by concern: :mod:`.requests` (a request's fields), :mod:`.adapters` (each
game's part, asked by name), :mod:`.sessions` (games against an agent) and, here, the catalogue
and the quick play-test. A game's own views are this module's functions too, by their names
(Kiwara's board tools: ``check_board``, ``random_board``, ``print_file``…). Everything a request
may carry is checked, with a :class:`StudioError` that says in words what is wrong. Nothing here
reads or writes a file: setups, variants and records come as text or built-in names, never as
paths.
"""
from __future__ import annotations

from typing import Any, Callable

from ..core.checks import need_int, seed_or_new
from ..core.game import DEFAULT_GAME
from .adapters import adapter, adapters, catalogue_entries, tool, warm_up
from .jobs import Job
from .requests import StudioError, call_with_fields
from .sessions import (MCTS_MAX_ITERATIONS, GameSessions, agent_choices, agent_spec,
                       budgeted_kinds, built_in_variant)

__all__ = ["Studio", "StudioError", "adapters", "catalogue", "warm_up"]

PLAYTEST_MAX_GAMES = 2000
PLAYTEST_MAX_WORK = 100_000    # games × MCTS iterations a quick play-test may ask for
PLAYTEST_FIELDS = ("agent", "iterations", "opponent", "games", "seed", "variant", "game")


def __getattr__(name: str) -> Callable:
    """A game's own view's function (Kiwara's ``check_board``), asked of the games' parts."""
    return tool(name)


def catalogue() -> dict:
    """What the page offers: what the games' own views offer (Kiwara's built-in boards,
    rulesets, palette…); each game's title, variants and agents (those that take a strength:
    ``budgeted``) and the lab's default pairing (``lab_agents``, the Test view's choice until
    the user makes another); the limits."""
    return {
        **catalogue_entries(),
        "games": {name: {"title": found.title, "variants": found.variants.builtin_names(),
                         "agents": agent_choices(found.game),
                         "budgeted": budgeted_kinds(found.game),
                         "lab_agents": lab_agents(found.game)}
                  for name, found in adapters().items()},
        "limits": {"playtest_games": PLAYTEST_MAX_GAMES, "playtest_work": PLAYTEST_MAX_WORK,
                   "mcts_iterations": MCTS_MAX_ITERATIONS},
    }


def lab_agents(game: Any) -> list[str]:
    """``game``'s default lab pairing, agent A then agent B."""
    from ..lab import lab_pairing
    pairing = lab_pairing(game, None)
    return [pairing.a, pairing.b]


class Studio(GameSessions):
    """Open games, quick play-tests and their background jobs, of one studio (the server holds
    one; tests make their own). ``workers`` is the play-test's process count (None: one per
    core)."""

    def __init__(self, workers: int | None = None) -> None:
        super().__init__()
        self.workers = workers

    # -- play-test -------------------------------------------------------------------------------
    def start_playtest(self, agent: Any = None, iterations: Any = None, opponent: Any = None,
                       games: Any = 200, seed: Any = None, variant: Any = None,
                       game: Any = DEFAULT_GAME, **setup: Any) -> Job:
        """A quick play-test of a setup in the background (the Test view: Kiwara's drawn
        board, whose ``rows`` are its adapter's setup fields): ``games`` seeded games of
        ``agent`` against ``opponent`` (default: itself), seats alternating, on the server's
        cores (no agent: the game's default pairing); the job's result is
        :func:`playtest_summary`. Refused beyond the limits."""
        from ..agents import make_agent
        from ..lab import Pairing, compute_metrics, play_games
        from ..lab.fairness import fairness_of_games
        found = adapter(game)
        game_setup = call_with_fields(found.setup, setup, listed=PLAYTEST_FIELDS)
        rules = built_in_variant(found, variant)
        if agent in (None, ""):
            first, second = lab_agents(found.game)
        else:
            first = agent_spec(found.game, agent, iterations)
            second = first if opponent in (None, "") else agent_spec(found.game, opponent,
                                                                     iterations)
        n = need_int(games, "games", 2, PLAYTEST_MAX_GAMES)
        # The agents' own budgets: `expert` searches 10,000 iterations without writing them.
        work_per_move = max(getattr(make_agent(s, found.game), "iterations", None) or 1
                            for s in (first, second))
        if work_per_move > 1 and n * work_per_move > PLAYTEST_MAX_WORK:
            raise StudioError(f"{n} games with {first} against {second} is too much for a quick "
                              f"play-test (games × iterations at most {PLAYTEST_MAX_WORK:,}); "
                              f"use `kiwara playtest` for long runs")
        seed = seed_or_new(seed)
        pairing = Pairing(first, second)

        def work(job: Job) -> dict:
            job.progress(0, n)
            results = play_games(game_setup, rules, pairing, n, seed, self.workers, game=found.game,
                                 progress=job.progress)
            return playtest_summary(compute_metrics(results, game_setup, game=found.game), pairing,
                                    seed, fairness_of_games(results, pairing))

        return self.jobs.start("playtest", work)

    def job(self, job_id: Any) -> Job:
        return self.jobs.get(job_id)


def playtest_summary(metrics, pairing, seed: int, fairness=None) -> dict:
    """What the Test view shows: first, ``fairness``'s verdict on the same games (a
    :class:`~kiwara_designer.lab.fairness.Fairness`, in `kiwara fair`'s words: the games are
    seat-swapped pairs, and a last unpaired game is left out of it, ``unpaired``); then the
    first-player win rate with its interval, margin, decisiveness, length and the lab's
    score."""
    def proportion(p) -> dict:
        return {"value": p.value, "low": p.low, "high": p.high}

    def summary(s) -> dict:
        return {"mean": s.mean, "low": s.low, "high": s.high}

    return {"games": metrics.games, "agents": [pairing.a, pairing.b], "seed": seed,
            "first_player_win": proportion(metrics.first_player_win),
            "draws": proportion(metrics.draw_rate),
            "margin": summary(metrics.margin), "abs_margin": summary(metrics.abs_margin),
            "decisiveness": summary(metrics.decisiveness), "length": summary(metrics.length),
            "lead_changes": summary(metrics.lead_changes), "score": metrics.score,
            "fairness": None if fairness is None else {
                "verdict": fairness.verdict(), "outcome": fairness.outcome,
                "rate": fairness.rate, "low": fairness.low, "high": fairness.high,
                "games": fairness.games, "precision": fairness.precision,
                "unpaired": metrics.games - fairness.games}}
