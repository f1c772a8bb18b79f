"""Writing pages: SVG always; PDF (all pages in one file) and PNG through the optional cairosvg.

cairosvg is the ``pdf`` extra: ``pip install 'kiwara-designer[pdf]'``. Without it, asking for PDF
or PNG raises a :class:`PrintError` that says so.
"""
from __future__ import annotations

import io
from pathlib import Path
from typing import Sequence

from ..core.io import write_bytes, write_text
from .sheet import Page
from .page import PrintError

FORMATS = ("svg", "pdf", "png")
PNG_DPI = 150
MAX_PNG_PIXELS = 100_000_000   # an A0 sheet at 150 dpi is 35 million; 100 million RGBA is 400 MB
MISSING_CAIRO = ("{fmt} output needs cairosvg and the cairo library: pip install "
                 "'kiwara-designer[pdf]' (and e.g. apt-get install libcairo2), or write .svg")


def output_format(path: str) -> str:
    """``svg``, ``pdf`` or ``png`` from the file name (``-`` is SVG on stdout)."""
    if path == "-":
        return "svg"
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix not in FORMATS:
        raise PrintError(f"{path}: unknown output format {suffix or '(no extension)'!r}; "
                         "use .svg, .pdf or .png")
    return suffix


def _cairosvg(fmt: str):
    try:
        import cairosvg   # optional extra
    except (ImportError, OSError) as exc:   # OSError: the package is there, libcairo is not
        raise PrintError(MISSING_CAIRO.format(fmt=fmt.upper())) from exc
    return cairosvg


def cairo_available() -> bool:
    try:
        _cairosvg("pdf")
    except PrintError:
        return False
    return True


def render_pdf(pages: Sequence[Page]) -> bytes:
    """All pages in one PDF, each page at its own size, vector throughout."""
    _cairosvg("pdf")   # a clear PrintError when the extra is missing
    import cairocffi
    from cairosvg.parser import Tree
    from cairosvg.surface import PDFSurface

    output = io.BytesIO()
    shared: list = []

    class PagedPDFSurface(PDFSurface):
        """cairosvg renders one document per surface (and has no multi-page API): hand every
        document the same cairo PDF surface, resized, and end a page after each."""

        def _create_surface(self, width, height):
            if not shared:
                shared.append(cairocffi.PDFSurface(self.output, width, height))
            else:
                shared[0].set_size(width, height)
            return shared[0], width, height

    for page in pages:
        surface = PagedPDFSurface(Tree(bytestring=page.svg.encode("utf-8")), output, 96)
        surface.cairo.show_page()
    if shared:
        shared[0].finish()
    return output.getvalue()


def png_pixels(page: Page, dpi: int = PNG_DPI) -> tuple[int, int]:
    return round(page.width_mm / 25.4 * dpi), round(page.height_mm / 25.4 * dpi)


def check_png_size(page: Page, dpi: int = PNG_DPI) -> None:
    """A :class:`PrintError` for a page too large to rasterise (cairo would need gigabytes)."""
    w, h = png_pixels(page, dpi)
    if w * h > MAX_PNG_PIXELS:
        raise PrintError(f"a {page.width_mm:g} × {page.height_mm:g} mm page is {w} × {h} pixels "
                         f"at {dpi} dpi, more than PNG output allows ({MAX_PNG_PIXELS // 10**6} "
                         f"million); write .svg or .pdf, or use a smaller --paper")


def render_png(page: Page, dpi: int = PNG_DPI) -> bytes:
    check_png_size(page, dpi)
    cairosvg = _cairosvg("png")
    return cairosvg.svg2png(bytestring=page.svg.encode("utf-8"), dpi=dpi, background_color="white")


def page_paths(path: str, pages: Sequence[Page]) -> list[Path]:
    """One file for one page, else ``stem-<page name>.ext`` beside ``path``."""
    target = Path(path)
    if len(pages) == 1:
        return [target]
    return [target.with_name(f"{target.stem}-{page.name}{target.suffix}") for page in pages]


def write_pages(pages: Sequence[Page], path: str, stdout=None) -> list[str]:
    """Write ``pages`` to ``path`` in the format its extension names; return the files written.

    PDF holds every page; SVG and PNG write one file per page when there are several.
    ``-`` writes a single SVG page to ``stdout`` (a text stream).
    """
    fmt = output_format(path)
    if path == "-":
        if len(pages) != 1:
            raise PrintError(f"{len(pages)} pages cannot go to stdout as one SVG; "
                             "write to a .svg file (one per page) or a .pdf")
        stdout.write(pages[0].svg + "\n")
        return ["-"]
    if fmt == "pdf":
        write_bytes(path, render_pdf(pages), "the board")
        return [path]
    if fmt == "png":
        for page in pages:      # before the first file is written
            check_png_size(page)
    written = []
    for page, target in zip(pages, page_paths(path, pages)):
        if fmt == "svg":
            write_text(target, page.svg + "\n", "the board")
        else:
            write_bytes(target, render_png(page), "the board")
        written.append(str(target))
    return written
