"""Racing setups in the lab (layouts of the toy game): every game stored once, a rerun replays the
race from the store, a race killed with SIGKILL resumes to the very same outcome, the Dask path, and
the command line."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from kiwara_designer.cli import main
from kiwara_designer.lab import Pairing, PlaySettings, Store, StoreError, play_games
from kiwara_designer.lab.race_lab import race_setups
from kiwara_designer.lab.racing import RaceSettings

sys.path.insert(0, str(Path(__file__).parent))
from playtest_toy import LAYOUTS, TOY_GAME, ToyVariant  # noqa: E402
from test_playtest_store import children_of, stored_games, wait_gone  # noqa: E402

TESTS = Path(__file__).parent


def toy_race(store: Store, setups, pairing: str = "random", seed: int = 5,
             budget: int | None = None, tolerance: float = 0.3, **where):
    """A race of the toy game's ``setups``: the top 2, a first round of 8 games."""
    return race_setups(store, setups, PlaySettings(pairing, seed=seed, **where),
                       RaceSettings(k=2, tolerance=tolerance, first_round=8, budget=budget),
                       game=TOY_GAME)


def per_layout(store: Store) -> dict[int, int]:
    return {lid: n for (lid, _, _), n in store.game_counts().items()}


def test_race_stores_every_game_once_and_a_rerun_replays_it(tmp_path):
    with Store(tmp_path / "race.sqlite") as store:
        first = toy_race(store, LAYOUTS, workers=1)
        assert first.games_played == first.games_stored == first.result.games
        assert per_layout(store) == {a.arm: a.games for a in first.result.arms}
        assert store.totals()["duplicates"] == 0
        # each layout's games are the seeded games 0, 1, 2, … of a match
        arm = first.result.arms[0]
        exp = store.experiment(first.setups[arm.arm], ToyVariant(),
                               Pairing("random", "random"), TOY_GAME)
        assert store.games(exp) == play_games(first.setups[arm.arm], None, "random",
                                              arm.games, 5, workers=1, game=TOY_GAME)
        again = toy_race(store, LAYOUTS, workers=2)
        assert again.games_played == 0
        assert again.result == first.result
        assert len(store.races()) == 1         # the rerun replaced its record
        assert len(store.ranked()) == len(LAYOUTS)   # rank and report see the raced layouts


def test_budget_stop_and_more_budget_continues_from_the_store(tmp_path):
    with Store(tmp_path / "budget.sqlite") as store:
        short = toy_race(store, LAYOUTS, workers=1, budget=60, tolerance=0.0)
        assert not short.result.separated and short.result.reason == "budget"
        assert store.totals()["games"] == short.result.games <= 60
        longer = toy_race(store, LAYOUTS, workers=1, budget=200, tolerance=0.0)
        assert longer.result.games > short.result.games
        assert longer.games_played < longer.result.games     # the first 60 came from the store


def test_a_race_resumed_with_another_seed_is_refused(tmp_path):
    with Store(tmp_path / "seed.sqlite") as store:
        toy_race(store, LAYOUTS[:3], workers=1, budget=30)
        with pytest.raises(StoreError, match="seed 5; race with that seed"):
            toy_race(store, LAYOUTS[:3], workers=1, seed=6)


RACE_SCRIPT = textwrap.dedent("""
    import sys, json
    sys.path.insert(0, {tests!r})
    from playtest_toy import LAYOUTS, TOY_GAME
    from kiwara_designer.lab import PlaySettings, Store
    from kiwara_designer.lab.race_lab import race_setups
    from kiwara_designer.lab.racing import RaceSettings
    with Store({db!r}) as store:
        race = race_setups(store, LAYOUTS, PlaySettings("slow", seed=5, workers=2),
                           RaceSettings(k=2, tolerance=0.5, first_round=8), game=TOY_GAME)
    print(json.dumps(race.result.to_json()))
""")


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
def test_race_killed_with_sigkill_resumes_to_the_same_outcome(tmp_path):
    db = tmp_path / "kill.sqlite"
    script = RACE_SCRIPT.format(tests=str(TESTS), db=str(db))
    for kill_after in (20, 60):
        proc = subprocess.Popen([sys.executable, "-c", script], start_new_session=True,
                                stdout=subprocess.DEVNULL)
        deadline = time.time() + 60
        while stored_games(db) < kill_after and time.time() < deadline and proc.poll() is None:
            time.sleep(0.02)
        assert proc.poll() is None, "the race finished before it could be killed"
        workers = children_of(proc.pid)    # none if killed between two rounds' pools
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        assert wait_gone(workers, 5.0)
    resumed = subprocess.run([sys.executable, "-c", script], check=True, timeout=120,
                             capture_output=True, text=True).stdout
    clean_db = tmp_path / "clean.sqlite"
    clean = subprocess.run([sys.executable, "-c", RACE_SCRIPT.format(tests=str(TESTS),
                                                                    db=str(clean_db))],
                           check=True, timeout=120, capture_output=True, text=True).stdout
    assert resumed == clean                       # same decisions, same games per layout
    with Store(db) as killed, Store(clean_db) as whole:
        assert killed.integrity_ok() and killed.totals()["duplicates"] == 0
        # nothing lost or repeated: the killed store holds the same games as the clean one
        # (it may hold a few more: batches in flight when killed, beyond where the race stopped)
        kept, full = per_layout(killed), per_layout(whole)
        assert all(kept[i] >= n for i, n in full.items())
        assert sum(kept.values()) - sum(full.values()) <= 2 * 4 * 2


def test_race_on_a_dask_cluster(tmp_path):
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster, \
            Store(tmp_path / "dask.sqlite") as store, Store(tmp_path / "local.sqlite") as local:
        remote = toy_race(store, LAYOUTS[:4], budget=120, scheduler=cluster.scheduler_address)
        here = toy_race(local, LAYOUTS[:4], budget=120, workers=1)
        assert remote.result == here.result


def test_race_command(tmp_path):
    layouts = tmp_path / "three.txt"
    layouts.write_text("ABBCCC\nAABCCD\nEAAFDD\nEAAFFD\nEEEEED\n\n"
                       "ABCCCC\nABBCFF\nAABCCF\nDABBBE\nDDEEEE\n\n"
                       "AAAAAB\nCCCDBB\nCDCDBE\nDDDDBE\nFFFBBE\n")
    db = tmp_path / "race.sqlite"
    args = ["race", "--from", str(layouts), "--db", str(db), "--agents", "random", "--top", "1",
            "--first-round", "4", "-j", "1"]
    out = CliRunner().invoke(main, args + ["--budget", "30", "--tolerance", "0"])
    assert out.exit_code == 1, out.output
    assert "NOT separated: the budget was spent" in out.output
    # three random-play boards: nothing separated after the first round, said first
    assert out.output.startswith("the layouts look indistinguishable so far: after the first "
                                 "round (4 games each)"), out.output
    out = CliRunner().invoke(main, args + ["--tolerance", "1", "--json"])
    assert out.exit_code == 0, out.output
    assert '"reason": "separated"' in out.output
    bad = CliRunner().invoke(main, args + ["--by", "balance", "--ascending"])
    assert bad.exit_code == 2 and "--ascending does not apply" in bad.output
    none = CliRunner().invoke(main, ["race", "--db", str(db)])
    assert none.exit_code == 2 and "--sample N or --from FILE" in none.output


def test_a_race_keeps_one_worker_pool_for_all_its_rounds(tmp_path, monkeypatch):
    # starting processes (and their imports and tables) every round cost seconds a round;
    # the pool is made once and its workers play every round
    from kiwara_designer.core import workers
    made = []

    class CountedPool(workers.ProcessPoolExecutor):
        def __init__(self, *args, **kwargs):
            made.append(self)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(workers, "ProcessPoolExecutor", CountedPool)
    with Store(tmp_path / "pool.sqlite") as store:
        race = toy_race(store, LAYOUTS, workers=2)
    assert race.result.rounds >= 3 and race.games_played > 0
    assert len(made) == 1
    with Store(tmp_path / "one.sqlite") as store:          # one process: no pool at all
        toy_race(store, LAYOUTS, workers=1)
    assert len(made) == 1
