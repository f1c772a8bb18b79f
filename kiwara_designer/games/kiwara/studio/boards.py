"""Kiwara's Draw view in the studio: a board from the page's rows, a built-in or pasted one,
checked by the library's validator with what the view shows, uniformly random boards, and what
the page offers to draw with (built-in boards, rulesets, mixes, palette)."""
from __future__ import annotations

import itertools
from typing import Any

from ....core.checks import (MAX_TEXT, RequestError, describe, need_choice, need_text,
                            seed_or_new)
from ....core.errors import KiwaraError
from ..formats import builtin_names, load_layout, parse_layouts
from ..geometry import GeometryError
from ..layout import TERRITORY_CHARS, Layout, LayoutError
from ..printing.board import TINTS
from ..printing.kit import PLAYERS
from ..printing.screen import screen_board, territory_colours
from ..validation import RULESETS, validate

TERRITORY_KEYS = "ABCDEFGH"    # the page's palette: keys 1-8 / a-h paint these
MAX_SIDE = 12                  # board side the studio accepts (the page draws 6 × 5)


def layout_from_rows(rows: Any) -> Layout:
    """The layout of ``rows`` (``["ABCCCC", …]``: one letter per cell naming its territory), as
    the page sends a board."""
    if (not isinstance(rows, list) or not 1 <= len(rows) <= MAX_SIDE
            or not all(isinstance(r, str) for r in rows)):
        raise LayoutError(f"rows must be a list of 1 to {MAX_SIDE} rows of territory letters, "
                          f"such as [\"ABCCCC\", \"ABBCFF\", …]")
    for number, row in enumerate(rows, 1):
        if not 1 <= len(row) <= MAX_SIDE:
            raise LayoutError(f"row {number} has {len(row)} cells; 1 to {MAX_SIDE} allowed")
        bad = [ch for ch in row if ch not in TERRITORY_CHARS]
        if bad:
            raise LayoutError(f"row {number}: {bad[0]!r} is not a territory name (letters A-Z, "
                              f"a-z, digits)")
    try:
        return Layout.from_rows(rows)
    except GeometryError as exc:
        raise LayoutError(str(exc)) from None


def board_from_rows(rows: Any) -> Layout:
    """:func:`layout_from_rows`, refused as the request's fault (the studio's bad request)."""
    try:
        return layout_from_rows(rows)
    except KiwaraError as exc:
        raise RequestError(str(exc)) from None


def builtin_layout(name: Any) -> Layout:
    return load_layout(need_choice(name, "layout", builtin_names()))


def read_layout_text(text: Any) -> Layout:
    """One layout pasted as text rows or JSON (what a layout file holds)."""
    text = need_text(text, "pasted layout", MAX_TEXT)
    entries = parse_layouts(text, "pasted text")
    if not entries:
        raise RequestError("the pasted text holds no layout (one row of letters per line)")
    if entries[0].error is not None:
        raise RequestError(str(entries[0].error))
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
        "colours": territory_colours(layout),
        "svg": screen_board(layout),
    }


def builtin_board(name: Any) -> dict:
    """A built-in board by name, checked like :func:`check_board`."""
    return check_board(list(builtin_layout(name).rows))


def pasted_board(text: Any) -> dict:
    """A pasted board (text rows or JSON), checked like :func:`check_board`."""
    return check_board(list(read_layout_text(text).rows))


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
        raise RequestError(f"mix must be sizes such as \"3,3,5,5,7,7\", got {describe(mix)}")
    wanted = tuple(sorted(mix))
    if list(wanted) not in size_mixes():
        raise RequestError(f"mix {','.join(map(str, wanted))} is not a free-play mix; one of "
                          + "; ".join(",".join(map(str, m)) for m in size_mixes()))
    return wanted


def random_board(seed: Any = None, mix: Any = None) -> dict:
    """A uniformly random valid free-play board (the generator's draw, as ``kiwara generate``
    makes it: the same seed and mix give the same board), checked like :func:`check_board`."""
    from ..generator import sample_layouts     # only a random board needs the generator
    seed = seed_or_new(seed)
    if seed >= 2 ** 32:
        raise RequestError("seed must be below 4,294,967,296 for a random board")
    wanted = parse_mix(mix)
    layout = sample_layouts(1, seed, mix=wanted)[0]
    command = f"kiwara generate --seed {seed}" + (
        f" --mix {','.join(map(str, wanted))}" if wanted else "")
    return {**check_board(list(layout.rows)), "seed": seed,
            "mix": list(wanted) if wanted else None, "command": command}


def board_catalogue() -> dict:
    """What the Draw and Print views offer: built-in boards, rulesets, free-play mixes, the
    palette (the letters; a territory's colour is the print's, by order of appearance: each
    board's ``colours``), the print's tints and player colours, papers."""
    return {
        "layouts": {name: list(builtin_layout(name).rows) for name in builtin_names()},
        "rules": list(RULESETS),
        "mixes": size_mixes(),
        "palette": list(TERRITORY_KEYS),
        "player_colours": [colours.fill for colours in PLAYERS],
        "tints": list(TINTS),
        "papers": ["a4", "letter"],
    }
