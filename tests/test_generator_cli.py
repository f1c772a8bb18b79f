"""`kiwara layouts count/list/sample`: output that `kiwara validate` accepts, exit codes."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from kiwara_designer.games.kiwara.formats import parse_layouts

KIWARA = [sys.executable, "-m", "kiwara_designer.cli"]
SMALL = ["--width", "4", "--height", "4", "--territories", "4", "--sizes", "3,4,5"]


@pytest.mark.slow
def test_list_canonical_pipes_into_validate():
    # a real pipe between two processes, on a small board (the 6 × 5 tables take seconds)
    listing = subprocess.run(KIWARA + ["layouts", "list", "--canonical", "--limit", "200", *SMALL],
                             capture_output=True, text=True, timeout=120)
    assert listing.returncode == 0, listing.stderr
    assert listing.stderr == ""                  # no progress bar when stderr is not a terminal
    checked = subprocess.run(KIWARA + ["validate", "-", *SMALL], input=listing.stdout,
                             capture_output=True, text=True, timeout=120)
    assert checked.returncode == 0, checked.stdout[-2000:]
    assert checked.stdout.count(": valid") == 200


def test_count_small_board_by_mix_json(run):
    result = run("layouts", "count", *SMALL, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    # hand-checkable against the brute force in test_generator: 596 + 1240 + 117
    assert data["total"] == 1953
    assert data["by_mix"] == {"3,3,5,5": 596, "3,4,4,5": 1240, "4,4,4,4": 117}
    text = run("layouts", "count", *SMALL, "--by-mix", "--canonical")
    assert text.exit_code == 0
    assert text.output.splitlines()[-1].startswith("258 symmetry classes")


def test_list_jsonl_and_text_parse_back_and_validate(run):
    for fmt in ("jsonl", "text"):
        result = run("layouts", "list", *SMALL, "--limit", "7", "--start", "3", "--format", fmt)
        assert result.exit_code == 0
        entries = parse_layouts(result.output)
        assert len(entries) == 7 and not any(e.error for e in entries)
        checked = run("validate", "-", "--width", "4", "--height", "4", "--territories", "4",
                      "--sizes", "3,4,5", input=result.output)
        assert checked.exit_code == 0, checked.output


def test_sample_is_reproducible_and_writes_files(run, tmp_path: Path):
    args = ["layouts", "sample", *SMALL, "-n", "3", "--seed", "11", "--mix", "3,3,5,5"]
    first = run(*args, "-o", str(tmp_path))
    assert first.exit_code == 0
    assert first.output == run(*args).output
    files = sorted(tmp_path.glob("sample-*.txt"))
    assert len(files) == 3
    written = "\n".join(f.read_text() for f in files)
    assert [e.layout for e in parse_layouts(written)] == [e.layout for e in parse_layouts(first.output)]


@pytest.mark.parametrize("args,message", [
    (["layouts", "count", "--sizes", "4"], "no 6 sizes"),
    (["layouts", "count", "--territories", "0"], "at least 1"),
    (["layouts", "count", "--width", "0"], "board must be"),
    (["layouts", "list", *SMALL, "--mix", "3,3,3,7"], "not admissible"),
    (["layouts", "sample", *SMALL, "--contains", "/nonexistent/pattern.txt"], "no such file"),
])
def test_impossible_requests_exit_2_with_one_line(run, args, message):
    result = run(*args)
    assert result.exit_code == 2
    assert message in result.output and result.output.count("\n") == 1
