"""The HTML report: well-formed, self-contained, drawing the boards and the plots."""
from __future__ import annotations

import sys
from html.parser import HTMLParser
from pathlib import Path
from xml.etree import ElementTree

import pytest

from kiwara_designer import Layout
from kiwara_designer.playtest import Store, run_sweep
from kiwara_designer.playtest.report import (board_svg, export_layouts, histogram_svg,
                                             render_report)

sys.path.insert(0, str(Path(__file__).parent))
from playtest_toy import LAYOUTS, TOY_KIT  # noqa: E402

VOID = {"meta", "br", "hr", "img", "input", "link", "col", "area", "base", "wbr"}
SVG_LEAVES = {"rect", "line", "circle", "polyline", "path"}


class TagChecker(HTMLParser):
    """Every opened element is closed in order (void HTML elements and self-closed SVG aside)."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.counts: dict[str, int] = {}

    def handle_starttag(self, tag, attrs):
        self.counts[tag] = self.counts.get(tag, 0) + 1
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.counts[tag] = self.counts.get(tag, 0) + 1

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
        else:
            self.stack.pop()


@pytest.fixture(scope="module")
def report_html(tmp_path_factory):
    db = tmp_path_factory.mktemp("report") / "r.sqlite"
    with Store(db) as store:
        run_sweep(store, LAYOUTS, None, "random", games=12, seed=1, workers=1, kit=TOY_KIT,
                  skill="greedy,first", skill_games=4)
        return render_report(store, top=4)


def test_report_is_well_formed_and_self_contained(report_html):
    checker = TagChecker()
    checker.feed(report_html)
    checker.close()
    assert checker.errors == [] and checker.stack == []
    lowered = report_html.lower()
    for forbidden in ("http://", "https://", "src=", "<link", "<script", "@import", "url("):
        assert forbidden not in lowered
    # 4 boards in the table and 4 plots
    assert checker.counts["svg"] == 4 + 4
    assert checker.counts["tr"] == 1 + 4
    assert "first-player win rate" in report_html and "river segments" in report_html


def test_each_svg_of_the_report_parses_as_xml(report_html):
    start = 0
    seen = 0
    while (start := report_html.find("<svg", start)) != -1:
        end = report_html.index("</svg>", start) + len("</svg>")
        ElementTree.fromstring(report_html[start:end])
        start, seen = end, seen + 1
    assert seen == 8


def test_board_svg_draws_one_thick_line_per_river():
    layout = Layout.from_rows(["AAB", "ACB"])
    # rivers by hand: b1|c1 (A|B), a2|b2 (A|C), b2|c2 (C|B), b1 over b2 (A over C): 4
    svg = board_svg(layout)
    assert svg.count("<line") == 4 == len(layout.river_edges())
    assert svg.count("<rect") == 6 + 1
    assert "http" not in svg
    assert 'xmlns="http://www.w3.org/2000/svg"' in board_svg(layout, standalone=True)


def test_histogram_counts_by_hand():
    svg = histogram_svg([0.1, 0.12, 0.55, 0.9, 1.0], 0, 1, 2, "x")
    bars = [part for part in svg.split("<rect")[1:]]
    titles = sorted(b.split("<title>")[1].split("</title>")[0] for b in bars)
    assert titles == ["2", "3"]      # [0, 0.5): 0.1, 0.12; [0.5, 1]: 0.55, 0.9, 1.0


def test_export_writes_layout_files_that_read_back(tmp_path):
    from kiwara_designer import load_layout
    with Store(tmp_path / "r.sqlite") as store:
        run_sweep(store, LAYOUTS[:2], None, "random", games=4, seed=1, workers=1, kit=TOY_KIT)
        rows = store.ranked()
    files = export_layouts(rows, tmp_path / "best")
    texts = sorted(p for p in files if p.suffix == ".txt")
    assert len(texts) == 2 and len(files) == 4
    assert {load_layout(str(p)) for p in texts} == {r.layout for r in rows}


def test_integer_bins_hold_one_width_of_whole_numbers():
    from kiwara_designer.playtest.report import integer_bins
    lo, hi, bins = integer_bins(-67, 61)
    assert (lo, hi) == (-68, 64) and (hi - lo) % bins == 0
    width = (hi - lo) // bins
    assert width % 2 == 0 and bins <= 40
    assert integer_bins(3, 3) == (2, 4, 1)
