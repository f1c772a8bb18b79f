"""Drawing layouts as text for the terminal: territory letters, rivers as walls between cells.

At the edge, like ``printing/``: imports the core, never the reverse. ``colour`` adds ANSI tints
(click strips them when the output is not a terminal).
"""
from __future__ import annotations

from typing import Callable

import click

from .geometry import COLUMN_LETTERS
from .layout import Layout

# Savanna tints for up to 12 territories; beyond that, letters alone tell them apart.
TINTS = ["yellow", "green", "cyan", "magenta", "red", "blue",
         "bright_yellow", "bright_green", "bright_cyan", "bright_magenta", "bright_red", "bright_blue"]


def draw_layout(layout: Layout, colour: bool = False,
                cell_text: Callable[[int], str] | None = None) -> str:
    """The board as text: ``|`` and ``---`` are rivers (sticks), blanks join cells of a territory.

    ``cell_text(cell)`` gives the three characters shown in a cell (default: its territory letter).
    """
    grid = layout.grid
    w, h = grid.width, grid.height
    label = cell_text or (lambda c: f" {layout.label(c)} ")

    def tinted(cell: int, text: str) -> str:
        if not colour:
            return text
        return click.style(text, fg=TINTS[layout.assignment[cell] % len(TINTS)], bold=True)

    def horizontal(row: int) -> str:   # the wall above ``row`` (row == h: bottom border)
        parts = []
        for col in range(w):
            edge = row in (0, h) or layout.is_river(grid.cell(col, row - 1), grid.cell(col, row))
            parts.append("---" if edge else "   ")
        return "    +" + "+".join(parts) + "+"

    lines = ["     " + "   ".join(COLUMN_LETTERS[:w])]
    for row in range(h):
        lines.append(horizontal(row))
        text = f"{row + 1:>3} |"
        for col in range(w):
            c = grid.cell(col, row)
            wall = col == w - 1 or layout.is_river(c, c + 1)
            text += tinted(c, label(c)) + ("|" if wall else " ")
        lines.append(text)
    lines.append(horizontal(h))
    return "\n".join(lines)
