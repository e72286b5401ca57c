"""The desk's routes (Flask): the form, the round as a pairing sheet with its sentences
and why-not, the check, the brackets page, the downloads.

Every route reads the file the form sends (uploaded, or carried back by the page as a
hidden field: the server keeps no tournament between requests) and calls the
applications the command line and the service call; no pairing logic lives here."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from concurrent.futures import TimeoutError as Pending
from dataclasses import dataclass
from typing import Any

from flask import Flask, Response, request
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from cpsat_pairing.domain.tournament import Tournament
from cpsat_pairing.errors import ExitCode, InputError, NoValidPairing, PairingError
from cpsat_pairing.formats.fields import decode
from cpsat_pairing.formats.trf_read import parse_trf
from cpsat_pairing.interface.desk.guard import WSGIApp, guarded
from cpsat_pairing.interface.desk.runs import Cancelled, Progress, Runs
from cpsat_pairing.interface.views.desk import (
    EDITIONS,
    Desk,
    desk_css,
    render_desk,
    render_running,
    sheet,
    standings_table,
)

MAX_UPLOAD = 32 * 2**20  # bytes: the largest file (a 9,999-player TRF is about 12 MB), carried back once
WAIT = 2.0  # seconds a request waits for its answer before showing the progress page
SERVICE_PATHS = frozenset({"/pair", "/check", "/info", "/health"})


class DeskError(PairingError):
    """A form the desk cannot answer (no file, a round out of range)."""

    exit_code = ExitCode.INVALID_INPUT


@dataclass
class Given:
    """What the form sent: the tournament, its text and name, and the choices."""

    t: Tournament
    text: str
    source: str
    edition: str | None
    round: int | None

    @property
    def stem(self) -> str:
        stem = re.sub(r"[^A-Za-z0-9._-]+", "-", self.source.rsplit(".", 1)[0]).strip("-.")
        return stem or "tournament"


def given() -> Given:
    """The request's file and choices, or a located error."""
    upload = request.files.get("file")
    if upload is not None and upload.filename:
        data: str | bytes = upload.read()
        source = re.split(r"[\\/]", upload.filename)[-1] or "upload.trf"
    else:
        data = request.form.get("trf_text", "")
        source = request.form.get("source") or "tournament.trf"
    if not data.strip():
        raise DeskError("no file: pick or drop a tournament file (TRF) first")
    text, _ = decode(data)
    t = parse_trf(data, source=source)
    edition = request.form.get("edition") or None
    if edition is not None and edition not in EDITIONS:
        raise DeskError(f"rules: expected one of {', '.join(EDITIONS)}, got {edition!r}")
    return Given(t, text, source, edition, _number("round"))


def _number(name: str) -> int | None:
    value = (request.form.get(name) or "").strip()
    if not value:
        return None
    if not value.isdigit() or int(value) < 1:
        raise DeskError(f"{name}: expected a whole number of at least 1, got {value!r}")
    return int(value)


def _pairing(g: Given, progress: Progress) -> tuple[Any, str, Desk]:
    """The round asked for, paired as `pair` pairs it, and the page's summary."""
    from cpsat_pairing.dutch.edition import edition_for
    from cpsat_pairing.dutch.rounds import pair
    from cpsat_pairing.interface.commands.files import info_summary

    info = info_summary(g.t)
    last = info["next_round"] or g.t.rounds_played
    desk = Desk(source=g.source, trf=g.text, edition=g.edition or "", info=info, rounds=list(range(1, last + 1)))
    rnd = g.round or info["next_round"]
    if rnd is None:
        desk.notice = f"All {g.t.total_rounds} rounds are paired: choose a round to pair again, or check them."
        return None, "", desk
    if rnd > last:
        raise DeskError(f"round {rnd}: this file can pair rounds 1 to {last}")
    desk.round = rnd
    choice = edition_for(g.t, g.edition)
    return pair(g.t, rnd, choice.name, progress=progress), choice.name, desk


@dataclass
class Asked:
    """The desk page's question beyond the round: why not A-B, one player told in full, the standings."""

    op: str = ""
    player: int | None = None
    a: int | None = None
    b: int | None = None


def asked() -> Asked:
    op = request.form.get("op", "")
    if op == "why-not":
        return Asked(op, a=_number("why_a"), b=_number("why_b"))
    return Asked(op, player=_number("player")) if op == "tell" else Asked(op)


def round_answer(g: Given, q: Asked, progress: Progress) -> Response:
    """The desk page: summary, pairing sheet, sentences; a why-not or one player told in full."""
    from cpsat_pairing.apps.explain import why_not
    from cpsat_pairing.interface.views.explain import why_not_json

    p, edition, desk = _pairing(g, progress)
    if q.op == "standings" and g.t.rounds_played:
        from cpsat_pairing.apps.standings import standings

        desk.standings = standings_table(standings(g.t))
    if p is not None:
        ids = {pl.id for pl in g.t.players}
        desk.player = q.player if q.player in ids else None
        desk.sheet = sheet(g.t, p, edition, frozenset({desk.player}) if desk.player else frozenset())
        if q.op == "why-not":
            a, b = q.a, q.b
            if a is None or b is None or a == b or not {a, b} <= ids:
                desk.notice = "Why not: choose two different players."
            else:
                w = why_not_json(why_not(g.t, p.round, a, b, edition, ours=p))
                name = f"with {a}-{b}"
                desk.why_not = {"a": a, "b": b, "a_name": g.t.player(a).name or a, "b_name": g.t.player(b).name or b,
                                "status": w["status"], "reason": w["reason"],
                                "side_by_side": [{"tier": r["tier"], "rules": r["rules"], "other": r[name]}
                                                 for r in w["side_by_side"]]}
    return html(render_desk(desk))


def brackets_answer(g: Given, progress: Progress) -> Response:
    """The `explain --html` page of the round."""
    from cpsat_pairing.interface.views.round_page import round_page

    p, edition, desk = _pairing(g, progress)
    return html(render_desk(desk)) if p is None else html(round_page(g.t, p, edition))


def check_answer(g: Given, progress: Progress) -> Response:
    """The `check --html` report of every paired round."""
    from cpsat_pairing.apps.check import check_data
    from cpsat_pairing.interface.views.report import render

    progress(f"checking {g.t.rounds_played} rounds")
    report = check_data(g.text.encode("utf-8"), g.source, g.edition)
    return html(render([report], report.edition or g.edition or ""))


def download_answer(g: Given, what: str, progress: Progress) -> Response:
    """The pair list, the TRF with the round appended, or the service's JSON."""
    import json

    from cpsat_pairing.interface.service import handle
    from cpsat_pairing.interface.views.render import bbp_pair_list, trf_with_round

    if what == "json":
        answer = handle({"op": "pair", "trf": g.text, "edition": g.edition, "round": g.round})
        if not answer["ok"]:
            raise DeskError(answer["error"]["message"])
        body = json.dumps(answer["result"], indent=2, ensure_ascii=False) + "\n"
        return attachment(body, f"{g.stem}-round-{answer['result']['round']}.json", "application/json")
    p, _, desk = _pairing(g, progress)
    if p is None:
        return html(render_desk(desk))
    if what == "pairs":
        return attachment(bbp_pair_list(p), f"{g.stem}-round-{p.round}-pairs.txt", "text/plain")
    text = trf_with_round(g.t, p, "trf26" if g.t.dialect == "trf26" else "trf16")
    return attachment(text, f"{g.stem}-round-{p.round}.trf", "text/plain")


def html(body: str, status: int = 200) -> Response:
    return Response(body, status=status, mimetype="text/html")


def attachment(body: str, name: str, mimetype: str) -> Response:
    return Response(body, mimetype=mimetype, headers={"Content-Disposition": f'attachment; filename="{name}"'})


def error_page(message: str, status: int, title: str = "This file cannot be read") -> Response:
    return html(render_desk(Desk(error=message, error_title=title)), status)


def create_app(wait: float = WAIT) -> Flask:
    """The desk's Flask application (its answers solved by one `Runs`)."""
    app = Flask("cpsat_pairing.interface.desk")
    app.config.update(MAX_CONTENT_LENGTH=MAX_UPLOAD, MAX_FORM_MEMORY_SIZE=MAX_UPLOAD, MAX_FORM_PARTS=10_000)
    runs: Runs[Response] = Runs()
    app.extensions["desk_runs"] = runs

    def answer(label: str, work: Callable[[Progress], Response]) -> Response:
        run = runs.start(label, work)
        try:
            result = run.future.result(timeout=wait)
        except Pending:
            return html(render_running(run.token, label, run.status, run.seconds), 202)
        runs.collect(run.token)
        return result

    @app.get("/")
    def start() -> Response:
        return html(render_desk(Desk()))

    @app.get("/desk.css")
    def style() -> Response:
        return Response(desk_css(), mimetype="text/css")

    @app.post("/desk/round")
    def round_() -> Response:
        g, q = given(), asked()
        return answer(f"{g.source}: round {g.round or 'next'}", lambda progress: round_answer(g, q, progress))

    @app.post("/desk/brackets")
    def brackets() -> Response:
        g = given()
        return answer(f"{g.source}: the brackets", lambda progress: brackets_answer(g, progress))

    @app.post("/desk/check")
    def check() -> Response:
        g = given()
        return answer(f"{g.source}: the check", lambda progress: check_answer(g, progress))

    @app.post("/desk/download/<what>")
    def download(what: str) -> Response:
        if what not in ("pairs", "trf", "json"):
            return error_page(f"no such download {what!r}", 404, "Not found")
        g = given()
        return answer(f"{g.source}: the {what}", lambda progress: download_answer(g, what, progress))

    @app.get("/desk/run/<token>")
    def collect(token: str) -> Response:
        run = runs.get(token)
        if run is None:
            return error_page("That answer was given already or cancelled: give the file again.", 404,
                              "Nothing to show")
        if not run.future.done():
            return html(render_running(run.token, run.label, run.status, run.seconds), 202)
        runs.collect(token)
        return run.future.result()

    @app.post("/desk/run/<token>/cancel")
    def cancel(token: str) -> Response:
        runs.cancel(token)
        return html(render_desk(Desk(notice="Cancelled.")))

    @app.errorhandler(InputError)
    def unreadable(exc: InputError) -> Response:
        return error_page(str(exc), 400)

    @app.errorhandler(NoValidPairing)
    def no_pairing(exc: NoValidPairing) -> Response:
        from cpsat_pairing.interface.console import arbiter_text

        return error_page(arbiter_text(exc), 422, "No valid pairing exists")

    @app.errorhandler(PairingError)
    def refused(exc: PairingError) -> Response:
        return error_page(str(exc), 400, "This cannot be done")

    @app.errorhandler(Cancelled)
    def cancelled(exc: Cancelled) -> Response:
        return html(render_desk(Desk(notice="Cancelled.")))

    @app.errorhandler(RequestEntityTooLarge)
    def too_large(exc: RequestEntityTooLarge) -> Response:
        return error_page(f"the file is larger than {MAX_UPLOAD // 2**20} MB", 413, "This file is too large")

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Response:
        return error_page(exc.description or exc.name, exc.code or 400, exc.name)

    @app.errorhandler(Exception)
    def unexpected(exc: Exception) -> Response:  # the page says what went wrong, never a traceback
        return error_page(f"{type(exc).__name__}: {exc}", 500, "Unexpected error")

    return app


def site(bound: str = "127.0.0.1", port: int | None = None, service: WSGIApp | None = None,
         wait: float = WAIT) -> WSGIApp:
    """The desk at `/` and the JSON service's endpoints beside it, refused to every other computer."""
    desk = create_app(wait).wsgi_app

    def dispatch(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        path = environ.get("PATH_INFO", "/").rstrip("/") or "/"
        if service is not None and path in SERVICE_PATHS:
            return service(environ, start_response)
        return desk(environ, start_response)

    return guarded(dispatch, bound, port)
