"""The HTML report: well-formed, self-contained, drawing the boards and the plots."""
from __future__ import annotations

import sys
from html.parser import HTMLParser
from pathlib import Path
from xml.etree import ElementTree

import pytest

from kiwara_designer.games.kiwara.lab import export_layouts
from kiwara_designer.lab import PlaySettings, Store, run_sweep
from kiwara_designer.lab.race_lab import race_setups
from kiwara_designer.lab.racing import RaceSettings
from kiwara_designer.lab.report import histogram_svg, render_report
from kiwara_designer.printing import LETTER, PrintOptions

sys.path.insert(0, str(Path(__file__).parent))
from playtest_toy import LAYOUTS, TOY_GAME  # noqa: E402
from svg_support import (NS, board_group, expected_rivers, find_class, parse,  # noqa: E402
                         rivers_drawn, size_mm)

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
        run_sweep(store, LAYOUTS, PlaySettings("random", games=12, seed=1, workers=1,
                                               skill="greedy,first", skill_games=4), game=TOY_GAME)
        return render_report(store, top=4, game=TOY_GAME)


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


def test_report_boards_draw_every_river_once(report_html):
    boards = 0
    start = 0
    while (start := report_html.find("<svg", start)) != -1:
        end = report_html.index("</svg>", start) + len("</svg>")
        root = ElementTree.fromstring(report_html[start:end])
        start = end
        if not find_class(root, "cell"):
            continue                      # a plot
        boards += 1
        rows = root.get("aria-label").removeprefix("board ").split()
        assert len(find_class(root, "cell")) == sum(map(len, rows))
        drawn = rivers_drawn(root)
        assert len(drawn) == len(set(drawn)) and set(drawn) == expected_rivers(rows, 18)
    assert boards == 4


def test_histogram_counts_by_hand():
    svg = histogram_svg([0.1, 0.12, 0.55, 0.9, 1.0], 0, 1, 2, "x")
    bars = [part for part in svg.split("<rect")[1:]]
    titles = sorted(b.split("<title>")[1].split("</title>")[0] for b in bars)
    assert titles == ["2", "3"]      # [0, 0.5): 0.1, 0.12; [0.5, 1]: 0.55, 0.9, 1.0


def test_export_writes_layout_files_and_true_scale_boards(tmp_path):
    from kiwara_designer.games.kiwara import load_layout
    with Store(tmp_path / "r.sqlite") as store:
        run_sweep(store, LAYOUTS[:2], PlaySettings("random", games=4, seed=1, workers=1),
                  game=TOY_GAME)
        rows = store.ranked()
    files = export_layouts(rows, tmp_path / "best", game=TOY_GAME)
    texts = sorted(p for p in files if p.suffix == ".txt")
    boards = sorted(p for p in files if p.suffix == ".svg")
    assert len(texts) == 2 and len(boards) == 2 and len(files) == 4
    assert {load_layout(str(p)) for p in texts} == {TOY_GAME.setup_from_key(r.setup) for r in rows}
    for rank, (row, board) in enumerate(zip(rows, boards), start=1):
        assert board.name == f"rank{rank:02d}-layout{row.setup_id}.svg"
        root = parse(board.read_text())
        # an A4 landscape sheet in millimetres, one user unit = 1 mm: prints at true scale
        assert size_mm(root) == (297, 210)
        assert [float(v) for v in root.get("viewBox").split()] == [0, 0, 297, 210]
        # the toy boards are 4 x 3, the piece (4 + 2) by (3 + 2) cells; by hand, the default cell
        # fits both papers: A4 with the 52 mm title block beside it after 6 mm (6c + 58 <= 277,
        # 5c <= 190) and Letter with the 16 mm strip below it (6c <= 259.4, 5c + 22 <= 195.9):
        # c = 34 mm (at 35, 197 > 195.9)
        cells = find_class(board_group(root), "cell")
        assert len(cells) == 12 and {float(c.get("width")) for c in cells} == {34.0}
        drawn = rivers_drawn(board_group(root))
        assert len(drawn) == len(set(drawn))
        assert set(drawn) == expected_rivers(row.setup.split("\n"), 34)
        title = " ".join(e.text for e in find_class(root, "title-block")[0].iter(NS + "text"))
        assert f"rank {rank}: layout #{row.setup_id}" in title


def test_export_on_other_paper(tmp_path):
    with Store(tmp_path / "r.sqlite") as store:
        run_sweep(store, LAYOUTS[:1], PlaySettings("random", games=2, seed=1, workers=1),
                  game=TOY_GAME)
        rows = store.ranked()
    (board,) = [p for p in export_layouts(rows, tmp_path, PrintOptions(LETTER), TOY_GAME)
                if p.suffix == ".svg"]
    root = parse(board.read_text())
    assert size_mm(root) == (279.4, 215.9)


def test_integer_bins_hold_one_width_of_whole_numbers():
    from kiwara_designer.lab.report import integer_bins
    lo, hi, bins = integer_bins(-67, 61)
    assert (lo, hi) == (-68, 64) and (hi - lo) % bins == 0
    width = (hi - lo) // bins
    assert width % 2 == 0 and bins <= 40
    assert integer_bins(3, 3) == (2, 4, 1)


def test_rate_bins_centre_a_fair_rate_in_its_bar():
    from kiwara_designer.lab.report import rate_bins
    # 20 games: one bar per possible rate k/20 over the rates' span, width 0.05, one on 0.5
    lo, hi, bins = rate_bins([0.5, 0.45, 0.3], [20, 20, 20])
    assert (bins, (hi - lo) / bins) == (5, pytest.approx(0.05))
    assert (lo, hi) == (pytest.approx(0.275), pytest.approx(0.525))
    # 200 games, one rate: one bar of one possible value, centred on 0.5
    lo, hi, bins = rate_bins([0.5], [200])
    assert bins == 1 and (lo + hi) / 2 == pytest.approx(0.5)
    # a draw makes half wins: 10.5/20 is a possible value and gets its own bar
    lo, hi, bins = rate_bins([0.525], [20])
    assert (hi - lo) / bins == pytest.approx(0.025)
    # every possible rate sits in the middle of a bar, never on an edge
    for rates in ([k / 32 for k in range(11, 22)], [k / 32 for k in range(33)] * 3):
        lo, hi, bins = rate_bins(rates, [32] * len(rates))
        width = (hi - lo) / bins
        if len(rates) == 11:                                   # few values: one bar each
            assert bins == 11 and all(0.4 < ((r - lo) / width) % 1 < 0.6 for r in rates)
        else:                                                  # bars of an odd number of them
            assert bins < 33 and all(0.05 < ((r - lo) / width) % 1 < 0.95 for r in rates)


def test_rate_bins_follow_the_data_at_any_number_of_games():
    """At 4,000 games a layout rates take 4,001 values: the bars follow the rates' spread
    (Freedman–Diaconis, in whole possible values), not one bar per 1/40 of [0, 1] that would put
    every layout in two bars."""
    import random
    from kiwara_designer.lab.report import freedman_diaconis, rate_bins
    rng = random.Random(1)
    rates = [round(rng.gauss(0.5, 0.008) * 4000) / 4000 for _ in range(40)]
    lo, hi, bins = rate_bins(rates, [4000] * 40)
    width = (hi - lo) / bins
    assert 5 <= bins <= 40
    assert lo <= min(rates) and max(rates) <= hi and hi - lo < 0.1
    assert (width * 4000) == pytest.approx(round(width * 4000))       # whole possible values
    assert round(width * 4000) % 2 == 1
    assert width >= freedman_diaconis(rates) - 1e-12
    assert ((0.5 - lo) / width) % 1 == pytest.approx(0.5)
    # capped: a wide spread of many-valued rates never gets more than `most` bars
    wide = [rng.random() for _ in range(500)]
    assert rate_bins([round(r * 4000) / 4000 for r in wide], [4000] * 500)[2] <= 40


def test_integer_bins_widen_with_few_values():
    from kiwara_designer.lab.report import integer_bins
    few = [-31, -9, -3, 1, 5, 11, 27]                       # 7 margins: few wide bars
    lo, hi, bins = integer_bins(min(few), max(few), values=few)
    assert bins <= 6 and ((hi - lo) // bins) % 2 == 0
    import random
    rng = random.Random(2)                                   # thousands: narrow bars
    many = [2 * round(rng.gauss(0, 18) / 2) + 1 for _ in range(5000)]
    lo, hi, bins = integer_bins(min(many), max(many), values=many)
    assert 20 < bins <= 40 and (hi - lo) // bins <= 4


def test_report_table_scrolls_without_wrapping_and_shows_each_boards_rows(report_html):
    assert "overflow-x: auto" in report_html and "white-space: nowrap" in report_html
    assert report_html.count('<div class=scroll><table>') == 1
    rows = [block.split("</pre>")[0] for block in report_html.split('<pre class="rows">')[1:]]
    assert len(rows) == 4
    assert all(r.split("\n") in [list(x.canonical_game().rows) for x in LAYOUTS] for r in rows)


def test_report_has_a_racing_section(tmp_path):
    with Store(tmp_path / "race.sqlite") as store:
        race = race_setups(store, LAYOUTS, PlaySettings("random", seed=5, workers=1),
                           RaceSettings(k=2, tolerance=0.5, first_round=8), game=TOY_GAME)
        page = render_report(store, top=2, game=TOY_GAME)
    checker = TagChecker()
    checker.feed(page)
    checker.close()
    assert checker.errors == [] and checker.stack == []
    section = page.split("<h2>Races</h2>")[1].split("<h2>")[0]
    assert "separated: the guarantee holds" in section
    assert f"after {race.result.games:,} games" in section
    # every layout has a row with its games; the named ones first
    assert section.count("<tr><td>") == len(LAYOUTS)
    for arm in race.result.arms:
        assert f"<td>{arm.games:,}</td>" in section
    first_rows = section.split("</table>")[0]
    assert all(f"<tr><td>{a}</td>" in first_rows for a in race.result.top)
    # the histogram's caption says what this race did, not what races usually do
    games = [a.games for a in race.result.arms]
    named = sorted(race.result.arm(a).games for a in race.result.top)
    fewest = sum(g == min(games) for g in games)
    assert (f"{fewest} of {len(LAYOUTS)} played the fewest, {min(games):,}; the named ones "
            f"{named[0]:,} " in section)
    # the setups' table above lists each rate with its interval and its game count, so rates
    # of 8 games and of many do not look equally certain
    table = page.split("<h2>Races</h2>")[0]
    assert table.count('<span class="note">[') >= 2 and "<th>games</th>" in table


def test_games_spent_caption_of_a_race_stopped_by_its_budget():
    from kiwara_designer.lab.report import games_spent_caption
    arms = [{"arm": i, "games": 250} for i in range(6)]
    assert games_spent_caption(arms, {1, 5}, "layout") == (
        "Games spent per layout: 6 of 6 played the fewest, 250; the named ones 250 each.")
    arms[1]["games"] = 1_300
    assert games_spent_caption(arms, {1, 5}, "layout").endswith(
        "5 of 6 played the fewest, 250; the named ones 250 to 1,300.")
