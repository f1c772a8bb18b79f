"""Moves in the rules reference's notation, as interned values.

Every move that can ever be written exists once, built at import: ``MOVES[text]`` is the move and
the move generator hands out these same objects, so generating and comparing moves costs no
allocation. Player moves: a card, bare or with its power's choice (``G3:me``, ``D2:3>1``,
``M5:p2``, ``M5:h`` / ``M5:h=G4``, ``E9:flee``), and ``start:me`` / ``start:you``. Chance moves
(never in records): ``deal:G4`` (the next card of the deal), ``leader:0`` (a tied first lead) and
``h=G4`` (the snake's blind pick in a hand).
"""
from __future__ import annotations

from dataclasses import dataclass

from ...core.errors import KiwaraError
from ...core.numbers import shorten
from .cards import CARDS, CHEETAH, EAGLE, KIND, NAMES, RHINOCEROS, SNAKE
from .variant import MAX_PILES

# Move kinds.
BARE, CHEETAH_CHOICE, RHINO_SLIDE, SNAKE_PILE, SNAKE_HAND, EAGLE_FLEE, EAGLE_FIGHT, START, \
    DEAL, LEADER, BLIND = range(11)


class IllegalMoveError(KiwaraError):
    """A move that is not legal here, or text that is not a move."""


@dataclass(frozen=True, eq=False)
class Move:
    """One decision. ``card`` is the card played (or dealt, or blindly blocked), -1 for start
    and leader moves; ``a``/``b`` the choice: cheetah 0 me / 1 you, rhinoceros source and target
    piles (0-based), snake pile (0-based) or blocked hand card (-1 blind), start 0 me / 1 you,
    leader seat. Interned: compare with ``is`` or ``==`` (identity)."""

    text: str
    kind: int
    card: int = -1
    a: int = -1
    b: int = -1

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Move({self.text!r})"

    @property
    def is_chance(self) -> bool:
        return self.kind in (DEAL, LEADER, BLIND)


MOVES: dict[str, Move] = {}


def _make(text: str, kind: int, card: int = -1, a: int = -1, b: int = -1) -> Move:
    move = Move(text, kind, card, a, b)
    MOVES[text] = move
    return move


PILE_RANGE = range(MAX_PILES)
BARE_MOVE = tuple(_make(NAMES[c], BARE, c) for c in CARDS)
CHEETAH_MOVE = {c: (_make(f"{NAMES[c]}:me", CHEETAH_CHOICE, c, 0),
                    _make(f"{NAMES[c]}:you", CHEETAH_CHOICE, c, 1))
                for c in CARDS if KIND[c] == CHEETAH}
RHINO_MOVE = {c: tuple(tuple(_make(f"{NAMES[c]}:{i + 1}>{j + 1}", RHINO_SLIDE, c, i, j)
                             for j in PILE_RANGE) for i in PILE_RANGE)
              for c in CARDS if KIND[c] == RHINOCEROS}
SNAKE_PILE_MOVE = {c: tuple(_make(f"{NAMES[c]}:p{i + 1}", SNAKE_PILE, c, i) for i in PILE_RANGE)
                   for c in CARDS if KIND[c] == SNAKE}
SNAKE_BLIND_MOVE = {c: _make(f"{NAMES[c]}:h", SNAKE_HAND, c, -1) for c in CARDS if KIND[c] == SNAKE}
SNAKE_HAND_MOVE = {c: tuple(_make(f"{NAMES[c]}:h={NAMES[x]}", SNAKE_HAND, c, x) for x in CARDS)
                   for c in CARDS if KIND[c] == SNAKE}
FLEE_MOVE = {c: _make(f"{NAMES[c]}:flee", EAGLE_FLEE, c) for c in CARDS if KIND[c] == EAGLE}
FIGHT_MOVE = {c: _make(f"{NAMES[c]}:fight", EAGLE_FIGHT, c) for c in CARDS if KIND[c] == EAGLE}
START_MOVE = (_make("start:me", START, -1, 0), _make("start:you", START, -1, 1))
DEAL_MOVE = tuple(_make(f"deal:{NAMES[c]}", DEAL, c) for c in CARDS)
LEADER_MOVE = (_make("leader:0", LEADER, -1, 0), _make("leader:1", LEADER, -1, 1))
BLIND_MOVE = tuple(_make(f"h={NAMES[x]}", BLIND, x) for x in CARDS)


# The notation in brief, naming no particular card: a refusal shown to a player must not name a
# card they may not see, even as an example.
NOTATION_SHORT = ("a card is its suit G, D, M or P and a value 1 to 6, or E and 7 to 10 (eagles), with a "
                  "power's choice after a colon: :me or :you (cheetah), :3>1 (rhinoceros), :p2 "
                  "or :h (snake), :flee or :fight (eagle); or start:me, start:you")


def parse_move(text) -> Move:
    """The move written ``text`` (letters in either case), whether or not it is legal anywhere."""
    if isinstance(text, Move):
        return text
    if not isinstance(text, str):
        raise IllegalMoveError(f"a move is text such as \"G3:me\", got {text!r}")
    move = MOVES.get(text.strip()) or MOVES.get(_canonical(text))
    if move is None:
        raise IllegalMoveError(f"{shorten(text)!r} is not a move ({NOTATION_SHORT})")
    return move


def _canonical(text: str) -> str:
    head, sep, tail = text.strip().partition(":")
    head = head.upper() if head.lower() not in ("start", "deal", "leader") else head.lower()
    if head.startswith("H="):
        return "h=" + head[2:]
    tail = tail.lower()
    if tail.startswith("h="):
        tail = "h=" + tail[2:].upper()
    elif tail.startswith("deal") or head == "deal":
        tail = tail.upper()
    return head + sep + tail
