"""A real studio server in a thread and the system's headless Chromium driven by Selenium, for
the end-to-end test and benchmarks/studio_screenshots.py.

Selenium rather than Playwright: Playwright drives the browser build it downloads itself (which
cannot be fetched here) and pins a protocol version, while Debian's chromium-driver always
matches Debian's chromium.
"""
from __future__ import annotations

import shutil
import tempfile
import threading
from contextlib import contextmanager
from pathlib import Path

CHROMIUM_FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--no-first-run", "--disable-extensions",
                  "--disable-default-apps", "--hide-scrollbars")


def find_chromium() -> tuple[str | None, str | None, str]:
    """(browser, driver, why not) for the system's Chromium and chromedriver."""
    browser = next((shutil.which(b) for b in ("chromium", "chromium-browser") if shutil.which(b)),
                   None)
    driver = shutil.which("chromedriver")
    try:
        import selenium  # noqa: F401
    except ImportError:
        return browser, driver, "selenium is not installed (the test extra)"
    if browser is None:
        return None, driver, "no Chromium (Debian: apt-get install chromium chromium-driver)"
    if driver is None:
        return browser, None, "no chromedriver (Debian: apt-get install chromium-driver)"
    return browser, driver, ""


@contextmanager
def studio_server(workers: int = 1):
    """The studio on a free loopback port, serving in a thread; yields the page's address."""
    from kiwara_designer.studio.api import Studio
    from kiwara_designer.studio.server import make_studio_server
    backend = Studio(workers)
    server, url = make_studio_server("127.0.0.1", 0, backend)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield url
    finally:
        server.shutdown()
        server.server_close()
        backend.close()
        thread.join(60)


@contextmanager
def chromium(width: int = 1400, height: int = 1000, downloads: Path | None = None):
    """A headless Chromium with a fresh profile, downloads going to ``downloads``."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    browser, driver_path, why = find_chromium()
    if why:
        raise RuntimeError(why)
    profile = tempfile.mkdtemp(prefix="kiwara-studio-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    options.add_argument(f"--window-size={width},{height}")
    if downloads is not None:
        options.add_experimental_option("prefs", {
            "download.default_directory": str(downloads), "download.prompt_for_download": False,
            "safebrowsing.enabled": False})
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    driver.set_page_load_timeout(180)
    driver.set_script_timeout(180)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
