"""Take the golden outputs again: `.venv/bin/python tests/golden/regen.py [SESSION...]`.

Only after a deliberate change of what `kiwara` prints: the files under expected/ are the proof
that a refactor changed nothing users see, so review `git diff tests/golden/expected` before
committing them. The first set was taken from main before the CLI split (issue 10).
"""
from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from golden_cases import SESSIONS          # noqa: E402
from golden_harness import EXPECTED, run_session, save   # noqa: E402


def main(names: list[str]) -> None:
    for session in SESSIONS:
        if names and session.name not in names:
            continue
        shutil.rmtree(EXPECTED / session.name, ignore_errors=True)
        with tempfile.TemporaryDirectory() as workdir:
            for step, outputs in run_session(session, Path(workdir)):
                save(session, step, outputs)
                print(f"{session.name}/{step.name}: exit {outputs['exit_code'].decode().strip()}")


if __name__ == "__main__":
    main(sys.argv[1:])
