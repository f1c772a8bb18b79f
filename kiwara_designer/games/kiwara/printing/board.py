"""The printable board: true-scale SVG in millimetres, rivers exactly on the cut edges.

Board-local coordinates put the top-left corner of cell ``a1`` at (0, 0), one unit = 1 mm; each
page places the board with a single ``translate`` so a printout at 100 % is the real size.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

import svgwrite
from svgwrite.container import Group

from ..geometry import COLUMN_LETTERS, Grid
from ..layout import Layout
from ..validation import STICKS_IN_BOX
from ....core.numbers import plural
from ....printing.page import (A4, LETTER, NAMED_PAPERS, PrintError, PrintOptions, Rect, mm,
                               tile_starts)
from ....printing.sheet import (CROP_GAP, CROP_LENGTH, INK, Page, crop_marks, cut_guide,
                                fitting_size, new_drawing, safe_area, text)

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
TOKEN_SHARE = 0.8     # a token's diameter, as a share of the cell (the kit follows the board)
GUIDE_COLOUR = "#D0208A"
TILING_HELP = "cut one sheet along a dashed pink line and lay it on the same line of its neighbour"


def tint(territory_index: int) -> str:
    return TINTS[territory_index % len(TINTS)]


@dataclass(frozen=True)
class BoardGeometry:
    """Where everything of a board goes, in board-local millimetres, for a cell size."""

    grid: Grid
    cell: float
    direction: str = "clockwise"   # the totem's, as the variant says: the track's arrows show it

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
        reach = options.bleed_mm + (CROP_GAP + CROP_LENGTH if options.marks else 0.0)
        return self.trim.grown(reach)


# -- fitting ---------------------------------------------------------------------------------
def _sheet_plan(trim: Rect, options: PrintOptions, panel_height: float = PANEL_HEIGHT) -> str | None:
    """``'panel'`` (title block beside the board), ``'strip'`` (below) or None (must tile).
    Only the cut line counts: bleed and crop marks run into the margins, so print options
    never change whether (or at which cell size) a board fits."""
    width, height = options.printable
    if trim.width + GAP + PANEL_WIDTH <= width and max(trim.height, panel_height) <= height:
        return "panel"
    if trim.width <= width and trim.height + GAP + STRIP_HEIGHT <= height:
        return "strip"
    return None


def default_cell_mm(grid: Grid, options: PrintOptions = PrintOptions()) -> float:
    """The largest whole-millimetre cell at which the board with its totem path fits one sheet
    with the options' margins: on both A4 and Letter when a named paper is asked for (so the same
    board prints the same size on either), on the custom paper otherwise. Crop marks, bleed and
    backs do not change it, so every part of a print set is made at the same scale."""
    papers = (A4, LETTER) if options.paper in NAMED_PAPERS.values() else (options.paper,)
    best = 5.0
    for cell in range(5, 201):
        trim = BoardGeometry(grid, float(cell)).trim
        if all(_sheet_plan(trim, PrintOptions(p, margin_mm=options.margin_mm)) for p in papers):
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


def corner_label(drawing, content: str, cell: Rect, corner: str, size: float, **attributes):
    """Text in a corner of ``cell`` (``"top-left"`` or ``"bottom-right"``), shrunk until its box
    (0.6 em a character, 0.75 em high) stays clear of the token placed on the cell: a disc of
    :data:`TOKEN_SHARE` of the cell, centred."""
    inset, radius = 0.05 * cell.width, TOKEN_SHARE * cell.width / 2 + 0.02 * cell.width
    while True:
        width, height = 0.6 * size * len(content), 0.75 * size
        inner = (inset + width - cell.width / 2, inset + height - cell.height / 2)
        if inner[0] < 0 and inner[1] < 0 and inner[0] ** 2 + inner[1] ** 2 >= radius ** 2:
            break
        size *= 0.9
    if corner == "top-left":
        x, y, anchor = cell.x + inset, cell.y + inset + height / 2, "start"
    else:
        x, y, anchor = cell.right - inset, cell.bottom - inset - height / 2, "end"
    return text(drawing, content, x, y, size, anchor=anchor, **attributes)


def draw_board(drawing: svgwrite.Drawing, layout: Layout, geometry: BoardGeometry,
               options: PrintOptions, limit: Rect | None = None,
               fills: Sequence[str] | None = None) -> Group:
    """The board piece in board-local coordinates, as a group to be placed on a page; crop
    marks stay inside ``limit`` (board-local). ``fills`` (one colour per territory, in the
    layout's order) replaces the tints by order of appearance (the studio colours by name)."""
    grid, c = layout.grid, geometry.cell
    group = drawing.g(id="board")
    trim = geometry.trim
    bled = trim.grown(options.bleed_mm)
    piece = drawing.rect((mm(bled.x), mm(bled.y)), (mm(bled.width), mm(bled.height)), fill=PIECE_COLOUR)
    piece["class"] = "piece"
    group.add(piece)
    if not options.marks:   # a hairline cut guide; with marks (and bleed) the marks say where to cut
        group.add(cut_guide(drawing, trim, "trim"))
    _draw_track(drawing, group, geometry)

    for cell in grid.cells:
        r = geometry.cell_rect(cell)
        rect = drawing.rect((mm(r.x), mm(r.y)), (mm(r.width), mm(r.height)),
                            fill=(fills[layout.assignment[cell]] if fills
                                  else tint(layout.assignment[cell])))
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
    # Rivers end at the border: their round caps, which join them at corners, are clipped there.
    inside = drawing.defs.add(drawing.clipPath(id="inside-border"))
    inside.add(drawing.rect((0, 0), (mm(board.width), mm(board.height))))
    rivers = drawing.g(clip_path="url(#inside-border)", **{"class": "rivers"})
    river_width = mm(max(1.2, 0.07 * c))
    for a, b in layout.river_edges():
        x1, y1, x2, y2 = geometry.edge_segment(a, b)
        line = drawing.line((mm(x1), mm(y1)), (mm(x2), mm(y2)), stroke=RIVER_COLOUR,
                            stroke_width=river_width, stroke_linecap="round")
        line.update({"class": "river", "data-cells": f"{grid.cell_name(a)} {grid.cell_name(b)}"})
        rivers.add(line)
    group.add(rivers)
    border = drawing.rect((0, 0), (mm(board.width), mm(board.height)), fill="none", stroke=INK,
                          stroke_width=0.6)
    border["class"] = "border"
    group.add(border)

    # Sizes in a corner of a cell, clear of the token that will stand on it.
    for territory in layout.territories:
        r = geometry.cell_rect(label_cell(layout, territory))
        group.add(corner_label(drawing, str(territory.size), r, "top-left", 0.24 * c,
                               weight="bold", class_="size-label",
                               **{"data-territory": territory.name}))
        group.add(corner_label(drawing, territory.name, r, "bottom-right", 0.14 * c,
                               class_="territory-name"))

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

    if options.marks:
        for mark in crop_marks(drawing, trim, options.bleed_mm, limit=limit):
            group.add(mark)
    return group


def _draw_track(drawing, group: Group, geometry: BoardGeometry) -> None:
    """The totem's walk through the stones, with arrowheads after each corner pointing the way
    it walks (clockwise unless the variant says otherwise)."""
    board, d, c = geometry.board, geometry.stone_offset, geometry.cell
    track = drawing.rect((mm(-d), mm(-d)), (mm(board.width + 2 * d), mm(board.height + 2 * d)),
                         rx=mm(0.3 * c), fill="none", stroke=TRACK_COLOUR, stroke_width=mm(0.12 * c))
    track["class"] = "track"
    group.add(track)
    s = 0.12 * c
    heads = [((-0.05 * c, -d), (1, 0)), ((board.right + d, -0.05 * c), (0, 1)),
             ((board.right + 0.05 * c, board.bottom + d), (-1, 0)),
             ((-d, board.bottom + 0.05 * c), (0, -1))]
    turn = 1 if geometry.direction == "clockwise" else -1
    for (x, y), (dx, dy) in heads:
        dx, dy = turn * dx, turn * dy
        points = [(x + dx * s, y + dy * s), (x - dx * s - dy * s, y - dy * s + dx * s),
                  (x - dx * s + dy * s, y - dy * s - dx * s)]
        arrow = drawing.polygon([(mm(px), mm(py)) for px, py in points], fill="#8C7B55")
        arrow["class"] = geometry.direction
        group.add(arrow)


def title_lines(layout: Layout, title: str, cell: float) -> list[str]:
    """Short lines (they share a 52 mm column): title, board, sizes, sticks, scale."""
    return [title,
            f"{layout.grid.width} × {layout.grid.height} board, "
            f"{plural(len(layout.territories), 'territory', 'territories')}",
            "sizes " + ", ".join(map(str, layout.size_mix)),
            f"{len(layout.river_edges())} river segments ({STICKS_IN_BOX} sticks)",
            f"cell {cell:g} mm",
            "print at 100 % (actual size)"]


def _draw_scale_bar(drawing, x: float, y: float) -> Group:
    """A bar of known length: measure it to check the printer did not scale the page."""
    bar = drawing.g(**{"class": "scale-bar", "data-length-mm": f"{SCALE_BAR_MM:g}"})
    bar.add(drawing.rect((mm(x), mm(y)), (SCALE_BAR_MM, 2), fill=INK))
    for i in range(0, int(SCALE_BAR_MM) + 1, 10):
        bar.add(drawing.line((mm(x + i), mm(y - 1.5)), (mm(x + i), mm(y + 2)), stroke=INK,
                             stroke_width=0.25))
    bar.add(text(drawing, f"{SCALE_BAR_MM:g} mm at true scale", x, y + 5, 3.0, anchor="start"))
    return bar


def _panel_height(lines: list[str], command: str | None) -> float:
    return max(PANEL_HEIGHT, 13 + 6 * len(lines) + 4.5 * len(_command_lines(command)) + 16)


def _command_lines(command: str | None) -> list[str]:
    """The command in lines that break between options, never inside one."""
    if not command:
        return []
    lines: list[str] = []
    for part in re.findall(r"--\S+(?: (?!--)\S+)?|\S+", command):
        if lines and len(lines[-1]) + 1 + len(part) <= PANEL_WIDTH / (0.55 * 2.8):
            lines[-1] += " " + part
        else:
            lines.append(part)
    return lines


def _draw_title_block(drawing, lines: list[str], box: Rect, compact: bool,
                      command: str | None = None) -> Group:
    """Title, facts and (for a generated board) the command that draws it again, with a scale
    bar: beside the board (a column) or under it (``compact``: two rows)."""
    block = drawing.g(**{"class": "title-block"})
    if compact:   # two lines under the board, scale bar on the right
        room = box.width - SCALE_BAR_MM - GAP
        block.add(text(drawing, lines[0], box.x, box.y + 3, fitting_size(lines[0], room, 5.0),
                       anchor="start", weight="bold"))
        facts = lines[1:] + ([command] if command else [])
        half = (len(facts) + 1) // 2
        for i, part in enumerate(("  ·  ".join(facts[:half]), "  ·  ".join(facts[half:]))):
            block.add(text(drawing, part, box.x, box.y + 9 + 5 * i, fitting_size(part, room, 3.0),
                           anchor="start"))
        block.add(_draw_scale_bar(drawing, box.right - SCALE_BAR_MM, box.y + 2))
        return block
    block.add(text(drawing, lines[0], box.x, box.y + 4, fitting_size(lines[0], box.width, 6.0),
                   anchor="start", weight="bold"))
    y = box.y + 13
    for line in lines[1:]:
        block.add(text(drawing, line, box.x, y, fitting_size(line, box.width, 2.8), anchor="start"))
        y += 6
    for line in _command_lines(command):
        block.add(text(drawing, line, box.x, y, fitting_size(line, box.width, 2.8), anchor="start",
                       class_="command", font_family="monospace"))
        y += 4.5
    block.add(_draw_scale_bar(drawing, box.x, y + 1.5))
    block.add(text(drawing, "kiwara-designer", box.x, box.bottom - 2, 2.6, anchor="start",
                    fill="#8A8070"))
    return block


def board_pages(layout: Layout, options: PrintOptions = PrintOptions(),
                title: str = "Kiwara board", command: str | None = None,
                direction: str = "clockwise") -> list[Page]:
    """The board on one sheet with its title block, or tiled over several sheets when it is
    larger than the paper (an assembly map first, then the tiles: neighbouring sheets overlap by
    ``options.overlap_mm`` and carry the same dashed alignment line). ``command`` (the command
    line that draws this board again) is printed in the title block; ``direction`` is the
    totem's."""
    cell = resolve_cell_mm(layout.grid, options)
    geometry = BoardGeometry(layout.grid, cell, direction)
    trim = geometry.trim
    paper, margin = options.paper, options.margin_mm
    width, height = options.printable
    lines = title_lines(layout, title, cell)
    panel_height = _panel_height(lines, command)
    plan = _sheet_plan(trim, options, panel_height)
    if plan is None:
        return _tiled_pages(layout, geometry, options, lines, command)

    drawing = new_drawing(paper.width_mm, paper.height_mm, lines[0])
    if plan == "panel":
        left = margin + (width - trim.width - GAP - PANEL_WIDTH) / 2
        top = margin + (height - trim.height) / 2
        panel_y = min(max(top + (trim.height - panel_height) / 2, margin),
                      margin + height - panel_height)
        panel = Rect(left + trim.width + GAP, panel_y, PANEL_WIDTH, panel_height)
    else:
        left = margin + (width - trim.width) / 2
        top = margin + (height - trim.height - GAP - STRIP_HEIGHT) / 2
        panel = Rect(left, top + trim.height + GAP, trim.width, STRIP_HEIGHT)
    dx, dy = left - trim.x, top - trim.y
    board = draw_board(drawing, layout, geometry, options,
                       limit=safe_area(paper.width_mm, paper.height_mm).moved(-dx, -dy))
    board.translate(mm(dx), mm(dy))
    drawing.add(board)
    drawing.add(_draw_title_block(drawing, lines, panel, plan == "strip", command))
    return [Page("board", paper.width_mm, paper.height_mm, drawing.tostring(), trim.moved(dx, dy),
                 options.bleed_mm)]


def _tiled_pages(layout: Layout, geometry: BoardGeometry, options: PrintOptions,
                 lines: list[str], command: str | None) -> list[Page]:
    paper, margin = options.paper, options.margin_mm
    width, height = options.printable
    extent = geometry.extent(options)
    window_w, window_h = width, height - GAP - STRIP_HEIGHT
    xs = tile_starts(extent.width, window_w, options.overlap_mm)
    ys = tile_starts(extent.height, window_h, options.overlap_mm)
    # Alignment lines in the middle of each overlap, in board-local coordinates.
    cut_xs = [extent.x + (xs[i + 1] + xs[i] + window_w) / 2 for i in range(len(xs) - 1)]
    cut_ys = [extent.y + (ys[i + 1] + ys[i] + window_h) / 2 for i in range(len(ys) - 1)]
    total = len(xs) * len(ys)
    if total > MAX_TILED_PAGES:   # each page holds the whole (clipped) board: GBs of SVG
        raise PrintError.about("the board at {cell:g} mm cells needs {total:,} pages of {name}, "
                               "more than {most}; use a smaller {cell_mm} or a larger {paper}",
                               cell=geometry.cell, total=total, name=paper.name,
                               most=MAX_TILED_PAGES)
    win_w, win_h = min(window_w, extent.width), min(window_h, extent.height)
    windows = []   # (number, row, column, board-local window)
    pages = []
    for j, y0 in enumerate(ys):
        for i, x0 in enumerate(xs):
            number = j * len(xs) + i + 1
            window = Rect(extent.x + x0, extent.y + y0, win_w, win_h)
            windows.append((number, j, i, window))
            drawing = new_drawing(paper.width_mm, paper.height_mm, lines[0])
            clip = drawing.defs.add(drawing.clipPath(id=f"window{number}"))
            clip.add(drawing.rect((mm(margin), mm(margin)), (mm(win_w), mm(win_h))))
            shown = drawing.g(clip_path=f"url(#window{number})")
            tx, ty = margin - window.x, margin - window.y
            board = draw_board(drawing, layout, geometry, options)
            board.translate(mm(tx), mm(ty))
            shown.add(board)
            # after the board, so above its rivers
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
                                          strip, True))
            visible = geometry.trim.intersection(window)
            pages.append(Page(f"board-{number}", paper.width_mm, paper.height_mm, drawing.tostring(),
                              visible.moved(tx, ty) if visible else None, options.bleed_mm))
    return [_assembly_map(layout, geometry, options, lines, command, windows, cut_xs, cut_ys)] + pages


def _assembly_map(layout: Layout, geometry: BoardGeometry, options: PrintOptions,
                  lines: list[str], command: str | None, windows, cut_xs, cut_ys) -> Page:
    """The whole board small, with each tile's window outlined and numbered, and the shared
    alignment lines: which sheet goes where."""
    paper, margin = options.paper, options.margin_mm
    width, height = options.printable
    drawing = new_drawing(paper.width_mm, paper.height_mm, f"{lines[0]}: assembly map")
    area = Rect(margin, margin + 12, width, height - 12 - GAP - STRIP_HEIGHT)
    whole = windows[0][3]
    for _, _, _, window in windows[1:]:
        whole = whole.union(window)
    scale = min(area.width / whole.width, area.height / whole.height)
    dx = area.x + (area.width - whole.width * scale) / 2 - whole.x * scale
    dy = area.y + (area.height - whole.height * scale) / 2 - whole.y * scale
    drawing.add(text(drawing, f"{lines[0]}: assembly map of {len(windows)} pages", margin, margin + 3,
                     5.0, anchor="start", weight="bold"))
    placed = drawing.g(transform=f"translate({mm(dx):g} {mm(dy):g}) scale({scale:.6f})",
                       **{"class": "assembly-map"})
    placed.add(draw_board(drawing, layout, geometry, PrintOptions(paper)))
    for axis, at_list in (("x", cut_xs), ("y", cut_ys)):
        for at in at_list:
            start, end = (whole.y, whole.bottom) if axis == "x" else (whole.x, whole.right)
            placed.add(_overlap_mark(drawing, axis, at, at, start, end, width=0.5 / scale))
    for number, row, column, window in windows:
        outline = drawing.rect((mm(window.x), mm(window.y)), (mm(window.width), mm(window.height)),
                               fill="none", stroke=GUIDE_COLOUR, stroke_width=mm(0.4 / scale))
        outline.update({"class": "tile", "data-page": str(number)})
        placed.add(outline)
        cx, cy = window.x + window.width / 2, window.y + window.height / 2
        placed.add(text(drawing, str(number), cx, cy, 14 / scale, weight="bold", fill=GUIDE_COLOUR,
                        class_="tile-number", stroke="#FFFFFF", stroke_width=mm(0.6 / scale)))
    drawing.add(placed)
    strip = Rect(margin, margin + height - STRIP_HEIGHT, width, STRIP_HEIGHT)
    drawing.add(_draw_title_block(drawing, [lines[0], lines[2], lines[4], TILING_HELP,
                                            "pink frames: the pages, numbered as printed"],
                                  strip, True, command))
    return Page("board-map", paper.width_mm, paper.height_mm, drawing.tostring())


def _overlap_mark(drawing, axis: str, board_at: float, page_at: float, start: float, end: float,
                  width: float = 0.5):
    """A dashed alignment line across the overlap shared by two neighbouring sheets, on a
    white casing so that it shows on a river too."""
    if axis == "x":
        points = ((mm(page_at), mm(start)), (mm(page_at), mm(end)))
    else:
        points = ((mm(start), mm(page_at)), (mm(end), mm(page_at)))
    mark = drawing.g(**{"class": "overlap-mark", "data-axis": axis,
                        "data-board-mm": f"{mm(board_at):g}"})
    mark.add(drawing.line(*points, stroke="#FFFFFF", stroke_width=mm(2.4 * width)))
    mark.add(drawing.line(*points, stroke=GUIDE_COLOUR, stroke_width=mm(width),
                          stroke_dasharray=f"{mm(6 * width):g},{mm(4 * width):g}"))
    return mark
