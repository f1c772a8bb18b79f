"""SVG drawing of printable boards: the public face of :mod:`kiwara_designer.printing`.

At the edge like ``terminal``: it imports the core (geometry, layout), never the reverse.
"""
from .printing import (A4, ANIMALS, LETTER, PLAYERS, BoardGeometry, Page, Paper, PrintError,
                       PrintOptions, board_pages, board_thumbnail, cairo_available, default_cell_mm,
                       kit_pages, output_format, print_set, render_pdf, render_png, resolve_cell_mm,
                       tint, write_pages)

__all__ = ["A4", "ANIMALS", "LETTER", "PLAYERS", "BoardGeometry", "Page", "Paper", "PrintError",
           "PrintOptions", "board_pages", "board_thumbnail", "cairo_available", "default_cell_mm",
           "kit_pages", "output_format", "print_set", "render_pdf", "render_png", "resolve_cell_mm",
           "tint", "write_pages"]
