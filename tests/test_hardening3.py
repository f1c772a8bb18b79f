"""Hardening III (issue 32): the seed of a hidden game, whole-or-nothing writes, Ctrl-C, bounded
inputs. Each test failed before its fix. The compiled core's points are in
test_hardening3_core.py, the store's in test_hardening3_store.py, the studio's in
test_hardening3_studio.py."""
from __future__ import annotations

import json
import os
import resource
import secrets
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from kiwara_designer.cli import main

KIWARA = [sys.executable, "-c", "from kiwara_designer.launch import main; main()"]
DECK_VARIANT = textwrap.dedent("""\
    reinforcement = "deck"
    handicap = [1, 1]
    deck = [{name = "okapi", effect = "points", value = 5}, {name = "drums", effect = "totem"}]
    """)


def run(*args, input=None):
    return CliRunner().invoke(main, [*map(str, args)], input=input)


# -- point 1: no seed before a hidden match ends -----------------------------------------------
def play_through_the_terminal(args, moves: str, cwd: Path) -> tuple[list[str], int]:
    """The lines a person sees playing ``args`` (a game with a ``--record rec.json``) by typing
    ``moves``, and the seed the record keeps."""
    done = subprocess.run(KIWARA + args + ["--record", "rec.json"], input=moves, cwd=cwd,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines(), json.loads((cwd / "rec.json").read_text())["seed"]


@pytest.mark.parametrize("args, moves", [
    (["awimbawe", "play", "--second", "greedy"], "1\n" * 200),              # a whole match
    (["awimbawe", "play", "--second", "random"], "1\n1\nquit\n"),          # stopped early
    (["play", "--second", "greedy", "--variant", "deck.toml"], "1\n" * 60 + "quit\n"),
])
def test_a_person_hears_the_seed_of_a_hidden_game_only_at_its_end(tmp_path, args, moves):
    # the seed of `awimbawe play` was on its first line, and replaying it showed every card
    (tmp_path / "deck.toml").write_text(DECK_VARIANT)
    lines, seed = play_through_the_terminal(args, moves, tmp_path)
    assert "seed said at the end" in lines[0]
    assert lines[-1] == f"seed {seed}"
    assert not any(str(seed) in line for line in lines[:-1])


def test_a_hidden_games_seed_is_drawn_from_63_secret_bits(monkeypatch):
    # it was randrange(10**9): searchable from the ten cards a player sees
    asked = []

    def randbits(bits):
        asked.append(bits)
        return 2 ** 62 + 12345

    monkeypatch.setattr(secrets, "randbits", randbits)
    result = run("awimbawe", "play", "--second", "greedy", input="quit\n")
    assert asked == [63] and result.output.splitlines()[-1] == f"seed {2 ** 62 + 12345}"


def test_a_seed_said_at_once_where_it_hides_nothing():
    # open Kiwara, two agents watched, or a seed the person gave: said on the first line
    for args in (["play", "--second", "greedy"], ["awimbawe", "play", "--first", "greedy"],
                 ["awimbawe", "play", "--second", "greedy", "--seed", 5]):
        first = run(*args, input="quit\n").output.splitlines()[0]
        assert first.split(", seed ")[1].isdigit(), first


# -- point 6: a failed write keeps the file it would replace ----------------------------------
def fill_the_disk_at(limit: int):
    """A child process whose files cannot grow past ``limit`` bytes (EFBIG, as a full disk's
    ENOSPC)."""
    def limit_files():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return limit_files


@pytest.mark.parametrize("args, name", [
    (["export", "classic", "--kit", "-o"], "board.pdf"),
    (["export", "classic", "-o"], "board.png"),
    (["awimbawe", "cards", "-o"], "cards.pdf"),
    (["play", "--first", "greedy", "--second", "greedy", "--seed", "1", "--record"], "g.json"),
])
def test_a_failed_write_keeps_the_file_it_would_replace(tmp_path, args, name):
    # a full disk left a truncated PDF (record, PNG, cards) where the good one was
    target = tmp_path / name
    good = b"the good file\n" * 10
    target.write_bytes(good)
    done = subprocess.run(KIWARA + args + [name], cwd=tmp_path, capture_output=True, text=True,
                          preexec_fn=fill_the_disk_at(100), timeout=120)
    assert done.returncode == 2
    assert done.stderr.startswith(f"kiwara: error: {name}: cannot write") and \
        done.stderr.count("\n") == 1, done.stderr
    assert target.read_bytes() == good
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]      # no temporary file left


def test_a_write_keeps_the_mode_of_the_file_it_replaces_and_writes_through_links(tmp_path):
    from kiwara_designer.core.io import write_text
    kept = tmp_path / "kept.txt"
    kept.write_text("old")
    kept.chmod(0o640)
    link = tmp_path / "link.txt"
    link.symlink_to(kept)
    write_text(link, "new", "a test")
    assert kept.read_text() == "new" and link.is_symlink() and kept.stat().st_mode & 0o777 == 0o640
    write_text(os.devnull, "into the void", "a test")     # not a regular file: written directly
    assert Path(os.devnull).exists() and not Path(os.devnull).is_file()


# -- point 7: Ctrl-C everywhere: exit 130, one line, no blank line before it ------------------
def children_of(pid: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.add(int(entry.name))
    return found


def interrupt(process: subprocess.Popen, timeout: float = 10) -> float:
    """Send Ctrl-C's signal; seconds until ``process`` ended."""
    process.send_signal(signal.SIGINT)
    start = time.monotonic()
    process.wait(timeout=timeout)
    return time.monotonic() - start


def test_ctrl_c_stops_a_parallel_awimbawe_playtest_at_once(tmp_path):
    # -j 2 ran on for 30 s and more: the pool waited for its workers' running batches
    process = subprocess.Popen(KIWARA + ["awimbawe", "playtest", "--agents", "ismcts:300",
                                         "--games", "400", "-j", "2", "--skill-games", "0"],
                               cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    try:
        deadline = time.monotonic() + 60
        while len(children_of(process.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        workers = children_of(process.pid)
        assert len(workers) >= 2, "the workers never started"
        time.sleep(2)                              # they are playing their first batches
        assert interrupt(process) < 5
        assert process.returncode == 130 and process.stderr.read() == "kiwara: interrupted\n"
        time.sleep(0.5)
        assert not [w for w in workers if Path(f"/proc/{w}").exists()
                    and "Z" not in (Path(f"/proc/{w}") / "stat").read_text().split(")")[1][:3]]
    finally:
        process.kill()
        process.communicate()


def test_ctrl_c_at_a_persons_prompt_exits_130(tmp_path):
    # it stopped the game like quit and exited 0
    process = subprocess.Popen(KIWARA + ["play", "--second", "greedy"], cwd=tmp_path,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    try:
        seen = b""
        while not seen.endswith(b"> "):
            seen += os.read(process.stdout.fileno(), 4096)
        assert interrupt(process) < 5
        rest, errors = process.communicate(timeout=5)
        assert process.returncode == 130 and errors == b"kiwara: interrupted\n"
        assert rest == b"\n"                  # the prompt's line ends; nothing else is said
    finally:
        process.kill()


def test_ctrl_c_while_the_commands_load_is_one_line(tmp_path):
    # a KeyboardInterrupt traceback: the commands load before click's handler runs
    starting = textwrap.dedent("""\
        import sys
        class Interrupted:
            def find_spec(self, name, path=None, target=None):
                if name == "kiwara_designer.cli":
                    raise KeyboardInterrupt
        sys.meta_path.insert(0, Interrupted())
        from kiwara_designer.launch import main
        main()
        """)
    done = subprocess.run([sys.executable, "-c", starting], capture_output=True, text=True,
                          timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (130, "", "kiwara: interrupted\n")


# -- points 9 and 10: bounded inputs -----------------------------------------------------------
def test_a_layout_file_over_the_input_limit_is_refused_unread(tmp_path):
    # 10 MB were read whole (300 MB of memory, 95 s) before "holds 299593 layouts"
    import tracemalloc
    big = tmp_path / "big.txt"
    big.write_text("AAABBB\nAAABBB\nCCCDDD\nCCCEEE\nFFFEEE\n\n" * 100_000)      # 3.6 MB
    tracemalloc.start()
    result = run("show", big)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert result.exit_code == 2 and result.output == (
        f"kiwara: error: {big}: larger than 1,000,000 bytes, more than is read whole (kiwara "
        f"validate checks a listing of any size)\n")
    assert peak < 30_000_000


def test_a_file_that_fails_to_read_is_one_line():
    # `kiwara validate /proc/self/mem`: an OSError traceback
    result = run("validate", "/proc/self/mem")
    assert (result.exit_code, result.output) == (
        2, "kiwara: error: /proc/self/mem:1: Input/output error\n")


def test_okapi_points_are_bounded_like_every_points_parameter(tmp_path):
    # 2**63 - 1 was accepted: "41 to 9223372036854775834"
    variant = tmp_path / "okapi.toml"
    variant.write_text(f"okapi_points = {2 ** 63 - 1}\n")
    result = run("play", "--first", "greedy", "--second", "greedy", "--variant", variant)
    assert result.exit_code == 2 and result.output == (
        f"kiwara: error: {variant}: key 'okapi_points': must be between -1000 and 1000, got "
        f"{2 ** 63 - 1}\n")
    variant.write_text("okapi_points = -1000\n")
    assert run("play", "--first", "greedy", "--second", "greedy", "--variant",
               variant).exit_code == 0
