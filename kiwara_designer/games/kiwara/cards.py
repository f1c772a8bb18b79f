"""Reinforcement cards: the deck is data, each card one effect primitive with a name.

The published card texts are unknown, so a designer composes a deck in the variant file::

    reinforcement = "deck"
    deck = [{name = "okapi", effect = "points", value = 5}, {name = "drums", effect = "totem"}]

or names a built-in deck (``"sample"``). The effects and what using each one does are in the
rules reference (section "Reinforcement deck"); the state carries them out.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

# Effect primitive → what its use is written after ``+NAME`` (None: passive, never used).
EFFECTS: dict[str, str | None] = {
    "points": None,      # +value at the end for its holder
    "totem": ":STONE",   # move the totem to another stone whose line has an empty cell
    "again": "",         # one more whole turn after this one
    "rise": ":CELL",     # turn one of your face-down tokens face up
    "scare": ":CELL",    # turn one of the opponent's face-up zebras face down
    "chase": ":CELL",    # one of the opponent's gazelles goes back to their reserve
    "swap": ":OWN-THEIRS",   # swap two adjacent tokens of different owners across a river
}
CARD_NAME = re.compile(r"^[a-z][a-z0-9_-]{0,23}$")
MAX_DECK = 100
MAX_CARD_VALUE = 1000


@dataclass(frozen=True)
class Card:
    """One reinforcement card: its ``name`` (used in move notation), its ``effect`` primitive and,
    for ``points`` only, its ``value``."""

    name: str
    effect: str
    value: int | None = None

    @property
    def passive(self) -> bool:
        return EFFECTS[self.effect] is None

    def to_dict(self) -> dict[str, Any]:
        result: dict[str, Any] = {"name": self.name, "effect": self.effect}
        if self.value is not None:
            result["value"] = self.value
        return result

    def describe(self) -> str:
        """The card's effect in words, for printed cards and listings."""
        if self.effect == "points":
            return f"{self.value:+d} points at the end of the game for whoever holds this card."
        return {
            "totem": "Move the totem to any other stone whose line has an empty cell; "
                     "place on that line.",
            "again": "After this turn, play one more whole turn.",
            "rise": "Turn one of your face-down tokens face up.",
            "scare": "Turn one of your opponent's face-up zebras face down.",
            "chase": "One of your opponent's gazelles goes back to their reserve.",
            "swap": "Swap one of your tokens with an adjacent one of your opponent's "
                    "across a river.",
        }[self.effect]


BUILTIN_DECKS: dict[str, tuple[Card, ...]] = {
    # A designer's deck after the rules reference, not the published texts.
    "sample": (Card("okapi", "points", 5), Card("waterhole", "points", 3),
               Card("drums", "totem"), Card("storm", "totem"),
               Card("stampede", "again"), Card("migration", "again"),
               Card("sunrise", "rise"), Card("hunter", "scare"), Card("jackal", "chase"),
               Card("ford", "swap")),
}


def deck_problem(value: Any) -> str | None:
    """Why ``value`` is not a deck (a built-in name or a list of cards), naming the card; None
    if it is one."""
    if isinstance(value, str):
        if value in BUILTIN_DECKS:
            return None
        return f"no built-in deck {value!r} (built-in: {', '.join(sorted(BUILTIN_DECKS))})"
    if not isinstance(value, (list, tuple)):
        return f"must be a built-in deck name or a list of cards, got {value!r}"
    if len(value) > MAX_DECK:
        return f"has {len(value)} cards, at most {MAX_DECK}"
    seen: dict[str, Card] = {}
    for number, entry in enumerate(value, 1):
        problem = _card_problem(entry)
        label = f"card {number}"
        if isinstance(entry, Card):
            label += f" ({entry.name!r})"
        elif isinstance(entry, dict) and isinstance(entry.get("name"), str):
            label += f" ({entry['name']!r})"
        if problem:
            return f"{label}: {problem}"
        card = to_card(entry)
        if card.name in seen and seen[card.name] != card:
            return (f"{label}: another card is called {card.name!r} with another effect; "
                    f"a name makes its moves distinct, so same name, same card")
        seen[card.name] = card
    return None


def _card_problem(entry: Any) -> str | None:
    if isinstance(entry, Card):
        entry = entry.to_dict()
    if not isinstance(entry, dict):
        return f"must be a table {{name, effect, value?}}, got {entry!r}"
    unknown = [k for k in entry if k not in ("name", "effect", "value")]
    if unknown:
        return f"unknown key {unknown[0]!r} (a card has name, effect and value)"
    name = entry.get("name")
    if name is None:
        return "missing name"
    if not isinstance(name, str) or not CARD_NAME.match(name):
        return (f"name {name!r} must be 1 to 24 lower-case letters, digits, - or _, starting "
                f"with a letter (it is written in moves: +{name}:…)")
    effect = entry.get("effect")
    if effect is None:
        return "missing effect"
    if effect not in EFFECTS:
        return f"unknown effect {effect!r} (known: {', '.join(EFFECTS)})"
    value = entry.get("value")
    if effect == "points":
        if value is None:
            return "missing value (a points card needs value = N)"
        if not isinstance(value, int) or isinstance(value, bool) or \
                not -MAX_CARD_VALUE <= value <= MAX_CARD_VALUE:
            return f"value must be a whole number from {-MAX_CARD_VALUE} to {MAX_CARD_VALUE}, " \
                   f"got {value!r}"
    elif value is not None:
        return f"value is only for points cards, not {effect!r}"
    return None


def to_card(entry: Any) -> Card:
    if isinstance(entry, Card):
        return entry
    return Card(entry["name"], entry["effect"], entry.get("value"))


def resolve_deck(value: str | tuple[Card, ...]) -> tuple[Card, ...]:
    """The cards of a (checked) deck value, in its order."""
    return BUILTIN_DECKS[value] if isinstance(value, str) else value
