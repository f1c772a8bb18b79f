"""Exact counts, streaming enumeration and uniform sampling of free-play layouts.

A layout here is a partition of a W × H board into ``territories`` orthogonally connected
territories whose sizes come from ``sizes``. Everything rests on exact counts from a frontier
dynamic programme (see :mod:`._frontier`): enumeration walks its table in a fixed order and can
start at any index by unranking; sampling draws a uniform index and unranks it. Symmetry classes
are counted with Burnside's lemma from exact fixed-point counts (:mod:`._symmetric`).

Order of enumeration: mix by mix (mixes sorted), and within a mix in the table's order. With
``canonical=True`` every symmetry class appears exactly once, as its canonical form
(:meth:`Layout.canonical`).
"""
from __future__ import annotations

import random
from functools import lru_cache
from operator import itemgetter
from typing import Iterator

from ..geometry import Grid
from ..layout import TERRITORY_CHARS, Layout
from ._frontier import Frontier, reading_positions
from ._symmetric import FixedPointCounter
from .filters import Filters, Pattern, territory_span
from .problem import GeneratorError, Problem

__all__ = ["Filters", "GeneratorError", "Pattern", "Problem", "count_by_mix", "count_layouts",
           "fixed_point_counts", "iter_layouts", "sample_layouts", "territory_span"]

DEFAULT_SIZES = (3, 5, 7, 9)
DRAWS_PER_SAMPLE = 2000       # rejection budget under filters before giving up, per sample


# -- cached machinery per problem ------------------------------------------------------------
@lru_cache(maxsize=4)
def _frontier(problem: Problem) -> Frontier:
    g = problem.grid
    frontier = Frontier(g.width, g.height, problem.sizes, problem.unit, problem.valid_codes)
    frontier.table()
    return frontier


@lru_cache(maxsize=4)
def _fixed_points(problem: Problem) -> dict[str, dict[int, int]]:
    g = problem.grid
    return {s.name: FixedPointCounter(g.neighbours, s.perm, problem.sizes, problem.unit,
                                      problem.valid_codes).count()
            for s in g.symmetries[1:]}


class _Symmetry:
    """Fast images of assignment tuples (numbered by first appearance) listed in a cell
    ``order`` (reading order unless given): ``values[k]`` belongs to cell ``order[k]``."""

    def __init__(self, grid: Grid, order=None) -> None:
        order = list(order) if order is not None else list(grid.cells)
        index = {cell: k for k, cell in enumerate(order)}
        self.getters, self.sources = [], []
        for s in grid.symmetries[1:]:
            back = [0] * grid.size
            for c, image in enumerate(s.perm):
                back[image] = c
            source = tuple(index[back[cell]] for cell in order)
            self.sources.append(source)
            self.getters.append(_getter(source))

    @staticmethod
    def normalized(values) -> tuple[int, ...]:
        first: dict[int, int] = {}
        return tuple([first.setdefault(v, len(first)) for v in values])

    def images(self, a: tuple[int, ...]):
        for get in self.getters:
            yield self.normalized(get(a))

    def canonical(self, a: tuple[int, ...]) -> tuple[int, ...]:
        """The least normalised image of ``a`` (itself included); images are compared lazily
        and only normalised in full when they win."""
        best = a
        for source, get in zip(self.sources, self.getters):
            seen: dict[int, int] = {}
            for cell, origin in enumerate(source):
                v = a[origin]
                w = seen.get(v)
                if w is None:
                    w = seen[v] = len(seen)
                if w != best[cell]:
                    if w < best[cell]:
                        best = self.normalized(get(a))
                    break
        return best

    def stabiliser(self, a: tuple[int, ...]) -> int:
        return 1 + sum(image == a for image in self.images(a))


def _getter(indices):
    if len(indices) == 1:
        only = indices[0]
        return lambda seq: (seq[only],)
    return itemgetter(*indices)


class _Source:
    """Turns the table's walks (piece ids in sweep order) into assignments in reading order."""

    def __init__(self, problem: Problem) -> None:
        self.problem = problem
        self.frontier = _frontier(problem)
        self.lines_mask = (1 << (problem.grid.size // self.frontier.line)) - 1
        self.readers: dict[int, object] = {}
        self.sweepers: dict[int, object] = {}
        self.symmetry = _Symmetry(problem.grid)
        # Symmetry classes are listed through one representative each: the layout whose river
        # key is least, its canonical form being what is yielded. The river key lists, cell by
        # cell in sweep order, whether the cell is cut off by a river from the cell before it
        # in its line's direction ("up") and from the one before it in the line ("left").
        # Unlike territory labels, these are final as soon as both cells are swept (a river
        # between two pieces forbids them to merge), so a prefix of the key is already known
        # when a line ends: the line mirror (reversing every line) can be ruled out early.
        order = self.frontier.order
        line = self.frontier.line
        self.line = line
        size = problem.grid.size
        self.river_pairs = []
        for k in range(size):
            if k >= line:
                self.river_pairs.append((k, k - line))
            if k % line:
                self.river_pairs.append((k, k - 1))
        self.sweep_symmetry = _Symmetry(problem.grid, order)
        self.sweep_to_reading = _getter([order.index(c) for c in problem.grid.cells])
        self.line_mirror = any(
            all(s.perm[order[k]] == order[(k // line) * line + line - 1 - k % line]
                for k in range(size))
            for s in problem.grid.symmetries[1:])

    def is_representative(self, t: tuple[int, ...]) -> bool:
        """``t`` (labels in sweep order) has the least river key of its symmetry class;
        compared image by image, pair by pair, stopping at the first difference."""
        pairs = self.river_pairs
        for image_of in self.sweep_symmetry.getters:
            image = image_of(t)
            for k, before in pairs:
                mine = t[k] != t[before]
                theirs = image[k] != image[before]
                if mine != theirs:
                    if theirs < mine:
                        return False
                    break
        return True

    def assignment(self, walked: tuple[bytes, int]) -> tuple[int, ...]:
        """Reading-order assignment of a walk's (piece ids, line orientations)."""
        ids, orient = walked
        orient &= self.lines_mask
        reader = self.readers.get(orient)
        if reader is None:
            reader = self.readers[orient] = _getter(reading_positions(self.frontier, orient))
        return _Symmetry.normalized(reader(ids))

    def sweep_labels(self, walked: tuple[bytes, int]) -> tuple[int, ...]:
        """Piece ids listed in sweep order (cell ``order[k]`` at ``k``), as drawn."""
        ids, orient = walked
        orient &= self.lines_mask
        sweeper = self.sweepers.get(orient)
        if sweeper is None:
            position = reading_positions(self.frontier, orient)
            sweeper = self.sweepers[orient] = _getter([position[c] for c in self.frontier.order])
        return sweeper(ids)

    def judge(self, ids: bytes, orient: int) -> int:
        """Compare the river key of the lines swept so far with that of their line-mirror
        image: -1 if the image's is smaller (no completion is its class's representative),
        1 if larger (the line mirror can no longer win), 0 if equal so far."""
        line = self.line
        real = [ids[k:k + line] for k in range(0, len(ids), line)]
        real = [seg[::-1] if orient >> lane & 1 else seg for lane, seg in enumerate(real)]
        mine = b"".join(real)
        image = b"".join(seg[::-1] for seg in real)
        for k, before in self.river_pairs:
            if k >= len(mine):
                return 0
            a, b = mine[k] != mine[before], image[k] != image[before]
            if a != b:
                return 1 if a < b else -1
        return 0

    def count(self, mix) -> int:
        return self.frontier.table().get(self.problem.code(mix), 0)


def _trusted_layout(grid: Grid, assignment: tuple[int, ...]) -> Layout:
    """A Layout from an assignment already numbered by first appearance, without re-checking
    it (the generator's assignments are; this is the listing's hot path)."""
    layout = object.__new__(Layout)
    object.__setattr__(layout, "grid", grid)
    object.__setattr__(layout, "assignment", assignment)
    object.__setattr__(layout, "names", _NAMES[max(assignment) + 1])
    return layout


_NAMES = [tuple(TERRITORY_CHARS[:k]) for k in range(len(TERRITORY_CHARS) + 1)]


@lru_cache(maxsize=4)
def _source(problem: Problem) -> _Source:
    return _Source(problem)


def _mixes(problem: Problem, mix) -> tuple[tuple[int, ...], ...]:
    return (problem.check_mix(mix),) if mix is not None else problem.mixes


# -- counts ----------------------------------------------------------------------------------
def count_by_mix(grid: Grid | None = None, territories: int = 6, sizes=DEFAULT_SIZES, *,
                 canonical: bool = False) -> dict[tuple[int, ...], int]:
    """Number of layouts (or of symmetry classes) for every admissible size mix, mixes sorted."""
    problem = Problem.make(grid, territories, sizes)
    table = _frontier(problem).table()
    counts = {mix: table.get(problem.code(mix), 0) for mix in problem.mixes}
    if not canonical:
        return counts
    fixed = _fixed_points(problem)
    order = len(problem.grid.symmetries)
    classes = {}
    for mix, total in counts.items():
        code = problem.code(mix)
        orbit_sum = total + sum(f.get(code, 0) for f in fixed.values())
        if orbit_sum % order:
            raise AssertionError(f"Burnside sum {orbit_sum} for {mix} is not divisible by {order}")
        classes[mix] = orbit_sum // order
    return classes


def count_layouts(grid: Grid | None = None, territories: int = 6, sizes=DEFAULT_SIZES, *,
                  mix=None, canonical: bool = False) -> int:
    """Exact number of valid layouts (symmetry classes with ``canonical``), optionally of one mix."""
    problem = Problem.make(grid, territories, sizes)
    counts = count_by_mix(problem.grid, territories, sizes, canonical=canonical)
    return sum(counts[m] for m in _mixes(problem, mix))


def fixed_point_counts(grid: Grid | None = None, territories: int = 6,
                       sizes=DEFAULT_SIZES) -> dict[str, int]:
    """Layouts left unchanged by each symmetry of the board (identity first: all layouts)."""
    problem = Problem.make(grid, territories, sizes)
    total = sum(count_by_mix(problem.grid, territories, sizes).values())
    out = {problem.grid.symmetries[0].name: total}
    codes = {problem.code(m) for m in problem.mixes}
    for name, table in _fixed_points(problem).items():
        out[name] = sum(v for c, v in table.items() if c in codes)
    return out


# -- enumeration -----------------------------------------------------------------------------
def iter_layouts(grid: Grid | None = None, territories: int = 6, sizes=DEFAULT_SIZES, *,
                 canonical: bool = False, mix=None, start: int = 0,
                 filters: Filters | None = None) -> Iterator[Layout]:
    """Every valid layout once, lazily, in a fixed order; from the ``start``-th one on.

    With ``canonical`` only the canonical form of each symmetry class; with ``mix`` only that
    size mix; with ``filters`` only layouts they accept. ``start`` counts what would be yielded,
    so ``iter_layouts(..., start=n)`` continues where a consumer stopped after ``n`` layouts.
    Without ``canonical`` and ``filters`` the start is reached by unranking (instantly);
    otherwise the skipped layouts are generated and dropped. Memory stays constant.
    """
    problem = Problem.make(grid, territories, sizes)
    mixes = _mixes(problem, mix)
    if not isinstance(start, int) or start < 0:
        raise GeneratorError(f"start must be a non-negative whole number, got {start!r}")
    filters = filters if filters is not None and filters.active else None
    return _iterate(_source(problem), mixes, canonical, start, filters)


def _iterate(source: _Source, mixes, canonical: bool, start: int, filters) -> Iterator[Layout]:
    frontier, problem = source.frontier, source.problem
    jump = not canonical and filters is None
    is_representative = source.is_representative
    canonical_form = source.symmetry.canonical
    grid, make = problem.grid, _trusted_layout
    for mix in mixes:
        skip = 0
        if jump:
            total = source.count(mix)
            if start >= total:
                start -= total
                continue
            skip, start = start, 0
        if canonical:
            walks = frontier.walk(problem.code(mix), 0,
                                  source.judge if source.line_mirror else None)
            for walked in walks:
                swept = source.sweep_labels(walked)
                if not is_representative(swept):
                    continue
                a = canonical_form(_Symmetry.normalized(source.sweep_to_reading(swept)))
                layout = make(grid, a)
                if filters is not None and not filters.accepts(layout):
                    continue
                if start:
                    start -= 1
                    continue
                yield layout
            continue
        for walked in frontier.walk(problem.code(mix), skip):
            a = source.assignment(walked)
            layout = make(grid, a)
            if filters is not None and not filters.accepts(layout):
                continue
            if start:
                start -= 1
                continue
            yield layout


# -- sampling --------------------------------------------------------------------------------
def sample_layouts(n: int, seed, *, grid: Grid | None = None, territories: int = 6,
                   sizes=DEFAULT_SIZES, mix=None, canonical: bool = False,
                   filters: Filters | None = None) -> list[Layout]:
    """``n`` independent uniform draws (with replacement) from a seed.

    Each valid layout of the mix (or of all mixes) is equally likely: a uniform index below the
    exact count is unranked. With ``canonical`` each symmetry class is equally likely: a uniform
    layout is kept with probability |stabiliser| / |symmetry group|, which makes every class's
    chance the same, and its canonical form is returned. With ``filters`` draws are repeated
    until one is accepted; rejection from an exactly uniform draw stays exactly uniform over the
    accepted layouts. The same seed always gives the same list.
    """
    if not isinstance(n, int) or n < 0:
        raise GeneratorError(f"the number of samples must be a non-negative whole number, got {n!r}")
    problem = Problem.make(grid, territories, sizes)
    mixes = _mixes(problem, mix)
    filters = filters if filters is not None and filters.active else None
    source = _source(problem)
    weights = [source.count(m) for m in mixes]
    total = sum(weights)
    if total == 0:
        raise GeneratorError(f"no layout exists for {problem.describe()}"
                             + (f" with mix {','.join(map(str, mixes[0]))}" if mix else ""))
    rng = random.Random(seed)
    order = len(problem.grid.symmetries)
    symmetry = source.symmetry
    out: list[Layout] = []
    draws, budget = 0, DRAWS_PER_SAMPLE * max(n, 1) * (order if canonical else 1)
    while len(out) < n:
        draws += 1
        if draws > budget:
            raise GeneratorError(
                f"the filters accepted {len(out)} of {draws - 1:,} uniform draws; they are too "
                f"strict to sample from, list the matching layouts instead")
        index = rng.randrange(total)
        for mix_, weight in zip(mixes, weights):
            if index < weight:
                break
            index -= weight
        a = source.assignment(source.frontier.unrank(problem.code(mix_), index))
        if canonical:
            if rng.randrange(order) >= symmetry.stabiliser(a):
                continue
            a = symmetry.canonical(a)
        layout = _trusted_layout(problem.grid, a)
        if filters is not None and not filters.accepts(layout):
            continue
        out.append(layout)
    return out
