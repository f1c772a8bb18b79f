"""The rules live in the repository (issue 10 item 5): the README and each engine's docstring
point at docs/rules/, and nothing shipped points at a rules file on a team machine."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import kiwara_designer
from kiwara_designer.games import awimbawe, kiwara as engine

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = Path(kiwara_designer.__file__).parent


@pytest.mark.parametrize("module,rules", [(engine, "docs/rules/kiwara.md"),
                                          (awimbawe, "docs/rules/awimbawe.md")])
def test_each_engine_names_its_rules_file_in_the_repository(module, rules):
    assert rules in module.__doc__
    assert (ROOT / rules).is_file()


def test_the_readme_links_both_rules_files():
    links = re.findall(r"\]\((docs/rules/[a-z]+\.md)\)", (ROOT / "README.md").read_text("utf-8"))
    assert {"docs/rules/kiwara.md", "docs/rules/awimbawe.md"} <= set(links)


def test_nothing_shipped_points_at_a_rules_file_outside_the_repository():
    outside = [str(path.relative_to(PACKAGE)) for path in PACKAGE.rglob("*")
               if path.suffix in {".py", ".toml", ".txt", ".json"}
               and "shared/rules" in path.read_text("utf-8")]
    assert outside == []
