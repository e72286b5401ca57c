#!/usr/bin/env python3
"""The pictures in docs/: the explain page, the check report and the arbiter's desk,
rendered by headless Chromium at a desktop and a phone width (the desk also as printed).

    scripts/screenshots.py [--chromium /usr/bin/chromium] [--chromedriver /usr/bin/chromedriver]
                           [--out docs/img] [--pages DIR]

The desk is served here (waitress, a free port) and driven by Selenium: the file is
uploaded as a person would, and a player's sentences opened.

The tournament is a corpus file with invented names (one of them full of markup, to
show it is escaped); the check report is of a copy with two rounds tampered with.
Writes the PNGs into --out; the pages themselves into --pages (default: a temporary
folder, removed after).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cpsat_pairing.apps.check import check  # noqa: E402
from cpsat_pairing.domain.tournament import Tournament  # noqa: E402
from cpsat_pairing.dutch.rounds import pair  # noqa: E402
from cpsat_pairing.formats import read_trf, write_trf  # noqa: E402
from cpsat_pairing.interface.views.round_page import round_page  # noqa: E402
from cpsat_pairing.interface.views.report import render  # noqa: E402
from cpsat_pairing.testing import mutate  # noqa: E402
from cpsat_pairing.testing.corpus import prepared_round  # noqa: E402

SOURCE = ROOT / "tests" / "fixtures" / "corpus" / "dutch-2026" / "dev" / "t000182.trf"
NAMES = [
    "Halvorsen, Ingrid", "Okafor, Chidi", "Lindqvist, Jonas", "Moreau, Élodie", "Petrović, Luka", "Ahmadi, Sara",
    "Kowalski, Marek", "Nakamura, Yui", "Oliveira, Tiago", "Brennan, <b>Aoife</b> & co", "Schulz, Matthias",
    "Haddad, Leila", "Novak, Tomáš", "Fischer, Anna", "Ivanova, Daria", "Costa, Rui", "Meyer, Lena",
    "Dubois, Hugo", "Sato, Kenji",
]


def shoot(chromium: str, page: Path, png: Path, width: int, height: int) -> None:
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                        "--disable-background-networking", "--disable-component-update", "--disable-sync",
                        f"--user-data-dir={profile}", "--hide-scrollbars", f"--window-size={width},{height}",
                        f"--screenshot={png}", page.resolve().as_uri()], check=True, capture_output=True, timeout=120)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    ap.add_argument("--chromedriver", default="/usr/bin/chromedriver")
    ap.add_argument("--out", default=str(ROOT / "docs" / "img"))
    ap.add_argument("--pages")
    a = ap.parse_args()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        pages = Path(a.pages) if a.pages else Path(tmp)
        pages.mkdir(parents=True, exist_ok=True)
        draw(a.chromium, pages, out)
        desk(a.chromium, a.chromedriver, pages, out)
    print("\n".join(str(p) for p in sorted(out.iterdir())))
    return 0


def named() -> Tournament:
    """The corpus file with invented names."""
    t = read_trf(SOURCE)
    return replace(t, name="Club Open 2026", players=tuple(replace(p, name=NAMES[(p.id - 1) % len(NAMES)])
                                                           for p in t.players))


def desk(chromium: str, chromedriver: str, pages: Path, out: Path) -> None:
    """The desk with round 5 of the named file uploaded: the page, a phone's, the printout."""
    import threading

    import waitress
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By

    from cpsat_pairing.interface.commands.serve import wsgi_app
    from cpsat_pairing.interface.desk.app import site

    upload = pages / "club-open-2026.trf"
    upload.write_text(prepared_round(named(), 5), encoding="utf-8")
    server = waitress.create_server(site("127.0.0.1", None, wsgi_app), host="127.0.0.1", port=0, threads=4)
    threading.Thread(target=server.run, daemon=True).start()
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
                 "--disable-background-networking"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(chromedriver), options=options)
    try:
        for name, width, height in (("desk-desktop", 1200, 2000), ("desk-phone", 390, 1500)):
            driver.set_window_size(width, height)
            driver.get(f"http://127.0.0.1:{server.effective_port}/")
            driver.find_element(By.ID, "file").send_keys(str(upload))
            driver.find_element(By.ID, "pair-upload").click()
            driver.find_element(By.ID, "sheet")
            driver.save_screenshot(str(out / f"{name}.png"))
        driver.set_window_size(794, 1123)  # A4 at 96 dpi
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
        driver.execute_script("window.scrollTo(0, 0)")
        driver.save_screenshot(str(out / "desk-print.png"))
    finally:
        driver.quit()
        server.close()


def draw(chromium: str, pages: Path, out: Path) -> None:
    t = named()
    from cpsat_pairing.formats import parse_trf

    before = parse_trf(prepared_round(t, 5))
    result = pair(before, None, "dutch-2026")
    (pages / "explain.html").write_text(round_page(before, result, "dutch-2026", frozenset({3, 10})), encoding="utf-8")
    tampered = mutate.swap_colours(mutate.swap_opponents(t, 5, 0, 1), 3, 1)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "club-open-2026.trf"
        path.write_text(write_trf(tampered, t.dialect), encoding="utf-8")
        report = check(read_trf(path), "dutch-2026", rounds="1-6")
    report.file = path.name
    (pages / "check.html").write_text(render([report], "dutch-2026"), encoding="utf-8")
    for name in ("explain", "check"):
        shoot(chromium, pages / f"{name}.html", out / f"{name}-desktop.png", 1200, 2000)
        shoot(chromium, pages / f"{name}.html", out / f"{name}-phone.png", 390, 1500)


if __name__ == "__main__":
    sys.exit(main())
