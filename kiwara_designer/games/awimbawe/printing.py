"""Awimbawé's print-and-play sheet: the 28 cards and the two Heir cards at 63 × 88 mm, and a
rules summary page, all as the variant defines them (crowns, powers, hyena limit, rounds).

Fronts: the suit's colour, the animal as title, its value large, its crowns drawn as crowns
(negative ones crossed out), the suit and the power's text below. Backs: one pattern for the
deck; an Heir card's front is its silver side and its back the gold one. Sheets go through the
general card API (:mod:`.cards`: nine to a page in duplex, fold otherwise, bleed and crop marks).
"""
from __future__ import annotations

from .cards import ANIMALS, CARDS, EAGLE, KIND, NAMES, SUIT, SUIT_NAMES, VALUE
from .variant import AwimbaweVariant
from ...printing.cards import Card, CardBack, card_pages
from ...printing.page import PrintError, PrintOptions, Rect, mm
from ...printing.sheet import INK, Page, new_drawing, text, wrap_measured

SUIT_COLOURS = ("#CFE3A6", "#F0D49A", "#C9C3D9", "#E8C2A0", "#B9DCF0")   # G D M P, sky
CROWN_INK, CROSS_INK = "#8A6A10", "#B0302A"
BACK = CardBack(label="AWIMBAWÉ", colour="#3E2F4F", ink="#C8B7E0", text_colour="#F3ECFA")
HEIRS = (("White tiger", "#E6E6E6"), ("Black panther", "#BDBDBD"))
GOLD = "#D9B44A"


def power_text(kind: int, variant: AwimbaweVariant) -> str:
    """What a card of ``kind`` does under ``variant``, in a card's few words."""
    if kind == 0:
        return ("Beats the elephant of its own suit." if variant.mouse_beats_elephant
                else "No power.")
    if kind == 1:
        return ("Power: slide the top card of one of your opponent's piles under any of their "
                "pile positions." if variant.rhinoceros_power else "No power.")
    if kind == 2:
        if not variant.cheetah_power:
            return "No power."
        return ("Power: decide who leads the next trick"
                + (" (or leave it to the winner)." if variant.cheetah_may_pass else "."))
    if kind == 3:
        return f"No power. Whoever takes {variant.hyenas_to_lose} hyenas loses the round at once."
    if kind == 4:
        if not variant.snake_power:
            return "No power."
        return ("Power: block one of your opponent's available cards for their next play"
                + (" (a face-down top uncovered this trick too)." if variant.snake_hidden_tops
                   else "; a card in hand is picked blind."))
    if kind == 5:
        return "Beaten by its suit's mouse." if variant.mouse_beats_elephant else "No power."
    return ("On a land card: fight (wins the trick) or flee (the leader wins, the eagle "
            "scores for you)." if variant.eagle_may_flee
            else "On a land card it always fights and wins the trick.")


def _crowns_art(crowns: int):
    """Draw |crowns| crowns in the art box, each crossed out when negative; 'no crowns' for 0."""
    def draw(drawing, box: Rect):
        group = drawing.g(**{"class": "crowns", "data-crowns": str(crowns)})
        if crowns == 0:
            group.add(text(drawing, "no crowns", box.x + box.width / 2, box.y + box.height / 2,
                           4.0, fill=INK))
            return group
        n = abs(crowns)
        size = min(box.width / (n + 0.5), box.height * 0.6, 14.0)
        y = box.y + (box.height - size) / 2
        x0 = box.x + (box.width - n * size) / 2
        for i in range(n):
            x = x0 + i * size + size * 0.1
            w, h = size * 0.8, size * 0.7
            points = [(x, y + h), (x, y + h * 0.25), (x + w * 0.25, y + h * 0.55),
                      (x + w * 0.5, y), (x + w * 0.75, y + h * 0.55), (x + w, y + h * 0.25),
                      (x + w, y + h)]
            crown = drawing.polygon([(mm(px), mm(py)) for px, py in points], fill=GOLD,
                                    stroke=CROWN_INK, stroke_width=mm(0.4))
            crown["class"] = "crown"
            group.add(crown)
            if crowns < 0:
                for a, b in (((x - 0.5, y - 0.5), (x + w + 0.5, y + h + 0.5)),
                             ((x - 0.5, y + h + 0.5), (x + w + 0.5, y - 0.5))):
                    cross = drawing.line((mm(a[0]), mm(a[1])), (mm(b[0]), mm(b[1])),
                                         stroke=CROSS_INK, stroke_width=mm(0.9))
                    cross["class"] = "cross"
                    group.add(cross)
        label = f"{crowns:+d} crown{'s' if n != 1 else ''}"
        group.add(text(drawing, label, box.x + box.width / 2, y + size + 3.5, 3.6, fill=INK))
        return group
    return draw


def deck_cards(variant: AwimbaweVariant = AwimbaweVariant()) -> list[Card]:
    """The 28 cards of the deck in card order, then the two Heir cards."""
    crowns = variant.card_crowns
    cards = []
    for c in CARDS:
        kind = KIND[c]
        animal = "eagle" if kind == EAGLE else ANIMALS[kind]
        cards.append(Card(
            title=animal.capitalize(), value=str(VALUE[c]),
            body=(SUIT_NAMES[SUIT[c]].capitalize(), power_text(kind, variant)),
            colour=SUIT_COLOURS[SUIT[c]], art=_crowns_art(crowns[c]), back=BACK,
            data=(("card", NAMES[c]), ("crowns", str(crowns[c]))), index=NAMES[c]))
    for name, silver in HEIRS:
        cards.append(Card(
            title=name, value="Heir",
            body=("Silver side up at the start.",
                  f"Turn it gold when you win a round; win {variant.rounds_to_win} rounds to "
                  f"win the game."),
            colour=silver, back=CardBack(label="GOLD", colour=GOLD, ink="#8A6A10",
                                         text_colour="#3A2A05"),
            data=(("card", name), ("crowns", ""))))
    return cards


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def rules_summary(variant: AwimbaweVariant) -> list[tuple[str, str]]:
    """The rules as (heading, paragraph) pairs, from the variant."""
    c = variant.crowns
    eagles = ", ".join(f"{v}: {k:+d}" if k else f"{v}: 0"
                       for v, k in zip((7, 8, 9, 10), variant.eagle_crowns))
    total = sum(variant.card_crowns)
    lead = ("the player whose face-up pile cards carry fewer crowns (a tie: draw lots)"
            if variant.round1_leader == "fewer_crowns" else "drawn at random")
    sections = [
        ("Cards", f"Four land suits (grassland, desert, mountain, plain) of six animals: mouse 1, "
                  f"rhinoceros 2, cheetah 3, hyena 4, snake 5, elephant 6; the sky: four eagles "
                  f"7–10. Crowns: mouse {c[0]}, rhinoceros {c[1]}, cheetah {c[2]}, hyena {c[3]}, "
                  f"snake {c[4]}, elephant {c[5]}; eagles {eagles} ({total} in all)."),
        ("Deal", f"Each player gets {variant.piles} piles of two cards (bottom face down, top face "
                 f"up) and {variant.hand_size} cards in hand. Available: the hand and the face-up "
                 f"pile tops. Round 1 is led by {lead}; later rounds by whoever the previous "
                 f"round's loser names."),
        ("A trick", "Lead any available card. The follower must follow suit, else play an eagle, "
                    "else discard (a discard always loses). Same suit: the higher value wins"
                    + (", but a mouse beats its suit's elephant." if variant.mouse_beats_elephant
                       else ".")
                    + " The winner takes the trick and leads next. At the end of a trick, "
                      "uncovered pile cards turn face up."),
        ("Eagles", power_text(EAGLE, variant) + " An eagle that leads must be answered by an "
                   "eagle if possible; the higher eagle wins."),
        ("Powers", "Optional, used when the card is played, win or lose. "
                   + " ".join(f"{ANIMALS[k].capitalize()}: "
                              f"{power_text(k, variant).removeprefix('Power: ')}"
                              for k in (1, 2, 4))),
        ("End of a round", f"A player who takes their {_ordinal(variant.hyenas_to_lose)} hyena "
                           f"loses the round at once (hyenas stay visible). Otherwise, when all cards are "
                           f"played, the most crowns in the scoring pile wins."),
        ("The game", f"Win a round: turn your Heir card gold. The first to win "
                     f"{variant.rounds_to_win} rounds wins the game."),
    ]
    return sections


def rules_page(options: PrintOptions, variant: AwimbaweVariant) -> Page:
    paper, margin = options.paper, options.margin_mm
    width, height = paper.width_mm, paper.height_mm
    size, leading = 3.6, 1.35
    drawing = new_drawing(width, height, f"Awimbawé rules: {variant.name}")
    drawing.add(text(drawing, f"Awimbawé rules summary: variant {variant.name}", margin,
                     margin + 3, 6.0, anchor="start", weight="bold", class_="sheet-title"))
    y, column_w = margin + 14, width - 2 * margin
    for heading, paragraph in rules_summary(variant):
        lines = wrap_measured(paragraph, column_w, size)
        if y + (len(lines) + 1) * size * leading > height - margin:
            raise PrintError(f"{paper.name} paper is too small for the Awimbawé rules summary")
        drawing.add(text(drawing, heading, margin, y, size + 0.6, anchor="start", weight="bold",
                         class_="rules-heading"))
        y += size * leading * 1.2
        for line in lines:
            drawing.add(text(drawing, line, margin, y, size, anchor="start", class_="rules-text"))
            y += size * leading
        y += size * 0.8
    return Page("rules", width, height, drawing.tostring())


def card_sheet(variant: AwimbaweVariant = AwimbaweVariant(),
               options: PrintOptions = PrintOptions(backs="duplex")) -> list[Page]:
    """The card sheets (fronts and backs) and the rules summary page."""
    pages = card_pages(deck_cards(variant), options, name="sheet",
                       heading=f"Awimbawé cards, variant {variant.name}")
    return pages + [rules_page(options, variant)]
