"""Reading our SVG pages back with xml.etree, independently of the code that drew them."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"


def expected_rivers(rows: list[str], cell: float) -> set[tuple[float, float, float, float]]:
    """Every cut edge from the rows themselves, as board-local segments (top/left end first)."""
    segments = set()
    for r, row in enumerate(rows):
        for c, label in enumerate(row):
            if c + 1 < len(row) and row[c + 1] != label:      # wall on the cell's right side
                segments.add((round((c + 1) * cell, 3), round(r * cell, 3),
                              round((c + 1) * cell, 3), round((r + 1) * cell, 3)))
            if r + 1 < len(rows) and rows[r + 1][c] != label:  # wall under the cell
                segments.add((round(c * cell, 3), round((r + 1) * cell, 3),
                              round((c + 1) * cell, 3), round((r + 1) * cell, 3)))
    return segments


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def classes(element: ET.Element) -> set[str]:
    return set(element.get("class", "").split())


def find_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in root.iter() if name in classes(e)]


def translate_of(element: ET.Element) -> tuple[float, float]:
    match = re.fullmatch(r"translate\(\s*([-\d.e]+)[ ,]+([-\d.e]+)\s*\)", element.get("transform", ""))
    assert match, f"expected a plain translate, got {element.get('transform')!r}"
    return float(match[1]), float(match[2])


def board_group(root: ET.Element) -> ET.Element:
    groups = [e for e in root.iter(NS + "g") if e.get("id") == "board"]
    assert len(groups) == 1
    return groups[0]


def length_mm(value: str) -> float:
    assert value.endswith("mm"), value
    return float(value[:-2])


def line_coords(element: ET.Element) -> tuple[float, float, float, float]:
    return tuple(round(float(element.get(k)), 3) for k in ("x1", "y1", "x2", "y2"))


def rivers_drawn(element: ET.Element) -> list[tuple[float, float, float, float]]:
    """The river lines below ``element``, each as its rounded (x1, y1, x2, y2)."""
    return [line_coords(e) for e in find_class(element, "river")]


def size_mm(root: ET.Element) -> tuple[float, float]:
    """The document's width and height, which must be given in millimetres."""
    return length_mm(root.get("width")), length_mm(root.get("height"))


def texts(root: ET.Element, class_name: str) -> list[ET.Element]:
    return [e for e in root.iter(NS + "text") if class_name in classes(e)]


def bounds(element: ET.Element) -> tuple[float, float, float, float] | None:
    """(x0, y0, x1, y1) of a rect, line or circle in its own coordinates; None for others."""
    tag = element.tag.replace(NS, "")
    f = lambda k: float(element.get(k))  # noqa: E731
    if tag == "rect":
        return f("x"), f("y"), f("x") + f("width"), f("y") + f("height")
    if tag == "line":
        return min(f("x1"), f("x2")), min(f("y1"), f("y2")), max(f("x1"), f("x2")), max(f("y1"), f("y2"))
    if tag == "circle":
        return f("cx") - f("r"), f("cy") - f("r"), f("cx") + f("r"), f("cy") + f("r")
    return None


def relative_luminance_lstar(hex_colour: str) -> float:
    """CIE L* of an sRGB colour (what a greyscale printer keeps)."""
    channels = [int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    y = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    return 116 * y ** (1 / 3) - 16 if y > 216 / 24389 else 24389 / 27 * y


def raster(svg: str, dpi: float):
    """The page rendered by cairosvg: (pixels per mm, function (x_mm, y_mm) -> (r, g, b))."""
    import io

    from cairosvg.parser import Tree
    from cairosvg.surface import PNGSurface

    surface = PNGSurface(Tree(bytestring=svg.encode("utf-8")), io.BytesIO(), dpi,
                         background_color="white")
    image = surface.cairo
    image.flush()
    data, stride, scale = bytes(image.get_data()), image.get_stride(), dpi / 25.4

    def pixel(x_mm: float, y_mm: float) -> tuple[int, int, int]:
        at = int(y_mm * scale) * stride + int(x_mm * scale) * 4   # BGRA, little-endian ARGB32
        return data[at + 2], data[at + 1], data[at]
    return scale, pixel
