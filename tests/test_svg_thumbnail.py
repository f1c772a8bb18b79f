"""The on-screen board thumbnail, read back from its SVG: rivers, fills and labels as printed."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kiwara_designer.games.kiwara import Layout, load_layout
from kiwara_designer.printing import PrintOptions
from kiwara_designer.games.kiwara.printing import board_pages, board_thumbnail
from kiwara_designer.games.kiwara.printing.board import RIVER_COLOUR
from svg_support import NS, classes, expected_rivers, find_class, parse, rivers_drawn

CLASSIC_SIZES = {"A": 5, "B": 7, "C": 7, "D": 3, "E": 5, "F": 3}


def test_hand_checked_rivers_cells_and_namespace():
    layout = Layout.from_rows(["AAB", "ACB"])
    svg = board_thumbnail(layout)
    # rivers by hand at 18 px a cell: b1|c1 and b2|c2 (x = 36), a2|b2 (x = 18), b1 over b2 (y = 18)
    assert sorted(rivers_drawn(parse(svg))) == sorted([(36, 0, 36, 18), (36, 18, 36, 36),
                                                       (18, 18, 18, 36), (18, 18, 36, 18)])
    assert svg.count("<line") == 4 == len(layout.river_edges())
    assert svg.count("<rect") == 6 + 1      # the cells and the border
    assert "http" not in svg                # inline SVG in HTML needs no namespace
    standalone = board_thumbnail(layout, standalone=True)
    assert 'xmlns="http://www.w3.org/2000/svg"' in standalone
    assert parse(standalone).tag == NS + "svg"


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 6), st.integers(1, 5), st.sampled_from([10, 18, 40]), st.data())
def test_every_river_drawn_once_on_its_cut_edge(width, height, cell, data):
    labels = data.draw(st.lists(st.sampled_from("ABC"), min_size=width * height,
                                max_size=width * height))
    rows = ["".join(labels[r * width:(r + 1) * width]) for r in range(height)]
    root = parse(board_thumbnail(Layout.from_rows(rows), cell=cell))
    drawn = rivers_drawn(root)
    assert len(drawn) == len(set(drawn))
    assert set(drawn) == expected_rivers(rows, cell)
    for element in root.iter():
        if element.get("stroke", "").upper() == RIVER_COLOUR:
            assert "river" in classes(element)


def test_cells_have_the_printed_boards_tints():
    layout = load_layout("classic")
    thumbnail = {e.get("data-cell"): e.get("fill") for e in find_class(parse(board_thumbnail(layout)),
                                                                       "cell")}
    printed = {e.get("data-cell"): e.get("fill")
               for e in find_class(parse(board_pages(layout, PrintOptions())[0].svg), "cell")}
    assert len(thumbnail) == 30 and thumbnail == printed
    assert len(set(thumbnail.values())) == 6


def test_size_labels_inside_their_territories():
    layout = load_layout("classic")
    cell = 18
    labels = find_class(parse(board_thumbnail(layout, cell=cell)), "size-label")
    assert sorted(e.get("data-territory") for e in labels) == list("ABCDEF")
    for label in labels:
        territory = label.get("data-territory")
        assert int(label.text) == CLASSIC_SIZES[territory]
        col, row = int(float(label.get("x")) // cell), int(float(label.get("y")) // cell)
        assert layout.rows[row][col] == territory
    assert not find_class(parse(board_thumbnail(layout, labels=False)), "size-label")
