"""Simple vector emblems of the animals, drawn in a 100 × 100 box centred on (50, 50).

Each emblem is a list of (tag, attributes) in that box, in one ink colour on a background
colour, so a token can tint them for either player. No external images, no fonts.
"""
from __future__ import annotations

import math

from svgwrite.base import BaseElement

Shape = tuple[str, dict]


def zebra() -> list[Shape]:
    """Front view: a long striped face, ears, a mane tuft and a dark muzzle."""
    ears = [("path", {"d": "M32 30 L20 4 L46 20 Z", "fill": "ink"}),
            ("path", {"d": "M68 30 L80 4 L54 20 Z", "fill": "ink"})]
    mane = ("path", {"d": "M42 22 L46 8 L50 18 L54 8 L58 22 Z", "fill": "ink"})
    face = ("path", {"d": "M26 34 Q50 10 74 34 L64 82 Q50 98 36 82 Z", "fill": "ink"})
    stripes = [("path", {"d": d, "fill": "none", "stroke": "paper", "stroke-width": "4.5",
                         "stroke-linejoin": "round"})
               for d in ("M32 38 L50 45 L68 38", "M34 52 L50 59 L66 52", "M37 66 L50 72 L63 66")]
    muzzle = ("ellipse", {"cx": "50", "cy": "84", "rx": "11", "ry": "8", "fill": "ink",
                          "stroke": "paper", "stroke-width": "2"})
    return ears + [mane, face] + stripes + [muzzle]


def gazelle() -> list[Shape]:
    horns = [("path", {"d": d, "fill": "none", "stroke": "ink", "stroke-width": "5",
                       "stroke-linecap": "round"})
             for d in ("M44 40 C38 24 30 16 34 4", "M56 40 C62 24 70 16 66 4")]
    ears = [("path", {"d": "M40 42 L18 36 L36 52 Z", "fill": "ink"}),
            ("path", {"d": "M60 42 L82 36 L64 52 Z", "fill": "ink"})]
    face = ("path", {"d": "M38 44 Q50 36 62 44 L58 86 Q50 96 42 86 Z", "fill": "ink"})
    blaze = ("path", {"d": "M50 50 L46 80 Q50 86 54 80 Z", "fill": "paper"})
    eyes = [("circle", {"cx": "43", "cy": "56", "r": "2.6", "fill": "paper"}),
            ("circle", {"cx": "57", "cy": "56", "r": "2.6", "fill": "paper"})]
    return horns + ears + [face, blaze] + eyes


def elephant() -> list[Shape]:
    ears = [("ellipse", {"cx": "24", "cy": "46", "rx": "20", "ry": "26", "fill": "ink"}),
            ("ellipse", {"cx": "76", "cy": "46", "rx": "20", "ry": "26", "fill": "ink"})]
    ear_lines = [("ellipse", {"cx": cx, "cy": "46", "rx": "13", "ry": "19", "fill": "none",
                              "stroke": "paper", "stroke-width": "2.5"}) for cx in ("22", "78")]
    head = ("circle", {"cx": "50", "cy": "42", "r": "22", "fill": "ink"})
    trunk = ("path", {"d": "M50 56 C50 74 50 84 60 90", "fill": "none", "stroke": "ink",
                      "stroke-width": "12", "stroke-linecap": "round"})
    tusks = [("path", {"d": "M40 58 Q34 70 40 76", "fill": "none", "stroke": "paper",
                       "stroke-width": "3", "stroke-linecap": "round"}),
             ("path", {"d": "M60 58 Q66 70 60 76", "fill": "none", "stroke": "paper",
                       "stroke-width": "3", "stroke-linecap": "round"})]
    eyes = [("circle", {"cx": "42", "cy": "38", "r": "2.6", "fill": "paper"}),
            ("circle", {"cx": "58", "cy": "38", "r": "2.6", "fill": "paper"})]
    return ears + ear_lines + [head, trunk] + tusks + eyes


def lion() -> list[Shape]:
    points = []
    for k in range(28):
        radius = 46 if k % 2 == 0 else 34
        angle = math.pi * 2 * k / 28
        points.append(f"{50 + radius * math.cos(angle):.1f},{50 + radius * math.sin(angle):.1f}")
    mane = ("polygon", {"points": " ".join(points), "fill": "ink"})
    face = ("circle", {"cx": "50", "cy": "52", "r": "24", "fill": "paper"})
    eyes = [("circle", {"cx": "41", "cy": "46", "r": "3.2", "fill": "ink"}),
            ("circle", {"cx": "59", "cy": "46", "r": "3.2", "fill": "ink"})]
    nose = ("path", {"d": "M44 56 L56 56 L50 63 Z", "fill": "ink"})
    mouth = ("path", {"d": "M50 63 L50 67 M42 68 Q50 74 58 68", "fill": "none", "stroke": "ink",
                      "stroke-width": "2.5", "stroke-linecap": "round"})
    return [mane, face] + eyes + [nose, mouth]


def crocodile() -> list[Shape]:
    upper = ("path", {"d": "M6 52 L6 38 Q14 26 30 30 L40 24 L50 32 L94 40 Q98 44 94 48 Z",
                      "fill": "ink"})
    lower = ("path", {"d": "M6 58 L92 60 Q96 66 90 68 L30 74 Q12 74 6 58 Z", "fill": "ink"})
    teeth = ("path", {"d": "M20 52 " + " ".join(f"L{x + 4} 57 L{x + 8} 52" for x in range(20, 88, 8)),
                      "fill": "none", "stroke": "ink", "stroke-width": "2.5"})
    eye = ("circle", {"cx": "38", "cy": "31", "r": "3.5", "fill": "paper"})
    scutes = [("path", {"d": f"M{x} 30 l4 -6 l4 6", "fill": "ink"}) for x in (14, 22)]
    return [upper, lower, teeth, eye] + scutes


def okapi() -> list[Shape]:
    body = ("path", {"d": "M22 44 Q30 30 60 34 Q76 36 80 44 L78 58 Q60 62 30 60 Z", "fill": "ink"})
    neck = ("path", {"d": "M70 40 L80 14 L94 14 L92 22 L84 24 L80 46 Z", "fill": "ink"})
    ears = ("path", {"d": "M82 14 L80 4 L86 12 Z", "fill": "ink"})
    legs = []
    for x in (28, 38, 66, 74):
        legs.append(("rect", {"x": str(x), "y": "56", "width": "6", "height": "38", "fill": "ink"}))
        legs += [("rect", {"x": str(x), "y": str(y), "width": "6", "height": "2.4", "fill": "paper"})
                 for y in (62, 68, 74, 80)]
    rump = [("path", {"d": f"M{x} 44 L{x + 3} 58", "stroke": "paper", "stroke-width": "2"})
            for x in (24, 29, 34)]
    return [body, neck, ears] + legs + rump


EMBLEMS = {"zebra": zebra, "gazelle": gazelle, "elephant": elephant, "lion": lion,
           "crocodile": crocodile, "okapi": okapi}


class _Element(BaseElement):
    """Any SVG element by tag name (svgwrite's shape helpers want positional geometry)."""

    def __init__(self, tag: str, **attributes) -> None:
        self.elementname = tag
        super().__init__(**attributes)


def emblem(drawing, name: str, cx: float, cy: float, size: float, ink: str, paper: str):
    """The emblem ``name`` scaled to ``size`` mm square, centred on (cx, cy)."""
    scale = size / 100
    group = drawing.g(transform=f"translate({cx - size / 2:.3f} {cy - size / 2:.3f}) scale({scale:.5f})",
                      **{"class": f"emblem {name}"})
    for tag, attributes in EMBLEMS[name]():
        resolved = {k: (ink if v == "ink" else paper if v == "paper" else v)
                    for k, v in attributes.items()}
        group.add(_Element(tag, debug=False, **{k.replace("-", "_"): v for k, v in resolved.items()}))
    return group
