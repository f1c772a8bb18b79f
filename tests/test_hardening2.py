"""Hardening II (issue 22): each test failed before its fix."""
from __future__ import annotations

import json
import sys

from click.testing import CliRunner

from kiwara_designer.cli import main
from kiwara_designer.games.kiwara.formats import stream_layouts


def run(*args, input=None):
    return CliRunner().invoke(main, [*map(str, args)], input=input)


def test_validate_json_writes_each_result_as_it_comes(monkeypatch):
    # point 14: --json held every result until the end (6 MB of layouts: 1.17 GB of memory)
    from kiwara_designer.games.kiwara.cli import layouts as command
    entries = list(stream_layouts("classic")) * 3
    written_before = []

    def stream(name):
        for entry in entries:
            written_before.append(sys.stdout.buffer.getvalue().count(b'"valid"'))
            yield entry

    monkeypatch.setattr(command, "stream_layouts", stream)
    result = run("validate", "-", "--json")
    assert written_before == [0, 1, 2]
    whole = json.loads(result.output)
    assert [r["valid"] for r in whole["results"]] == [True] * 3


def test_validate_refuses_empty_sizes():
    # point 22: --sizes '' used the default sizes and called the ruleset "custom"
    result = run("validate", "classic", "--sizes", "")
    assert result.exit_code == 2 and result.output == "kiwara: error: --sizes must not be empty\n"
