"""Writing pages: SVG always; PDF (all pages in one file) and PNG through the optional cairosvg.

cairosvg is the ``pdf`` extra: ``pip install 'kiwara-designer[pdf]'``. Without it, asking for PDF
or PNG raises a :class:`PrintError` that says so.
"""
from __future__ import annotations

import io
import struct
import zlib
from pathlib import Path
from typing import Sequence

from ..core.io import write_bytes, write_text
from .page import PrintError
from .pdfboxes import finish_cairo_pdf, mm_box
from .sheet import Page

FORMATS = ("svg", "pdf", "png")
PNG_DPI = 150
MIN_DPI, MAX_DPI = 30, 1200
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


FIXED_PDF_DATE = "2018-01-01T00:00:00Z"     # Kiwara's year; any fixed date would do
CREATOR = "kiwara-designer"   # no version: the same input gives the same bytes


def render_pdf(pages: Sequence[Page], title: str | None = None) -> bytes:
    """All pages in one PDF, each page at its own size, vector throughout; its document
    information holds ``title`` (if given), the creator and a fixed creation date."""
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
                pdf = cairocffi.PDFSurface(self.output, width, height)
                # PDF 1.4 has no object streams: page objects stay plain for finish_cairo_pdf
                pdf.restrict_to_version(cairocffi.PDF_VERSION_1_4)
                # cairo stamps the current time otherwise: the same board, the same bytes
                pdf.set_metadata(cairocffi.PDF_METADATA_CREATE_DATE, FIXED_PDF_DATE)
                pdf.set_metadata(cairocffi.PDF_METADATA_CREATOR, CREATOR)
                if title:
                    pdf.set_metadata(cairocffi.PDF_METADATA_TITLE, title)
                shared.append(pdf)
            else:
                shared[0].set_size(width, height)
            return shared[0], width, height

    for page in pages:
        surface = PagedPDFSurface(Tree(bytestring=page.svg.encode("utf-8")), output, 96)
        surface.cairo.show_page()
    if shared:
        shared[0].finish()
    return finish_cairo_pdf(output.getvalue(), [page_boxes(page) for page in pages])


def page_boxes(page: Page):
    """The page's (TrimBox, BleedBox) in PDF points when it has bleed, else None."""
    if page.trim is None or page.bleed_mm <= 0:
        return None
    trim = page.trim
    bleed = trim.grown(page.bleed_mm)
    # a box may not leave the page: bleed beyond the paper is lost anyway
    x0, y0 = max(bleed.x, 0.0), max(bleed.y, 0.0)
    x1, y1 = min(bleed.right, page.width_mm), min(bleed.bottom, page.height_mm)
    return (mm_box(trim.x, trim.y, trim.width, trim.height, page.height_mm),
            mm_box(x0, y0, x1 - x0, y1 - y0, page.height_mm))


def png_pixels(page: Page, dpi: int = PNG_DPI) -> tuple[int, int]:
    return round(page.width_mm / 25.4 * dpi), round(page.height_mm / 25.4 * dpi)


def check_png_size(page: Page, dpi: int = PNG_DPI) -> None:
    """A :class:`PrintError` for a page too large to rasterise (cairo would need gigabytes)."""
    w, h = png_pixels(page, dpi)
    if w * h > MAX_PNG_PIXELS:
        raise PrintError.about("a {width:g} × {height:g} mm page is {w} × {h} pixels at {dpi} "
                               "dpi, more than PNG output allows ({millions} million); write "
                               ".svg or .pdf, or use a smaller {paper}", width=page.width_mm,
                               height=page.height_mm, w=w, h=h, dpi=dpi,
                               millions=MAX_PNG_PIXELS // 10**6)


def check_dpi(dpi: int) -> int:
    if not MIN_DPI <= dpi <= MAX_DPI:
        raise PrintError(f"resolution must be {MIN_DPI}..{MAX_DPI} dpi, got {dpi}")
    return dpi


def render_png(page: Page, dpi: int = PNG_DPI) -> bytes:
    """The page as a PNG at ``dpi``, which is stored in the file (a ``pHYs`` chunk) so that
    viewers and printers print it at true size."""
    check_dpi(dpi)
    check_png_size(page, dpi)
    cairosvg = _cairosvg("png")
    data = cairosvg.svg2png(bytestring=page.svg.encode("utf-8"), dpi=dpi, background_color="white")
    return with_resolution(data, dpi)


def with_resolution(png: bytes, dpi: int) -> bytes:
    """``png`` with a ``pHYs`` chunk (pixels per metre, both axes) right after its header
    chunk, replacing any it had."""
    signature, chunks, at = png[:8], [], 8
    while at < len(png):
        length, kind = struct.unpack(">I4s", png[at:at + 8])
        end = at + 12 + length
        if kind != b"pHYs":
            chunks.append(png[at:end])
        at = end
    per_metre = round(dpi / 0.0254)
    body = b"pHYs" + struct.pack(">IIB", per_metre, per_metre, 1)   # unit 1: the metre
    phys = struct.pack(">I", 9) + body + struct.pack(">I", zlib.crc32(body))
    return signature + chunks[0] + phys + b"".join(chunks[1:])


def page_paths(path: str, pages: Sequence[Page]) -> list[Path]:
    """One file for one page, else ``stem-<page name>.ext`` beside ``path``."""
    target = Path(path)
    if len(pages) == 1:
        return [target]
    return [target.with_name(f"{target.stem}-{page.name}{target.suffix}") for page in pages]


def write_pages(pages: Sequence[Page], path: str, stdout=None, *, dpi: int = PNG_DPI,
                what: str = "the pages", title: str | None = None) -> list[str]:
    """Write ``pages`` to ``path`` in the format its extension names; return the files written.
    ``what`` the pages are (``"the board"``) names them when a file cannot be written; ``title``
    is a PDF's document title.

    PDF holds every page; SVG and PNG (at ``dpi``) write one file per page when there are
    several. ``-`` writes a single SVG page to ``stdout`` (a text stream).
    """
    fmt = output_format(path)
    if path == "-":
        if len(pages) != 1:
            raise PrintError(f"{len(pages)} pages cannot go to stdout as one SVG; "
                             "write to a .svg file (one per page) or a .pdf")
        stdout.write(pages[0].svg + "\n")
        return ["-"]
    if fmt == "pdf":
        write_bytes(path, render_pdf(pages, title), what)
        return [path]
    if fmt == "png":
        for page in pages:      # before the first file is written
            check_png_size(page, check_dpi(dpi))
    written = []
    for page, target in zip(pages, page_paths(path, pages)):
        if fmt == "svg":
            write_text(target, page.svg + "\n", what)
        else:
            write_bytes(target, render_png(page, dpi), what)
        written.append(str(target))
    return written
