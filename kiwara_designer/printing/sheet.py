"""What every printed sheet shares: the page value, ink, font, the mm document and text."""
from __future__ import annotations

from dataclasses import dataclass

import svgwrite

from .page import Paper, mm

INK = "#2B2118"
FONT = "sans-serif"   # a generic family: every renderer has one, nothing to embed or fetch


@dataclass(frozen=True)
class Page:
    """One printed sheet: its name (used for file names), size in mm and SVG text."""

    name: str
    width_mm: float
    height_mm: float
    svg: str


def new_drawing(paper: Paper, title: str) -> svgwrite.Drawing:
    w, h = mm(paper.width_mm), mm(paper.height_mm)
    drawing = svgwrite.Drawing(size=(f"{w:g}mm", f"{h:g}mm"), viewBox=f"0 0 {w:g} {h:g}",
                                profile="full", debug=False)
    drawing.set_desc(title=title)
    return drawing


def text(drawing, content: str, x: float, y: float, size: float, *, anchor: str = "middle",
         weight: str = "normal", fill: str = INK, class_: str | None = None, **extra):
    """Text whose visual centre (anchor='middle') or left end sits at (x, y): the baseline is
    lowered by ~0.35 em, which needs no dominant-baseline support from the renderer."""
    element = drawing.text(content, insert=(mm(x), mm(y + 0.35 * size)), font_size=mm(size),
                           font_family=FONT, text_anchor=anchor, font_weight=weight, fill=fill,
                           **extra)
    if class_:
        element["class"] = class_
    return element
