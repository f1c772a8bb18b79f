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
    """The rules page; ``bleed`` None: crop marks without bleed."""
    cards = kit_cards(variant)
    options = PrintOptions(paper, bleed_mm=bleed or 0.0, crop_marks=bleed is None)
    return rules_page(options, variant, cards[0] if len(cards) == 1 else None)


@pytest.mark.parametrize("bleed", [0.0, None, 3.0], ids=["plain", "marks", "bleed"])
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


# ---- card and token sheets ----------------------------------------------------------------

from kiwara_designer.games.awimbawe import AwimbaweVariant  # noqa: E402
from kiwara_designer.games.awimbawe.printing import card_sheet, deck_cards  # noqa: E402
from kiwara_designer.games.kiwara import load_layout  # noqa: E402
from kiwara_designer.games.kiwara.printing import print_set  # noqa: E402
from kiwara_designer.printing import PrintError, card_pages  # noqa: E402
from svg_support import find_class, line_coords  # noqa: E402


def _sheets(pages):
    return [p for p in pages if p.name != "rules"]


@pytest.mark.parametrize("backs", ["duplex", "fold"])
@pytest.mark.parametrize("paper", [A4, LETTER], ids=["a4", "letter"])
def test_sheet_instructions_are_legible_and_clear_of_the_pieces(paper, backs):
    """The instruction line was 1.8 mm text; now 3.4 mm (2.5 mm capitals), above the pieces."""
    for page in _sheets(card_sheet(AwimbaweVariant(), PrintOptions(paper, backs=backs,
                                                                   bleed_mm=3))):
        root = parse(page.svg)
        titles = find_class(root, "sheet-title")
        assert 1 <= len(titles) <= 2
        pieces_top = page.trim.y - 3
        for title in titles:
            size = float(title.get("font-size"))
            assert size >= 3.4, page.name
            baseline = float(title.get("y"))
            assert baseline - 0.95 * size >= 5 - 1e-6                  # inside the printable area
            assert baseline + 0.25 * size + CLEAR <= pieces_top, page.name
            width = text_width(title.text, size)
            assert 10 + width <= page.width_mm - 10 + 1e-6
        for line in find_class(root, "crop-mark"):
            x1, y1, x2, y2 = line_coords(line)
            assert min(y1, y2) >= max(float(t.get("y")) + 0.25 * float(t.get("font-size"))
                                      for t in titles), page.name


@pytest.mark.parametrize("gutter", [0.0, 4.0])
@pytest.mark.parametrize("paper", [A4, LETTER], ids=["a4", "letter"])
def test_token_sheet_instructions_clear_of_the_tokens(paper, gutter):
    """A full token sheet (bleed and a gutter) ran its two lines of instructions into the
    first row's bleed: it now gives up a row instead."""
    from kiwara_designer.games.kiwara.printing.kit import token_pages
    options = PrintOptions(paper, bleed_mm=3, gutter_mm=gutter)
    for page in token_pages(options, 25.0, KiwaraVariant()):
        titles = find_class(parse(page.svg), "sheet-title")
        assert titles
        for title in titles:
            size, baseline = float(title.get("font-size")), float(title.get("y"))
            assert size >= 2.4
            assert baseline + 0.25 * size + 1 <= page.trim.y - 3 + 1e-6, page.name


def _all_marks(pages):
    """Every crop mark of ``pages`` in page coordinates (a tiled board's sit in a translated
    group)."""
    import re

    def walk(element, dx, dy):
        match = re.match(r"translate\(\s*([-\d.e]+)[ ,]+([-\d.e]+)\s*\)",
                         element.get("transform", ""))
        if match:
            dx, dy = dx + float(match[1]), dy + float(match[2])
        if "crop-mark" in classes(element):
            x1, y1, x2, y2 = line_coords(element)
            yield x1 + dx, y1 + dy, x2 + dx, y2 + dy
        for child in element:
            yield from walk(child, dx, dy)

    for page in pages:
        for coords in walk(parse(page.svg), 0.0, 0.0):
            yield page, coords


@pytest.mark.parametrize("paper", [A4, LETTER], ids=["a4", "letter"])
def test_crop_marks_stay_five_mm_inside_the_paper(paper):
    """Some marks started 3 mm from the edge: lost on printers with 4-5 mm margins."""
    options = PrintOptions(paper, bleed_mm=3)
    # (a tiled board's pages clip the board to the margins: their marks never reach the edge)
    pages = (print_set(load_layout("classic"), options, kit=True)
             + print_set(load_layout("classic"), PrintOptions(paper, cell_mm=20, bleed_mm=3))
             + card_sheet(AwimbaweVariant(), PrintOptions(paper, backs="duplex", bleed_mm=3)))
    seen = 0
    for page, (x1, y1, x2, y2) in _all_marks(pages):
        seen += 1
        assert 5 - 1e-6 <= min(x1, x2) and max(x1, x2) <= page.width_mm - 5 + 1e-6, page.name
        assert 5 - 1e-6 <= min(y1, y2) and max(y1, y2) <= page.height_mm - 5 + 1e-6, page.name
    assert seen > 100


@pytest.mark.parametrize("label, cards", [
    ("KIWARA", lambda: kit_cards(KiwaraVariant())),
    ("AWIMBAWÉ", lambda: deck_cards(AwimbaweVariant())[:1])])
def test_the_backs_label_sits_inside_the_innermost_frame(label, cards):
    """ "KIWARA" and "AWIMBAWÉ" ran over the inner frames of the backs."""
    page = card_pages(cards(), PrintOptions(A4, backs="duplex"))[1]
    root = parse(page.svg)
    (back,) = find_class(root, "back")[:1]
    frames = [e for e in back.iter(NS + "rect") if e.get("fill") == "none"]
    inner = min(frames, key=lambda e: float(e.get("width")))
    ix, iw = float(inner.get("x")), float(inner.get("width"))
    (element,) = find_class(back, "back-label")
    assert element.text == label
    size, centre = float(element.get("font-size")), float(element.get("x"))
    width = text_width(label, size)
    assert ix + 1.5 - 1e-6 <= centre - width / 2 and centre + width / 2 <= ix + iw - 1.5 + 1e-6


def test_eagles_name_their_suit_once():
    """Eagles read "Sky / Sky. On a land card…"."""
    eagles = [c for c in deck_cards(AwimbaweVariant()) if c.title == "Eagle"]
    assert len(eagles) == 4
    for card in eagles:
        assert card.body[0] == "Sky"
        assert not card.body[1].startswith("Sky")
    flee = [c for c in deck_cards(AwimbaweVariant(eagle_may_flee=False)) if c.title == "Eagle"]
    assert flee[0].body[1] == "On a land card it always fights and wins the trick."


def test_awimbawe_fronts_carry_corner_indices_clear_of_the_title():
    """Held fanned, a card shows its top-left corner: its notation code (G1) is printed there
    and, turned, in the bottom-right corner; the title keeps clear of both."""
    page = card_sheet(AwimbaweVariant(), PrintOptions(A4, backs="duplex"))[0]
    root = parse(page.svg)
    fronts = find_class(root, "front")
    assert len(fronts) == 9
    for front in fronts:
        indices = find_class(front, "card-index")
        assert [i.text for i in indices] == [front.get("data-card")] * 2
        assert "rotate(180" in indices[1].get("transform", "")
        (title,) = find_class(front, "card-title")
        tsize = float(title.get("font-size"))
        twidth = text_width(title.text, tsize)
        tleft = float(title.get("x")) - twidth / 2
        index = indices[0]
        isize = float(index.get("font-size"))
        assert isize >= 3.5
        iright = float(index.get("x")) + text_width(index.text, isize)
        assert iright + 1 <= tleft + 1e-6, (front.get("data-card"), iright, tleft)


def _trims(page):
    return sorted({(round(float(g.get("x")), 3), round(float(g.get("y")), 3))
                   for g in find_class(parse(page.svg), "cut-guide")})


def test_gutter_spaces_the_pieces_and_marks_every_cut_line():
    """Cards shared cut lines: an imprecise cut left a sliver of the neighbour."""
    cards = deck_cards(AwimbaweVariant())[:6]
    shared = card_pages(cards, PrintOptions(A4, backs="duplex"))[0]
    spaced = card_pages(cards, PrintOptions(A4, backs="duplex", gutter_mm=4))[0]
    assert shared.svg == card_pages(cards, PrintOptions(A4, backs="duplex", gutter_mm=0))[0].svg
    xs = sorted({x for x, _ in _trims(spaced)})
    assert [round(b - a, 3) for a, b in zip(xs, xs[1:])] == [67.0] * (len(xs) - 1)
    xs0 = sorted({x for x, _ in _trims(shared)})
    assert [round(b - a, 3) for a, b in zip(xs0, xs0[1:])] == [63.0] * (len(xs0) - 1)
    marked = card_pages(cards, PrintOptions(A4, backs="duplex", gutter_mm=4, crop_marks=True))[0]
    marks = [line_coords(m) for m in find_class(parse(marked.svg), "crop-mark")]
    vertical = sorted({x1 for x1, _, x2, _ in marks if x1 == x2})
    # both cut lines of every gutter: the left and right side of each column
    columns = len(vertical) // 2
    assert columns >= 2 and len(vertical) == 2 * columns
    assert [round(b - a, 3) for a, b in zip(vertical, vertical[1:])] == \
        ([63, 4] * columns)[:-1]
    with pytest.raises(PrintError):
        PrintOptions(A4, gutter_mm=-1)


def test_gutter_option_on_the_commands(tmp_path, run):
    out = tmp_path / "kit.svg"
    assert run("export", "classic", "-o", out, "--kit", "--gutter-mm", "3").exit_code == 0
    tokens = parse((tmp_path / "kit-tokens.svg").read_text())
    squares = sorted({round(float(e.get("x")), 3) for e in find_class(tokens, "cut-guide")})
    steps = {round(b - a, 3) for a, b in zip(squares, squares[1:])}
    assert len(steps) >= 1 and all(step > 3 for step in steps)
    result = run("awimbawe", "cards", "-o", tmp_path / "c.svg", "--gutter-mm", "5")
    assert result.exit_code == 0, result.output
    bad = run("awimbawe", "cards", "-o", tmp_path / "d.svg", "--gutter-mm", "50")
    assert bad.exit_code != 0 and "gutter" in bad.output


def test_pdf_carries_a_title_and_creator_and_stays_deterministic(tmp_path, run):
    pytest.importorskip("cairosvg")
    from kiwara_designer.printing import cairo_available
    if not cairo_available():
        pytest.skip("no cairo")
    for args, title in [(("export", "classic", "--kit"), "Kiwara board: classic, kit for variant classic"),
                        (("generate", "--seed", "7"), "Kiwara board: seed 7"),
                        (("awimbawe", "cards"), "Awimbawé cards, variant classic")]:
        one, two = tmp_path / "one.pdf", tmp_path / "two.pdf"
        for path in (one, two):
            result = run(*args, "-o", path)
            assert result.exit_code in (0, 1), result.output
        data = one.read_bytes()
        assert data == two.read_bytes()
        assert b"/Creator (kiwara-designer)" in data
        encoded = (b"(" + title.encode("ascii") if title.isascii()
                   else b"<FEFF" + title.encode("utf-16-be").hex().upper().encode())
        assert b"/Title " + encoded in data, data[-800:]


@pytest.mark.parametrize("paper", [A4, LETTER], ids=["a4", "letter"])
def test_awimbawe_rules_text_stays_inside_the_margins(paper):
    """Wrapped at half an em a character, its lines ran past the right margin on Letter."""
    page = card_sheet(AwimbaweVariant(), PrintOptions(paper))[-1]
    for element in parse(page.svg).iter(NS + "text"):
        size = float(element.get("font-size"))
        assert float(element.get("x")) + text_width(element.text, size) <= page.width_mm - 10 + 1e-6
