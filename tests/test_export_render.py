"""PDF and PNG through the optional cairosvg: sizes and pages; a clear error without it."""
from __future__ import annotations

import re
import struct
import sys

import pytest

from kiwara_designer import load_layout
from kiwara_designer.printing import LETTER, PrintError, PrintOptions, print_set, render_pdf, render_png, write_pages
from kiwara_designer.printing.render import output_format

try:
    import cairosvg  # noqa: F401
    HAVE_CAIRO = True
except (ImportError, OSError):
    HAVE_CAIRO = False
needs_cairo = pytest.mark.skipif(not HAVE_CAIRO, reason="needs the pdf extra (cairosvg and libcairo)")


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


@needs_cairo
def test_png_is_the_paper_at_150_dpi():
    page = print_set(load_layout("classic"))[0]
    # A4 landscape at 150 dpi: 297 / 25.4 * 150 = 1753.9 and 210 / 25.4 * 150 = 1240.2 pixels
    assert png_size(render_png(page)) == (1754, 1240)
    letter = print_set(load_layout("classic"), PrintOptions(LETTER))[0]
    assert png_size(render_png(letter, dpi=100)) == (1100, 850)   # 11 × 8.5 in


@needs_cairo
def test_pdf_holds_every_page_at_paper_size():
    pages = print_set(load_layout("classic"), PrintOptions(cell_mm=45), kit=True)
    assert len(pages) == 6   # 2 × 2 board tiles, tokens, cards
    data = render_pdf(pages)
    assert data.startswith(b"%PDF")
    assert len(re.findall(rb"/Type\s*/Page\b", data)) == 6
    boxes = re.findall(rb"/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", data)
    assert len(boxes) == 6
    for w, h in boxes:   # A4 landscape in points: 841.9 × 595.3
        assert float(w) == pytest.approx(297 / 25.4 * 72, abs=0.5)
        assert float(h) == pytest.approx(210 / 25.4 * 72, abs=0.5)


@needs_cairo
def test_write_pages_one_png_per_page(tmp_path):
    pages = print_set(load_layout("classic"), kit=True)
    written = write_pages(pages, str(tmp_path / "set.png"))
    assert [p.split("/")[-1] for p in written] == ["set-board.png", "set-tokens.png", "set-cards.png"]
    assert all(png_size((tmp_path / f).read_bytes()) == (1754, 1240) for f in
               ("set-board.png", "set-tokens.png", "set-cards.png"))


def test_missing_cairosvg_is_a_clear_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "cairosvg", None)   # makes `import cairosvg` fail
    page = print_set(load_layout("classic"))[0]
    for render in (lambda: render_pdf([page]), lambda: render_png(page)):
        with pytest.raises(PrintError, match=r"pip install 'kiwara-designer\[pdf\]'"):
            render()


def test_output_format_from_the_file_name():
    assert [output_format(p) for p in ("a.svg", "B.PDF", "c.png", "-")] == ["svg", "pdf", "png", "svg"]
    for bad in ("board", "board.jpg"):
        with pytest.raises(PrintError, match="use .svg, .pdf or .png"):
            output_format(bad)
