"""The printed board, read back from its SVG: true scale, rivers, stones, fills, fit, tiling."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiwara_designer.games.kiwara import Layout, load_layout
from kiwara_designer.printing import A4, LETTER, Paper, PrintError, PrintOptions
from kiwara_designer.games.kiwara.printing import board_pages, default_cell_mm
from kiwara_designer.games.kiwara.printing.board import RIVER_COLOUR, TINTS
from svg_support import (NS, board_group, bounds, classes, expected_rivers, find_class, length_mm,
                         line_coords, parse, raster, relative_luminance_lstar, rivers_drawn, texts,
                         translate_of)

try:
    import cairosvg  # noqa: F401
    HAVE_CAIRO = True
except (ImportError, OSError):
    HAVE_CAIRO = False

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
    definitions = {id(e) for d in root.iter(NS + "defs") for e in d.iter()}   # clip shapes
    checked = 0
    for element in root.iter():
        box = bounds(element)
        if box is None or element.tag == NS + "svg" or id(element) in definitions:
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
    assert [p.name for p in pages] == ["board-map", "board-1", "board-2", "board-3", "board-4"]
    pages = pages[1:]
    windows, marks = [], []
    for page in pages:
        root = parse(page.svg)
        assert length_mm(root.get("width")) == 297
        (clip,) = [c for c in root.iter(NS + "clipPath") if c.get("id").startswith("window")]
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


# -- print-ready output (issue 15) --------------------------------------------------------------
OPTION_SETS = [PrintOptions(), PrintOptions(crop_marks=True), PrintOptions(bleed_mm=3),
               PrintOptions(crop_marks=True, bleed_mm=3), PrintOptions(backs="duplex", bleed_mm=5)]


@pytest.mark.parametrize("paper", [A4, LETTER, Paper.parse("420x297")])
def test_same_cell_size_with_and_without_print_options(paper):
    from dataclasses import replace

    from kiwara_designer.games.kiwara.printing import print_set
    layout = load_layout("classic")
    cells, tokens = set(), set()
    for options in OPTION_SETS:
        options = replace(options, paper=paper)
        cells.add(default_cell_mm(layout.grid, options))
        pages = print_set(layout, options, kit=True)
        root = parse(pages[0].svg)
        cells.add(float(find_class(root, "cell")[0].get("width")))
        for page in pages:
            for token in find_class(parse(page.svg), "front"):
                if token.get("data-animal"):
                    tokens.update(float(c.get("r")) for c in token.iter(NS + "circle")
                                  if "disc" in classes(c))
    assert len(cells) == 1 and len(tokens) == 1
    assert tokens.pop() == pytest.approx(0.8 * cells.pop() / 2)   # the kit follows the board


def label_box(label) -> tuple[float, float, float, float]:
    """A generous box of a label's glyphs: 0.6 em a character, from the baseline up 0.75 em."""
    x, y, size = (float(label.get(k)) for k in ("x", "y", "font-size"))
    width = 0.6 * size * len(label.text)
    left = {"start": x, "middle": x - width / 2, "end": x - width}[label.get("text-anchor")]
    return left, y - 0.75 * size, left + width, y


@pytest.mark.parametrize("rows", [CLASSIC_ROWS, ["ADDDFF", "ABBDDF", "ABCCDD", "BBCEED", "CCCCED"],
                                  ["AAAAAAAAAAAA", "BBBBBBBBBBBB", "CCCCCCCCCCCC"]])   # sizes 12
@pytest.mark.parametrize("cell", [25, 12, 40])
def test_labels_are_not_under_the_token_circle(rows, cell):
    root = single_page(Layout.from_rows(rows), PrintOptions(Paper.parse("600x400"), cell_mm=cell))
    labels = texts(root, "size-label") + texts(root, "territory-name")
    assert len(labels) == 2 * len(set("".join(rows)))
    radius = 0.8 * cell / 2     # a token's disc, centred on its cell
    for label in labels:
        x0, y0, x1, y1 = label_box(label)
        col, row = int(x0 // cell), int(y0 // cell)
        assert (int(x1 // cell), int(y1 // cell)) == (col, row), label.text   # inside one cell
        cx, cy = (col + 0.5) * cell, (row + 0.5) * cell
        # the box's point nearest the token's centre lies outside the disc
        nx, ny = min(max(cx, x0), x1), min(max(cy, y0), y1)
        assert (nx - cx) ** 2 + (ny - cy) ** 2 > radius ** 2, (label.text, label.attrib)
        territory = label.get("data-territory") or label.text
        assert rows[row][col] == territory


def test_rivers_are_clipped_to_the_board():
    root = single_page(load_layout("classic"), PrintOptions(cell_mm=25))
    (group,) = find_class(root, "rivers")
    clip_id = group.get("clip-path")[len("url(#"):-1]
    (clip,) = [c for c in root.iter(NS + "clipPath") if c.get("id") == clip_id]
    (rect,) = clip.iter(NS + "rect")
    assert [float(rect.get(k)) for k in ("x", "y", "width", "height")] == [0, 0, 150, 125]
    assert len(find_class(group, "river")) == 25


@pytest.mark.skipif(not HAVE_CAIRO, reason="needs the pdf extra (cairosvg and libcairo)")
@pytest.mark.parametrize("name", ["classic", "president"])
def test_rivers_stop_at_the_border_when_rendered(name):
    page = board_pages(load_layout(name), PrintOptions(cell_mm=25))[0]
    root = parse(page.svg)
    tx, ty = translate_of(board_group(root))
    scale, pixel = raster(page.svg, 300)
    blue = lambda rgb: rgb[2] > rgb[0] + 60 and rgb[2] > rgb[1] + 30   # noqa: E731
    ends = 0
    for x1, y1, x2, y2 in drawn_rivers(root):
        for x, y in ((x1, y1), (x2, y2)):
            outward = [(0, -1)] * (y == 0) + [(0, 1)] * (y == 125) + [(-1, 0)] * (x == 0) + \
                      [(1, 0)] * (x == 150)
            for dx, dy in outward:
                ends += 1
                assert blue(pixel(tx + x, ty + y - 2 * dy)) or blue(pixel(tx + x - 2 * dx, ty + y)), \
                    "sample inside is on the river"
                assert not blue(pixel(tx + x + 0.5 * dx, ty + y + 0.5 * dy)), (x, y)
    assert ends >= 6


def test_bleed_alone_draws_cut_marks():
    root = single_page(load_layout("classic"), PrintOptions(bleed_mm=3))
    assert len(find_class(root, "crop-mark")) == 8 and not find_class(root, "trim")
    plain = single_page(load_layout("classic"))
    assert not find_class(plain, "crop-mark") and len(find_class(plain, "trim")) == 1


def test_tiled_guides_are_drawn_above_the_rivers_with_a_casing():
    pages = board_pages(load_layout("president"), PrintOptions(cell_mm=45, crop_marks=True))
    for page in pages[1:]:
        order = [classes(e) for e in parse(page.svg).iter()]
        last_river = max(i for i, c in enumerate(order) if "river" in c)
        first_guide = min(i for i, c in enumerate(order) if "overlap-mark" in c)
        assert first_guide > last_river
        for mark in find_class(parse(page.svg), "overlap-mark"):
            casing, dashed = list(mark.iter(NS + "line"))
            assert casing.get("stroke") == "#FFFFFF" and dashed.get("stroke-dasharray")
            assert float(casing.get("stroke-width")) > float(dashed.get("stroke-width"))


def test_assembly_map_shows_every_tile_where_it_goes():
    pages = board_pages(load_layout("president"), PrintOptions(cell_mm=45, crop_marks=True),
                        "président")
    assert pages[0].name == "board-map" and len(pages) == 7     # 3 columns, 2 rows of tiles
    root = parse(pages[0].svg)
    tiles = {t.get("data-page"): tuple(float(t.get(k)) for k in ("x", "y", "width", "height"))
             for t in find_class(root, "tile")}
    assert sorted(tiles) == [str(n) for n in range(1, 7)]
    assert sorted(e.text for e in texts(root, "tile-number")) == sorted(tiles)
    for page in pages[1:]:   # each tile's window, board-local, is the one outlined on the map
        tile = parse(page.svg)
        (clip,) = [c for c in tile.iter(NS + "clipPath") if c.get("id").startswith("window")]
        (rect,) = clip.iter(NS + "rect")
        tx, ty = translate_of(board_group(tile))
        window = (float(rect.get("x")) - tx, float(rect.get("y")) - ty, float(rect.get("width")),
                  float(rect.get("height")))
        assert tiles[page.name.split("-")[1]] == pytest.approx(window)
    assert len(find_class(root, "overlap-mark")) == 2 + 1     # two x and one y alignment lines


def test_the_command_that_recreates_a_board_is_printed_on_it():
    command = "kiwara generate --seed 175220 --mix 3,3,5,5,7,7"
    for options in (PrintOptions(), PrintOptions(cell_mm=45)):
        pages = board_pages(load_layout("classic"), options, "seed 175220", command)
        root = parse(pages[0].svg)
        printed = " ".join(e.text for e in find_class(root, "title-block")[0].iter(NS + "text"))
        assert command in printed.replace("  ·  ", " ") or \
            " ".join(e.text for e in texts(root, "command")) == command


def test_a_board_of_one_territory_says_so_in_the_singular():
    from kiwara_designer.games.kiwara.formats import parse_text
    from kiwara_designer.games.kiwara.printing.board import title_lines
    one = parse_text("AAA\nAAA\n", "one")[0].layout
    assert title_lines(one, "t", 25)[1] == "3 × 2 board, 1 territory"
