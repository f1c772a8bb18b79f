"""Every golden command line prints, exits and writes byte for byte what it did before the CLI
split (see golden_cases.py; regen.py retakes the outputs after a deliberate change)."""
from __future__ import annotations

import pytest

from golden_cases import SESSIONS
from golden_harness import expected, run_session


@pytest.mark.parametrize("session", SESSIONS, ids=lambda s: s.name)
def test_commands_print_exactly_what_they_did(session, tmp_path):
    differences = []
    for step, outputs in run_session(session, tmp_path):
        wanted = expected(session, step)
        assert wanted, f"no golden outputs for {session.name}/{step.name}: run regen.py"
        for name in sorted(set(wanted) | set(outputs)):
            if wanted.get(name) != outputs.get(name):
                differences.append((step.name, name, wanted.get(name), outputs.get(name)))
    for step_name, name, want, got in differences[:1]:   # the first in full, for pytest's diff
        assert (got or b"<absent>").decode("utf-8", "replace") == \
            (want or b"<absent>").decode("utf-8", "replace"), f"{step_name}/{name}"
    assert not differences, [f"{s}/{n}" for s, n, _, _ in differences]
