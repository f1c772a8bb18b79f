"""The board on a screen (``kiwara studio``): the printed board piece itself (:func:`draw_board`,
the same geometry, tints, rivers and stones as the print files), with the game's tokens and
totem on it and a transparent target over each cell for the page's clicks and highlights.

Units are the print's millimetres at :data:`SCREEN_CELL_MM`; the page scales the SVG to fit.
Cells carry ``data-cell`` (``"c3"``) and stones ``data-position``, so the page only toggles
classes on elements the server drew and never computes a coordinate itself.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Sequence

from ..geometry import Grid
from ..layout import Layout
from .art import emblem
from .board import TOKEN_SHARE, BoardGeometry, draw_board, tint
from .kit import PLAYERS
from ....printing.page import PrintOptions, mm
from ....printing.sheet import INK, new_drawing

SCREEN_CELL_MM = 25.0
ANIMAL_NAMES = {"Z": "zebra", "G": "gazelle", "E": "elephant", "L": "lion", "C": "crocodile"}
TOTEM_COLOUR = "#C0392B"

# A token as the screen needs it: (owner 0 or 1, kind letter Z G E L C, face up).
ScreenToken = tuple[int, str, bool]


def screen_board(layout: Layout, tokens: Sequence[ScreenToken | None] = (),
                 totem: int | None = None, direction: str = "clockwise",
                 cell: float = SCREEN_CELL_MM) -> str:
    """Inline SVG of ``layout`` as printed (no title block), ``tokens`` (one entry per cell,
    or empty) and the ``totem`` on its stone; one ``rect.hit`` per cell on top.

    The board and each token are drawn once and kept (a game shows the same board on every
    move, and drawing is most of a request's time); a position is their concatenation."""
    below, above = _board_parts(layout.rows, direction, cell)
    grid = layout.grid
    parts = [below, '<g class="tokens">']
    parts += [_token_svg(grid, index, token, cell) for index, token in enumerate(tokens)
              if token is not None]
    parts.append("</g>")
    if totem is not None:
        parts.append(_totem_svg(grid, totem, direction, cell))
    parts.append(above)
    return "".join(parts)


@lru_cache(maxsize=512)
def _board_parts(rows: tuple[str, ...], direction: str, cell: float) -> tuple[str, str]:
    """The SVG up to where tokens go (the printed board piece) and from there on (the click
    targets), for a layout given by its rows (its names label it: a Layout is equal to any
    renaming of itself, so it would be the wrong key)."""
    layout = Layout.from_rows(rows)
    geometry = BoardGeometry(layout.grid, cell, direction)
    trim = geometry.trim
    drawing = new_drawing(trim.width, trim.height, "Kiwara board")
    drawing.attribs.update({"viewBox": f"{mm(trim.x):g} {mm(trim.y):g} {mm(trim.width):g} "
                                       f"{mm(trim.height):g}", "class": "board-svg"})
    drawing.attribs.pop("width", None)
    drawing.attribs.pop("height", None)
    drawing.add(draw_board(drawing, layout, geometry, PrintOptions()))   # the print's tints
    # cells the page marks as breaking a rule get red hatching over their own colour
    hatch = drawing.defs.add(drawing.pattern(id="problem-hatch", size=(4, 4),
                                             patternUnits="userSpaceOnUse",
                                             patternTransform="rotate(45)"))
    hatch.add(drawing.rect((0, 0), (1.3, 4), fill="#C62828"))
    grid = layout.grid
    hits = drawing.g(**{"class": "hits"})
    for index in grid.cells:
        r = geometry.cell_rect(index)
        # painted but see-through, so it takes the pointer; the page's CSS tints it
        hit = drawing.rect((mm(r.x), mm(r.y)), (mm(r.width), mm(r.height)), fill="#FFFFFF",
                           fill_opacity=0)
        hit.update({"class": "hit", "data-cell": grid.cell_name(index)})
        hits.add(hit)
    drawing.add(hits)
    text = drawing.tostring()
    split = text.index('<g class="hits">')
    return text[:split], text[split:]


@lru_cache(maxsize=4096)
def _token_svg(grid: Grid, index: int, token: ScreenToken, cell: float) -> str:
    geometry = BoardGeometry(grid, cell)
    drawing = new_drawing(1, 1, "")
    return _token(drawing, geometry, index, token, grid.cell_name(index)).tostring()


@lru_cache(maxsize=1024)
def _totem_svg(grid: Grid, totem: int, direction: str, cell: float) -> str:
    geometry = BoardGeometry(grid, cell, direction)
    drawing = new_drawing(1, 1, "")
    x, y = geometry.stone_centre(totem)
    marker = drawing.g(**{"class": "totem", "data-position": str(totem)})
    marker.add(drawing.circle((mm(x), mm(y)), mm(geometry.stone_radius * 1.25), fill="none",
                              stroke=TOTEM_COLOUR, stroke_width=mm(0.08 * cell)))
    return marker.tostring()


def territory_colours(layout: Layout) -> dict[str, str]:
    """Each territory's colour, by name: the print's rule (:func:`draw_board`: the tints in
    the order the territories appear, reading the board row by row), so the screen's board is
    the printed one, whatever the territories are called."""
    return {name: tint(index) for index, name in enumerate(layout.names)}


def _token(drawing, geometry: BoardGeometry, index: int, token: ScreenToken, name: str):
    """A player's token as the kit prints it (disc in the player's colours, the animal's
    emblem); face down: the printed back's rings with the animal faint, since which animal lies
    there still matters (a lion chases a face-down gazelle too)."""
    owner, kind, face_up = token
    colours = PLAYERS[owner]
    cx, cy = geometry.cell_centre(index)
    d = TOKEN_SHARE * geometry.cell
    group = drawing.g(**{"class": "token" + ("" if face_up else " face-down"),
                         "data-cell": name, "data-player": str(owner),
                         "data-animal": ANIMAL_NAMES[kind]})
    group.add(drawing.circle((mm(cx), mm(cy)), mm(d / 2), fill=colours.fill, stroke=INK,
                             stroke_width=mm(0.012 * d)))
    if face_up:
        group.add(emblem(drawing, ANIMAL_NAMES[kind], cx, cy, 0.62 * d, colours.ink, colours.fill))
    else:
        for k in (0.38, 0.26):
            group.add(drawing.circle((mm(cx), mm(cy)), mm(k * d), fill="none",
                                     stroke=colours.ink, stroke_width=mm(0.025 * d)))
        faint = emblem(drawing, ANIMAL_NAMES[kind], cx, cy, 0.42 * d, colours.ink, colours.fill)
        faint["opacity"] = 0.35
        group.add(faint)
    return group
