"""The `check --html` report: one self-contained page (inline CSS, no scripts, no links
to anything outside the file), one section per round, differing boards highlighted.

Built from the same data as the JSON report (check_view.round_json), so the page shows
exactly what the JSON says.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

from cpsat_pairing.apps.check import FileCheck, Verdict, counts
from cpsat_pairing.interface.check_view import round_json, summary_line
from cpsat_pairing.version import __version__

CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:1.5em;color:#222;max-width:70em}
h1{font-size:1.4em}h2{font-size:1.2em;border-bottom:1px solid #ccc;margin-top:2em}h3{font-size:1em;margin:.2em 0}
section.round{border:1px solid #ddd;border-radius:4px;padding:.6em 1em;margin:.8em 0}
.verdict{font-weight:bold;padding:0 .4em;border-radius:3px}
.v-match{background:#dfd}.v-colours-differ{background:#ffd}.v-pairs-differ{background:#fdd}
.v-illegal{background:#f99}.v-no-valid-pairing{background:#fcf}.v-error{background:#ddd}
table{border-collapse:collapse;margin:.4em 1.5em .4em 0;display:inline-table;vertical-align:top}
td,th{border:1px solid #ccc;padding:.15em .5em;text-align:left}th{background:#f4f4f4}
tr.pairdiff td{background:#fcc}tr.coldiff td{background:#ffe08a}tr.byediff td{background:#fcc}
p.why{margin:.3em 0}ul{margin:.2em 0}
.summary td{text-align:right}.summary td:first-child{text-align:left}
"""


def _slug(text: str) -> str:
    return "v-" + text.replace(" ", "-")


def _board_rows(boards: list[dict[str, Any]], bye: int | None, mark: dict[tuple[int, int], str], bye_cls: str,
                rule: bool) -> str:
    rows = []
    for b in boards:
        cls = mark.get((b["white"], b["black"]), "")
        extra = f"<td>{escape(b.get('colour_rule', ''))}</td>" if rule else ""
        attr = f' class="{cls}"' if cls else ""
        rows.append(f"<tr{attr}><td>{b['board']}</td><td>{b['white']}</td><td>{b['black']}</td>{extra}</tr>")
    if bye is not None:
        attr = f' class="{bye_cls}"' if bye_cls else ""
        rows.append(f"<tr{attr}><td></td><td>{bye}</td><td>PAB</td>{'<td></td>' if rule else ''}</tr>")
    return "".join(rows)


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


def _tables(r: dict[str, Any]) -> str:
    ours_mark, file_mark = _marks(r)
    bye_same = bool(r.get("boards") and r["boards"]["bye"])
    bye_cls = "" if bye_same or not r.get("boards") else "byediff"
    out = []
    if r.get("rules"):
        out.append("<table><caption>rules' pairing</caption><tr><th>bd</th><th>white</th><th>black</th>"
                   "<th>colour rule (Art. 5.2)</th></tr>"
                   + _board_rows(r["rules"]["boards"], r["rules"]["bye"], ours_mark, bye_cls, True) + "</table>")
    if r.get("file"):
        out.append("<table><caption>file's pairing</caption><tr><th>bd</th><th>white</th><th>black</th></tr>"
                   + _board_rows(r["file"]["boards"], r["file"]["bye"], file_mark, bye_cls, False) + "</table>")
    return "<div>" + "".join(out) + "</div>"


def _side_by_side(r: dict[str, Any]) -> str:
    rows = r.get("side_by_side") or []
    if not rows:
        return ""
    body = "".join(f"<tr><td>{escape(str(t))}</td><td>{f}</td><td>{g}</td></tr>" for t, f, g in rows)
    return ("<table><caption>tiers that differ in that bracket</caption>"
            "<tr><th>tier</th><th>file</th><th>rules</th></tr>" + body + "</table>")


def _round_section(fi: int, r: dict[str, Any]) -> str:
    verdict = r["verdict"]
    parts = [f'<section class="round" id="f{fi}-r{r["round"]}">',
             f'<h3>Round {r["round"]} <span class="verdict {_slug(verdict)}">{escape(verdict)}</span></h3>']
    if r["summary"]:
        parts.append(f'<p class="why">{escape(r["summary"])}</p>')
    if r.get("illegalities"):
        parts.append("<ul>" + "".join(f"<li>{escape(x)}</li>" for x in r["illegalities"]) + "</ul>")
    if verdict != Verdict.MATCH.value:
        parts.append(_tables(r))
        parts.append(_side_by_side(r))
    parts.append("</section>")
    return "".join(parts)


def _file_section(fi: int, rep: FileCheck) -> str:
    head = f'<section class="file" id="f{fi}"><h2>{escape(rep.file)}</h2>'
    if rep.error:
        return head + f'<p class="why">{escape(rep.error)}</p></section>'
    c = counts([rep])
    info = f"<p>{escape(rep.name or '')} — {rep.players} players, {c['rounds']} rounds checked</p>"
    return head + info + "".join(_round_section(fi, round_json(r)) for r in rep.rounds) + "</section>"


def _summary(reports: Sequence[FileCheck]) -> str:
    verdicts = [v.value for v in Verdict]
    head = "<tr><th>file</th><th>rounds</th>" + "".join(f"<th>{escape(v)}</th>" for v in verdicts) + "</tr>"
    rows = []
    for fi, rep in enumerate(reports):
        c = counts([rep])
        cells = "".join(f"<td>{c[v] or ''}</td>" for v in verdicts)
        rows.append(f'<tr><td><a href="#f{fi}">{escape(rep.file)}</a></td><td>{c["rounds"]}</td>{cells}</tr>')
    return f'<table class="summary">{head}{"".join(rows)}</table>'


def render(reports: Sequence[FileCheck], edition: str) -> str:
    """The whole report as one HTML5 document."""
    body = "".join(_file_section(fi, rep) for fi, rep in enumerate(reports))
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        f"<title>cpsat-pairing check — {escape(edition)}</title>"
        f"<style>{CSS}</style></head><body>"
        f"<h1>Pairing check — {escape(edition)}</h1>"
        f"<p>{escape(summary_line(reports))} (cpsat-pairing {escape(__version__)})</p>"
        f"{_summary(reports)}{body}</body></html>\n"
    )
