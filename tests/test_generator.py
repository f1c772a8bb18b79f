"""The generator against an independent brute force, OEIS, Burnside, and its own contracts."""
from __future__ import annotations

import math
import random
from collections import Counter
from functools import lru_cache
from itertools import islice

import pytest
from hypothesis import given, settings, strategies as st

import generator_brute as brute
from kiwara_designer.games.kiwara import Grid, Layout, Ruleset, validate
from kiwara_designer import KiwaraError
from kiwara_designer.games.kiwara.generator import (Filters, GeneratorError, Pattern, count_by_mix,
                                                    count_layouts, fixed_point_counts, iter_layouts,
                                                    sample_layouts, territory_span)

# (width, height, territories, sizes): small enough for the brute force, varied in shape
CASES = [
    (3, 3, 3, (1, 2, 3, 4, 5)),
    (3, 3, 2, (3, 4, 5, 6)),
    (3, 3, 4, (1, 2, 3)),
    (3, 4, 4, (3,)),
    (4, 3, 3, (3, 4, 5)),
    (3, 4, 5, (1, 2, 3, 4)),
    (4, 4, 4, (3, 4, 5)),
    (4, 4, 3, (5, 6)),
    (4, 4, 6, (1, 3, 5)),
    (4, 5, 4, (3, 5, 7)),
    (5, 4, 3, (5, 7, 8)),
]


@lru_cache(maxsize=None)
def brute_layouts(width, height, k, sizes):
    return frozenset(brute.layouts(width, height, k, sizes))


@pytest.mark.parametrize("width,height,k,sizes", CASES)
def test_counts_match_brute_force(width, height, k, sizes):
    found = brute_layouts(width, height, k, sizes)
    grid = Grid(width, height)
    by_mix = count_by_mix(grid, k, sizes)
    expected = brute.mix_counts(found)
    assert {m: c for m, c in by_mix.items() if c} == dict(expected)
    assert count_layouts(grid, k, sizes) == len(found)
    for mix, count in expected.items():
        assert count_layouts(grid, k, sizes, mix=mix) == count


@pytest.mark.parametrize("width,height,k,sizes", CASES[:8] + CASES[9:])
def test_symmetry_classes_match_brute_force_and_burnside(width, height, k, sizes):
    found = brute_layouts(width, height, k, sizes)
    grid = Grid(width, height)
    fixed = {name: sum(1 for a in found if brute.image(a, images) == a)
             for name, images in brute.symmetries(width, height).items()}
    reported = fixed_point_counts(grid, k, sizes)
    assert reported == {"identity": len(found), **fixed}
    classes = {brute.canonical(a, width, height) for a in found}
    burnside = (len(found) + sum(fixed.values())) // (1 + len(fixed))
    assert len(classes) == burnside
    assert count_layouts(grid, k, sizes, canonical=True) == len(classes)
    per_mix = Counter(tuple(sorted(Counter(a).values())) for a in classes)
    assert {m: c for m, c in count_by_mix(grid, k, sizes, canonical=True).items() if c} == per_mix


@pytest.mark.parametrize("width,height,expected", [(2, 3, 74), (3, 3, 1434), (2, 2, 12)])
def test_all_connected_partitions_match_oeis_a110476(width, height, expected):
    n = width * height
    total = sum(count_layouts(Grid(width, height), k, range(1, n + 1)) for k in range(1, n + 1))
    assert total == expected


@pytest.mark.parametrize("width,height,k,sizes", CASES[:8])
def test_enumeration_is_the_brute_force_set_and_validates(width, height, k, sizes):
    grid = Grid(width, height)
    listed = list(iter_layouts(grid, k, sizes))
    assert len(listed) == len(set(listed))
    assert {layout.assignment for layout in listed} == brute_layouts(width, height, k, sizes)
    rules = Ruleset("custom", width, height, k, frozenset(sizes))
    # validation (networkx) is slow: every layout of the smaller cases, 300 of the larger
    checked = listed if len(listed) <= 400 else random.Random(7).sample(listed, 300)
    assert all(validate(layout, rules).valid for layout in checked)
    canonical = list(iter_layouts(grid, k, sizes, canonical=True))
    assert {c.assignment for c in canonical} == {brute.canonical(a, width, height)
                                                  for a in brute_layouts(width, height, k, sizes)}
    assert all(c == c.canonical() for c in canonical)
    assert len(canonical) == len(set(canonical))


def test_enumeration_by_mix_and_order_is_deterministic():
    grid = Grid(4, 4)
    everything = list(iter_layouts(grid, 4, (3, 4, 5)))
    assert everything == list(iter_layouts(grid, 4, (3, 4, 5)))
    mixes = [layout.size_mix for layout in everything]
    assert mixes == sorted(mixes)                    # grouped mix by mix, mixes sorted
    only = list(iter_layouts(grid, 4, (3, 4, 5), mix=(4, 4, 4, 4)))
    assert only == [layout for layout in everything if layout.size_mix == (4, 4, 4, 4)]


@pytest.mark.parametrize("canonical", [False, True])
def test_resuming_with_start_gives_the_same_tail(canonical):
    grid = Grid(4, 4)
    full = list(iter_layouts(grid, 4, (3, 4, 5), canonical=canonical))
    for start in (0, 1, 57, len(full) // 2, len(full) - 1, len(full), len(full) + 5):
        assert list(iter_layouts(grid, 4, (3, 4, 5), canonical=canonical, start=start)) == \
            full[start:]
    head = list(islice(iter_layouts(grid, 4, (3, 4, 5), canonical=canonical), 100))
    tail = list(iter_layouts(grid, 4, (3, 4, 5), canonical=canonical, start=100))
    assert head + tail == full


def test_filters_in_listing_match_a_direct_check():
    width, height, k, sizes = 4, 4, 4, (3, 4, 5)
    found = brute_layouts(width, height, k, sizes)
    grid = Grid(width, height)
    filters = Filters(min_rivers=9, max_rivers=11, max_span=3)
    listed = {layout.assignment for layout in iter_layouts(grid, k, sizes, filters=filters)}

    def span(a):
        boxes = {}
        for c, t in enumerate(a):
            boxes.setdefault(t, []).append((c % width, c // width))
        return max(max(max(x for x, _ in cells) - min(x for x, _ in cells),
                       max(y for _, y in cells) - min(y for _, y in cells)) + 1
                   for cells in boxes.values())

    expected = {a for a in found if 9 <= brute.rivers(a, width, height) <= 11 and span(a) <= 3}
    assert listed == expected and expected
    start = list(iter_layouts(grid, k, sizes, filters=filters, start=3))
    assert start == list(iter_layouts(grid, k, sizes, filters=filters))[3:]


def test_pattern_filter_by_hand():
    stripe = Pattern.parse("AAAA\n")
    layouts_ = list(iter_layouts(Grid(4, 4), 4, (4,), filters=Filters(contains=stripe)))
    # a whole row in one territory: hand check on every listed layout, and some are missing
    assert layouts_ and all(any(len(set(row)) == 1 for row in layout.rows) for layout in layouts_)
    assert len(layouts_) < count_layouts(Grid(4, 4), 4, (4,))
    split = Pattern.parse("AB\nAB\n")
    assert split.matches(Layout.from_rows(["AABB", "AABB", "CCDD", "CCDD"]))
    assert not split.matches(Layout.from_rows(["AAAA", "BBBB", "CCCC", "DDDD"]))
    diagonal = Pattern.parse("A.\n.A")
    assert diagonal.matches(Layout.from_rows(["AABB", "AABB", "CCDD", "CCDD"]))
    assert not diagonal.matches(Layout.from_rows(["AAAA", "BBBB", "CCCC", "DDDD"]))
    with pytest.raises(GeneratorError):
        Pattern.parse("A?")


def test_territory_span_by_hand():
    assert territory_span(Layout.from_rows(["AAAB", "CCBB", "CCDD", "EEDD"])) == 3
    assert territory_span(Layout.from_rows(["AB", "AB"])) == 2


def chi_square_bound(df: int, z: float = 3.3) -> float:
    """Upper quantile of chi-square (p ≈ 0.0005) by the Wilson–Hilferty approximation."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


@pytest.mark.parametrize("canonical", [False, True])
def test_sampling_is_uniform_chi_square(canonical):
    grid, k, sizes = Grid(3, 3), 3, (2, 3, 4)
    population = ({brute.canonical(a, 3, 3) for a in brute_layouts(3, 3, k, sizes)} if canonical
                  else set(brute_layouts(3, 3, k, sizes)))
    draws = 60 * len(population)
    drawn = Counter(layout.assignment for layout in sample_layouts(
        draws, 2024, grid=grid, territories=k, sizes=sizes, canonical=canonical))
    assert set(drawn) <= population
    expected = draws / len(population)
    statistic = sum((drawn[a] - expected) ** 2 / expected for a in population)
    assert statistic < chi_square_bound(len(population) - 1)


def test_sampling_within_a_mix_stays_in_it_and_is_reproducible():
    first = sample_layouts(30, "seed", grid=Grid(4, 4), territories=4, sizes=(3, 4, 5),
                           mix=(3, 3, 5, 5))
    again = sample_layouts(30, "seed", grid=Grid(4, 4), territories=4, sizes=(3, 4, 5),
                           mix=(3, 3, 5, 5))
    other = sample_layouts(30, 1, grid=Grid(4, 4), territories=4, sizes=(3, 4, 5),
                           mix=(3, 3, 5, 5))
    assert first == again != other
    assert all(layout.size_mix == (3, 3, 5, 5) for layout in first)


def test_sampling_under_filters_only_returns_accepted_layouts():
    filters = Filters(max_rivers=9)
    drawn = sample_layouts(20, 5, grid=Grid(4, 4), territories=4, sizes=(3, 4, 5),
                           filters=filters)
    assert all(len(layout.river_edges()) <= 9 for layout in drawn)
    with pytest.raises(GeneratorError, match="too strict"):
        sample_layouts(1, 5, grid=Grid(3, 3), territories=3, sizes=(3,),
                       filters=Filters(max_rivers=2))   # 6 at least: not refused up front


@pytest.mark.parametrize("call", [
    lambda: count_layouts(Grid(6, 5), 0, (3, 5, 7, 9)),
    lambda: count_layouts(Grid(6, 5), 6, (4,)),
    lambda: count_layouts(Grid(6, 5), 6, ()),
    lambda: count_layouts(Grid(0, 5)),
    lambda: count_layouts(Grid(3, 3), 3, (3,), mix=(3, 3, 4)),
    lambda: list(iter_layouts(Grid(3, 3), 3, (3,), start=-1)),
    lambda: sample_layouts(-1, 0, grid=Grid(3, 3), territories=3, sizes=(3,)),
])
def test_impossible_requests_are_user_errors(call):
    with pytest.raises(KiwaraError):
        call()


@settings(max_examples=25, deadline=None)
@given(width=st.integers(1, 4), height=st.integers(1, 3), k=st.integers(1, 4),
       seed=st.integers(0, 10 ** 6), data=st.data())
def test_any_small_problem_unranks_into_valid_distinct_layouts(width, height, k, seed, data):
    sizes = tuple(sorted(data.draw(st.sets(st.integers(1, width * height), min_size=1,
                                           max_size=4))))
    grid = Grid(width, height)
    try:
        total = count_layouts(grid, k, sizes)
    except GeneratorError:
        return                                   # no mix of k sizes covers the board
    assert total == len(brute_layouts(width, height, k, sizes))
    if total == 0:
        return
    rules = Ruleset("custom", width, height, k, frozenset(sizes))
    start = random.Random(seed).randrange(total)
    tail = list(iter_layouts(grid, k, sizes, start=start))
    assert len(tail) == total - start == len(set(tail))
    assert all(validate(layout, rules).valid for layout in tail)
    for layout in sample_layouts(3, seed, grid=grid, territories=k, sizes=sizes):
        assert validate(layout, rules).valid


@pytest.mark.slow
@pytest.mark.parametrize("width,height,k,sizes", CASES[8:])
def test_canonical_listing_on_larger_boards_is_one_per_class(width, height, k, sizes):
    listed = [c.assignment for c in iter_layouts(Grid(width, height), k, sizes, canonical=True)]
    assert len(listed) == len(set(listed))
    assert set(listed) == {brute.canonical(a, width, height)
                           for a in brute_layouts(width, height, k, sizes)}


@pytest.mark.slow
def test_canonical_listing_of_a_full_size_mix_matches_burnside():
    # the listing prunes mirror images line by line; on the real board it must still give
    # exactly the Burnside number of classes (7,092 for six territories of 5)
    mix = (5, 5, 5, 5, 5, 5)
    listed = [layout.assignment for layout in iter_layouts(mix=mix, canonical=True)]
    assert len(listed) == len(set(listed)) == count_layouts(mix=mix, canonical=True)
    grid = Grid()
    assert all(Layout(grid, a).canonical().assignment == a for a in listed[::50])


@pytest.mark.parametrize("width,height,k,sizes", [CASES[0], CASES[6], CASES[9]])
def test_fixed_layouts_unrank_one_to_one(width, height, k, sizes):
    # class sampling draws (symmetry, fixed layout) pairs by unranking fixed layouts
    from kiwara_designer.games.kiwara.generator import Problem, _fixed_point_counters
    problem = Problem.make(Grid(width, height), k, sizes)
    found = brute_layouts(width, height, k, sizes)
    for name, counter in _fixed_point_counters(problem).items():
        images = brute.symmetries(width, height)[name]
        expected = {a for a in found if brute.image(a, images) == a}
        unranked = [brute.normalise(counter.unrank(problem.code(mix), i))
                    for mix in problem.mixes
                    for i in range(counter.count().get(problem.code(mix), 0))]
        assert len(unranked) == len(set(unranked)) and set(unranked) == expected


def test_tables_and_walks_leave_nothing_for_the_collector_to_track():
    # the table (and what walks cache) is made of ints, dicts of ints and tuples of ints, which
    # the collector stops tracking: a full collection never has to look through a big table
    import gc
    from kiwara_designer.games.kiwara.generator import Problem
    from kiwara_designer.games.kiwara.generator._frontier import Frontier

    problem = Problem.make(Grid(5, 4), 4, (3, 5, 7))
    gc.collect()
    before = len(gc.get_objects())
    frontier = Frontier(5, 4, problem.sizes, problem.unit, problem.valid_codes)
    frontier.table()
    walked = sum(1 for _ in frontier.walk(problem.code((3, 5, 5, 7))))
    gc.collect()
    tracked = len(gc.get_objects()) - before
    assert len(frontier.counts) > 5000 and walked > 1000
    assert tracked < 100, f"{tracked} new objects tracked for {len(frontier.counts)} entries"


@settings(max_examples=25, deadline=None)
@given(width=st.integers(1, 4), height=st.integers(1, 4), k=st.integers(1, 4), data=st.data())
def test_canonical_listing_of_any_small_problem_is_one_per_brute_force_class(width, height, k,
                                                                              data):
    # thin boards (one cell wide: lines of one cell), squares and both sweep directions
    sizes = tuple(sorted(data.draw(st.sets(st.integers(1, width * height), min_size=1,
                                           max_size=4))))
    try:
        listed = [c.assignment for c in iter_layouts(Grid(width, height), k, sizes,
                                                     canonical=True)]
    except GeneratorError:
        return                                   # no mix of k sizes covers the board
    assert len(listed) == len(set(listed))
    assert set(listed) == {brute.canonical(a, width, height)
                           for a in brute_layouts(width, height, k, sizes)}


def test_parts_walk_the_whole_table_in_order():
    # a listing is cut into parts (paths through the first two lines); walked one after the
    # other they give every completion once, in the order of one walk of the whole
    from kiwara_designer.games.kiwara.generator import Problem, _source
    problem = Problem.make(Grid(6, 4), 4, (5, 6, 7))
    frontier = _source(problem).frontier
    for mix in problem.mixes:
        code = problem.code(mix)
        parts = frontier.parts(code)
        assert len(parts) > 50 and all(len(p) == 2 for p in parts)
        whole = list(frontier.walk(code))
        assert [w for p in parts for w in frontier.walk(code, part=p)] == whole


@pytest.mark.slow
@pytest.mark.parametrize("canonical,filters", [(False, None), (True, None),
                                               (False, Filters(max_span=4)),
                                               (True, Filters(min_rivers=12))])
def test_the_number_of_workers_changes_nothing_but_speed(canonical, filters, monkeypatch):
    import kiwara_designer.games.kiwara.generator as generator
    monkeypatch.setattr(generator, "BLOCK", 1000)     # plain listings: many ranges per mix
    grid, sizes = Grid(4, 5), (4, 5, 6)      # 2,373 to 9,459 layouts: several blocks each
    alone = list(iter_layouts(grid, 4, sizes, canonical=canonical, filters=filters))
    assert len(alone) > 2000
    shared = list(iter_layouts(grid, 4, sizes, canonical=canonical, filters=filters, workers=2))
    assert shared == alone
    resumed = list(iter_layouts(grid, 4, sizes, canonical=canonical, filters=filters,
                                workers=2, start=777))
    assert resumed == alone[777:]
    with pytest.raises(GeneratorError, match="workers"):
        iter_layouts(grid, 4, sizes, canonical=True, workers=0)


def test_unranking_gives_the_walk_in_order():
    # sampling and resuming jump to an index by counts; the index-th layout must be the
    # index-th of the walk
    from kiwara_designer.games.kiwara.generator import Problem, _source
    problem = Problem.make(Grid(6, 4), 4, (5, 6, 7))
    frontier = _source(problem).frontier
    for mix in problem.mixes:
        code = problem.code(mix)
        whole = list(frontier.walk(code))
        lines = (1 << 6) - 1              # orientation bits past the last line mean nothing
        for index in range(0, len(whole), 37):
            ids, orient = frontier.unrank(code, index)
            assert (ids, orient & lines) == (whole[index][0], whole[index][1] & lines)
        with pytest.raises(IndexError):
            frontier.unrank(code, len(whole))


def test_a_table_too_large_is_refused_not_a_hang(monkeypatch):
    # a budget on the counting table's entries turns an endless count into a clear error
    import importlib
    frontier_module = importlib.import_module("kiwara_designer.games.kiwara.generator._frontier")
    monkeypatch.setattr(frontier_module, "MAX_TABLE_ENTRIES", 500)
    # the cap while building, behind the estimate up front (tests/test_hardening.py)
    monkeypatch.setattr(frontier_module.Frontier, "estimated_entries", lambda *a, **k: 0)
    with pytest.raises(GeneratorError, match="more than 500 table entries"):
        count_layouts(Grid(5, 5), 5, (3, 5, 7))
