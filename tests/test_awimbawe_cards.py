"""The Awimbawé print-and-play sheet: 63 × 88 mm cards on shared cut lines, every card of the
deck once with its variant's crowns (negative ones crossed out), both Heir cards with their gold
backs, the powers' texts and the rules page from the variant; the CLI writes SVG, PDF and PNG."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from kiwara_designer.games.awimbawe import AwimbaweVariant
from kiwara_designer.printing import A4, LETTER, PrintOptions, cairo_available
from kiwara_designer.games.awimbawe.printing import card_sheet

sys.path.insert(0, str(Path(__file__).parent))
from svg_support import find_class, line_coords, parse, size_mm  # noqa: E402

# The deck written out from the rules page: suits, values and the rulebook's crowns.
ANIMAL_CROWNS = {1: 3, 2: 2, 3: 2, 4: 3, 5: 1, 6: 1}
EAGLE_CROWNS = {7: 0, 8: 0, 9: -1, 10: -2}
CLASSIC = {f"{s}{v}": c for s in "GDMP" for v, c in ANIMAL_CROWNS.items()}
CLASSIC.update({f"E{v}": c for v, c in EAGLE_CROWNS.items()})


def fronts(pages):
    """(card name, crowns text, element) of every card front on the sheets."""
    return [(g.get("data-card"), g.get("data-crowns"), g)
            for page in pages if page.name != "rules" for g in find_class(parse(page.svg), "front")]


def test_every_card_once_with_the_rulebooks_crowns_and_both_heirs():
    found = fronts(card_sheet(AwimbaweVariant(), PrintOptions(A4, backs="duplex")))
    deck = {name: int(crowns) for name, crowns, _ in found if name in CLASSIC}
    assert len(found) == 30 and deck == CLASSIC
    assert sorted(name for name, _, _ in found if name not in CLASSIC) == \
        ["Black panther", "White tiger"]
    assert sum(deck.values()) == 45


def test_a_variant_that_changes_crowns_prints_its_crowns():
    variant = AwimbaweVariant(crowns=(5, 2, 2, 0, 1, 1), eagle_crowns=(0, -1, -1, -3))
    found = {name: (int(crowns), g) for name, crowns, g in
             fronts(card_sheet(variant, PrintOptions(A4, backs="duplex"))) if crowns}
    assert found["G1"][0] == found["P1"][0] == 5 and found["D4"][0] == 0
    assert [found[f"E{v}"][0] for v in (7, 8, 9, 10)] == [0, -1, -1, -3]
    # each negative crown is drawn crossed out (two strokes), positive ones are not
    assert len(find_class(found["E10"][1], "cross")) == 2 * 3
    assert len(find_class(found["E8"][1], "cross")) == 2
    assert len(find_class(found["G1"][1], "crown")) == 5 and not find_class(found["G1"][1], "cross")


@pytest.mark.parametrize("paper, per_page", [(A4, [9, 9, 9, 3]), (LETTER, [8, 8, 8, 6])])
def test_cards_are_63_by_88_nine_to_a_duplex_a4_page(paper, per_page):
    pages = card_sheet(AwimbaweVariant(), PrintOptions(paper, backs="duplex", crop_marks=True))
    sheets = [p for p in pages if p.name != "rules"]
    assert len(sheets) == 8            # 30 cards: 4 pages of fronts, each with its backs page
    counts = [len(find_class(parse(p.svg), "front")) for p in sheets if p.name.endswith("fronts")]
    assert counts == per_page          # Letter is 20 mm shorter: two rows of four, landscape
    root = parse(sheets[0].svg)
    marks = [line_coords(m) for m in find_class(root, "crop-mark")]
    xs = sorted({x1 for x1, _, x2, _ in marks if x1 == x2})
    ys = sorted({y1 for _, y1, _, y2 in marks if y1 == y2})
    assert [b - a for a, b in zip(xs, xs[1:])] == pytest.approx([63] * (len(xs) - 1))
    assert [b - a for a, b in zip(ys, ys[1:])] == pytest.approx([88] * (len(ys) - 1))
    assert (len(xs) - 1) * (len(ys) - 1) == per_page[0]
    assert size_mm(parse(pages[-1].svg)) == (paper.width_mm, paper.height_mm)


def test_powers_and_rules_follow_the_variant():
    def card_text(variant, name):
        for card, _, g in fronts(card_sheet(variant, PrintOptions(A4))):
            if card == name:
                return " ".join("".join(t.itertext()) for t in g.iter() if t.tag.endswith("text"))
    classic, park = AwimbaweVariant(), AwimbaweVariant(cheetah_may_pass=False,
                                                       snake_hidden_tops=True)
    assert "leave it to the winner" in card_text(classic, "G3")
    assert "leave it to the winner" not in card_text(park, "G3")
    assert "face-down top" in card_text(park, "G5")
    assert "No power" in card_text(AwimbaweVariant(snake_power=False), "G5")
    assert "flee" not in card_text(AwimbaweVariant(eagle_may_flee=False), "E7")
    rules = "".join(parse(card_sheet(AwimbaweVariant(hyenas_to_lose=3, rounds_to_win=3),
                                     PrintOptions(A4))[-1].svg).itertext())
    assert "3th hyena" not in rules and "takes their 3rd hyena" in rules
    assert "first to win 3 rounds" in rules


def test_cards_command_writes_svg_pdf_and_png(tmp_path, run):
    result = run("awimbawe", "cards", "-o", tmp_path / "cards.svg", "--bleed-mm", "3",
                 "--paper", "letter")
    assert result.exit_code == 0, result.output
    written = sorted(p.name for p in tmp_path.iterdir())
    assert len(written) == 9 and "cards-rules.svg" in written
    if not cairo_available():
        pytest.skip("no cairo: PDF and PNG not checked")
    assert run("awimbawe", "cards", "-o", tmp_path / "c.pdf").exit_code == 0
    assert (tmp_path / "c.pdf").read_bytes().startswith(b"%PDF")
    assert run("awimbawe", "cards", "-o", tmp_path / "c.png", "--dpi", "40").exit_code == 0
    assert (tmp_path / "c-rules.png").read_bytes().startswith(b"\x89PNG")
    bad = run("awimbawe", "cards", "-o", tmp_path / "c.svg", "--paper", "tiny")
    assert bad.exit_code == 2 and "Traceback" not in bad.output
