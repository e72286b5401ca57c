"""`serve`: the engine kept loaded for programs that pair round after round, so that a
call costs the pairing and not the start-up (importing the solver).

Two transports for the same requests and answers (interface/service.py): JSON lines on
stdin/stdout (a program starts `cpsat-pairing serve` once and talks to it through a
pipe), and HTTP on localhost (`--http PORT`, served by waitress: `pip install
'cpsat-pairing[service]'`; with Flask, the arbiter's desk is served beside it, at `/`).
Requests are answered one at a time, in order.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable
from typing import IO, Annotated, Any
from urllib.parse import parse_qs

import typer

from cpsat_pairing.errors import ExitCode
from cpsat_pairing.interface.console import EPILOG, app, cli_errors, fail
from cpsat_pairing.interface.service import error, handle
from cpsat_pairing.version import __version__

MAX_BODY = 64 * 2**20  # bytes: a 9,999-player TRF is about 12 MB after 20 rounds


def warm_up() -> None:
    """Import and exercise the solver once, so the first request is as fast as the rest."""
    from cpsat_pairing import examples

    handle({"op": "pair", "trf": examples.read_bytes().decode("utf-8")})


def answer_line(line: str) -> dict[str, Any] | None:
    """One JSON line in, its answer out (None for a blank line)."""
    if not line.strip():
        return None
    try:
        request = json.loads(line)
    except json.JSONDecodeError as exc:
        return error(None, "request", f"not JSON: {exc.msg} (column {exc.colno})", ExitCode.INVALID_INPUT)
    return handle(request)


def serve_lines(source: IO[str], sink: IO[str]) -> int:
    """Answer each line of `source` with one line on `sink` until `source` ends."""
    for line in source:
        answer = answer_line(line)
        if answer is not None:
            sink.write(json.dumps(answer, ensure_ascii=False) + "\n")
            sink.flush()
    return 0


# --- HTTP ----------------------------------------------------------------------------------

_STATUS = {None: "200 OK", "request": "400 Bad Request", "input": "400 Bad Request", "edition": "400 Bad Request",
           "no_valid_pairing": "422 Unprocessable Entity", "limit": "413 Content Too Large",
           "unexpected": "500 Internal Server Error"}

StartResponse = Callable[[str, list[tuple[str, str]]], Any]


def wsgi_app(environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
    """POST /pair, /check or /info with a JSON request (or the TRF text itself, options in
    the query string: ?edition=dutch-2017&round=5); GET /health."""
    path = environ.get("PATH_INFO", "/").rstrip("/") or "/"
    method = environ.get("REQUEST_METHOD", "GET")
    if path == "/health" and method == "GET":
        return _reply(start_response, "200 OK", {"ok": True, "version": __version__})
    op = path.lstrip("/")
    if op not in ("pair", "check", "info"):
        return _reply(start_response, "404 Not Found",
                      error(None, "request", f"no such endpoint {path} (POST /pair, /check, /info; GET /health)",
                            ExitCode.INVALID_INPUT))
    if method != "POST":
        return _reply(start_response, "405 Method Not Allowed",
                      error(None, "request", f"{path} takes POST", ExitCode.INVALID_INPUT))
    try:
        length = int(environ.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = -1
    if not 0 < length <= MAX_BODY:
        return _reply(start_response, "413 Content Too Large" if length > MAX_BODY else "400 Bad Request",
                      error(None, "request", f"the body must hold 1 to {MAX_BODY} bytes", ExitCode.INVALID_INPUT))
    body = environ["wsgi.input"].read(length)
    request, problem = _request(body, environ.get("CONTENT_TYPE", ""), environ.get("QUERY_STRING", ""), op)
    answer = handle(request) if problem is None else problem
    kind = None if answer.get("ok") else answer["error"]["kind"]
    return _reply(start_response, _STATUS.get(kind, "400 Bad Request"), answer)


def _request(body: bytes, content_type: str, query: str, op: str) -> tuple[Any, dict[str, Any] | None]:
    """(the request: the JSON body, or the TRF text with the query's options; None) or
    (None, the answer to a body that is no request)."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, error(None, "request", f"the body is not UTF-8 (byte {exc.start})", ExitCode.INVALID_INPUT)
    if content_type.split(";")[0].strip() == "application/json":
        try:
            request = json.loads(text)
        except json.JSONDecodeError as exc:
            return None, error(None, "request", f"not JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})",
                               ExitCode.INVALID_INPUT)
        if isinstance(request, dict):
            request.setdefault("op", op)
        return request, None
    options: dict[str, Any] = {k: v[-1] for k, v in parse_qs(query).items()}
    if "round" in options:
        options["round"] = int(options["round"]) if options["round"].isdigit() else options["round"]
    return {"op": op, "trf": text, **options}, None


def _reply(start_response: StartResponse, status: str, data: dict[str, Any]) -> list[bytes]:
    body = json.dumps(data, ensure_ascii=False).encode("utf-8")
    start_response(status, [("Content-Type", "application/json; charset=utf-8"), ("Content-Length", str(len(body)))])
    return [body]


@app.command(epilog=EPILOG)
@cli_errors
def serve(
    http: Annotated[int | None, typer.Option("--http", metavar="PORT", help="Serve HTTP on this port instead of "
                                             "JSON lines on stdin/stdout.")] = None,
    host: Annotated[str, typer.Option("--host", help="The address to listen on with --http.")] = "127.0.0.1",
) -> None:
    """Keep the engine loaded and answer pairing requests: JSON lines on stdin/stdout, or HTTP.

    A request is {"op": "pair" | "check" | "info", "trf": TEXT, "edition": E, "round": R, "id": ANY}
    (only trf is required); the answer {"id", "ok": true, "result"} holds the `pair --format json`
    document, or {"id", "ok": false, "error": {"kind", "message", "exit_code", "line", "column"}}.
    Over HTTP: POST /pair, /check or /info with that JSON (or the TRF itself, options in the query
    string); GET /health; with Flask installed (the [desk] extra), the arbiter's desk at / (see `desk`).
    """
    warm_up()
    if http is None:
        raise typer.Exit(serve_lines(sys.stdin, sys.stdout))
    try:
        import waitress
    except ImportError:
        fail("serve --http needs waitress: pip install 'cpsat-pairing[service]'", ExitCode.INVALID_INPUT)
    application: Callable[..., Iterable[bytes]] = wsgi_app
    try:
        from cpsat_pairing.interface.desk.app import site
    except ImportError:  # without flask: the JSON endpoints only
        pass
    else:
        application = site(host, http, wsgi_app)
    typer.echo(f"serving on http://{host}:{http} (POST /pair, /check, /info; GET /health; the desk at /)", err=True)
    waitress.serve(application, host=host, port=http, threads=1, ident="cpsat-pairing", max_request_body_size=MAX_BODY)
