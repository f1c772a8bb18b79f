"""Progress bars of long commands when stderr is a terminal. The CLI split (issue 10) dropped
progress_bar's return value, so every command that draws one (layouts list, playtest, sweep,
awimbawe playtest) ended in a traceback at a terminal, and only there: tests run on pipes."""
from __future__ import annotations

import io
import os
import subprocess
import sys

import pytest

from kiwara_designer.commands import progress_bar


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_draws_on_a_terminal(monkeypatch):
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    update, close = progress_bar("layouts")
    update(4, 10)
    update(10, 10)
    close()
    assert "layouts" in terminal.getvalue() and "10/10" in terminal.getvalue()


def test_progress_bar_shows_a_note_on_a_terminal(monkeypatch):
    # a filtered `layouts list` counts layouts scanned and notes how many were found
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    update, close = progress_bar("layouts scanned")
    update(5, 10, "2 found")
    update(10, 10, "3 found")
    close()
    assert "10/10" in terminal.getvalue() and "3 found" in terminal.getvalue()


def test_progress_bar_is_silent_off_a_terminal(monkeypatch):
    pipe = io.StringIO()
    monkeypatch.setattr(sys, "stderr", pipe)
    update, close = progress_bar("layouts")
    update(1, 2)
    close()
    assert pipe.getvalue() == ""


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_layouts_list_with_stderr_on_a_terminal():
    leader, follower = os.openpty()
    try:
        done = subprocess.run([sys.executable, "-m", "kiwara_designer.cli", "layouts", "list",
                               "--width", "3", "--height", "2", "-k", "2", "--sizes", "3",
                               "--limit", "2", "-j", "1"],
                              stdout=subprocess.PIPE, stderr=follower, stdin=subprocess.DEVNULL,
                              timeout=300, text=True)
    finally:
        os.close(follower)
        os.close(leader)
    assert done.returncode == 0
    assert len(done.stdout.split("\n\n")) == 2
