"""What many test files share: the `run` fixture, which runs ``kiwara ARGS`` in this process
through click's CliRunner, and the ``slow`` marker (``pytest -m "not slow"`` is the fast subset;
`make test` runs everything)."""
from __future__ import annotations

import os

import pytest
from click.testing import CliRunner, Result

from kiwara_designer.cli import main


def run_kiwara(*args, input: str | bytes | None = None) -> Result:
    """``kiwara ARGS`` (each turned into a string, so paths can be given as they are) with
    ``input`` on stdin: a click Result with .exit_code, .stdout, .stderr and .output (both)."""
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


@pytest.fixture
def run():
    return run_kiwara


def pytest_configure(config) -> None:
    config.addinivalue_line("markers", "slow: takes seconds (deselect with -m 'not slow')")
    # CI sets KIWARA_REQUIRE_CORE=1: a clean clone must build the compiled core, so its tests
    # may not be skipped there for want of it.
    if os.environ.get("KIWARA_REQUIRE_CORE") == "1":
        from kiwara_designer.games.kiwara import compiled
        if compiled._engine is None:
            raise pytest.UsageError("KIWARA_REQUIRE_CORE=1 but the compiled core is not built")
