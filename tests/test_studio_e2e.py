"""kiwara studio end to end, in the system's headless Chromium (Selenium): draw the classic
board by hand (invalid on the way, then recognised), play it to the end against greedy by
clicking, download the record and the PDF, and play Awimbawé tricks by clicking.

Every wait is on a condition of the page (never a fixed sleep), with generous timeouts for a
loaded machine. Skipped, with the reason, where Chromium, chromedriver or selenium is missing
(.ci/run installs them with apt-get).
"""
from __future__ import annotations

import json
import random
import re
import time
from pathlib import Path

import pytest

pytest.importorskip("flask", reason="kiwara studio needs the studio extra (Flask)")

from studio_browser import chromium, find_chromium, studio_server  # noqa: E402

from kiwara_designer.games.kiwara import KiwaraRecord  # noqa: E402
from kiwara_designer.printing import cairo_available  # noqa: E402

_, _, MISSING = find_chromium()
pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(bool(MISSING), reason=f"no browser for the e2e test: {MISSING}")]

CLASSIC = ["ABCCCC", "ABBCFF", "AABCCF", "DABBBE", "DDEEEE"]
WAIT = 240          # seconds for any one page condition: a loaded 2-core machine is slow


def wait_for(driver, script: str, what: str, *args):
    from selenium.webdriver.support.ui import WebDriverWait
    return WebDriverWait(driver, WAIT, poll_frequency=0.1).until(
        lambda d: d.execute_script(script, *args), message=f"waited {WAIT} s for {what}")


def press(driver, keys: str) -> None:
    from selenium.webdriver.common.by import By
    driver.find_element(By.TAG_NAME, "body").send_keys(keys)


def click(driver, css: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    ActionChains(driver).move_to_element(driver.find_element(By.CSS_SELECTOR, css)).click().perform()


def board_settled(driver) -> None:
    """The last painted board has come back checked."""
    wait_for(driver, "const d = studio.draw; return !d.busy && d.report && "
                     "d.report.rows.join() === d.rows.join()", "the board's check")


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    downloads = tmp_path_factory.mktemp("downloads")
    with studio_server() as url, chromium(1400, 1000, downloads) as driver:
        driver.get(url)
        wait_for(driver, "return document.body.dataset.ready === 'true'", "the page")
        yield driver, downloads, url


def test_draw_the_classic_board_by_hand(page):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    driver, _, _ = page
    press(driver, "1")
    driver.find_element(By.ID, "clear").click()
    board_settled(driver)
    assert driver.execute_script("return studio.draw.rows") == ["AAAAAA"] * 5
    verdict = driver.find_element(By.ID, "verdict")
    assert "problem" in verdict.text
    # an invalid board on the way: its problem cells are hatched and named in words
    assert driver.find_elements(By.CSS_SELECTOR, "#draw-board .hit.bad")
    assert "territory A has 30 cells" in driver.find_element(By.ID, "problems").text
    # territory B by dragging down column b (b1 to b4 in one stroke), the rest cell by cell
    press(driver, "b")
    # (by offsets: each painted cell redraws the board, so elements found before go stale)
    b1 = driver.find_element(By.CSS_SELECTOR, "#draw-board .hit[data-cell='b1']")
    step = b1.size["height"]
    drag = ActionChains(driver).move_to_element(b1).click_and_hold()
    for _ in range(3):
        drag = drag.move_by_offset(0, step / 2).move_by_offset(0, step / 2)
    drag.release().perform()
    board_settled(driver)
    assert [row[1] for row in driver.execute_script("return studio.draw.rows")][:4] == ["B"] * 4
    for row, line in enumerate(CLASSIC):
        for col, letter in enumerate(line):
            name = f"{'abcdef'[col]}{row + 1}"
            if driver.execute_script("return studio.draw.rows")[row][col] != letter:
                press(driver, letter.lower())
                click(driver, f"#draw-board .hit[data-cell='{name}']")
                board_settled(driver)         # checked as painted: no stale board to click
    assert driver.execute_script("return studio.draw.rows") == CLASSIC
    wait_for(driver, "return document.getElementById('verdict').textContent.includes('classic')",
             "the classic board recognised")
    assert verdict.text == "Valid free-play board — this is the classic board"
    assert not driver.find_elements(By.CSS_SELECTOR, "#draw-board .hit.bad")
    facts = driver.find_element(By.ID, "facts").text
    assert "25 of the 30 in the box" in facts and "3, 3, 5, 5, 7, 7" in facts
    # undo takes back the last cell painted, redo puts it back
    press(driver, "\ue009z")            # Ctrl+Z
    board_settled(driver)
    assert driver.execute_script("return studio.draw.rows") != CLASSIC
    press(driver, "\ue009y")
    board_settled(driver)
    assert driver.execute_script("return studio.draw.rows") == CLASSIC


def my_turn(driver, after_ply: int) -> dict:
    wait_for(driver, "const v = studio.play.view; return v && !studio.play.waiting && "
                     "v.ply > arguments[0] && (v.your_turn || v.over)", "my turn", after_ply)
    return driver.execute_script("return studio.play.view")


def click_move(driver, move: dict, view: dict) -> None:
    """Make ``move`` with the mouse and keys as a person would: the animal's key, its cell, the
    gazelles a crocodile swaps with, then the totem's stone."""
    if move["kind"] is None:
        click(driver, f"#play-board .stone[data-position='{move['totem']}']")
        return
    press(driver, move["kind"].lower())
    wait_for(driver, "return studio.play.choice.kind === arguments[0]", "the animal", move["kind"])
    click(driver, f"#play-board .hit[data-cell='{move['cell']}']")
    for cell in move["swaps"]:
        click(driver, f"#play-board .hit.swap[data-cell='{cell}']")
    same = [m for m in view["legal"] if m["kind"] == move["kind"] and m["cell"] == move["cell"]
            and m["swaps"] == move["swaps"]]
    longer = [m for m in view["legal"] if m["kind"] == move["kind"] and m["cell"] == move["cell"]
              and m["swaps"][:len(move["swaps"])] == move["swaps"]
              and len(m["swaps"]) > len(move["swaps"])]
    if move["totem"] is None and longer:             # the last placement, swaps declined
        click(driver, "#end-placement")
    elif len(same) > 1 or longer:                    # else the page plays it by itself
        click(driver, f"#play-board .stone.target[data-position='{move['totem']}']")


def test_before_a_game_no_empty_bars_and_strength_only_for_searches(page):
    """issue 27: an empty bar before a game started; a Strength choice for greedy and random;
    the same screen board colours as the print's."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select
    driver, _, _ = page
    press(driver, "2")
    for empty in ("play-status", "play-score", "play-territories", "play-log", "play-actions"):
        assert not driver.find_element(By.ID, empty).is_displayed(), empty
    assert "No game yet" in driver.find_element(By.ID, "play-board").text
    agent = Select(driver.find_element(By.ID, "play-agent"))
    for kind, shown in (("greedy", False), ("random", False), ("mcts", True), ("greedy", False)):
        agent.select_by_value(kind)
        assert driver.find_element(By.ID, "play-strength").is_displayed() == shown, kind
    press(driver, "5")
    assert not driver.find_element(By.ID, "aw-strength").is_displayed()
    Select(driver.find_element(By.ID, "aw-agent")).select_by_value("ismcts")
    assert driver.find_element(By.ID, "aw-strength").is_displayed()
    Select(driver.find_element(By.ID, "aw-agent")).select_by_value("greedy")
    # the drawn board's colours are the print's (its territories in order of appearance)
    press(driver, "1")
    fills = driver.execute_script(
        "const f = {}; document.querySelectorAll('#draw-board rect.cell').forEach((r) => "
        "{ f[r.dataset.territory] = r.getAttribute('fill'); }); return f;")
    assert fills == driver.execute_script("return studio.draw.report.colours")
    assert fills == driver.execute_script("return territoryColours(studio.draw.rows)")


def test_play_the_drawn_board_to_the_end_against_greedy(page):
    from selenium.webdriver.common.by import By
    driver, downloads, _ = page
    press(driver, "2")
    driver.find_element(By.CSS_SELECTOR, "#play-agent option[value='greedy']").click()
    driver.find_element(By.CSS_SELECTOR, "#play-seat option[value='0']").click()
    driver.find_element(By.ID, "play-seed").send_keys("12")
    driver.find_element(By.ID, "new-game").click()
    view = my_turn(driver, -1)
    assert view["rows"] == CLASSIC and view["seats"] == ["you", "greedy"]
    assert len(driver.find_elements(By.CSS_SELECTOR, "#play-board .stone")) == 22
    rng = random.Random(6)
    while not view["over"]:
        move = rng.choice(view["legal"])
        if move["kind"] is not None:
            # the totem's line is highlighted: every cell a token may go on now
            line = {e.get_attribute("data-cell") for e in
                    driver.find_elements(By.CSS_SELECTOR, "#play-board .hit.line")}
            assert move["cell"] in line
        before = view["ply"]
        click_move(driver, move, view)
        view = my_turn(driver, before)
        assert view["log"][-1].startswith("greedy") or view["over"] or \
            view["log"][-1].startswith("you")
    status = driver.find_element(By.ID, "play-status").text
    assert status.startswith("Game over") and f"{view['scores'][0]}–{view['scores'][1]}" in status
    # the record, downloaded as a person would, replays to the same score
    driver.find_element(By.ID, "download-record").click()
    record_file = wait_for_file(downloads, "kiwara-*.json")
    record = KiwaraRecord.from_dict(json.loads(record_file.read_text()))
    assert list(record.replay().scoring().totals) == view["scores"]
    assert record.extra["players"] == ["you", "greedy"]


def wait_for_file(folder: Path, pattern: str) -> Path:
    """A finished download (Chromium writes .crdownload files until it is done)."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        done = [p for p in folder.glob(pattern) if not p.name.endswith(".crdownload")]
        if done and done[0].stat().st_size > 0:
            return done[0]
        time.sleep(0.2)     # polling the disk for the browser's file, not a timing assertion
    raise AssertionError(f"no {pattern} downloaded into {folder} in {WAIT} s")


@pytest.mark.skipif(not cairo_available(), reason="PDF needs cairosvg and the cairo library")
def test_download_the_pdf(page):
    from selenium.webdriver.common.by import By
    driver, downloads, _ = page
    press(driver, "4")
    title = driver.find_element(By.ID, "print-title")
    title.clear()
    title.send_keys("classic")
    driver.find_element(By.ID, "print-kit").click()
    wait_for(driver, "return document.getElementById('print-preview').complete && "
                     "document.getElementById('print-preview').naturalWidth > 0", "the preview")
    driver.find_element(By.ID, "print-pdf").click()
    pdf = wait_for_file(downloads, "classic-kit.pdf")
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF") and data.rstrip().endswith(b"%%EOF")


def print_settled(driver) -> None:
    """The Print view's preview has caught up with its options (or said why it cannot)."""
    wait_for(driver, "const p = studio.print; return !p.request && !p.pending() && "
                     "(p.shown !== null || !document.getElementById('print-error').hidden)",
             "the print preview")


def test_print_errors_are_shown_and_previews_debounced(page):
    """issue 27: the Print view failed silently (a title with & or <, a tiled board, SVG with
    the kit) and sent a preview request per keystroke."""
    from selenium.webdriver.common.by import By
    driver, downloads, _ = page
    press(driver, "4")
    print_settled(driver)
    sent = driver.execute_script("return studio.print.sent")
    title = driver.find_element(By.ID, "print-title")
    title.clear()
    title.send_keys('Tom & Jerry: "<b>"')
    wait_for(driver, "return studio.print.shown && studio.print.shown.includes('Tom & Jerry')",
             "the preview of the new title")
    print_settled(driver)
    # one preview request for the whole title typed, and it is accepted
    assert driver.execute_script("return studio.print.sent") == sent + 1
    assert driver.find_element(By.ID, "print-error").get_attribute("hidden") is not None
    # the kit: every page previewed, the SVG download is the page shown
    if not driver.find_element(By.ID, "print-kit").is_selected():
        driver.find_element(By.ID, "print-kit").click()
    wait_for(driver, "return document.querySelectorAll('#print-pages button').length === 3",
             "the kit's pages")
    driver.find_element(By.CSS_SELECTOR, "#print-pages button[data-page='2']").click()
    wait_for(driver, "return studio.print.page === 2 && !studio.print.request && "
                     "document.getElementById('print-preview').alt.includes('tokens')",
             "the tokens page")
    driver.find_element(By.ID, "print-svg").click()
    svg = wait_for_file(downloads, "tom-jerry-b-kit-tokens.svg")
    assert b"<svg" in svg.read_bytes()
    # an absurd print is refused in words, in the page, and its downloads with it
    driver.find_element(By.ID, "print-kit").click()
    driver.find_element(By.ID, "print-paper").clear()
    driver.find_element(By.ID, "print-paper").send_keys("120x120")
    driver.find_element(By.ID, "print-cell").send_keys("200")
    wait_for(driver, "return !document.getElementById('print-error').hidden", "the refusal")
    words = "the studio prints at most 40"
    assert words in driver.find_element(By.ID, "print-error").text
    assert words in driver.find_element(By.ID, "message").text
    assert driver.find_element(By.ID, "print-pdf").get_attribute("aria-disabled") == "true"
    driver.execute_script("document.getElementById('message').hidden = true")
    driver.find_element(By.ID, "print-pdf").click()
    wait_for(driver, "return !document.getElementById('message').hidden && "
                     "document.getElementById('message').textContent.includes(arguments[0])",
             "the download's refusal", words)
    # back to a print that fits: the preview returns
    driver.find_element(By.ID, "print-cell").clear()
    driver.find_element(By.ID, "print-paper").clear()
    driver.find_element(By.ID, "print-paper").send_keys("a4")
    wait_for(driver, "return document.getElementById('print-error').hidden && studio.print.shown",
             "the preview again")
    title.clear()
    title.send_keys("Kiwara board")
    print_settled(driver)


def test_a_wrong_token_gets_no_page(page):
    driver, _, url = page
    driver.get(url.split("?")[0] + "?token=wrong")
    assert "wrong token" in driver.page_source
    driver.get(url)
    wait_for(driver, "return document.body.dataset.ready === 'true'", "the page again")


def aw_my_turn(driver) -> dict:
    wait_for(driver, "const v = studio.aw.view; return v && !studio.aw.waiting && "
                     "(v.your_turn || v.over)", "my turn at Awimbawé")
    return driver.execute_script("return studio.aw.view")


def check_last_trick(driver, view: dict) -> None:
    """The last-trick panel shows the view's last trick: its two cards, leader first, and its
    winner named and marked."""
    from selenium.webdriver.common.by import By
    panel = driver.find_element(By.ID, "aw-last")
    trick = view["last_trick"]
    if trick is None:
        assert "none yet" in panel.text
        return
    names = view["seats"]
    assert f"{names[trick['winner']]} won" in panel.find_element(By.TAG_NAME, "h3").text
    shown = [e.get_attribute("data-card") for e in panel.find_elements(By.CSS_SELECTOR, ".card")]
    assert shown == [card["name"] for card in trick["cards"]]
    won = trick["cards"][0 if trick["winner"] == trick["leader"] else 1]["name"]
    assert panel.find_element(By.CSS_SELECTOR, ".played.winner .card").get_attribute(
        "data-card") == won


def test_awimbawe_tricks_by_clicking(page):
    """A match against random played by clicking until five tricks are over: every trick's
    winner is in the log and the last one in its panel; the seed is nowhere until the end."""
    from selenium.webdriver.common.by import By
    driver, _, _ = page
    press(driver, "5")
    assert not driver.find_elements(By.ID, "aw-seed")      # the page never offers a seed
    driver.find_element(By.CSS_SELECTOR, "#aw-agent option[value='random']").click()
    driver.find_element(By.ID, "aw-new").click()
    rng = random.Random(5)
    told = re.compile(r"^(you|random) (wins?|takes?) the trick with [A-Z]\d+")
    while True:
        view = aw_my_turn(driver)
        assert "seed" not in view or view["over"]
        assert len(driver.find_elements(By.CSS_SELECTOR, "#aw-table .them .hand .card.back")) == \
            view["opponent_hand_size"]
        check_last_trick(driver, view)
        if view["trick"]:                     # random led: its card, said to be its
            trick = driver.find_element(By.ID, "aw-trick").text
            assert f"{view['seats'][view['leader']]} led" in trick
        log = [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#aw-log li")]
        assert log == list(reversed(view["log"]))
        if view["over"] or len([line for line in log if told.match(line)]) >= 5:
            break
        driver.execute_script("window.shownBefore = studio.aw.view")
        move = rng.choice(view["legal"])
        if move["card"] is None:              # start:me / start:you, as buttons
            click(driver, f"#aw-actions button[data-move='{move['text']}']")
        else:
            click(driver, f"#aw-table .card.playable[data-card='{move['card']}']")
            if len([m for m in view["legal"] if m["card"] == move["card"]]) > 1:
                click(driver, f"#aw-actions button[data-move='{move['text']}']")
        wait_for(driver, "return studio.aw.view !== window.shownBefore", "the card played")
    assert view["last_trick"] is not None
    # one name for the agent throughout: the seats' label, never "the agent"
    assert not any("the agent" in line or "opponent" in line for line in log)


def test_quick_playtest_of_the_drawn_board(page):
    from selenium.webdriver.common.by import By
    driver, _, _ = page
    press(driver, "3")
    # it starts from the lab's default pairing: mcts at strength 200 against itself
    assert driver.execute_script("return [$('test-agent').value, $('test-iterations').value, "
                                 "$('test-opponent').value]") == ["mcts", "200", ""]
    assert driver.find_element(By.ID, "test-strength").is_displayed()
    driver.find_element(By.CSS_SELECTOR, "#test-agent option[value='random']").click()
    games = driver.find_element(By.ID, "test-games")
    games.clear()
    games.send_keys("10")
    driver.find_element(By.ID, "test-start").click()
    wait_for(driver, "return document.querySelectorAll('#test-results tr').length > 1",
             "the play-test's results")
    status = driver.find_element(By.ID, "test-status").text
    assert status.startswith("10 games of random against random")
    results = driver.find_element(By.ID, "test-results").text
    assert "first player wins" in results and "decisiveness" in results
    assert driver.find_element(By.ID, "test-start").is_enabled()
    # issue 34, point 2: `kiwara fair`'s verdict first, above the metrics, in words and a
    # colour (amber: 10 games cannot tell)
    verdict = driver.find_element(By.ID, "test-verdict")
    assert verdict.is_displayed() and "warn" in verdict.get_attribute("class").split()
    assert verdict.text.startswith("Cannot tell for random players within 10 games: the first "
                                   "player wins ")
    assert "5 seat-swapped pairs" in verdict.text and "left out" not in verdict.text
    table = driver.find_element(By.ID, "test-results")
    assert verdict.location["y"] + verdict.size["height"] <= table.location["y"]
    # an odd count: the last game, without its partner, is left out of the verdict, saying so
    games.clear()
    games.send_keys("11")
    driver.find_element(By.ID, "test-start").click()
    wait_for(driver, "return document.getElementById('test-status').textContent"
                     ".startsWith('11 games') && document.getElementById('test-verdict')"
                     ".textContent !== ''", "the 11 games' verdict")
    verdict = driver.find_element(By.ID, "test-verdict")
    assert verdict.text.startswith("Cannot tell for random players within 10 games")
    assert "The last game, without its seat-swapped partner, is left out" in verdict.text
