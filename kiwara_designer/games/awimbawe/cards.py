"""The 28 cards as small integers, their names, suits, values and crowns.

A card is an ``int`` 0..27: land cards ``6 * suit + value - 1`` (suits G D M P = 0..3, values
1..6), eagles 24..27 for E7..E10, so ``card // 6`` is the suit (4 is the sky) for every card.
Sets of cards are bit masks (bit ``card``): hands, scoring piles and blocks are plain ints, which
keeps the move generator fast.
"""
from __future__ import annotations

from ...core.errors import KiwaraError

SUITS = "GDMPE"
SUIT_NAMES = ("grassland", "desert", "mountain", "plain", "sky")
ANIMALS = ("mouse", "rhinoceros", "cheetah", "hyena", "snake", "elephant")
MOUSE, RHINOCEROS, CHEETAH, HYENA, SNAKE, ELEPHANT, EAGLE = range(7)
SKY = 4
DECK_SIZE = 28
CARDS = tuple(range(DECK_SIZE))


class CardError(KiwaraError):
    """Text that is not a card or not a deck."""


def suit(card: int) -> int:
    return card // 6


def value(card: int) -> int:
    """1..6 for land animals, 7..10 for eagles."""
    return card % 6 + 1 if card < 24 else card - 17


def kind(card: int) -> int:
    """MOUSE … ELEPHANT (0..5) for land cards, EAGLE (6) for the sky."""
    return card % 6 if card < 24 else EAGLE


NAMES = tuple(f"{SUITS[suit(c)]}{value(c)}" for c in CARDS)
BY_NAME = {name: c for c, name in enumerate(NAMES)}
KIND = tuple(kind(c) for c in CARDS)
SUIT = tuple(suit(c) for c in CARDS)
VALUE = tuple(value(c) for c in CARDS)
BIT = tuple(1 << c for c in CARDS)
SUIT_MASK = tuple(sum(BIT[c] for c in CARDS if SUIT[c] == s) for s in range(5))
EAGLES = SUIT_MASK[SKY]
HYENAS = sum(BIT[c] for c in CARDS if KIND[c] == HYENA)
ALL_CARDS = (1 << DECK_SIZE) - 1


def parse_card(text: str) -> int:
    card = BY_NAME.get(text.strip().upper())
    if card is None:
        raise CardError(f"{text!r} is not a card (G1…P6 for grassland, desert, mountain, plain "
                        f"animals 1–6, E7…E10 for eagles)")
    return card


def cards_of(mask: int) -> list[int]:
    """The cards of a bit mask, in card order."""
    result = []
    while mask:
        low = mask & -mask
        result.append(low.bit_length() - 1)
        mask ^= low
    return result


def format_cards(cards) -> str:
    return " ".join(NAMES[c] for c in cards)


def parse_deck(text: str | list | tuple) -> tuple[int, ...]:
    """A deck: the 28 cards in deal order, space-separated (or a list of card names)."""
    words = text.split() if isinstance(text, str) else list(text)
    if not all(isinstance(w, str) for w in words):
        raise CardError("a deck is 28 card names such as \"G1 D4 …\"")
    deck = tuple(parse_card(w) for w in words)
    if len(deck) != DECK_SIZE:
        raise CardError(f"a deck has {DECK_SIZE} cards, got {len(deck)}")
    seen: set[int] = set()
    for c in deck:
        if c in seen:
            raise CardError(f"card {NAMES[c]} appears twice in the deck")
        seen.add(c)
    return deck
