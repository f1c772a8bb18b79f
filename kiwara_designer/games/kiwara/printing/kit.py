"""The print-and-play kit for a rules variant: token sheets, the Okapi card, a rules summary with
the fold-up totem.

Tokens and cards are card sheets (:mod:`kiwara_designer.printing.cards`): straight shared cut
lines, bleed and crop marks, backs by gutter fold or on a duplex page. Tokens are as large as the
board's cells ask (:data:`~kiwara_designer.games.kiwara.printing.board.TOKEN_SHARE` of a cell), so a kit
printed with a board always fits it; their counts and points come from the variant.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..cards import EFFECTS, Card as DeckCard, resolve_deck
from ..variant import KIND_NAMES, KiwaraVariant
from .art import emblem
from .board import TOKEN_SHARE
from ....printing.cards import Card, Piece, card_pages, piece_pages
from ....printing.page import PrintError, PrintOptions, Rect, mm
from .rules import rules_page
from ....printing.sheet import INK, Page, text


@dataclass(frozen=True)
class Animal:
    name: str
    points: int
    count: int   # per player


def animals(variant: KiwaraVariant) -> tuple[Animal, ...]:
    """The variant's tokens, per player, in notation order; kinds it has none of are left out."""
    return tuple(Animal(name, points, count) for name, points, count
                 in zip(KIND_NAMES, variant.points, variant.tokens) if count)


ANIMALS = animals(KiwaraVariant())   # the classic game's: 5 zebras 6, 6 gazelles 2, 1 elephant 5…


@dataclass(frozen=True)
class PlayerColours:
    name: str
    fill: str
    ink: str


# Light sand and dark umber: told apart in colour and in greyscale alike.
PLAYERS = (PlayerColours("sand", "#F2E6C4", "#3B2A1A"), PlayerColours("umber", "#4A3325", "#F5EBD3"))
TOKEN_PAD = 1.0   # between a token's disc and its square's cut line


def token_diameter(cell_mm: float) -> float:
    """A token is :data:`TOKEN_SHARE` of a board cell across, whatever the print options."""
    d = TOKEN_SHARE * cell_mm
    if d < 8:
        raise PrintError.about("cells of {size:g} mm are too small for tokens; use {cell_mm} 10 "
                               "or more", size=cell_mm)
    return d


def _token_front(animal: Animal, colours: PlayerColours, player: int, d: float):
    def draw(drawing, trim: Rect, bleed: Rect):
        cx, cy = trim.x + trim.width / 2, trim.y + trim.height / 2
        token = drawing.g(**{"class": "token front", "data-player": str(player),
                             "data-animal": animal.name, "data-points": str(animal.points)})
        token.add(drawing.rect((mm(bleed.x), mm(bleed.y)), (mm(bleed.width), mm(bleed.height)),
                               fill=colours.fill, **{"class": "token-square"}))
        token.add(drawing.circle((mm(cx), mm(cy)), mm(d / 2), fill=colours.fill, stroke=INK,
                                 stroke_width=0.3, **{"class": "disc"}))
        token.add(drawing.circle((mm(cx), mm(cy)), mm(d / 2 - 0.06 * d), fill="none",
                                 stroke=colours.ink, stroke_width=mm(0.02 * d)))
        token.add(emblem(drawing, animal.name, cx, cy - 0.11 * d, 0.48 * d, colours.ink, colours.fill))
        token.add(text(drawing, str(animal.points), cx, cy + 0.27 * d, 0.2 * d, weight="bold",
                       fill=colours.ink, class_="points"))
        return token
    return draw


def _token_back(colours: PlayerColours, player: int, d: float):
    """Face down: the player's colour, concentric rings, no animal and no points."""
    def draw(drawing, trim: Rect, bleed: Rect):
        cx, cy = trim.x + trim.width / 2, trim.y + trim.height / 2
        token = drawing.g(**{"class": "token back", "data-player": str(player)})
        token.add(drawing.rect((mm(bleed.x), mm(bleed.y)), (mm(bleed.width), mm(bleed.height)),
                               fill=colours.fill, **{"class": "token-square"}))
        token.add(drawing.circle((mm(cx), mm(cy)), mm(d / 2), fill=colours.fill, stroke=INK,
                                 stroke_width=0.3, **{"class": "disc"}))
        for k in (0.38, 0.26, 0.14):
            token.add(drawing.circle((mm(cx), mm(cy)), mm(k * d), fill="none", stroke=colours.ink,
                                     stroke_width=mm(0.025 * d)))
        return token
    return draw


def token_pages(options: PrintOptions, cell_mm: float, variant: KiwaraVariant = KiwaraVariant()) -> list[Page]:
    """Each player's tokens on rows of their own: squares with the disc drawn on them (cut the
    squares with straight cuts; round them off if you like)."""
    d = token_diameter(cell_mm)
    pieces = [Piece(_token_front(animal, colours, player, d), _token_back(colours, player, d),
                    group=colours.name)
              for player, colours in enumerate(PLAYERS)
              for animal in animals(variant) for _ in range(animal.count)]
    counts = ", ".join(f"{a.count} {a.name}{'s' if a.count > 1 else ''} {a.points}"
                       for a in animals(variant))
    return piece_pages(pieces, (d + 2 * TOKEN_PAD, d + 2 * TOKEN_PAD), options, name="tokens",
                       heading=f"Kiwara tokens per player ({counts} points)")


def okapi_card(points: int) -> Card:
    def art(drawing, box: Rect):
        size = min(box.width, box.height)
        return emblem(drawing, "okapi", box.x + box.width / 2, box.y + box.height / 2, size,
                      "#5B3A29", "#F4EEDC")
    return Card("OKAPI", ("Taken by the player whose placement first fills a territory.",
                          f"{points:+d} at the end."), value=f"{points:+d}", art=art,
                data=(("card", "okapi"), ("points", str(points))))


def deck_card(card: DeckCard) -> Card:
    """A reinforcement card: its name, its effect in words and how a record writes its use."""
    use = EFFECTS[card.effect]
    body = (card.describe(),) if use is None else (card.describe(), f"Written +{card.name}{use}")
    value = f"{card.value:+d}" if card.value is not None else ""
    return Card(card.name.upper(), body, value=value,
                data=(("card", card.name), ("effect", card.effect)))


def kit_cards(variant: KiwaraVariant) -> list[Card]:
    """The variant's cards: the Okapi alone in the classic game, every card of the deck (in deck
    order, duplicates printed as often as they appear) when the variant plays one."""
    if variant.reinforcement == "deck":
        return [deck_card(card) for card in resolve_deck(variant.deck)]
    return [okapi_card(variant.okapi_points)]


def kit_pages(options: PrintOptions, cell_mm: float, variant: KiwaraVariant = KiwaraVariant()) -> list[Page]:
    """Token sheets, then the rules summary with the totem; a lone card (the Okapi) folds up on
    the rules page, a deck goes on card sheets."""
    cards = kit_cards(variant)
    if len(cards) == 1:
        return token_pages(options, cell_mm, variant) + [rules_page(options, variant, cards[0])]
    return (token_pages(options, cell_mm, variant)
            + card_pages(cards, options, heading="Kiwara cards") + [rules_page(options, variant)])
