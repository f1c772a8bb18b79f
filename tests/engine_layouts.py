"""Layouts for the engine tests: a few hand-written valid free-play boards and a simple seeded
random builder (independent of the generator package)."""
from __future__ import annotations

import random

from kiwara_designer.games.kiwara import FREE_PLAY, validate
from kiwara_designer.games.kiwara.layout import Layout

# Hand-written valid 6 × 5 free-play layouts (checked by test_hand_layouts_are_valid).
HAND_LAYOUTS = {
    "strips": ["ABCDEF"] * 5,                                     # six 5s, every column apart
    "nines": ["AAABBB", "CCCDDD", "EEEEEE", "EEEFFF", "FFFFFF"],  # 3,3,3,3,9,9
    "mixed": ["AAABBB", "CCCBBD", "CCEEDD", "FFEEED", "FFFEED"],  # 3,5,5,5,5,7
}

# The seven size mixes of six odd territory sizes in {3,5,7,9} summing to 30.
MIXES = [m for m in (
    (a, b, c, d, e, f)
    for a in (3, 5, 7, 9) for b in (3, 5, 7, 9) for c in (3, 5, 7, 9)
    for d in (3, 5, 7, 9) for e in (3, 5, 7, 9) for f in (3, 5, 7, 9))
    if sum(m) == 30 and list(m) == sorted(m)]


def hand_layout(name: str) -> Layout:
    return Layout.from_rows(HAND_LAYOUTS[name])


def random_free_play_layout(rng: random.Random, width: int = 6, height: int = 5) -> Layout:
    """Grow six territories one after the other from the first free cell; retry until valid."""
    cells = [(x, y) for y in range(height) for x in range(width)]
    while True:
        sizes = list(rng.choice(MIXES))
        rng.shuffle(sizes)
        owner: dict[tuple[int, int], int] = {}
        ok = True
        for t, size in enumerate(sizes):
            start = next(c for c in cells if c not in owner)
            region = [start]
            owner[start] = t
            while len(region) < size:
                frontier = sorted({(x + dx, y + dy) for x, y in region
                                   for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
                                   if 0 <= x + dx < width and 0 <= y + dy < height
                                   and (x + dx, y + dy) not in owner})
                if not frontier:
                    ok = False
                    break
                cell = rng.choice(frontier)
                owner[cell] = t
                region.append(cell)
            if not ok:
                break
        if not ok or len(owner) != len(cells):
            continue
        rows = ["".join("ABCDEF"[owner[(x, y)]] for x in range(width)) for y in range(height)]
        layout = Layout.from_rows(rows)
        if validate(layout, FREE_PLAY).valid:
            return layout
