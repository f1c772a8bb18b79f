"""Awimbawé in ``kiwara studio``: the game's side of the studio's adapter protocol (see
:mod:`kiwara_designer.studio.adapters`).

THE RULE: everything here that reaches the page is built from what the person's seat may know
and nothing else: their observation (``state.observation(seat)``, never the state), the moves
offered to them, the finished rounds' results, and the log told from their seat
(:func:`~.view.narrate`). A new field must come from one of these, or wait for the match's end.
The record holds every deal, so it is given once the match is over.
"""
from __future__ import annotations

import json
from typing import Any

from ...core.errors import KiwaraError
from .cards import BY_NAME, CHEETAH, KIND, NAMES, RHINOCEROS, SNAKE
from .game import AWIMBAWE
from .moves import (BARE, CHEETAH_CHOICE, EAGLE_FIGHT, EAGLE_FLEE, RHINO_SLIDE, SNAKE_HAND,
                    SNAKE_PILE, START)
from .record import MatchRecord
from .state import AwimbaweState
from .variant import AwimbaweVariant
from .view import narrate

SUITS = {"G": "grassland", "D": "desert", "M": "mountain", "P": "plain", "E": "sky"}
ANIMALS = {1: "mouse", 2: "rhinoceros", 3: "cheetah", 4: "hyena", 5: "snake", 6: "elephant"}


class AwimbaweStudio:
    """The studio's adapter for Awimbawé."""

    game = AWIMBAWE
    title = "Awimbawé"
    variants = AwimbaweVariant       # its built-in rules: builtin_names(), load(name)

    def setup(self) -> None:
        """A match takes no setup from the request: its deals are chance's."""
        return None

    def load(self, text: str):
        raise KiwaraError("the studio loads no Awimbawé record: a record shows every deal")

    def forced_move(self, state: AwimbaweState) -> None:
        return None          # even a lone legal card is the person's to play

    def tell(self, before: AwimbaweState, after: AwimbaweState, move: Any, seat: int,
             names: list[str]) -> tuple[list[str], None]:
        """The move told from the person's seat: it names no card they have not seen."""
        return narrate(before, after, seat, names), None

    def move_json(self, state: AwimbaweState, move: Any) -> dict:
        """One of the person's legal moves: the card and the power's choice in words."""
        card = NAMES[move.card] if move.card >= 0 else None
        powers = (CHEETAH, RHINOCEROS, SNAKE)   # a bare eagle has no choice to skip
        words = {
            BARE: "play it" + (" without its power" if KIND[move.card] in powers else ""),
            CHEETAH_CHOICE: "cheetah: " + ("I lead the next trick" if move.a == 0 else
                                           "you lead the next trick"),
            RHINO_SLIDE: f"rhinoceros: the top of their pile {move.a + 1} goes under their pile "
                         f"{move.b + 1}",
            SNAKE_PILE: f"snake: block the top of their pile {move.a + 1}",
            SNAKE_HAND: "snake: block a card of their hand, unseen",
            EAGLE_FLEE: "eagle: flee",
            EAGLE_FIGHT: "eagle: fight",
            START: "I lead the next round" if move.a == 0 else "you lead the next round",
        }.get(move.kind, move.text)
        return {"text": move.text, "card": card, "words": words}

    def view(self, state: AwimbaweState, seat: int, names: list[str], last: None) -> dict:
        """The table from ``seat``: their observation, and the finished rounds' results."""
        seen = state.observation(seat)
        over = state.is_terminal()
        crowns = state.variant.card_crowns
        return {
            "variant": state.variant.name,
            # after the end the observation counts on to a round that is never dealt
            "round": len(state.rounds) if over else seen.round,
            "rounds_won": list(seen.rounds_won),
            "hand": [card_json(name, crowns) for name in seen.hand],
            "opponent_hand_size": seen.opponent_hand_size,
            "piles": [[[card_json(name, crowns) for name in pile] for pile in seen.piles[s]]
                      for s in (0, 1)],
            "trick": [card_json(name, crowns) for name in seen.trick],
            "leader": seen.leader, "blocked": list(seen.blocked),
            "blind_blocks": seen.blind_blocks, "hyenas": list(seen.hyenas),
            "crowns": list(seen.crowns), "tricks": seen.tricks,
            "last_trick": trick_json(seen.last_trick, crowns,
                                     seen.round if seen.tricks else seen.round - 1),
            "rounds": [{"winner": r.winner, "crowns": list(r.crowns), "by_hyenas": r.by_hyenas,
                        "tricks": r.tricks} for r in state.rounds],
            "winner": state.match_winner if over else None,
        }

    def record(self, session: Any, seed: int | None) -> dict:
        """The match record, once the match is over (it holds every deal: before the end it
        would show the person the hidden cards)."""
        if not session.state.is_terminal():
            raise KiwaraError("the record holds every card dealt, so it is given once the "
                              "match is over")
        return json.loads(MatchRecord.from_state(session.state, players=list(session.names),
                                                 seed=seed).to_json())


ADAPTER = AwimbaweStudio()


def card_json(name: str, crowns) -> dict:
    """A card as the page draws it; ``"?"`` is a face-down card (nothing else is said of it)."""
    if name == "?":
        return {"name": "?"}
    value = int(name[1:])
    return {"name": name, "suit": SUITS[name[0]], "value": value,
            "animal": ANIMALS.get(value, "eagle"), "crowns": crowns[BY_NAME[name]]}


def trick_json(trick, crowns, round_number: int) -> dict | None:
    """The last finished trick (the rules let both players look at it again): who led, the two
    moves as both saw them, the cards, who won, whether the eagle fled, and its round."""
    if trick is None:
        return None
    return {"leader": trick.leader, "moves": list(trick.moves),
            "cards": [card_json(name, crowns) for name in trick.cards],
            "winner": trick.winner, "fled": trick.fled, "round": round_number}
