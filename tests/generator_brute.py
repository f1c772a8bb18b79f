"""A deliberately simple, independent enumerator of layouts, to check the generator against.

It shares no code with kiwara_designer.games.kiwara.generator: cells, neighbours and symmetries are rebuilt
from coordinates here. The first unassigned cell in reading order must belong to some territory;
grow every connected set of cells containing it one neighbour at a time; recurse on those of
an allowed size.
"""
from __future__ import annotations

from collections import Counter


def neighbours(width: int, height: int) -> list[set[int]]:
    out = []
    for c in range(width * height):
        x, y = c % width, c // width
        out.append({(x + dx) + (y + dy) * width
                    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
                    if 0 <= x + dx < width and 0 <= y + dy < height})
    return out


def layouts(width: int, height: int, territories: int, sizes) -> list[tuple[int, ...]]:
    """Every partition into ``territories`` connected pieces with sizes in ``sizes``, as
    assignments in reading order with territories numbered by first appearance."""
    n, nb = width * height, neighbours(width, height)
    found = []
    label = [-1] * n

    def place(count: int) -> None:
        free = [c for c in range(n) if label[c] < 0]
        if not free:
            if count == territories:
                found.append(tuple(label))
            return
        if count == territories:
            return
        first, free = free[0], set(free)
        level = {frozenset([first])}
        for size in range(1, max(sizes) + 1):
            if size in sizes:
                for piece in level:
                    for c in piece:
                        label[c] = count
                    place(count + 1)
                    for c in piece:
                        label[c] = -1
            # every connected set one cell larger: add any free neighbour
            level = {piece | {d} for piece in level for c in piece for d in nb[c]
                     if d in free and d not in piece}

    place(0)
    return found


def mix_counts(assignments) -> Counter:
    return Counter(tuple(sorted(Counter(a).values())) for a in assignments)


def normalise(labels) -> tuple[int, ...]:
    first: dict = {}
    return tuple(first.setdefault(v, len(first)) for v in labels)


def symmetries(width: int, height: int) -> dict[str, list[int]]:
    """name -> list mapping each cell to its image, built from coordinates."""
    w, h = width, height
    maps = {
        "half-turn": lambda x, y: (w - 1 - x, h - 1 - y),
        "left-right mirror": lambda x, y: (w - 1 - x, y),
        "top-bottom mirror": lambda x, y: (x, h - 1 - y),
    }
    if w == h:
        maps.update({
            "main-diagonal transpose": lambda x, y: (y, x),
            "anti-diagonal transpose": lambda x, y: (w - 1 - y, h - 1 - x),
            "quarter-turn": lambda x, y: (w - 1 - y, x),
            "three-quarter-turn": lambda x, y: (y, h - 1 - x),
        })
    out = {}
    for name, f in maps.items():
        images = []
        for c in range(w * h):
            x, y = f(c % w, c // w)
            images.append(y * w + x)
        out[name] = images
    return out


def image(assignment, images) -> tuple[int, ...]:
    out = [0] * len(assignment)
    for c, t in enumerate(assignment):
        out[images[c]] = t
    return normalise(out)


def canonical(assignment, width, height) -> tuple[int, ...]:
    return min([normalise(assignment)] + [image(assignment, m)
                                          for m in symmetries(width, height).values()])


def rivers(assignment, width, height) -> int:
    nb = neighbours(width, height)
    return sum(1 for c in range(width * height) for d in nb[c] if c < d
               and assignment[c] != assignment[d])
