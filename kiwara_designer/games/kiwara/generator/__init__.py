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
import struct
from functools import lru_cache
from itertools import count, islice
from operator import itemgetter, ne
from typing import Iterator

from ..geometry import GAME_SYMMETRIES, Grid
from ..layout import TERRITORY_CHARS, Layout
from ....core.workers import parallel_map
from ._frontier import Frontier, reading_positions
from ._symmetric import FixedPointCounter
from .filters import Filters, Pattern, territory_span
from .problem import GeneratorError, Problem

__all__ = ["Filters", "GeneratorError", "Pattern", "Problem", "count_by_mix", "count_layouts",
           "fixed_point_counts", "iter_blocks", "iter_layouts", "probe_filters", "sample_layouts",
           "territory_span"]

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
def _fixed_point_counters(problem: Problem, names=None) -> dict[str, FixedPointCounter]:
    """One counter per non-identity symmetry (of ``names``, if given), its table built."""
    g = problem.grid
    counters = {s.name: FixedPointCounter(g.neighbours, s.perm, problem.sizes, problem.unit,
                                          problem.valid_codes)
                for s in g.symmetries[1:] if names is None or s.name in names}
    for counter in counters.values():
        counter.count()
    return counters


def _fixed_points(problem: Problem) -> dict[str, dict[int, int]]:
    return {name: c.count() for name, c in _fixed_point_counters(problem).items()}


class _Symmetry:
    """Fast images of assignment tuples (numbered by first appearance) listed in a cell
    ``order`` (reading order unless given): ``values[k]`` belongs to cell ``order[k]``."""

    def __init__(self, grid: Grid, order=None, names=None) -> None:
        order = list(order) if order is not None else list(grid.cells)
        index = {cell: k for k, cell in enumerate(order)}
        self.getters, self.sources = [], []
        for s in grid.symmetries[1:]:
            if names is not None and s.name not in names:
                continue
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


def _inverse(perm) -> tuple[int, ...]:
    back = [0] * len(perm)
    for c, image in enumerate(perm):
        back[image] = c
    return tuple(back)


def _getter(indices):
    if len(indices) == 1:
        only = indices[0]
        return lambda seq: (seq[only],)
    return itemgetter(*indices)


class _Made(dict):
    """A cache whose missing values are made by ``make(key)`` (and kept) on first lookup."""

    def __init__(self, make) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, key):
        value = self[key] = self.make(key)
        return value


_NUMBERS = bytes(range(256))


def _renumbered(ids: bytes) -> bytes:
    """Piece ids renumbered 0, 1, 2 … by first appearance."""
    first = bytes(dict.fromkeys(ids))
    return ids.translate(bytes.maketrans(first, _NUMBERS[:len(first)]))


class _Source:
    """Turns the table's walks (piece ids in sweep order, line orientations) into assignments
    in reading order."""

    def __init__(self, problem: Problem) -> None:
        self.problem = problem
        self.frontier = frontier = _frontier(problem)
        self.lines_mask = (1 << (problem.grid.size // frontier.line)) - 1
        # line orientations -> the getter putting piece ids in reading order
        self.readers = _Made(lambda orient: _getter(reading_positions(frontier, orient)))
        self.symmetry = _Symmetry(problem.grid)
        self.classes = _ClassListing(problem.grid, frontier, self)

    def reading(self, walked: tuple[bytes, int]) -> bytes:
        """A walk's piece ids in reading order (not renumbered)."""
        ids, orient = walked
        return bytes(self.readers[orient & self.lines_mask](ids))

    def ordered(self, walked: tuple[bytes, int]) -> bytes:
        """Reading-order assignment of a walk's (piece ids, line orientations), as bytes."""
        return _renumbered(self.reading(walked))

    def assignment(self, walked: tuple[bytes, int]) -> tuple[int, ...]:
        """Reading-order assignment of a walk's (piece ids, line orientations)."""
        return tuple(_renumbered(self.reading(walked)))

    def count(self, mix) -> int:
        return self.frontier.table().get(self.problem.code(mix), 0)


class _ClassListing:
    """One layout per symmetry class, picked during the walk, and its canonical form.

    The representative of a class is its layout with the least *river key*: for every pair of
    neighbouring cells, in a fixed order, whether a river separates them. A river between two
    swept cells is final (two pieces a river separates may never merge), so the key of every
    image is known on the pairs whose cells, and whose images' cells, are all swept. The pairs
    are ordered by how early that happens: on the 6 × 5 board (swept by columns) the two middle
    columns come first, so all three mirror images and turns are compared, and most
    non-representatives dropped, once four of the six columns are swept.
    """

    def __init__(self, grid: Grid, frontier: Frontier, source: _Source) -> None:
        self.grid, self.line, self.n = grid, frontier.line, frontier.n
        self.reading = source.reading
        line, n = self.line, self.n
        pairs = [(k, k - line) for k in range(line, n)] + \
                [(k, k - 1) for k in range(n) if k % line]
        images = _Symmetry(grid, frontier.order).sources    # image[k] = labels[source[k]]
        self.everything = (1 << len(images)) - 1             # the symmetries still tied
        known = {p: max(max(src[p[0]], src[p[1]], *p) for src in images) + 1 if images else 0
                 for p in pairs}
        self.key = key = sorted(pairs, key=lambda p: (known[p], p))
        place = {p: j for j, p in enumerate(key)}
        # per number of swept cells, how many of the key's pairs are comparable by then, and
        # per symmetry the getter of the image's key from mine (images of those pairs are
        # among them: a pair and its images are known at the same time)
        self.known = [sum(1 for p in key if known[p] <= depth) for depth in range(n + 1)]
        self.image_keys = [[_getter([place[max(src[k], src[b]), min(src[k], src[b])]
                                     for k, b in key[:m]]) if m else None
                            for m in self.known] for src in images]
        self.ends = _Made(lambda lanes_depth: self._pair_ends(*lanes_depth))
        self.row_patterns = _Made(_renumbered)
        # symmetries beyond the rectangle's four (a square's transposes and quarter turns)
        w, h = grid.width, grid.height
        rectangle = {tuple(range(n)), tuple(range(n))[::-1],
                     tuple(c % w + (h - 1 - c // w) * w for c in range(n)),
                     tuple(w - 1 - c % w + (c // w) * w for c in range(n))}
        self.square_only = [_getter(_inverse(s.perm)) for s in grid.symmetries
                            if s.perm not in rectangle]
        self.flip = _getter([c for r in range(n - w, -1, -w) for c in range(r, r + w)])

    def judge(self, ids: bytes, orient: int, undecided: int) -> int:
        """Compare the river key of the swept cells with that of each undecided image: -1 if
        an image's is smaller (no completion is its class's representative), else the
        symmetries still tied (as bits)."""
        depth = len(ids)
        if not self.known[depth]:
            return undecided
        lanes = orient & ((1 << (depth // self.line)) - 1)
        first, second = self.ends[lanes, depth]
        mine = tuple(map(ne, first(ids), second(ids)))     # river or not, pair by pair
        still = undecided
        for g, image_key in enumerate(self.image_keys):
            if undecided >> g & 1:
                theirs = image_key[depth](mine)
                if theirs < mine:
                    return -1
                if theirs != mine or depth == self.n:     # equal at the end: g fixes the layout
                    still &= ~(1 << g)
        return still

    def _pair_ends(self, lanes: int, depth: int):
        """Getters of the two cells' piece ids, pair by pair of the key comparable after
        ``depth`` cells, from a walk's ids (whose lines the table saw mirrored are reversed)."""
        line = self.line
        position = {}
        for lane in range(depth // line):
            for slot in range(line):
                seen = line - 1 - slot if lanes >> lane & 1 else slot
                position[lane * line + slot] = lane * line + seen
        comparable = self.key[:self.known[depth]]
        return (_getter([position[k] for k, _ in comparable]),
                _getter([position[b] for _, b in comparable]))

    def canonical(self, walked: tuple[bytes, int]) -> bytes:
        """The canonical form (least normalised image in reading order) of a walk's layout."""
        plain = self.reading(walked)
        if self.square_only:
            return self._least(self._images(plain))
        # An image's first row, numbered alone, starts its normalised form: usually one image
        # has the least first row and only it is renumbered in full. On a rectangle the first
        # rows are the top and bottom rows, either way round.
        w, pattern = self.grid.width, self.row_patterns
        keys = (pattern[plain[:w]], pattern[plain[-1:-w - 1:-1]],    # as is, half-turned,
                pattern[plain[-w:]], pattern[plain[w - 1::-1]])      # rows, columns reversed
        least = min(keys)
        if keys.count(least) == 1 and keys[0] == least:
            return _renumbered(plain)
        images = []
        if keys[0] == least:
            images.append(plain)
        if keys[1] == least:
            images.append(plain[::-1])
        if keys[2] == least or keys[3] == least:
            flipped = bytes(self.flip(plain))
            if keys[2] == least:
                images.append(flipped)
            if keys[3] == least:
                images.append(flipped[::-1])
        return self._least(images)

    def _images(self, plain: bytes) -> list[bytes]:
        """Every image in reading order: the rectangle's symmetries reverse the whole, the
        rows' order or both; a square's other four go through index lists."""
        flipped = bytes(self.flip(plain))
        return [plain, plain[::-1], flipped, flipped[::-1]] + \
            [bytes(turn(plain)) for turn in self.square_only]

    @staticmethod
    def _least(images: list[bytes]) -> bytes:
        return min(map(_renumbered, images))


def _trusted_layout(grid: Grid, assignment: tuple[int, ...], territories: int) -> Layout:
    """A Layout from an assignment already numbered by first appearance, with ``territories``
    territories, without re-checking it (the generator's assignments are; this is the
    listing's hot path): its fields are written straight into the frozen instance."""
    layout = _new(Layout)
    fields = layout.__dict__
    fields["grid"] = grid
    fields["assignment"] = assignment
    fields["names"] = _NAMES[territories]
    return layout


_new = object.__new__
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
    return dict(_class_counts(problem) if canonical else _layout_counts(problem))


def _layout_counts(problem: Problem) -> dict[tuple[int, ...], int]:
    table = _frontier(problem).table()
    return {mix: table.get(problem.code(mix), 0) for mix in problem.mixes}


@lru_cache(maxsize=4)
def _class_counts(problem: Problem) -> dict[tuple[int, ...], int]:
    """Symmetry classes per mix by Burnside: the average number of layouts a symmetry fixes."""
    counts = _layout_counts(problem)
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
    mixes = _mixes(problem, mix)               # an inadmissible mix is refused before counting
    counts = count_by_mix(problem.grid, territories, sizes, canonical=canonical)
    return sum(counts[m] for m in mixes)


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
                 filters: Filters | None = None, workers: int | None = 1) -> Iterator[Layout]:
    """Every valid layout once, lazily, in a fixed order; from the ``start``-th one on.

    With ``canonical`` only the canonical form of each symmetry class; with ``mix`` only that
    size mix; with ``filters`` only layouts they accept. ``start`` counts what would be yielded,
    so ``iter_layouts(..., start=n)`` continues where a consumer stopped after ``n`` layouts.
    Without ``canonical`` and ``filters`` the start is reached by unranking (instantly);
    otherwise the skipped layouts are generated and dropped. Memory stays constant.

    The listing is cut into pieces that ``workers`` processes work on (``None``: one per
    core): ranges of indices reached by unranking, or with ``canonical`` or ``filters`` the
    paths through the first lines of the counting table. The order, and so ``start``, is the
    same whatever the number of workers.
    """
    problem = Problem.make(grid, territories, sizes)
    blocks = _blocks(problem, canonical, mix, start, filters, workers)
    return _layouts_of(blocks, problem.grid, problem.territories)


def _layouts_of(blocks: Iterator[bytes], grid: Grid, territories: int) -> Iterator[Layout]:
    cells, make = struct.Struct(f"{grid.size}B"), _trusted_layout
    for block in blocks:
        for assignment in cells.iter_unpack(block):
            yield make(grid, assignment, territories)


def iter_blocks(grid: Grid | None = None, territories: int = 6, sizes=DEFAULT_SIZES, *,
                canonical: bool = False, mix=None, start: int = 0,
                filters: Filters | None = None, workers: int | None = 1,
                progress=None) -> Iterator[bytes]:
    """What :func:`iter_layouts` yields, as blocks of bytes: ``grid.size`` bytes per layout,
    the territory of each cell in reading order (numbered 0, 1, 2 … by first appearance).
    For writing listings fast (:func:`kiwara_designer.games.kiwara.formats.format_block`): no
    :class:`Layout` is made. Blocks hold up to 20,000 layouts; arguments as
    :func:`iter_layouts`, checked at once. With ``filters``, ``progress(scanned, found)`` is
    called as the listing goes: how many layouts (classes with ``canonical``) have been
    looked at, and how many of them the filters accepted (``start`` included)."""
    return _blocks(Problem.make(grid, territories, sizes), canonical, mix, start, filters,
                   workers, progress)


def _blocks(problem: Problem, canonical: bool, mix, start: int, filters,
            workers: int | None, progress=None) -> Iterator[bytes]:
    mixes = _mixes(problem, mix)
    if not isinstance(start, int) or start < 0:
        raise GeneratorError(f"start must be a non-negative whole number, got {start!r}")
    if workers is not None and (not isinstance(workers, int) or workers < 1):
        raise GeneratorError(f"workers must be a positive whole number, got {workers!r}")
    filters = filters if filters is not None and filters.active else None
    if filters is not None:
        filters.check(problem, mixes)       # filters no layout passes: refused at once
    source = _source(problem)
    if not canonical and filters is None:
        return _range_blocks(source, mixes, start, workers)
    return _part_blocks(source, mixes, canonical, start, filters, workers,
                        progress if filters is not None else None)


BLOCK = 20_000            # layouts per block of a plain listing


def _range_blocks(source: _Source, mixes, start: int, workers: int | None) -> Iterator[bytes]:
    """Every layout of the mixes from the start-th on, in ranges of BLOCK layouts that
    workers reach by unranking (see :func:`_list_range`)."""
    problem = source.problem

    def tasks():
        nonlocal start
        for mix in mixes:
            total = source.count(mix)
            for first in range(start, total, BLOCK):
                yield problem, problem.code(mix), first, min(first + BLOCK, total)
            start = max(0, start - total)
    return parallel_map(_list_range, tasks(), workers)


def _list_range(task) -> bytes:
    """Layouts ``first`` to ``end`` (excluded) of a walk, as one assignment per
    ``grid.size`` bytes; the walk starts at ``first`` by unranking (this may run in a worker)."""
    problem, code, first, end = task
    source = _source(problem)
    return b"".join(map(source.ordered, islice(source.frontier.walk(code, first), end - first)))


def _part_blocks(source: _Source, mixes, canonical: bool, start: int, filters,
                 workers: int | None, progress=None) -> Iterator[bytes]:
    """Canonical forms or filtered layouts, part by part (see :func:`_list_part`)."""
    problem = source.problem
    if canonical and start and filters is None:     # whole mixes skipped by their class count
        counts = _class_counts(problem)
        while mixes and start >= counts[mixes[0]]:
            start -= counts[mixes[0]]
            mixes = mixes[1:]
    tasks = ((problem, problem.code(mix), part, canonical, filters)
             for mix in mixes for part in source.frontier.parts(problem.code(mix)))
    n = problem.grid.size
    scanned = found = 0
    for block, walked in parallel_map(_list_part, tasks, workers):
        if progress is not None:
            scanned, found = scanned + walked, found + len(block) // n
            progress(scanned, found)
        if start:
            skipped = min(start, len(block) // n)
            block, start = block[skipped * n:], start - skipped
        if block:
            yield block


def _list_part(task) -> tuple[bytes, int]:
    """One part of a listing (this may run in a worker process): the canonical form of every
    symmetry class whose representative lies along the part, or every layout along it, that
    the filters accept, as one assignment per ``grid.size`` bytes; and how many were looked
    at."""
    problem, code, part, canonical, filters = task
    source = _source(problem)
    classes = source.classes
    if canonical:
        walks = source.frontier.walk(code, 0, classes.judge, classes.everything, part)
        forms = map(classes.canonical, walks)
    else:
        forms = map(source.ordered, source.frontier.walk(code, 0, None, 0, part))
    if filters is None:
        block = b"".join(forms)
        return block, len(block) // problem.grid.size
    grid, k, tally = problem.grid, problem.territories, count()
    forms = map(itemgetter(0), zip(forms, tally))      # zip stops at forms' end: tally is exact
    block = b"".join(a for a in forms if filters.accepts(_trusted_layout(grid, tuple(a), k)))
    return block, next(tally)


# -- sampling --------------------------------------------------------------------------------
def sample_layouts(n: int, seed, *, grid: Grid | None = None, territories: int = 6,
                   sizes=DEFAULT_SIZES, mix=None, canonical: bool = False,
                   filters: Filters | None = None, symmetry: str = "board") -> list[Layout]:
    """``n`` independent uniform draws (with replacement) from a seed.

    ``symmetry="game"`` makes the classes of ``canonical`` those of the game (the identity and
    the half-turn, :data:`~kiwara_designer.games.kiwara.geometry.GAME_SYMMETRIES`): each game is equally
    likely, returned as :meth:`Layout.canonical_game`, and mirror images are different games.

    Each valid layout of the mix (or of all mixes) is equally likely: a uniform index below the
    exact count is unranked. With ``canonical`` each symmetry class is equally likely: a pair
    (symmetry g, layout fixed by g) is drawn uniformly, again by unranking exact counts, and the
    layout's canonical form returned; every class has exactly |group| such pairs (Burnside), so
    every class is equally likely, with no rejection. With ``filters`` draws are repeated until
    one is accepted; rejection from an exactly uniform draw stays exactly uniform over the
    accepted ones. The same seed always gives the same list.
    """
    if not isinstance(n, int) or n < 0:
        raise GeneratorError(f"the number of samples must be a non-negative whole number, got {n!r}")
    problem = Problem.make(grid, territories, sizes)
    mixes = _mixes(problem, mix)
    filters = filters if filters is not None and filters.active else None
    if filters is not None:
        filters.check(problem, mixes)       # filters no layout passes: refused at once
    draw = _drawer(problem, mixes, mix is not None, canonical, symmetry)
    rng = random.Random(seed)
    out: list[Layout] = []
    draws, budget = 0, DRAWS_PER_SAMPLE * max(n, 1)
    while len(out) < n:
        draws += 1
        if draws > budget:
            raise GeneratorError(
                f"the filters accepted {len(out)} of {draws - 1:,} uniform draws; they are too "
                f"strict to sample from, list the matching layouts instead")
        layout = draw(rng)
        if filters is None or filters.accepts(layout):
            out.append(layout)
    return out


def probe_filters(grid: Grid | None = None, territories: int = 6, sizes=DEFAULT_SIZES, *,
                  mix=None, canonical: bool = False, filters: Filters | None = None,
                  draws: int = DRAWS_PER_SAMPLE, seed=0) -> int:
    """How many of ``draws`` uniform draws (as :func:`sample_layouts` makes them, from ``seed``)
    the filters accept: a quick look, before a listing that would walk every layout, at
    whether many or few pass. 0 says few or none do (not that none do); filters that
    :meth:`Filters.check` proves impossible are refused outright, as for sampling."""
    problem = Problem.make(grid, territories, sizes)
    mixes = _mixes(problem, mix)
    if filters is None or not filters.active:
        return draws
    filters.check(problem, mixes)
    draw, rng = _drawer(problem, mixes, mix is not None, canonical), random.Random(seed)
    return sum(filters.accepts(draw(rng)) for _ in range(draws))


def _drawer(problem: Problem, mixes, one_mix: bool, canonical: bool, symmetry: str = "board"):
    """A function drawing one uniformly random layout (with ``canonical`` the canonical form of
    a uniformly random class) of the mixes from a ``random.Random``; the request is checked
    at once."""
    source = _source(problem)
    # the urn: (unranker, code, weight) for every mix, and with canonical for every symmetry
    urn = [(source.frontier, problem.code(m), source.count(m)) for m in mixes]
    if symmetry not in ("board", "game"):
        raise GeneratorError(f'symmetry must be "board" or "game", got {symmetry!r}')
    names = GAME_SYMMETRIES if symmetry == "game" else None
    if canonical:
        for counter in _fixed_point_counters(problem, names).values():
            urn += [(counter, problem.code(m), counter.count().get(problem.code(m), 0))
                    for m in mixes]
    total = sum(weight for _, _, weight in urn)
    if total == 0:
        raise GeneratorError(f"no layout exists for {problem.describe()}"
                             + (f" with mix {','.join(map(str, mixes[0]))}" if one_mix else ""))
    canonicalizer = source.symmetry if names is None else _Symmetry(problem.grid, names=names)

    def draw(rng: random.Random) -> Layout:
        index = rng.randrange(total)
        for unranker, code, weight in urn:
            if index < weight:
                break
            index -= weight
        if unranker is source.frontier:
            a = source.assignment(unranker.unrank(code, index))
        else:
            a = _Symmetry.normalized(unranker.unrank(code, index))
        if canonical:
            a = canonicalizer.canonical(a)
        return _trusted_layout(problem.grid, a, problem.territories)
    return draw
