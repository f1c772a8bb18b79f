"""The layout of the code is a contract (pyproject.toml's [tool.importlinter]): the shells on
top, the games, the neutral layers below, which never import a game; the games know nothing of
each other; the rules engines nothing of click, SVG or the prints. A change that breaks it
fails here, with import-linter's report."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_the_import_contract_holds():
    lint = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or \
        shutil.which("lint-imports")
    if lint is None:
        pytest.fail("lint-imports is missing: install the test extra (make test does)")
    result = subprocess.run([lint, "--no-cache"], cwd=ROOT, capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "0 broken" in result.stdout


def test_nothing_of_a_game_lives_outside_its_folder():
    """Top-level modules and packages are the layers named in the contract, and no module of
    the neutral layers is named after a game."""
    package = ROOT / "kiwara_designer"
    top = sorted(p.name for p in package.iterdir()
                 if p.name != "__pycache__" and (p.is_dir() or p.suffix == ".py"))
    assert top == ["__init__.py", "agents", "cli", "commands", "core", "games", "lab",
                   "launch.py", "printing", "studio", "table.py"]
    games = {p.name for p in (package / "games").iterdir() if p.is_dir()} - {"__pycache__"}
    assert games == {"kiwara", "awimbawe"}
    for layer in ("core", "agents", "lab", "printing", "commands", "studio"):
        for module in (package / layer).rglob("*.py"):
            assert not any(g in module.stem for g in games), module


GAME_WORDS = ("layout", "okapi", "territor", "river", "size_mix", "totem", "zebra", "crocodile",
              "hyena", "snake", "awimbawe")


def test_the_neutral_layers_use_no_games_words_in_their_names():
    """Identifiers of core, agents, the lab, printing, the command toolkit, the table and the
    studio name no game's things (a playout is no layout)."""
    import ast
    import re
    words = re.compile("|".join(rf"(?<!p){w}" if w == "layout" else w for w in GAME_WORDS),
                       re.IGNORECASE)
    package = ROOT / "kiwara_designer"
    offending = []
    for layer in ("core", "agents", "lab", "printing", "commands", "table.py", "studio"):
        base = package / layer
        for path in [base] if base.suffix == ".py" else sorted(base.rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names = ([node.name] if isinstance(node, (ast.FunctionDef, ast.ClassDef)) else
                         [node.id] if isinstance(node, ast.Name) else
                         [node.attr] if isinstance(node, ast.Attribute) else
                         [node.arg] if isinstance(node, ast.arg) else [])
                offending += [f"{path.relative_to(ROOT)}: {n}" for n in names if words.search(n)]
    assert not offending, offending
