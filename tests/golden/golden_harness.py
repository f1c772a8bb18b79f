"""Runs the golden sessions (golden_cases.py) through click's CliRunner and reads/writes their
expected outputs under tests/golden/expected/SESSION/STEP/: `stdout`, `stderr`, `exit_code` and
`files/…` (what the step wrote)."""
from __future__ import annotations

import os
from pathlib import Path

from click.testing import CliRunner

from golden_cases import Session, mask

EXPECTED = Path(__file__).parent / "expected"


def _written(workdir: Path, names) -> dict[str, bytes]:
    found = {}
    for name in names:
        path = workdir / name
        paths = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
        for p in paths:
            found[p.relative_to(workdir).as_posix()] = (mask(p.read_text("utf-8")).encode("utf-8")
                                                        if p.exists() else None)
    return found


def run_session(session: Session, workdir: Path):
    """Yield (step, outputs) for each step, run in order in ``workdir`` (made empty by the
    caller): outputs maps `stdout`, `stderr`, `exit_code` and `files/NAME` to bytes."""
    from kiwara_designer.cli import main

    for name, text in session.inputs.items():
        (workdir / name).write_text(text, encoding="utf-8")
    # A fixed width, so that --help wraps the same on any terminal.
    runner = CliRunner(env={"COLUMNS": "80"})
    before = Path.cwd()
    os.chdir(workdir)
    try:
        for step in session.steps:
            result = runner.invoke(main, list(step.args), input=step.input)
            outputs = {
                "stdout": mask(result.stdout).encode("utf-8"),
                "stderr": mask(result.stderr).encode("utf-8"),
                "exit_code": f"{result.exit_code}\n".encode(),
            }
            if result.exception is not None and not isinstance(result.exception, SystemExit):
                outputs["exception"] = repr(result.exception).encode()
            for path, data in _written(workdir, step.files).items():
                outputs[f"files/{path}"] = b"<missing>" if data is None else data
            yield step, outputs
    finally:
        os.chdir(before)


def expected(session: Session, step) -> dict[str, bytes]:
    folder = EXPECTED / session.name / step.name
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def save(session: Session, step, outputs: dict[str, bytes]) -> None:
    folder = EXPECTED / session.name / step.name
    for name, data in outputs.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
