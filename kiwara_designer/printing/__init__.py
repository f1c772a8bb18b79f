"""Printable boards and the print-and-play kit (at the edge: imports the core, never the reverse).

>>> from kiwara_designer import load_layout
>>> from kiwara_designer.printing import PrintOptions, Paper, print_set, write_pages
>>> pages = print_set(load_layout("classic"), PrintOptions(Paper.parse("letter")), kit=True)
>>> [p.name for p in pages]
['board', 'tokens', 'cards']

``board_thumbnail(layout)`` is the same board as a small inline SVG for screens.
"""
from __future__ import annotations

from ..layout import Layout
from .board import BoardGeometry, board_pages, default_cell_mm, resolve_cell_mm, tint
from .kit import ANIMALS, PLAYERS, kit_pages
from .page import A4, LETTER, Paper, PrintError, PrintOptions
from .render import cairo_available, output_format, render_pdf, render_png, write_pages
from .sheet import Page
from .thumbnail import board_thumbnail


def print_set(layout: Layout, options: PrintOptions = PrintOptions(), *, title: str = "Kiwara board",
              kit: bool = False) -> list[Page]:
    """The board's pages (several if tiled), then the kit's sheets if ``kit``."""
    pages = board_pages(layout, options, title)
    if kit:
        pages += kit_pages(options, resolve_cell_mm(layout.grid, options))
    return pages


__all__ = ["A4", "ANIMALS", "LETTER", "PLAYERS", "BoardGeometry", "Page", "Paper", "PrintError",
           "PrintOptions", "board_pages", "board_thumbnail", "cairo_available", "default_cell_mm",
           "kit_pages", "output_format", "print_set", "render_pdf", "render_png", "resolve_cell_mm",
           "tint", "write_pages"]
