"""Standings rendered: a rich table, JSON (the shape issue 42 fixes), CSV and HTML."""

from __future__ import annotations

import csv
import html
import io
from fractions import Fraction
from typing import Any

from rich.table import Table

from cpsat_pairing.apps.standings import Part, Standings, Value

__all__ = [
    "standings_csv", "standings_dict", "standings_html", "standings_table", "tiebreak_sentences", "tiebreak_story_json",
    "value_text",
]


def _plain(v: Fraction | int | None) -> int | float | None:
    """A JSON number: integers stay integers, fractions become decimals."""
    if v is None:
        return None
    if isinstance(v, int) or v.denominator == 1:
        return int(v)
    return float(v)


def value_text(v: Value) -> str:
    return v.text


def source_text(s: Standings) -> str:
    return {"asked": "as asked (--tiebreaks)", "file 202": "declared by the file (202)",
            "file 212": "the file's standings order (212)",
            "default": "the default list for an individual Swiss (the file declares none, and C.07 names no "
                       "default: 2.1 and 4.1.1 leave the list to the regulations and the Chief Arbiter)"}[s.source]


def standings_dict(s: Standings) -> dict[str, Any]:
    return {
        "round": s.round,
        "rules": s.rules.value,
        "tiebreaks": list(s.tiebreaks),
        "players": [
            {"id": r.id, "name": r.name, "rank": r.rank, "points": _plain(r.points.value),
             "tiebreaks": {code: _plain(v.value) for code, v in r.tiebreaks.items()}}
            for r in s.rows
        ],
    }


def standings_csv(s: Standings) -> str:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["rank", "id", "name", "points", *s.tiebreaks])
    for r in s.rows:
        w.writerow([r.rank, r.id, r.name, value_text(r.points), *(value_text(r.tiebreaks[c]) for c in s.tiebreaks)])
    return out.getvalue()


def standings_table(s: Standings) -> Table:
    table = Table(title=f"Standings after round {s.round}", title_justify="left",
                  caption=f"Tie-breaks: {source_text(s)}. C.07 text of {s.rules.value}: {s.rules_why}.",
                  caption_justify="left")
    for name, justify in (("rank", "right"), ("id", "right"), ("name", "left"), ("points", "right")):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for code in s.tiebreaks:
        table.add_column(code, justify="right")
    for r in s.rows:
        table.add_row(str(r.rank), str(r.id), r.name, value_text(r.points),
                      *(value_text(r.tiebreaks[c]) for c in s.tiebreaks))
    return table


def standings_html(s: Standings, title: str = "") -> str:
    e = html.escape
    head = "".join(f"<th>{e(c)}</th>" for c in ["rank", "id", "name", "points", *s.tiebreaks])
    rows = "\n".join(
        "<tr>" + "".join(f"<td>{e(x)}</td>" for x in [str(r.rank), str(r.id), r.name, value_text(r.points),
                                                     *(value_text(r.tiebreaks[c]) for c in s.tiebreaks)]) + "</tr>"
        for r in s.rows
    )
    return (f"<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>{e(title or 'Standings')}</title></head>"
            f"<body>\n<h1>{e(title or 'Standings')} after round {s.round}</h1>\n"
            f"<p>Tie-breaks: {e(source_text(s))}. C.07 text of {e(s.rules.value)}: {e(s.rules_why)}.</p>\n"
            f"<table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n{rows}\n</tbody></table>\n</body></html>\n")


# --- explain --player N --tiebreaks ----------------------------------------------------------


def _part_text(code: str, part: Part, cut: tuple[int, ...], names: dict[int, str]) -> str:
    who = f" vs {part.opponent} {names.get(part.opponent, '')}".rstrip() if part.opponent is not None else ""
    worth = "-" if part.value is None else Value(part.value).text
    mark = " — cut" if part.round in cut else ""
    return f"  round {part.round}{who}: {part.why}: {worth}{mark}"


def tiebreak_sentences(s: Standings, pid: int, names: dict[int, str]) -> list[str]:
    """One player's points and tie-breaks told: for each value the rounds and opponents
    that counted, what each unplayed round was worth and why, what was cut."""
    row = s.row(pid)
    lines = [f"{pid} {row.name}: rank {row.rank} after round {s.round}, {row.points.text} points "
             f"(C.07 text of {s.rules.value}: {s.rules_why}; tie-breaks {source_text(s)})."]
    for code, v in [("points", row.points), *row.tiebreaks.items()]:
        lines.append(f"{code} = {v.text}" + (f" ({v.note})" if v.note else ""))
        lines += [_part_text(code, p, v.cut, names) for p in v.parts]
        if v.cut:
            lines.append(f"  cut: round{'s' if len(v.cut) > 1 else ''} {', '.join(map(str, v.cut))}")
    return lines


def tiebreak_story_json(s: Standings, pid: int) -> dict[str, Any]:
    row = s.row(pid)

    def one(v: Value) -> dict[str, Any]:
        return {"value": _plain(v.value), "note": v.note or None, "cut": list(v.cut),
                "parts": [{"round": p.round, "opponent": p.opponent, "value": _plain(p.value), "why": p.why,
                           "cut": p.round in v.cut} for p in v.parts]}

    return {"id": pid, "name": row.name, "rank": row.rank, "round": s.round, "rules": s.rules.value,
            "rules_reason": s.rules_why, "points": one(row.points),
            "tiebreaks": {code: one(v) for code, v in row.tiebreaks.items()}}
