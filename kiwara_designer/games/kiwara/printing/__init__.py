"""Kiwara's prints: the board at real size, the print-and-play kit (tokens, cards, rules page),
thumbnails and the studio's screen board, drawn through the printing toolkit.

>>> from kiwara_designer.games.kiwara import load_layout
>>> from kiwara_designer.printing import PrintOptions, Paper, write_pages
>>> from kiwara_designer.games.kiwara.printing import print_set
>>> pages = print_set(load_layout("classic"), PrintOptions(Paper.parse("letter")), kit=True)
>>> [p.name for p in pages]
['board', 'tokens', 'rules']
>>> from kiwara_designer.games.kiwara import KiwaraVariant
>>> deck = KiwaraVariant(reinforcement="deck", deck="sample")
>>> [p.name for p in print_set(load_layout("classic"), PrintOptions(), kit=True, variant=deck)]
['board', 'tokens', 'cards-1', 'cards-2', 'cards-3', 'rules']
"""
from __future__ import annotations

from ....printing.page import PrintOptions
from ....printing.sheet import Page
from ..layout import Layout
from ..variant import KiwaraVariant
from .board import BoardGeometry, board_pages, default_cell_mm, resolve_cell_mm, tint
from .kit import ANIMALS, PLAYERS, animals, kit_pages
from .thumbnail import board_thumbnail


def print_set(layout: Layout, options: PrintOptions = PrintOptions(), *, title: str = "Kiwara board",
              kit: bool = False, variant: KiwaraVariant = KiwaraVariant(),
              command: str | None = None) -> list[Page]:
    """The board's pages (several if tiled), then the kit's sheets for ``variant`` if ``kit``;
    ``command`` (the command line that recreates a generated board) is printed on the board, and
    the track's arrows show the variant's totem direction."""
    pages = board_pages(layout, options, title, command, variant.totem_direction)
    if kit:
        pages += kit_pages(options, resolve_cell_mm(layout.grid, options), variant)
    return pages


__all__ = ["ANIMALS", "PLAYERS", "BoardGeometry", "animals", "board_pages", "board_thumbnail",
           "default_cell_mm", "kit_pages", "print_set", "resolve_cell_mm", "tint"]
