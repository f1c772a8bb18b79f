"""The guide (docs/, built by MkDocs) and the README around it: the site builds with
`mkdocs build --strict` (no broken link, no page outside the nav), the command reference is the
live --help, and the README stays a short front page whose links all lead somewhere."""
from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"


def test_the_command_reference_is_the_live_help():
    result = subprocess.run([sys.executable, str(ROOT / "tools" / "docs_commands.py"), "--check"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("mkdocs") is None
                    or importlib.util.find_spec("material") is None,
                    reason="mkdocs and mkdocs-material are not installed (the `docs` extra: "
                           "pip install -e '.[docs]'; `make test` installs it)")
def test_the_site_builds_strictly(tmp_path):
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}        # no banner about mkdocs' future
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir",
                             str(tmp_path / "site")], cwd=ROOT, capture_output=True, text=True,
                            env=env)
    assert result.returncode == 0, result.stderr[-4000:]
    assert (tmp_path / "site" / "reference" / "commands" / "index.html").is_file()


def test_the_readme_is_short():
    assert len(README.read_text("utf-8").splitlines()) <= 300


def test_every_link_of_the_readme_leads_somewhere():
    text = README.read_text("utf-8")
    targets = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text)
    local = [t for t in targets if not t.startswith(("http://", "https://", "mailto:"))]
    assert local, "the README links no page of the guide"
    assert [t for t in local if not (ROOT / t).exists()] == []


def test_the_readme_reaches_every_command_through_the_reference():
    text = README.read_text("utf-8")
    assert "docs/reference/commands.md" in text
    reference = (ROOT / "docs" / "reference" / "commands.md").read_text("utf-8")
    headings = {line.split("`")[1].replace(" ", "-") for line in reference.splitlines()
                if line.startswith("#") and "`kiwara" in line}
    anchors = re.findall(r"docs/reference/commands\.md#([a-z-]+)", text)
    assert anchors and set(anchors) <= headings
    for command in ("race", "explain", "cards", "sweep", "ladder", "studio", "awimbawe"):
        assert f"`kiwara {command}" in text, command
        assert f"## `kiwara {command}`" in reference, command


def test_every_page_is_in_the_nav():
    nav = (ROOT / "mkdocs.yml").read_text("utf-8")
    pages = {p.relative_to(ROOT / "docs").as_posix() for p in (ROOT / "docs").rglob("*.md")
             if "snippets" not in p.parts}
    assert {p for p in pages if p not in nav} == set()


def _docs_figures():
    spec = importlib.util.spec_from_file_location("docs_figures", ROOT / "tools" / "docs_figures.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("docs_figures", module)      # its dataclasses look themselves up there
    spec.loader.exec_module(module)
    return module


def test_the_pages_show_their_long_figures_as_taken():
    # a page shows a figure's text itself (an --8<-- include reads as one bare line on the
    # repository); tools/docs_figures.py copies it from docs/snippets, and here the copies agree
    figures = _docs_figures()
    shown = set()
    for page in figures.pages():
        for block in figures.figure_blocks(page.read_text("utf-8")):
            snippet = figures.SNIPPETS / f"{block['name']}.txt"
            assert snippet.is_file(), f"{page.name}: no snippet {snippet.name}"
            assert block["text"] == snippet.read_text("utf-8"), \
                f"{page.name}: figure {block['name']} is stale: run tools/docs_figures.py --pages"
            shown.add(block["name"])
    assert {"skill-study", "kiwara-ladder", "sweep"} <= shown
