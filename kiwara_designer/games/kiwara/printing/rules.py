"""A one-page rules summary for the variant being printed, beside the fold-up totem.

Everything a variant can change is read from it: token counts and points, the Okapi's points,
the totem's steps and direction, the lion's and crocodile's powers, ties, who places first.
"""
from __future__ import annotations

from ..variant import KIND_NAMES, KiwaraVariant
from .art import emblem
from ....printing.cards import CARD_SIZE, Card
from ....printing.page import PrintError, PrintOptions, Rect, mm
from ....printing.sheet import INK, Page, crop_marks, cut_guide, new_drawing, safe_area, text, wrap

TOTEM_W, TOTEM_H, TAB_H = 14.0, 40.0, 8.0
TOTEM_COLUMN = 30.0          # the right-hand column holding the totem
FOLD_GAP = 6.0               # between a card's front and its back, the fold line in the middle
BODY, LEADING = 3.4, 1.4     # body text size (mm) and line height (em)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def summary(variant: KiwaraVariant) -> list[tuple[str, str]]:
    """The rules as (heading, paragraph) pairs, worded from the variant's parameters."""
    direction = variant.totem_direction
    lo, hi = variant.totem_min_step, variant.totem_max_step
    steps = _plural(lo, "stone") if lo == hi else f"{lo} to {hi} stones"
    first = "second" if variant.first_placer == "second" else "first"
    tie = ("a tied territory scores for nobody" if variant.territory_tie == "nobody"
           else "a tied territory scores for both players")
    deck = getattr(variant, "reinforcement", "okapi") == "deck"
    sections = [
        ("Aim", "At the end, the player with more tokens in a territory (face-down ones count) "
                "scores the points of every face-up token in it, both players' tokens; "
                f"{tie}. The higher total wins."),
        ("Turns", "The first player opens by putting the totem on any stone. Then, starting "
                  f"with the {first} player, each turn: place one of your tokens on an empty cell "
                  "of the line the totem faces, then move the totem "
                  f"{steps} {direction} to a stone whose line has an empty cell (if none "
                  f"of those has one, on {direction} to the first that does). With no tokens "
                  "left, pass. The game ends when the board is full."),
        ("Reinforcement" if deck else "Okapi",
         "The player whose placement (with its effects) first fills a territory draws the top "
         "card of the reinforcement deck." if deck else
         "The player whose placement (with its effects) first fills a territory takes the "
         f"Okapi card: {variant.okapi_points:+d} points at the end."),
    ]
    present = dict(zip(KIND_NAMES, variant.tokens))
    if present["lion"]:
        effects = []
        if variant.lion_gazelles_flee:
            effects.append("gazelles next to it flee back to their owner's hand")
        if variant.lion_flips_zebras:
            effects.append("zebras next to it turn face down")
        shield = "rivers shield them" if variant.lion_blocked_by_rivers else "rivers do not shield"
        lion = (f"Placed, {' and '.join(effects)} ({shield})." if effects else "No power.")
        if variant.face_down_next_to_lion:
            lion += " A zebra or gazelle placed next to a lion goes face down."
        sections.append(("Lion", lion))
    if present["crocodile"]:
        across = " across a river" if variant.crocodile_swap_needs_river else ""
        crocodile = {0: "No power: it never swaps.",
                     1: f"Placed, it may swap places once with a gazelle next to it{across}.",
                     "chain": f"Placed, it may swap places with a gazelle next to it{across}, "
                              "then again from its new cell, as often as you like (each "
                              "gazelle once)."}[variant.crocodile_swaps]
        if variant.crocodile_swaps and variant.swapped_gazelle_face_down_next_to_lion:
            crocodile += " A swapped gazelle landing next to a lion turns face down."
        sections.append(("Crocodile", crocodile))
    if present["elephant"]:
        sections.append(("Elephant", "No power: it fears nobody and frightens nobody."))
    sections.append(("Face down", "A face-down token scores 0 but counts for majorities."))
    return sections


def _totem(drawing, x: float, y: float, bleed: float):
    """A standee: front below a fold, back above it upside down, a base tab at each end."""
    totem = drawing.g(**{"class": "totem"})
    outline = Rect(x, y, TOTEM_W, 2 * (TAB_H + TOTEM_H)).grown(bleed)
    totem.add(drawing.rect((mm(outline.x), mm(outline.y)), (mm(outline.width), mm(outline.height)),
                           fill="#D8C9A0"))
    fold_y = y + TAB_H + TOTEM_H
    for upside_down in (False, True):
        top = fold_y if not upside_down else fold_y - TOTEM_H
        face = drawing.g(**{"class": "totem-face"})
        face.add(drawing.rect((mm(x - bleed), mm(top)), (mm(TOTEM_W + 2 * bleed), TOTEM_H),
                              fill="#8A6641"))
        for k, name in enumerate(("lion", "elephant", "zebra")):
            cy = top + 7 + 13 * k
            face.add(drawing.circle((mm(x + TOTEM_W / 2), mm(cy)), 6, fill="#F2E6C4"))
            face.add(emblem(drawing, name, x + TOTEM_W / 2, cy, 9.5, "#3B2A1A", "#F2E6C4"))
        if upside_down:
            face.rotate(180, center=(mm(x + TOTEM_W / 2), mm(top + TOTEM_H / 2)))
        totem.add(face)
    for line_y in (y + TAB_H, fold_y, fold_y + TOTEM_H):
        line = drawing.line((mm(x - 2), mm(line_y)), (mm(x + TOTEM_W + 2), mm(line_y)),
                            stroke="#888888", stroke_width=0.3, stroke_dasharray="2,2")
        line["class"] = "fold-line"
        totem.add(line)
    return totem


def _folded_card(drawing, card: Card, trim: Rect, bleed: float):
    """``card``'s front, and below a fold line its back turned upside down (upright once
    folded): cut round the front after folding."""
    group = drawing.g(**{"class": "folded-card"})
    group.add(card.piece().front(drawing, trim, trim.grown(bleed)))
    back_trim = trim.moved(0, trim.height + FOLD_GAP)
    back = card.piece().back(drawing, back_trim, back_trim.grown(bleed))
    back.rotate(180, center=(mm(back_trim.x + back_trim.width / 2),
                             mm(back_trim.y + back_trim.height / 2)))
    group.add(back)
    fold_y = trim.bottom + FOLD_GAP / 2
    line = drawing.line((mm(trim.x - 4), mm(fold_y)), (mm(trim.right + 4), mm(fold_y)),
                        stroke="#888888", stroke_width=0.3, stroke_dasharray="2,2")
    line["class"] = "fold-line"
    group.add(line)
    return group


def rules_page(options: PrintOptions, variant: KiwaraVariant, card: Card | None = None) -> Page:
    """The rules summary in two columns with the token table on top, then ``card`` (folded:
    front over back) and the totem on the right."""
    paper, margin = options.paper, options.margin_mm
    width, height = paper.width_mm, paper.height_mm
    totem_h = 2 * (TAB_H + TOTEM_H)
    card_column = CARD_SIZE[0] + 8 if card else 0.0
    if (width - 2 * margin - card_column - TOTEM_COLUMN < 120
            or height - 2 * margin < max(totem_h + 20, 2 * CARD_SIZE[1] + FOLD_GAP if card else 0)):
        raise PrintError(f"{paper.name} paper is too small for the rules summary")
    drawing = new_drawing(width, height, f"Kiwara rules: {variant.name}")
    drawing.add(text(drawing, f"Kiwara rules summary: variant {variant.name}", margin, margin + 3,
                     6.0, anchor="start", weight="bold", class_="sheet-title"))
    area = Rect(margin, margin + 11, width - 2 * margin - TOTEM_COLUMN - card_column,
                height - 2 * margin - 11)

    # Token table: emblem, name, count per player, points.
    y = area.y + 4
    table = drawing.g(**{"class": "token-table"})
    for name, count, points in zip(KIND_NAMES, variant.tokens, variant.points):
        if not count:
            continue
        table.add(emblem(drawing, name, area.x + 4, y, 7.0, INK, "#FFFFFF"))
        row = drawing.g(**{"class": "token-row", "data-animal": name, "data-count": str(count),
                           "data-points": str(points)})
        for dx, content in ((11, name), (36, f"{count} per player"), (66, _plural(points, "point"))):
            row.add(text(drawing, content, area.x + dx, y, 3.6, anchor="start"))
        table.add(row)
        y += 8.5
    drawing.add(table)

    # The sections flow down two columns.
    gap = 8.0
    column_w = (area.width - gap) / 2
    columns = [Rect(area.x, y, column_w, area.bottom - y),
               Rect(area.x + column_w + gap, y, column_w, area.bottom - y)]
    column, y = 0, columns[0].y + 2
    for heading, paragraph in summary(variant):
        lines = wrap(paragraph, column_w, BODY)
        needed = (1 + len(lines)) * BODY * LEADING + 2
        if y + needed > columns[column].bottom and column == 0:
            column, y = 1, columns[1].y + 2
        x = columns[column].x
        drawing.add(text(drawing, heading, x, y, BODY + 0.4, anchor="start", weight="bold",
                         class_="rules-heading"))
        y += BODY * LEADING
        for line in lines:
            drawing.add(text(drawing, line, x, y, BODY, anchor="start", class_="rules-text"))
            y += BODY * LEADING
        y += 2
    if y > columns[column].bottom:
        raise PrintError(f"{paper.name} paper is too small for the rules summary")

    x = width - margin - TOTEM_COLUMN / 2 - TOTEM_W / 2
    top = margin + (height - 2 * margin - totem_h) / 2
    drawing.add(_totem(drawing, x, top, options.bleed_mm))
    trims = [Rect(x, top, TOTEM_W, totem_h)]
    caption = "totem: cut out, fold on the dashed lines, tabs outwards"
    lines = wrap(caption, TOTEM_COLUMN - 2, 2.6)
    for i, line in enumerate(lines):
        drawing.add(text(drawing, line, x + TOTEM_W / 2, top - 12 - 3.4 * (len(lines) - 1 - i), 2.6))
    if card:
        card_trim = Rect(width - margin - TOTEM_COLUMN - CARD_SIZE[0] - 4,
                         margin + (height - 2 * margin - 2 * CARD_SIZE[1] - FOLD_GAP) / 2,
                         *CARD_SIZE)
        drawing.add(_folded_card(drawing, card, card_trim, options.bleed_mm))
        trims.append(card_trim)
    for trim in trims:
        if options.marks:
            for mark in crop_marks(drawing, trim, options.bleed_mm, limit=safe_area(width, height)):
                drawing.add(mark)
        else:
            drawing.add(cut_guide(drawing, trim))
    return Page("rules", width, height, drawing.tostring(), trims[0].union(trims[-1]),
                options.bleed_mm)
