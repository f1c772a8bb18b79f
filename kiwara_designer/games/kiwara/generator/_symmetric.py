"""Counting the layouts a board symmetry leaves unchanged (the fixed points Burnside needs).

A layout fixed by a symmetry ``g`` maps every territory onto a territory. Take the first free
cell in reading order; its territory ``T`` is a connected set of an allowed size, and ``g(T)``,
``g²(T)``, … must each be ``T`` itself or disjoint from it and from one another. Placing the whole
orbit at once and recursing on the first free cell again builds every fixed layout exactly once.
Fixed layouts are rare (on the 6 × 5 board about 6,000 against 11 million layouts), so this
search, memoised on the set of covered cells, is fast enough and obviously exact. Its table also
unranks fixed layouts, which class sampling draws from.
"""
from __future__ import annotations


class FixedPointCounter:
    """Fixed layouts of one cell permutation, by code of their size multiset."""

    def __init__(self, neighbours, perm: tuple[int, ...], sizes: tuple[int, ...],
                 unit: dict[int, int], valid: frozenset[int]) -> None:
        self.n = len(perm)
        self.nb_mask = [sum(1 << d for d in neighbours[c]) for c in range(self.n)]
        self.perm = perm
        self.sizes = frozenset(sizes)
        self.max_size = max(sizes)
        self.unit, self.valid = unit, valid
        self.full = (1 << self.n) - 1
        # image of a mask, eight cells at a time
        self.chunks = []
        for base in range(0, self.n, 8):
            table = []
            for byte in range(256):
                image = 0
                for bit in range(8):
                    if byte >> bit & 1 and base + bit < self.n:
                        image |= 1 << perm[base + bit]
                table.append(image)
            self.chunks.append((base, table))
        self.memo: dict[int, dict[int, int]] = {self.full: {0: 1}}

    def image(self, mask: int) -> int:
        out = 0
        for base, table in self.chunks:
            out |= table[(mask >> base) & 255]
        return out

    def count(self) -> dict[int, int]:
        """Fixed layouts by code of their size multiset (the table is kept for unranking)."""
        if 0 not in self.memo:
            self._count(0)
        return self.memo[0]

    def _moves(self, used: int):
        """Every way to place the territory of the first free cell together with its images:
        (cells covered, the territories as cell masks, code of their sizes)."""
        free = self.full & ~used
        first = free & -free
        unit, sizes = self.unit, self.sizes
        for piece, size in self._connected_sets(first, used):
            if size not in sizes:
                continue
            covered, members, other = piece, [piece], self.image(piece)
            while other != piece:
                if other & covered:
                    break                          # overlaps its own image without being it
                covered |= other
                members.append(other)
                other = self.image(other)
            else:
                if not covered & used:
                    yield covered, members, len(members) * unit[size]

    def _count(self, used: int) -> dict[int, int]:
        known = self.memo.get(used)
        if known is not None:
            return known
        total: dict[int, int] = {}
        valid = self.valid
        for covered, _, inc in self._moves(used):
            for code, ways in self._count(used | covered).items():
                code += inc
                if code in valid:
                    total[code] = total.get(code, 0) + ways
        self.memo[used] = total
        return total

    def unrank(self, code: int, index: int) -> tuple[int, ...]:
        """The ``index``-th fixed layout closing exactly ``code`` in the search's order, as a
        territory number per cell (reading order, not yet normalised)."""
        self.count()
        labels = [0] * self.n
        used, want, territory = 0, code, 0
        while used != self.full:
            for covered, members, inc in self._moves(used):
                ways = self.memo.get(used | covered, {}).get(want - inc, 0)
                if index < ways:
                    break
                index -= ways
            else:
                raise IndexError("index beyond the number of fixed layouts")
            for mask in members:
                while mask:
                    low = mask & -mask
                    mask ^= low
                    labels[low.bit_length() - 1] = territory
                territory += 1
            used |= covered
            want -= inc
        return tuple(labels)

    def _connected_sets(self, root: int, used: int):
        """Every connected set of at most ``max_size`` free cells containing ``root``, with its
        size; each once (the candidate set is extended only by cells not tried before)."""
        max_size = self.max_size
        blocked = used | root
        stack = [(root, self._neighbours(root) & ~blocked, blocked, 1)]
        while stack:
            piece, candidates, blocked, size = stack.pop()
            yield piece, size
            if size == max_size:
                continue
            while candidates:
                v = candidates & -candidates
                candidates ^= v
                grown = piece | v
                extra = self._neighbours(v) & ~(blocked | candidates)
                stack.append((grown, candidates | extra, blocked | v | extra, size + 1))
                blocked |= v

    def _neighbours(self, mask_bit: int) -> int:
        return self.nb_mask[mask_bit.bit_length() - 1]
