"""Paper, print options and the arithmetic of fitting a drawing on a sheet (all in millimetres)."""
from __future__ import annotations

import math
import re
from dataclasses import dataclass

from ..core.errors import KiwaraError


class PrintError(KiwaraError):
    """A print request that cannot be honoured: unknown paper, impossible sizes, missing extra."""


@dataclass(frozen=True)
class Paper:
    """A sheet of ``width_mm`` × ``height_mm``, as it lies on the table (landscape if wider)."""

    name: str
    width_mm: float
    height_mm: float

    @classmethod
    def parse(cls, text: str) -> "Paper":
        """``a4`` or ``letter`` (landscape, since boards are wider than high) or ``WxH`` in mm."""
        key = text.strip().lower()
        if key in NAMED_PAPERS:
            return NAMED_PAPERS[key]
        match = re.fullmatch(r"(\d+(?:\.\d+)?)\s*[x×]\s*(\d+(?:\.\d+)?)\s*(?:mm)?", key)
        if not match:
            raise PrintError(f"unknown paper {text!r}: use a4, letter or WIDTHxHEIGHT in mm (e.g. 420x297)")
        width, height = float(match[1]), float(match[2])
        if not (50 <= width <= 5000 and 50 <= height <= 5000):
            raise PrintError(f"paper {text!r}: each side must be 50..5000 mm")
        return cls(f"{width:g}x{height:g}mm", width, height)


A4 = Paper("a4", 297.0, 210.0)
LETTER = Paper("letter", 279.4, 215.9)
NAMED_PAPERS = {"a4": A4, "letter": LETTER}


BACKS = ("fold", "duplex")


@dataclass(frozen=True)
class PrintOptions:
    """How to print: ``cell_mm=None`` picks the largest whole-mm cell that fits (see
    :func:`kiwara_designer.games.kiwara.printing.board.default_cell_mm`; the same whatever the other options).
    ``bleed_mm`` extends every piece's background beyond its cut line so a slightly-off cut
    leaves no white edge; crop marks show where the cut lines are (drawn whenever there is
    bleed, since the cut is then invisible). Cut lines stay inside the margins; bleed and marks
    run into them. ``backs`` puts the backs of tokens and cards beside the fronts, to fold
    (``"fold"``), or on the next page, mirrored for double-sided printing (``"duplex"``).
    ``overlap_mm`` is how much tiled pages share. ``gutter_mm`` spaces the pieces of card and
    token sheets apart (0: they share cut lines), so that a cut a little off never leaves a
    sliver of the neighbour; each piece then has cut lines of its own."""

    paper: Paper = A4
    cell_mm: float | None = None
    crop_marks: bool = False
    bleed_mm: float = 0.0
    margin_mm: float = 10.0
    overlap_mm: float = 12.0
    backs: str = "fold"
    gutter_mm: float = 0.0

    def __post_init__(self) -> None:
        if self.cell_mm is not None and not (5 <= self.cell_mm <= 500):
            raise PrintError(f"cell size must be 5..500 mm, got {self.cell_mm:g}")
        if not 0 <= self.bleed_mm <= 20:
            raise PrintError(f"bleed must be 0..20 mm, got {self.bleed_mm:g}")
        if not 0 <= self.margin_mm <= min(self.paper.width_mm, self.paper.height_mm) / 4:
            raise PrintError(f"margin {self.margin_mm:g} mm does not suit {self.paper.name} paper")
        if not 0 <= self.gutter_mm <= 20:
            raise PrintError(f"gutter must be 0..20 mm, got {self.gutter_mm:g}")
        if self.backs not in BACKS:
            raise PrintError(f"backs must be one of {', '.join(BACKS)}, got {self.backs!r}")

    @property
    def marks(self) -> bool:
        """Whether cut lines are shown by crop marks (asked for, or implied by bleed)."""
        return self.crop_marks or self.bleed_mm > 0

    @property
    def printable(self) -> tuple[float, float]:
        """Width and height inside the margins."""
        return (self.paper.width_mm - 2 * self.margin_mm, self.paper.height_mm - 2 * self.margin_mm)


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    width: float
    height: float

    @property
    def right(self) -> float:
        return self.x + self.width

    @property
    def bottom(self) -> float:
        return self.y + self.height

    def grown(self, by: float) -> "Rect":
        return Rect(self.x - by, self.y - by, self.width + 2 * by, self.height + 2 * by)

    def moved(self, dx: float, dy: float) -> "Rect":
        return Rect(self.x + dx, self.y + dy, self.width, self.height)

    def union(self, other: "Rect") -> "Rect":
        x, y = min(self.x, other.x), min(self.y, other.y)
        return Rect(x, y, max(self.right, other.right) - x, max(self.bottom, other.bottom) - y)

    def intersection(self, other: "Rect") -> "Rect | None":
        x, y = max(self.x, other.x), max(self.y, other.y)
        right, bottom = min(self.right, other.right), min(self.bottom, other.bottom)
        return Rect(x, y, right - x, bottom - y) if right > x and bottom > y else None

    def contains(self, other: "Rect", tolerance: float = 1e-6) -> bool:
        return (other.x >= self.x - tolerance and other.y >= self.y - tolerance
                and other.right <= self.right + tolerance and other.bottom <= self.bottom + tolerance)


def tile_starts(extent: float, window: float, overlap: float) -> list[float]:
    """Offsets of the windows covering ``extent``, spread evenly so neighbours share at least
    ``overlap`` (one window if it fits)."""
    if extent <= window + 1e-9:
        return [0.0]
    if window <= overlap:
        raise PrintError.about("the page's printable area ({window:g} mm) is too small to tile a "
                               "board with {overlap:g} mm overlap; use a larger {paper} or a "
                               "smaller {cell_mm}", window=window, overlap=overlap)
    count = math.ceil((extent - overlap) / (window - overlap) - 1e-9)
    count = max(count, 2)
    step = (extent - window) / (count - 1)
    return [i * step for i in range(count)]


def mm(value: float) -> float:
    """Round for the SVG text: a thousandth of a millimetre is far below printer precision."""
    return round(value, 3) + 0.0
