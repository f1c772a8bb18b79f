"""Board geometry: cells, neighbours, the totem path and the lines it faces, symmetries.

Every other module (layout, generator, engine, printer) takes its geometry from here.
Cells are integers ``row * width + col``; ``a1`` is the top-left cell, columns are letters
left to right, rows are numbers top to bottom (the rules reference's convention).
"""
from __future__ import annotations

import string
from dataclasses import dataclass
from functools import cached_property

from ...core.errors import KiwaraError
from ...core.numbers import shorten

COLUMN_LETTERS = string.ascii_lowercase
# The board symmetries under which a layout plays the same game: a mirror image turns the totem's
# clockwise walk anticlockwise, a half-turn keeps it (stone p goes to p + positions / 2).
GAME_SYMMETRIES = ("identity", "half-turn")
MAX_WIDTH = len(COLUMN_LETTERS)
MAX_HEIGHT = 99


class GeometryError(KiwaraError):
    """An impossible board or an unknown cell or position."""


@dataclass(frozen=True)
class Symmetry:
    """A symmetry of the board as a cell permutation: cell ``c`` goes to ``perm[c]``."""

    name: str
    perm: tuple[int, ...]


@dataclass(frozen=True)
class Grid:
    """A ``width`` × ``height`` board of square cells with a totem path around it."""

    width: int = 6
    height: int = 5

    def __post_init__(self) -> None:
        if not (1 <= self.width <= MAX_WIDTH and 1 <= self.height <= MAX_HEIGHT):
            raise GeometryError(
                f"board must be 1..{MAX_WIDTH} columns by 1..{MAX_HEIGHT} rows, "
                f"got {self.width} × {self.height}"
            )

    # -- cells -------------------------------------------------------------------------------
    @property
    def size(self) -> int:
        return self.width * self.height

    @property
    def cells(self) -> range:
        return range(self.size)

    @cached_property
    def row_slices(self) -> tuple[slice, ...]:
        """The slice of each row in a sequence of cells in reading order."""
        return tuple(slice(start, start + self.width) for start in range(0, self.size, self.width))

    def cell(self, col: int, row: int) -> int:
        return row * self.width + col

    def col_of(self, cell: int) -> int:
        return cell % self.width

    def row_of(self, cell: int) -> int:
        return cell // self.width

    def cell_name(self, cell: int) -> str:
        return f"{COLUMN_LETTERS[cell % self.width]}{cell // self.width + 1}"

    def parse_cell(self, name: str) -> int:
        """``'c3'`` → cell index; raises :class:`GeometryError` for names off the board."""
        name = name.strip().lower()
        # ASCII digits, at most as many as the highest row has: int() is never handed 5,000
        if (2 <= len(name) <= 1 + len(str(self.height)) and name[0] in COLUMN_LETTERS
                and name[1:].isascii() and name[1:].isdigit()):
            col, row = COLUMN_LETTERS.index(name[0]), int(name[1:]) - 1
            if col < self.width and 0 <= row < self.height:
                return self.cell(col, row)
        raise GeometryError(f"no cell {shorten(name)!r} on a {self.width} × {self.height} board")

    @cached_property
    def neighbours(self) -> tuple[tuple[int, ...], ...]:
        """Orthogonal neighbours of every cell, in the order up, left, right, down."""
        result = []
        for c in self.cells:
            col, row = self.col_of(c), self.row_of(c)
            around = []
            if row > 0:
                around.append(c - self.width)
            if col > 0:
                around.append(c - 1)
            if col < self.width - 1:
                around.append(c + 1)
            if row < self.height - 1:
                around.append(c + self.width)
            result.append(tuple(around))
        return tuple(result)

    @cached_property
    def edges(self) -> tuple[tuple[int, int], ...]:
        """Every pair of orthogonally adjacent cells ``(a, b)`` with ``a < b``, in cell order."""
        return tuple((a, b) for a in self.cells for b in self.neighbours[a] if a < b)

    # -- totem path --------------------------------------------------------------------------
    @property
    def positions(self) -> int:
        """Number of totem positions: one facing each column from above and below, each row
        from the right and the left (no corner stops)."""
        return 2 * (self.width + self.height)

    def position_side(self, position: int) -> tuple[str, int]:
        """``('column', c)`` or ``('row', r)`` (0-based) that ``position`` faces, and from where
        (the numbering runs clockwise from the top-left: above, right, below, left)."""
        w, h = self.width, self.height
        if not 0 <= position < self.positions:
            raise GeometryError(f"totem position {position} is not in 0..{self.positions - 1}")
        if position < w:
            return ("column", position)
        if position < w + h:
            return ("row", position - w)
        if position < 2 * w + h:
            return ("column", 2 * w + h - 1 - position)
        return ("row", 2 * w + 2 * h - 1 - position)

    def position_edge(self, position: int) -> str:
        """Which side of the board ``position`` stands on: top, right, bottom or left."""
        w, h = self.width, self.height
        self.position_side(position)
        if position < w:
            return "top"
        if position < w + h:
            return "right"
        return "bottom" if position < 2 * w + h else "left"

    @cached_property
    def lines(self) -> tuple[tuple[int, ...], ...]:
        """The cells of the line each totem position faces, indexed by position."""
        result = []
        for p in range(self.positions):
            kind, index = self.position_side(p)
            if kind == "column":
                result.append(tuple(self.cell(index, r) for r in range(self.height)))
            else:
                result.append(tuple(self.cell(c, index) for c in range(self.width)))
        return tuple(result)

    def line_name(self, position: int) -> str:
        kind, index = self.position_side(position)
        return f"column {COLUMN_LETTERS[index]}" if kind == "column" else f"row {index + 1}"

    # -- symmetries --------------------------------------------------------------------------
    @cached_property
    def symmetries(self) -> tuple[Symmetry, ...]:
        """The board's symmetry group, identity first: 4 elements on a rectangle, 8 on a square
        (fewer on a board one cell wide or high, where some coincide)."""
        w, h = self.width, self.height

        def perm(f) -> tuple[int, ...]:
            return tuple(f(self.col_of(c), self.row_of(c)) for c in self.cells)

        result = [
            Symmetry("identity", perm(lambda x, y: self.cell(x, y))),
            Symmetry("half-turn", perm(lambda x, y: self.cell(w - 1 - x, h - 1 - y))),
            Symmetry("left-right mirror", perm(lambda x, y: self.cell(w - 1 - x, y))),
            Symmetry("top-bottom mirror", perm(lambda x, y: self.cell(x, h - 1 - y))),
        ]
        if w == h:
            result += [
                Symmetry("main-diagonal transpose", perm(lambda x, y: self.cell(y, x))),
                Symmetry("anti-diagonal transpose",
                         perm(lambda x, y: self.cell(w - 1 - y, h - 1 - x))),
                Symmetry("quarter-turn", perm(lambda x, y: self.cell(w - 1 - y, x))),
                Symmetry("three-quarter-turn", perm(lambda x, y: self.cell(y, h - 1 - x))),
            ]
        # On a board one cell wide or high some of these coincide; keep each permutation once.
        unique = {s.perm: s for s in reversed(result)}
        return tuple(s for s in result if unique[s.perm] is s)


DEFAULT_GRID = Grid()
