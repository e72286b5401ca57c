"""The arbiter's desk over HTTP (the WSGI application with a test client): the pairing
sheet is `pair`'s pairing, every answer of the page, the downloads re-read, located
errors on the page, names escaped, other sites refused, long rounds cancelled."""

from __future__ import annotations

import io
import subprocess
import urllib.error
import json
import re
import threading
import time
from dataclasses import replace
from pathlib import Path

import pytest

pytest.importorskip("flask")

from werkzeug.test import Client, TestResponse  # noqa: E402

from cpsat_pairing.apps.check import check_data  # noqa: E402
from cpsat_pairing.dutch.rounds import pair  # noqa: E402
from cpsat_pairing.formats import parse_trf, read_trf, write_trf  # noqa: E402
from cpsat_pairing.interface.commands.desk import open_browser_wanted  # noqa: E402
from cpsat_pairing.interface.commands.serve import wsgi_app  # noqa: E402
from cpsat_pairing.interface.desk.app import create_app, site  # noqa: E402
from cpsat_pairing.interface.desk.runs import Cancelled, Runs  # noqa: E402

DOORS = Path(__file__).parent / "fixtures" / "doors"
ROUND = DOORS / "t000002_r1-6.trf"
EXPECTED = (DOORS / "t000002_r7.pairs").read_text()
PAIRED = Path(__file__).parent / "fixtures" / "corpus" / "dutch-2026" / "dev" / "t000182.trf"
SHEET_ROW = re.compile(r'<td class="num bd">(\d+)</td><td class="who"><a href="#p(\d+)">.*?'
                       r'<td class="who"><a href="#p(\d+)">')


def client() -> Client:
    return Client(site("127.0.0.1", None, wsgi_app))


def upload(c: Client, data: bytes, name: str = "t.trf", path: str = "/desk/round", **fields: str) -> TestResponse:
    return c.post(path, data={"file": (io.BytesIO(data), name), **fields}, content_type="multipart/form-data")


def carried(page: str) -> dict[str, str]:
    """The hidden fields the page carries back (the file, its name), as a browser sends them."""
    found = dict(re.findall(r'<input type="hidden" name="(\w+)" value="(.*?)">', page, re.S))
    import html

    return {k: html.unescape(v) for k, v in found.items()}


def sheet_pairs(page: str) -> list[tuple[int, int]]:
    return [(int(w), int(b)) for _, w, b in SHEET_ROW.findall(page)]


def expected_pairs(text: str) -> list[tuple[int, int]]:
    return [(int(a), int(b)) for a, b in (line.split() for line in text.splitlines()[1:])]


def test_the_page_is_the_form_with_nothing_from_elsewhere() -> None:
    r = client().get("/")
    page = r.get_data(as_text=True)
    assert r.status_code == 200 and 'type="file"' in page
    assert "<script" not in page
    assert not re.search(r'(?:src|href|action)="(?:https?:)?//', page)
    assert "default-src 'none'" in r.headers["Content-Security-Policy"]
    css = client().get("/desk.css")
    assert css.status_code == 200 and "@media print" in css.get_data(as_text=True)
    assert "url(" not in css.get_data(as_text=True)


def test_the_sheet_is_the_pairing_pair_makes() -> None:
    r = upload(client(), ROUND.read_bytes())
    page = r.get_data(as_text=True)
    assert r.status_code == 200
    assert sheet_pairs(page) == expected_pairs(EXPECTED)
    t = read_trf(ROUND)
    p = pair(t, None, "dutch-2026")
    assert sheet_pairs(page) == [(b.white, b.black) for b in p.boards]
    for b in p.boards:  # names, ratings, scores on the sheet
        assert t.player(b.white).name in page and f'<td class="num rtg">{t.player(b.white).rating}</td>' in page
    assert f"players</dt><dd>{len(t.players)}</dd>" in page  # the summary (info)
    assert 'id="p3"' in page and "starts round 7" in page  # the sentences, one anchor per player
    assert "<script" not in page and not re.search(r'(?:src|href|action)="(?:https?:)?//', page)  # nothing fetched


def test_a_trf_2026_file_gives_the_same_sheet() -> None:
    trf26 = write_trf(read_trf(ROUND), "trf26").encode()
    page = upload(client(), trf26, "t.trfx").get_data(as_text=True)
    assert "(trf26)" in page and sheet_pairs(page) == expected_pairs(EXPECTED)


def test_the_round_and_the_edition_are_chosen_on_the_page() -> None:
    c = client()
    first = upload(c, PAIRED.read_bytes(), "t182.trf").get_data(as_text=True)
    fields = carried(first)
    again = c.post("/desk/round", data={**fields, "round": "3", "edition": "dutch-2017"}).get_data(as_text=True)
    t = read_trf(PAIRED)
    p = pair(t, 3, "dutch-2017")
    assert "Round 3" in again and "2017" in again
    assert sheet_pairs(again) == [(b.white, b.black) for b in p.boards]


def test_why_not_and_a_player_told_in_full() -> None:
    c = client()
    fields = carried(upload(c, ROUND.read_bytes()).get_data(as_text=True))
    why = c.post("/desk/round", data={**fields, "op": "why-not", "why_a": "3", "why_b": "4"}).get_data(as_text=True)
    assert 'id="why-not"' in why and "Why not" in why
    assert re.search(r"<strong>(forbidden|worse|impossible)</strong>", why)  # 3 and 4 already met
    told = c.post("/desk/round", data={**fields, "op": "tell", "player": "3"}).get_data(as_text=True)
    story = told[told.index('id="p3"'):told.index("</section>", told.index('id="p3"'))]
    assert "Tell his pairing" not in story.split("</h3>", 1)[1]


def test_downloads_are_the_pair_list_the_trf_and_the_json() -> None:
    c = client()
    fields = carried(upload(c, ROUND.read_bytes(), "club open.trf").get_data(as_text=True))
    pairs = c.post("/desk/download/pairs", data=fields)
    assert pairs.get_data(as_text=True) == EXPECTED
    assert 'filename="club-open-round-7-pairs.txt"' in pairs.headers["Content-Disposition"]
    trf = c.post("/desk/download/trf", data=fields).get_data(as_text=True)
    t = parse_trf(trf, source="download.trf")
    assert t.rounds_played == 7 or any(p.entry(7) is not None for p in t.players)
    got = sorted(tuple(sorted((p.id, p.entry(7).opponent))) for p in t.players  # type: ignore[union-attr]
                 if p.entry(7) is not None and p.entry(7).opponent is not None)  # type: ignore[union-attr]
    assert sorted(set(got)) == sorted(tuple(sorted(x)) for x in expected_pairs(EXPECTED))
    data = json.loads(c.post("/desk/download/json", data=fields).get_data(as_text=True))
    assert [(b["white"]["id"], b["black"]["id"]) for b in data["boards"]] == expected_pairs(EXPECTED)


def test_the_standings_are_those_of_the_standings_function() -> None:
    from cpsat_pairing import standings

    evil = "<script>alert(1)</script>"
    t = read_trf(PAIRED)
    t = replace(t, players=tuple(replace(p, name=evil) if p.id == 2 else p for p in t.players))
    c = client()
    fields = carried(upload(c, write_trf(t, t.dialect).encode(), "t182.trf").get_data(as_text=True))
    page = c.post("/desk/round", data={**fields, "op": "standings"}).get_data(as_text=True)
    section = page[page.index('<section id="standings"'):]
    section = section[:section.index("</section>")]
    want = standings(parse_trf(fields["trf_text"], source="t182.trf"))
    rows = re.findall(r'<tr><td class="num">(\d+)</td><td class="num">(\d+)</td><td>(.*?)</td><td class="num">(.*?)</td>'
                      r'(.*?)</tr>', section)
    assert [(int(r), int(i), pts) for r, i, _, pts, _ in rows] == [(w.rank, w.id, w.points.text) for w in want.rows]
    assert [re.findall(r'<td class="num">(.*?)</td>', tail) for *_, tail in rows] == [
        [w.tiebreaks[code].text for code in want.tiebreaks] for w in want.rows]
    assert "<script" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in section
    assert "Standings after round" not in c.post("/desk/round", data=fields).get_data(as_text=True)


def test_the_check_and_the_brackets_pages() -> None:
    c = client()
    fields = carried(upload(c, PAIRED.read_bytes(), "t182.trf").get_data(as_text=True))
    report = c.post("/desk/check", data=fields).get_data(as_text=True)
    want = check_data(PAIRED.read_bytes(), "t182.trf", None)
    strip = re.findall(r'title="round (\d+): ([a-z ]+)"', report)
    assert strip == [(str(r.round), r.verdict.value) for r in want.rounds] and strip
    brackets = c.post("/desk/brackets", data={**fields, "round": "4"}).get_data(as_text=True)
    assert "Brackets, top score first" in brackets and "Round 4" in brackets


def test_a_name_with_markup_is_shown_as_text() -> None:
    t = read_trf(ROUND)
    evil = "<script>alert(1)</script>"
    t = replace(t, players=tuple(replace(p, name=evil) if p.id == 3 else p for p in t.players))
    c = client()
    page = upload(c, write_trf(t, "trf16").encode(), '<img src=x>.trf').get_data(as_text=True)
    assert "<script" not in page and "<img" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    fields = carried(page)
    brackets = c.post("/desk/brackets", data=fields).get_data(as_text=True)
    assert "<script" not in brackets and "&lt;script&gt;" in brackets
    assert "<script" not in c.post("/desk/check", data=fields).get_data(as_text=True)


def test_a_file_that_cannot_be_read_says_where_on_the_page() -> None:
    lines = ROUND.read_text().splitlines(keepends=True)
    lines[3] = lines[3][:91] + "x" + lines[3][92:]
    r = upload(client(), "".join(lines).encode(), "broken.trf")
    page = r.get_data(as_text=True)
    assert r.status_code == 400 and 'id="error"' in page
    assert re.search(r"broken\.trf:4:\d+: ", page)
    assert "Traceback" not in page
    empty = upload(client(), b"", "empty.trf")
    assert empty.status_code in (400, 200) and 'id="error"' in empty.get_data(as_text=True)


def test_a_round_without_a_valid_pairing_is_told_for_the_arbiter() -> None:
    r = upload(client(), (DOORS / "nopairing.trf").read_bytes(), "nopairing.trf")
    page = r.get_data(as_text=True)
    assert r.status_code == 422 and "No valid pairing exists" in page and "Traceback" not in page


def test_other_sites_are_refused() -> None:
    c = client()
    assert c.get("/", headers={"Host": "evil.example"}).status_code == 403
    assert c.get("/", headers={"Host": "evil.example:8788"}).status_code == 403
    r = c.post("/desk/round", headers={"Origin": "http://evil.example"},
               data={"file": (io.BytesIO(ROUND.read_bytes()), "t.trf")}, content_type="multipart/form-data")
    assert r.status_code == 403
    assert c.post("/pair", data=ROUND.read_bytes(), headers={"Origin": "null"}).status_code == 403
    same = c.post("/desk/round", headers={"Origin": "http://localhost"},
                  data={"file": (io.BytesIO(ROUND.read_bytes()), "t.trf")}, content_type="multipart/form-data")
    assert same.status_code == 200
    assert c.get("/", headers={"Host": "127.0.0.1:8788"}).status_code == 200
    bound = Client(site("127.0.0.1", 8788, wsgi_app))
    assert bound.get("/", headers={"Host": "127.0.0.1:9999"}).status_code == 403


def test_serve_http_answers_the_desk_and_the_json_service_side_by_side() -> None:
    c = client()
    assert "text/html" in c.get("/").headers["Content-Type"]
    answer = json.loads(c.post("/pair", data=ROUND.read_bytes()).get_data(as_text=True))
    assert answer["result"]["pair_list"] == EXPECTED
    assert json.loads(c.get("/health").get_data(as_text=True))["ok"] is True


def test_an_upload_is_bounded() -> None:
    app = create_app()
    app.config.update(MAX_CONTENT_LENGTH=2000)
    r = app.test_client().post("/desk/round", data={"file": (io.BytesIO(ROUND.read_bytes()), "t.trf")},
                               content_type="multipart/form-data")
    assert r.status_code == 413 and "too large" in r.get_data(as_text=True)


def _held_rounds(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """The desk's rounds held until the event is set: a small round can be paired
    before the app stops waiting, even with no wait at all."""
    import cpsat_pairing.interface.desk.app as desk_app

    release = threading.Event()
    real = desk_app.round_answer

    def held(*args: object) -> object:
        assert release.wait(30)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(desk_app, "round_answer", held)
    return release


def test_a_long_round_shows_progress_then_the_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    page_given = _held_rounds(monkeypatch)
    app = create_app(wait=0.0)
    c = app.test_client()
    r = c.post("/desk/round", data={"file": (io.BytesIO(ROUND.read_bytes()), "t.trf")},
               content_type="multipart/form-data")
    page = r.get_data(as_text=True)
    page_given.set()
    assert r.status_code == 202  # the round is still running
    token = re.search(r"/desk/run/([\w-]+)", page)
    assert token is not None and 'http-equiv="refresh"' in page and 'id="cancel"' in page
    for _ in range(600):
        r = c.get(f"/desk/run/{token.group(1)}")
        if r.status_code != 202:
            break
        time.sleep(0.05)
    assert r.status_code == 200 and sheet_pairs(r.get_data(as_text=True)) == expected_pairs(EXPECTED)
    assert c.get(f"/desk/run/{token.group(1)}").status_code == 404  # given once, then forgotten


def test_a_cancelled_run_stops_at_its_next_progress_report() -> None:
    runs: Runs[int] = Runs()
    started = threading.Event()
    reports = []

    def work(progress: object) -> int:
        started.set()
        for i in range(10_000):
            progress(f"tier {i}")  # type: ignore[operator]
            reports.append(i)
            time.sleep(0.001)
        return 1

    run = runs.start("a long round", work)
    assert started.wait(5)
    assert runs.cancel(run.token)
    with pytest.raises(Cancelled):
        run.future.result(timeout=5)
    assert len(reports) < 10_000 and runs.get(run.token) is None


def test_the_cancel_button_answers_with_the_form(monkeypatch: pytest.MonkeyPatch) -> None:
    release = _held_rounds(monkeypatch)
    app = create_app(wait=0.0)
    c = app.test_client()
    r = c.post("/desk/round", data={"file": (io.BytesIO(ROUND.read_bytes()), "t.trf")},
               content_type="multipart/form-data")
    assert r.status_code == 202
    token = re.search(r"/desk/run/([\w-]+)", r.get_data(as_text=True))
    assert token is not None
    done = c.post(f"/desk/run/{token.group(1)}/cancel")
    release.set()
    assert done.status_code == 200 and "Cancelled." in done.get_data(as_text=True)
    assert c.get(f"/desk/run/{token.group(1)}").status_code == 404


def test_no_browser_without_a_terminal_or_when_suppressed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdout.isatty", lambda: True)
    monkeypatch.delenv("CPSAT_PAIRING_NO_BROWSER", raising=False)
    assert open_browser_wanted(True) and not open_browser_wanted(False)
    monkeypatch.setenv("CPSAT_PAIRING_NO_BROWSER", "1")
    assert not open_browser_wanted(True)
    monkeypatch.delenv("CPSAT_PAIRING_NO_BROWSER")
    monkeypatch.setattr("sys.stdout.isatty", lambda: False)
    assert not open_browser_wanted(True)


def _read_address(proc: subprocess.Popen[str]) -> str:
    assert proc.stdout is not None
    line = proc.stdout.readline()
    found = re.search(r"http://127\.0\.0\.1:\d+/", line)
    assert found is not None, line
    return found.group(0)


def test_the_desk_command_prints_its_address_and_serves_the_page() -> None:
    import os
    import subprocess
    import sys
    import urllib.request

    exe = str(Path(sys.executable).with_name("cpsat-pairing"))
    env = {**os.environ, "CPSAT_PAIRING_NO_BROWSER": "1"}
    with subprocess.Popen([exe, "desk", "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, env=env) as proc:
        try:
            url = _read_address(proc)
            with urllib.request.urlopen(url, timeout=60) as reply:
                assert reply.status == 200 and 'type="file"' in reply.read().decode()
            with urllib.request.urlopen(url + "health", timeout=60) as reply:
                assert json.load(reply)["ok"] is True
            refused = urllib.request.Request(url, headers={"Host": "evil.example"})
            with pytest.raises(urllib.error.HTTPError) as err:
                urllib.request.urlopen(refused, timeout=60)
            assert err.value.code == 403
        finally:
            proc.terminate()
            proc.wait(30)


def test_serve_http_serves_the_desk_at_the_root() -> None:
    import socket
    import sys
    import urllib.request

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    exe = str(Path(sys.executable).with_name("cpsat-pairing"))
    with subprocess.Popen([exe, "serve", "--http", str(port)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True) as proc:
        page = ""
        try:
            for _ in range(300):
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=60) as reply:
                        page = reply.read().decode()
                    break
                except urllib.error.URLError:
                    time.sleep(0.1)
            assert 'type="file"' in page and "arbiter's desk" in page
        finally:
            proc.terminate()
            proc.wait(30)
