"""Printed text measured against the cut pieces (issue 27): on the Kiwara rules page no text
comes within 2 mm of a piece's bleed, crop marks or fold lines, for every built-in variant on A4
and Letter, with and without bleed. Text is measured with the layout's conservative width
(:func:`kiwara_designer.printing.sheet.text_width`), which is itself checked against the
renderer's own font metrics (cairo's sans-serif) when cairo is installed."""
from __future__ import annotations

import dataclasses

import pytest

from kiwara_designer.games.kiwara.printing.kit import kit_cards
from kiwara_designer.games.kiwara.printing.rules import rules_page, summary
from kiwara_designer.games.kiwara.variant import KiwaraVariant, builtin_variant_names, load_variant
from kiwara_designer.printing import A4, LETTER, PrintOptions
from kiwara_designer.printing.page import Rect
from kiwara_designer.printing.sheet import text_width
from svg_support import NS, classes, parse

CLEAR = 2.0
PIECE_CLASSES = {"folded-card", "totem"}


def _deck(handicap=(0, 0)):
    return dataclasses.replace(KiwaraVariant(), name="deck", reinforcement="deck",
                               handicap=handicap)


def variants():
    return [load_variant(name) for name in builtin_variant_names()] + [_deck(), _deck((0, 1))]


def _texts(root):
    """(content, size, bold, box) of every text outside the pieces, from the SVG."""
    inside = set()
    for group in root.iter(NS + "g"):
        if classes(group) & PIECE_CLASSES:
            inside |= {id(e) for e in group.iter(NS + "text")}
    found = []
    for element in root.iter(NS + "text"):
        if id(element) in inside:
            continue
        content = "".join(element.itertext())
        size = float(element.get("font-size"))
        x, baseline = float(element.get("x")), float(element.get("y"))
        width = text_width(content, size)
        left = {"start": x, "middle": x - width / 2, "end": x - width}[element.get("text-anchor")]
        found.append((content, size, element.get("font-weight") == "bold",
                      Rect(left, baseline - 0.95 * size, width, 1.2 * size)))
    return found


def _keep_out(root):
    """The pieces' bleed boxes and the crop marks' and fold lines' segments, as rectangles."""
    rects = []
    for group in root.iter(NS + "g"):
        if classes(group) & PIECE_CLASSES:
            rects.append(Rect(*map(float, group.get("data-bleed").split())))
    for line in root.iter(NS + "line"):
        if classes(line) & {"crop-mark", "fold-line"}:
            x1, y1, x2, y2 = (float(line.get(k)) for k in ("x1", "y1", "x2", "y2"))
            rects.append(Rect(min(x1, x2), min(y1, y2), abs(x2 - x1), abs(y2 - y1)))
    return rects


def _near(box: Rect, other: Rect) -> bool:
    grown = Rect(other.x - CLEAR, other.y - CLEAR, other.width + 2 * CLEAR,
                 other.height + 2 * CLEAR)
    return box.intersection(grown) is not None


def _page(variant, paper, bleed):
    cards = kit_cards(variant)
    options = PrintOptions(paper, bleed_mm=bleed)
    return rules_page(options, variant, cards[0] if len(cards) == 1 else None)


@pytest.mark.parametrize("bleed", [0.0, 3.0])
@pytest.mark.parametrize("paper", [A4, LETTER], ids=["a4", "letter"])
@pytest.mark.parametrize("variant", variants(), ids=lambda v: f"{v.name}{list(v.handicap)}")
def test_rules_page_text_keeps_clear_of_the_pieces(variant, paper, bleed):
    page = _page(variant, paper, bleed)
    root = parse(page.svg)
    texts, keep_out = _texts(root), _keep_out(root)
    assert keep_out and texts
    for content, _, _, box in texts:
        assert 0 <= box.x and box.right <= page.width_mm, content
        assert 0 <= box.y and box.bottom <= page.height_mm, content
        for other in keep_out:
            assert not _near(box, other), (content, box, other)


def test_the_reported_collisions_are_gone():
    """Letter, classic and totem_1_2: the Okapi's crop mark ran into "gazelle"; with
    single_crocodile_swap the title ran into the card's bleed on Letter and under it on A4."""
    for name, paper in [("classic", LETTER), ("totem_1_2", LETTER),
                        ("single_crocodile_swap", LETTER), ("single_crocodile_swap", A4)]:
        root = parse(_page(load_variant(name), paper, 3.0).svg)
        keep_out = _keep_out(root)
        for content, _, _, box in _texts(root):
            assert not any(_near(box, other) for other in keep_out), (name, content)


@pytest.mark.parametrize("paper", [A4, LETTER], ids=["a4", "letter"])
def test_crop_marks_stay_off_every_piece(paper):
    """The folded Okapi card's lower crop marks were drawn on its back panel, and the card's and
    the totem's side marks reached into each other's bleed."""
    root = parse(_page(KiwaraVariant(), paper, 3.0).svg)
    panels = [Rect(*map(float, g.get("data-bleed").split())) for g in root.iter(NS + "g")
              if classes(g) & PIECE_CLASSES]
    marks = 0
    for line in root.iter(NS + "line"):
        if "crop-mark" in classes(line):
            marks += 1
            x1, y1, x2, y2 = (float(line.get(k)) for k in ("x1", "y1", "x2", "y2"))
            segment = Rect(min(x1, x2), min(y1, y2), abs(x2 - x1) or 1e-3, abs(y2 - y1) or 1e-3)
            assert all(segment.intersection(panel) is None for panel in panels), segment
            assert 5 - 1e-6 <= segment.x and segment.right <= paper.width_mm - 5 + 1e-6
            assert 5 - 1e-6 <= segment.y and segment.bottom <= paper.height_mm - 5 + 1e-6
    assert marks >= 20


def test_the_width_estimate_bounds_the_renderers_font():
    """Every text of every rules page, in its weight, is no wider in cairo's sans-serif (what
    cairosvg renders with) than the layout's estimate."""
    cairo = pytest.importorskip("cairocffi")
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, 8, 8)
    context = cairo.Context(surface)
    seen = set()
    for variant in variants():
        for paper in (A4, LETTER):
            for content, size, bold, box in _texts(parse(_page(variant, paper, 3.0).svg)):
                if (content, size, bold) in seen:
                    continue
                seen.add((content, size, bold))
                context.select_font_face("sans-serif", cairo.FONT_SLANT_NORMAL,
                                         cairo.FONT_WEIGHT_BOLD if bold else
                                         cairo.FONT_WEIGHT_NORMAL)
                context.set_font_size(100)   # unhinted widths, scaled
                assert context.text_extents(content)[4] * size / 100 <= box.width + 1e-6, content


def test_deck_rules_say_when_cards_are_used_and_deal_the_handicap():
    plain = dict(summary(_deck()))
    text = " ".join(plain.values())
    for words in ("one action card", "at most one a turn", "never in the turn you drew it",
                  "face up", "Points cards", "score"):
        assert words in text, words
    assert "Handicap" not in text
    dealt = dict(summary(_deck((0, 1))))["Reinforcement"]
    assert "1 card to the second player" in dealt
    assert "first player" not in dealt
    both = dict(summary(_deck((2, 1))))["Reinforcement"]
    assert "2 cards to the first player, then 1 card to the second player" in both
    assert _page(_deck((0, 1)), A4, 0).svg != _page(_deck(), A4, 0).svg


def test_negative_points_cards_print_one_sign():
    """A points card worth -3 printed "+-3" on the card and in the play view's hand."""
    from kiwara_designer.games.kiwara.cards import Card as DeckCard
    from kiwara_designer.games.kiwara.printing.kit import deck_card
    from kiwara_designer.games.kiwara.view import card_text

    minus = DeckCard("curse", "points", -3)
    printed = deck_card(minus)
    assert printed.value == "-3"
    assert all("+-" not in line for line in printed.body)
    assert printed.body[0].startswith("-3 points")
    variant = dataclasses.replace(KiwaraVariant(), name="cursed", reinforcement="deck",
                                  deck=(minus, DeckCard("drums", "totem")))

    class Holder:
        pass

    state = Holder()
    state.variant = variant
    assert card_text(state, "curse") == "curse (-3 points)"
    assert card_text(state, "drums") == "drums (totem)"
