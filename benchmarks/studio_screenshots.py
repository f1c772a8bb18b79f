"""Screenshots of the studio's views, taken from the real page in headless Chromium (for the
README): a board being drawn with its problems highlighted, a game against greedy with a
crocodile's choices shown, an Awimbawé match, and the Print view with the kit's pages.

Run: .venv/bin/python benchmarks/studio_screenshots.py [--out docs/images]
Needs Chromium and chromedriver (Debian: apt-get install chromium chromium-driver).
"""
from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from studio_browser import chromium, studio_server  # noqa: E402

WAIT = 180


def wait_for(driver, script: str, what: str, *args):
    from selenium.webdriver.support.ui import WebDriverWait
    return WebDriverWait(driver, WAIT, poll_frequency=0.1).until(
        lambda d: d.execute_script(script, *args), message=f"waiting for {what}")


def click_cell(driver, board: str, cell: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    hit = driver.find_element(By.CSS_SELECTOR, f"#{board} .hit[data-cell='{cell}']")
    ActionChains(driver).move_to_element(hit).click().perform()


def press(driver, keys: str) -> None:
    from selenium.webdriver.common.by import By
    driver.find_element(By.TAG_NAME, "body").send_keys(keys)


def my_turn(driver, after_ply: int = -1) -> None:
    """Wait until the person is to move (or the game is over) after move ``after_ply``."""
    wait_for(driver, "const v = studio.play.view; return v && !studio.play.waiting && "
                     "v.ply > arguments[0] && (v.your_turn || v.over)", "my turn", after_ply)


def ply(driver) -> int:
    return driver.execute_script("return studio.play.view.ply")


def draw_view(driver, out: Path) -> None:
    press(driver, "1")
    press(driver, "c")                       # territory C reaches f5: split, and E too small
    click_cell(driver, "draw-board", "f5")
    wait_for(driver, "return document.querySelectorAll('#draw-board .hit.bad').length > 0 && "
                     "!studio.draw.busy", "the problems")
    driver.save_screenshot(str(out / "studio-draw.png"))
    press(driver, "e")
    click_cell(driver, "draw-board", "f5")   # back to the classic board
    wait_for(driver, "return studio.draw.report && studio.draw.report.valid && !studio.draw.busy",
             "a valid board")


def play_view(driver, out: Path) -> None:
    from selenium.webdriver.common.by import By
    press(driver, "2")
    driver.find_element(By.ID, "new-game").click()
    my_turn(driver)
    driver.find_element(By.CSS_SELECTOR, "#play-board .stone[data-position='7']").click()
    rng = random.Random(4)
    for _ in range(9):                       # a few moves, typed, to reach a busy board
        my_turn(driver, 1)
        before = ply(driver)
        legal = driver.execute_script("return studio.play.view.legal.map(m => m.text)")
        box = driver.find_element(By.ID, "move-text")
        box.clear()
        box.send_keys(rng.choice(legal) + "\n")
        my_turn(driver, before + 1)
    kinds = driver.execute_script("return [...new Set(studio.play.view.legal.map(m => m.kind))]")
    press(driver, "c" if "C" in kinds else kinds[0].lower())
    driver.save_screenshot(str(out / "studio-play.png"))


def awimbawe_view(driver, out: Path) -> None:
    """Mid-match: a few tricks played by clicking, the last one shown with its winner, the
    agent's card led and the person to answer."""
    from selenium.webdriver.common.by import By
    press(driver, "5")
    driver.find_element(By.ID, "aw-new").click()
    rng = random.Random(5)
    while True:
        wait_for(driver, "const v = studio.aw.view; return v && !studio.aw.waiting && "
                         "(v.your_turn || v.over)", "my turn at Awimbawé")
        view = driver.execute_script("return studio.aw.view")
        if view["over"] or view["tricks"] >= 10 or (view["tricks"] >= 3 and view["trick"]):
            break
        # low cards, so that greedy wins tricks and leads the next: a card led to answer
        cards = [m for m in view["legal"] if m["card"]]
        low = min((int(m["card"][1:]) for m in cards), default=0)
        move = rng.choice([m for m in cards if int(m["card"][1:]) == low] or view["legal"])
        before = len(view["log"])
        if move["card"]:
            driver.find_element(By.CSS_SELECTOR,
                                f"#aw-table .card.playable[data-card='{move['card']}']").click()
        if driver.find_elements(By.CSS_SELECTOR, f"#aw-actions button[data-move='{move['text']}']"):
            driver.find_element(By.CSS_SELECTOR,
                                f"#aw-actions button[data-move='{move['text']}']").click()
        wait_for(driver, "return studio.aw.view.log.length > arguments[0]", "the card played",
                 before)
    driver.execute_script("window.scrollTo(0, 0)")      # clicking scrolled the cards into view
    size = driver.get_window_size()
    driver.set_window_size(size["width"], size["height"] + 150)   # the whole table, piles grown
    driver.save_screenshot(str(out / "studio-awimbawe.png"))
    driver.set_window_size(size["width"], size["height"])


def print_view(driver, out: Path) -> None:
    from selenium.webdriver.common.by import By
    press(driver, "4")
    driver.find_element(By.ID, "print-kit").click()
    # the kit's pages, each previewed by its button: the tokens page shown
    wait_for(driver, "return document.querySelectorAll('#print-pages button').length > 1 && "
                     "!studio.print.request && !studio.print.pending()", "the kit's pages")
    driver.find_element(By.CSS_SELECTOR, "#print-pages button[data-page='2']").click()
    wait_for(driver, "const p = document.getElementById('print-preview'); "
                     "return studio.print.page === 2 && !studio.print.request && p.complete && "
                     "p.naturalWidth > 0 && p.alt.includes('tokens')", "the tokens page's preview")
    driver.save_screenshot(str(out / "studio-print.png"))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default="docs/images")
    parser.add_argument("--width", type=int, default=1400)
    parser.add_argument("--height", type=int, default=900)
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    from kiwara_designer.studio import sessions
    sessions.secret_seed = lambda: 3   # the same deal each time (the page can never choose one)
    with studio_server() as url, chromium(args.width, args.height) as driver:
        driver.get(url)
        wait_for(driver, "return document.body.dataset.ready === 'true'", "the page")
        for take in (draw_view, play_view, awimbawe_view, print_view):
            take(driver, out)
            print(f"{take.__name__}: done")
    for name in ("draw", "play", "awimbawe", "print"):
        print(f"wrote {out / f'studio-{name}.png'}")


if __name__ == "__main__":
    main()
