"""The printable board: true-scale SVG in millimetres, rivers exactly on the cut edges.

Board-local coordinates put the top-left corner of cell ``a1`` at (0, 0), one unit = 1 mm; each
page places the board with a single ``translate`` so a printout at 100 % is the real size.
"""
from __future__ import annotations

from dataclasses import dataclass

import svgwrite
from svgwrite.container import Group

from ..geometry import COLUMN_LETTERS, Grid
from ..layout import Layout
from ..validation import STICKS_IN_BOX
from .sheet import INK, Page, new_drawing, text
from .page import A4, LETTER, NAMED_PAPERS, PrintError, PrintOptions, Rect, mm, tile_starts

# Savanna tints, ordered so that territories numbered one after the other (often neighbours)
# differ by at least 16 in CIE L*, and the first six (a six-territory board) by at least 7 from
# one another, so they stay apart in greyscale; past six, the territory letters do the work.
MAX_TILED_PAGES = 500
TINTS = ("#FFF0B7", "#B0AE76", "#CEDEA9", "#C68764", "#EAB879", "#92804D", "#FFDABF", "#8A6641")
RIVER_COLOUR = "#1F5FBF"
CELL_EDGE_COLOUR = "#7A7060"
PIECE_COLOUR = "#F4EEDC"
TRACK_COLOUR = "#D8C9A0"
STONE_COLOUR = "#E4E0D6"

PANEL_WIDTH = 52.0    # title block beside the board
PANEL_HEIGHT = 60.0   # ... which needs this much height, however small the board
STRIP_HEIGHT = 16.0   # title block under the board (or the page label of a tiled board)
GAP = 6.0
SCALE_BAR_MM = 40.0
CROP_GAP, CROP_LENGTH = 2.0, 5.0
TILING_HELP = "cut one sheet along a dashed pink line and lay it on the same line of its neighbour"


def tint(territory_index: int) -> str:
    return TINTS[territory_index % len(TINTS)]


@dataclass(frozen=True)
class BoardGeometry:
    """Where everything of a board goes, in board-local millimetres, for a cell size."""

    grid: Grid
    cell: float

    @property
    def label_band(self) -> float:      # column letters / row numbers between board and stones
        return 0.25 * self.cell

    @property
    def stone_offset(self) -> float:    # distance from the board's edge to a stone's centre
        return 0.6 * self.cell

    @property
    def stone_radius(self) -> float:
        return 0.3 * self.cell

    @property
    def board(self) -> Rect:
        return Rect(0.0, 0.0, self.grid.width * self.cell, self.grid.height * self.cell)

    @property
    def trim(self) -> Rect:
        """The cut line of the printed board piece: board, labels and totem path."""
        return self.board.grown(self.cell)

    def cell_rect(self, cell: int) -> Rect:
        return Rect(self.grid.col_of(cell) * self.cell, self.grid.row_of(cell) * self.cell,
                    self.cell, self.cell)

    def cell_centre(self, cell: int) -> tuple[float, float]:
        r = self.cell_rect(cell)
        return r.x + r.width / 2, r.y + r.height / 2

    def edge_segment(self, a: int, b: int) -> tuple[float, float, float, float]:
        """The shared side of two adjacent cells, (x1, y1, x2, y2), top/left end first."""
        a, b = min(a, b), max(a, b)
        col, row, c = self.grid.col_of(a), self.grid.row_of(a), self.cell
        if self.grid.row_of(a) == self.grid.row_of(b):   # side by side: a vertical segment
            return (col + 1) * c, row * c, (col + 1) * c, (row + 1) * c
        return col * c, (row + 1) * c, (col + 1) * c, (row + 1) * c

    def stone_centre(self, position: int) -> tuple[float, float]:
        kind, index = self.grid.position_side(position)
        edge = self.grid.position_edge(position)
        board, mid = self.board, (index + 0.5) * self.cell
        return {"top": (mid, -self.stone_offset),
                "bottom": (mid, board.bottom + self.stone_offset),
                "left": (-self.stone_offset, mid),
                "right": (board.right + self.stone_offset, mid)}[edge]

    def extent(self, options: PrintOptions) -> Rect:
        """Everything drawn for the board piece: trim, bleed and crop marks."""
        reach = options.bleed_mm + (CROP_GAP + CROP_LENGTH if options.crop_marks else 0.0)
        return self.trim.grown(reach)


# -- fitting ---------------------------------------------------------------------------------
def _sheet_plan(extent: Rect, options: PrintOptions) -> str | None:
    """``'panel'`` (title block beside the board), ``'strip'`` (below) or None (must tile)."""
    width, height = options.printable
    if extent.width + GAP + PANEL_WIDTH <= width and max(extent.height, PANEL_HEIGHT) <= height:
        return "panel"
    if extent.width <= width and extent.height + GAP + STRIP_HEIGHT <= height:
        return "strip"
    return None


def default_cell_mm(grid: Grid, options: PrintOptions = PrintOptions()) -> float:
    """The largest whole-millimetre cell at which the board with its totem path fits one sheet
    with the options' margins: on both A4 and Letter when a named paper is asked for (so the same
    board prints the same size on either), on the custom paper otherwise."""
    papers = (A4, LETTER) if options.paper in NAMED_PAPERS.values() else (options.paper,)
    best = 5.0
    for cell in range(5, 201):
        geometry = BoardGeometry(grid, float(cell))
        if all(_sheet_plan(geometry.extent(o), o) for o in
               (PrintOptions(p, cell, options.crop_marks, options.bleed_mm, options.margin_mm)
                for p in papers)):
            best = float(cell)
    return best


def resolve_cell_mm(grid: Grid, options: PrintOptions) -> float:
    return options.cell_mm if options.cell_mm is not None else default_cell_mm(grid, options)


# -- drawing ---------------------------------------------------------------------------------
def label_cell(layout: Layout, territory) -> int:
    """The territory's cell nearest its centroid (first in reading order on a tie): where its
    size is written, always inside the territory even when it is L- or U-shaped."""
    grid = layout.grid
    cx = sum(grid.col_of(c) for c in territory.cells) / territory.size
    cy = sum(grid.row_of(c) for c in territory.cells) / territory.size
    return min(territory.cells, key=lambda c: ((grid.col_of(c) - cx) ** 2 + (grid.row_of(c) - cy) ** 2, c))


def draw_board(drawing: svgwrite.Drawing, layout: Layout, geometry: BoardGeometry,
               options: PrintOptions) -> Group:
    """The board piece in board-local coordinates, as a group to be placed on a page."""
    grid, c = layout.grid, geometry.cell
    group = drawing.g(id="board")
    trim = geometry.trim
    bled = trim.grown(options.bleed_mm)
    piece = drawing.rect((mm(bled.x), mm(bled.y)), (mm(bled.width), mm(bled.height)), fill=PIECE_COLOUR)
    piece["class"] = "piece"
    group.add(piece)
    if options.bleed_mm == 0:   # a hairline cut guide; with bleed the crop marks say where to cut
        cut = drawing.rect((mm(trim.x), mm(trim.y)), (mm(trim.width), mm(trim.height)), fill="none",
                           stroke="#A09A90", stroke_width=0.2)
        cut["class"] = "trim"
        group.add(cut)
    _draw_track(drawing, group, geometry)

    for cell in grid.cells:
        r = geometry.cell_rect(cell)
        rect = drawing.rect((mm(r.x), mm(r.y)), (mm(r.width), mm(r.height)),
                            fill=tint(layout.assignment[cell]))
        rect.update({"class": "cell", "data-cell": grid.cell_name(cell),
                     "data-territory": layout.label(cell)})
        group.add(rect)
    for a, b in grid.edges:
        if not layout.is_river(a, b):
            x1, y1, x2, y2 = geometry.edge_segment(a, b)
            line = drawing.line((mm(x1), mm(y1)), (mm(x2), mm(y2)), stroke=CELL_EDGE_COLOUR,
                                stroke_width=0.25)
            line["class"] = "cell-edge"
            group.add(line)
    board = geometry.board
    border = drawing.rect((0, 0), (mm(board.width), mm(board.height)), fill="none", stroke=INK,
                          stroke_width=0.6)
    border["class"] = "border"
    group.add(border)
    river_width = mm(max(1.2, 0.07 * c))
    for a, b in layout.river_edges():
        x1, y1, x2, y2 = geometry.edge_segment(a, b)
        line = drawing.line((mm(x1), mm(y1)), (mm(x2), mm(y2)), stroke=RIVER_COLOUR,
                            stroke_width=river_width, stroke_linecap="round")
        line.update({"class": "river", "data-cells": f"{grid.cell_name(a)} {grid.cell_name(b)}"})
        group.add(line)

    for territory in layout.territories:
        x, y = geometry.cell_centre(label_cell(layout, territory))
        group.add(text(drawing, str(territory.size), x, y - 0.06 * c, 0.36 * c, weight="bold",
                        class_="size-label", **{"data-territory": territory.name}))
        group.add(text(drawing, territory.name, x, y + 0.27 * c, 0.14 * c, class_="territory-name"))

    band = geometry.label_band
    for col in range(grid.width):
        x = (col + 0.5) * c
        for y in (-band / 2, board.bottom + band / 2):
            group.add(text(drawing, COLUMN_LETTERS[col], x, y, 0.18 * c, class_="coord"))
    for row in range(grid.height):
        y = (row + 0.5) * c
        for x in (-band / 2, board.right + band / 2):
            group.add(text(drawing, str(row + 1), x, y, 0.18 * c, class_="coord"))

    for position in range(grid.positions):
        x, y = geometry.stone_centre(position)
        stone = drawing.g(**{"class": "stone", "data-position": str(position),
                             "data-edge": grid.position_edge(position)})
        stone.add(drawing.circle((mm(x), mm(y)), mm(geometry.stone_radius), fill=STONE_COLOUR,
                                 stroke=INK, stroke_width=0.4))
        stone.add(text(drawing, str(position), x, y, 0.24 * c, weight="bold"))
        group.add(stone)

    if options.crop_marks:
        _draw_crop_marks(drawing, group, trim, options.bleed_mm)
    return group


def _draw_track(drawing, group: Group, geometry: BoardGeometry) -> None:
    """The totem's walk through the stones, with arrowheads after each corner: clockwise."""
    board, d, c = geometry.board, geometry.stone_offset, geometry.cell
    track = drawing.rect((mm(-d), mm(-d)), (mm(board.width + 2 * d), mm(board.height + 2 * d)),
                         rx=mm(0.3 * c), fill="none", stroke=TRACK_COLOUR, stroke_width=mm(0.12 * c))
    track["class"] = "track"
    group.add(track)
    s = 0.12 * c
    heads = [((-0.05 * c, -d), (1, 0)), ((board.right + d, -0.05 * c), (0, 1)),
             ((board.right + 0.05 * c, board.bottom + d), (-1, 0)),
             ((-d, board.bottom + 0.05 * c), (0, -1))]
    for (x, y), (dx, dy) in heads:
        points = [(x + dx * s, y + dy * s), (x - dx * s - dy * s, y - dy * s + dx * s),
                  (x - dx * s + dy * s, y - dy * s - dx * s)]
        arrow = drawing.polygon([(mm(px), mm(py)) for px, py in points], fill="#8C7B55")
        arrow["class"] = "clockwise"
        group.add(arrow)


def _draw_crop_marks(drawing, group: Group, trim: Rect, bleed: float) -> None:
    """Two short lines at each corner, on the trim lines' extensions, clear of the bleed."""
    start, end = bleed + CROP_GAP, bleed + CROP_GAP + CROP_LENGTH
    for x, sx in ((trim.x, -1), (trim.right, 1)):
        for y, sy in ((trim.y, -1), (trim.bottom, 1)):
            for x1, y1, x2, y2 in ((x + sx * start, y, x + sx * end, y),
                                   (x, y + sy * start, x, y + sy * end)):
                line = drawing.line((mm(x1), mm(y1)), (mm(x2), mm(y2)), stroke="#000000",
                                    stroke_width=0.25)
                line["class"] = "crop-mark"
                group.add(line)


def title_lines(layout: Layout, title: str, cell: float) -> list[str]:
    """Short lines (they share a 52 mm column): title, board, sizes, sticks, scale."""
    return [title,
            f"{layout.grid.width} × {layout.grid.height} board, {len(layout.territories)} territories",
            "sizes " + ", ".join(map(str, layout.size_mix)),
            f"{len(layout.river_edges())} river segments ({STICKS_IN_BOX} sticks)",
            f"cell {cell:g} mm",
            "print at 100 % (actual size)"]


def _fitting_size(title: str, width: float, largest: float) -> float:
    """Font size at which a line fits ``width`` mm (a sans-serif glyph is < 0.62 em wide)."""
    return min(largest, width / (0.62 * max(len(title), 1)))


def _draw_scale_bar(drawing, x: float, y: float) -> Group:
    """A bar of known length: measure it to check the printer did not scale the page."""
    bar = drawing.g(**{"class": "scale-bar", "data-length-mm": f"{SCALE_BAR_MM:g}"})
    bar.add(drawing.rect((mm(x), mm(y)), (SCALE_BAR_MM, 2), fill=INK))
    for i in range(0, int(SCALE_BAR_MM) + 1, 10):
        bar.add(drawing.line((mm(x + i), mm(y - 1.5)), (mm(x + i), mm(y + 2)), stroke=INK,
                             stroke_width=0.25))
    bar.add(text(drawing, f"{SCALE_BAR_MM:g} mm at true scale", x, y + 5, 3.0, anchor="start"))
    return bar


def _draw_title_block(drawing, lines: list[str], box: Rect, compact: bool) -> Group:
    block = drawing.g(**{"class": "title-block"})
    if compact:   # two lines under the board, scale bar on the right
        block.add(text(drawing, lines[0], box.x, box.y + 3,
                       _fitting_size(lines[0], box.width - SCALE_BAR_MM - GAP, 5.0),
                       anchor="start", weight="bold"))
        half = (len(lines) + 1) // 2
        room = box.width - SCALE_BAR_MM - GAP
        for i, part in enumerate(("  ·  ".join(lines[1:half]), "  ·  ".join(lines[half:]))):
            block.add(text(drawing, part, box.x, box.y + 9 + 5 * i, _fitting_size(part, room, 3.0),
                           anchor="start"))
        block.add(_draw_scale_bar(drawing, box.right - SCALE_BAR_MM, box.y + 2))
        return block
    block.add(text(drawing, lines[0], box.x, box.y + 4, _fitting_size(lines[0], box.width, 6.0),
                   anchor="start", weight="bold"))
    for i, line in enumerate(lines[1:]):
        block.add(text(drawing, line, box.x, box.y + 13 + 6 * i, _fitting_size(line, box.width, 2.8),
                       anchor="start"))
    block.add(_draw_scale_bar(drawing, box.x, box.y + 13 + 6 * len(lines)))
    block.add(text(drawing, "kiwara-designer", box.x, box.bottom - 2, 2.6, anchor="start",
                    fill="#8A8070"))
    return block


def board_pages(layout: Layout, options: PrintOptions = PrintOptions(),
                title: str = "Kiwara board") -> list[Page]:
    """The board on one sheet with its title block, or tiled over several sheets when it is
    larger than the paper (neighbouring sheets overlap by ``options.overlap_mm`` and carry the
    same dashed alignment line)."""
    cell = resolve_cell_mm(layout.grid, options)
    geometry = BoardGeometry(layout.grid, cell)
    extent = geometry.extent(options)
    paper, margin = options.paper, options.margin_mm
    width, height = options.printable
    lines = title_lines(layout, title, cell)
    plan = _sheet_plan(extent, options)

    if plan is not None:
        drawing = new_drawing(paper, lines[0])
        if plan == "panel":
            used = extent.width + GAP + PANEL_WIDTH
            left = margin + (width - used) / 2
            top = margin + (height - extent.height) / 2
            panel_height = max(extent.height, PANEL_HEIGHT)
            panel = Rect(left + extent.width + GAP, margin + (height - panel_height) / 2,
                         PANEL_WIDTH, panel_height)
        else:
            used = extent.height + GAP + STRIP_HEIGHT
            left = margin + (width - extent.width) / 2
            top = margin + (height - used) / 2
            panel = Rect(left, top + extent.height + GAP, extent.width, STRIP_HEIGHT)
        board = draw_board(drawing, layout, geometry, options)
        board.translate(mm(left - extent.x), mm(top - extent.y))
        drawing.add(board)
        drawing.add(_draw_title_block(drawing, lines, panel, compact=plan == "strip"))
        return [Page("board", paper.width_mm, paper.height_mm, drawing.tostring())]
    return _tiled_pages(layout, geometry, options, extent, lines)


def _tiled_pages(layout: Layout, geometry: BoardGeometry, options: PrintOptions, extent: Rect,
                 lines: list[str]) -> list[Page]:
    paper, margin = options.paper, options.margin_mm
    width, height = options.printable
    window_w, window_h = width, height - GAP - STRIP_HEIGHT
    xs = tile_starts(extent.width, window_w, options.overlap_mm)
    ys = tile_starts(extent.height, window_h, options.overlap_mm)
    # Alignment lines in the middle of each overlap, in board-local coordinates.
    cut_xs = [extent.x + (xs[i + 1] + xs[i] + window_w) / 2 for i in range(len(xs) - 1)]
    cut_ys = [extent.y + (ys[i + 1] + ys[i] + window_h) / 2 for i in range(len(ys) - 1)]
    total = len(xs) * len(ys)
    if total > MAX_TILED_PAGES:   # each page holds the whole (clipped) board: GBs of SVG
        raise PrintError(f"the board at {resolve_cell_mm(layout.grid, options):g} mm cells needs "
                         f"{total:,} pages of {paper.name}, more than {MAX_TILED_PAGES}; use a "
                         f"smaller --cell-mm or a larger --paper")
    pages = []
    for j, y0 in enumerate(ys):
        for i, x0 in enumerate(xs):
            number = j * len(xs) + i + 1
            drawing = new_drawing(paper, lines[0])
            win_w = min(window_w, extent.width)
            win_h = min(window_h, extent.height)
            clip = drawing.defs.add(drawing.clipPath(id=f"window{number}"))
            clip.add(drawing.rect((mm(margin), mm(margin)), (mm(win_w), mm(win_h))))
            shown = drawing.g(clip_path=f"url(#window{number})")
            tx, ty = margin - extent.x - x0, margin - extent.y - y0
            board = draw_board(drawing, layout, geometry, options)
            board.translate(mm(tx), mm(ty))
            shown.add(board)
            for k, bx in enumerate(cut_xs):
                if k in (i - 1, i):
                    shown.add(_overlap_mark(drawing, "x", bx, tx + bx, margin, margin + win_h))
            for k, by in enumerate(cut_ys):
                if k in (j - 1, j):
                    shown.add(_overlap_mark(drawing, "y", by, ty + by, margin, margin + win_w))
            drawing.add(shown)
            label = f"{lines[0]}: page {number} of {total} (row {j + 1}, column {i + 1})"
            strip = Rect(margin, margin + window_h + GAP, width, STRIP_HEIGHT)
            drawing.add(_draw_title_block(drawing, [label, lines[2], lines[4], lines[5], TILING_HELP],
                                          strip, compact=True))
            pages.append(Page(f"board-{number}", paper.width_mm, paper.height_mm, drawing.tostring()))
    return pages


def _overlap_mark(drawing, axis: str, board_at: float, page_at: float, start: float, end: float):
    """A dashed alignment line across the overlap shared by two neighbouring sheets."""
    if axis == "x":
        points = ((mm(page_at), mm(start)), (mm(page_at), mm(end)))
    else:
        points = ((mm(start), mm(page_at)), (mm(end), mm(page_at)))
    line = drawing.line(*points, stroke="#D0208A", stroke_width=0.35, stroke_dasharray="3,2")
    line.update({"class": "overlap-mark", "data-axis": axis, "data-board-mm": f"{mm(board_at):g}"})
    return line
