"""The desk in a real browser: headless Chromium (the system package) driven by Selenium
loads the page, uploads a corpus file, reads the pairing sheet and compares it with
`pair`, opens a player's sentences, downloads the TRF and re-reads it, and sees an input
error on the page.  Skipped, with how to install one, where no browser is installed."""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("flask")
waitress = pytest.importorskip("waitress")
webdriver = pytest.importorskip("selenium.webdriver", reason="pip install selenium (in the [test] extra)")

from cpsat_pairing.dutch.rounds import pair  # noqa: E402
from cpsat_pairing.formats import parse_trf, read_trf  # noqa: E402
from cpsat_pairing.interface.commands.serve import wsgi_app  # noqa: E402
from cpsat_pairing.interface.desk.app import site  # noqa: E402

ROUND = Path(__file__).parent / "fixtures" / "doors" / "t000002_r1-6.trf"
CHROMIUM = os.environ.get("CPSAT_PAIRING_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = os.environ.get("CPSAT_PAIRING_CHROMEDRIVER") or shutil.which("chromedriver")
INSTALL = ("no headless browser: install Chromium and its driver (Debian/Ubuntu: apt-get install chromium "
           "chromium-driver), or name them in CPSAT_PAIRING_CHROMIUM and CPSAT_PAIRING_CHROMEDRIVER")

pytestmark = pytest.mark.skipif(CHROMIUM is None or DRIVER is None, reason=INSTALL)


@pytest.fixture(scope="module")
def desk_url() -> Iterator[str]:
    server = waitress.create_server(site("127.0.0.1", None, wsgi_app), host="127.0.0.1", port=0, threads=4)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.effective_port}/"
    finally:
        server.close()
        thread.join(5)


@pytest.fixture(scope="module")
def downloads(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("downloads")


@pytest.fixture(scope="module")
def browser(downloads: Path) -> Iterator[Any]:
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                 "--disable-background-networking", "--window-size=1200,1600"):
        options.add_argument(flag)
    options.add_experimental_option("prefs", {"download.default_directory": str(downloads),
                                              "download.prompt_for_download": False})
    driver = webdriver.Chrome(service=Service(str(DRIVER)), options=options)
    driver.set_page_load_timeout(60)
    try:
        yield driver
    finally:
        driver.quit()


def upload(browser: Any, url: str, path: Path) -> None:
    from selenium.webdriver.common.by import By

    browser.get(url)
    browser.find_element(By.ID, "file").send_keys(str(path))
    browser.find_element(By.ID, "pair-upload").click()
    answered(browser, "#round, #error")


def answered(browser: Any, css: str) -> None:
    """Wait for the answer page (the desk shows a progress page first for a long round)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(browser, 60).until(ec.presence_of_element_located((By.CSS_SELECTOR, css)))


def sheet(browser: Any) -> list[tuple[int, int, int]]:
    from selenium.webdriver.common.by import By

    rows = []
    for tr in browser.find_elements(By.CSS_SELECTOR, "#sheet tbody tr"):
        cells = tr.find_elements(By.TAG_NAME, "td")
        links = tr.find_elements(By.CSS_SELECTOR, "td.who a")
        rows.append((int(cells[0].text), int(links[0].get_attribute("href").rsplit("#p", 1)[1]),
                     int(links[1].get_attribute("href").rsplit("#p", 1)[1])))
    return rows


def test_upload_read_the_sheet_open_a_player_download_the_trf(browser: Any, desk_url: str, downloads: Path) -> None:
    from selenium.webdriver.common.by import By

    upload(browser, desk_url, ROUND)
    t = read_trf(ROUND)
    p = pair(t, None, "dutch-2026")
    assert sheet(browser) == [(i, b.white, b.black) for i, b in enumerate(p.boards, start=1)]
    assert t.player(p.boards[0].white).name in browser.find_element(By.ID, "sheet").text

    first = p.boards[0].white
    browser.find_element(By.CSS_SELECTOR, f'#sheet a[href="#p{first}"]').click()
    assert browser.current_url.endswith(f"#p{first}")
    story = browser.find_element(By.ID, f"p{first}")
    assert "starts round 7" in story.text and t.player(first).name in story.text

    browser.find_element(By.ID, "get-trf").click()
    target = None
    deadline = time.monotonic() + 60  # as long as the page waits: a loaded machine is slow to save
    while target is None and time.monotonic() < deadline:
        target = next(downloads.glob("*.trf"), None)
        if target is None:
            time.sleep(0.05)
    assert target is not None, "the TRF was not downloaded"
    again = parse_trf(target.read_bytes(), source=target.name)
    met = {frozenset((pl.id, e.opponent)) for pl in again.players
           if (e := pl.entry(7)) is not None and e.opponent is not None}
    assert met == {frozenset(pq) for pq in p.as_pairs()}


def test_an_input_error_is_shown_on_the_page(browser: Any, desk_url: str, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    lines = ROUND.read_text().splitlines(keepends=True)
    lines[3] = lines[3][:91] + "x" + lines[3][92:]
    broken = tmp_path / "broken.trf"
    broken.write_text("".join(lines))
    upload(browser, desk_url, broken)
    error = browser.find_element(By.ID, "error").text
    assert "broken.trf:4:" in error and "Traceback" not in browser.page_source
