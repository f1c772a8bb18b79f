"""Frontier-based dynamic programme (transfer matrix) over a cell-by-cell sweep of the board.

The board is swept line by line along its shorter side, so the frontier holds ``L = min(W, H)``
cells. A state after ``i`` cells is the connectivity of the frontier cells (which of them already
belong to one piece), the size of every open piece, and the pairs of open pieces that must never
merge because a river already runs between them. The number of completions of a state, split by
the multiset of territory sizes still to be closed (encoded as one integer), is memoised top-down;
the same table drives exact counts, unranking (enumeration from an index) and uniform sampling.
Table entries are numbered and held in flat lists of dicts of ints and tuples of ints, which the
garbage collector does not track: a table of a million entries costs it nothing to look at.

Each cell takes one of four actions: start a new piece, join the piece behind it ("up"), join the
piece beside it ("left"), or join and merge both. A piece closes when its last frontier cell leaves
the frontier; it must then have an allowed size. In the last line a cell leaves the frontier as
soon as the next one is swept (nothing is left for it to grow into), so pieces close early.
When a line is complete, the rest of the board looks the same in a mirror that reverses the
line, so a state and its mirror image share one table entry; walks remember which lines they
saw mirrored (``orient``) to put every cell back in its place.
"""
from __future__ import annotations

import sys
from operator import itemgetter

from .problem import GeneratorError

# A budget instead of a hang: the 6 x 5 free-play table has 224,000 entries (3 s); a 6 x 6 board
# with the same sizes 2.7 million (95 s, over a gigabyte); larger boards are refused.
MAX_TABLE_ENTRIES = 5_000_000
# States the quick look ahead (Frontier.estimated_entries) may visit before the table is built.
PROBE_STATES = 5_000

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
        # sweep position i -> board cell (reading order), for lines swept as drawn
        if self.transposed:
            self.order = tuple((i % height) * width + i // height for i in range(self.n))
        else:
            self.order = tuple(range(self.n))
        # the table: entry number -> completion counts, and edges
        self.counts: list[dict[int, int]] = [{0: 1}]          # entry 0: the board is full
        self.edges: list[tuple] = [()]
        # what walks found, by entry * stride + code: one dict each, so that adding to them
        # makes no new object the collector tracks for long
        self.stride = max(valid) + 1
        self._viable_cache: dict[int, tuple] = {}
        self._suffix_cache: dict[int, tuple] = {}
        self._line_cache: dict[int, tuple] = {}
        self.memo: list[dict] = [dict() for _ in range(self.n + 1)]
        self.root = ((-1,) * self.line, (), 0)
        self.memo[self.n][((-1,) * self.line, (), 0)] = 0
        self._option_cache: dict = {}
        self._mirror_cache: dict = {}
        self._line_places: dict = {}
        self._line_ways: list = []
        self._root_entry: int | None = None

    # -- transitions -----------------------------------------------------------------------
    def _structural_options(self, labels: tuple[int, ...], slot: int, last_line: bool,
                            last: bool):
        """What each action does to a frontier labelling, independent of sizes and rivers.

        Old pieces are numbered 0..P-1 and P stands for a fresh one. Each option is a tuple:
        action; the piece the cell joins; the piece merged into it (-1: none); the river bit
        that forbids that merge; river pair bits the move adds; the new labels; for each new
        piece the old piece it continues; the old pieces that close; the new number of the
        cell's piece (-1: it closes); old piece -> new number (-1: gone); a cache of how river
        masks are renumbered.
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
                            closing, remap.get(piece, -1), new_index, {}))
        return tuple(options)

    def _options_for(self, labels, i):
        key = (labels, i)
        opts = self._option_cache.get(key)
        if opts is None:
            opts = self._option_cache[key] = self._structural_options(
                labels, i % self.line, i >= self.n - self.line, i == self.n - 1)
        return opts

    def _mirror(self, state):
        """The state with its frontier line reversed, renumbered by first appearance; or the
        state itself when that is not smaller (the smaller one is the memo key)."""
        labels, sizes, forb = state
        key = (labels, forb)
        plan = self._mirror_cache.get(key)
        if plan is None:
            plan = self._mirror_cache[key] = self._mirror_plan(labels, forb)
        new_labels, order, new_forb = plan
        if new_labels > labels:
            return state
        return (new_labels, tuple([sizes[o] for o in order]), new_forb)

    @staticmethod
    def _mirror_plan(labels, forb):
        remap: dict[int, int] = {}
        for x in reversed(labels):
            if x not in remap:
                remap[x] = len(remap)
        order = [0] * len(remap)
        for old, new in remap.items():
            order[new] = old
        new_forb = 0
        while forb:
            low = forb & -forb
            forb ^= low
            a, b = _PAIRS[low.bit_length() - 1]
            new_forb |= _pair_bit(remap[a], remap[b])
        return tuple([remap[x] for x in reversed(labels)]), tuple(order), new_forb

    def _successors(self, i: int, state):
        """``(action, closed code, next state, mirrored)`` of every move from ``state`` after
        ``i`` cells that keeps pieces within the allowed sizes and rivers unbroken."""
        labels, sizes, forb = state
        unit, max_size = self.unit, self.max_size
        boundary = (i + 1) % self.line == 0 and i + 1 < self.n
        ext = sizes + (0,)
        for (action, piece, merged, merge_bit, added, new_labels, source, closing, cell_new,
             new_index, pair_plans) in self._options_for(labels, i):
            if forb & merge_bit:
                continue                         # a river already separates the two pieces
            g = ext[piece] + 1
            if merged >= 0:
                g += ext[merged]
            if g > max_size:
                continue
            inc = 0
            for old in closing:
                u = unit.get(g if old == piece else ext[old])
                if u is None:
                    break
                inc += u
            else:
                new_sizes = [ext[o] for o in source]
                if cell_new >= 0:
                    new_sizes[cell_new] = g
                mask = forb | added
                new_forb = 0
                if mask:
                    plan = pair_plans.get(mask)
                    if plan is None:
                        plan = pair_plans[mask] = _pair_plan(mask, new_index)
                    for x, y, bit in plan:
                        if new_sizes[x] + new_sizes[y] < max_size:
                            new_forb |= bit
                nxt = (new_labels, tuple(new_sizes), new_forb)
                flip = False
                if boundary:
                    # a full line is left: the rest of the board is the same seen in a mirror
                    mirrored = self._mirror(nxt)
                    if mirrored < nxt:
                        nxt, flip = mirrored, True
                yield action, inc, nxt, flip

    # -- completion counts -------------------------------------------------------------------
    def completions(self, i: int, state) -> int:
        """The number of the table entry of ``state`` after ``i`` cells. Its ``counts`` map the
        code of the multiset of sizes still to close to the number of ways to finish; its
        ``edges`` list ``(action, closed code, entry of the next state, mirrored)`` for every
        move that can still finish."""
        unit, valid = self.unit, self.valid
        table = self.counts
        below = self.memo[i + 1]
        total: dict[int, int] = {}
        shared = False                           # total is still a child's own table
        edges = []
        for action, inc, nxt, flip in self._successors(i, state):
            sub = below.get(nxt)
            if sub is None:
                sub = self.completions(i + 1, nxt)
            counts = table[sub]
            if not counts:
                continue
            if inc:
                useful = False
                if shared:
                    total, shared = dict(total), False
                for code, count in counts.items():
                    code += inc
                    if code in valid:
                        total[code] = total.get(code, 0) + count
                        useful = True
                if not useful:
                    continue
            elif total:
                if shared:
                    total, shared = dict(total), False
                for code, count in counts.items():
                    total[code] = total.get(code, 0) + count
            else:
                total, shared = counts, True     # copied only if another move adds to it
            edges.append((action, inc, sub, flip))
        entry = self.memo[i][state] = len(table)
        if entry >= MAX_TABLE_ENTRIES:
            raise GeneratorError(
                f"counting the layouts of the {self.width} × {self.height} board needs more than "
                f"{MAX_TABLE_ENTRIES:,} table entries: too large for this generator (6 × 5 "
                f"needs 224,000, 6 × 6 with sizes 3-9 about 2.7 million)")
        table.append(total)
        self.edges.append(tuple(edges))
        return entry

    def estimated_entries(self, budget: int = PROBE_STATES, limit: int = MAX_TABLE_ENTRIES) -> int:
        """How many entries the table will have, found quickly. The table holds one entry per
        state reachable after each number of cells; these are counted cell by cell (exact if
        the sweep ends within ``budget`` states), then the lines still ahead but the last are
        extrapolated from the growth of the count between line ends. That growth rate fell
        from line to line, at least 2.6-fold, on every board measured (6 × 5 to 8 × 6); it is
        taken to fall as fast as it last did and at least fourfold, and a line to hold as many
        states per cell as at its end (there are more within it), so the estimate errs low:
        a board it refuses is too large. It stops as soon as it passes ``limit`` even with half
        as many states per cell ahead (line ends merge mirror images, at most halving them)."""
        states, seen, ends = {self.root}, 1, [1]
        for i in range(self.n):
            states = {nxt for state in states for _, _, nxt, _ in self._successors(i, state)}
            seen += len(states)
            floor = seen + len(states) // 2 * max(0, self.n - self.line - (i + 1))
            if floor > limit:
                return floor
            if (i + 1) % self.line == 0:
                ends.append(len(states))
                if seen > budget and len(ends) >= 4:
                    break
        else:
            return seen
        estimate, at_end = seen, ends[-1]
        rate, before = at_end / ends[-2] - 1, ends[-2] / ends[-3] - 1
        fall = max(before / rate, 4) if rate > 0 else 4
        for _ in range(self.n // self.line - len(ends)):      # lines ahead but the last
            rate /= fall
            at_end *= 1 + rate
            estimate += self.line * at_end
        return int(estimate)

    def table(self) -> dict[int, int]:
        """Number of layouts by code of their size multiset (the root's completions)."""
        if self._root_entry is None:
            estimate = self.estimated_entries(limit=MAX_TABLE_ENTRIES)
            if estimate > MAX_TABLE_ENTRIES:     # refused up front, not after minutes and GBs
                raise GeneratorError(
                    f"counting the layouts of the {self.width} × {self.height} board needs more "
                    f"than {MAX_TABLE_ENTRIES:,} table entries (about {estimate:,} or more, some "
                    f"{estimate * 40 // 10**6:,} s and {estimate * 400 / 10**9:.1f} GB): too "
                    f"large for this generator (6 × 5 needs 224,000, 6 × 6 with sizes "
                    f"3-9 about 2.7 million)")
            if sys.getrecursionlimit() < 4 * self.n + 1000:
                sys.setrecursionlimit(4 * self.n + 1000)
            self._root_entry = self.completions(0, self.root)
            # states and transitions were needed to build the table, not to walk it
            self.memo, self._option_cache, self._mirror_cache = [], {}, {}
        return self.counts[self._root_entry]

    # -- walking the table -------------------------------------------------------------------
    def unrank(self, code: int, index: int) -> tuple[bytes, int]:
        """The ``index``-th completion closing exactly ``code``: piece ids in sweep order and
        the orientation of each line (bit ``l`` set: line ``l`` was swept mirrored)."""
        self.table()
        entry, want, ids, fresh, line = self._root_entry, code, b"", 0, self.line
        rel, orient = False, 0
        counts, all_edges = self.counts, self.edges
        for i in range(self.n):            # (no viable-edge cache: the paths are random)
            for action, inc, child, flip in all_edges[entry]:
                c = counts[child].get(want - inc, 0)
                if index < c:
                    break
                index -= c
            else:
                raise IndexError("index beyond the number of layouts")
            ids, fresh = _apply(action, i, line, ids, fresh, rel)
            if (i + 1) % line == 0:                 # the next line's orientation and view
                orient |= (((orient >> (i // line)) & 1) ^ flip) << (i // line + 1)
                rel = flip
            want -= inc
            entry = child
        return ids, orient

    def walk(self, code: int, skip: int = 0, judge=None, undecided: int = 0,
             part: tuple[int, ...] | None = None):
        """Every completion closing exactly ``code`` in unranking order, from the ``skip``-th on
        (jumped to by counts, not generated), as (piece ids in sweep order, line orientations).

        ``judge(ids, orient, undecided)``, if given, is asked at the end of each line (the last
        one included) as long as what it still has to decide is non-zero (``undecided`` at the
        start, then its last answer): a negative answer skips every completion of that prefix.
        With ``part`` (see :meth:`parts`) only the completions along it. The hot loop of
        listing: kept flat on purpose."""
        if self.table().get(code, 0) <= skip:
            return
        n, line = self.n, self.line
        counts, all_edges, viable = self.counts, self.edges, self._viable
        known_viable, stride = self._viable_cache, self.stride
        if judge is not None or part is not None:
            if skip:
                raise ValueError("a judged or partial walk starts at the beginning")
            yield from self._walk_by_lines(code, judge, undecided, part or ())
            return
        edge_lists: list = [()] * n
        pos = [0] * n
        ends = [0] * n
        want = [0] * (n + 1)
        ids = [b""] * (n + 1)
        fresh = [0] * (n + 1)
        rel = [False] * (n + 1)
        orient = [0] * (n + 1)
        line_end = [(d + 1) % line == 0 for d in range(n)]
        lane = [d // line for d in range(n)]
        mirrored_up = [d - 2 * (d % line) - 1 for d in range(n)]
        one = [bytes((x,)) for x in range(256)]
        tail = n - line if n > line else -1           # where the last line starts
        tail_steps = range(tail, n)
        want[0] = code
        backing = False
        if skip:
            # descend to the skip-th completion, choosing edges by counts
            entry = self._root_entry
            for d in range(n):
                w = want[d]
                for action, inc, child, flip in all_edges[entry]:
                    c = counts[child].get(w - inc, 0)
                    if skip < c:
                        break
                    skip -= c
                edge_lists[d] = edges = viable(entry, w)
                pos[d], ends[d] = edges.index((action, inc, child, flip)), len(edges)
                ids[d + 1], fresh[d + 1] = _apply(action, d, line, ids[d], fresh[d], rel[d])
                if line_end[d]:
                    o = orient[d]
                    orient[d + 1] = o | ((((o >> lane[d]) & 1) ^ flip) << (lane[d] + 1))
                    rel[d + 1] = flip
                else:
                    orient[d + 1], rel[d + 1] = orient[d], rel[d]
                want[d + 1] = w - inc
                entry = child
            yield ids[n], orient[n]
            d, backing = n - 1, True
        else:
            d = 0
            edge_lists[0] = viable(self._root_entry, code)
            ends[0] = len(edge_lists[0])
        while True:
            if backing:
                # back up to the deepest depth with an untried viable edge
                while True:
                    p = pos[d] + 1
                    if p < ends[d]:
                        pos[d] = p
                        break
                    d -= 1
                    if d < 0:
                        return
            backing = True
            # then forward along first viable edges to a leaf (or a rejected line)
            while True:
                action, inc, child, flip = edge_lists[d][pos[d]]
                cur = ids[d]
                if action == NEW:
                    f = fresh[d]
                    nid = cur + one[f]
                    fresh[d + 1] = f + 1
                else:
                    fresh[d + 1] = fresh[d]
                    if action == LEFT:
                        nid = cur + cur[d - 1:d]
                    else:
                        up = mirrored_up[d] if rel[d] else d - line
                        keep = cur[up:up + 1]
                        if action == UP:
                            nid = cur + keep
                        else:
                            nid = cur.replace(cur[d - 1:d], keep) + keep
                ids[d + 1] = nid
                if line_end[d]:
                    o = orient[d]
                    orient[d + 1] = o | ((((o >> lane[d]) & 1) ^ flip) << (lane[d] + 1))
                    rel[d + 1] = flip
                else:
                    orient[d + 1] = orient[d]
                    rel[d + 1] = rel[d]
                w = want[d + 1] = want[d] - inc
                d += 1
                if d == n:
                    yield nid, orient[n]
                    d -= 1
                    break
                if d == tail:
                    # the last line: its completions are listed once per table entry and
                    # replayed here without the bookkeeping of the general loop
                    f0, last_orient = fresh[d], orient[d]
                    for actions in self._suffixes(child, w):
                        cur, f = nid, f0
                        for i, a in zip(tail_steps, actions):
                            if a == NEW:
                                cur += one[f]
                                f += 1
                            elif a == LEFT:
                                cur += cur[i - 1:i]
                            else:
                                up = mirrored_up[i] if rel[tail] else i - line
                                keep = cur[up:up + 1]
                                if a == UP:
                                    cur += keep
                                else:
                                    cur = cur.replace(cur[i - 1:i], keep) + keep
                        yield cur, last_orient
                    d -= 1
                    break
                edges = known_viable.get(child * stride + w)
                if edges is None:
                    edges = viable(child, w)
                edge_lists[d], pos[d], ends[d] = edges, 0, len(edges)


    def parts(self, code: int) -> list[tuple[int, ...]]:
        """Pieces of work that together walk every completion closing ``code``, in order: the
        paths through the ways of the first two lines (fewer on boards of four lines or less).
        ``walk(code, part=p, …)`` walks the completions that start along path ``p``."""
        depth = max(0, min(2, self.n // self.line - 2))

        def paths(entry: int, want: int, level: int):
            if level == depth:
                yield ()
                return
            for p, (inc, child, _, _) in enumerate(
                    self._line_moves(entry, want, level * self.line)):
                for rest in paths(child, want - inc, level + 1):
                    yield (p,) + rest
        return list(paths(self._root_entry, code, 0)) if self.table().get(code) else []

    def _walk_by_lines(self, code: int, judge, undecided: int, part: tuple[int, ...] = ()):
        """:meth:`walk` a whole line per step: the ways through a line from a table entry are
        listed once (cached, with getters making the new line's piece ids) and replayed, and
        the judge is asked at each line's end while ``undecided`` (its last answer) is not
        zero. Along ``part`` only (see :meth:`parts`)."""
        n, line = self.n, self.line
        lines = n // line
        runs = [bytes(x & 255 for x in range(f, f + line)) for f in range(n + 1)]
        moves: list = [()] * lines
        pos = [0] * lines
        ids = [b""] * lines
        fresh, rel, orient = [0] * lines, [False] * lines, [0] * lines
        want, pending = [0] * lines, [0] * lines
        want[0], pending[0] = code, undecided

        ways = self._line_ways

        def line_moves(entry: int, w: int, level: int) -> tuple:
            found = self._line_moves(entry, w, level * line)
            return found[part[level]:part[level] + 1] if level < len(part) else found

        moves[0] = line_moves(self._root_entry, code, 0)
        level = 0
        while level >= 0:
            options = moves[level]
            p = pos[level]
            if p == len(options):
                level -= 1
                continue
            pos[level] = p + 1
            inc, child, flip, way = options[p]
            cur, f = ids[level], fresh[level]
            get, merges, created = ways[way + rel[level]]
            cur += bytes(get(cur + runs[f]))
            for left, up in merges:
                cur = cur.replace(cur[left:left + 1], cur[up:up + 1])
            f += created
            o = orient[level]
            o |= (((o >> level) & 1) ^ flip) << (level + 1)
            open_ = pending[level]
            if open_:
                open_ = judge(cur, o, open_)
                if open_ < 0:
                    continue                         # no completion of this prefix is wanted
            if level + 1 == lines:
                yield cur, o
                continue
            w = want[level] - inc
            if level + 2 == lines:
                # the last line: replayed here without the bookkeeping of the levels above
                run = cur + runs[f]
                last_line = line_moves(child, w, lines - 1)
                for _, _, _, way in last_line:
                    get, merges, _ = ways[way + flip]
                    last = cur + bytes(get(run))
                    for left, up in merges:
                        last = last.replace(last[left:left + 1], last[up:up + 1])
                    if open_ and judge(last, o, open_) < 0:
                        continue
                    yield last, o
                continue
            level += 1
            ids[level], fresh[level], rel[level], orient[level] = cur, f, flip, o
            want[level], pending[level] = w, open_
            moves[level], pos[level] = line_moves(child, w, level), 0

    def _line_moves(self, entry: int, want: int, start: int) -> tuple:
        """Every way through the line that starts at sweep step ``start`` from ``entry`` that
        can still finish closing exactly ``want``: (code closed on the way, entry reached, flip
        of the line's last edge, where its piece ids are made in ``_line_ways``). Cached (a
        listing of the 6 x 5 classes of one mix needs about 10 MB)."""
        key = entry * self.stride + want
        found = self._line_cache.get(key)
        if found is None:
            found = self._line_cache[key] = tuple(
                (inc, last, flip, self._line_way(actions, start))
                for actions, inc, last, flip in self._ways(entry, want, self.line))
        return found

    def _line_way(self, actions: tuple[int, ...], start: int) -> int:
        """Where in ``_line_ways`` the making of a line's piece ids by ``actions`` is, for the
        line before seen as drawn, and next to it mirrored: (a getter of the new ids from the
        ids so far + fresh numbers, the merges to apply then as (left cell, up cell) whose
        pieces become one, the number of fresh numbers taken). Built once per actions."""
        key = (actions, start)
        place = self._line_places.get(key)
        if place is None:
            line = self.line
            place = self._line_places[key] = len(self._line_ways)
            for mirrored in (False, True):
                index, merges, created = [], [], 0
                for i, action in enumerate(actions, start):
                    up = i - 2 * (i % line) - 1 if mirrored else i - line
                    if action == NEW:
                        index.append(start + created)
                        created += 1
                    elif action == LEFT:
                        index.append(index[-1])
                    else:                     # a merge takes the up piece, then renames left
                        index.append(up)
                        if action == MERGE:
                            merges.append((i - 1, up))
                get = itemgetter(*index) if len(index) > 1 else _single(index[0])
                self._line_ways.append((get, tuple(merges), created))
        return place

    def _ways(self, entry: int, want: int, steps: int) -> list:
        """Every way through the next ``steps`` cells, in walk order: (actions, code closed,
        entry reached, flip of the last edge)."""
        ways = [((), 0, entry, False)]
        viable = self._viable
        for _ in range(steps):
            ways = [(actions + (action,), closed + inc, child, flip)
                    for actions, closed, at, _ in ways
                    for action, inc, child, flip in viable(at, want - closed)]
        return ways

    def _viable(self, entry: int, want: int) -> tuple:
        """The edges of ``entry`` that can still finish closing exactly ``want`` (cached)."""
        key = entry * self.stride + want
        edges = self._viable_cache.get(key)
        if edges is None:
            counts = self.counts
            edges = self._viable_cache[key] = tuple(
                e for e in self.edges[entry] if want - e[1] in counts[e[2]])
        return edges

    def _suffixes(self, entry: int, want: int) -> tuple[tuple[int, ...], ...]:
        """Every action sequence from ``entry`` to the end closing exactly ``want`` (cached;
        used for the last line, where they are few)."""
        key = entry * self.stride + want
        found = self._suffix_cache.get(key)
        if found is None:
            if not self.edges[entry]:
                found = ((),) if want == 0 else ()
            else:
                found = tuple((action,) + rest
                              for action, inc, child, _ in self._viable(entry, want)
                              for rest in self._suffixes(child, want - inc))
            self._suffix_cache[key] = found
        return found

def _single(index: int):
    """An itemgetter of one index that still returns a tuple."""
    return lambda seq: (seq[index],)


def _apply(action: int, i: int, line: int, ids: bytes, fresh: int,
           mirrored: bool) -> tuple[bytes, int]:
    """Piece ids of the first ``i + 1`` cells after the action at sweep step ``i``; with
    ``mirrored`` the previous line is seen reversed (its slot j is slot line-1-j here)."""
    if action == NEW:
        return ids + bytes((fresh,)), fresh + 1
    up = i - 2 * (i % line) - 1 if mirrored else i - line
    if action == UP:
        return ids + ids[up:up + 1], fresh
    if action == LEFT:
        return ids + ids[i - 1:i], fresh
    keep, drop = ids[up:up + 1], ids[i - 1:i]
    return ids.replace(drop, keep) + keep, fresh


def reading_positions(frontier: Frontier, orient: int) -> list[int]:
    """For each board cell, its index in a walk's piece ids whose lines have orientations
    ``orient`` (bit l set: line l was swept mirrored)."""
    line = frontier.line
    position = [0] * frontier.n
    for index in range(frontier.n):
        lane, slot = divmod(index, line)
        if orient >> lane & 1:
            slot = line - 1 - slot
        position[frontier.order[lane * line + slot]] = index
    return position
