"""Issue 17, point 4: `kiwara layouts list` with filters that each pass some layout but together
pass few or none ran silently through every layout (over 100 s for the 6 × 5 board). Now a
quick probe of uniform draws (the one `layouts sample` makes) refuses such a listing in one
line unless --scan-all is given, and a filtered listing reports what it has scanned."""
from __future__ import annotations

import importlib
from click.testing import CliRunner

from kiwara_designer.cli import main
from kiwara_designer.games.kiwara.generator import (Filters, count_layouts, iter_blocks,
                                                    iter_layouts, probe_filters)
from kiwara_designer.games.kiwara.geometry import Grid

generator_module = importlib.import_module("kiwara_designer.games.kiwara.generator")
SMALL = ["--width", 4, "--height", 3, "-k", 3, "--sizes", "2,3,4,5"]
SMALL_GRID, SMALL_K, SMALL_SIZES = Grid(4, 3), 3, (2, 3, 4, 5)


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def one_line(result, code: int) -> str:
    assert result.exit_code == code, (result.output, result.exception)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("kiwara:"), lines
    return lines[0]


def _no_listing(*args, **kwargs):
    raise AssertionError("the listing started")


def test_a_combination_no_draw_passes_is_refused_before_listing(monkeypatch):
    # each filter alone is passed by some layout; together by none of the probe's draws.
    # The listing itself (minutes for the whole board) must not start.
    monkeypatch.setattr(generator_module, "_list_part", _no_listing)
    line = one_line(run("layouts", "list", "--limit", 3, "--max-span", 3, "--min-rivers", 25,
                        "-j", 1), code=2)
    assert "none of 2,000 uniform draws passes these filters" in line
    assert "scans all 10,967,346" in line and "--scan-all" in line


def test_canonical_listing_is_probed_over_classes(monkeypatch):
    monkeypatch.setattr(generator_module, "_list_part", _no_listing)
    line = one_line(run("layouts", "list", *SMALL, "--max-span", 2, "--canonical"), code=2)
    assert "few or no symmetry classes do" in line


def test_scan_all_lists_anyway_and_says_when_nothing_passed():
    # on 4 × 3 with 3 territories of 2 to 5 cells, a span of 2 allows only 2 × 2 squares,
    # which cannot tile a board 3 cells tall: no layout passes, and every one is scanned
    assert one_line(run("layouts", "list", *SMALL, "--max-span", 2), code=2)
    result = run("layouts", "list", *SMALL, "--max-span", 2, "--scan-all")
    assert result.stdout == ""
    assert one_line(result, code=1) == "kiwara: none of the 226 layouts scanned passes the filters"


def test_a_start_beyond_every_passing_layout_is_told_apart_from_none_passing():
    passing = sum(1 for layout in iter_layouts(SMALL_GRID, SMALL_K, SMALL_SIZES)
                  if Filters(max_span=3).accepts(layout))
    assert 0 < passing < 226
    line = one_line(run("layouts", "list", *SMALL, "--max-span", 3, "--start", 100_000), code=1)
    assert line == (f"kiwara: the {passing} of the 226 layouts scanned that pass the filters "
                    f"all come before --start 100,000")


def test_filters_some_draws_pass_are_listed_as_before():
    result = run("layouts", "list", *SMALL, "--min-rivers", 7, "--format", "jsonl")
    assert result.exit_code == 0 and result.stderr == ""
    expected = [layout for layout in iter_layouts(SMALL_GRID, SMALL_K, SMALL_SIZES)
                if len(layout.river_edges()) >= 7]
    assert len(result.stdout.splitlines()) == len(expected) > 0


def test_probe_counts_accepted_draws_and_takes_a_seed():
    # the same seed gives the same count; none or all pass when no layout or every one does
    assert probe_filters(SMALL_GRID, SMALL_K, SMALL_SIZES, filters=Filters(max_span=3),
                         draws=300, seed=4) == probe_filters(
        SMALL_GRID, SMALL_K, SMALL_SIZES, filters=Filters(max_span=3), draws=300, seed=4)
    assert probe_filters(SMALL_GRID, SMALL_K, SMALL_SIZES, filters=Filters(max_span=2),
                         draws=300) == 0
    assert probe_filters(SMALL_GRID, SMALL_K, SMALL_SIZES, filters=Filters(max_span=4),
                         draws=300) == 300          # every territory fits in 4 × 3


def test_listing_reports_what_it_scanned_and_found():
    reports = []
    filters = Filters(min_rivers=7)
    blocks = list(iter_blocks(SMALL_GRID, SMALL_K, SMALL_SIZES, filters=filters,
                              progress=lambda scanned, found: reports.append((scanned, found))))
    everything = list(iter_layouts(SMALL_GRID, SMALL_K, SMALL_SIZES))
    passing = sum(1 for layout in everything if filters.accepts(layout))
    assert reports[-1] == (len(everything), passing)
    assert sum(len(b) for b in blocks) == passing * SMALL_GRID.size
    assert all(a <= b for a, b in zip(reports, reports[1:]))           # it only grows
    classes = []
    list(iter_blocks(SMALL_GRID, SMALL_K, SMALL_SIZES, filters=filters, canonical=True,
                     progress=lambda scanned, found: classes.append(scanned)))
    assert classes[-1] == count_layouts(SMALL_GRID, SMALL_K, SMALL_SIZES, canonical=True)
