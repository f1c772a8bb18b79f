"""What every printed sheet shares: the page value, ink, font, the mm document and text."""
from __future__ import annotations

from dataclasses import dataclass

import svgwrite

from .page import Rect, mm

INK = "#2B2118"
FONT = "sans-serif"   # a generic family: every renderer has one, nothing to embed or fetch
CROP_GAP, CROP_LENGTH = 2.0, 5.0   # a crop mark starts this far outside the bleed
PAPER_EDGE = 5.0                   # ... and stops this far from the paper's edge (printers
                                   # with 4-5 mm unprintable margins would lose the rest)
CUT_GUIDE = "#A09A90"   # the hairline showing a cut line when there are no crop marks


@dataclass(frozen=True)
class Page:
    """One printed sheet: its name (used for file names), size in mm and SVG text; ``trim`` is
    the bounding box of its cut lines on the page (None for a sheet with nothing to cut) and
    ``bleed_mm`` how far the pieces' backgrounds run past them (PDF TrimBox and BleedBox)."""

    name: str
    width_mm: float
    height_mm: float
    svg: str
    trim: Rect | None = None
    bleed_mm: float = 0.0


def new_drawing(width_mm: float, height_mm: float, title: str) -> svgwrite.Drawing:
    w, h = mm(width_mm), mm(height_mm)
    drawing = svgwrite.Drawing(size=(f"{w:g}mm", f"{h:g}mm"), viewBox=f"0 0 {w:g} {h:g}",
                                profile="full", debug=False)
    drawing.set_desc(title=title)
    return drawing


def text(drawing, content: str, x: float, y: float, size: float, *, anchor: str = "middle",
         weight: str = "normal", fill: str = INK, class_: str | None = None,
         font_family: str = FONT, **extra):
    """Text whose visual centre (anchor='middle') or left end sits at (x, y): the baseline is
    lowered by ~0.35 em, which needs no dominant-baseline support from the renderer."""
    element = drawing.text(content, insert=(mm(x), mm(y + 0.35 * size)), font_size=mm(size),
                           font_family=font_family, text_anchor=anchor, font_weight=weight, fill=fill,
                           **extra)
    if class_:
        element["class"] = class_
    return element


def crop_marks(drawing, trim: Rect, bleed: float, *, xs=(), ys=(), limit: Rect | None = None,
               sides: str = "tblr"):
    """Crop marks on the extensions of the cut lines, outside the bleed: at the vertical cut
    lines ``xs`` above and below ``trim``, at the horizontal ones ``ys`` left and right of it
    (the trim's own sides when not given). Each mark is cut short to stay inside ``limit``
    (the paper less a strip printers cannot reach), and left out when nothing remains;
    ``sides`` says which of the top, bottom, left and right sides get marks."""
    xs, ys = xs or (trim.x, trim.right), ys or (trim.y, trim.bottom)
    start, end = bleed + CROP_GAP, bleed + CROP_GAP + CROP_LENGTH
    bounds = limit or Rect(-1e9, -1e9, 2e9, 2e9)
    top, bottom = max(trim.y - end, bounds.y), min(trim.bottom + end, bounds.bottom)
    left, right = max(trim.x - end, bounds.x), min(trim.right + end, bounds.right)
    # (side, x1, y1, x2, y2, room): room is how far the mark can reach outwards
    segments = [m for x in xs for m in (
        ("t", x, trim.y - start, x, top, trim.y - start - top),
        ("b", x, trim.bottom + start, x, bottom, bottom - trim.bottom - start))]
    segments += [m for y in ys for m in (
        ("l", trim.x - start, y, left, y, trim.x - start - left),
        ("r", trim.right + start, y, right, y, right - trim.right - start))]
    marks = []
    for side, x1, y1, x2, y2, room in segments:
        if side not in sides or room < 1.0:   # under a millimetre of room: no mark
            continue
        line = drawing.line((mm(x1), mm(y1)), (mm(x2), mm(y2)), stroke="#000000", stroke_width=0.25)
        line["class"] = "crop-mark"
        marks.append(line)
    return marks


def cut_guide(drawing, trim: Rect, class_: str = "cut-guide"):
    """A grey hairline on ``trim``'s cut line, for scissors when there are no crop marks."""
    guide = drawing.rect((mm(trim.x), mm(trim.y)), (mm(trim.width), mm(trim.height)), fill="none",
                         stroke=CUT_GUIDE, stroke_width=0.2)
    guide["class"] = class_
    return guide


def safe_area(width_mm: float, height_mm: float) -> Rect:
    """Where crop marks may go: the paper less :data:`PAPER_EDGE` all round."""
    return Rect(PAPER_EDGE, PAPER_EDGE, width_mm - 2 * PAPER_EDGE, height_mm - 2 * PAPER_EDGE)


def wrap(content: str, width: float, size: float) -> list[str]:
    """``content`` broken into lines at spaces so each fits ``width`` mm at font ``size``
    (a sans-serif glyph averages about 0.5 em in running text)."""
    per_line = max(1, int(width / (0.5 * size)))
    lines: list[str] = []
    for word in content.split():
        if lines and len(lines[-1]) + 1 + len(word) <= per_line:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


# Widths in em, an upper bound for DejaVu Sans (the sans-serif cairo renders with on most systems)
# in book and bold weights alike, by character class; narrower sans-serif fonts (Liberation,
# Helvetica, Arial) stay inside them too. Layout that must keep clear of something measures
# with these, so it errs on the wide side.
_NARROW = set("'ijlIJ.,:;·’|/\\ ")
_MEDIUM = set("f-!()[]tr_`–\"*")
_WIDE = set("ABCDGHKNOQRUVXYZÀÉ#+<>=^~×&")
_WIDEST = set("MmWw%@—")


def char_width(char: str) -> float:
    """A character's advance in em (see above): 0.40 narrow, 0.55, 0.75 most, 0.90, 1.10."""
    if char in _NARROW:
        return 0.40
    if char in _MEDIUM:
        return 0.55
    if char in _WIDE:
        return 0.90
    if char in _WIDEST:
        return 1.10
    return 0.75


def text_width(content: str, size: float) -> float:
    """A conservative width in mm of ``content`` at font ``size`` mm (never less than cairo's
    DejaVu Sans, book or bold)."""
    return size * sum(char_width(c) for c in content)


def text_box(x: float, y: float, content: str, size: float, anchor: str = "middle") -> Rect:
    """The box ``content`` drawn by :func:`text` at (x, y) can ink: the measured width, from the
    ascender (0.95 em above the baseline) to the descender (0.25 em below)."""
    width = text_width(content, size)
    left = {"start": x, "middle": x - width / 2, "end": x - width}[anchor]
    baseline = y + 0.35 * size
    return Rect(left, baseline - 0.95 * size, width, 1.2 * size)


def wrap_measured(content: str, width: float, size: float) -> list[str]:
    """``content`` broken at spaces into lines each at most ``width`` mm by :func:`text_width`
    (a word longer than the width stands alone)."""
    lines: list[str] = []
    for word in content.split():
        if lines and text_width(lines[-1] + " " + word, size) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def fitting_size(content: str, width: float, largest: float) -> float:
    """Font size at which a line fits ``width`` mm (a sans-serif glyph is < 0.62 em wide)."""
    return min(largest, width / (0.62 * max(len(content), 1)))
