"""Filters on generated layouts: river segments, territory span, a pattern that must appear."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ....core.io import source_label
from ..formats import read_source
from ..geometry import Grid
from ..layout import TERRITORY_CHARS, Layout
from ....core.numbers import plural
from .problem import GeneratorError

WILDCARD = "."


@dataclass(frozen=True)
class Pattern:
    """A window of cells: cells with the same letter must lie in one territory, cells with
    different letters in different territories; ``.`` cells may be anything.

    It matches a layout if it does so at some position, as drawn (not turned or mirrored).
    """

    rows: tuple[str, ...]

    def __post_init__(self) -> None:
        if not self.rows or any(len(r) != len(self.rows[0]) for r in self.rows):
            raise GeneratorError("a pattern needs rows of equal, non-zero length")
        for r, row in enumerate(self.rows, start=1):
            for c, ch in enumerate(row, start=1):
                if ch != WILDCARD and ch not in TERRITORY_CHARS:
                    raise GeneratorError(f"pattern row {r}, column {c}: unknown character {ch!r}"
                                         f" (use A-Z, a-z, 0-9, or . for any)")
        if all(ch == WILDCARD for row in self.rows for ch in row):
            raise GeneratorError("a pattern needs at least one lettered cell")

    @classmethod
    def parse(cls, text: str, source: str = "<pattern>") -> "Pattern":
        rows = []
        for raw in text.splitlines():
            content = raw.split("#", 1)[0].replace(" ", "").replace("\t", "")
            if content:
                rows.append(content)
            elif rows:
                break                           # the first block only
        if not rows:
            raise GeneratorError(f"{source}: no pattern rows found")
        try:
            return cls(tuple(rows))
        except GeneratorError as exc:
            raise GeneratorError(f"{source}: {exc}") from None

    @classmethod
    def load(cls, name: str | Path) -> "Pattern":
        """A pattern from a file (``-`` for stdin): rows of letters and dots."""
        return cls.parse(read_source(str(name), "pattern file"), source_label(str(name)))

    @property
    def width(self) -> int:
        return len(self.rows[0])

    @property
    def height(self) -> int:
        return len(self.rows)

    def matches(self, layout: Layout) -> bool:
        grid, a = layout.grid, layout.assignment
        cells = [(x, y, ch) for y, row in enumerate(self.rows) for x, ch in enumerate(row)
                 if ch != WILDCARD]
        for oy in range(grid.height - self.height + 1):
            for ox in range(grid.width - self.width + 1):
                seen: dict[str, int] = {}
                for x, y, ch in cells:
                    territory = a[(oy + y) * grid.width + ox + x]
                    if seen.setdefault(ch, territory) != territory:
                        break
                else:
                    if len(set(seen.values())) == len(seen):
                        return True
        return False


@dataclass(frozen=True)
class Filters:
    """Conditions a listed or sampled layout must meet; ``None`` means no condition.

    ``max_span`` bounds every territory's bounding box: neither its width nor its height in
    cells may exceed it.
    """

    min_rivers: int | None = None
    max_rivers: int | None = None
    max_span: int | None = None
    contains: Pattern | None = None

    def __post_init__(self) -> None:
        for name in ("min_rivers", "max_rivers", "max_span"):
            value = getattr(self, name)
            if value is not None and value < 0:
                raise GeneratorError(f"{name.replace('_', ' ')} must not be negative, got {value}")

    @classmethod
    def make(cls, grid: Grid, territories: int, min_rivers: int | None = None,
             max_rivers: int | None = None, max_span: int | None = None,
             contains: str | None = None) -> "Filters":
        """The filters on layouts of ``territories`` territories on ``grid``, ``contains`` naming
        a pattern file (``-`` for stdin). Filters no layout can pass are refused here: a listing
        would otherwise run through every layout to find none."""
        if min_rivers is not None and max_rivers is not None and min_rivers > max_rivers:
            raise GeneratorError.about("{min_rivers} {least} is larger than {max_rivers} {most}: "
                                       "no layout can pass", least=min_rivers, most=max_rivers)
        if max_span is not None and max_span == 0:
            raise GeneratorError.about("{max_span} must be at least 1 (every territory spans a "
                                       "cell), got 0")
        pattern = Pattern.load(contains) if contains else None
        if pattern is not None:
            letters = {ch for row in pattern.rows for ch in row} - {WILDCARD}
            if pattern.width > grid.width or pattern.height > grid.height:
                raise GeneratorError(f"{contains}: the pattern is {pattern.width} × "
                                     f"{pattern.height}, larger than the {grid.width} × "
                                     f"{grid.height} board")
            if len(letters) > territories:
                raise GeneratorError(f"{contains}: the pattern names {len(letters)} territories, "
                                     f"more than the {territories} of a layout")
        return cls(min_rivers, max_rivers, max_span, pattern)

    def check(self, problem, mixes) -> None:
        """Refuse, with the reason, filters that no layout of ``mixes`` (size mixes of
        ``problem``) can pass: listing would otherwise run through every layout to find none.
        A territory of s cells needs a bounding box of at least s cells; between k connected
        territories run at least k - 1 river segments (each touches another) and at most the
        board's inner edges less the s - 1 that hold each territory together."""
        grid, k = problem.grid, problem.territories
        if self.max_span is not None:
            box = min(self.max_span, grid.width) * min(self.max_span, grid.height)
            if all(max(mix) > box for mix in mixes):
                need = min(max(mix) for mix in mixes)
                raise GeneratorError.about("{max_span} {span}: every layout has a territory of "
                                           "{need} or more cells, which spans more than "
                                           "{cells}: no layout can pass", span=self.max_span,
                                           need=need, cells=plural(self.max_span, "cell"))
        most = len(grid.edges) - (grid.size - k)
        least = k - 1
        if self.min_rivers is not None and self.min_rivers > most:
            raise GeneratorError.about("{min_rivers} {least}: a layout of {k} territories on the "
                                       "{width} × {height} board has at most {most} river "
                                       "segments: no layout can pass", least=self.min_rivers,
                                       k=k, width=grid.width, height=grid.height, most=most)
        if self.max_rivers is not None and self.max_rivers < least:
            raise GeneratorError.about("{max_rivers} {most}: a layout of {k} territories has at "
                                       "least {least} river segments: no layout can pass",
                                       most=self.max_rivers, k=k, least=least)

    @property
    def active(self) -> bool:
        return any(v is not None for v in (self.min_rivers, self.max_rivers, self.max_span,
                                           self.contains))

    def accepts(self, layout: Layout) -> bool:
        if self.min_rivers is not None or self.max_rivers is not None:
            rivers = len(layout.river_edges())
            if self.min_rivers is not None and rivers < self.min_rivers:
                return False
            if self.max_rivers is not None and rivers > self.max_rivers:
                return False
        if self.max_span is not None and territory_span(layout) > self.max_span:
            return False
        if self.contains is not None and not self.contains.matches(layout):
            return False
        return True


def territory_span(layout: Layout) -> int:
    """The largest width or height of a territory's bounding box, in cells."""
    w = layout.grid.width
    low_x, high_x, low_y, high_y = {}, {}, {}, {}
    for cell, t in enumerate(layout.assignment):
        x, y = cell % w, cell // w
        if t not in low_x:
            low_x[t] = high_x[t] = x
            low_y[t] = y
        else:
            low_x[t] = min(low_x[t], x)
            high_x[t] = max(high_x[t], x)
        high_y[t] = y
    return max(max(high_x[t] - low_x[t], high_y[t] - low_y[t]) + 1 for t in low_x)
