"""A small on-screen picture of a board (the play-test report's boards): the printed board's
tints, river placement and size labels, without page, totem path or title block.

Plain SVG text rather than svgwrite, whose documents always declare namespace URLs: inline SVG
in HTML needs none, so a report built from these holds no URL at all. Units are pixels.
"""
from __future__ import annotations

from html import escape

from ..layout import Layout
from .board import CELL_EDGE_COLOUR, RIVER_COLOUR, BoardGeometry, label_cell, tint
from ....printing.page import mm
from ....printing.sheet import FONT, INK

SVG_NAMESPACE = ' xmlns="http://www.w3.org/2000/svg"'
PAD = 2.0   # room for the half of the border and of the rivers that lies outside the board


def _n(value: float) -> str:
    return f"{mm(value):g}"


def board_thumbnail(layout: Layout, cell: float = 18.0, labels: bool = True,
                    standalone: bool = False) -> str:
    """The layout as inline SVG, ``cell`` pixels a cell: each cell in its territory's tint
    (:func:`~kiwara_designer.games.kiwara.printing.board.tint`, as printed), one thick river line per cut
    edge, each territory's size written inside it. ``standalone`` adds the namespace a
    ``.svg`` file needs."""
    grid = layout.grid
    geometry = BoardGeometry(grid, cell)
    board = geometry.board
    width, height = board.width + 2 * PAD, board.height + 2 * PAD
    parts = [f'<svg{SVG_NAMESPACE if standalone else ""} width="{_n(width)}" height="{_n(height)}" '
             f'viewBox="{_n(-PAD)} {_n(-PAD)} {_n(width)} {_n(height)}" role="img" '
             f'aria-label="board {escape(" ".join(layout.rows))}">']
    # the cells' common stroke said once: a report holds a dozen boards
    parts.append(f'<g stroke="{CELL_EDGE_COLOUR}" stroke-width="0.5">')
    for c in grid.cells:
        r = geometry.cell_rect(c)
        parts.append(f'<rect class="cell" data-cell="{grid.cell_name(c)}" x="{_n(r.x)}" '
                     f'y="{_n(r.y)}" width="{_n(r.width)}" height="{_n(r.height)}" '
                     f'fill="{tint(layout.assignment[c])}"/>')
    parts.append("</g>")
    parts.append(f'<rect class="border" x="0" y="0" width="{_n(board.width)}" '
                 f'height="{_n(board.height)}" fill="none" stroke="{INK}" stroke-width="1.5"/>')
    # Thicker than on paper (0.16 of a cell): a thumbnail is seen small, on a screen.
    for a, b in layout.river_edges():
        x1, y1, x2, y2 = geometry.edge_segment(a, b)
        parts.append(f'<line class="river" x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" '
                     f'y2="{_n(y2)}" stroke="{RIVER_COLOUR}" stroke-width="{_n(0.16 * cell)}" '
                     'stroke-linecap="round"/>')
    if labels:
        size = 0.5 * cell
        for territory in layout.territories:
            x, y = geometry.cell_centre(label_cell(layout, territory))
            # baseline ~0.35 em below the centre, as on the printed sheets (see sheet.text)
            parts.append(f'<text class="size-label" data-territory="{escape(territory.name)}" '
                         f'x="{_n(x)}" y="{_n(y + 0.35 * size)}" font-size="{_n(size)}" '
                         f'font-family="{FONT}" font-weight="bold" text-anchor="middle" '
                         f'fill="{INK}">{territory.size}</text>')
    parts.append("</svg>")
    return "".join(parts)
