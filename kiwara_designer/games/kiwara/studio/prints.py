"""Kiwara's Print view in the studio: the board (and the print-and-play kit) as ``kiwara export``
writes them, as bytes."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ....core.checks import (RequestError, need_bool, need_choice, need_int, need_number,
                            need_text)
from ....core.io import BUILTIN_PREFIX
from ....printing import BACKS, PNG_DPI, Paper, PrintOptions, render_pdf, render_png
from ..printing import print_set
from ..variant import KiwaraVariant
from .boards import board_from_rows

PRINT_FORMATS = {"svg": "image/svg+xml", "pdf": "application/pdf", "png": "image/png"}
# a download link's query, as print_file's fields (the studio types them so)
PRINT_QUERY = {"rows": list, "crop_marks": bool, "kit": bool, "cell_mm": float,
               "bleed_mm": float, "dpi": int}


@dataclass(frozen=True)
class PrintFile:
    name: str
    mimetype: str
    data: bytes


def print_file(rows: Any, format: Any = "pdf", paper: Any = "a4", cell_mm: Any = None,
               crop_marks: Any = False, bleed_mm: Any = 0.0, backs: Any = "fold",
               dpi: Any = None, kit: Any = False, variant: Any = "classic",
               title: Any = None) -> PrintFile:
    """The board (and with ``kit`` the print-and-play kit) as ``kiwara export`` writes it, with
    the same options, as bytes: SVG (one page), PDF (every page) or PNG (one page)."""
    layout = board_from_rows(rows)
    fmt = need_choice(format, "format", PRINT_FORMATS)
    options = PrintOptions(
        Paper.parse(need_text(paper, "paper", 40)),
        None if cell_mm in (None, "") else need_number(cell_mm, "cell size (mm)", 10, 200),
        need_bool(crop_marks, "crop marks"), need_number(bleed_mm, "bleed (mm)", 0, 10),
        backs=need_choice(backs, "backs", BACKS))
    dpi = PNG_DPI if dpi in (None, "") else need_int(dpi, "dpi", 30, 600)
    title = "Kiwara board" if title in (None, "") else need_text(
        title, "title", 60, r"[\w .,'()#+-]*")
    pages = print_set(layout, options, title=title, kit=need_bool(kit, "kit"),
                      variant=built_in_variant(variant))
    stem = re.sub(r"[^\w-]+", "-", title).strip("-").lower() or "kiwara-board"
    stem += "-kit" if kit else ""
    if fmt == "pdf":
        return PrintFile(f"{stem}.pdf", PRINT_FORMATS[fmt], render_pdf(pages))
    if len(pages) > 1:
        raise RequestError(f"this print is {len(pages)} pages; {fmt.upper()} holds one page, "
                          f"download the PDF")
    if fmt == "png":
        return PrintFile(f"{stem}.png", PRINT_FORMATS[fmt], render_png(pages[0], dpi))
    return PrintFile(f"{stem}.svg", PRINT_FORMATS[fmt], pages[0].svg.encode("utf-8"))


def built_in_variant(name: Any) -> KiwaraVariant:
    """A built-in rules variant (the page never names a file: a file of that name in the
    server's folder is not read)."""
    chosen = need_choice(name or "classic", "variant", KiwaraVariant.builtin_names())
    return KiwaraVariant.load(BUILTIN_PREFIX + chosen)
