"""The :class:`Move` value and its notation.

``T7`` opening, totem to position 7 · ``Zc3>12`` zebra on c3, then totem to 12 ·
``Cb2xc2xd3>4`` crocodile on b2, swaps with the gazelles on c2 then d3, totem to 4 ·
``Gf5`` gazelle on f5 ending the game (no totem move) · ``pass``.

Reinforcement cards (deck games): ``+drums:14`` (a totem card: the totem to stone 14),
``+jackal:c3`` (a card aimed at one cell), ``+ford:c3-d3`` (a swap: own cell first),
``+stampede`` (no target) · ``draw:okapi``, the card chance dealt (a chance move, when the deck's
order is not fixed).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...core.errors import KiwaraError
from .geometry import COLUMN_LETTERS, Grid, GeometryError
from ...core.numbers import parse_whole, shorten


class IllegalMoveError(KiwaraError):
    """A move that cannot be played (or parsed) in the position it was given for."""


class NotationError(IllegalMoveError):
    """Text that is not a move in Kiwara notation."""


_PLACEMENT = re.compile(r"^([ZGELC])([a-z][0-9]+)((?:x[a-z][0-9]+)*)(?:>([0-9]+))?$")
_OPENING = re.compile(r"^T([0-9]+)$")
_CARD = re.compile(r"^\+([a-z][a-z0-9_-]*)(?::(?:([0-9]+)|([a-z][0-9]+)(?:-([a-z][0-9]+))?))?$")
_DRAW = re.compile(r"^draw:([a-z][a-z0-9_-]*)$")


@dataclass(frozen=True, slots=True)
class Move:
    """One whole turn. Cells are indices of a board ``width`` columns wide.

    Opening: only ``totem`` is set. Placement: ``kind`` (``"Z" "G" "E" "L" "C"``), ``cell``, the
    crocodile's ``swaps`` (gazelle cells in order) and ``totem`` (None when the game ends).
    Pass: nothing is set.
    Card use: ``card`` (its name) and its target: ``totem`` (a stone), ``cell``, and for a swap
    the other cell as ``swaps[0]``. Chance deal of a card: ``card`` and ``draw``.
    """

    kind: str | None = None
    cell: int | None = None
    swaps: tuple[int, ...] = ()
    totem: int | None = None
    width: int = field(default=0, repr=False)
    card: str | None = None
    draw: bool = False

    @classmethod
    def opening(cls, position: int) -> "Move":
        return cls(totem=position)

    @classmethod
    def card_use(cls, card: str, width: int, *, stone: int | None = None,
                 cells: tuple[int, ...] = ()) -> "Move":
        return cls(None, cells[0] if cells else None, tuple(cells[1:]), stone, width, card)

    @classmethod
    def card_draw(cls, card: str) -> "Move":
        return cls(card=card, draw=True)

    @property
    def is_pass(self) -> bool:
        return self.kind is None and self.totem is None and self.card is None

    @property
    def is_card(self) -> bool:
        """Using a held card (not a chance draw)."""
        return self.card is not None and not self.draw

    def _cell_name(self, cell: int) -> str:
        return f"{COLUMN_LETTERS[cell % self.width]}{cell // self.width + 1}"

    def __str__(self) -> str:
        if self.card is not None:
            if self.draw:
                return f"draw:{self.card}"
            if self.totem is not None:
                return f"+{self.card}:{self.totem}"
            if self.cell is None:
                return f"+{self.card}"
            return f"+{self.card}:" + "-".join(map(self._cell_name, (self.cell,) + self.swaps))
        if self.kind is None:
            return "pass" if self.totem is None else f"T{self.totem}"
        text = self.kind + self._cell_name(self.cell)
        for cell in self.swaps:
            text += "x" + self._cell_name(cell)
        return text if self.totem is None else f"{text}>{self.totem}"

    @classmethod
    def parse(cls, text: str, grid: Grid) -> "Move":
        """The move written ``text`` on ``grid``; :class:`NotationError` says what is wrong.

        Letters may be given in either case and spaces are ignored; ``str`` gives the canonical form.
        """
        raw = text
        text = "".join(text.split())
        if text.lower() == "pass":
            return PASS
        if text.startswith("+") or text.lower().startswith("draw:"):
            return cls._parse_card(raw, text.lower(), grid)
        match = _OPENING.match(text.upper())
        if match:
            return cls(totem=_totem_position(match.group(1), raw, grid))
        normal = text[:1].upper() + text[1:].lower()
        match = _PLACEMENT.match(normal)
        if not match:
            raise NotationError(
                f"{shorten(raw)!r} is not a move: write T7 (opening), Zc3>12 (kind Z G E L C, cell, "
                f"totem), Cb2xc2>4 (crocodile swaps), Gf5 (last move) or pass")
        kind, cell_text, swap_text, totem_text = match.groups()
        try:
            cell = grid.parse_cell(cell_text)
            swaps = tuple(grid.parse_cell(c) for c in swap_text.split("x")[1:])
        except GeometryError as exc:
            raise NotationError(f"{shorten(raw)!r}: {exc}") from None
        if swaps and kind != "C":
            raise NotationError(f"{shorten(raw)!r}: only a crocodile swaps (x) with gazelles")
        totem = None if totem_text is None else _totem_position(totem_text, raw, grid)
        return cls(kind, cell, swaps, totem, grid.width)

    @classmethod
    @classmethod
    def _parse_card(cls, raw: str, text: str, grid: Grid) -> "Move":
        match = _DRAW.match(text)
        if match:
            return cls.card_draw(match.group(1))
        match = _CARD.match(text)
        if not match:
            raise NotationError(f"{shorten(raw)!r} is not a card move: write +NAME (a card "
                                f"without a target), +NAME:14 (a stone), +NAME:c3 (a cell), "
                                f"+NAME:c3-d3 (a swap, your cell first)")
        name, stone, *cell_texts = match.groups()
        if stone is not None:
            return cls.card_use(name, grid.width, stone=_totem_position(stone, raw, grid))
        try:
            cells = tuple(grid.parse_cell(c) for c in cell_texts if c is not None)
        except GeometryError as exc:
            raise NotationError(f"{shorten(raw)!r}: {exc}") from None
        return cls.card_use(name, grid.width, cells=cells)


def _totem_position(digits: str, raw: str, grid: Grid) -> int:
    try:
        return parse_whole(digits, 0, grid.positions - 1, "totem position")
    except KiwaraError:
        raise NotationError(f"{shorten(raw)!r}: totem position {shorten(digits)} is not in "
                            f"0..{grid.positions - 1}") from None


PASS = Move()
