"""TrimBox and BleedBox for the pages of a PDF that cairo wrote, and a valid creation date, as
an incremental update.

cairo has no API for page boxes, and cairo 1.16 writes the creation date without the ``D:``
prefix that PDF requires (``(20180101000000Z)``; fixed in later cairo), so both are set
afterwards the way PDF itself provides for changing a finished file: the changed page objects are appended with a new cross-reference
section whose ``/Prev`` points at the old one. cairo's bytes stay untouched as a prefix (no
offsets move), and nothing but the standard library is needed. This relies on cairo writing
plain page objects and a classic cross-reference table, which it does for PDF 1.4 (the
version :func:`~kiwara_designer.printing.render.render_pdf` asks for; object streams, which
would hide page objects in compressed streams, only exist from PDF 1.5).
"""
from __future__ import annotations

import re
from typing import Sequence

from .page import PrintError

POINTS_PER_MM = 72 / 25.4
Box = tuple[float, float, float, float]   # x0, y0, x1, y1 in points, PDF's bottom-left origin

_KIDS = re.compile(rb"/Type\s*/Pages\b.*?/Kids\s*\[([^\]]*)\]", re.S)
_TRAILER = re.compile(rb"trailer\s*<<(.*?)>>\s*startxref\s*(\d+)\s*%%EOF\s*$", re.S)


def mm_box(x: float, y: float, width: float, height: float, page_height: float) -> Box:
    """A box given in page millimetres from the top-left corner, as PDF points."""
    k = POINTS_PER_MM
    return (x * k, (page_height - y - height) * k, (x + width) * k, (page_height - y) * k)


def _array(box: Box) -> bytes:
    return ("[ " + " ".join(f"{v:.3f}" for v in box) + " ]").encode("ascii")


def finish_cairo_pdf(pdf: bytes, boxes: Sequence[tuple[Box, Box] | None]) -> bytes:
    """``pdf`` with ``/TrimBox`` and ``/BleedBox`` set on the pages given a (trim, bleed) pair,
    in page order (pages given None are left as they are), and its document information's
    dates made valid PDF dates, in one incremental update (none if nothing needs changing)."""
    trailer = _TRAILER.search(pdf)
    if not trailer:
        raise PrintError("cannot finish the PDF: unexpected structure from cairo")
    changed = _page_boxes(pdf, boxes)
    info = re.search(rb"/Info\s+(\d+)\s+0\s+R", trailer[1])
    if info:
        number = int(info[1])
        body = _object(pdf, number)
        fixed = _DATE.sub(rb"/\1 (D:\2)", body) if body else body
        if fixed != body:
            changed[number] = fixed
    if not changed:
        return pdf
    update, offsets = bytearray(b"\n"), {}
    for number, body in sorted(changed.items()):
        offsets[number] = len(pdf) + len(update)
        update += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref_at = len(pdf) + len(update)
    update += b"xref\n"
    for number, offset in offsets.items():
        update += b"%d 1\n%010d 00000 n \n" % (number, offset)
    kept = b"".join(m[0] + b" " for m in re.finditer(
        rb"/(?:Size|Root|Info)\s+\d+(?:\s+0\s+R)?|/ID\s*\[[^\]]*\]", trailer[1]))
    update += b"trailer\n<< %s/Prev %s >>\nstartxref\n%d\n%%%%EOF\n" % (kept, trailer[2], xref_at)
    return pdf + bytes(update)


# a date string without the D: prefix (cairo 1.16): digits, then Z or an offset
_DATE = re.compile(rb"/(CreationDate|ModDate)\s*\((\d{4}[0-9Z+\-']*)\)")


def _object(pdf: bytes, number: int) -> bytes | None:
    """The dictionary of a plain object (no stream): its first ``>> endobj`` ends it."""
    match = re.search(rb"(?m)^%d 0 obj\s*(<<.*?>>)\s*endobj" % number, pdf, re.S)
    return match[1] if match else None


def _page_boxes(pdf: bytes, boxes: Sequence[tuple[Box, Box] | None]) -> dict[int, bytes]:
    """The new page objects, by number, that carry the boxes."""
    if not any(boxes):
        return {}
    kids = _KIDS.search(pdf)
    if not kids:
        raise PrintError("cannot add page boxes: unexpected PDF structure from cairo")
    page_numbers = [int(n) for n in re.findall(rb"(\d+)\s+0\s+R", kids[1])]
    objects = {n: body for n in page_numbers if (body := _object(pdf, n))}
    if len(page_numbers) != len(boxes) or len(objects) != len(page_numbers):
        raise PrintError("cannot add page boxes: the PDF's pages are not where cairo puts them")
    changed = {}
    for number, pair in zip(page_numbers, boxes):
        if pair is None:
            continue
        trim, bleed = pair
        body = re.sub(rb"/(TrimBox|BleedBox)\s*\[[^\]]*\]", b"", objects[number])
        changed[number] = b"<< /TrimBox " + _array(trim) + b" /BleedBox " + _array(bleed) + body[2:]
    return changed
