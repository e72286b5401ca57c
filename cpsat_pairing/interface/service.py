"""The warm service's requests and answers, as plain data (no I/O: commands/serve.py reads
and writes them, as JSON lines or over HTTP).

A request is a JSON object:

    {"id": 7, "op": "pair", "trf": "<the TRF text>", "edition": "dutch-2017", "round": 5}

`op` is "pair" (the default), "check", "info" or "standings"; `id` is echoed back
untouched; `edition` and `round` are optional as on the command line, and for
`standings` `tiebreaks` (codes, as `--tiebreaks`) and `tiebreak_rules` ("2024" or
"2026").  The answer is

    {"id": 7, "ok": true, "result": {...}}     the `pair --format json` document (plus
                                               `pair_list`, the reference engines' output),
                                               or the `check` / `info` / `standings` JSON
    {"id": 7, "ok": false, "error": {"kind": ..., "message": ..., "exit_code": 3,
                                     "line": 12, "column": 92}}

`kind` is "request" (not a valid request), "input" (the TRF cannot be read: `line`
and `column` say where), "no_valid_pairing", "edition", "limit" or "unexpected"; its
`exit_code` is the one the command line would exit with.  No request stops the service.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cpsat_pairing.errors import (
    EditionError,
    ExitCode,
    InputError,
    LimitExceeded,
    NoValidPairing,
    PairingError,
    SolveLimitError,
)

OPS = ("pair", "check", "info", "standings")
_FIELDS = ("id", "op", "trf", "edition", "round", "tiebreaks", "tiebreak_rules")


class BadRequest(Exception):
    """The request is not an object with the fields above."""


def handle(request: Any) -> dict[str, Any]:
    """The answer to one request (never raises)."""
    rid = request.get("id") if isinstance(request, Mapping) else None
    try:
        op, trf, edition, rnd = _fields(request)
        if op == "standings":
            return {"id": rid, "ok": True, "result": _standings(request, trf, rnd)}
        return {"id": rid, "ok": True, "result": _run(op, trf, edition, rnd)}
    except BadRequest as exc:
        return error(rid, "request", str(exc), ExitCode.INVALID_INPUT)
    except InputError as exc:
        return error(rid, "input", exc.message, exc.exit_code, line=exc.line, column=exc.column)
    except NoValidPairing as exc:
        answer = error(rid, "no_valid_pairing", f"No valid pairing exists: {exc}", exc.exit_code)
        answer["error"].update(players=exc.players, reasons=exc.told, options=exc.options)
        return answer
    except EditionError as exc:
        return error(rid, "edition", str(exc), exc.exit_code)
    except (LimitExceeded, SolveLimitError) as exc:
        return error(rid, "limit", str(exc), exc.exit_code)
    except PairingError as exc:
        return error(rid, "input", str(exc), exc.exit_code)
    except Exception as exc:  # the service answers and goes on
        return error(rid, "unexpected", f"{type(exc).__name__}: {exc}", ExitCode.UNEXPECTED)


def error(rid: Any, kind: str, message: str, code: int, **where: int) -> dict[str, Any]:
    return {"id": rid, "ok": False, "error": {"kind": kind, "message": message, "exit_code": int(code), **where}}


def _fields(request: Any) -> tuple[str, str, str | None, int | None]:
    if not isinstance(request, Mapping):
        raise BadRequest("a request is a JSON object with a `trf` field")
    unknown = sorted(set(request) - set(_FIELDS))
    if unknown:
        raise BadRequest(f"unknown field(s): {', '.join(unknown)} (known: {', '.join(_FIELDS)})")
    op = request.get("op", "pair")
    if op not in OPS:
        raise BadRequest(f"op: expected one of {', '.join(OPS)}, got {op!r}")
    trf = request.get("trf")
    if not isinstance(trf, str) or not trf.strip():
        raise BadRequest("trf: expected the TRF text (a non-empty string)")
    edition = request.get("edition")
    if edition is not None and not isinstance(edition, str):
        raise BadRequest("edition: expected a string such as \"dutch-2026\"")
    rnd = request.get("round")
    if rnd is not None and (not isinstance(rnd, int) or isinstance(rnd, bool) or rnd < 1):
        raise BadRequest("round: expected a whole number of at least 1")
    return op, trf, edition, rnd


def _standings(request: Mapping[str, Any], trf: str, rnd: int | None) -> dict[str, Any]:
    """The `standings --format json` document; the file's own tie-breaks come first."""
    from cpsat_pairing.apps.standings import standings
    from cpsat_pairing.formats import parse_trf
    from cpsat_pairing.interface.views.standings import standings_dict

    codes, rules = request.get("tiebreaks"), request.get("tiebreak_rules")
    if codes is not None and not isinstance(codes, str):
        raise BadRequest('tiebreaks: expected codes such as "BH/C1 BH SB"')
    if rules is not None and rules not in ("2024", "2026"):
        raise BadRequest('tiebreak_rules: expected "2024" or "2026"')
    t = parse_trf(trf, source="<request>")
    s = standings(t, round=rnd, tiebreaks=None if t.tiebreaks or t.standings_order else codes, rules=rules)
    return standings_dict(s)


def _run(op: str, trf: str, edition: str | None, rnd: int | None) -> dict[str, Any]:
    from cpsat_pairing.dutch.edition import edition_for
    from cpsat_pairing.formats import parse_trf

    if op == "check":
        from cpsat_pairing.apps.check import check_data
        from cpsat_pairing.interface.views.check import to_json

        report = check_data(trf.encode("utf-8"), "<request>", edition, None if rnd is None else str(rnd))
        if report.error is not None:
            return {"files": [], "error": report.error, "exit_code": report.exit_code}
        return to_json([report], report.edition or "")
    t = parse_trf(trf, source="<request>")
    if op == "info":
        from cpsat_pairing.interface.commands.files import info_summary

        return info_summary(t)
    from cpsat_pairing.dutch.rounds import pair
    from cpsat_pairing.formats.pair_list import write_pair_list
    from cpsat_pairing.interface.views.render import pairing_to_dict

    choice = edition_for(t, edition)
    if rnd is None and t.total_rounds is not None and t.rounds_played >= t.total_rounds:
        raise BadRequest(f"all {t.total_rounds} rounds are paired (give `round` to re-pair one)")
    result = pair(t, rnd, choice.name)
    data = pairing_to_dict(t, result, choice.reason)
    data["pair_list"] = write_pair_list(result.as_pairs(), result.bye)
    data["notes"] = list(choice.notes)
    return data
