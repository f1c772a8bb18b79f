"""Hand-built Awimbawé positions for the rule tests: deals written by part, and positions set
up directly (piles as texts bottom to top, ``~`` before a face-down card)."""
from __future__ import annotations

from kiwara_designer.games.awimbawe.cards import BIT, NAMES, parse_card
from kiwara_designer.games.awimbawe.state import PLAYING, AwimbaweState, new_round
from kiwara_designer.games.awimbawe.variant import as_variant


def cards(text: str) -> list[int]:
    return [parse_card(w) for w in text.split()]


def mask(text: str) -> int:
    return sum(BIT[c] for c in cards(text))


def deal(hand0: str, hand1: str, tops0: str = "", tops1: str = "", bottoms0: str = "",
         bottoms1: str = "", leader: int | None = 0, variant=None) -> AwimbaweState:
    """Round 1 dealt from a deck built by part; parts not given fully are filled with the
    remaining cards in card order."""
    parts = [cards(t) for t in (bottoms0, bottoms1, tops0, tops1, hand0, hand1)]
    used = {c for part in parts for c in part}
    rest = [c for c in range(28) if c not in used]
    for part, size in zip(parts, (4, 4, 4, 4, 6, 6)):
        while len(part) < size:
            part.append(rest.pop(0))
    deck = [NAMES[c] for part in parts for c in part]
    return new_round(" ".join(deck), leader, variant)


def position(hand0: str, hand1: str, piles0=(), piles1=(), leader: int = 0, variant=None,
             blocked0: str = "", blocked1: str = "", won0: str = "",
             won1: str = "") -> AwimbaweState:
    """A position at the start of a trick led by ``leader``: hands, piles (lists of texts, one
    per pile position, bottom to top, ``~`` marking a face-down card), blocks, scoring piles.
    Cards not placed anywhere are out of the round."""
    state = AwimbaweState(as_variant(variant))
    npiles = state.variant.piles
    down = 0
    all_piles = []
    for texts in (piles0, piles1):
        seat_piles = []
        for k in range(npiles):
            text = texts[k] if k < len(texts) else ""
            pile = []
            for word in text.split():
                card = parse_card(word.lstrip("~"))
                if word.startswith("~"):
                    down |= BIT[card]
                pile.append(card)
            seat_piles.append(tuple(pile))
        all_piles.append(tuple(seat_piles))
    state.piles = tuple(all_piles)
    state.down = down
    state.hand = (mask(hand0), mask(hand1))
    state.blocked = (mask(blocked0), mask(blocked1))
    state.won = (mask(won0), mask(won1))
    state.phase = PLAYING
    state.leader = state.to_move = state.first_leader = leader
    state.deck = tuple(range(28))
    return state


def texts(moves) -> list[str]:
    return [m.text for m in moves]


def legal(state) -> list[str]:
    return texts(state.legal_moves())


def record_legal(state) -> list[str]:
    return texts(state.record_moves())


def play(state, *moves):
    for m in moves:
        state = state.apply(m)
    return state
