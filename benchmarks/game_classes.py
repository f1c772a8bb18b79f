"""Count the layouts' classes under the half-turn alone by walking the four-symmetry classes:
each splits into one or two half-turn classes (two when its left-right mirror is not a half-turn
of it)."""
import sys, time
from collections import Counter
from operator import itemgetter
from kiwara_designer.games.kiwara import Grid
from kiwara_designer.games.kiwara.generator import iter_blocks
g = Grid()
W, H, N = g.width, g.height, g.size
lr = itemgetter(*[r * W + (W - 1 - c) for r in range(H) for c in range(W)])
ht = itemgetter(*[(H - 1 - r) * W + (W - 1 - c) for r in range(H) for c in range(W)])
def norm(v):
    first = {}
    return bytes([first.setdefault(x, len(first)) for x in v])
t = time.time()
total = Counter(); classes = Counter()
for block in iter_blocks(canonical=True, workers=1):
    for i in range(0, len(block), N):
        a = block[i:i + N]
        sizes = tuple(sorted(Counter(a).values()))
        m = norm(lr(a))
        split = m != a and m != norm(ht(a))
        classes[sizes] += 1
        total[sizes] += 2 if split else 1
print("seconds", round(time.time() - t))
for mix in sorted(total):
    print(",".join(map(str, mix)), classes[mix], total[mix])
print("all", sum(classes.values()), sum(total.values()))
