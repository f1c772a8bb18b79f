"""The Draw view's boards: a board from the page's rows, a built-in or pasted one, checked by
the library's validator with what the view shows, and uniformly random boards."""
from __future__ import annotations

import itertools
from typing import Any

from ..core.errors import KiwaraError
from ..games.kiwara.layout import Layout
from ..games.kiwara.printing.screen import screen_board
from ..games.kiwara.studio import layout_from_rows
from ..games.kiwara.validation import RULESETS, validate
from .requests import MAX_TEXT, StudioError, describe, need_choice, need_text, seed_or_new

TERRITORY_KEYS = "ABCDEFGH"    # the page's palette: keys 1-8 / a-h paint these


def board_from_rows(rows: Any) -> Layout:
    """The layout of ``rows`` (``["ABCCCC", …]``: one letter per cell naming its territory)."""
    try:
        return layout_from_rows(rows)
    except KiwaraError as exc:
        raise StudioError(str(exc)) from None


def builtin_layout(name: Any) -> Layout:
    from ..games.kiwara.formats import builtin_names, load_layout
    return load_layout(need_choice(name, "layout", builtin_names()))


def read_layout_text(text: Any) -> Layout:
    """One layout pasted as text rows or JSON (what a layout file holds)."""
    from ..games.kiwara.formats import parse_layouts
    text = need_text(text, "pasted layout", MAX_TEXT)
    entries = parse_layouts(text, "pasted text")
    if not entries:
        raise StudioError("the pasted text holds no layout (one row of letters per line)")
    if entries[0].error is not None:
        raise StudioError(str(entries[0].error))
    return entries[0].layout


def _problem_cells(layout: Layout, problem) -> list[str]:
    """The cells a problem concerns: its own, or those of the territories it names."""
    if problem.cells:
        return list(problem.cells)
    grid = layout.grid
    return [grid.cell_name(c) for name in problem.territories if name in layout.names
            for c in layout.territory(name).cells]


def check_board(rows: Any, rules: Any = "free-play") -> dict:
    """Validate a layout as the library does, with what the Draw view shows: each problem in
    words with its cells, the cells to highlight, sizes, mix, river sticks, whether it is a known
    board, and the board as drawn for print."""
    layout = board_from_rows(rows)
    report = validate(layout, RULESETS[need_choice(rules, "rules", RULESETS)])
    facts = report.facts
    problems = [{"kind": p.kind, "message": p.message, "cells": _problem_cells(layout, p)}
                for p in report.problems]
    return {
        "rows": list(layout.rows),
        "rules": report.ruleset.name,
        "rules_text": report.ruleset.describe(),
        "valid": report.valid,
        "problems": problems,
        "bad_cells": sorted({c for p in problems for c in p["cells"]}),
        "territories": facts["territories"],
        "size_mix": facts["size_mix"],
        "river_segments": facts["river_segments"],
        "sticks_in_box": facts["sticks_in_box"],
        "known_board": facts["known_board"],
        "svg": screen_board(layout),
    }


def size_mixes() -> list[list[int]]:
    """The free-play size mixes: six sizes from {3, 5, 7, 9} that cover the 30 cells."""
    return [list(m) for m in itertools.combinations_with_replacement((3, 5, 7, 9), 6)
            if sum(m) == 30]


def parse_mix(mix: Any) -> tuple[int, ...] | None:
    """``None``/``""`` (any mix), ``"3,3,5,5,7,7"`` or ``[3, 3, 5, 5, 7, 7]``."""
    if mix is None or mix == "":
        return None
    if isinstance(mix, str):
        need_text(mix, "mix", 60, r"\s*\d+(\s*,\s*\d+)*\s*")
        mix = [int(part) for part in mix.split(",")]
    if not isinstance(mix, list) or not all(isinstance(s, int) and not isinstance(s, bool)
                                            for s in mix):
        raise StudioError(f"mix must be sizes such as \"3,3,5,5,7,7\", got {describe(mix)}")
    wanted = tuple(sorted(mix))
    if list(wanted) not in size_mixes():
        raise StudioError(f"mix {','.join(map(str, wanted))} is not a free-play mix; one of "
                          + "; ".join(",".join(map(str, m)) for m in size_mixes()))
    return wanted


def random_board(seed: Any = None, mix: Any = None) -> dict:
    """A uniformly random valid free-play board (the generator's draw, as ``kiwara generate``
    makes it: the same seed and mix give the same board), checked like :func:`check_board`."""
    from ..games.kiwara.generator import sample_layouts
    seed = seed_or_new(seed)
    if seed >= 2 ** 32:
        raise StudioError("seed must be below 4,294,967,296 for a random board")
    wanted = parse_mix(mix)
    layout = sample_layouts(1, seed, mix=wanted)[0]
    command = f"kiwara generate --seed {seed}" + (
        f" --mix {','.join(map(str, wanted))}" if wanted else "")
    return {**check_board(list(layout.rows)), "seed": seed,
            "mix": list(wanted) if wanted else None, "command": command}


