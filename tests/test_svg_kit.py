"""The print-and-play kit, read back from its SVG: token counts, backs, cards, totem, fit."""
from __future__ import annotations

from collections import Counter

import pytest

from kiwara_designer.printing import A4, LETTER, Paper, PrintError, PrintOptions, kit_pages
from svg_support import NS, bounds, classes, find_class, length_mm, parse

# The rules reference, by hand: per player 5 zebras (6), 6 gazelles (2), 1 elephant (5),
# 1 lion (1), 2 crocodiles (0).
PER_PLAYER = {"zebra": 5, "gazelle": 6, "elephant": 1, "lion": 1, "crocodile": 2}
POINTS = {"zebra": "6", "gazelle": "2", "elephant": "5", "lion": "1", "crocodile": "0"}


def tokens_root(options=PrintOptions(), cell=25):
    pages = kit_pages(options, cell)
    assert [p.name for p in pages] == ["tokens", "cards"]
    return parse(pages[0].svg)


def circle_of(token):
    first = next(token.iter(NS + "circle"))
    return float(first.get("cx")), float(first.get("cy")), float(first.get("r"))


def test_token_sheet_counts_and_points():
    root = tokens_root()
    fronts = find_class(root, "front")
    assert len(fronts) == 30
    for player in ("0", "1"):
        mine = [t for t in fronts if t.get("data-player") == player]
        assert Counter(t.get("data-animal") for t in mine) == PER_PLAYER
        for token in mine:
            (points,) = [e for e in token.iter(NS + "text") if "points" in classes(e)]
            assert points.text == POINTS[token.get("data-animal")] == token.get("data-points")
            assert find_class(token, token.get("data-animal"))     # its emblem is drawn
    assert sum(int(POINTS[t.get("data-animal")]) for t in fronts) == 2 * (30 + 12 + 5 + 1)


def test_two_player_colours_and_distinct_backs():
    root = tokens_root()
    fronts, backs = find_class(root, "front"), find_class(root, "back")
    assert len(backs) == 30
    colour = {p: {next(t.iter(NS + "circle")).get("fill") for t in fronts if t.get("data-player") == p}
              for p in ("0", "1")}
    assert len(colour["0"]) == len(colour["1"]) == 1 and colour["0"] != colour["1"]
    for back in backs:   # a face-down token shows neither animal nor points
        assert not list(back.iter(NS + "text")) and not find_class(back, "emblem")
        assert next(back.iter(NS + "circle")).get("fill") in colour[back.get("data-player")]


def test_backs_mirror_fronts_across_the_fold():
    root = tokens_root()
    (fold,) = find_class(root, "fold-line")
    fold_x = float(fold.get("x1"))
    assert fold_x == pytest.approx(297 / 2)
    fronts = sorted((round(2 * fold_x - x, 3), round(y, 3), t.get("data-player"))
                    for t in find_class(root, "front") for x, y, _ in [circle_of(t)])
    backs = sorted((round(x, 3), round(y, 3), t.get("data-player"))
                   for t in find_class(root, "back") for x, y, _ in [circle_of(t)])
    assert fronts == backs


@pytest.mark.parametrize("paper", [A4, LETTER])
def test_kit_sheets_fit_inside_margins(paper):
    for page in kit_pages(PrintOptions(paper), 25):
        root = parse(page.svg)
        width, height = length_mm(root.get("width")), length_mm(root.get("height"))
        assert (width, height) == (paper.width_mm, paper.height_mm)
        # emblems are drawn in their own 100-unit box, scaled into the token: skip their insides
        local = {id(e) for group in find_class(root, "emblem") for e in group.iter()}
        checked = 0
        for element in root.iter():
            box = bounds(element)
            if box is None or id(element) in local:
                continue
            assert box[0] >= 10 - 1e-6 and box[1] >= 10 - 1e-6, element.attrib
            assert box[2] <= width - 10 + 1e-6 and box[3] <= height - 10 + 1e-6, element.attrib
            checked += 1
        assert checked >= 20


def test_token_size_follows_the_cell_and_shrinks_to_fit():
    small = tokens_root(cell=20)
    assert circle_of(find_class(small, "front")[0])[2] == pytest.approx(0.8 * 20 / 2)
    large = tokens_root(cell=60)   # 48 mm tokens would not fit: shrunk to the sheet's pitch
    radius = circle_of(find_class(large, "front")[0])[2]
    assert radius < 0.8 * 60 / 2 and 2 * radius * 5 < 297 / 2


def test_okapi_card_and_totem():
    root = parse(kit_pages(PrintOptions(), 25)[1].svg)
    (okapi,) = [c for c in find_class(root, "front") if c.get("data-card") == "okapi"]
    words = [e.text for e in okapi.iter(NS + "text")]
    assert "OKAPI" in words and "+5" in words
    assert len(find_class(root, "back")) == 1
    totem = find_class(root, "totem")
    assert len(totem) == 1 and len(find_class(totem[0], "totem-face")) == 2


def test_paper_too_small_for_the_kit():
    with pytest.raises(PrintError):
        kit_pages(PrintOptions(Paper.parse("100x80"), margin_mm=5), 25)
