"""The printing toolkit any game prints through (at the edge: imports the core, never the
reverse): paper and options (:mod:`.page`), SVG pages (:mod:`.sheet`), card and piece sheets on
shared cut lines (:mod:`.cards`), PDF boxes and rendering to SVG, PDF and PNG (:mod:`.render`).
A game's own prints live in its package (``kiwara_designer.games.kiwara.printing``).
"""
from __future__ import annotations

from .cards import Card, CardBack, Piece, card_pages, piece_pages
from .page import A4, BACKS, LETTER, Paper, PrintError, PrintOptions
from .render import (PNG_DPI, cairo_available, check_dpi, output_format, render_pdf, render_png,
                     write_pages)
from .sheet import Page

__all__ = ["A4", "BACKS", "LETTER", "PNG_DPI", "Card", "CardBack", "Page", "Paper", "Piece",
           "PrintError", "PrintOptions", "cairo_available", "card_pages", "check_dpi",
           "output_format", "piece_pages", "render_pdf", "render_png", "write_pages"]
