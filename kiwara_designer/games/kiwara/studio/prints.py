"""Kiwara's Print view in the studio: the board (and the print-and-play kit) as ``kiwara export``
writes them, as bytes, and the preview of any one of its pages.

A print's pages are built once for a set of options and kept (the preview turns pages and the
downloads follow it without building them again); a print of more than
:data:`STUDIO_MAX_PAGES` pages (a board tiled over many small sheets) is refused before any page
is built: ``kiwara export`` is there for those."""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ....core.checks import (RequestError, need_bool, need_choice, need_int, need_number,
                            need_text)
from ....core.io import BUILTIN_PREFIX
from ....printing import BACKS, PNG_DPI, Paper, PrintOptions, render_pdf, render_png
from ....printing.page import PrintError, tile_starts
from ....printing.sheet import Page
from ..printing import print_set
from ..printing.board import GAP, STRIP_HEIGHT, BoardGeometry, resolve_cell_mm
from ..variant import KiwaraVariant
from .boards import board_from_rows

PRINT_FORMATS = {"svg": "image/svg+xml", "pdf": "application/pdf", "png": "image/png"}
# a download link's query, as print_file's fields (the studio types them so)
PRINT_QUERY = {"rows": list, "crop_marks": bool, "kit": bool, "cell_mm": float,
               "bleed_mm": float, "dpi": int, "page": int}
STUDIO_MAX_PAGES = 40          # pages of one print the studio builds (kiwara export: more)
TITLE = r"[^\x00-\x1f\x7f]*"   # any printable text: the SVG writer escapes it, the file name is
                               # made of its letters


@dataclass(frozen=True)
class PrintFile:
    name: str
    mimetype: str
    data: bytes


@dataclass(frozen=True)
class PrintJob:
    """A print's checked options, as a key for its kept pages."""

    rows: tuple[str, ...]
    options: PrintOptions
    title: str
    kit: bool
    variant: str

    @property
    def stem(self) -> str:
        """The file name's stem: the title's letters and digits (any script), dashes between."""
        stem = re.sub(r"[^\w-]+", "-", self.title).strip("-").lower() or "kiwara-board"
        return stem + ("-kit" if self.kit else "")


def print_job(rows: Any, paper: Any = "a4", cell_mm: Any = None, crop_marks: Any = False,
              bleed_mm: Any = 0.0, backs: Any = "fold", kit: Any = False,
              variant: Any = "classic", title: Any = None) -> PrintJob:
    """The print's options, checked, with the print refused (in one line naming the limit)
    when it would have more than :data:`STUDIO_MAX_PAGES` pages."""
    layout = board_from_rows(rows)
    options = PrintOptions(
        Paper.parse(need_text(paper, "paper", 40)),
        None if cell_mm in (None, "") else need_number(cell_mm, "cell size (mm)", 10, 200),
        need_bool(crop_marks, "crop marks"), need_number(bleed_mm, "bleed (mm)", 0, 10),
        backs=need_choice(backs, "backs", BACKS))
    title = "Kiwara board" if title in (None, "") else need_text(title, "title", 60, TITLE)
    chosen = need_choice(variant or "classic", "variant", KiwaraVariant.builtin_names())
    tiles = board_tiles(layout, options)
    if tiles > STUDIO_MAX_PAGES:      # (and an assembly map)
        cell = resolve_cell_mm(layout.grid, options)
        raise RequestError(f"the board at {cell:g} mm cells needs {tiles + 1:,} pages of "
                           f"{options.paper.name} paper; the studio prints at most "
                           f"{STUDIO_MAX_PAGES}: use smaller cells or larger paper (or "
                           f"`kiwara export`)")
    return PrintJob(tuple(layout.rows), options, title.strip() or "Kiwara board",
                    need_bool(kit, "kit"), chosen)


def board_tiles(layout, options: PrintOptions) -> int:
    """How many sheets the board is tiled over (1 when it fits one): the print's own tiling,
    counted before anything is drawn."""
    cell = resolve_cell_mm(layout.grid, options)
    extent = BoardGeometry(layout.grid, cell).extent(options)
    width, height = options.printable
    try:
        return (len(tile_starts(extent.width, width, options.overlap_mm))
                * len(tile_starts(extent.height, height - GAP - STRIP_HEIGHT, options.overlap_mm)))
    except PrintError:        # a window too small to tile: the print says so itself
        return 1


@lru_cache(maxsize=12)
def pages_of(job: PrintJob) -> tuple[Page, ...]:
    """The print's pages, built once for its options."""
    variant = KiwaraVariant.load(BUILTIN_PREFIX + job.variant)
    return tuple(print_set(board_from_rows(list(job.rows)), job.options, title=job.title,
                           kit=job.kit, variant=variant))


def chosen_page(pages: tuple[Page, ...], page: Any) -> int:
    """The 0-based index of ``page`` (1-based, as the page shows it)."""
    return need_int(page, "page", 1, len(pages)) - 1


def print_file(rows: Any, format: Any = "pdf", paper: Any = "a4", cell_mm: Any = None,
               crop_marks: Any = False, bleed_mm: Any = 0.0, backs: Any = "fold",
               dpi: Any = None, kit: Any = False, variant: Any = "classic",
               title: Any = None, page: Any = None) -> PrintFile:
    """The board (and with ``kit`` the print-and-play kit) as ``kiwara export`` writes it, with
    the same options, as bytes: PDF (every page), SVG or PNG (one page: ``page``, 1-based,
    needed when the print has several)."""
    fmt = need_choice(format, "format", PRINT_FORMATS)
    dpi = PNG_DPI if dpi in (None, "") else need_int(dpi, "dpi", 30, 600)
    job = print_job(rows, paper, cell_mm, crop_marks, bleed_mm, backs, kit, variant, title)
    pages = pages_of(job)
    if fmt == "pdf":
        return PrintFile(f"{job.stem}.pdf", PRINT_FORMATS[fmt], render_pdf(list(pages)))
    if page in (None, ""):
        if len(pages) > 1:
            raise RequestError(f"this print is {len(pages)} pages; {fmt.upper()} holds one "
                               f"page: choose one, or download the PDF")
        index, name = 0, job.stem
    else:
        index = chosen_page(pages, page)
        name = job.stem if len(pages) == 1 else f"{job.stem}-{pages[index].name}"
    if fmt == "png":
        return PrintFile(f"{name}.png", PRINT_FORMATS[fmt], render_png(pages[index], dpi))
    return PrintFile(f"{name}.svg", PRINT_FORMATS[fmt], pages[index].svg.encode("utf-8"))


def print_preview(rows: Any, paper: Any = "a4", cell_mm: Any = None, crop_marks: Any = False,
                  bleed_mm: Any = 0.0, backs: Any = "fold", kit: Any = False,
                  variant: Any = "classic", title: Any = None, page: Any = 1) -> dict:
    """What the Print view shows: the print's pages (names and sizes) and one of them as SVG
    (``page``, 1-based; past the last one, the last)."""
    job = print_job(rows, paper, cell_mm, crop_marks, bleed_mm, backs, kit, variant, title)
    pages = pages_of(job)
    index = min(need_int(page, "page", 1, 10 ** 6), len(pages)) - 1
    return {"pages": [{"name": p.name, "width_mm": p.width_mm, "height_mm": p.height_mm}
                      for p in pages],
            "page": index + 1, "svg": pages[index].svg, "stem": job.stem}
