"""The `check --html` report: one self-contained page (inline CSS, no scripts, nothing
fetched): a strip of rounds coloured by verdict at the top of each file, then per round
the verdict and, where it differs, the rules' pairing and the file's side by side
(differing boards marked) and the criteria that differ, the deciding one highlighted.

Built from the same data as the JSON report (views.check.round_json) and a template
(templates/check.html.j2) that escapes every value."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from cpsat_pairing.apps.check import FileCheck, Verdict, counts
from cpsat_pairing.formats import points_text
from cpsat_pairing.interface.views.check import round_json, summary_line
from cpsat_pairing.interface.views.round_page import css, environment
from cpsat_pairing.interface.views.standings_check import standings_check_json
from cpsat_pairing.version import __version__


def _who(rep: FileCheck, scores: dict[int, Fraction], pid: int) -> str:
    name, rating = rep.roster.get(pid, ("", 0))
    score = f", {points_text(scores[pid])}" if pid in scores else ""
    return f"{name} ({pid}{score})" if name else f"{pid}{f' ({points_text(scores[pid])})' if pid in scores else ''}"


def _marks(r: dict[str, Any]) -> tuple[dict[tuple[int, int], str], dict[tuple[int, int], str]]:
    """Row classes: pairs only one side has (pairdiff), common pairs with other colours (coldiff)."""
    ours: dict[tuple[int, int], str] = {}
    theirs: dict[tuple[int, int], str] = {}
    cmp = r.get("boards")
    if not cmp:
        return ours, theirs
    for w, b in cmp["rules_only"]:
        ours[(w, b)] = "pairdiff"
    for w, b in cmp["file_only"]:
        theirs[(w, b)] = "pairdiff"
    for c in cmp["colours"]:
        ours[(c["white"], c["black"])] = "coldiff"
        theirs[(c["file_white"], c["file_black"])] = "coldiff"
    return ours, theirs


def _boards(rep: FileCheck, scores: dict[int, Fraction], side: dict[str, Any] | None,
            mark: dict[tuple[int, int], str], bye_cls: str, rules: bool) -> list[dict[str, Any]] | None:
    if side is None:
        return None
    rows = [{"board": b["board"], "white": _who(rep, scores, b["white"]), "black": _who(rep, scores, b["black"]),
             "rule": b.get("colour_rule", "") if rules else "", "cls": mark.get((b["white"], b["black"]), "")}
            for b in side["boards"]]
    if side["bye"] is not None:
        rows.append({"board": "", "white": _who(rep, scores, side["bye"]), "black": "PAB", "rule": "",
                     "cls": bye_cls})
    return rows


def _round(rep: FileCheck, index: int) -> dict[str, Any]:
    rc = rep.rounds[index]
    r = round_json(rc)
    ours, theirs = _marks(r)
    bye_cls = "" if not r.get("boards") or r["boards"]["bye"] else "byediff"
    deciding = (r.get("difference") or {}).get("label")
    tiers = [{"label": label, "file": f, "rules": g, "decides": i == 0 or label == deciding}
             for i, (label, f, g) in enumerate(r.get("side_by_side") or [])]
    if tiers and deciding is not None and any(t["label"] == deciding for t in tiers):
        for t in tiers:
            t["decides"] = t["label"] == deciding
    return {"round": r["round"], "verdict": r["verdict"], "summary": r["summary"], "illegalities": r["illegalities"],
            "rules": _boards(rep, rc.scores, r["rules"], ours, bye_cls, True),
            "file": _boards(rep, rc.scores, r["file"], theirs, bye_cls, False), "tiers": tiers}


def render(reports: Sequence[FileCheck], edition: str) -> str:
    """The whole report as one HTML5 document."""
    files = []
    for fi, rep in enumerate(reports):
        files.append({"index": fi, "file": rep.file, "error": rep.error, "name": rep.name, "players": rep.players,
                      "edition": rep.edition or edition, "edition_reason": rep.edition_reason,
                      "counts": counts([rep]), "rounds": [_round(rep, i) for i in range(len(rep.rounds))],
                      "standings": standings_check_json(rep.standings)})
    return environment().get_template("check.html.j2").render(
        css=css(), edition=edition, summary=summary_line(reports), version=__version__, files=files,
        verdicts=[v.value for v in Verdict],
    )
