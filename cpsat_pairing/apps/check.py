"""Check a paired tournament against the rules: re-pair every round and compare.

For each round R the file holds, R is paired from rounds 1..R-1 (absences of R kept)
and compared with the file's round R.  When they differ, the file's pairing is scored
on the very same brackets and tiers (`engine.pair(..., forced=...)`), so the report
can name the first criterion where the two differ -- the rules compare candidates
bracket by bracket, top-down, criterion by criterion, so that first difference is the
reason one pairing beats the other.

Everything here returns plain data (JSON-ready dicts); the CLI prints, `report_html`
renders.  Verdicts per round: `match`, `colours differ` (same pairs), `pairs differ`,
`illegal` (the file breaks an absolute criterion), `no valid pairing` (the engine finds
none), and `error` (the engine failed, e.g. a solver limit).
"""

from __future__ import annotations

import dataclasses

import re
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Group
from rich.table import Table
from rich.text import Text

from cpsat_pairing.dutch.edition import Edition, load_edition
from cpsat_pairing.dutch.rounds import BracketTrace, NoValidPairing, Pairing, illegalities, pair
from cpsat_pairing.errors import ExitCode, PairingError
from cpsat_pairing.domain.state import RoundState, build_state, round_exists
from cpsat_pairing.domain.tournament import Colour, Tournament
from cpsat_pairing.formats import format_points, parse_trf, read_trf

MATCH = "match"
COLOURS_DIFFER = "colours differ"
PAIRS_DIFFER = "pairs differ"
ILLEGAL = "illegal"
NO_VALID_PAIRING = "no valid pairing"
ERROR = "error"
VERDICTS = (MATCH, COLOURS_DIFFER, PAIRS_DIFFER, ILLEGAL, NO_VALID_PAIRING, ERROR)

# `check` exits 10 when a round is not the rules' pairing (bbpPairings' checker uses 1
# for that, which we keep for "no valid pairing" of `pair`).
EXIT_DIFFERS = 10

# 2026 criteria are [Cn], 2017 ones [C.n]; the 2013 edition's tiers are named after
# its own terms (P, M1, X, Z, B.2-B.6, A.7.d: criteria2013.py).
_QUALITY = re.compile(r"^(C\.?\d+|P|M1|X|Z|B\.\d|A\.7\.d)\b\s*(.*)$")
# Generation-order tiers (engine/order.py) and the article that defines each.
_ORDER_ARTICLE = (("MDP set", "4.4"), ("MDP-pairing", "4.2"), ("exchange", "4.3"), ("transposition", "4.2"))


# --- the file's round -------------------------------------------------------------------


@dataclass(frozen=True)
class FileRound:
    """One round as recorded: pairs (white, black), the PAB, and the pairs without colours.

    A pair with no colour recorded on either side is stored as (lower id, higher id)
    and compared by ids only; forfeited games (+/-) are pairings like any other.
    """

    pairs: tuple[tuple[int, int], ...]
    bye: int | None
    colourless: frozenset[frozenset[int]]


def file_round(t: Tournament, rnd: int) -> FileRound:
    """Read round `rnd` off the player lines (colour w → (player, opponent); PAB = U)."""
    oriented: dict[frozenset[int], tuple[int, int]] = {}
    seen: set[frozenset[int]] = set()
    bye = None
    for p in t.players:
        e = p.entry(rnd)
        if e is None:
            continue
        if e.result == "U" and e.opponent is None:
            bye = p.id
            continue
        if e.opponent is None:
            continue
        key = frozenset((p.id, e.opponent))
        seen.add(key)
        if e.colour is Colour.WHITE:
            oriented[key] = (p.id, e.opponent)
        elif e.colour is Colour.BLACK:
            oriented[key] = (e.opponent, p.id)
    colourless = frozenset(k for k in seen if k not in oriented)
    pairs = list(oriented.values()) + [tuple(sorted(k)) for k in colourless]
    return FileRound(tuple(sorted(pairs, key=min)), bye, colourless)  # type: ignore[arg-type]


# --- comparing two traces ---------------------------------------------------------------


def tier_label(name: str) -> str:
    """'C12 unmet colour preferences' → '[C12] unmet colour preferences'; order tiers get
    their article ('Art. 4.3 exchange: BSN sum difference')."""
    m = _QUALITY.match(name)
    if m:
        return f"[{m.group(1)}] {m.group(2)}".rstrip()
    for prefix, article in _ORDER_ARTICLE:
        if name.startswith(prefix):
            return f"Art. {article} {name}"
    return name


def is_quality(name: str) -> bool:
    """Quality criteria are named after their [Cn]; everything else is generation order."""
    return bool(_QUALITY.match(name))


def _aligned(a: Sequence[tuple[str, int]], b: Sequence[tuple[str, int]]) -> list[tuple[str, int, int]]:
    """Both traces on one list of tier names, in solving order.

    A tier that applies to one candidate only (e.g. [C9], asked only when the PAB falls
    in the bracket) counts as 0 for the other.
    """
    va, vb = dict(a), dict(b)
    names = [n for n, _ in a]
    for i, (n, _) in enumerate(b):
        if n not in va:
            before = b[i - 1][0] if i else None
            pos = names.index(before) + 1 if before in names else len(names)
            names.insert(pos, n)
    return [(n, va.get(n, 0), vb.get(n, 0)) for n in names]


def _pts(x: Fraction | None) -> str:
    return "-" if x is None else format_points(x)


def _composition(a: BracketTrace, b: BracketTrace) -> bool:
    return a.score == b.score and set(a.residents) == set(b.residents) and set(a.mdps) == set(b.mdps)


def first_difference(ours: Pairing, other: Pairing) -> dict[str, Any] | None:
    """The first tier, bracket by bracket from the top, where `other` scores differently
    from `ours` (the rules' pairing); None when every bracket is identical.

    Values: lower is better.  `kind` is `pab` ([C5]), `quality`, `generation` (Art. 4),
    `composition` (the brackets themselves differ) or `undetermined`.
    """
    if ours.pab_score != other.pab_score:
        return _diff(None, "C5 PAB score", ours.pab_score, other.pab_score, "pab")
    for a, b in zip(ours.brackets, other.brackets):
        if not _composition(a, b):
            return {
                "kind": "composition", "bracket": _pts(a.score), "tier": None,
                "rules": {"score": _pts(a.score), "residents": a.residents, "mdps": a.mdps},
                "other": {"score": _pts(b.score), "residents": b.residents, "mdps": b.mdps},
                "other_better": False,
            }
        for name, rv, ov in _aligned(a.tiers, b.tiers):
            if rv != ov:
                return _diff(a.score, name, rv, ov, "quality" if is_quality(name) else "generation")
        if {frozenset(pq) for pq in a.pairs} != {frozenset(pq) for pq in b.pairs} or set(a.downfloaters) != set(
            b.downfloaters
        ):
            return {"kind": "undetermined", "bracket": _pts(a.score), "tier": None, "rules": None, "other": None,
                    "other_better": False}
    if len(ours.brackets) != len(other.brackets):
        return {"kind": "composition", "bracket": None, "tier": None, "rules": len(ours.brackets),
                "other": len(other.brackets), "other_better": False}
    return None


def _diff(score: Fraction | None, tier: str, rules: Any, other: Any, kind: str) -> dict[str, Any]:
    num = (lambda v: None if v is None else float(v)) if kind == "pab" else (lambda v: v)
    better = rules is not None and other is not None and other < rules
    return {"kind": kind, "bracket": None if score is None else _pts(score), "tier": tier,
            "label": tier_label(tier), "rules": num(rules), "other": num(other), "other_better": better}


def differing_tiers(ours: BracketTrace, other: BracketTrace) -> list[tuple[str, int, int]]:
    """Every tier of one bracket where the two differ (name, rules, other): side by side."""
    return [(n, r, o) for n, r, o in _aligned(ours.tiers, other.tiers) if r != o]


def relevant_tiers(diff: dict[str, Any], ours: BracketTrace, other: BracketTrace) -> list[tuple[str, int, int]]:
    """The differing tiers worth showing: only criteria when a criterion decided (the
    generation order below it no longer matters), all of them otherwise."""
    rows = differing_tiers(ours, other)
    return [x for x in rows if is_quality(x[0])] if diff["kind"] == "quality" else rows


# Tiers the solver maximises by minimising a negated count, and what that count is.
_NEGATED = {"exchange: players moved": "exchange: original S1 players kept in S1"}


def shown(name: str, rules: int, other: int) -> tuple[str, int, int, str]:
    """(label, rules, other, note) as a reader expects them: counts the rules maximise
    (solved negated, e.g. [C8] pairs, the S1 players an exchange keeps) shown positive
    with '(more is better)'; everything else as solved (lower is better)."""
    if min(rules, other) < 0 and max(rules, other) <= 0:
        label = tier_label(_NEGATED.get(name, name))
        return label, -rules, -other, " (more is better)"
    return tier_label(name), rules, other, ""


def side_row(name: str, rules: int, other: int) -> tuple[str, int, int]:
    """(label, rules, other) for a side-by-side table."""
    label, r, o, note = shown(name, rules, other)
    return label + note, r, o


def _pab(score: float | None) -> str:
    return "none" if score is None else format_points(Fraction(score))


def describe(diff: dict[str, Any] | None, other_name: str = "file", rules_name: str = "rules") -> str:
    """One line for a difference: 'bracket 3.0: [C12] unmet colour preferences — file 3, rules 2'."""
    if diff is None:
        return "no tier differs"
    kind = diff["kind"]
    if kind == "unscored":
        return str(diff["reason"])
    where = f"bracket {diff['bracket']}: " if diff.get("bracket") is not None else ""
    if kind == "composition":
        return f"{where}the brackets differ (other residents or MDPs) with every tier above equal"
    if kind == "undetermined":
        return f"{where}different pairs with every tier equal (the generation order does not separate them)"
    if kind == "pab":
        label, r, o, note = diff["label"], _pab(diff["rules"]), _pab(diff["other"]), ""
    else:
        label, r, o, note = shown(diff["tier"], diff["rules"], diff["other"])
    values = f"{label} — {other_name} {o}, {rules_name} {r}{note}"
    if kind == "generation":
        if diff["other_better"]:
            return (f"{where}same quality on every criterion, but the {other_name}'s pairing is generated first "
                    f"({values}): a bug on one side or a wrong edition")
        return f"{where}same quality on every criterion; the rules' generation order picks ours first ({values})"
    text = f"{where}{values}"
    if diff["other_better"]:
        text += f": the {other_name}'s pairing is better here, so the edition is wrong or one side has a bug"
    return text


# --- one round --------------------------------------------------------------------------


def board_order(st: RoundState, pairs: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """Pairs in board order (C.04.2 Art. 3.6): higher player's score, lower's, higher's TPN."""

    def key(pq: tuple[int, int]) -> tuple[Fraction, Fraction, int]:
        a, b = (st.players[x] for x in pq)
        hi, lo = (a, b) if (-a.score, a.id) < (-b.score, b.id) else (b, a)
        return (-hi.score, -lo.score, hi.id)

    return sorted(pairs, key=key)


def _boards(ours: Pairing | None) -> list[dict[str, Any]]:
    if ours is None:
        return []
    return [{"board": i, "white": b.white, "black": b.black, "colour_rule": b.colour_rule}
            for i, b in enumerate(ours.boards, start=1)]


def compare_boards(ours: Pairing, fr: FileRound) -> dict[str, Any]:
    """Which pairs only one side has, and which common pairs got other colours."""
    mine = {frozenset((b.white, b.black)): b for b in ours.boards}
    theirs = {frozenset(pq): pq for pq in fr.pairs}
    colours = []
    for i, b in enumerate(ours.boards, start=1):
        key = frozenset((b.white, b.black))
        pq = theirs.get(key)
        if pq is not None and key not in fr.colourless and pq != (b.white, b.black):
            colours.append({"board": i, "white": b.white, "black": b.black, "colour_rule": b.colour_rule,
                            "file_white": pq[0], "file_black": pq[1]})
    return {
        "rules_only": [[b.white, b.black] for k, b in mine.items() if k not in theirs],
        "file_only": [list(pq) for k, pq in theirs.items() if k not in mine],
        "colours": colours,
        "bye": ours.bye == fr.bye,
    }


def _colour_text(colours: list[dict[str, Any]]) -> str:
    """The boards with other colours (the first two, then a count); when every one was
    decided by TPN parity (Art. 5.2.5), the initial colour is the likely culprit."""
    parts = [
        f"board {c['board']} {c['white']}-{c['black']}: the file gives White to {c['file_white']}; "
        f"Art. {c['colour_rule']} gives it to {c['white']}"
        for c in colours[:2]
    ]
    text = "; ".join(parts)
    if len(colours) > 2:
        text += f"; and {len(colours) - 2} more boards"
    if len(colours) > 1 and all(c["colour_rule"].startswith("5.2.5") for c in colours):
        text += " (all by TPN parity: is the initial colour, XXC/152, right?)"
    return text


def _result(rnd: int, verdict: str, **details: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"round": rnd, "verdict": verdict, "summary": "", "difference": None,
                           "illegalities": [], "rules": None, "file": None, "boards": None, "error": None}
    out.update(details)
    return out


def check_round(t: Tournament, rnd: int, edition: Edition) -> dict[str, Any]:
    """Pair round `rnd` from rounds 1..rnd-1 and compare it with the file's round."""
    t0 = time.perf_counter()
    file_side: dict[str, Any] | None = None
    try:
        fr = file_round(t, rnd)
        st = build_state(t, rnd, edition.state_rules)
        file_side = {"boards": [{"board": i, "white": w, "black": b, "colours": frozenset((w, b)) not in fr.colourless}
                                for i, (w, b) in enumerate(board_order(st, fr.pairs), start=1)], "bye": fr.bye}
        res = _check_round(t, rnd, edition, fr, file_side)
        _in_edition_terms(res, edition)
    except PairingError as exc:
        res = _result(rnd, ERROR, summary=str(exc), error=str(exc), file=file_side, exit_code=int(exc.exit_code))
    except Exception as exc:  # a check reports every round, it does not stop at one
        text = f"unexpected error: {type(exc).__name__}: {exc}"
        res = _result(rnd, ERROR, summary=text, error=text, file=file_side, exit_code=int(ExitCode.UNEXPECTED))
    res["seconds"] = round(time.perf_counter() - t0, 3)
    return res


def _in_edition_terms(res: dict[str, Any], ed: Edition) -> None:
    """The texts of a verdict in the edition's own numbering (D.1, E.2 in 2017/2013)."""
    res["summary"] = ed.in_its_terms(res["summary"])
    if res.get("difference"):
        res["difference"]["text"] = ed.in_its_terms(res["difference"]["text"])
        if "label" in res["difference"]:
            res["difference"]["label"] = ed.in_its_terms(res["difference"]["label"])
    for row in res.get("side_by_side") or []:
        row[0] = ed.in_its_terms(row[0])


def _check_round(t: Tournament, rnd: int, ed: Edition, fr: FileRound, file_side: dict[str, Any]) -> dict[str, Any]:
    bad = illegalities(t, rnd, list(fr.pairs), fr.bye, ed)
    try:
        ours: Pairing | None = pair(t, rnd, ed)
    except NoValidPairing as exc:
        if bad:
            ours = None
        else:
            return _result(rnd, NO_VALID_PAIRING, summary=str(exc), file=file_side,
                           difference={"kind": "no valid pairing", "players": exc.players})
    rules = None if ours is None else {"boards": _boards(ours), "bye": ours.bye,
                                       "pab_score": _pts(ours.pab_score) if ours.pab_score is not None else None}
    boards = None if ours is None else compare_boards(ours, fr)
    if bad:
        return _result(rnd, ILLEGAL, summary="; ".join(bad), illegalities=bad, rules=rules, file=file_side,
                       boards=boards)
    assert ours is not None and boards is not None
    same_pairs = not boards["rules_only"] and not boards["file_only"] and boards["bye"]
    if same_pairs and not boards["colours"]:
        return _result(rnd, MATCH, rules=rules, file=file_side, boards=boards)
    if same_pairs:
        return _result(rnd, COLOURS_DIFFER, summary=_colour_text(boards["colours"]), rules=rules, file=file_side,
                       boards=boards)
    diff, side = _score_file(t, rnd, ed, ours, fr)
    return _result(rnd, PAIRS_DIFFER, summary=describe(diff), difference=_as_file(diff), side_by_side=side,
                   rules=rules, file=file_side, boards=boards)


def _as_file(diff: dict[str, Any] | None) -> dict[str, Any] | None:
    """The generic difference with its 'other' side named 'file' (the JSON report)."""
    if diff is None:
        return None
    out = {("file" if k == "other" else "file_better" if k == "other_better" else k): v for k, v in diff.items()}
    out["text"] = describe(diff)
    return out


def _score_file(
    t: Tournament, rnd: int, ed: Edition, ours: Pairing, fr: FileRound
) -> tuple[dict[str, Any] | None, list[list[Any]]]:
    """The file's pairing on the same tiers: its first difference and, for that bracket,
    every tier that differs (tier, file, rules)."""
    try:
        theirs = pair(t, rnd, ed, forced=list(fr.pairs))
    except (PairingError, AssertionError, RuntimeError) as exc:
        return {"kind": "unscored", "tier": None, "bracket": None, "other_better": False,
                "reason": f"the file's pairing could not be scored: {exc}"}, []
    diff = first_difference(ours, theirs)
    side: list[list[Any]] = []
    if diff is not None and diff.get("bracket") is not None:
        for a, b in zip(ours.brackets, theirs.brackets):
            if _pts(a.score) == diff["bracket"] and _composition(a, b):
                side = [[label, o, r] for label, r, o in (side_row(*x) for x in relevant_tiers(diff, a, b))]
                break
    return diff, side


# --- files ------------------------------------------------------------------------------


def parse_rounds(spec: str | None) -> Callable[[int], bool]:
    """'3-7', '2,4,6-', '-5' → a predicate on round numbers (None: every round)."""
    if not spec:
        return lambda r: True
    ranges: list[tuple[int, int]] = []
    for part in spec.split(","):
        part = part.strip()
        m = re.fullmatch(r"(\d*)\s*-\s*(\d*)|(\d+)", part)
        if not m or part == "-":
            raise ValueError(f"bad round range {part!r} (expected e.g. 3, 3-7, 5- or -4)")
        if m.group(3):
            lo = hi = int(m.group(3))
        else:
            lo = int(m.group(1)) if m.group(1) else 1
            hi = int(m.group(2)) if m.group(2) else 10**9
        if lo < 1 or hi < lo:
            raise ValueError(f"bad round range {part!r}")
        ranges.append((lo, hi))
    return lambda r: any(lo <= r <= hi for lo, hi in ranges)


def with_rounds_in_file(t: Tournament, last: int) -> Tournament:
    """Checking a finished file that does not state its number of rounds (no `XXR`/`142`,
    e.g. JaVaFo's): the rounds it holds are all the rounds (as bbpPairings' `-c` reads it),
    so the last of them is the last round (topscorers, C.04.1 / [C3])."""
    if t.total_rounds is None and last:
        return dataclasses.replace(t, total_rounds=last)
    return t


def check_tournament(
    t: Tournament, edition: str | Edition = "dutch-2026", rounds: str | None = None
) -> list[dict[str, Any]]:
    """Every round the file holds (within `rounds`), checked in order."""
    ed = load_edition(edition) if isinstance(edition, str) else edition
    wanted = parse_rounds(rounds)
    last = max((len(p.rounds) for p in t.players), default=0)
    t = with_rounds_in_file(t, last)
    return [check_round(t, r, ed) for r in range(1, last + 1) if wanted(r) and round_exists(t, r)]


def check_file(path: str, edition: str | None = "dutch-2026", rounds: str | None = None) -> dict[str, Any]:
    """One file's report; errors reading it are reported, not raised (a batch goes on).

    `edition` None: the edition the file names, else the default (`notes` say which)."""
    return check_data(None, path, edition, rounds)


def check_data(
    data: bytes | None, path: str, edition: str | None = "dutch-2026", rounds: str | None = None
) -> dict[str, Any]:
    """`check_file` on the file's bytes when they were read elsewhere (a cluster worker
    gets the bytes, not the path); `data=None` reads `path` here."""
    out: dict[str, Any] = {"file": str(path), "edition": edition, "rounds": [], "error": None, "exit_code": 0}
    try:
        t = read_trf(path) if data is None else parse_trf(data, source=str(path))
    except PairingError as exc:
        out.update(error=str(exc), exit_code=int(exc.exit_code))
        return out
    except OSError as exc:
        out.update(error=f"{path}: {exc.strerror or exc}", exit_code=int(ExitCode.FILE_ACCESS))
        return out
    from cpsat_pairing.dutch.edition import resolve_edition

    edition, notes = resolve_edition(edition, t.edition_hint, t.name)
    out.update(edition=edition, notes=[f"{path}: {n}" for n in notes])
    out["name"] = t.name
    out["players"] = len(t.players)
    out["warnings"] = list(t.warnings)
    out["rounds"] = check_tournament(t, edition, rounds)
    out["exit_code"] = exit_code([out])
    return out


def _check_file_task(args: tuple[str, str | None, str | None]) -> dict[str, Any]:
    return check_file(*args)


def check_files(
    paths: Sequence[str],
    edition: str | None = "dutch-2026",
    rounds: str | None = None,
    jobs: int = 1,
    on_done: Callable[[dict[str, Any]], None] | None = None,
) -> list[dict[str, Any]]:
    """Check many files, `jobs` at a time in a process pool; reports in the given order."""
    tasks = [(str(p), edition, rounds) for p in paths]
    results: dict[int, dict[str, Any]] = {}
    if jobs <= 1 or len(tasks) <= 1:
        for i, task in enumerate(tasks):
            results[i] = _check_file_task(task)
            if on_done:
                on_done(results[i])
    else:
        with ProcessPoolExecutor(min(jobs, len(tasks))) as pool:
            futures = {pool.submit(_check_file_task, task): i for i, task in enumerate(tasks)}
            for fut in as_completed(futures):
                results[futures[fut]] = fut.result()
                if on_done:
                    on_done(results[futures[fut]])
    return [results[i] for i in range(len(tasks))]


def counts(reports: Sequence[dict[str, Any]]) -> dict[str, int]:
    """Rounds per verdict over all files, plus files that could not be read."""
    out = {v: 0 for v in VERDICTS}
    for rep in reports:
        for r in rep["rounds"]:
            out[r["verdict"]] += 1
    out["rounds"] = sum(len(rep["rounds"]) for rep in reports)
    out["files"] = len(reports)
    out["unreadable files"] = sum(1 for rep in reports if rep["error"])
    return out


def exit_code(reports: Sequence[dict[str, Any]]) -> int:
    """0 all rounds match; an error's own code (3 input, 5 file access, ...) when a file
    or a round could not be checked; else 10 when a round differs, is illegal or has no
    valid pairing."""
    for rep in reports:
        if rep["error"]:
            return int(rep["exit_code"])
        for r in rep["rounds"]:
            if r["verdict"] == ERROR:
                return int(r.get("exit_code", ExitCode.UNEXPECTED))
    if any(r["verdict"] != MATCH for rep in reports for r in rep["rounds"]):
        return EXIT_DIFFERS
    return int(ExitCode.OK)


def summary_line(reports: Sequence[dict[str, Any]]) -> str:
    c = counts(reports)
    parts = [f"{c[v]} {v}" for v in VERDICTS[1:] if c[v]]
    files = f"{c['files']} file{'s' if c['files'] != 1 else ''}"
    if c["unreadable files"]:
        files += f" ({c['unreadable files']} unreadable)"
    rest = (", " + ", ".join(parts)) if parts else ""
    return f"{c[MATCH]}/{c['rounds']} rounds match{rest}; {files}"


def to_json(reports: Sequence[dict[str, Any]], edition: str) -> dict[str, Any]:
    """The whole check as one JSON document."""
    return {"schema": 1, "edition": edition, "summary": counts(reports), "exit_code": exit_code(reports),
            "files": list(reports)}


# --- rich renderings --------------------------------------------------------------------

_STYLE = {MATCH: "green", COLOURS_DIFFER: "yellow", PAIRS_DIFFER: "red", ILLEGAL: "bold red",
          NO_VALID_PAIRING: "magenta", ERROR: "bold magenta"}


def file_table(rep: dict[str, Any]) -> Group:
    """One file: round, verdict, first differing criterion (or what the file breaks)."""
    table = Table()
    table.add_column("round", justify="right")
    table.add_column("verdict")
    table.add_column("first difference", overflow="fold")
    for r in rep["rounds"]:
        style = _STYLE.get(r["verdict"], "")
        table.add_row(str(r["round"]), Text(r["verdict"], style=style), Text(r["summary"]))
    return Group(Text(rep["file"], style="bold"), table)


_SHORT = {COLOURS_DIFFER: "colours", PAIRS_DIFFER: "pairs", NO_VALID_PAIRING: "no pairing"}


def summary_table(reports: Sequence[dict[str, Any]]) -> Table:
    """Many files: one line each, rounds per verdict."""
    table = Table(title="summary", title_justify="left", box=box.SIMPLE_HEAD)
    table.add_column("file", overflow="fold", min_width=12)
    table.add_column("rounds", justify="right")
    for v in VERDICTS:
        table.add_column(_SHORT.get(v, v), justify="right", no_wrap=True)
    for rep in reports:
        if rep["error"]:
            table.add_row(Text(Path(rep["file"]).name), "-", *[""] * (len(VERDICTS) - 1), Text(rep["error"]))
            continue
        c = counts([rep])
        table.add_row(Text(Path(rep["file"]).name), str(c["rounds"]), *[str(c[v]) if c[v] else "" for v in VERDICTS])
    return table
