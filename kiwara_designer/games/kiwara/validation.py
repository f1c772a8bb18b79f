"""Checking a layout against a ruleset, with every problem named and located at once."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache

from .formats import builtin_text, parse_text
from .geometry import Grid
from .layout import Layout

STICKS_IN_BOX = 30


@dataclass(frozen=True)
class Ruleset:
    """What a valid layout is: board size, number of territories, allowed sizes or exact mix."""

    name: str
    width: int = 6
    height: int = 5
    territories: int | None = 6
    sizes: frozenset[int] | None = frozenset({3, 5, 7, 9})
    mix: tuple[int, ...] | None = None   # exact multiset of sizes, sorted

    @property
    def grid(self) -> Grid:
        return Grid(self.width, self.height)

    def describe(self) -> str:
        parts = [f"{self.width} × {self.height} board"]
        if self.territories is not None:
            parts.append(f"{self.territories} territories")
        if self.mix is not None:
            parts.append("sizes " + ", ".join(map(str, self.mix)))
        elif self.sizes is not None:
            parts.append("sizes in {" + ", ".join(map(str, sorted(self.sizes))) + "}")
        return f"{self.name}: " + ", ".join(parts) + ", each connected"


FREE_PLAY = Ruleset("free-play")
CLASSIC = Ruleset("classic", sizes=frozenset({3, 5, 7}), mix=(3, 3, 5, 5, 7, 7))
RULESETS = {r.name: r for r in (FREE_PLAY, CLASSIC)}


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a layout; ``territories`` names those it concerns (empty if global)."""

    kind: str
    message: str
    territories: tuple[str, ...] = ()
    cells: tuple[str, ...] = ()


@dataclass(frozen=True)
class Report:
    layout: Layout
    ruleset: Ruleset
    problems: tuple[Problem, ...]
    facts: dict = field(default_factory=dict, compare=False)

    @property
    def valid(self) -> bool:
        return not self.problems

    def to_json(self) -> dict:
        return {
            "valid": self.valid,
            "rules": self.ruleset.name,
            "rows": list(self.layout.rows),
            "problems": [{"kind": p.kind, "message": p.message, "territories": list(p.territories),
                          "cells": list(p.cells)} for p in self.problems],
            "facts": self.facts,
        }


def _cell_set(layout: Layout, cells) -> str:
    return "{" + ", ".join(layout.grid.cell_name(c) for c in sorted(cells)) + "}"


def pieces(layout: Layout, territory) -> list[set[int]]:
    """The orthogonally connected pieces of a territory, largest first then by first cell
    (grown cell by cell: a territory is small, and this runs for every layout validated)."""
    neighbours, left, found = layout.grid.neighbours, set(territory.cells), []
    while left:
        stack = [min(left)]
        piece = set(stack)
        while stack:
            for cell in neighbours[stack.pop()]:
                if cell in left and cell not in piece:
                    piece.add(cell)
                    stack.append(cell)
        left -= piece
        found.append(piece)
    return sorted(found, key=lambda p: (-len(p), min(p)))


@lru_cache(maxsize=None)
def builtin_layout(name: str) -> Layout:
    return parse_text(builtin_text(name), name)[0].layout


def known_board(layout: Layout) -> str | None:
    """``'classic'``, ``'mirror image of classic (left-right mirror)'`` … or None."""
    for name in ("classic", "president"):
        reference = builtin_layout(name)
        if reference.grid != layout.grid or reference.size_mix != layout.size_mix or \
                len(reference.river_edges()) != len(layout.river_edges()):
            continue                             # (what no symmetry changes differs: quick)
        for sym, image in zip(layout.grid.symmetries, reference.images()):
            if image == layout:
                return name if sym.name == "identity" else f"{name} seen through a {sym.name}"
    return None


def facts(layout: Layout) -> dict:
    return {
        "width": layout.grid.width,
        "height": layout.grid.height,
        "territories": {t.name: t.size for t in sorted(layout.territories, key=lambda t: t.name)},
        "size_mix": list(layout.size_mix),
        "river_segments": len(layout.river_edges()),
        "sticks_in_box": STICKS_IN_BOX,
        "known_board": known_board(layout),
    }


def validate(layout: Layout, ruleset: Ruleset = FREE_PLAY) -> Report:
    problems: list[Problem] = []
    grid = layout.grid
    if (grid.width, grid.height) != (ruleset.width, ruleset.height):
        problems.append(Problem("board", f"board is {grid.width} × {grid.height}, "
                                         f"expected {ruleset.width} × {ruleset.height}"))
    count = len(layout.territories)
    if ruleset.territories is not None and count != ruleset.territories:
        noun = "territory" if count == 1 else "territories"
        problems.append(Problem("count", f"{count} {noun} ({', '.join(layout.names)}), "
                                         f"expected {ruleset.territories}"))
    for t in layout.territories:
        parts = pieces(layout, t)
        if len(parts) > 1:
            problems.append(Problem(
                "split", f"territory {t.name} is split into {len(parts)} pieces "
                         + " and ".join(_cell_set(layout, p) for p in parts),
                (t.name,), tuple(grid.cell_name(c) for c in t.cells)))
        if ruleset.sizes is not None and t.size not in ruleset.sizes:
            allowed = ", ".join(map(str, sorted(ruleset.sizes)))
            problems.append(Problem(
                "size", f"territory {t.name} has {t.size} cell{'s' * (t.size != 1)} {_cell_set(layout, t.cells)}, "
                        f"allowed sizes are {allowed}",
                (t.name,), tuple(grid.cell_name(c) for c in t.cells)))
    if ruleset.mix is not None and layout.size_mix != ruleset.mix:
        want, have = Counter(ruleset.mix), Counter(layout.size_mix)
        off = tuple(t.name for t in layout.territories if have[t.size] > want[t.size])
        problems.append(Problem(
            "mix", f"size mix is {', '.join(map(str, layout.size_mix))}; {ruleset.name} needs "
                   f"{', '.join(map(str, ruleset.mix))}", off))
    return Report(layout, ruleset, tuple(problems), facts(layout))
