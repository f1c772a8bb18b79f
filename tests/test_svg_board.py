"""The printed board, read back from its SVG: true scale, rivers, stones, fills, fit, tiling."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiwara_designer import Layout, load_layout
from kiwara_designer.printing import (A4, LETTER, Paper, PrintError, PrintOptions, board_pages,
                                      default_cell_mm)
from kiwara_designer.printing.board import RIVER_COLOUR, TINTS
from svg_support import (NS, board_group, bounds, classes, expected_rivers, find_class, length_mm,
                         line_coords, parse, relative_luminance_lstar, rivers_drawn, texts,
                         translate_of)

CLASSIC_ROWS = ["ABCCCC", "ABBCFF", "AABCCF", "DABBBE", "DDEEEE"]


def drawn_rivers(root) -> list[tuple[float, float, float, float]]:
    return rivers_drawn(board_group(root))


def single_page(layout: Layout, options: PrintOptions = PrintOptions(), title="t"):
    pages = board_pages(layout, options, title)
    assert len(pages) == 1
    return parse(pages[0].svg)


@pytest.mark.parametrize("paper, width, height", [(A4, 297, 210), (LETTER, 279.4, 215.9)])
def test_document_is_the_paper_in_millimetres(paper, width, height):
    root = single_page(load_layout("classic"), PrintOptions(paper))
    assert length_mm(root.get("width")) == pytest.approx(width)
    assert length_mm(root.get("height")) == pytest.approx(height)
    assert [float(v) for v in root.get("viewBox").split()] == pytest.approx([0, 0, width, height])


@pytest.mark.parametrize("paper, cell", [(A4, None), (LETTER, None), (A4, 6),
                                         (Paper.parse("120x90"), None), (Paper.parse("200x290"), None)])
@pytest.mark.parametrize("name", ["classic", "president"])
def test_board_fits_inside_ten_mm_margins(paper, cell, name):
    root = single_page(load_layout(name), PrintOptions(paper, cell))
    tx, ty = translate_of(board_group(root))
    width, height = length_mm(root.get("width")), length_mm(root.get("height"))
    board_ids = {id(e) for e in board_group(root).iter()}
    checked = 0
    for element in root.iter():
        box = bounds(element)
        if box is None or element.tag == NS + "svg":
            continue
        if id(element) in board_ids:
            box = (box[0] + tx, box[1] + ty, box[2] + tx, box[3] + ty)
        assert box[0] >= 10 - 1e-6 and box[1] >= 10 - 1e-6, (element.attrib, box)
        assert box[2] <= width - 10 + 1e-6 and box[3] <= height - 10 + 1e-6, (element.attrib, box)
        checked += 1
    assert checked > 100
    # the title block's text, at a generous 0.62 em per character, stays inside the margins too
    for element in find_class(root, "title-block")[0].iter(NS + "text"):
        x, size = float(element.get("x")), float(element.get("font-size"))
        assert element.get("text-anchor") == "start"
        assert 10 <= x and x + 0.62 * size * len(element.text) <= width - 10, element.text


def test_default_cell_is_the_largest_whole_mm_fitting_both_papers():
    # By hand: the piece is (6 + 2) cells wide, then 6 mm and a 52 mm title block; the narrower
    # Letter leaves 279.4 - 20 = 259.4 mm, so 8c + 58 <= 259.4 gives c = 25 (height 7c <= 190).
    assert default_cell_mm(load_layout("classic").grid) == 25
    assert default_cell_mm(load_layout("classic").grid, PrintOptions(LETTER)) == 25


def test_cell_size_is_true_scale():
    root = single_page(load_layout("classic"), PrintOptions(cell_mm=20))
    cells = {e.get("data-cell"): e for e in find_class(root, "cell")}
    assert len(cells) == 30
    f5 = cells["f5"]
    assert (float(f5.get("x")), float(f5.get("y"))) == (100, 80)
    assert (float(f5.get("width")), float(f5.get("height"))) == (20, 20)


def test_hand_checked_rivers_of_a_small_board():
    layout = Layout.from_rows(["AAB", "CCB"])
    root = single_page(layout, PrintOptions(cell_mm=20))
    assert sorted(drawn_rivers(root)) == sorted([(40, 0, 40, 20), (40, 20, 40, 40),
                                                 (0, 20, 20, 20), (20, 20, 40, 20)])


@pytest.mark.parametrize("name", ["classic", "president"])
def test_every_river_exactly_once_and_no_other_river_stroke(name):
    layout = load_layout(name)
    root = single_page(layout, PrintOptions(cell_mm=25))
    drawn = drawn_rivers(root)
    assert len(drawn) == len(set(drawn)) == len(layout.river_edges())
    assert set(drawn) == expected_rivers(list(layout.rows), 25)
    for element in root.iter():
        if element.get("stroke", "").upper() == RIVER_COLOUR:
            assert "river" in classes(element)


def test_thin_lines_only_inside_territories():
    layout = load_layout("classic")
    root = single_page(layout, PrintOptions(cell_mm=25))
    thin = {line_coords(e) for e in find_class(root, "cell-edge")}
    rivers = expected_rivers(CLASSIC_ROWS, 25)
    # 6 × 5 board: 5 × 5 vertical and 6 × 4 horizontal inner edges, 49 in all.
    assert len(thin) + len(rivers) == 49 and not thin & rivers


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 6), st.integers(1, 5), st.data())
def test_rivers_property_on_random_boards(width, height, data):
    labels = data.draw(st.lists(st.sampled_from("ABC"), min_size=width * height,
                                max_size=width * height))
    rows = ["".join(labels[r * width:(r + 1) * width]) for r in range(height)]
    root = single_page(Layout.from_rows(rows), PrintOptions(cell_mm=17))
    drawn = drawn_rivers(root)
    assert len(drawn) == len(set(drawn))
    assert set(drawn) == expected_rivers(rows, 17)


# Hand-written from the rules reference: 0-5 above columns a-f, 6-10 right of rows 1-5,
# 11-16 below columns f-a, 17-21 left of rows 5-1.
STONE_PLACES = ([("top", col) for col in range(6)] + [("right", row) for row in range(5)]
                + [("bottom", col) for col in range(5, -1, -1)] + [("left", row) for row in range(4, -1, -1)])


def test_twenty_two_numbered_stones_on_the_right_sides():
    cell = 25
    root = single_page(load_layout("classic"), PrintOptions(cell_mm=cell))
    stones = find_class(root, "stone")
    assert len(stones) == 22
    seen = set()
    for stone in stones:
        (circle,) = stone.iter(NS + "circle")
        (label,) = stone.iter(NS + "text")
        number = int(label.text)
        assert number == int(stone.get("data-position"))
        seen.add(number)
        x, y = float(circle.get("cx")), float(circle.get("cy"))
        side, index = STONE_PLACES[number]
        if side in ("top", "bottom"):
            assert index * cell < x < (index + 1) * cell
            assert (y < 0) if side == "top" else (y > 5 * cell)
        else:
            assert index * cell < y < (index + 1) * cell
            assert (x > 6 * cell) if side == "right" else (x < 0)
    assert seen == set(range(22))


@pytest.mark.parametrize("rows", [["AB", "CD", "EF"], ["AAAB"], ["A"]])
def test_stone_count_on_other_boards(rows):
    layout = Layout.from_rows(rows)
    stones = find_class(single_page(layout, PrintOptions(cell_mm=20)), "stone")
    # one stone per column above and below, one per row left and right
    assert sorted(int(s.get("data-position")) for s in stones) == list(
        range(2 * (len(rows[0]) + len(rows))))


def test_each_cell_filled_with_its_territory_tint():
    root = single_page(load_layout("classic"))
    fills = {e.get("data-cell"): e.get("fill") for e in find_class(root, "cell")}
    by_territory: dict[str, set[str]] = {}
    for r, row in enumerate(CLASSIC_ROWS):
        for c, label in enumerate(row):
            by_territory.setdefault(label, set()).add(fills[f"{'abcdef'[c]}{r + 1}"])
    assert all(len(f) == 1 for f in by_territory.values())
    assert len({f.pop() for f in by_territory.values()}) == 6


def test_tints_stay_apart_in_greyscale():
    lightness = sorted(relative_luminance_lstar(t) for t in TINTS)
    assert all(b - a >= 3 for a, b in zip(lightness, lightness[1:])), lightness
    # the first six, used by six-territory boards, are at least 7 apart
    first_six = sorted(relative_luminance_lstar(t) for t in TINTS[:6])
    assert all(b - a >= 7 for a, b in zip(first_six, first_six[1:])), first_six


def test_size_labels_coordinates_and_title():
    cell = 25
    root = single_page(load_layout("classic"), PrintOptions(cell_mm=cell), title="classic")
    sizes = {"A": 5, "B": 7, "C": 7, "D": 3, "E": 5, "F": 3}
    labels = texts(root, "size-label")
    assert len(labels) == 6
    for label in labels:
        territory = label.get("data-territory")
        assert int(label.text) == sizes[territory]
        col, row = int(float(label.get("x")) // cell), int(float(label.get("y")) // cell)
        assert CLASSIC_ROWS[row][col] == territory      # written inside its own territory
    coords = sorted(e.text for e in texts(root, "coord"))
    assert coords == sorted(list("abcdef") * 2 + list("12345") * 2)
    title = " ".join(e.text for e in find_class(root, "title-block")[0].iter(NS + "text"))
    assert "classic" in title and "sizes 3, 3, 5, 5, 7, 7" in title and "25 river segments" in title


def test_crop_marks_and_bleed():
    cell, bleed = 20, 3
    root = single_page(load_layout("classic"), PrintOptions(cell_mm=cell, crop_marks=True,
                                                            bleed_mm=bleed))
    marks = find_class(root, "crop-mark")
    assert len(marks) == 8
    # trim = board grown by one cell: x from -20 to 140, y from -20 to 120
    for mark in marks:
        x1, y1, x2, y2 = line_coords(mark)
        assert (x1 == x2 and x1 in (-20, 140)) or (y1 == y2 and y1 in (-20, 120))
        # marks stay outside the bleed
        assert not (-20 - bleed < x1 < 140 + bleed and -20 - bleed < y1 < 120 + bleed)
    (piece,) = find_class(root, "piece")
    assert [float(piece.get(k)) for k in ("x", "y", "width", "height")] == [-23, -23, 166, 146]
    assert not find_class(root, "trim")    # with bleed the cut line is shown by the marks only


def test_large_board_is_tiled_with_overlap_marks():
    cell = 45
    pages = board_pages(load_layout("classic"), PrintOptions(cell_mm=cell), "classic")
    # piece 8 × 45 = 360 by 7 × 45 = 315 mm; window 277 by 190 - 22 = 168 mm: 2 × 2 pages
    assert [p.name for p in pages] == ["board-1", "board-2", "board-3", "board-4"]
    windows, marks = [], []
    for page in pages:
        root = parse(page.svg)
        assert length_mm(root.get("width")) == 297
        (clip,) = root.iter(NS + "clipPath")
        (rect,) = clip.iter(NS + "rect")
        x, y, w, h = (float(rect.get(k)) for k in ("x", "y", "width", "height"))
        assert x >= 10 and y >= 10 and x + w <= 287 and y + h <= 200
        tx, ty = translate_of(board_group(root))
        windows.append((x - tx, y - ty, x - tx + w, y - ty + h))   # board-local window
        marks.append({(e.get("data-axis"), e.get("data-board-mm")) for e in find_class(root, "overlap-mark")})
    # together the windows cover the whole piece (-45..315, -45..270)
    assert min(w[0] for w in windows) <= -45 and max(w[2] for w in windows) >= 315
    assert min(w[1] for w in windows) <= -45 and max(w[3] for w in windows) >= 270
    # horizontal neighbours overlap by at least 12 mm and share the vertical alignment line
    for left, right in ((0, 1), (2, 3)):
        assert windows[left][2] - windows[right][0] >= 12 - 1e-6
        shared = {m for m in marks[left] & marks[right] if m[0] == "x"}
        assert len(shared) == 1
        at = float(shared.pop()[1])
        assert windows[right][0] < at < windows[left][2]
    for top, bottom in ((0, 2), (1, 3)):
        assert windows[top][3] - windows[bottom][1] >= 12 - 1e-6
        assert len({m for m in marks[top] & marks[bottom] if m[0] == "y"}) == 1
    # each page holds the whole board, clipped to its window: every river drawn once per page
    for page in pages:
        drawn = drawn_rivers(parse(page.svg))
        assert len(drawn) == len(set(drawn)) and set(drawn) == expected_rivers(CLASSIC_ROWS, cell)


def test_paper_parsing_and_bad_options():
    assert Paper.parse("A4") == A4 and Paper.parse("letter") == LETTER
    custom = Paper.parse("420x297")
    assert (custom.width_mm, custom.height_mm) == (420, 297)
    for bad in ("a5", "12x", "10x10", "x"):
        with pytest.raises(PrintError):
            Paper.parse(bad)
    with pytest.raises(PrintError):
        PrintOptions(cell_mm=0)
    with pytest.raises(PrintError):
        PrintOptions(bleed_mm=-1)


def test_same_layout_same_drawing():
    layout = load_layout("president")
    assert board_pages(layout)[0].svg == board_pages(layout)[0].svg


@settings(max_examples=60, deadline=None)
@given(st.floats(1, 3000), st.floats(30, 400), st.floats(0, 20))
def test_tiles_cover_the_extent_with_the_overlap(extent, window, overlap):
    from kiwara_designer.printing.page import tile_starts
    if window <= overlap + 1:
        return
    starts = tile_starts(extent, window, overlap)
    assert starts[0] == 0
    if extent <= window:
        assert starts == [0.0]
        return
    assert starts[-1] + window == pytest.approx(extent)
    for a, b in zip(starts, starts[1:]):
        assert a + window - b >= overlap - 1e-6      # neighbours share at least the overlap
    # and no more pages than needed: one fewer could not cover it with that overlap
    n = len(starts)
    assert (n - 1) * (window - overlap) + overlap < extent + 1e-6 or n == 2
