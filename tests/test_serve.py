"""The warm service: JSON lines and HTTP answer each request with the pairing JSON or a
located error, and no request stops it."""

from __future__ import annotations

import io
import json
import socket
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from cpsat_pairing.formats import read_trf
from cpsat_pairing.interface.commands.serve import serve_lines, wsgi_app
from cpsat_pairing.interface.service import handle
from cpsat_pairing.testing.corpus import prepared_round, recorded

DOORS = Path(__file__).parent / "fixtures" / "doors"
CORPUS = Path(__file__).parent / "fixtures" / "corpus" / "dutch-2026" / "dev" / "t000182.trf"
ROUND = (DOORS / "t000002_r1-6.trf").read_text()
EXPECTED = (DOORS / "t000002_r7.pairs").read_text()


def test_pair_request_answers_with_the_pairing_json() -> None:
    answer = handle({"id": "r7", "trf": ROUND})
    assert answer["id"] == "r7" and answer["ok"] is True
    result = answer["result"]
    assert result["round"] == 7 and result["pair_list"] == EXPECTED
    assert [[b["white"]["id"], b["black"]["id"]] for b in result["boards"]] == [
        [int(x) for x in line.split()] for line in EXPECTED.splitlines()[1:]
    ]


def test_round_edition_and_absences_as_on_the_command_line() -> None:
    t = read_trf(CORPUS)
    answer = handle({"trf": prepared_round(t, 5, "symbols"), "edition": "dutch-2026"})
    pairs = {(b["white"]["id"], b["black"]["id"]) for b in answer["result"]["boards"]}
    bye = answer["result"]["bye"]
    assert (pairs, None if bye is None else bye["id"]) == recorded(t, 5)
    again = handle({"trf": (CORPUS).read_text(), "round": 3})
    assert again["result"]["round"] == 3


@pytest.mark.parametrize(("request_", "kind", "where"), [
    ({"trf": "001 x\n"}, "input", True),
    ({"trf": ROUND, "edition": "dutch-1999"}, "edition", False),
    ({"trf": ROUND, "round": 0}, "request", False),
    ({"trf": ROUND, "colour": "white"}, "request", False),
    ({"trf": ""}, "request", False),
    ({"trf": ROUND, "op": "explode"}, "request", False),
    (["not", "an", "object"], "request", False),
    ({"trf": (DOORS / "nopairing.trf").read_text()}, "no_valid_pairing", False),
])
def test_bad_requests_get_a_located_error(request_: object, kind: str, where: bool) -> None:
    answer = handle(request_)
    assert answer["ok"] is False and answer["error"]["kind"] == kind
    assert answer["error"]["exit_code"] in (1, 3)
    assert ("line" in answer["error"] and "column" in answer["error"]) is where


def test_a_round_past_the_next_one_is_an_input_error_naming_the_next() -> None:
    answer = handle({"trf": ROUND, "round": 9})
    assert answer["ok"] is False and answer["error"]["kind"] == "input" and answer["error"]["exit_code"] == 3
    assert "next round that can be paired is 7" in answer["error"]["message"]
    assert handle({"trf": ROUND, "round": 7})["ok"] is True


def test_check_and_info_requests() -> None:
    check = handle({"op": "check", "trf": CORPUS.read_text()})
    assert check["ok"] and check["result"]["exit_code"] == 0
    info = handle({"op": "info", "trf": ROUND})
    assert info["ok"] and info["result"]["next_round"] == 7


def test_json_lines_go_on_after_bad_lines() -> None:
    lines = "\n".join([
        json.dumps({"id": 1, "trf": ROUND}), "{not json", "", json.dumps({"id": 2, "trf": "garbage"}),
        json.dumps({"id": 3, "trf": ROUND}),
    ]) + "\n"
    sink = io.StringIO()
    assert serve_lines(io.StringIO(lines), sink) == 0
    answers = [json.loads(line) for line in sink.getvalue().splitlines()]
    assert [(a["id"], a["ok"]) for a in answers] == [(1, True), (None, False), (2, False), (3, True)]
    assert answers[0]["result"]["pair_list"] == answers[3]["result"]["pair_list"] == EXPECTED


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_http_endpoint_on_localhost() -> None:
    waitress = pytest.importorskip("waitress")
    port = _free_port()
    server = waitress.create_server(wsgi_app, host="127.0.0.1", port=port, threads=1)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{port}"

    def post(path: str, body: bytes, ctype: str) -> tuple[int, dict[str, object]]:
        req = urllib.request.Request(base + path, data=body, headers={"Content-Type": ctype}, method="POST")
        try:
            with urllib.request.urlopen(req, timeout=60) as resp:
                return resp.status, json.loads(resp.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())

    try:
        with urllib.request.urlopen(base + "/health", timeout=30) as resp:
            assert json.loads(resp.read())["ok"] is True
        status, data = post("/pair", json.dumps({"trf": ROUND}).encode(), "application/json")
        assert status == 200 and data["result"]["pair_list"] == EXPECTED  # type: ignore[index]
        status, data = post("/pair?edition=dutch-2026", ROUND.encode(), "text/plain")
        assert status == 200 and data["result"]["pair_list"] == EXPECTED  # type: ignore[index]
        status, data = post("/pair", b"{broken", "application/json")
        assert status == 400 and data["error"]["kind"] == "request"  # type: ignore[index]
        status, data = post("/pair", b"001 x\n", "text/plain")
        assert status == 400 and data["error"]["line"] == 1  # type: ignore[index]
        status, data = post("/pair?round=99", ROUND.encode(), "text/plain")
        assert status == 400 and "is 7" in data["error"]["message"]  # type: ignore[index]
        status, data = post("/nowhere", b"x", "text/plain")
        assert status == 404
        status, data = post("/pair", (DOORS / "nopairing.trf").read_bytes(), "text/plain")
        assert status == 422
        status, data = post("/pair", ROUND.encode(), "text/plain")  # still serving
        assert status == 200
    finally:
        server.close()


def test_a_check_of_a_round_the_file_does_not_hold_is_an_input_error() -> None:
    answer = handle({"op": "check", "trf": CORPUS.read_text(), "round": 99})
    assert answer["ok"] and answer["result"]["exit_code"] == 3 and answer["result"]["files"] == []
    assert "holds no round 99: rounds 1-" in answer["result"]["error"]
