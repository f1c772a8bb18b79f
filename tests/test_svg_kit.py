"""The print-and-play kit and card sheets, read back from their SVG: token counts and points from
the variant, backs by fold and duplex, crop marks and bleed, the rules summary, fit."""
from __future__ import annotations

from collections import Counter

import pytest

from kiwara_designer.games.kiwara import load_layout
from kiwara_designer.games.kiwara.variant import KiwaraVariant
from kiwara_designer.printing import A4, LETTER, Card, Paper, PrintError, PrintOptions, card_pages
from kiwara_designer.games.kiwara.printing import kit_pages, print_set
from svg_support import NS, bounds, classes, find_class, length_mm, line_coords, parse

# The rules reference, by hand: per player 5 zebras (6), 6 gazelles (2), 1 elephant (5),
# 1 lion (1), 2 crocodiles (0).
PER_PLAYER = {"zebra": 5, "gazelle": 6, "elephant": 1, "lion": 1, "crocodile": 2}
POINTS = {"zebra": "6", "gazelle": "2", "elephant": "5", "lion": "1", "crocodile": "0"}


def kit_roots(options=PrintOptions(), cell=25, variant=KiwaraVariant()):
    return {page.name: parse(page.svg) for page in kit_pages(options, cell, variant)}


def disc_of(token):
    (disc,) = [e for e in token.iter(NS + "circle") if "disc" in classes(e)]
    return float(disc.get("cx")), float(disc.get("cy")), float(disc.get("r"))


def square_of(token):
    (square,) = [e for e in token.iter(NS + "rect") if "token-square" in classes(e)]
    return tuple(float(square.get(k)) for k in ("x", "y", "width", "height"))


def test_kit_pages_fold_and_duplex():
    assert list(kit_roots()) == ["tokens", "rules"]
    assert list(kit_roots(PrintOptions(backs="duplex"))) == ["tokens-fronts", "tokens-backs", "rules"]


def test_token_sheet_counts_and_points():
    root = kit_roots()["tokens"]
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


def test_tokens_and_rules_follow_the_variant():
    # gazelles_3: gazelles are worth 3 (issue 10: the kit printed 2 whatever the variant)
    roots = kit_roots(variant=KiwaraVariant.load("gazelles_3"))
    gazelles = [t for t in find_class(roots["tokens"], "front") if t.get("data-animal") == "gazelle"]
    assert len(gazelles) == 12 and {t.get("data-points") for t in gazelles} == {"3"}
    rows = {r.get("data-animal"): r for r in find_class(roots["rules"], "token-row")}
    assert rows["gazelle"].get("data-points") == "3" and rows["gazelle"].get("data-count") == "6"
    assert "3 points" in [e.text for e in rows["gazelle"].iter(NS + "text")]
    # a variant with other counts, no crocodiles, a 7-point Okapi and steps of 1 or 2
    variant = KiwaraVariant.from_dict({"zebra_tokens": 3, "crocodile_tokens": 0, "okapi_points": 7,
                                     "totem_max_step": 2, "lion_points": 4}, "test", "mine")
    roots = kit_roots(variant=variant)
    fronts = find_class(roots["tokens"], "front")
    assert Counter(t.get("data-animal") for t in fronts) == {"zebra": 6, "gazelle": 12,
                                                             "elephant": 2, "lion": 2}
    assert {t.get("data-points") for t in fronts if t.get("data-animal") == "lion"} == {"4"}
    rules = roots["rules"]
    assert {r.get("data-animal") for r in find_class(rules, "token-row")} == {
        "zebra", "gazelle", "elephant", "lion"}
    words = " ".join(e.text for e in rules.iter(NS + "text"))
    assert "variant mine" in words and "+7" in words and "1 to 2 stones clockwise" in words
    assert "Crocodile" not in words
    (okapi,) = [c for c in find_class(rules, "front") if c.get("data-card") == "okapi"]
    assert okapi.get("data-points") == "7"


def test_totem_direction_on_the_rules_page_and_the_board():
    variant = KiwaraVariant.from_dict({"totem_direction": "anticlockwise"}, "test", "backwards")
    pages = print_set(load_layout("classic"), kit=True, variant=variant)
    words = " ".join(e.text for e in parse(pages[-1].svg).iter(NS + "text"))
    assert "1 to 3 stones anticlockwise" in words
    board = parse(pages[0].svg)
    assert len(find_class(board, "anticlockwise")) == 4 and not find_class(board, "clockwise")
    classic = parse(print_set(load_layout("classic"), kit=True)[-1].svg)
    assert "1 to 3 stones clockwise" in " ".join(e.text for e in classic.iter(NS + "text"))


def test_two_player_colours_and_distinct_backs():
    root = kit_roots()["tokens"]
    fronts, backs = find_class(root, "front"), find_class(root, "back")
    assert len(backs) == 30
    colour = {p: {next(t.iter(NS + "circle")).get("fill") for t in fronts if t.get("data-player") == p}
              for p in ("0", "1")}
    assert len(colour["0"]) == len(colour["1"]) == 1 and colour["0"] != colour["1"]
    for back in backs:   # a face-down token shows neither animal nor points
        assert not list(back.iter(NS + "text")) and not find_class(back, "emblem")
        assert next(back.iter(NS + "circle")).get("fill") in colour[back.get("data-player")]


def test_backs_mirror_fronts_across_the_fold():
    root = kit_roots()["tokens"]
    (fold,) = find_class(root, "fold-line")
    fold_x = float(fold.get("x1"))
    assert fold_x == pytest.approx(297 / 2)
    fronts = sorted((round(2 * fold_x - x, 3), round(y, 3), t.get("data-player"))
                    for t in find_class(root, "front") for x, y, _ in [disc_of(t)])
    backs = sorted((round(x, 3), round(y, 3), t.get("data-player"))
                   for t in find_class(root, "back") for x, y, _ in [disc_of(t)])
    assert fronts == backs


def test_duplex_backs_fall_behind_their_fronts():
    # printed double-sided and flipped on the side edge, x becomes width - x
    roots = kit_roots(PrintOptions(backs="duplex"))
    fronts = sorted((round(297 - x, 3), round(y, 3), t.get("data-player"))
                    for t in find_class(roots["tokens-fronts"], "front") for x, y, _ in [disc_of(t)])
    backs = sorted((round(x, 3), round(y, 3), t.get("data-player"))
                   for t in find_class(roots["tokens-backs"], "back") for x, y, _ in [disc_of(t)])
    assert len(fronts) == 30 and fronts == backs
    assert not find_class(roots["tokens-fronts"], "back")
    assert not find_class(roots["tokens-backs"], "front")
    fronts_page, backs_page = kit_pages(PrintOptions(backs="duplex", bleed_mm=3), 25)[:2]
    front, back = fronts_page.trim, backs_page.trim      # the PDF TrimBox of each
    assert (back.x, back.y, back.width, back.height) == pytest.approx(
        (297 - front.right, front.y, front.width, front.height))


def test_tokens_share_straight_cut_lines():
    root = kit_roots(PrintOptions(crop_marks=True))["tokens"]
    fronts = find_class(root, "front")
    squares = [square_of(t) for t in fronts]
    side = squares[0][2]
    assert side == pytest.approx(0.8 * 25 + 2)   # the token follows the board's 25 mm cell
    # every square starts on the grid of one left edge and one top edge plus whole sides
    x0, y0 = min(s[0] for s in squares), min(s[1] for s in squares)
    for x, y, w, h in squares:
        assert w == h == pytest.approx(side)
        assert ((x - x0) / side) == pytest.approx(round((x - x0) / side))
        assert ((y - y0) / side) == pytest.approx(round((y - y0) / side))
    # each player's tokens start a row of their own
    rows = {p: {round(square_of(t)[1], 3) for t in fronts if t.get("data-player") == p} for p in "01"}
    assert not rows["0"] & rows["1"]
    # one crop mark at each end of every cut line: vertical lines above and below, horizontal
    # ones on the left (the right side is the fold)
    columns = round((max(s[0] for s in squares) - x0) / side) + 1
    grid_rows = round((max(s[1] for s in squares) - y0) / side) + 1
    marks = [line_coords(m) for m in find_class(root, "crop-mark")]
    vertical = {round(x1, 2) for x1, y1, x2, y2 in marks if x1 == x2}
    horizontal = {round(y1, 2) for x1, y1, x2, y2 in marks if y1 == y2}
    assert vertical == {round(x0 + k * side, 2) for k in range(columns + 1)}
    assert horizontal == {round(y0 + k * side, 2) for k in range(grid_rows + 1)}
    assert len(marks) == 2 * (columns + 1) + (grid_rows + 1)


def test_bleed_runs_past_the_outer_cut_lines_only():
    bleed = 3
    root = kit_roots(PrintOptions(bleed_mm=bleed))["tokens"]
    squares = {square_of(t) for t in find_class(root, "front")}
    side = 0.8 * 25 + 2
    grown = [s for s in squares if s[2] > side + 1e-6 or s[3] > side + 1e-6]
    assert grown and len(grown) < len(squares)     # outer squares only
    for x, y, w, h in squares:
        assert w in (pytest.approx(side), pytest.approx(side + bleed), pytest.approx(side + 2 * bleed))
    assert find_class(root, "crop-mark")           # bleed hides the cut line: marks show it


@pytest.mark.parametrize("options", [PrintOptions(crop_marks=True), PrintOptions(bleed_mm=3),
                                     PrintOptions(LETTER, crop_marks=True, backs="duplex"),
                                     PrintOptions(cell_mm=45, crop_marks=True, bleed_mm=2)])
def test_crop_marks_on_every_page_when_asked(options):
    pages = print_set(load_layout("classic"), options, kit=True)
    assert len(pages) >= 3
    for page in pages:
        if page.name == "board-map":   # the assembly map is a picture, not a piece to cut
            continue
        assert find_class(parse(page.svg), "crop-mark"), page.name
        assert page.trim is not None and page.bleed_mm == options.bleed_mm


def test_no_marks_without_options_but_cut_guides():
    for page in print_set(load_layout("classic"), PrintOptions(), kit=True):
        root = parse(page.svg)
        assert not find_class(root, "crop-mark"), page.name
        assert find_class(root, "cut-guide") or find_class(root, "trim"), page.name


def test_nine_cards_to_a_page_in_duplex_and_four_in_fold():
    cards = [Card(f"card {i}", ("a body text that wraps over more than one line",), value=str(i),
                  data=(("index", str(i)),)) for i in range(11)]
    # A4 turned to portrait holds 3 × 3; Letter is 20 mm shorter: 4 × 2 as it lies
    for paper, per_page, size in ((A4, 9, (210, 297)), (LETTER, 8, (279.4, 215.9))):
        pages = card_pages(cards, PrintOptions(paper, backs="duplex", bleed_mm=3))
        assert [p.name for p in pages] == ["cards-1-fronts", "cards-1-backs", "cards-2-fronts",
                                           "cards-2-backs"]
        assert (pages[0].width_mm, pages[0].height_mm) == size
        counts = [len(find_class(parse(p.svg), "front" if "fronts" in p.name else "back"))
                  for p in pages]
        assert counts == [per_page, per_page, 11 - per_page, 11 - per_page]
        fronts = find_class(parse(pages[0].svg), "front")
        assert [c.get("data-index") for c in fronts] == [str(i) for i in range(per_page)]
    folded = card_pages(cards, PrintOptions(A4))
    assert [len(find_class(parse(p.svg), "front")) for p in folded] == [4, 4, 3]
    assert [len(find_class(parse(p.svg), "back")) for p in folded] == [4, 4, 3]


def test_card_sheet_cards_are_63_by_88_on_shared_cut_lines():
    pages = card_pages([Card("x")] * 9, PrintOptions(A4, backs="duplex", crop_marks=True))
    root = parse(pages[0].svg)
    marks = [line_coords(m) for m in find_class(root, "crop-mark")]
    xs = sorted({x1 for x1, _, x2, _ in marks if x1 == x2})
    ys = sorted({y1 for _, y1, _, y2 in marks if y1 == y2})
    assert [b - a for a, b in zip(xs, xs[1:])] == pytest.approx([63] * 3)
    assert [b - a for a, b in zip(ys, ys[1:])] == pytest.approx([88] * 3)
    # every mark stays on the paper, clear of its 3 mm edge
    for x1, y1, x2, y2 in marks:
        assert 3 - 1e-6 <= min(x1, x2) and max(x1, x2) <= 210 - 3 + 1e-6
        assert 3 - 1e-6 <= min(y1, y2) and max(y1, y2) <= 297 - 3 + 1e-6


@pytest.mark.parametrize("paper", [A4, LETTER])
def test_kit_sheets_fit_inside_margins(paper):
    for page in kit_pages(PrintOptions(paper), 25):
        root = parse(page.svg)
        width, height = length_mm(root.get("width")), length_mm(root.get("height"))
        assert {width, height} == {paper.width_mm, paper.height_mm}
        # emblems are drawn in their own 100-unit box, scaled into the token; the totem's back
        # and the card's back are rotated: skip their insides
        local = {id(e) for group in find_class(root, "emblem") + find_class(root, "back")
                 + find_class(root, "totem") for e in group.iter()}
        checked = 0
        for element in root.iter():
            box = bounds(element)
            if box is None or id(element) in local:
                continue
            assert box[0] >= 10 - 1e-6 and box[1] >= 10 - 1e-6, element.attrib
            assert box[2] <= width - 10 + 1e-6 and box[3] <= height - 10 + 1e-6, element.attrib
            checked += 1
        assert checked >= 5


def test_token_size_follows_the_cell_on_more_pages():
    small = kit_roots(cell=20)["tokens"]
    assert disc_of(find_class(small, "front")[0])[2] == pytest.approx(0.8 * 20 / 2)
    pages = kit_pages(PrintOptions(), 60)    # 48 mm tokens: the same size, on more sheets
    tokens = [p for p in pages if p.name.startswith("tokens")]
    assert len(tokens) > 1
    fronts = [t for p in tokens for t in find_class(parse(p.svg), "front")]
    assert len(fronts) == 30 and {disc_of(t)[2] for t in fronts} == {24}


def test_okapi_card_and_totem_on_the_rules_page():
    root = kit_roots()["rules"]
    (okapi,) = [c for c in find_class(root, "front") if c.get("data-card") == "okapi"]
    words = [e.text for e in okapi.iter(NS + "text")]
    assert "OKAPI" in words and "+5" in words
    assert len(find_class(root, "back")) == 1
    totem = find_class(root, "totem")
    assert len(totem) == 1 and len(find_class(totem[0], "totem-face")) == 2


def test_paper_too_small_for_the_kit():
    with pytest.raises(PrintError):
        kit_pages(PrintOptions(Paper.parse("100x80"), margin_mm=5), 25)
    with pytest.raises(PrintError):
        kit_pages(PrintOptions(), 9)      # 7.2 mm tokens


def test_deck_variant_prints_every_card_of_the_deck():
    # The sample deck as the rules reference lists it: ten cards, two of them points cards.
    deck = ["okapi", "waterhole", "drums", "storm", "stampede", "migration", "sunrise", "hunter",
            "jackal", "ford"]
    variant = KiwaraVariant(reinforcement="deck", deck="sample")
    pages = kit_pages(PrintOptions(), 25, variant)
    fronts = [c for p in pages if p.name.startswith("cards")
              for c in find_class(parse(p.svg), "front")]
    assert Counter(c.get("data-card") for c in fronts) == Counter(deck)
    (okapi,) = [c for c in fronts if c.get("data-card") == "okapi"]
    assert "+5" in [e.text for e in okapi.iter(NS + "text")]
    (jackal,) = [c for c in fronts if c.get("data-card") == "jackal"]
    words = " ".join(e.text or "" for e in jackal.iter(NS + "text"))
    assert "+jackal:CELL" in words and "gazelle" in words
