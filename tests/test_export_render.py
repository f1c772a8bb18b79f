"""PDF and PNG through the optional cairosvg: sizes and pages; a clear error without it."""
from __future__ import annotations

import re
import shutil
import struct
import subprocess
import sys

import pytest

from kiwara_designer.games.kiwara import load_layout
from kiwara_designer.printing import (LETTER, PrintError, PrintOptions, render_pdf, render_png,
                                      write_pages)
from kiwara_designer.games.kiwara.printing import print_set
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


def png_chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    """(type, body) of every chunk, each CRC checked."""
    import zlib
    chunks, at = [], 8
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        assert struct.unpack(">I", data[at + 8 + length:at + 12 + length])[0] == zlib.crc32(kind + body)
        chunks.append((kind, body))
        at += 12 + length
    return chunks


@needs_cairo
@pytest.mark.parametrize("dpi", [150, 300, 72])
def test_png_stores_its_resolution(dpi):
    data = render_png(print_set(load_layout("classic"))[0], dpi=dpi)
    chunks = png_chunks(data)
    assert chunks[0][0] == b"IHDR" and chunks[1][0] == b"pHYs" and chunks[-1][0] == b"IEND"
    assert [kind for kind, _ in chunks].count(b"pHYs") == 1
    x, y, unit = struct.unpack(">IIB", chunks[1][1])
    assert unit == 1 and x == y == round(dpi / 0.0254)   # pixels per metre: 150 dpi is 5906
    assert png_size(data) == (round(297 / 25.4 * dpi), round(210 / 25.4 * dpi))


def test_png_resolution_is_checked():
    with pytest.raises(PrintError, match="30..1200 dpi"):
        render_png(print_set(load_layout("classic"))[0], dpi=5000)


def pdf_page_dicts(data: bytes) -> list[bytes]:
    """Each page's dictionary as a reader sees it: the last version of each object in the file
    (an incremental update appends new versions), in the order of the page tree's /Kids."""
    latest = {}
    for match in re.finditer(rb"(?m)^(\d+) 0 obj\s*(<<.*?>>)\s*endobj", data, re.S):
        latest[int(match[1])] = match[2]
    kids = re.search(rb"/Type\s*/Pages.*?/Kids\s*\[([^\]]*)\]", data, re.S)[1]
    return [latest[int(n)] for n in re.findall(rb"(\d+)\s+0\s+R", kids)]


def pdf_box(page: bytes, name: bytes) -> list[float] | None:
    match = re.search(rb"/" + name + rb"\s*\[([^\]]*)\]", page)
    return [float(v) for v in match[1].split()] if match else None


@needs_cairo
def test_pdf_trim_and_bleed_boxes_when_bleed_is_on():
    points = 72 / 25.4
    pages = print_set(load_layout("classic"), PrintOptions(bleed_mm=3), kit=True)
    data = render_pdf(pages)
    dicts = pdf_page_dicts(data)
    assert len(dicts) == len(pages) == 3
    # the board: trim = board + one cell all round, 200 × 175 mm at (19.5, 17.5) from the
    # top-left of the A4 page (centred beside the 52 mm title block), by hand
    trim, bleed = pdf_box(dicts[0], b"TrimBox"), pdf_box(dicts[0], b"BleedBox")
    assert trim == pytest.approx([19.5 * points, (210 - 17.5 - 175) * points,
                                  219.5 * points, (210 - 17.5) * points], abs=0.01)
    assert bleed == pytest.approx([trim[0] - 3 * points, trim[1] - 3 * points,
                                   trim[2] + 3 * points, trim[3] + 3 * points], abs=0.01)
    for page, raw in zip(pages, dicts):
        media = pdf_box(raw, b"MediaBox")
        trim, bleed = pdf_box(raw, b"TrimBox"), pdf_box(raw, b"BleedBox")
        assert trim and bleed, page.name
        assert media[0] <= bleed[0] < trim[0] < trim[2] < bleed[2] <= media[2]
        assert media[1] <= bleed[1] < trim[1] < trim[3] < bleed[3] <= media[3]
        assert trim == pytest.approx([page.trim.x * points, (page.height_mm - page.trim.bottom) * points,
                                      page.trim.right * points, (page.height_mm - page.trim.y) * points],
                                     abs=0.01)
    # the update keeps cairo's file as it was and points back to its cross-reference table
    first_eof = data.index(b"%%EOF")
    old_xref = int(re.search(rb"startxref\s*(\d+)\s*%%EOF", data[:first_eof + 5])[1])
    assert data[old_xref:old_xref + 4] == b"xref"
    assert re.search(rb"/Prev %d\b" % old_xref, data[first_eof:])
    new_xref = int(re.findall(rb"startxref\s*(\d+)", data)[-1])
    table = data[new_xref:].split(b"trailer")[0].split(b"\n")[1:]
    entries = list(zip(table[0::2], table[1::2]))
    assert entries and all(int(off.split()[0]) == data.index(b"%d 0 obj" % int(head.split()[0]),
                                                               first_eof)
                           for head, off in entries if head)


@needs_cairo
def test_pdf_without_bleed_has_no_page_boxes():
    data = render_pdf(print_set(load_layout("classic"), PrintOptions(crop_marks=True), kit=True))
    assert b"/TrimBox" not in data
    # at most the one update that fixes the creation date, and it changes no page
    assert data.count(b"%%EOF") <= 2 and len(pdf_page_dicts(data)) == 3


@needs_cairo
@pytest.mark.skipif(not shutil.which("pdfinfo"), reason="poppler's pdfinfo is not installed")
def test_pdf_boxes_read_by_poppler(tmp_path):
    target = tmp_path / "kit.pdf"
    write_pages(print_set(load_layout("classic"), PrintOptions(bleed_mm=3), kit=True), str(target))
    info = subprocess.run(["pdfinfo", "-box", "-f", "1", "-l", "3", str(target)], check=True,
                          capture_output=True, text=True).stdout
    assert info.count("TrimBox:") == 3
    trim = re.search(r"Page\s+1 TrimBox:\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)", info)
    assert float(trim[3]) - float(trim[1]) == pytest.approx(200 * 72 / 25.4, abs=0.01)


@needs_cairo
def test_pdf_holds_every_page_at_paper_size():
    pages = print_set(load_layout("classic"), PrintOptions(cell_mm=45), kit=True)
    # assembly map, 2 × 2 board tiles, two sheets of 38 mm tokens, rules
    assert len(pages) == 8
    data = render_pdf(pages)
    assert data.startswith(b"%PDF")
    assert len(re.findall(rb"/Type\s*/Page\b", data)) == 8
    boxes = re.findall(rb"/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", data)
    assert len(boxes) == 8
    for w, h in boxes:   # A4 landscape in points: 841.9 × 595.3
        assert float(w) == pytest.approx(297 / 25.4 * 72, abs=0.5)
        assert float(h) == pytest.approx(210 / 25.4 * 72, abs=0.5)


@needs_cairo
def test_write_pages_one_png_per_page(tmp_path):
    pages = print_set(load_layout("classic"), kit=True)
    written = write_pages(pages, str(tmp_path / "set.png"))
    assert [p.split("/")[-1] for p in written] == ["set-board.png", "set-tokens.png", "set-rules.png"]
    assert all(png_size((tmp_path / f).read_bytes()) == (1754, 1240) for f in
               ("set-board.png", "set-tokens.png", "set-rules.png"))
    written = write_pages(pages[:1], str(tmp_path / "fine.png"), dpi=300)
    assert png_size((tmp_path / "fine.png").read_bytes()) == (3508, 2480)


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


def pdf_info(data: bytes) -> bytes:
    """The document information dictionary a reader sees: the last trailer's /Info, in the last
    version of that object."""
    number = int(re.findall(rb"/Info\s+(\d+)\s+0\s+R", data)[-1])
    return re.findall(rb"(?m)^%d 0 obj\s*(<<.*?>>)\s*endobj" % number, data, re.S)[-1]


# PDF 1.4 section 3.8.3: (D:YYYYMMDDHHmmSSOHH'mm'), the D: prefix required
PDF_DATE = rb"\(D:\d{4}(\d{2}){0,5}(Z|[+-]\d{2}'\d{2}'?)?\)"


@needs_cairo
@pytest.mark.parametrize("bleed_mm", [0, 3])
def test_pdf_creation_date_is_a_valid_pdf_date(bleed_mm):
    pages = print_set(load_layout("classic"), PrintOptions(bleed_mm=bleed_mm), kit=True)
    data = render_pdf(pages)
    info = pdf_info(data)
    date = re.search(rb"/CreationDate\s*(\([^)]*\))", info)
    assert date and re.fullmatch(PDF_DATE, date[1]), info
    assert date[1].startswith(b"(D:2018")            # fixed: the same board, the same bytes
    assert b"/Producer" in info                       # the rest of cairo's Info kept
    assert render_pdf(pages) == data
