"""Card sheets: pieces of one size on a grid of shared straight cut lines, fronts and backs.

Any game's cards or tokens print through here, so every sheet cuts the same way:

- pieces abut on a grid, so one straight cut (guillotine, or ruler and knife) separates two
  rows or two columns; the grid's outer sides get ``options.bleed_mm`` of background;
- with ``options.marks`` (crop marks asked for, or bleed) crop marks extend every cut line
  outside the grid, cut short near the paper's edge; without, hairlines show the cut lines;
- ``options.backs == "fold"``: fronts left of a dashed fold line, backs mirrored on the right
  (fold, glue, cut); ``"duplex"``: a page of fronts, then a page of backs mirrored left to right
  for double-sided printing, flipped on the side edge;
- the sheet turns to portrait when that holds more pieces (63 × 88 mm cards in duplex: nine
  on A4 portrait, 3 × 3; eight on Letter, 4 × 2 as it lies, since three rows need 264 mm and
  Letter's 279.4 less its margins leaves 259 mm; four in fold mode); more pieces go on more
  pages.

The small API:

``Card(title, body=(), value="", colour=..., ink=..., art=None, back=CardBack(), data=())``
    a card's content: title on top, ``art(drawing, box)`` drawn into the art box (returns an
    SVG element; e.g. :func:`kiwara_designer.games.kiwara.printing.art.emblem`), ``value`` large under it,
    ``body`` paragraphs wrapped below; ``colour`` is its background (into the bleed); ``data``
    adds ``data-*`` attributes to the card's group.
``card_pages(cards, options, name="cards", heading=...)``
    the pages of 63 × 88 mm cards (``size=`` for another card size).
``Piece(front, back, group="")`` and ``piece_pages(pieces, size, options, name, heading)``
    the layer beneath, for pieces that draw themselves: ``front(drawing, trim, bleed)`` and
    ``back(...)`` get the piece's cut rectangle and its background rectangle (the cut rectangle
    grown by the bleed on sides without a neighbour) and return an element; a change of
    ``group`` starts a new row (each player's tokens on rows of their own).

>>> from kiwara_designer.printing import PrintOptions, A4
>>> pages = card_pages([Card("Okapi", ("+5 at the end",), value="+5")] * 9,
...                    PrintOptions(A4, backs="duplex", bleed_mm=3))
>>> [(p.name, p.width_mm, p.height_mm) for p in pages]
[('cards-fronts', 210.0, 297.0), ('cards-backs', 210.0, 297.0)]
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from .page import PrintError, PrintOptions, Rect, mm
from .sheet import (INK, PAPER_EDGE, Page, crop_marks, cut_guide, new_drawing, safe_area, text,
                    text_width, wrap, wrap_measured)

CARD_SIZE = (63.0, 88.0)      # the usual poker-card size
HEADER_BAND = 8.0             # the sheet's instructions sit in the top margin, or in this band
HEADER_SIZE = 3.4             # their font size: 2.5 mm capitals (DejaVu's are 0.73 em)
HEADER_LEADING = 1.25
SMALLEST_HEADER = 2.4         # when a full sheet leaves the instructions little room
INDEX_SIZE = 4.0              # a card's corner index (G1), read when cards are held fanned
FOLD_CLEARANCE = 3.0          # least room between the fold line and a piece's cut line

Draw = Callable[[Any, Rect, Rect], Any]


@dataclass(frozen=True)
class Piece:
    """A piece that draws itself: ``front(drawing, trim, bleed)`` and ``back(...)`` (None for a
    blank back) return SVG elements; ``group`` changes start a new row."""

    front: Draw
    back: Draw | None = None
    group: str = ""


@dataclass(frozen=True)
class CardBack:
    label: str = "KIWARA"
    colour: str = "#4A3325"
    ink: str = "#D8C9A0"
    text_colour: str = "#F5EBD3"


@dataclass(frozen=True)
class Card:
    """A card's content; see the module docstring."""

    title: str
    body: tuple[str, ...] = ()
    value: str = ""
    colour: str = "#F4EEDC"
    ink: str = INK
    art: Callable[[Any, Rect], Any] | None = None
    back: CardBack = CardBack()
    data: tuple[tuple[str, str], ...] = ()
    index: str = ""          # in the top-left corner and, turned, the bottom-right one


    def piece(self) -> Piece:
        return Piece(self._front, self._back)

    def _front(self, drawing, trim: Rect, bleed: Rect):
        group = drawing.g(**{"class": "card front", **{f"data-{k}": v for k, v in self.data}})
        group.add(_rect(drawing, bleed, fill=self.colour))
        inset = 0.05 * trim.width
        group.add(_rect(drawing, trim.grown(-inset), fill="none", stroke=self.ink, stroke_width=0.5,
                        rx=2))
        room = trim.width * 0.8
        if self.index:
            corner = text_width(self.index, INDEX_SIZE)
            room = trim.width - 2 * (inset + 1.2 + corner + 1.0)
            for turned in (False, True):
                x, y = trim.x + inset + 1.2, trim.y + inset + 1.5 + INDEX_SIZE / 2
                index = text(drawing, self.index, x, y, INDEX_SIZE, anchor="start",
                             weight="bold", fill=self.ink, class_="card-index")
                if turned:
                    index.rotate(180, center=(mm(trim.x + trim.width / 2),
                                              mm(trim.y + trim.height / 2)))
                group.add(index)
        size = min(0.11 * trim.width, room / text_width(self.title, 1.0))
        group.add(text(drawing, self.title, trim.x + trim.width / 2, trim.y + 0.13 * trim.height,
                       size, weight="bold", fill=self.ink, class_="card-title"))
        art_box = Rect(trim.x + 0.2 * trim.width, trim.y + 0.2 * trim.height, 0.6 * trim.width,
                       0.36 * trim.height)
        if self.art:
            group.add(self.art(drawing, art_box))
        y = art_box.bottom + 0.07 * trim.height
        if self.value:
            group.add(text(drawing, self.value, trim.x + trim.width / 2, y, 0.16 * trim.width,
                           weight="bold", fill=self.ink, class_="card-value"))
            y += 0.1 * trim.height
        size = 0.05 * trim.width
        for paragraph in self.body:
            for line in wrap(paragraph, trim.width - 4 * inset, size):
                group.add(text(drawing, line, trim.x + trim.width / 2, y, size, fill=self.ink,
                               class_="card-text"))
                y += 1.3 * size
        return group

    def _back(self, drawing, trim: Rect, bleed: Rect):
        back = self.back
        group = drawing.g(**{"class": "card back"})
        group.add(_rect(drawing, bleed, fill=back.colour))
        step = 0.05 * trim.width
        for k in range(1, 6):
            group.add(_rect(drawing, trim.grown(-step * k), fill="none", stroke=back.ink,
                            stroke_width=0.5, rx=2))
        # the label inside the innermost frame, 1.5 mm clear of it
        room = trim.width - 2 * (5 * step + 1.5)
        size = min(0.11 * trim.width, room / text_width(back.label, 1.0))
        group.add(text(drawing, back.label, trim.x + trim.width / 2, trim.y + trim.height / 2,
                       size, weight="bold", fill=back.text_colour, class_="back-label"))
        return group


def card_pages(cards: Sequence[Card], options: PrintOptions, *, name: str = "cards",
               heading: str = "Cards", size: tuple[float, float] = CARD_SIZE) -> list[Page]:
    return piece_pages([card.piece() for card in cards], size, options, name=name, heading=heading)


def _rect(drawing, r: Rect, **attributes):
    return drawing.rect((mm(r.x), mm(r.y)), (mm(r.width), mm(r.height)), **attributes)


@dataclass(frozen=True)
class _Plan:
    """How pieces sit on one orientation of the paper."""

    width: float         # the page
    height: float
    columns: int
    rows: int
    top: float           # where the printable area starts below the instructions

    @property
    def capacity(self) -> int:
        return self.columns * self.rows


def _plan(size: tuple[float, float], options: PrintOptions, width: float, height: float) -> _Plan:
    w, h = size
    g = options.gutter_mm
    margin = options.margin_mm
    top = margin + max(0.0, HEADER_BAND - margin)
    across = width - 2 * margin
    if options.backs == "fold":   # each half holds a grid, clear of the fold
        across = width / 2 - margin - max(FOLD_CLEARANCE, options.bleed_mm + 1)
    return _Plan(width, height, max(0, math.floor((across + g) / (w + g) + 1e-9)),
                 max(0, math.floor((height - top - margin + g) / (h + g) + 1e-9)), top)


def _rows(pieces: Sequence[Piece], columns: int) -> list[list[Piece]]:
    rows: list[list[Piece]] = []
    for piece in pieces:
        if not rows or len(rows[-1]) == columns or rows[-1][-1].group != piece.group:
            rows.append([])
        rows[-1].append(piece)
    return rows


def piece_pages(pieces: Sequence[Piece], size: tuple[float, float], options: PrintOptions, *,
                name: str, heading: str) -> list[Page]:
    """The pages holding ``pieces`` of ``size`` (width, height) mm; see the module docstring."""
    paper = options.paper
    plans = [_plan(size, options, paper.width_mm, paper.height_mm),
             _plan(size, options, paper.height_mm, paper.width_mm)]
    for k, plan in enumerate(plans):   # a row less when a full sheet leaves the text no room
        rows = plan.rows
        while rows > 1 and not _header_fits(plan, size, options, heading, rows):
            rows -= 1
        plans[k] = dataclasses.replace(plan, rows=rows)
    plan = max(plans, key=lambda p: p.capacity)   # the first, the paper as given, on a tie
    if plan.capacity == 0:
        raise PrintError(f"{paper.name} paper is too small for {size[0]:g} × {size[1]:g} mm "
                         f"pieces ({heading.lower()}) with {options.margin_mm:g} mm margins")
    rows = _rows(pieces, plan.columns)
    sheets = [rows[i:i + plan.rows] for i in range(0, len(rows), plan.rows)]
    pages = []
    for number, sheet in enumerate(sheets, start=1):
        stem = name if len(sheets) == 1 else f"{name}-{number}"
        if options.backs == "fold":
            pages.append(_sheet(sheet, size, options, plan, stem, heading, "fold"))
        else:
            pages += [_sheet(sheet, size, options, plan, f"{stem}-fronts", heading, "fronts"),
                      _sheet(sheet, size, options, plan, f"{stem}-backs", heading, "backs")]
    return pages


def _header_room(plan: _Plan, options: PrintOptions, grid_h: float) -> float:
    """The height the instructions may take: down to 1 mm above the lowest the grid can sit."""
    lowest = max(plan.top, plan.height - options.margin_mm - grid_h)
    return lowest - options.bleed_mm - 1 - PAPER_EDGE


def _header(line: str, width: float, room: float) -> tuple[float, list[str]]:
    """The instructions' font and lines: :data:`HEADER_SIZE` on as many lines as ``room``
    holds, smaller only when it is short (down to :data:`SMALLEST_HEADER`; the lines may then
    not fit, see :func:`_header_fits`)."""
    font = HEADER_SIZE
    while True:
        lines = wrap_measured(line, width, font)
        if len(lines) * font * HEADER_LEADING <= room or font <= SMALLEST_HEADER:
            return font, lines
        font = round(font - 0.1, 2)


def _header_fits(plan: _Plan, size: tuple[float, float], options: PrintOptions, heading: str,
                 rows: int) -> bool:
    """Whether a sheet of ``rows`` full rows leaves the instructions room above its grid."""
    grid_h = rows * size[1] + (rows - 1) * options.gutter_mm
    room = _header_room(plan, options, grid_h)
    sides = ("fold",) if options.backs == "fold" else ("fronts", "backs")
    for side in sides:
        font, lines = _header(instructions(heading, side, plan.width, plan.height),
                              plan.width - 2 * options.margin_mm, room)
        if len(lines) * font * HEADER_LEADING > room + 1e-9:
            return False
    return True


INSTRUCTIONS = {
    "fold": "fold on the dashed line (backs behind fronts; glue if you like), cut on the lines",
    "fronts": "print double-sided, flipping on the {edge} edge; backs on the next page",
    "backs": "the backs of the previous page, mirrored to fall behind their fronts",
}


def instructions(heading: str, side: str, width: float, height: float) -> str:
    """The line at the top of a sheet: what it is and how to print, fold and cut it."""
    edge = "long" if height > width else "short"   # the side edge of the sheet as printed
    return f"{heading}: {INSTRUCTIONS[side].format(edge=edge)}."


def _sheet(rows: list[list[Piece]], size: tuple[float, float], options: PrintOptions, plan: _Plan,
           name: str, heading: str, side: str) -> Page:
    w, h = size
    g = options.gutter_mm
    bleed, width, height = options.bleed_mm, plan.width, plan.height
    margin = options.margin_mm
    drawing = new_drawing(width, height, heading)
    columns = plan.columns
    grid_w = columns * w + (columns - 1) * g
    grid_h = len(rows) * h + (len(rows) - 1) * g
    # The instructions above the grid, from PAPER_EDGE down: HEADER_SIZE on as many lines as the
    # room above the lowest the grid can sit allows, smaller only when that room is short.
    font, lines = _header(instructions(heading, side, width, height), width - 2 * margin,
                          _header_room(plan, options, grid_h))
    for i, part in enumerate(lines):
        drawing.add(text(drawing, part, margin, PAPER_EDGE + (i + 0.5) * font * HEADER_LEADING,
                         font, anchor="start", class_="sheet-title"))
    header_bottom = PAPER_EDGE + len(lines) * font * HEADER_LEADING + 1
    if side == "fold":
        x0 = width / 2 - max(FOLD_CLEARANCE, bleed + 1) - grid_w
    else:
        x0 = (width - grid_w) / 2      # centred: the mirrored backs fall on the same grid
    # centred between the instructions and the paper's foot (equal room for the marks), inside
    # the margins
    y0 = header_bottom + (height - PAPER_EDGE - header_bottom - grid_h) / 2
    y0 = max(plan.top, header_bottom + bleed, min(y0, height - margin - grid_h))
    grid = Rect(x0, y0, grid_w, grid_h)
    inner = min(bleed, g / 2)    # bleed between neighbours: none without a gutter

    def filled(r: int, c: int) -> bool:
        return 0 <= r < len(rows) and 0 <= c < len(rows[r])

    trims = []
    for r, row in enumerate(rows):
        for c, piece in enumerate(row):
            trim = Rect(x0 + c * (w + g), y0 + r * (h + g), w, h)
            grow = [inner if filled(r, c - 1) else bleed, inner if filled(r - 1, c) else bleed,
                    inner if filled(r, c + 1) else bleed, inner if filled(r + 1, c) else bleed]
            if side != "backs":
                drawing.add(piece.front(drawing, trim, _grown(trim, *grow)))
            mirrored = Rect(width - trim.right, trim.y, w, h)
            if side != "fronts" and piece.back is not None:
                left, top_, right, bottom = grow
                drawing.add(piece.back(drawing, mirrored, _grown(mirrored, right, top_, left, bottom)))
            trims += {"fold": [trim, mirrored], "fronts": [trim], "backs": [mirrored]}[side]
    # every cut line: shared by neighbours without a gutter, two per gutter with one
    xs = sorted({round(x0 + k * (w + g) + e, 6) for k in range(columns) for e in (0, w)})
    ys = sorted({round(y0 + k * (h + g) + e, 6) for k in range(len(rows)) for e in (0, h)})
    if side == "backs":
        xs, grid = [width - x for x in reversed(xs)], Rect(width - grid.right, grid.y, grid_w, grid_h)
    if options.marks:   # marks stay clear of the instructions and the paper's edge
        safe = safe_area(width, height)
        limit = Rect(safe.x, header_bottom, safe.width, safe.bottom - header_bottom)
        for mark in crop_marks(drawing, grid, bleed, xs=xs, ys=ys, limit=limit,
                               sides="tbl" if side == "fold" else "tblr"):
            drawing.add(mark)
    elif side != "backs":
        for trim in trims[::2] if side == "fold" else trims:
            drawing.add(cut_guide(drawing, trim))
    if side == "fold":
        fold = drawing.line((mm(width / 2), mm(grid.y)), (mm(width / 2), mm(grid.bottom)),
                            stroke="#888888", stroke_width=0.3, stroke_dasharray="2,2")
        fold["class"] = "fold-line"
        drawing.add(fold)
    box = trims[0]
    for trim in trims[1:]:
        box = box.union(trim)
    return Page(name, width, height, drawing.tostring(), box, bleed)


def _grown(r: Rect, left: float, top: float, right: float, bottom: float) -> Rect:
    return Rect(r.x - left, r.y - top, r.width + left + right, r.height + top + bottom)
