"""kiwara studio: the library API (kiwara_designer.studio.api) and every endpoint of the web
server through Flask's test client, bad input included; the browser test is test_studio_e2e.py."""
from __future__ import annotations

import dataclasses
import itertools
import json
import random
import re
import secrets
import socket
import threading
import urllib.parse
import urllib.request
from types import SimpleNamespace

import pytest

flask = pytest.importorskip("flask", reason="kiwara studio needs the studio extra (Flask)")

from click.testing import CliRunner  # noqa: E402

from kiwara_designer.cli import main  # noqa: E402
from kiwara_designer.core.game import CHANCE  # noqa: E402
from kiwara_designer.games.awimbawe.cards import BIT, CARDS, NAMES, cards_of  # noqa: E402
from kiwara_designer.games.awimbawe.information import seen_cards  # noqa: E402
from kiwara_designer.games.awimbawe.moves import MOVES  # noqa: E402
from kiwara_designer.games.kiwara import KiwaraRecord  # noqa: E402
from kiwara_designer.core.errors import KiwaraError  # noqa: E402
from kiwara_designer.games.kiwara.generator import sample_layouts  # noqa: E402
from kiwara_designer.lab.fairness import (FAIR, FAVOURS_FIRST, FAVOURS_SECOND,  # noqa: E402
                                          UNDECIDED, FairnessError, fairness_of_games)
from kiwara_designer.lab.matches import GameResult  # noqa: E402
from kiwara_designer.games.kiwara.studio.boards import (board_from_rows,  # noqa: E402
                                                        read_layout_text)
from kiwara_designer.printing import cairo_available  # noqa: E402
from kiwara_designer.studio import api  # noqa: E402
from kiwara_designer.studio.jobs import Jobs  # noqa: E402
from kiwara_designer.studio.server import MAX_BODY, create_app, make_studio_server  # noqa: E402
from toy_games import KuhnGame  # noqa: E402

CLASSIC = ["ABCCCC", "ABBCFF", "AABCCF", "DABBBE", "DDEEEE"]
SPLIT = ["ABCCCC", "ABBCFF", "AABCCF", "DABBBE", "DDEEEC"]      # the README's split.txt
TOKEN = "test-token"
AUTH = {"X-Studio-Token": TOKEN}


@pytest.fixture
def studio():
    backend = api.Studio(workers=1)
    yield backend
    backend.close()


@pytest.fixture
def client(studio):
    return create_app(studio, TOKEN).test_client()


def post(client, url, payload=None, **kwargs):
    return client.post(url, data=json.dumps(payload if payload is not None else {}),
                       headers=AUTH, content_type="application/json", **kwargs)


def get(client, url):
    return client.get(url, headers=AUTH)


def wait_job(client, job: dict) -> dict:
    """Poll a job until it ends (the job's own wait, not a sleep: no timing)."""
    while job["state"] == "running":
        job = get(client, f"/api/jobs/{job['id']}?wait=1").get_json()
        if job["state"] == "running":
            client.application.config["STUDIO"].job(job["id"]).wait(1.0)
    return job


# -- boards -------------------------------------------------------------------------------------
def test_classic_board_is_valid_and_recognised():
    report = api.check_board(CLASSIC)
    assert report["valid"] and report["problems"] == [] and report["bad_cells"] == []
    assert report["known_board"] == "classic"
    assert report["size_mix"] == [3, 3, 5, 5, 7, 7]
    assert report["river_segments"] == 25 and report["sticks_in_box"] == 30
    assert report["territories"] == {"A": 5, "B": 7, "C": 7, "D": 3, "E": 5, "F": 3}
    # the board as printed: one cell rect per cell, a river line per stick, 22 stones
    svg = report["svg"]
    assert len(re.findall(r'class="hit" data-cell="[a-f][1-5]"', svg)) == 30
    assert svg.count('class="river"') == 25
    assert len(re.findall(r'class="stone" data-edge="\w+" data-position="\d+"', svg)) == 22


def test_split_board_names_its_problems_and_cells():
    report = api.check_board(SPLIT)
    assert not report["valid"]
    messages = [p["message"] for p in report["problems"]]
    assert "territory C is split into 2 pieces {c1, d1, e1, f1, d2, d3, e3} and {f5}" in messages
    assert "territory E has 4 cells {f4, c5, d5, e5}, allowed sizes are 3, 5, 7, 9" in messages
    # by hand: C's eight cells and E's four
    assert report["bad_cells"] == sorted(["c1", "d1", "e1", "f1", "d2", "d3", "e3", "f5",
                                          "f4", "c5", "d5", "e5"])
    assert report["known_board"] is None


def test_mirror_image_is_named_and_classic_rules_check_the_mix():
    mirrored = [row[::-1] for row in CLASSIC]
    assert api.check_board(mirrored)["known_board"] == "classic seen through a left-right mirror"
    president = ["ADDDFF", "ABBDDF", "ABCCDD", "BBCEED", "CCCCED"]
    report = api.check_board(president, "classic")
    assert not report["valid"] and report["problems"][0]["kind"] == "size"


@pytest.mark.parametrize("rows, words", [
    ("ABC", "rows must be a list"),
    ([], "rows must be a list"),
    (["AB", 3], "rows must be a list"),
    (["ABC", "AB"], "rows of different lengths"),
    (["AB#", "ABC"], "'#' is not a territory name"),
    (["A" * 13], "row 1 has 13 cells"),
    ([""], "row 1 has 0 cells"),
])
def test_bad_rows_are_refused_in_words(rows, words):
    with pytest.raises(api.StudioError, match=re.escape(words)):
        api.check_board(rows)


def test_random_board_is_the_generators_draw():
    drawn = api.random_board(7, "3,3,5,5,7,7")
    assert drawn["rows"] == list(sample_layouts(1, 7, mix=(3, 3, 5, 5, 7, 7))[0].rows)
    assert drawn["valid"] and drawn["size_mix"] == [3, 3, 5, 5, 7, 7]
    assert drawn["command"] == "kiwara generate --seed 7 --mix 3,3,5,5,7,7"
    assert api.random_board(7, [7, 7, 5, 5, 3, 3])["rows"] == drawn["rows"]
    fresh = api.random_board()
    assert 0 <= fresh["seed"] < 1_000_000 and fresh["valid"]
    with pytest.raises(api.StudioError, match="not a free-play mix"):
        api.random_board(1, "3,3,3,3,3,15")


def test_pasted_text_and_json_layouts():
    assert read_layout_text("A B C C C C\nABBCFF\nAABCCF\nDABBBE\nDDEEEE\n").rows == \
        tuple(CLASSIC)
    assert read_layout_text(json.dumps({"rows": CLASSIC})).rows == tuple(CLASSIC)
    with pytest.raises(KiwaraError, match="holds no layout"):
        read_layout_text("# only a comment\n")
    with pytest.raises(KiwaraError):
        read_layout_text("ABC\nAB\n")


def test_catalogue_lists_what_the_page_offers():
    found = api.catalogue()
    assert found["layouts"]["classic"] == CLASSIC
    assert len(found["mixes"]) == 7 and [3, 3, 5, 5, 7, 7] in found["mixes"]
    kiwara, awimbawe = found["games"]["kiwara"], found["games"]["awimbawe"]
    assert list(found["games"]) == ["kiwara", "awimbawe"]
    # the agent registry's kinds that may face a person (never cheat-ismcts)
    assert kiwara["agents"] == ["random", "greedy", "mcts", "ismcts", "expert"]
    assert awimbawe["agents"] == ["random", "greedy", "ismcts"]
    assert kiwara["budgeted"] == ["mcts", "ismcts"] and awimbawe["budgeted"] == ["ismcts"]
    assert "gazelles_3" in kiwara["variants"] and "gamepark" in awimbawe["variants"]
    assert awimbawe["title"] == "Awimbawé"
    # the Test view starts from the lab's default pairing (Kiwara's: the skill study's choice)
    assert kiwara["lab_agents"] == ["mcts:200", "mcts:200"]
    assert awimbawe["lab_agents"] == ["greedy", "greedy"]
    assert found["palette"] == list("ABCDEFGH") and len(found["tints"]) == 8


# -- print files --------------------------------------------------------------------------------
def test_print_svg_is_the_export_board():
    made = api.print_file(CLASSIC, "svg", title="classic")
    svg = made.data.decode()
    assert made.name == "classic.svg" and made.mimetype == "image/svg+xml"
    assert 'width="297mm"' in svg and svg.count('class="river"') == 25


@pytest.mark.skipif(not cairo_available(), reason="PDF needs cairosvg and the cairo library")
def test_print_pdf_and_kit():
    board = api.print_file(CLASSIC, "pdf", paper="letter", crop_marks=True, bleed_mm=3.0)
    assert board.data.startswith(b"%PDF") and board.data.count(b"/Type /Page\n") + \
        board.data.count(b"/Type /Page ") >= 1
    kit = api.print_file(CLASSIC, "pdf", kit=True, variant="gazelles_3", backs="duplex")
    assert kit.name == "kiwara-board-kit.pdf" and len(kit.data) > len(board.data)
    with pytest.raises(api.StudioError, match="download the PDF"):
        api.print_file(CLASSIC, "svg", kit=True)


@pytest.mark.parametrize("options, words", [
    ({"format": "docx"}, "format: unknown 'docx'"),
    ({"paper": "a9"}, "unknown paper 'a9'"),
    ({"cell_mm": 500}, "cell size (mm) must be from 10 to 200"),
    ({"bleed_mm": "3"}, "bleed (mm) must be a number"),
    ({"variant": "/etc/passwd"}, "variant: unknown '/etc/passwd'"),
    ({"kit": "yes"}, "kit must be true or false"),
    ({"title": "x" * 61}, "title is 61 characters long; at most 60"),
    ({"title": "two\nlines"}, "title: 'two\\nlines' is not of the form"),
    ({"format": "svg", "kit": True, "page": 4}, "page must be from 1 to 3, got 4"),
    # issue 27: a 120 × 120 mm paper with 200 mm cells built 419 pages for a preview
    ({"paper": "120x120", "cell_mm": 200}, "the board at 200 mm cells needs 419 pages of "
                                           "120x120mm paper; the studio prints at most 40: use "
                                           "smaller cells or larger paper (or `kiwara export`)"),
])
def test_print_options_are_checked(options, words):
    with pytest.raises(KiwaraError, match=re.escape(words)):
        api.print_file(CLASSIC, **options)


# -- the server: guard, errors -----------------------------------------------------------------
def test_token_is_required(client):
    assert client.get("/api/catalogue").status_code == 403
    wrong = client.get("/api/catalogue", headers={"X-Studio-Token": "nope"})
    assert wrong.status_code == 403 and "token" in wrong.get_json()["error"]
    assert client.get(f"/api/catalogue?token={TOKEN}").status_code == 200
    assert client.get("/").status_code == 403
    page = client.get(f"/?token={TOKEN}")
    assert page.status_code == 200 and b"studio.js" in page.data
    assert page.headers["X-Content-Type-Options"] == "nosniff"
    assert "script-src 'self'" in page.headers["Content-Security-Policy"]
    assert client.get("/static/studio.js").status_code == 200      # no data: no token


def test_bad_requests_get_json_errors(client):
    cases = [
        (post(client, "/api/board/check", {"rows": "ABC"}), 400, "rows must be a list"),
        (client.post("/api/board/check", data="{not json", headers=AUTH), 400, "not JSON"),
        (client.post("/api/board/check", data="[1, 2]", headers=AUTH), 400, "JSON object"),
        (client.post("/api/board/check", data="[" * 100_000 + "]" * 100_000, headers=AUTH),
         400, "nested too deeply"),
        (client.post("/api/board/check", data=json.dumps({"rows": ["A" * (MAX_BODY + 1)]}),
                     headers=AUTH), 413, "request body over"),
        (post(client, "/api/board/check", {"rows": CLASSIC, "colour": 1}), 400,
         "unknown field 'colour'"),
        (post(client, "/api/board/check", {}), 400, "missing field 'rows'"),
        (post(client, "/api/board/builtin", {"name": "atlantis"}), 400,
         "layout: unknown 'atlantis'"),
        (post(client, "/api/board/builtin", {"name": "../../etc/passwd"}), 400, "unknown"),
        (post(client, "/api/kiwara/new", {"rows": CLASSIC, "agent": "deep-blue"}), 400,
         "agent: unknown 'deep-blue'"),
        (post(client, "/api/kiwara/new", {"rows": CLASSIC, "agent": "mcts",
                                          "iterations": 10 ** 9}), 400,
         "mcts iterations must be from 10 to 5,000"),
        (get(client, "/api/kiwara/g999"), 404, "no kiwara game of that id"),
        (get(client, "/api/chess/g1"), 404, "no such game; the studio plays kiwara, awimbawe"),
        (get(client, "/api/jobs/nope"), 404, "no such job"),
        (post(client, "/api/board/check", {"rows": CLASSIC, "G4": 1}), 400,
         "unknown field; fields: rows, rules"),
        (get(client, "/nowhere"), 404, "no such address"),
        (client.delete("/api/catalogue", headers=AUTH), 405, "not allowed"),
        (client.get(f"/api/print?token={TOKEN}&rows=ABC,AB"), 400, "rows of different"),
        (client.get(f"/api/print?token={TOKEN}&rows=ABCCCC&dpi=lots"), 400,
         "dpi must be a number"),
    ]
    for response, status, words in cases:
        assert response.status_code == status, (words, response.get_json())
        message = response.get_json()["error"]
        assert words in message and "Traceback" not in message


def test_an_internal_error_is_a_json_500_without_trace(client, monkeypatch):
    def broken():
        raise RuntimeError("secret detail")
    monkeypatch.setattr(api, "catalogue", broken)
    response = get(client, "/api/catalogue")
    assert response.status_code == 500
    assert response.get_json() == {"error": "internal error (see the server's log)"}


def test_board_endpoints(client):
    checked = post(client, "/api/board/check", {"rows": SPLIT, "rules": "free-play"}).get_json()
    assert not checked["valid"] and "f5" in checked["bad_cells"]
    builtin = post(client, "/api/board/builtin", {"name": "president"}).get_json()
    assert builtin["known_board"] == "president"
    pasted = post(client, "/api/board/parse", {"text": "\n".join(CLASSIC)}).get_json()
    assert pasted["known_board"] == "classic"
    drawn = post(client, "/api/board/random", {"seed": 7, "mix": "3,3,5,5,7,7"}).get_json()
    assert drawn["seed"] == 7 and drawn["valid"]


@pytest.mark.parametrize("title, name", [
    ('Tom & Jerry: "the <board>"', "tom-jerry-the-board.svg"),
    ("l'île aux crocodiles", "l-île-aux-crocodiles.svg"),
    ("#3 (mirror) + 1.5", "3-mirror-1-5.svg"),
])
def test_print_titles_with_any_characters(title, name):
    # issue 27: a title with &, :, quotes or < was refused (400) and the Print view said nothing
    made = api.print_file(CLASSIC, "svg", title=title)
    assert made.name == name
    svg = made.data.decode()
    escaped = title.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    assert escaped in svg or escaped.replace('"', "&quot;") in svg
    import xml.etree.ElementTree as ElementTree
    ElementTree.fromstring(made.data)               # still well-formed XML


def test_print_preview_shows_every_page_and_builds_them_once(monkeypatch):
    from kiwara_designer.games.kiwara.studio import prints
    built = []
    original = prints.print_set
    monkeypatch.setattr(prints, "print_set", lambda *a, **k: built.append(1) or original(*a, **k))
    prints.pages_of.cache_clear()
    kit = api.print_preview(CLASSIC, kit=True, title="kit & pages", page=2)
    assert [p["name"] for p in kit["pages"]] == ["board", "tokens", "rules"]
    assert kit["page"] == 2 and "<svg" in kit["svg"] and kit["stem"] == "kit-pages-kit"
    assert api.print_preview(CLASSIC, kit=True, title="kit & pages", page=3)["page"] == 3
    # the SVG and PNG of a page of the kit: the downloads follow the page shown
    tokens = api.print_file(CLASSIC, "svg", kit=True, title="kit & pages", page=2)
    assert tokens.name == "kit-pages-kit-tokens.svg" and tokens.data.decode() == kit["svg"]
    assert len(built) == 1                          # one build for the preview's pages and the file
    # a tiled board: its assembly map and sheets, each previewed
    tiled = api.print_preview(CLASSIC, cell_mm=60, page=99)
    assert len(tiled["pages"]) == 7 and tiled["page"] == 7 and tiled["pages"][1]["name"] == "board-1"
    single = api.print_preview(CLASSIC)
    assert len(single["pages"]) == 1 and single["page"] == 1


def test_print_preview_endpoint_and_errors(client):
    answer = post(client, "/api/print/preview", {"rows": CLASSIC, "kit": True,
                                                 "title": "Tom & Jerry: <b>", "page": 3})
    assert answer.status_code == 200 and answer.get_json()["page"] == 3
    refused = post(client, "/api/print/preview", {"rows": CLASSIC, "paper": "120x120",
                                                  "cell_mm": 200})
    assert refused.status_code == 400 and "at most 40" in refused.get_json()["error"]
    # SVG of a multi-page print without a page: said in words, with what to do
    several = client.get(f"/api/print?token={TOKEN}&rows={','.join(CLASSIC)}&format=svg&kit=1")
    assert several.status_code == 400
    assert several.get_json()["error"] == ("this print is 3 pages; SVG holds one page: choose "
                                           "one, or download the PDF")
    page = client.get(f"/api/print?token={TOKEN}&rows={','.join(CLASSIC)}&format=svg&kit=1"
                      f"&page=2&title=" + urllib.parse.quote("Tom & Jerry: <b>"))
    assert page.status_code == 200
    assert page.headers["Content-Disposition"] == \
        'attachment; filename="tom-jerry-b-kit-tokens.svg"'
    accented = client.get(f"/api/print?token={TOKEN}&rows={','.join(CLASSIC)}&format=svg"
                          f"&title=" + urllib.parse.quote("Île 漢"))
    assert accented.headers["Content-Disposition"] == \
        "attachment; filename=\"ile.svg\"; filename*=UTF-8''%C3%AEle-%E6%BC%A2.svg"


@pytest.mark.parametrize("name", ["classic", "president", "long-grass", "three-sevens"])
def test_the_screen_board_has_the_prints_colours(name):
    # issue 27: Draw/Play coloured territories by letter, the print by order of appearance (D
    # differed on classic); both now take the print's rule
    from kiwara_designer.games.kiwara.formats import load_layout
    from kiwara_designer.games.kiwara.printing.screen import screen_board, territory_colours
    layout = load_layout(name)
    cell_fill = re.compile(r'<rect ([^>]*class="cell"[^>]*)>')

    def colours(svg):
        found = {}
        for attributes in cell_fill.findall(svg):
            cell = re.search(r'data-cell="(\w+)"', attributes).group(1)
            found[cell] = (re.search(r'data-territory="(\w)"', attributes).group(1),
                           re.search(r'fill="([^"]+)"', attributes).group(1))
        return found

    printed = colours(api.print_file(list(layout.rows), "svg").data.decode())
    screen = colours(screen_board(layout))
    assert len(printed) == 30 and screen == printed
    # renamed territories (D and F swapped), drawn with the print's colours all the same
    renamed = [row.translate(str.maketrans("DF", "FD")) for row in layout.rows]
    assert colours(screen_board(board_from_rows(renamed))) == colours(
        api.print_file(renamed, "svg").data.decode())
    # the report's colours say the same, by name, for the page's palette and chips
    report = api.check_board(list(layout.rows))
    assert report["colours"] == territory_colours(layout)
    assert {t: c for t, c in screen.values()} == report["colours"]


def test_print_download(client):
    response = client.get(f"/api/print?token={TOKEN}&rows={','.join(CLASSIC)}&format=svg"
                          f"&crop_marks=1&bleed_mm=3&title=classic")
    assert response.status_code == 200
    assert response.headers["Content-Disposition"] == 'attachment; filename="classic.svg"'
    assert b'class="crop-mark"' in response.data or b"crop" in response.data


# -- Kiwara games --------------------------------------------------------------------------------
def agent_moves(client, game: str, view: dict) -> dict:
    answer = post(client, f"/api/{game}/{view['id']}/agent").get_json()
    if "job" in answer:
        job = wait_job(client, answer["job"])
        assert job["state"] == "done", job
        return get(client, f"/api/{game}/{view['id']}").get_json()
    return answer["view"]


def test_kiwara_game_to_the_end_against_random(client):
    view = post(client, "/api/kiwara/new", {"rows": CLASSIC, "agent": "random", "seat": 0,
                                            "seed": 5}).get_json()
    assert view["your_turn"] and len(view["legal"]) == 22 and view["totem"] is None
    rng = random.Random(3)
    while not view["over"]:
        if view["your_turn"]:
            move = rng.choice(view["legal"])
            view = post(client, f"/api/kiwara/{view['id']}/move", {"move": move["text"]}).get_json()
            assert "error" not in view, view
        else:
            view = agent_moves(client, "kiwara", view)
    assert view["legal"] == [] and sum(view["scores"]) % 2 == 1      # never a draw
    assert view["verdict"].startswith(f"final: {view['scores'][0]}–{view['scores'][1]}")
    record = get(client, f"/api/kiwara/{view['id']}/record")
    assert record.headers["Content-Disposition"].startswith("attachment")
    replayed = KiwaraRecord.from_dict(json.loads(record.data)).replay()
    assert list(replayed.scoring().totals) == view["scores"]
    assert json.loads(record.data)["result"]["scores"] == view["scores"]


def test_kiwara_move_effects_are_told(studio):
    # the README's replay: a crocodile swap, then a lion that makes the gazelle flee
    view = studio.new_game("kiwara", rows=CLASSIC, agent="random", seat=0, seed=1)
    session = studio.sessions[view["id"]]
    for text in ("T7", "Gb2>8", "Cb3xb2>9"):
        studio._apply(session, session.game.parse_move(session.state, text))
    assert session.last["placed"] == ["b3", "b2"]
    assert "swaps with the gazelle on b2" in session.last["words"]
    studio._apply(session, session.game.parse_move(session.state, "Lb4>10"))
    assert session.last["fled"] == ["b3"] and "flees back to hand" in session.last["words"]
    studio._apply(session, session.game.parse_move(session.state, "Zb5>11"))
    assert "face down: next to a lion" in session.last["words"]


def test_illegal_and_untimely_moves_are_refused(client):
    view = post(client, "/api/kiwara/new", {"rows": CLASSIC, "agent": "greedy",
                                            "seat": 1, "seed": 2}).get_json()
    assert not view["your_turn"]
    early = post(client, f"/api/kiwara/{view['id']}/move", {"move": "T7"})
    assert early.status_code == 400 and "agent's turn" in early.get_json()["error"]
    view = agent_moves(client, "kiwara", view)
    assert view["your_turn"] and view["line_cells"]
    bad = post(client, f"/api/kiwara/{view['id']}/move", {"move": "Zz9>1"})
    assert bad.status_code == 400 and "no cell 'z9'" in bad.get_json()["error"]
    off_line = next(c for c in ("a1", "f5", "a5", "f1") if c not in view["line_cells"])
    wrong = post(client, f"/api/kiwara/{view['id']}/move", {"move": f"Z{off_line}>1"})
    assert wrong.status_code == 400
    assert post(client, f"/api/kiwara/{view['id']}/move", {"move": 7}).status_code == 400


def test_kiwara_record_load_goes_on_from_the_last_move(client):
    record = {"layout": "classic", "moves": ["T7", "Gb2>8", "Cb3xb2>9", "Lb4>10"]}
    view = post(client, "/api/kiwara/load", {"record": json.dumps(record),
                                             "agent": "greedy"}).get_json()
    assert view["ply"] == 4 and view["you"] == 0 and view["your_turn"]   # T7 was the first
    # player's, then the second places first: after four moves the first is to move
    assert view["totem"] == 10
    bad = dict(record, moves=["T7", "Gb2>8", "Cb3xb2>9", "Lb4>8"])
    refused = post(client, "/api/kiwara/load", {"record": json.dumps(bad)})
    assert refused.status_code == 400
    assert "move 4 ('Lb4>8') is illegal" in refused.get_json()["error"]
    assert post(client, "/api/kiwara/load", {"record": "{"}).status_code == 400


# -- the seed rule: a game with chance or hidden information keeps its seed until the end ------
@pytest.fixture
def deck_rules(monkeypatch):
    """Kiwara with the reinforcement deck (no built-in variant has one): offered to the page as
    "deck" by the Kiwara adapter."""
    from kiwara_designer.games.kiwara import KiwaraVariant
    from kiwara_designer.games.kiwara.studio import ADAPTER
    deck = dataclasses.replace(KiwaraVariant(), reinforcement="deck", name="deck")

    class WithDeck:
        @staticmethod
        def builtin_names() -> list[str]:
            return [*KiwaraVariant.builtin_names(), "deck"]

        @staticmethod
        def load(name: str) -> KiwaraVariant:      # the studio asks for built-ins only
            return deck if name == "builtin:deck" else KiwaraVariant.load(name)

    monkeypatch.setattr(ADAPTER, "variants", WithDeck)
    return deck


def test_the_seed_rule_follows_the_games_facts(deck_rules):
    from kiwara_designer.games.awimbawe.game import AWIMBAWE
    from kiwara_designer.games.kiwara import KIWARA, KiwaraVariant
    from kiwara_designer.table import seed_is_secret
    assert not seed_is_secret(KIWARA, KiwaraVariant())          # open, no chance: harmless
    assert seed_is_secret(KIWARA, deck_rules)                   # the seed orders the deck
    assert seed_is_secret(AWIMBAWE, AWIMBAWE.default_variant())


def test_a_classic_kiwara_game_shows_its_seed_from_the_start(client):
    view = post(client, "/api/kiwara/new", {"rows": CLASSIC, "agent": "random",
                                            "seed": 5}).get_json()
    assert view["seed"] == 5
    assert json.loads(get(client, f"/api/kiwara/{view['id']}/record").data)["seed"] == 5


def test_a_kiwara_deck_game_keeps_its_seed_until_the_end(client, drawn_seeds, deck_rules):
    studio = client.application.config["STUDIO"]
    refused = post(client, "/api/kiwara/new", {"rows": CLASSIC, "variant": "deck", "seed": 5})
    assert refused.status_code == 400
    assert "never chosen (it would tell you every deal)" in refused.get_json()["error"]
    seed = 6_120_553_407_119_004_311
    drawn_seeds[0].append(seed)
    view = post(client, "/api/kiwara/new", {"rows": CLASSIC, "agent": "random",
                                            "variant": "deck"}).get_json()
    session = studio.sessions[view["id"]]
    assert session.seed == seed and drawn_seeds[1] == [63]
    rng = random.Random(7)
    while not view["over"]:
        assert "seed" not in view and str(seed) not in json.dumps(view)
        record = get(client, f"/api/kiwara/{view['id']}/record").data.decode()
        assert str(seed) not in record
        if view["your_turn"]:
            view = post(client, f"/api/kiwara/{view['id']}/move",
                        {"move": rng.choice(view["legal"])["text"]}).get_json()
        else:
            view = agent_moves(client, "kiwara", view)
    assert view["seed"] == seed and any("drawn from the deck" in line for line in session.log)
    # the record holds the draws: it replays to the same end, and now gives the seed
    record = json.loads(get(client, f"/api/kiwara/{view['id']}/record").data)
    assert record["seed"] == seed
    assert list(KiwaraRecord.from_dict(record).replay().scoring().totals) == view["scores"]


def test_a_loaded_deck_record_gets_a_secret_seed(client, drawn_seeds, deck_rules):
    """The record's own seed ordered its deck: the rest of the game is drawn from a new one, and
    the record the page saves holds the cards dealt so far, not the loaded deck's order."""
    rules = dataclasses.replace(deck_rules, handicap=(1, 1))     # two cards dealt at setup
    order = [card.name for card in reversed(rules.cards)]
    record = KiwaraRecord.from_moves(board_from_rows(CLASSIC), rules, ["T7"], deck=order,
                                     seed=9).to_dict()
    drawn_seeds[0].append(31)
    view = post(client, "/api/kiwara/load", {"record": json.dumps(record)}).get_json()
    assert "seed" not in view and view["ply"] == 1 and sorted(sum(view["hands"], [])) == \
        sorted(order[:2])
    assert client.application.config["STUDIO"].sessions[view["id"]].seed == 31
    saved = KiwaraRecord.from_dict(json.loads(get(client, f"/api/kiwara/{view['id']}/record")
                                              .data))
    assert "seed" not in saved.extra and list(saved.deck[:2]) == order[:2]
    replayed = saved.replay()
    assert [list(replayed.hand(p)) for p in (0, 1)] == view["hands"]


def test_mcts_agent_moves_through_a_job(client):
    view = post(client, "/api/kiwara/new", {"rows": CLASSIC, "agent": "mcts", "iterations": 20,
                                            "seat": 1, "seed": 4}).get_json()
    view = agent_moves(client, "kiwara", view)
    assert view["ply"] == 1 and view["totem"] is not None and view["your_turn"]


def test_an_agent_refused_by_the_rules_is_told_without_the_engines_words(client):
    """The engine refuses an illegal move in words about the mover's own cards: from the agent,
    those are cards the person does not see, so the page gets plain words instead."""
    studio = client.application.config["STUDIO"]
    view = post(client, "/api/awimbawe/new", {"agent": "random", "seat": 0}).get_json()
    if view["your_turn"]:
        view = post(client, f"/api/awimbawe/{view['id']}/move",
                     {"move": view["legal"][0]["text"]}).get_json()
    session = studio.sessions[view["id"]]
    theirs = {NAMES[c] for c in cards_of(session.state.hand[1])}
    mine = view["hand"][0]["name"]                  # never a card the agent may play
    session.agent = SimpleNamespace(choose=lambda state, rng: mine)
    answer = post(client, f"/api/awimbawe/{view['id']}/agent").get_json()
    job = wait_job(client, answer["job"]) if "job" in answer else None
    view = get(client, f"/api/awimbawe/{view['id']}").get_json()
    said = json.dumps([job, view["log"]])
    assert "the agent could not make a legal move (a bug in the agent)" in said
    assert not any(re.search(rf"\b{name}\b", said) for name in theirs), said

# -- play-test jobs ------------------------------------------------------------------------------
def test_playtest_job_reports_progress_and_metrics(client):
    job = post(client, "/api/playtest", {"rows": CLASSIC, "agent": "random", "games": 6,
                                         "seed": 1}).get_json()
    job = wait_job(client, job)
    assert job["state"] == "done" and job["done"] == job["total"] == 6
    result = job["result"]
    assert result["games"] == 6 and result["agents"] == ["random", "random"]
    rate = result["first_player_win"]
    assert rate["low"] <= rate["value"] <= rate["high"]
    assert result["margin"]["low"] <= result["margin"]["mean"] <= result["margin"]["high"]


def test_playtest_gives_kiwara_fairs_verdict_first_an_odd_last_game_left_out(client):
    # issue 34, point 2: 21 games are 10 seat-swapped pairs and one game without its partner,
    # left out; the verdict is `kiwara fair`'s on the same 20 games (its budget: 21, even down)
    job = wait_job(client, post(client, "/api/playtest", {"rows": CLASSIC, "agent": "random",
                                                          "games": 21, "seed": 1}).get_json())
    assert job["state"] == "done" and job["result"]["games"] == 21
    verdict = job["result"]["fairness"]
    fair = CliRunner().invoke(main, ["fair", "classic", "--agents", "random", "--seed", "1",
                                     "--max-games", "21", "-j", "1", "--json"])
    assert fair.exit_code == 1, fair.output                     # it cannot tell: exit 1
    expected = json.loads(fair.output)
    assert verdict == {"verdict": expected["verdict"], "outcome": "cannot tell",
                       "rate": expected["rate"], "low": expected["low"],
                       "high": expected["high"], "games": 20, "precision": 0.02,
                       "unpaired": 1}
    assert verdict["verdict"].startswith("cannot tell for random players within 20 games: ")


def _first_wins(games: int, winner=lambda i: 0) -> list[GameResult]:
    """Hand-built results of seat-swapped pairs: game i won by seat ``winner(i)`` (None: a
    draw)."""
    return [GameResult(i, i // 2, i % 2, winner(i), (1.0, 0.0), 10, 5, 3.0, 1, 1.0)
            for i in range(games)]


def test_fairness_of_games_played_the_verdict_in_words():
    first = fairness_of_games(_first_wins(200), "random")
    assert (first.outcome, first.games, first.rate, first.high) == (FAVOURS_FIRST, 200, 1.0, 1.0)
    assert 0.9 < first.low < 1
    assert first.verdict().startswith("favours the first player for random players by 50.0 points")
    second = fairness_of_games(_first_wins(200, lambda i: 1), "greedy,random")
    assert second.outcome == FAVOURS_SECOND and second.players == "greedy and random"
    # each pair split (the seat wins both games): even, known to ±0.7 points in 2,000 games
    even = fairness_of_games(_first_wins(2000, lambda i: i % 2), "mcts:200")
    assert even.outcome == FAIR and even.low < 0.5 < even.high and even.half_width <= 0.02
    assert even.verdict().startswith("fair for mcts:200 players at ±2.0 points")
    # not enough games for ±2 points, and no clear advantage: cannot tell
    few = fairness_of_games(_first_wins(200, lambda i: i % 2), "random")
    assert few.outcome == UNDECIDED and few.half_width > 0.02
    assert fairness_of_games(_first_wins(200, lambda i: i % 2), "random", precision=0.1) \
        .outcome == FAIR
    # a game without its partner (the last of an odd count, or one missing) is left out
    odd = fairness_of_games(_first_wins(201), "random")
    assert odd.games == 200 and odd == first
    holed = [r for r in _first_wins(200) if r.index != 7]
    assert fairness_of_games(holed, "random").games == 198
    with pytest.raises(FairnessError, match="at least one pair"):
        fairness_of_games(_first_wins(1), "random")
    with pytest.raises(FairnessError, match="precision"):
        fairness_of_games(_first_wins(200), "random", precision=0.5)


def test_fairness_of_games_is_judge_fairnesss_own_look(monkeypatch):
    # one computation: judge_fairness's answer is fairness_of_games over its games and rounds
    from kiwara_designer.lab import fairness
    played = []

    def play(setup, variant, pairing, games, seed, workers, game, first_index=0,
             progress=None):
        new = [GameResult(i, i // 2, i % 2, 0 if random.Random(f"7/{i}").random() < 0.53
                          else 1, (1.0, 0.0), 10, 5, 3.0, 1, 1.0)
               for i in range(first_index, first_index + games)]
        played.append(new)
        return list(new)

    monkeypatch.setattr(fairness, "play_games", play)
    judged = fairness.judge_fairness(pairing="random", precision=0.03, max_games=20_000)
    games = [result for batch in played for result in batch]
    looks = list(itertools.accumulate(len(batch) for batch in played))
    again = fairness_of_games(games, "random", 0.03, looks)
    assert len(played) > 1 and judged.games == len(games)
    assert dataclasses.replace(judged, seconds=0.0, metrics=None) == again


def test_playtest_cancel_and_limits(client):
    job = post(client, "/api/playtest", {"rows": CLASSIC, "agent": "greedy",
                                         "games": 2000}).get_json()
    cancelled = post(client, f"/api/jobs/{job['id']}/cancel").get_json()
    assert cancelled["id"] == job["id"]
    assert wait_job(client, cancelled)["state"] == "cancelled"
    too_many = post(client, "/api/playtest", {"rows": CLASSIC, "games": 5000})
    assert too_many.status_code == 400
    too_much = post(client, "/api/playtest", {"rows": CLASSIC, "agent": "mcts",
                                              "iterations": 5000, "games": 100})
    assert too_much.status_code == 400 and "kiwara playtest" in too_much.get_json()["error"]
    # the expert's 10,000 iterations a move count though its spec does not write them
    experts = post(client, "/api/playtest", {"rows": CLASSIC, "agent": "expert", "games": 20})
    assert experts.status_code == 400 and "expert" in experts.get_json()["error"]


def test_job_registry_bounds_running_jobs():
    jobs = Jobs(max_running=1)
    release = threading.Event()
    first = jobs.start("wait", lambda job: release.wait())
    with pytest.raises(KiwaraError, match="1 jobs are already running"):
        jobs.start("more", lambda job: None)
    release.set()
    assert first.wait(60) and first.state == "done"
    failing = jobs.start("bug", lambda job: 1 / 0)
    assert failing.wait(60) and failing.error == "internal error (see the server's log)"


# -- Awimbawé: only what the player may see ------------------------------------------------------
# Any card's name in an answer (the notation's: G1 … P6, E7 … E10).
CARD_NAME = re.compile(r"(?<![A-Za-z0-9])(?:[GDMP][1-6]|E(?:7|8|9|10))(?![0-9])")


@pytest.fixture
def drawn_seeds(monkeypatch):
    """The studio draws an Awimbawé match's seed from ``secrets``; the test stands in for it, so
    its matches are the same on every run. Append the next matches' seeds to ``seeds``;
    ``asked`` gets the number of bits asked for at each draw."""
    seeds, asked = [], []

    def randbits(bits: int) -> int:
        asked.append(bits)
        return seeds.pop(0)

    monkeypatch.setattr(secrets, "randbits", randbits)
    return seeds, asked


def unseen_names(state, seat: int, k: int) -> set[str]:
    """Names of the cards ``seat`` had not seen (by the end of) round ``k`` (0-based), from the
    information module's own mask of seen cards: the opponent's hand, face-down pile cards,
    cards not dealt. A finished round is read from its result (its deck and events)."""
    if k < len(state.rounds):
        r = state.rounds[k]
        state = SimpleNamespace(deck=r.deck, events=r.events, variant=state.variant)
    seen = seen_cards(state, seat)
    return {NAMES[c] for c in CARDS if not seen & BIT[c]}


def current_round(state) -> int:
    return len(state.rounds) - 1 if state.is_terminal() else len(state.rounds)


def log_by_round(log: list[str], current: int):
    """The log's lines with the round (0-based) each tells: the log keeps earlier rounds, whose
    cards were seen then, and each round ends on its "round N over" line."""
    k = current
    for line in reversed(log):
        over = re.match(r"round (\d+) over", line)
        if over:
            k = int(over.group(1)) - 1
        yield k, line


def assert_only_seen_cards(view: dict, state, seat: int) -> None:
    """No part of ``view`` names a card ``seat`` has not seen (each part against its round)."""
    k = current_round(state)
    rest = {key: value for key, value in view.items() if key not in ("log", "last_trick")}
    assert not set(CARD_NAME.findall(json.dumps(rest))) & unseen_names(state, seat, k), view
    trick = view["last_trick"]
    if trick is not None:
        named = set(CARD_NAME.findall(json.dumps(trick)))
        assert not named & unseen_names(state, seat, trick["round"] - 1), trick
    for round_index, line in log_by_round(view["log"], k):
        assert not set(CARD_NAME.findall(line)) & unseen_names(state, seat, round_index), line


def play_awimbawe(client, view: dict, rng: random.Random, check) -> dict:
    """Play the match on from ``view`` (the person's moves drawn by ``rng``) to the end, calling
    ``check(view, response_kind)`` on every answer."""
    game_id = view["id"]
    while not view["over"]:
        if view["your_turn"]:
            move = rng.choice(view["legal"])
            view = post(client, f"/api/awimbawe/{game_id}/move", {"move": move["text"]}).get_json()
            assert "error" not in view, view
            check(view, "move")
        else:
            view = agent_moves(client, "awimbawe", view)
            check(view, "agent")
        check(get(client, f"/api/awimbawe/{game_id}").get_json(), "view")
    return view


@pytest.mark.parametrize("seat, agent, seed", [(0, "random", 8_317_045_660_129_473_011),
                                               (1, "greedy", 5_902_118_734_006_251_729)])
def test_awimbawe_match_shows_only_what_the_player_may_see(client, drawn_seeds, seat, agent,
                                                           seed):
    studio = client.application.config["STUDIO"]
    drawn_seeds[0].append(seed)
    view = post(client, "/api/awimbawe/new", {"agent": agent, "seat": seat}).get_json()
    game_id = view["id"]
    session = studio.sessions[game_id]
    assert session.seed == seed
    early = get(client, f"/api/awimbawe/{game_id}/record")
    assert early.status_code == 400 and "once the match is over" in early.get_json()["error"]
    answers = []

    def check(answer: dict, kind: str) -> None:
        assert_only_seen_cards(answer, session.state, seat)
        if not answer["over"]:
            # no seed while the match runs: it would rebuild every deal
            assert "seed" not in answer and str(seed) not in json.dumps(answer), answer
        answers.append(kind)

    check(view, "new")
    view = play_awimbawe(client, view, random.Random(2), check)
    assert len(answers) > 60 and view["winner"] in (0, 1)
    assert max(view["rounds_won"]) == len([r for r in view["rounds"]
                                           if r["winner"] == view["winner"]])
    # once over: the seed and the record, and no round after the last one played
    assert view["seed"] == seed and view["round"] == len(view["rounds"])
    assert view["last_trick"]["round"] == len(view["rounds"]) and view["legal"] == []
    record = get(client, f"/api/awimbawe/{game_id}/record")
    assert record.status_code == 200
    record = json.loads(record.data)
    assert record["players"][seat] == "you" and record["seed"] == seed


def test_awimbawe_hidden_cards_exist_to_be_hidden(studio, drawn_seeds):
    """The checks above are not vacuous: at the start the opponent holds cards never seen, and
    the state (not the view) names them."""
    drawn_seeds[0].append(11)
    view = studio.new_game("awimbawe", agent="random", seat=0)
    state = studio.sessions[view["id"]].state
    hidden = unseen_names(state, 0, 0)
    opponent = {NAMES[c] for c in cards_of(state.hand[1])}
    assert len(hidden) == 14 and opponent <= hidden        # their hand and the 8 face-down cards
    assert set(CARD_NAME.findall(json.dumps(state.observation(1).hand))) == opponent


def move_attacks() -> list[str]:
    """What a person might type: every blind snake with a chosen pick (4 snakes × 28 cards),
    every move the notation knows (chance outcomes too: deal:G4, h=G4, leader:0), and
    garbage, malformed and over-long text."""
    picks = [f"{suit}5:h={NAMES[c]}" for suit in "GDMP" for c in CARDS]
    garbage = ["", " ", "G", "G7", "E6", "E11", "X5:h=D3", "G5:h=", "G5:h=D3=D4", "G5:h=Z9",
               "g5:H=d3", "G5 : h=D3", "G5:h=D3 ", "G5:hD3", "M5:p9", "M5:p0", "D2:5>1", "D2:1>",
               "E9:run", "start", "start:them", "deal:", "h=", "leader:2", "hello D3", "D3,G4",
               "D3 G4", "G4\nD3", "é", "\x00G4", "G4" * 40, "G5:h=D3" + " " * 80, "D3" * 41]
    return picks + sorted(set(MOVES) - set(picks)) + garbage


BAD_BODIES = [{"move": ["D3"]}, {"move": 5}, {"move": None}, {"move": {"G5": "h=D3"}},
              {"D3": "G4"}, {"move": "G4", "E9": 1}, {}]


def test_awimbawe_refusals_never_name_an_unseen_card(client, drawn_seeds):
    """Through the real routes, in many positions of three seeded matches: every illegal text
    (and malformed body) is refused in words that name no card the person has not seen, and a
    chosen blind pick gets the same answer whatever card it names."""
    studio = client.application.config["STUDIO"]
    attacks = move_attacks()
    positions = picks_refused = 0
    for seat, agent, variant, seed in [(0, "random", "classic", 3), (1, "greedy", "classic", 8),
                                       (0, "random", "gamepark", 21)]:
        drawn_seeds[0].append(seed)
        view = post(client, "/api/awimbawe/new", {"agent": agent, "seat": seat,
                                                  "variant": variant}).get_json()
        game_id = view["id"]
        url = f"/api/awimbawe/{game_id}/move"
        session = studio.sessions[game_id]
        rng = random.Random(seed)
        turn = 0
        while not view["over"]:
            if not view["your_turn"]:
                view = agent_moves(client, "awimbawe", view)
                continue
            legal = {m["text"] for m in view["legal"]}
            if turn % 5 == 0 or any(m.endswith(":h") for m in legal):
                positions += 1
                state = session.state
                hidden = unseen_names(state, seat, current_round(state))
                answers = {}
                for text in attacks:
                    if text in legal:
                        continue
                    response = post(client, url, {"move": text})
                    body = response.get_json()
                    assert response.status_code == 400 and list(body) == ["error"], (text, body)
                    assert not set(CARD_NAME.findall(body["error"])) & hidden, (text, body)
                    assert "Traceback" not in body["error"] and "\n" not in body["error"]
                    answers[text] = body["error"]
                for body in BAD_BODIES:
                    response = post(client, url, body)
                    error = response.get_json()["error"]
                    assert response.status_code == 400
                    assert not set(CARD_NAME.findall(error)) & hidden, (body, error)
                raw = client.post(url, data="G5:h=D3", headers=AUTH)
                assert raw.status_code == 400 and "D3" not in raw.get_json()["error"]
                for suit in "GDMP":
                    said = {answers[f"{suit}5:h={NAMES[c]}"] for c in CARDS}
                    assert len(said) == 1, said          # the pick changes nothing in the words
                    picks_refused += f"{suit}5:h" in legal
                assert session.state is state            # nothing was played
            turn += 1
            move = rng.choice(view["legal"])["text"]
            view = post(client, url, {"move": move}).get_json()
            assert "error" not in view, view
    # the attacks met every kind of position, the chosen pick among the offered snake's moves
    assert positions >= 30 and picks_refused >= 20


# -- Awimbawé: the seed stays the studio's until the end ------------------------------------------
def test_awimbawe_seeds_are_drawn_from_secrets(studio, drawn_seeds):
    seeds, asked = drawn_seeds
    seeds += [2 ** 62 + 5, 2 ** 62 + 5, 7]
    first, again, other = (studio.new_game("awimbawe", agent="random") for _ in range(3))
    assert asked == [63, 63, 63]                  # 63 bits: the records' seeds are below 2**63
    state = [studio.sessions[v["id"]].state for v in (first, again, other)]
    assert state[0].deck == state[1].deck != state[2].deck   # the drawn seed makes the deal
    assert [studio.sessions[v["id"]].seed for v in (first, again, other)] == \
        [2 ** 62 + 5, 2 ** 62 + 5, 7]


def test_awimbawe_seeds_differ_without_a_stand_in(studio):
    views = [studio.new_game("awimbawe", agent="random") for _ in range(2)]
    sessions = [studio.sessions[v["id"]] for v in views]
    assert sessions[0].seed != sessions[1].seed and sessions[0].state.deck != sessions[1].state.deck
    assert all("seed" not in v for v in views)


def test_awimbawe_seed_may_not_be_chosen(client):
    refused = post(client, "/api/awimbawe/new", {"agent": "random", "seed": 5})
    assert refused.status_code == 400
    assert "never chosen (it would tell you every deal)" in refused.get_json()["error"]
    assert post(client, "/api/awimbawe/new", {"agent": "random", "seed": None}).status_code == 200


# -- Awimbawé at the table: the log in words, the last trick -------------------------------------
def test_awimbawe_log_tells_each_trick_and_the_view_shows_the_last(client, drawn_seeds):
    studio = client.application.config["STUDIO"]
    drawn_seeds[0].append(5)
    view = post(client, "/api/awimbawe/new", {"agent": "greedy", "seat": 0}).get_json()
    session = studio.sessions[view["id"]]
    assert view["last_trick"] is None and view["seats"] == ["you", "greedy"]
    rng = random.Random(1)
    while view["tricks"] < 3:
        if view["your_turn"]:
            move = rng.choice(view["legal"])["text"]
            view = post(client, f"/api/awimbawe/{view['id']}/move", {"move": move}).get_json()
        else:
            view = agent_moves(client, "awimbawe", view)
    trick = view["last_trick"]
    assert set(trick) == {"leader", "moves", "cards", "winner", "fled", "round"}
    expected = session.state.observation(0).last_trick
    assert (trick["leader"], tuple(trick["moves"]), trick["winner"], trick["fled"]) == \
        (expected.leader, expected.moves, expected.winner, expected.fled)
    assert [c["name"] for c in trick["cards"]] == list(expected.cards) and trick["round"] == 1
    assert all({"suit", "value", "animal", "crowns"} <= set(c) for c in trick["cards"])
    # the log is narrate's, from the person's seat: each trick's winner, one name for the agent
    log = view["log"]
    winners = [line for line in log
               if re.match(r"(you|greedy) (wins?|takes?) the trick with", line)]
    assert len(winners) == 3, log
    assert any(line.startswith(("you play ", "greedy plays ")) for line in log)
    assert not any("the agent" in line or "opponent" in line for line in log), log
    assert not hasattr(api, "awimbawe_note")


def test_awimbawe_round_is_not_counted_on_after_the_end(studio, drawn_seeds):
    drawn_seeds[0].append(4)
    view = studio.new_game("awimbawe", agent="random", seat=0)
    session = studio.sessions[view["id"]]
    rng = random.Random(4)
    while not session.state.is_terminal():           # both seats by random moves: quick
        studio._apply(session, rng.choice(session.state.legal_moves()))
        studio._settle(session)
    view = studio.view(session)
    assert session.state.observation(0).round == len(view["rounds"]) + 1   # the engine's count
    assert view["round"] == len(view["rounds"]) and view["over"] and view["seed"] == 4
    assert view["log"][-1].startswith(f"round {view['round']} over")


# -- a third game needs only its adapter -------------------------------------------------------
class KuhnStudio:
    """All a third game brings to the studio (what games/<name>/studio.py would hold)."""

    game = KuhnGame()        # its facts (chance, hidden cards) come from GameBase's defaults
    title = "Kuhn poker"

    class variants:
        @staticmethod
        def builtin_names() -> list[str]:
            return ["classic"]

        @staticmethod
        def load(name: str) -> None:
            return None

    def setup(self) -> None:
        return None

    def load(self, text: str):
        raise KiwaraError("no Kuhn records")

    def forced_move(self, state) -> None:
        return None

    def tell(self, before, after, move, seat, names):
        player = before.current_player()
        if player == CHANCE:
            return ["a card is dealt"], None                 # never which one
        return [f"{names[player]} {'bets' if move == 'b' else 'passes'}"], None

    def move_json(self, state, move) -> dict:
        return {"text": move}

    def view(self, state, seat, names, last) -> dict:
        _, own, _, actions = state.observation(seat)
        return {"card": own, "actions": actions,
                "cards": list(state.cards) if state.is_terminal() else None}

    def record(self, session, seed) -> dict:
        return {"moves": list(session.moves), "seed": seed}


def test_a_third_game_plays_through_its_adapter_alone(client, drawn_seeds, monkeypatch):
    """The studio core never names a game: a toy game with hidden cards plays through the same
    routes, its agents come from the registry, its seed is secret until the end."""
    from kiwara_designer.studio import adapters
    monkeypatch.setitem(adapters.adapters(), "kuhn", KuhnStudio())
    offered = get(client, "/api/catalogue").get_json()["games"]["kuhn"]
    assert offered["agents"] == ["random", "greedy", "ismcts"]        # mcts refuses hidden cards
    assert post(client, "/api/kuhn/new", {"seed": 3}).status_code == 400
    assert "unknown field 'rows'" in post(client, "/api/kuhn/new",
                                          {"rows": CLASSIC}).get_json()["error"]
    drawn_seeds[0].append(77)
    view = post(client, "/api/kuhn/new", {"agent": "random", "seat": 1}).get_json()
    session = client.application.config["STUDIO"].sessions[view["id"]]
    theirs = session.state.cards[0]
    assert view["card"] == session.state.cards[1] and view["log"] == ["a card is dealt"] * 2
    while not view["over"]:
        assert "seed" not in view and view["cards"] is None
        if theirs != view["card"]:
            assert theirs not in json.dumps(view)
        if view["your_turn"]:
            view = post(client, f"/api/kuhn/{view['id']}/move", {"move": "b"}).get_json()
        else:
            view = agent_moves(client, "kuhn", view)
    assert view["seed"] == 77 and view["cards"] == list(session.state.cards)
    record = json.loads(get(client, f"/api/kuhn/{view['id']}/record").data)
    assert record == {"moves": list(session.state.cards) + list(session.state.actions),
                      "seed": 77}


# -- the real server -----------------------------------------------------------------------------
def test_real_server_answers_with_the_token():
    backend = api.Studio(workers=1)
    server, url = make_studio_server("127.0.0.1", 0, backend, token="abc")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        assert url == f"http://127.0.0.1:{server.port}/?token=abc"
        base = url.split("?")[0]
        with urllib.request.urlopen(f"{base}api/catalogue?token=abc", timeout=60) as response:
            assert json.loads(response.read())["rules"] == ["free-play", "classic"]
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"{base}api/catalogue", timeout=60)
        assert refused.value.code == 403
    finally:
        server.shutdown()
        server.server_close()
        backend.close()


def test_bound_to_every_interface_the_address_shown_is_one_to_open():
    # issue 27: `--host 0.0.0.0` printed http://0.0.0.0:…, no address a browser can open
    backend = api.Studio(workers=1)
    server, url = make_studio_server("0.0.0.0", 0, backend, token="abc")
    try:
        assert url == f"http://127.0.0.1:{server.port}/?token=abc"
    finally:
        server.server_close()
        backend.close()


def test_the_command_says_it_listens_on_every_interface(monkeypatch):
    from click.testing import CliRunner

    from kiwara_designer.cli.studio import studio as command
    from kiwara_designer.studio import server as server_module

    class Stopped:
        port = 8765

        def serve_forever(self):
            raise KeyboardInterrupt

        def server_close(self):
            pass

    monkeypatch.setattr(server_module, "make_studio_server",
                        lambda host, port, backend: (Stopped(), "http://127.0.0.1:8765/?token=t"))
    monkeypatch.setattr(socket, "gethostname", lambda: "savanna")
    result = CliRunner().invoke(command, ["--host", "0.0.0.0", "--no-browser", "-j", "1"])
    assert result.exit_code == 0, result.output
    assert "http://127.0.0.1:8765/?token=t" in result.output and "0.0.0.0:" not in result.output
    assert "listening on all interfaces (0.0.0.0)" in result.output
    assert "http://savanna:8765/?token=…" in result.output


def test_a_port_in_use_is_a_clear_error():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        with pytest.raises(KiwaraError, match="cannot listen on 127.0.0.1"):
            make_studio_server("127.0.0.1", taken.getsockname()[1])


def test_the_page_never_reads_a_file_named_as_a_built_in_variant(studio, tmp_path, monkeypatch):
    # a file called like a built-in variant in the server's folder is not read: the page names
    # built-ins only
    monkeypatch.chdir(tmp_path)
    (tmp_path / "gazelles_3").write_text('name = "from a file"\ngazelle_tokens = 1\n')
    (tmp_path / "three_hyenas").write_text('name = "from a file"\n')
    kiwara = studio.new_game("kiwara", rows=CLASSIC, variant="gazelles_3")
    assert kiwara["variant"] == "gazelles_3"
    awimbawe = studio.new_game("awimbawe", variant="three_hyenas")
    assert awimbawe["variant"] == "three_hyenas"


def test_the_real_server_answers_only_to_its_own_address():
    # issue 27: the token was the only defence; a page of another site reached through a DNS
    # name turned to 127.0.0.1 (DNS rebinding) sends that name as Host, and a cross-site post
    # carries its Origin
    import http.client
    backend = api.Studio(workers=1)
    server, url = make_studio_server("127.0.0.1", 0, backend, token="abc")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()

    def ask(method, path, headers=(), body=None):
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
        connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        for name, value in headers:
            connection.putheader(name, value)
        if body is not None:
            connection.putheader("Transfer-Encoding", "chunked")
        connection.endheaders()
        if body is not None:
            for start in range(0, len(body), 65536):
                piece = body[start:start + 65536]
                connection.send(f"{len(piece):x}\r\n".encode() + piece + b"\r\n")
            connection.send(b"0\r\n\r\n")
        response = connection.getresponse()
        answer = (response.status, json.loads(response.read() or b"null"))
        connection.close()
        return answer

    try:
        mine = ("Host", f"127.0.0.1:{server.port}")
        assert ask("GET", "/api/catalogue?token=abc", [mine])[0] == 200
        assert ask("GET", "/api/catalogue?token=abc", [("Host", f"localhost:{server.port}")]
                   )[0] == 200
        status, answer = ask("GET", "/api/catalogue?token=abc",
                             [("Host", f"attacker.example:{server.port}")])
        assert status == 403 and "not the studio's" in answer["error"]
        status, answer = ask("POST", "/api/board/check?token=abc",
                             [mine, ("Origin", "http://attacker.example"),
                              ("Content-Type", "application/json")], b'{"rows": []}')
        assert status == 403 and "another site" in answer["error"]
        # a chunked body over the bound: 413, not a JSON error about a cut string
        status, answer = ask("POST", "/api/board/check?token=abc",
                             [mine, ("Content-Type", "application/json")],
                             b'{"rows": ["' + b"A" * (MAX_BODY + 10) + b'"]}')
        assert status == 413 and "over 256 kB" in answer["error"]
    finally:
        server.shutdown()
        server.server_close()
        backend.close()


def test_a_get_on_a_post_address_is_405(client):
    for path in ("/api/kiwara/new", "/api/awimbawe/load", "/api/board/check"):
        response = client.get(f"{path}?token={TOKEN}")
        assert response.status_code == 405, path
        assert response.get_json() == {"error": "GET is not allowed here"}
    assert client.get(f"/api/kiwara/g999?token={TOKEN}").status_code == 404
