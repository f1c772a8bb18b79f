"""The Layout value, its formats and its validation."""
import json

import networkx as nx
import pytest
from hypothesis import given, settings, strategies as st

from kiwara_designer.games.kiwara.formats import (InputError, format_block, format_json,
                                                  format_text, load_layout, parse_json,
                                                  parse_layouts, parse_text)
from kiwara_designer.games.kiwara.geometry import Grid
from kiwara_designer.games.kiwara.layout import Layout, LayoutError
from kiwara_designer.games.kiwara.validation import (CLASSIC, FREE_PLAY, Ruleset, known_board,
                                                     validate)

CLASSIC_ROWS = ["ABCCCC", "ABBCFF", "AABCCF", "DABBBE", "DDEEEE"]
PRESIDENT_ROWS = ["ADDDFF", "ABBDDF", "ABCCDD", "BBCEED", "CCCCED"]

def test_classic_facts_by_hand():
    layout = Layout.from_rows(CLASSIC_ROWS)
    assert {t.name: t.size for t in layout.territories} == {"A": 5, "B": 7, "C": 7, "D": 3, "E": 5, "F": 3}
    assert len(layout.river_edges()) == 25
    assert layout.territory("D").cells == (18, 24, 25)               # a4, a5, b5
    assert layout.is_river(0, 1) and not layout.is_river(0, 6)       # a1|b1 river, a1/a2 same


def test_equality_ignores_names():
    renamed = Layout.from_rows([row.translate(str.maketrans("ABCDEF", "zyxwvu")) for row in CLASSIC_ROWS])
    assert renamed == Layout.from_rows(CLASSIC_ROWS)
    assert hash(renamed) == hash(Layout.from_rows(CLASSIC_ROWS))
    assert renamed.rows[0] == "zyxxxx"                              # names kept for display
    assert Layout.from_rows(PRESIDENT_ROWS) != Layout.from_rows(CLASSIC_ROWS)


def test_names_are_one_letter_or_digit_each_as_in_every_format():
    grid = Grid(2, 1)
    assert Layout(grid, (0, 1), ("x", "7")).rows == ("x7",)
    for names in (("AB", "C"), ("A", "-"), ("A", "")):
        with pytest.raises(LayoutError, match="single characters"):
            Layout(grid, (0, 1), names)


def test_graphs():
    layout = Layout.from_rows(CLASSIC_ROWS)
    g = layout.graph()
    assert g.number_of_nodes() == 30 and g.number_of_edges() == 49
    assert sum(1 for *_, d in g.edges(data=True) if d["river"]) == 25
    assert g.nodes[0]["territory"] == "A"
    t = layout.territory_graph()
    assert nx.get_node_attributes(t, "size") == {"A": 5, "B": 7, "C": 7, "D": 3, "E": 5, "F": 3}
    assert sum(d["rivers"] for *_, d in t.edges(data=True)) == 25
    # D (a4 a5 b5) touches A at a4|b4 and a4-a3... : a3|a4 (A over D), a4|b4, b4|b5 (A|D) ; b5|c5 (D|E)
    assert t["A"]["D"]["rivers"] == 3 and t["D"]["E"]["rivers"] == 1


def test_mirror_of_classic_is_recognised():
    mirrored = Layout.from_rows([row[::-1] for row in CLASSIC_ROWS])
    assert mirrored != Layout.from_rows(CLASSIC_ROWS)
    assert mirrored.canonical() == Layout.from_rows(CLASSIC_ROWS).canonical()
    assert known_board(mirrored) == "classic seen through a left-right mirror"
    assert known_board(Layout.from_rows(CLASSIC_ROWS)) == "classic"


def test_president_is_free_play_but_not_classic():
    president = Layout.from_rows(PRESIDENT_ROWS)
    assert validate(president, FREE_PLAY).valid
    report = validate(president, CLASSIC)
    assert not report.valid
    kinds = {p.kind for p in report.problems}
    assert kinds == {"size", "mix"}
    assert any("territory D has 9 cells" in p.message for p in report.problems)


def test_validation_messages_name_the_cells():
    split = Layout.from_rows(["ABCCCC", "ABBCFF", "AABCCF", "DABBBE", "DDEEEC"])
    messages = [p.message for p in validate(split).problems]
    assert "territory C is split into 2 pieces {c1, d1, e1, f1, d2, d3, e3} and {f5}" in messages
    assert "territory E has 4 cells {f4, c5, d5, e5}, allowed sizes are 3, 5, 7, 9" in messages
    seven = Layout.from_rows(["ABCCCC", "ABBCFF", "AABCCF", "DABBBE", "DDEEEG"])
    assert any(p.kind == "count" and "7 territories" in p.message for p in validate(seven).problems)


def test_custom_ruleset():
    rules = Ruleset("custom", 3, 2, 2, frozenset({3}))
    assert validate(Layout.from_rows(["AAB", "ABB"]), rules).valid
    assert not validate(Layout.from_rows(["AAB", "ABB"]), FREE_PLAY).valid  # wrong board size


def test_text_format_errors_give_row_and_column():
    entry, = parse_text("ABCCCC\nAB%CFF\nAABCCF\nDABBB\nDDEEEE\n", "bad.txt")
    message = str(entry.error)
    assert message.startswith("bad.txt:2:3: ")              # the first problem: line 2, column 3
    assert "unknown character '%' at row 2, column 3" in message
    assert "row 4 has 5 cells, expected 6 (line 4)" in message


def test_several_layouts_comments_and_spaces():
    text = "# two boards\nA B C C C C\nABBCFF # trailing comment\nAABCCF\nDABBBE\nDDEEEE\n\n" + \
        "\n".join(PRESIDENT_ROWS) + "\n"
    entries = parse_text(text, "two.txt")
    assert [e.line for e in entries] == [2, 8]
    assert entries[0].layout == Layout.from_rows(CLASSIC_ROWS)
    assert entries[1].layout == Layout.from_rows(PRESIDENT_ROWS)


def test_json_formats():
    one = '{"width": 6, "height": 5, "rows": %s}' % json.dumps(CLASSIC_ROWS)
    assert parse_json(one)[0].layout == Layout.from_rows(CLASSIC_ROWS)
    jsonl = one + "\n" + '{"rows": %s}' % json.dumps(PRESIDENT_ROWS)
    assert [e.layout for e in parse_layouts(jsonl)] == [Layout.from_rows(CLASSIC_ROWS),
                                                        Layout.from_rows(PRESIDENT_ROWS)]
    wrong = parse_json('{"width": 5, "height": 5, "rows": %s}' % json.dumps(CLASSIC_ROWS), "w.json")
    assert '"width" is 5 but the rows give 6' in str(wrong[0].error)
    broken = parse_json('{"rows": [\n"ABC",\n', "b.json")
    assert broken[0].error and "invalid JSON" in str(broken[0].error)


def test_builtins_load_by_name():
    assert load_layout("classic") == Layout.from_rows(CLASSIC_ROWS)
    with pytest.raises(InputError, match="no such file or built-in layout"):
        load_layout("no-such-board")


# -- properties ------------------------------------------------------------------------------
def random_labels(width, height):
    return st.lists(st.sampled_from("ABCDEFxyz019"), min_size=width * height, max_size=width * height)


@st.composite
def any_layout(draw):
    w, h = draw(st.integers(1, 7)), draw(st.integers(1, 6))
    return Layout.from_labels(draw(random_labels(w, h)), Grid(w, h))


@settings(max_examples=150)
@given(any_layout())
def test_text_and_json_round_trips(layout):
    for text in (format_text(layout), format_text(layout, spaced=False), format_json(layout)):
        again, = parse_layouts(text)
        assert again.layout == layout and again.layout.rows == layout.rows


@settings(max_examples=150)
@given(any_layout())
def test_canonical_form_is_shared_by_all_images(layout):
    canonical = layout.canonical()
    assert canonical in layout.images()
    for image in layout.images():
        assert image.canonical() == canonical
        assert len(image.river_edges()) == len(layout.river_edges())
        assert image.size_mix == layout.size_mix


def _valid_layouts():
    return [Layout.from_rows(CLASSIC_ROWS), Layout.from_rows(PRESIDENT_ROWS)]


@settings(max_examples=60)
@given(st.sampled_from(_valid_layouts()), st.integers(0, 7))
def test_valid_layout_stays_valid_under_symmetries(layout, k):
    image = layout.images()[k % len(layout.images())]
    assert validate(image).valid
    assert image.canonical() == layout.canonical()


def _broken_territories(layout, allowed):
    """Independent check: territories that are disconnected or of a size not allowed."""
    w, h = layout.grid.width, layout.grid.height
    broken = set()
    for name in set(layout.names):
        cells = {(i % w, i // w) for i in range(w * h) if layout.label(i) == name}
        start = next(iter(cells))
        seen, todo = {start}, [start]
        while todo:
            x, y = todo.pop()
            for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if n in cells and n not in seen:
                    seen.add(n)
                    todo.append(n)
        if seen != cells or len(cells) not in allowed:
            broken.add(name)
    return broken


@settings(max_examples=150)
@given(st.sampled_from(_valid_layouts()), st.integers(0, 29), st.integers(0, 3))
def test_reassigning_one_cell_is_reported_on_exactly_the_broken_territories(layout, cell, side):
    neighbours = layout.grid.neighbours[cell]
    target = neighbours[side % len(neighbours)]
    labels = [layout.label(c) for c in layout.grid.cells]
    labels[cell] = labels[target]
    changed = Layout.from_labels(labels, layout.grid)
    reported = {t for p in validate(changed).problems for t in p.territories}
    assert reported == _broken_territories(changed, {3, 5, 7, 9})


def test_shipped_layouts_are_valid_and_cover_every_free_play_mix():
    from kiwara_designer.games.kiwara.formats import builtin_names
    seven_mixes = {(5, 5, 5, 5, 5, 5), (3, 5, 5, 5, 5, 7), (3, 3, 5, 5, 7, 7), (3, 3, 5, 5, 5, 9),
                   (3, 3, 3, 7, 7, 7), (3, 3, 3, 5, 7, 9), (3, 3, 3, 3, 9, 9)}
    layouts = [load_layout(name) for name in builtin_names()]
    assert all(validate(layout).valid for layout in layouts)
    assert {layout.size_mix for layout in layouts} == seven_mixes


@settings(max_examples=100)
@given(w=st.integers(1, 7), h=st.integers(1, 6), data=st.data())
def test_a_block_of_layouts_reads_as_the_layouts_one_by_one(w, h, data):
    # the listing writes blocks of bytes through a template; it must read exactly as
    # format_text / format_json of each layout, whatever the board and the territory numbers
    grid = Grid(w, h)
    layouts = [Layout(grid, Layout.from_labels(labels, grid).assignment)    # named A, B, C …
               for labels in data.draw(st.lists(random_labels(w, h), max_size=5))]
    block = b"".join(bytes(layout.assignment) for layout in layouts)
    assert format_block(block, grid, "text") == "\n".join(map(format_text, layouts))
    assert format_block(block, grid, "jsonl") == "".join(format_json(x) + "\n" for x in layouts)


# -- descriptors from the territory graph ---------------------------------------------------------
def test_descriptors_by_hand():
    row = Layout.from_rows(["ABC", "ABC"])
    shape = row.descriptors()
    assert shape.degrees == {"A": 1, "B": 2, "C": 1}
    assert shape.river_lengths == {"A": 2, "B": 4, "C": 2}
    assert shape.articulation_territories == ("B",)
    assert shape.degree_sequence == (1, 1, 2)
    classic = load_layout("classic").descriptors()
    # classic: A meets B, D; B meets A, C, E; E meets B, D, F; two cycles A-B-E-D, B-C-F-E
    assert classic.degrees == {"A": 2, "B": 3, "C": 2, "F": 2, "D": 2, "E": 3}
    assert classic.river_lengths == {"A": 8, "B": 15, "C": 11, "F": 6, "D": 4, "E": 6}
    assert classic.articulation_territories == ()
    assert row.descriptors() is shape          # computed once per layout


def _connected_without(layout, gone: str) -> bool:
    """Independent check: are the cells outside territory ``gone`` one connected piece?"""
    cells = [c for c in layout.grid.cells if layout.label(c) != gone]
    seen, todo = {cells[0]}, [cells[0]]
    while todo:
        for n in layout.grid.neighbours[todo.pop()]:
            if n not in seen and layout.label(n) != gone:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(cells)


@pytest.mark.parametrize("name", ["classic", "president", "six-fives", "long-grass",
                                  "great-plain", "three-sevens", "twin-nines", "full-range"])
def test_descriptors_agree_with_the_cells(name):
    layout = load_layout(name)
    shape = layout.descriptors()
    rivers = layout.river_edges()
    # every river segment borders two territories; every pair of neighbours is counted twice
    assert sum(shape.river_lengths.values()) == 2 * len(rivers)
    for t in layout.names:
        assert shape.river_lengths[t] == sum(t in (layout.label(a), layout.label(b))
                                             for a, b in rivers)
        across = {layout.label(b if layout.label(a) == t else a) for a, b in rivers
                  if t in (layout.label(a), layout.label(b))}
        assert shape.degrees[t] == len(across)
        assert (t in shape.articulation_territories) == (not _connected_without(layout, t))
