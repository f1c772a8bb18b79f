"""The lab's statistical choices are written down with their references: docs/lab/metrics.md
exists, the README and the guide's play-test page link it, and it names every method the code
uses with its source."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "lab" / "metrics.md"
PLAYTESTS = ROOT / "docs" / "lab" / "playtests.md"


def test_the_metrics_page_exists_and_the_readme_and_the_lab_link_it():
    assert PAGE.is_file()
    assert "docs/lab/metrics.md" in re.findall(r"\]\((docs/[a-z/]+\.md)\)",
                                                (ROOT / "README.md").read_text("utf-8"))
    assert "](metrics.md)" in PLAYTESTS.read_text("utf-8")


def test_the_page_links_back_to_the_play_tests_page():
    assert "](playtests.md)" in PAGE.read_text("utf-8")


@pytest.mark.parametrize("reference", [
    "Wilson 1927", "Cochran 1954", "DerSimonian & Laird (1986", "Viechtbauer 2007", "Holm 1979",
    "MacKinnon & White 1985", "Davidson & Flachaire 2008", "Waudby-Smith & Ramdas 2023",
    "McNemar 1947", "Freedman & Diaconis 1981"])
def test_each_method_is_cited(reference):
    text = " ".join(PAGE.read_text("utf-8").split())
    assert reference in text


@pytest.mark.parametrize("path", ["kiwara_designer/core/stats.py", "kiwara_designer/lab/ties.py",
                                  "kiwara_designer/lab/homogeneity.py",
                                  "kiwara_designer/lab/racing.py",
                                  "kiwara_designer/games/kiwara/explain.py"])
def test_the_modules_it_describes_exist(path):
    name = path.split("kiwara_designer/")[1]
    assert name in PAGE.read_text("utf-8") or name.split("/", 1)[1] in PAGE.read_text("utf-8")
    assert (ROOT / path).is_file()
