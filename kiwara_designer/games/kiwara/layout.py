"""The :class:`Layout` value: a partition of the board's cells into named territories.

Like GerryChain's ``Partition``, a layout is a value over a graph (the grid), and what derives from
it (territories, rivers, graphs, canonical form) is computed lazily and cached. A layout may break
the rules (split or odd-sized territories): :mod:`kiwara_designer.games.kiwara.validation` says how.
"""
from __future__ import annotations

import string
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING, Iterable, Sequence

from ...core.errors import KiwaraError
from .geometry import DEFAULT_GRID, GAME_SYMMETRIES, Grid, Symmetry

if TYPE_CHECKING:                     # networkx is imported when a graph is asked for: it
    import networkx as nx             # takes longer to import than the rest of the package

TERRITORY_CHARS = string.ascii_uppercase + string.ascii_lowercase + string.digits
_NAMEABLE = frozenset(TERRITORY_CHARS)


class LayoutError(KiwaraError):
    """A layout that cannot even be built (wrong number of cells, too many territories)."""


@lru_cache(maxsize=1024)
def _name_table(names: tuple[str, ...]) -> bytes:
    """bytes.translate table from territory numbers to their (one-character) names."""
    return bytes.maketrans(bytes(range(len(names))), "".join(names).encode())


@dataclass(frozen=True)
class Territory:
    name: str
    index: int
    cells: tuple[int, ...]

    @property
    def size(self) -> int:
        return len(self.cells)


@dataclass(frozen=True)
class LayoutDescriptors:
    """How the territories sit together, from :meth:`Layout.territory_graph`: ``degrees`` how
    many other territories each borders, ``river_lengths`` the river segments (sticks) on each
    one's border (the board's edge is not a river), ``articulation_territories`` those whose
    removal would cut the others apart (a territory every path between two others crosses)."""

    degrees: dict[str, int]
    river_lengths: dict[str, int]
    articulation_territories: tuple[str, ...]

    @property
    def degree_sequence(self) -> tuple[int, ...]:
        """The degrees, smallest first: the territory graph's shape whatever the names."""
        return tuple(sorted(self.degrees.values()))

    def to_dict(self) -> dict:
        return {"degrees": dict(self.degrees), "degree_sequence": list(self.degree_sequence),
                "river_lengths": dict(self.river_lengths),
                "articulation_territories": list(self.articulation_territories)}


def _first_appearance(labels: Iterable) -> tuple[tuple[int, ...], list]:
    """Number labels 0, 1, 2 … in order of first appearance; return the numbers and the labels."""
    seen: dict = {}
    numbers = tuple(seen.setdefault(label, len(seen)) for label in labels)
    return numbers, list(seen)


@dataclass(frozen=True, eq=False)
class Layout:
    """Territory of every cell, numbered by first appearance in reading order.

    Two layouts are equal when they partition the same board the same way, whatever their
    territories are called: ``names`` only labels them for display.
    """

    grid: Grid
    assignment: tuple[int, ...]
    names: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        if len(self.assignment) != self.grid.size:
            raise LayoutError(
                f"{len(self.assignment)} cells given for a {self.grid.width} × {self.grid.height} board"
            )
        numbers, order = _first_appearance(self.assignment)
        names = self.names or tuple(TERRITORY_CHARS[:len(order)])
        if len(order) > len(TERRITORY_CHARS):
            raise LayoutError(f"{len(order)} territories; at most {len(TERRITORY_CHARS)} can be named")
        if len(names) != len(order) or len(set(names)) != len(names):
            raise LayoutError("one distinct name is needed for each territory")
        if not _NAMEABLE.issuperset(names):
            raise LayoutError("territory names are single characters A-Z, a-z or 0-9")
        if numbers != self.assignment:
            names = tuple(names[i] for i in order) if self.names else names
        object.__setattr__(self, "assignment", numbers)
        object.__setattr__(self, "names", tuple(names))

    # -- construction ------------------------------------------------------------------------
    @classmethod
    def from_labels(cls, labels: Sequence[str], grid: Grid = DEFAULT_GRID) -> "Layout":
        """One territory name per cell, in reading order."""
        numbers, order = _first_appearance(labels)
        return cls(grid, numbers, tuple(order))

    @classmethod
    def from_rows(cls, rows: Sequence[str]) -> "Layout":
        """Rows of territory characters, spaces ignored: ``["ABCCCC", "ABBCFF", …]``."""
        rows = [row.replace(" ", "") for row in rows]
        widths = {len(row) for row in rows}
        if len(widths) != 1:
            raise LayoutError("rows of different lengths")
        grid = Grid(widths.pop(), len(rows))
        return cls.from_labels([ch for row in rows for ch in row], grid)

    # -- value semantics ---------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Layout):
            return NotImplemented
        return self.grid == other.grid and self.assignment == other.assignment

    def __hash__(self) -> int:
        return hash((self.grid, self.assignment))

    def __repr__(self) -> str:
        return f"Layout.from_rows({list(self.rows)!r})"

    def __str__(self) -> str:
        return "\n".join(self.rows)

    # -- derived quantities ------------------------------------------------------------------
    @property
    def letters(self) -> str:
        """Every cell's territory name, in reading order (one bytes translation: quick)."""
        return bytes(self.assignment).translate(_name_table(self.names)).decode()

    @property
    def rows(self) -> tuple[str, ...]:
        return tuple(map(self.letters.__getitem__, self.grid.row_slices))

    def label(self, cell: int) -> str:
        return self.names[self.assignment[cell]]

    @cached_property
    def territories(self) -> tuple[Territory, ...]:
        cells: list[list[int]] = [[] for _ in self.names]
        for c, t in enumerate(self.assignment):
            cells[t].append(c)
        return tuple(Territory(n, i, tuple(cs)) for i, (n, cs) in enumerate(zip(self.names, cells)))

    def territory(self, name: str) -> Territory:
        return self.territories[self.names.index(name)]

    @property
    def sizes(self) -> tuple[int, ...]:
        return tuple(t.size for t in self.territories)

    @property
    def size_mix(self) -> tuple[int, ...]:
        return tuple(sorted(self.sizes))

    @cached_property
    def _rivers(self) -> tuple[tuple[int, int], ...]:
        a = self.assignment
        return tuple((x, y) for x, y in self.grid.edges if a[x] != a[y])

    def river_edges(self) -> tuple[tuple[int, int], ...]:
        """Cell pairs on either side of a river, one per stick needed, in cell order."""
        return self._rivers

    def is_river(self, a: int, b: int) -> bool:
        return self.assignment[a] != self.assignment[b]

    def graph(self) -> nx.Graph:
        """The grid as a networkx graph: node attribute ``territory`` (name), edge ``river``."""
        import networkx as nx
        g = nx.Graph()
        for c in self.grid.cells:
            g.add_node(c, name=self.grid.cell_name(c), territory=self.label(c))
        for a, b in self.grid.edges:
            g.add_edge(a, b, river=self.is_river(a, b))
        return g

    def territory_graph(self) -> nx.Graph:
        """Territories as nodes (attribute ``size``); an edge counts the river segments between two."""
        import networkx as nx
        g = nx.Graph()
        for t in self.territories:
            g.add_node(t.name, size=t.size)
        for a, b in self._rivers:
            u, v = self.label(a), self.label(b)
            if g.has_edge(u, v):
                g[u][v]["rivers"] += 1
            else:
                g.add_edge(u, v, rivers=1)
        return g

    @cached_property
    def _descriptors(self) -> "LayoutDescriptors":
        import networkx as nx
        g = self.territory_graph()
        cut = set(nx.articulation_points(g))
        return LayoutDescriptors(
            degrees={n: g.degree(n) for n in self.names},
            river_lengths={n: g.degree(n, weight="rivers") for n in self.names},
            articulation_territories=tuple(n for n in self.names if n in cut))

    def descriptors(self) -> "LayoutDescriptors":
        """Shape of the board as its territory graph shows it (computed once per layout)."""
        return self._descriptors

    # -- symmetries --------------------------------------------------------------------------
    def transformed(self, symmetry: Symmetry) -> "Layout":
        """The layout seen through a board symmetry; territories keep their names."""
        labels = [""] * self.grid.size
        for c, image in enumerate(symmetry.perm):
            labels[image] = self.label(c)
        return Layout.from_labels(labels, self.grid)

    def images(self) -> tuple["Layout", ...]:
        """The layout under every symmetry of the board (identity first)."""
        return tuple(self.transformed(s) for s in self.grid.symmetries)

    @cached_property
    def _canonical(self) -> "Layout":
        best = min(self.images(), key=lambda layout: layout.assignment)
        return Layout(self.grid, best.assignment)

    def canonical(self) -> "Layout":
        """The least image under the board's symmetries, territories renamed A, B, C … in
        reading order: equal for a layout and all its mirror images and turns."""
        return self._canonical

    @cached_property
    def _canonical_game(self) -> "Layout":
        images = [self.transformed(s) for s in self.grid.symmetries if s.name in GAME_SYMMETRIES]
        return Layout(self.grid, min(images, key=lambda layout: layout.assignment).assignment)

    def canonical_game(self) -> "Layout":
        """The least image under the symmetries that keep the game (the identity and the
        half-turn, which keeps the totem walking clockwise), renamed like :meth:`canonical`:
        equal exactly for layouts that play the same game. A mirror image plays another game
        (the totem would walk the other way round), so it has its own form. The four-symmetry
        :meth:`canonical` form is also its own game form."""
        return self._canonical_game
