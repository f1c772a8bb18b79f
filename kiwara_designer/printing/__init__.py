"""Printable boards and the print-and-play kit (at the edge: imports the core, never the reverse).

>>> from kiwara_designer import load_layout
>>> from kiwara_designer.printing import PrintOptions, Paper, print_set, write_pages
>>> pages = print_set(load_layout("classic"), PrintOptions(Paper.parse("letter")), kit=True)
>>> [p.name for p in pages]
['board', 'tokens', 'cards', 'rules']

``board_thumbnail(layout)`` is the same board as a small inline SVG for screens; card sheets
for any game are :mod:`kiwara_designer.printing.cards`.
"""
from __future__ import annotations

from ..engine.variant import RuleVariant
from ..layout import Layout
from .board import BoardGeometry, board_pages, default_cell_mm, resolve_cell_mm, tint
from .cards import Card, CardBack, Piece, card_pages, piece_pages
from .kit import ANIMALS, PLAYERS, animals, kit_pages
from .page import A4, BACKS, LETTER, Paper, PrintError, PrintOptions
from .render import (PNG_DPI, cairo_available, check_dpi, output_format, render_pdf, render_png,
                     write_pages)
from .sheet import Page
from .thumbnail import board_thumbnail


def print_set(layout: Layout, options: PrintOptions = PrintOptions(), *, title: str = "Kiwara board",
              kit: bool = False, variant: RuleVariant = RuleVariant(),
              command: str | None = None) -> list[Page]:
    """The board's pages (several if tiled), then the kit's sheets for ``variant`` if ``kit``;
    ``command`` (the command line that recreates a generated board) is printed on the board, and
    the track's arrows show the variant's totem direction."""
    pages = board_pages(layout, options, title, command, variant.totem_direction)
    if kit:
        pages += kit_pages(options, resolve_cell_mm(layout.grid, options), variant)
    return pages


__all__ = ["A4", "ANIMALS", "BACKS", "LETTER", "PLAYERS", "PNG_DPI", "BoardGeometry", "Card",
           "CardBack", "Page", "Paper", "Piece", "PrintError", "PrintOptions", "animals",
           "board_pages", "board_thumbnail", "cairo_available", "card_pages", "check_dpi",
           "default_cell_mm", "kit_pages", "output_format", "piece_pages", "print_set",
           "render_pdf", "render_png", "resolve_cell_mm", "tint", "write_pages"]
