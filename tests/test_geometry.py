"""Board geometry, checked against the rules reference by hand."""
import pytest

from kiwara_designer.games.kiwara.geometry import GeometryError, Grid

GRID = Grid()


def test_cell_names_follow_the_rules_reference():
    assert GRID.cell_name(0) == "a1"          # top-left
    assert GRID.cell_name(5) == "f1"
    assert GRID.cell_name(29) == "f5"         # bottom-right
    assert GRID.parse_cell("c3") == 2 * 6 + 2
    assert all(GRID.parse_cell(GRID.cell_name(c)) == c for c in GRID.cells)


@pytest.mark.parametrize("name", ["g1", "a6", "a0", "", "1a", "zz"])
def test_cells_off_the_board_are_refused(name):
    with pytest.raises(GeometryError):
        GRID.parse_cell(name)


def test_neighbours_are_orthogonal_only():
    assert sorted(GRID.neighbours[GRID.parse_cell("a1")]) == [1, 6]
    assert sorted(GRID.cell_name(c) for c in GRID.neighbours[GRID.parse_cell("c3")]) == [
        "b3", "c2", "c4", "d3"]
    assert len(GRID.edges) == 5 * 5 + 6 * 4     # horizontal + vertical cell pairs = 49


def test_totem_path_has_22_positions_numbered_clockwise():
    assert GRID.positions == 22
    names = [GRID.line_name(p) for p in range(22)]
    assert names[0:6] == [f"column {c}" for c in "abcdef"]         # above a..f
    assert names[6:11] == [f"row {r}" for r in "12345"]            # right of rows 1..5
    assert names[11:17] == [f"column {c}" for c in "fedcba"]       # below f..a
    assert names[17:22] == [f"row {r}" for r in "54321"]           # left of rows 5..1
    assert [GRID.position_edge(p) for p in (0, 6, 11, 17)] == ["top", "right", "bottom", "left"]


def test_line_cells():
    assert [GRID.cell_name(c) for c in GRID.lines[2]] == ["c1", "c2", "c3", "c4", "c5"]
    assert [GRID.cell_name(c) for c in GRID.lines[21]] == ["a1", "b1", "c1", "d1", "e1", "f1"]
    with pytest.raises(GeometryError):
        GRID.position_side(22)


def test_symmetry_groups():
    assert [s.name for s in GRID.symmetries] == [
        "identity", "half-turn", "left-right mirror", "top-bottom mirror"]
    half_turn = GRID.symmetries[1].perm
    assert half_turn[GRID.parse_cell("a1")] == GRID.parse_cell("f5")
    assert len(Grid(4, 4).symmetries) == 8
    for grid in (GRID, Grid(4, 4), Grid(3, 1)):
        perms = {s.perm for s in grid.symmetries}
        assert len(perms) == len(grid.symmetries)                       # all distinct
        for s in grid.symmetries:                                       # adjacency preserved
            edges = {frozenset((s.perm[a], s.perm[b])) for a, b in grid.edges}
            assert edges == {frozenset(e) for e in grid.edges}
        for p in perms:                                                 # closed under composition
            for q in perms:
                assert tuple(q[p[c]] for c in grid.cells) in perms


@pytest.mark.parametrize("w,h", [(0, 5), (6, 0), (27, 5), (6, 100)])
def test_impossible_boards(w, h):
    with pytest.raises(GeometryError):
        Grid(w, h)
