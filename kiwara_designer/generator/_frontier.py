"""Frontier-based dynamic programme (transfer matrix) over a cell-by-cell sweep of the board.

The board is swept line by line along its shorter side, so the frontier holds ``L = min(W, H)``
cells. A state after ``i`` cells is the connectivity of the frontier cells (which of them already
belong to one piece), the size of every open piece, and the pairs of open pieces that must never
merge because a river already runs between them. The number of completions of a state, split by
the multiset of territory sizes still to be closed (encoded as one integer), is memoised top-down;
the same table drives exact counts, unranking (enumeration from an index) and uniform sampling.

Each cell takes one of four actions: start a new piece, join the piece behind it ("up"), join the
piece beside it ("left"), or join and merge both. A piece closes when its last frontier cell leaves
the frontier; it must then have an allowed size.
"""
from __future__ import annotations

import gc
import sys

NEW, UP, LEFT, MERGE = 0, 1, 2, 3


def _pair_bit(a: int, b: int) -> int:
    """Bit of the unordered pair of pieces {a, b} in a river mask."""
    if a > b:
        a, b = b, a
    return 1 << (b * (b - 1) // 2 + a)


_PAIRS = [(a, b) for b in range(64) for a in range(b)]   # bit number -> pair


def _pair_plan(mask: int, new_index: tuple[int, ...]) -> tuple[tuple[int, int, int], ...]:
    """The river pairs of ``mask`` that survive a move, renumbered: (new a, new b, new bit)."""
    plan = []
    while mask:
        low = mask & -mask
        mask ^= low
        lo, hi = _PAIRS[low.bit_length() - 1]
        x, y = new_index[lo], new_index[hi]
        if x >= 0 and y >= 0 and x != y:
            plan.append((x, y, _pair_bit(x, y)))
    return tuple(plan)


class Frontier:
    """Completion counts of every reachable sweep state for one (grid, k, sizes) problem.

    ``sizes`` is the sorted tuple of allowed sizes, ``valid`` the set of codes of multisets of
    sizes that are part of some admissible mix (code = sum of ``unit[size]``).
    """

    def __init__(self, width: int, height: int, sizes: tuple[int, ...], unit: dict[int, int],
                 valid: frozenset[int]) -> None:
        self.width, self.height = width, height
        self.transposed = height < width          # sweep columns when the board is wider
        self.line = min(width, height)            # frontier length L
        self.n = width * height
        self.unit = unit
        self.valid = valid
        self.max_size = max(sizes)
        # sweep position i -> board cell (reading order)
        if self.transposed:
            self.order = tuple((i % height) * width + i // height for i in range(self.n))
        else:
            self.order = tuple(range(self.n))
        self.memo: list[dict] = [dict() for _ in range(self.n + 1)]
        self.root = ((-1,) * self.line, (), 0)
        self.memo[self.n][((-1,) * self.line, (), 0)] = [{0: 1}, ()]
        self._option_cache: dict = {}
        self._root_entry: list | None = None

    # -- transitions -----------------------------------------------------------------------
    def _structural_options(self, labels: tuple[int, ...], slot: int, last_line: bool,
                            last: bool):
        """What each action does to a frontier labelling, independent of sizes and rivers.

        Returns tuples (action, piece the cell joins, merged piece or -1, pair bits added,
        new labels, old piece -> new piece (-1: gone), closing old pieces).
        Old pieces are numbered 0..P-1; P stands for a fresh piece.
        """
        up = labels[slot]
        left = labels[slot - 1] if slot > 0 else -1
        fresh = max(labels) + 1
        choices = [(NEW, fresh, -1)]
        if up >= 0:
            choices.append((UP, up, -1))
        if left >= 0 and left != up:
            choices.append((LEFT, left, -1))
            if up >= 0:
                choices.append((MERGE, up, left))
        options = []
        for action, piece, merged in choices:
            added = 0
            if action == NEW:
                for other in (up, left):
                    if other >= 0:
                        added |= _pair_bit(other, fresh)
            elif action != MERGE and up >= 0 and left >= 0 and up != left:
                added |= _pair_bit(up, left)
            lab = list(labels)
            lab[slot] = piece
            if last_line and slot > 0:
                lab[slot - 1] = -1              # it has nothing left to grow into
            if merged >= 0:
                lab = [piece if x == merged else x for x in lab]
            if last:
                lab = [-1] * len(lab)
            remap: dict[int, int] = {}
            for x in lab:
                if x >= 0 and x not in remap:
                    remap[x] = len(remap)
            new_labels = tuple(remap[x] if x >= 0 else -1 for x in lab)
            before = {x for x in labels if x >= 0} | {piece}
            closing = tuple(sorted(x for x in before if x not in remap and x != merged))
            if merged >= 0 and piece in remap:
                remap_merged = dict(remap)
                remap_merged[merged] = remap[piece]
            else:
                remap_merged = remap
            new_index = tuple(remap_merged.get(x, -1) for x in range(fresh + 1))
            source = [0] * len(remap)
            for old, new in remap.items():
                source[new] = old
            merge_bit = _pair_bit(piece, merged) if merged >= 0 else 0
            options.append((action, piece, merged, merge_bit, added, new_labels, tuple(source),
                            closing, new_index, {}))
        return tuple(options)

    def transitions(self, i: int, state):
        """(action, next state, closed-size code) for every admissible action at sweep step i."""
        labels, sizes, forb = state
        key = (labels, i)
        opts = self._option_cache.get(key)
        if opts is None:
            opts = self._option_cache[key] = self._structural_options(
                labels, i % self.line, i >= self.n - self.line, i == self.n - 1)
        unit, max_size = self.unit, self.max_size
        out = []
        for (action, piece, merged, merge_bit, added, new_labels, source, closing, new_index,
             pair_plans) in opts:
            if forb & merge_bit:
                continue                         # a river already separates the two pieces
            grown = list(sizes)
            grown.append(0)                      # the fresh piece, if the cell starts one
            g = grown[piece] + 1
            if merged >= 0:
                g += grown[merged]
            if g > max_size:
                continue
            grown[piece] = g
            inc = 0
            for old in closing:
                u = unit.get(grown[old])
                if u is None:
                    break
                inc += u
            else:
                new_sizes = tuple([grown[o] for o in source])
                # carry the rivers over; forget pairs too big to ever merge anyway
                mask = forb | added
                new_forb = 0
                if mask:
                    plan = pair_plans.get(mask)
                    if plan is None:
                        plan = pair_plans[mask] = _pair_plan(mask, new_index)
                    for x, y, bit in plan:
                        if new_sizes[x] + new_sizes[y] < max_size:
                            new_forb |= bit
                out.append((action, (new_labels, new_sizes, new_forb), inc))
        return out

    # -- completion counts -------------------------------------------------------------------
    def completions(self, i: int, state) -> list:
        """The table entry of ``state`` after ``i`` cells: ``[counts, edges]`` where ``counts``
        maps the code of the multiset of sizes still to close to the number of ways to finish,
        and ``edges`` lists ``(action, closed code, entry of the next state)`` for every move
        that can still finish."""
        entry = self.memo[i].get(state)
        if entry is not None:
            return entry
        valid = self.valid
        total: dict[int, int] = {}
        edges = []
        below = self.memo[i + 1]
        for action, nxt, inc in self.transitions(i, state):
            sub = below.get(nxt)
            if sub is None:
                sub = self.completions(i + 1, nxt)
            useful = False
            for code, count in sub[0].items():
                code += inc
                if code in valid:
                    total[code] = total.get(code, 0) + count
                    useful = True
            if useful:
                edges.append((action, inc, sub))
        entry = self.memo[i][state] = [total, tuple(edges)]
        return entry

    def table(self) -> dict[int, int]:
        """Number of layouts by code of their size multiset (the root's completions)."""
        if self._root_entry is None:
            if sys.getrecursionlimit() < 4 * self.n + 1000:
                sys.setrecursionlimit(4 * self.n + 1000)
            collecting = gc.isenabled()
            gc.disable()                  # millions of small tuples: the collector only slows us
            try:
                self._root_entry = self.completions(0, self.root)
            finally:
                if collecting:
                    gc.enable()
            self.memo = []                # the entries keep each other alive; keys are not needed
        return self._root_entry[0]

    # -- walking the table -------------------------------------------------------------------
    def unrank(self, code: int, index: int) -> bytes:
        """The ``index``-th completion closing exactly ``code``, as piece ids in sweep order."""
        self.table()
        entry, want, ids, fresh, line = self._root_entry, code, b"", 0, self.line
        for i in range(self.n):
            for action, inc, child in entry[1]:
                c = child[0].get(want - inc, 0)
                if index < c:
                    break
                index -= c
            else:
                raise IndexError("index beyond the number of layouts")
            ids, fresh = _apply(action, i, line, ids, fresh)
            want -= inc
            entry = child
        return ids

    def walk(self, code: int, skip: int = 0):
        """Every completion closing exactly ``code`` in unranking order, from the ``skip``-th on
        (jumped to by counts, not generated), as bytes of piece ids in sweep order."""
        self.table()
        n, line = self.n, self.line
        if self._root_entry[0].get(code, 0) <= skip:
            return
        edge_lists = [()] * n
        pos = [0] * n
        want = [0] * (n + 1)
        ids = [b""] * (n + 1)
        fresh = [0] * (n + 1)
        entry = self._root_entry
        want[0] = code
        for depth in range(n):                       # descend to the skip-th completion
            edges = entry[1]
            w = want[depth]
            for p, (action, inc, child) in enumerate(edges):
                c = child[0].get(w - inc, 0)
                if skip < c:
                    break
                skip -= c
            edge_lists[depth], pos[depth] = edges, p
            ids[depth + 1], fresh[depth + 1] = _apply(action, depth, line, ids[depth], fresh[depth])
            want[depth + 1] = w - inc
            entry = child
        while True:
            yield ids[n]
            depth = n - 1                            # back up to the deepest untried edge
            while True:
                edges, w = edge_lists[depth], want[depth]
                p = pos[depth] + 1
                while p < len(edges) and w - edges[p][1] not in edges[p][2][0]:
                    p += 1
                if p < len(edges):
                    break
                depth -= 1
                if depth < 0:
                    return
            pos[depth] = p
            while True:                              # then down along first edges
                action, inc, child = edge_lists[depth][pos[depth]]
                ids[depth + 1], fresh[depth + 1] = _apply(action, depth, line, ids[depth],
                                                          fresh[depth])
                w = want[depth + 1] = want[depth] - inc
                depth += 1
                if depth == n:
                    break
                edges = child[1]
                p = 0
                while w - edges[p][1] not in edges[p][2][0]:
                    p += 1
                edge_lists[depth], pos[depth] = edges, p


def _apply(action: int, i: int, line: int, ids: bytes, fresh: int) -> tuple[bytes, int]:
    """Piece ids of the first ``i + 1`` cells after the action at sweep step ``i``."""
    if action == NEW:
        return ids + bytes((fresh,)), fresh + 1
    if action == UP:
        return ids + ids[i - line:i - line + 1], fresh
    if action == LEFT:
        return ids + ids[i - 1:i], fresh
    keep, drop = ids[i - line:i - line + 1], ids[i - 1:i]
    return ids.replace(drop, keep) + keep, fresh
