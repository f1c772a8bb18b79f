"""kiwara studio: the library API (kiwara_designer.studio.api) and every endpoint of the web
server through Flask's test client, bad input included; the browser test is test_studio_e2e.py."""
from __future__ import annotations

import json
import random
import re
import socket
import threading
import urllib.request
from types import SimpleNamespace

import pytest

flask = pytest.importorskip("flask", reason="kiwara studio needs the studio extra (Flask)")

from kiwara_designer.awimbawe.cards import BIT, NAMES, cards_of  # noqa: E402
from kiwara_designer.awimbawe.information import seen_cards  # noqa: E402
from kiwara_designer.engine import GameRecord  # noqa: E402
from kiwara_designer.errors import KiwaraError  # noqa: E402
from kiwara_designer.generator import sample_layouts  # noqa: E402
from kiwara_designer.printing import cairo_available  # noqa: E402
from kiwara_designer.studio import api  # noqa: E402
from kiwara_designer.studio.jobs import Jobs  # noqa: E402
from kiwara_designer.studio.server import MAX_BODY, create_app, make_studio_server  # noqa: E402

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
    assert api.read_layout_text("A B C C C C\nABBCFF\nAABCCF\nDABBBE\nDDEEEE\n").rows == \
        tuple(CLASSIC)
    assert api.read_layout_text(json.dumps({"rows": CLASSIC})).rows == tuple(CLASSIC)
    with pytest.raises(KiwaraError, match="holds no layout"):
        api.read_layout_text("# only a comment\n")
    with pytest.raises(KiwaraError):
        api.read_layout_text("ABC\nAB\n")


def test_catalogue_lists_what_the_page_offers():
    found = api.catalogue()
    assert found["layouts"]["classic"] == CLASSIC
    assert len(found["mixes"]) == 7 and [3, 3, 5, 5, 7, 7] in found["mixes"]
    assert found["agents"] == ["random", "greedy", "mcts"]
    assert "gazelles_3" in found["variants"] and "gamepark" in found["awimbawe_variants"]
    assert found["palette"]["A"] == found["tints"][0]


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
    ({"title": "<script>"}, "title: '<script>' is not of the form"),
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
    replayed = GameRecord.from_dict(json.loads(record.data)).replay()
    assert list(replayed.scoring().totals) == view["scores"]
    assert json.loads(record.data)["result"]["scores"] == view["scores"]


def test_kiwara_move_effects_are_told(studio):
    # the README's replay: a crocodile swap, then a lion that makes the gazelle flee
    view = studio.new_kiwara(CLASSIC, "random", seat=0, seed=1)
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
def hidden_cards(state, seat: int) -> set[str]:
    """Names of the cards ``seat`` has not seen (the information module's independent mask of
    seen cards): the opponent's hand cards and the face-down pile cards never shown to them
    (a card slid under a pile by a rhinoceros was seen on top before)."""
    seen = seen_cards(state, seat)
    unseen_hand = {NAMES[c] for c in cards_of(state.hand[1 - seat]) if not seen & BIT[c]}
    face_down = {NAMES[c] for side in state.piles for pile in side for c in pile
                 if state.down & BIT[c] and not seen & BIT[c]}
    return unseen_hand | face_down


def shows(text: str, name: str) -> bool:
    return re.search(rf"(?<![A-Z0-9]){name}(?![0-9])", text) is not None


def test_awimbawe_match_shows_only_what_the_player_may_see(client):
    studio = client.application.config["STUDIO"]
    view = post(client, "/api/awimbawe/new", {"agent": "random", "seat": 0,
                                              "seed": 11}).get_json()
    game_id = view["id"]
    early = get(client, f"/api/awimbawe/{game_id}/record")
    assert early.status_code == 400 and "once the match is over" in early.get_json()["error"]
    rng = random.Random(2)
    checked = 0
    while True:
        state = studio.sessions[game_id].state
        # the log keeps earlier rounds, whose card names belong to earlier deals: this round's
        # lines only (from its deal on)
        log = view["log"]
        dealt = max(i for i, line in enumerate(log) if line.endswith("the cards are dealt"))
        text = json.dumps({**view, "log": log[dealt:]})
        for name in hidden_cards(state, 0):
            assert not shows(text, name), (name, view)
        checked += 1
        if view["over"]:
            break
        if view["your_turn"]:
            move = rng.choice(view["legal"])
            view = post(client, f"/api/awimbawe/{game_id}/move",
                        {"move": move["text"]}).get_json()
            assert "error" not in view, view
        else:
            view = agent_moves(client, "awimbawe", view)
    assert checked > 20 and view["winner"] in (0, 1)
    assert max(view["rounds_won"]) == len([r for r in view["rounds"]
                                           if r["winner"] == view["winner"]])
    record = get(client, f"/api/awimbawe/{game_id}/record")
    assert record.status_code == 200 and json.loads(record.data)["players"][0] == "you"


def test_awimbawe_hidden_cards_exist_to_be_hidden(studio):
    """The check above is not vacuous: at the start the opponent holds cards never seen."""
    view = studio.new_awimbawe("random", seat=0, seed=11)
    state = studio.sessions[view["id"]].state
    hidden = hidden_cards(state, 0)
    assert len(hidden) >= 6
    assert all(shows(json.dumps(state.observation(1).hand), n) for n in
               {NAMES[c] for c in cards_of(state.hand[1])})


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


def test_a_port_in_use_is_a_clear_error():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        with pytest.raises(KiwaraError, match="cannot listen on 127.0.0.1"):
            make_studio_server("127.0.0.1", taken.getsockname()[1])
