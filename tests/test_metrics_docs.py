"""The lab's statistical choices are written down with their references (issue 24 item 5):
docs/metrics.md exists, the README's Play-test lab section links it, and it names every method
the code uses with its source."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "metrics.md"


def _lab_section() -> str:
    readme = (ROOT / "README.md").read_text("utf-8")
    start = readme.index("\n## Play-test lab")
    return readme[start:readme.index("\n## ", start + 1)]


def test_the_metrics_page_exists_and_the_lab_section_links_it():
    assert PAGE.is_file()
    assert "docs/metrics.md" in re.findall(r"\]\((docs/[a-z/]+\.md)\)", _lab_section())


def test_the_page_links_back_to_a_readme_section_that_exists():
    text = PAGE.read_text("utf-8")
    assert "](../README.md#play-test-lab)" in text
    assert "\n## Play-test lab" in (ROOT / "README.md").read_text("utf-8")


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
