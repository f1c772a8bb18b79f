"""A one-page rules summary for the variant being printed, beside the fold-up totem.

The pieces (the folded card, the totem) are placed first; the text is then laid out around
them by measurement (:func:`~kiwara_designer.printing.sheet.text_width`, an upper bound for the
renderer's font): no text comes within :data:`CLEAR` of a piece's bleed, of its crop marks or
of its fold lines, and the body text shrinks (down to :data:`SMALLEST_BODY`) before the paper
is declared too small.

Everything a variant can change is read from it: token counts and points, the Okapi's points,
the totem's steps and direction, the lion's and crocodile's powers, ties, who places first.
"""
from __future__ import annotations

import math

from ..variant import KIND_NAMES, KiwaraVariant
from .art import emblem
from ....printing.cards import CARD_SIZE, Card
from ....printing.page import PrintError, PrintOptions, Rect, mm
from ....printing.sheet import (CROP_GAP, CROP_LENGTH, INK, Page, crop_marks, cut_guide,
                                new_drawing, safe_area, text, text_box, text_width,
                                wrap_measured)

TOTEM_W, TOTEM_H, TAB_H = 14.0, 40.0, 8.0
TOTEM_COLUMN = 30.0          # the right-hand column holding the totem
FOLD_GAP = 6.0               # between a card's front and its back, the fold line in the middle
BODY, LEADING = 3.4, 1.4     # body text size (mm) and line height (em)
SMALLEST_BODY = 2.6          # body text shrinks this far to fit before the paper is too small
CLEAR = 2.0                  # text keeps this far from a piece's bleed, crop marks and fold lines
TITLE = 6.0


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _handicap(handicap: tuple[int, int]) -> str:
    """The handicap deal in words ('' when there is none)."""
    deals = [f"{_plural(n, 'card')} to the {who} player"
             for n, who in zip(handicap, ("first", "second")) if n]
    if not deals:
        return ""
    return ("Handicap: before the game, deal " + ", then ".join(deals)
            + " from the top of the deck (usable from the first turn). ")


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
         "Shuffle the reinforcement deck face down. " + _handicap(variant.handicap)
         + "The player whose placement (with its effects) first fills a territory draws the "
         "top card (once a game; an empty deck gives nothing)." if deck else
         "The player whose placement (with its effects) first fills a territory takes the "
         f"Okapi card: {variant.okapi_points:+d} points at the end."),
    ]
    if deck:
        sections.append((
            "Cards", "Held cards lie face up for both players to see. At the start of one of "
                     "your placement turns (not the opening, not a pass) you may use one action "
                     "card, at most one a turn and never in the turn you drew it; then place as "
                     "usual. A used card is spent. Points cards are never used: each scores its "
                     "points for its holder at the end, while unused action cards score "
                     "nothing. Equal totals are a draw."))
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
    outline = Rect(x, y, TOTEM_W, 2 * (TAB_H + TOTEM_H)).grown(bleed)
    totem = drawing.g(**{"class": "totem", "data-bleed": _box(outline)})
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


def _box(r: Rect) -> str:
    return f"{mm(r.x):g} {mm(r.y):g} {mm(r.width):g} {mm(r.height):g}"


def _folded_card(drawing, card: Card, trim: Rect, bleed: float):
    """``card``'s front, and below a fold line its back turned upside down (upright once
    folded): cut round the front after folding."""
    back_trim = trim.moved(0, trim.height + FOLD_GAP)
    group = drawing.g(**{"class": "folded-card",
                         "data-bleed": _box(trim.grown(bleed).union(back_trim.grown(bleed)))})
    group.add(card.piece().front(drawing, trim, trim.grown(bleed)))
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


def _footprint(trim: Rect, bleed: float, marks: bool, fold_reach: float, sides: str) -> Rect:
    """What a piece covers on the page: its bleed, its fold lines (``fold_reach`` past its
    sides) and, with ``marks``, its crop marks on ``sides`` (a conservative rectangle)."""
    reach = bleed + CROP_GAP + CROP_LENGTH if marks else 0.0
    left = max(bleed, fold_reach, reach if "l" in sides else 0.0)
    right = max(bleed, fold_reach, reach if "r" in sides else 0.0)
    top = max(bleed, reach if "t" in sides else 0.0)
    bottom = max(bleed, reach if "b" in sides else 0.0)
    return Rect(trim.x - left, trim.y - top, trim.width + left + right,
                trim.height + top + bottom)


def _flow(sections, columns: list[Rect], size: float):
    """The (heading, lines) laid down the columns at body ``size``: a list of (x, y, line,
    bold) and whether it all fits."""
    placed, column, y = [], 0, columns[0].y + 2
    step = size * LEADING
    for heading, paragraph in sections:
        lines = wrap_measured(paragraph, columns[column].width, size)
        if y + (1 + len(lines)) * step > columns[column].bottom and column + 1 < len(columns):
            column, y = column + 1, columns[column + 1].y + 2
            lines = wrap_measured(paragraph, columns[column].width, size)
        x = columns[column].x
        placed.append((x, y, heading, True))
        y += step
        for line in lines:
            placed.append((x, y, line, False))
            y += step
        y += 2
    fits = all(text_box(x, yy, line, size + 0.4 * bold, "start").bottom
               <= columns[0].bottom + 1e-9 for x, yy, line, bold in placed)
    return placed, fits


def rules_page(options: PrintOptions, variant: KiwaraVariant, card: Card | None = None) -> Page:
    """The rules summary in two columns with the token table on top, then ``card`` (folded:
    front over back) and the totem on the right, the text kept clear of both."""
    paper, margin, bleed = options.paper, options.margin_mm, options.bleed_mm
    width, height = paper.width_mm, paper.height_mm
    totem_h = 2 * (TAB_H + TOTEM_H)
    card_column = CARD_SIZE[0] + 8 if card else 0.0
    too_small = PrintError(f"{paper.name} paper is too small for the rules summary")
    if (width - 2 * margin - card_column - TOTEM_COLUMN < 120
            or height - 2 * margin < max(totem_h + 20, 2 * CARD_SIZE[1] + FOLD_GAP if card else 0)):
        raise too_small
    drawing = new_drawing(width, height, f"Kiwara rules: {variant.name}")

    # The pieces first, and what they cover (bleed, fold lines, crop marks).
    x = width - margin - TOTEM_COLUMN / 2 - TOTEM_W / 2
    top = margin + (height - 2 * margin - totem_h) / 2
    totem_trim = Rect(x, top, TOTEM_W, totem_h)
    pieces = [(totem_trim, "tblr")]
    keep_out = [_footprint(totem_trim, bleed, options.marks, 2.0, "tblr")]
    card_trim = None
    if card:
        card_trim = Rect(width - margin - TOTEM_COLUMN - CARD_SIZE[0] - 4,
                         margin + (height - 2 * margin - 2 * CARD_SIZE[1] - FOLD_GAP) / 2,
                         *CARD_SIZE)
        back_trim = card_trim.moved(0, CARD_SIZE[1] + FOLD_GAP)
        # the front's marks above and beside it, the back's below and beside it: a mark
        # below the front would land on the back
        pieces += [(card_trim, "tlr"), (back_trim, "blr")]
        keep_out += [_footprint(card_trim.union(back_trim), bleed, options.marks, 4.0, "tblr")]
    right = min(r.x for r in keep_out) - CLEAR - 0.05   # the text's right-hand limit
    # (0.05 mm spare: the SVG rounds lengths to 0.001 mm)

    title = f"Kiwara rules summary: variant {variant.name}"
    size = min(TITLE, math.floor(100 * (right - margin) / text_width(title, 1.0)) / 100)
    drawing.add(text(drawing, title, margin, margin + 3, size, anchor="start", weight="bold",
                     class_="sheet-title"))
    area = Rect(margin, margin + 11, right - margin, height - 2 * margin - 11)

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

    # The sections flow down two columns, in the largest body size that fits.
    gap = 8.0
    column_w = (area.width - gap) / 2
    columns = [Rect(area.x, y, column_w, area.bottom - y),
               Rect(area.x + column_w + gap, y, column_w, area.bottom - y)]
    body = BODY
    while True:
        placed, fits = _flow(summary(variant), columns, body)
        if fits:
            break
        body = round(body - 0.2, 1)
        if body < SMALLEST_BODY:
            raise too_small
    for x_, y_, line, bold in placed:
        if bold:
            drawing.add(text(drawing, line, x_, y_, body + 0.4, anchor="start", weight="bold",
                             class_="rules-heading"))
        else:
            drawing.add(text(drawing, line, x_, y_, body, anchor="start", class_="rules-text"))

    drawing.add(_totem(drawing, x, top, bleed))
    # The totem's caption, centred above it between the card's footprint and the margin.
    lo = (keep_out[1].right + CLEAR + 0.05) if card else width - margin - TOTEM_COLUMN
    hi = width - margin
    caption = "totem: cut out, fold on the dashed lines, tabs outwards"
    lines = wrap_measured(caption, hi - lo, 2.6)
    bottom = keep_out[0].y - CLEAR - 0.05          # the lowest line's ink stays above this
    for i, line in enumerate(reversed(lines)):
        y_ = bottom - 0.25 * 2.6 - 0.35 * 2.6 - 3.4 * i
        drawing.add(text(drawing, line, (lo + hi) / 2, y_, 2.6, class_="totem-caption"))
    if card:
        drawing.add(_folded_card(drawing, card, card_trim, bleed))
    safe = safe_area(width, height)
    for trim, sides in pieces:
        limit = safe
        if card_trim is not None:   # no mark on the neighbouring piece's bleed
            if trim is totem_trim:
                left = card_trim.right + bleed + 1
                limit = Rect(left, safe.y, safe.right - left, safe.height)
            else:
                limit = Rect(safe.x, safe.y, totem_trim.x - bleed - 1 - safe.x, safe.height)
        if options.marks:
            for mark in crop_marks(drawing, trim, bleed, limit=limit, sides=sides):
                drawing.add(mark)
        elif sides != "blr":      # the back is cut with the front, folded
            drawing.add(cut_guide(drawing, trim))
    box = totem_trim.union(card_trim) if card_trim else totem_trim   # the front: cut folded
    return Page("rules", width, height, drawing.tostring(), box, bleed)
