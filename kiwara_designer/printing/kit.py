"""The print-and-play kit: token sheet, totem and Okapi card, as gutter-fold sheets.

Fronts lie left of a dashed fold line and backs mirror them on the right: fold along the line
(glue inside if you like) and cut, and every piece has its back behind its front.
"""
from __future__ import annotations

from dataclasses import dataclass

from .art import emblem
from .sheet import INK, Page, new_drawing, text
from .page import PrintError, PrintOptions, mm


@dataclass(frozen=True)
class Animal:
    name: str
    points: int
    count: int   # per player


# The rules reference's tokens: 15 per player.
ANIMALS = (Animal("zebra", 6, 5), Animal("gazelle", 2, 6), Animal("elephant", 5, 1),
           Animal("lion", 1, 1), Animal("crocodile", 0, 2))
OKAPI_POINTS = 5


@dataclass(frozen=True)
class PlayerColours:
    name: str
    fill: str
    ink: str


# Light sand and dark umber: told apart in colour and in greyscale alike.
PLAYERS = (PlayerColours("sand", "#F2E6C4", "#3B2A1A"), PlayerColours("umber", "#4A3325", "#F5EBD3"))
COLUMNS, GUTTER, HEADER = 5, 6.0, 12.0


def player_tokens() -> list[Animal]:
    """One player's 15 tokens in sheet order."""
    return [animal for animal in ANIMALS for _ in range(animal.count)]


def _fold_line(drawing, x: float, top: float, bottom: float):
    line = drawing.line((mm(x), mm(top)), (mm(x), mm(bottom)), stroke="#888888", stroke_width=0.3,
                        stroke_dasharray="2,2")
    line["class"] = "fold-line"
    return line


def _token_front(drawing, animal: Animal, colours: PlayerColours, player: int, cx: float,
                 cy: float, d: float):
    token = drawing.g(**{"class": "token front", "data-player": str(player),
                         "data-animal": animal.name, "data-points": str(animal.points)})
    token.add(drawing.circle((mm(cx), mm(cy)), mm(d / 2), fill=colours.fill, stroke=INK,
                             stroke_width=0.3))
    token.add(drawing.circle((mm(cx), mm(cy)), mm(d / 2 - 0.06 * d), fill="none", stroke=colours.ink,
                             stroke_width=mm(0.02 * d)))
    token.add(emblem(drawing, animal.name, cx, cy - 0.11 * d, 0.48 * d, colours.ink, colours.fill))
    token.add(text(drawing, str(animal.points), cx, cy + 0.27 * d, 0.2 * d, weight="bold",
                    fill=colours.ink, class_="points"))
    return token


def _token_back(drawing, colours: PlayerColours, player: int, cx: float, cy: float, d: float):
    """Face down: the player's colour, concentric rings, no animal and no points."""
    token = drawing.g(**{"class": "token back", "data-player": str(player)})
    token.add(drawing.circle((mm(cx), mm(cy)), mm(d / 2), fill=colours.fill, stroke=INK,
                             stroke_width=0.3))
    for k in (0.38, 0.26, 0.14):
        token.add(drawing.circle((mm(cx), mm(cy)), mm(k * d), fill="none", stroke=colours.ink,
                                 stroke_width=mm(0.025 * d)))
    return token


def token_diameter(options: PrintOptions, cell_mm: float) -> float:
    """A token fills 80 % of a cell, shrunk if 2 × 15 tokens and their backs do not fit."""
    width, height = options.printable
    pitch = min((width / 2 - GUTTER) / COLUMNS, (height - HEADER) / (2 * 3))
    if pitch - 2.0 < 8:
        raise PrintError(f"{options.paper.name} paper is too small for the token sheet")
    d = min(0.8 * cell_mm, pitch - 2.0)
    if d < 8:
        raise PrintError(f"cells of {cell_mm:g} mm are too small for tokens; use --cell-mm 10 or more")
    return d


def tokens_page(options: PrintOptions, cell_mm: float) -> Page:
    paper, margin = options.paper, options.margin_mm
    width, height = options.printable
    d = token_diameter(options, cell_mm)
    drawing = new_drawing(paper, "Kiwara tokens")
    fold = paper.width_mm / 2
    for i, line in enumerate(("Kiwara tokens, 15 per player: fold along the dashed line, backs "
                              "behind fronts, then cut out the discs.",
                              "Zebra 6, gazelle 2, elephant 5, lion 1, crocodile 0 points; "
                              "a face-down token shows its back and scores 0.")):
        drawing.add(text(drawing, line, margin, margin + 1 + 4.5 * i, 3.0, anchor="start",
                          class_="sheet-title"))
    drawing.add(_fold_line(drawing, fold, margin + HEADER - 2, paper.height_mm - margin))
    pitch_x = (width / 2 - GUTTER) / COLUMNS
    pitch_y = (height - HEADER) / 6
    for player, colours in enumerate(PLAYERS):
        for k, animal in enumerate(player_tokens()):
            row, col = 3 * player + k // COLUMNS, k % COLUMNS
            cx = fold - GUTTER - (COLUMNS - col - 0.5) * pitch_x
            cy = margin + HEADER + (row + 0.5) * pitch_y
            drawing.add(_token_front(drawing, animal, colours, player, cx, cy, d))
            drawing.add(_token_back(drawing, colours, player, 2 * fold - cx, cy, d))
    return Page("tokens", paper.width_mm, paper.height_mm, drawing.tostring())


CARD_W, CARD_H = 63.0, 88.0   # the usual poker-card size
TOTEM_W, TOTEM_H, TAB_H = 14.0, 40.0, 8.0


def _okapi_card(drawing, x: float, y: float):
    card = drawing.g(**{"class": "card front", "data-card": "okapi", "data-points": str(OKAPI_POINTS)})
    card.add(drawing.rect((mm(x), mm(y)), (CARD_W, CARD_H), rx=3, fill="#F4EEDC", stroke=INK,
                          stroke_width=0.4))
    card.add(drawing.rect((mm(x + 3), mm(y + 3)), (CARD_W - 6, CARD_H - 6), rx=2, fill="none",
                          stroke="#8A6641", stroke_width=0.6))
    card.add(text(drawing, "OKAPI", x + CARD_W / 2, y + 11, 7, weight="bold"))
    card.add(emblem(drawing, "okapi", x + CARD_W / 2, y + 36, 36, "#5B3A29", "#F4EEDC"))
    card.add(text(drawing, f"+{OKAPI_POINTS}", x + CARD_W / 2, y + 61, 10, weight="bold"))
    for i, line in enumerate(("Taken by the player whose", "placement first fills a",
                              "territory. +5 at the end.")):
        card.add(text(drawing, line, x + CARD_W / 2, y + 71 + 4.2 * i, 3.2))
    return card


def _card_back(drawing, x: float, y: float):
    card = drawing.g(**{"class": "card back"})
    card.add(drawing.rect((mm(x), mm(y)), (CARD_W, CARD_H), rx=3, fill="#4A3325", stroke=INK,
                          stroke_width=0.4))
    for k in range(1, 6):
        card.add(drawing.rect((mm(x + 3 * k), mm(y + 3 * k)), (CARD_W - 6 * k, CARD_H - 6 * k),
                              rx=2, fill="none", stroke="#D8C9A0", stroke_width=0.5))
    card.add(text(drawing, "KIWARA", x + CARD_W / 2, y + CARD_H / 2, 7, weight="bold",
                   fill="#F5EBD3"))
    return card


def _totem(drawing, x: float, y: float):
    """A standee: front below a fold, back above it upside down, a base tab at each end."""
    totem = drawing.g(**{"class": "totem"})
    fold_y = y + TAB_H + TOTEM_H
    for upside_down in (False, True):
        top = fold_y if not upside_down else fold_y - TOTEM_H
        face = drawing.g(**{"class": "totem-face"})
        face.add(drawing.rect((mm(x), mm(top)), (TOTEM_W, TOTEM_H), fill="#8A6641", stroke=INK,
                              stroke_width=0.3))
        for k, name in enumerate(("lion", "elephant", "zebra")):
            cy = top + 7 + 13 * k
            face.add(drawing.circle((mm(x + TOTEM_W / 2), mm(cy)), 6, fill="#F2E6C4"))
            face.add(emblem(drawing, name, x + TOTEM_W / 2, cy, 9.5, "#3B2A1A", "#F2E6C4"))
        if upside_down:
            face.rotate(180, center=(mm(x + TOTEM_W / 2), mm(top + TOTEM_H / 2)))
        totem.add(face)
    for tab_top in (y, fold_y + TOTEM_H):
        tab = drawing.rect((mm(x), mm(tab_top)), (TOTEM_W, TAB_H), fill="#D8C9A0", stroke=INK,
                           stroke_width=0.3)
        tab["class"] = "totem-tab"
        totem.add(tab)
    for line_y in (y + TAB_H, fold_y, fold_y + TOTEM_H):
        line = drawing.line((mm(x - 2), mm(line_y)), (mm(x + TOTEM_W + 2), mm(line_y)),
                            stroke="#888888", stroke_width=0.3, stroke_dasharray="2,2")
        line["class"] = "fold-line"
        totem.add(line)
    totem.add(text(drawing, "totem: fold on the dashed lines, tabs outwards", x + TOTEM_W + 4,
                    fold_y, 3, anchor="start"))
    return totem


def cards_page(options: PrintOptions) -> Page:
    """The Okapi card (front and back, gutter fold) and the totem standee."""
    paper, margin = options.paper, options.margin_mm
    width, height = options.printable
    total_h = 2 * (TOTEM_H + TAB_H)
    if width < 2 * CARD_W + 2 * GUTTER + TOTEM_W + 70 or height < max(CARD_H, total_h) + HEADER:
        raise PrintError(f"{paper.name} paper is too small for the cards sheet")
    drawing = new_drawing(paper, "Kiwara Okapi card and totem")
    drawing.add(text(drawing, "Kiwara: the Okapi card and the totem. Fold the card along the "
                      "dashed line, back behind front, then cut.", margin, margin + 2, 3.0,
                      anchor="start", class_="sheet-title"))
    fold = margin + CARD_W + GUTTER
    top = margin + HEADER
    drawing.add(_okapi_card(drawing, fold - GUTTER - CARD_W, top))
    drawing.add(_card_back(drawing, fold + GUTTER, top))
    drawing.add(_fold_line(drawing, fold, top, top + CARD_H))
    drawing.add(_totem(drawing, fold + GUTTER + CARD_W + 20, top))
    return Page("cards", paper.width_mm, paper.height_mm, drawing.tostring())


def kit_pages(options: PrintOptions, cell_mm: float) -> list[Page]:
    """Token sheet and cards sheet. The reinforcement deck is left out: its card texts are not
    known and the engine has no deck yet (see the rules reference)."""
    return [tokens_page(options, cell_mm), cards_page(options)]
