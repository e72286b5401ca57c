"""Check reports for people and programs: sentences, JSON and rich tables.

Every text uses the checked edition's own numbering (`Edition.article`): a 2017 report
says D.1 and E.5 in every sentence and table alike.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Group
from rich.table import Table
from rich.text import Text

from cpsat_pairing.apps.check import (
    ColourDifference,
    FileCheck,
    RoundCheck,
    Verdict,
    counts,
    exit_code,
)
from cpsat_pairing.apps.compare import Composition, Difference, DifferenceKind
from cpsat_pairing.domain.colours import ColourRule
from cpsat_pairing.domain.state import build_state
from cpsat_pairing.domain.tournament import Colour, Tournament
from cpsat_pairing.dutch.boards import board_key
from cpsat_pairing.dutch.edition import Edition
from cpsat_pairing.dutch.result import Pairing
from cpsat_pairing.formats import format_points
from cpsat_pairing.interface.views.standings_check import (
    standings_check_json,
    standings_check_table,
    standings_summary,
)
from cpsat_pairing.records import Tier, TierKind

SCHEMA = 1

# Tiers the solver maximises by minimising a negated count, and what that count is.
_NEGATED = {("exchange", "players moved"): "original S1 players kept in S1"}


def points(x: Fraction | None) -> str:
    return "-" if x is None else format_points(x)


# --- tiers and rules in the edition's words ------------------------------------------------


def tier_label(tier: Tier, ed: Edition) -> str:
    """'[C12] unmet colour preferences'; generation-order tiers with their article:
    'Art. 4.3 exchange: BSN sum difference' (2017: 'D.2 exchange: ...')."""
    if tier.kind is TierKind.QUALITY:
        return f"[{tier.criterion}] {tier.detail}".rstrip()
    return f"{ed.article(tier.criterion)} {tier.name}"


def shown(tier: Tier, rules: int, other: int, ed: Edition) -> tuple[str, int, int, str]:
    """(label, rules, other, note) as a reader expects them: counts the rules maximise
    (solved negated, e.g. [C8] pairs, the S1 players an exchange keeps) shown positive
    with '(more is better)'; everything else as solved (lower is better)."""
    if min(rules, other) < 0 and max(rules, other) <= 0:
        detail = _NEGATED.get((tier.criterion, tier.detail), tier.detail)
        label = tier_label(Tier(tier.criterion, detail, tier.value, tier.kind), ed)
        return label, -rules, -other, " (more is better)"
    return tier_label(tier, ed), rules, other, ""


def side_row(tier: Tier, rules: int, other: int, ed: Edition) -> tuple[str, int, int]:
    """(label, rules, other) for a side-by-side table."""
    label, r, o, note = shown(tier, rules, other, ed)
    return label + note, r, o


def rule_text(rule: ColourRule, ed: Edition) -> str:
    """'5.2.1 both preferences granted' (2017 and 2013: 'E.1 both preferences granted')."""
    return f"{ed.article(rule.article)} {rule.text}"


def reference(article: str) -> str:
    """An article as a sentence cites it: 'Art. 5.2.1', but 'E.1' as it stands."""
    return f"Art. {article}" if article[:1].isdigit() else article


def _pab(score: Fraction | None) -> str:
    return "none" if score is None else format_points(score)


def _score(v: object) -> Fraction | None:
    assert v is None or isinstance(v, Fraction)
    return v


def describe(diff: Difference | None, ed: Edition, other_name: str = "file", rules_name: str = "rules") -> str:
    """One line for a difference: 'bracket 3.0: [C12] unmet colour preferences — file 3, rules 2'."""
    if diff is None:
        return "no tier differs"
    kind = diff.kind
    if kind is DifferenceKind.UNSCORED:
        return diff.reason
    where = f"bracket {points(diff.bracket)}: " if diff.bracket is not None else ""
    if kind is DifferenceKind.COMPOSITION:
        return f"{where}the brackets differ (other residents or MDPs) with every tier above equal"
    if kind is DifferenceKind.UNDETERMINED:
        return f"{where}different pairs with every tier equal (the generation order does not separate them)"
    assert diff.tier is not None
    if kind is DifferenceKind.PAB:
        label, note = tier_label(diff.tier, ed), ""
        r, o = _pab(_score(diff.rules)), _pab(_score(diff.other))
    else:
        assert isinstance(diff.rules, int) and isinstance(diff.other, int)
        label, ri, oi, note = shown(diff.tier, diff.rules, diff.other, ed)
        r, o = str(ri), str(oi)
    values = f"{label} — {other_name} {o}, {rules_name} {r}{note}"
    if kind is DifferenceKind.GENERATION:
        if diff.other_better:
            return (f"{where}same quality on every criterion, but the {other_name}'s pairing is generated first "
                    f"({values}): a bug on one side or a wrong edition")
        return f"{where}same quality on every criterion; the rules' generation order picks ours first ({values})"
    text = f"{where}{values}"
    if diff.other_better:
        text += f": the {other_name}'s pairing is better here, so the edition is wrong or one side has a bug"
    return text


def colour_text(colours: Sequence[ColourDifference], ed: Edition, names: Mapping[int, str] | None = None) -> str:
    """The boards with other colours (the first two, then a count); when every one was
    decided by TPN parity (Art. 5.2.5), the initial colour is the likely culprit."""
    def who(pid: int) -> str:
        name = (names or {}).get(pid, "")
        return f"{pid} {name}" if name else str(pid)

    parts = [
        f"board {c.board} {who(c.white)} - {who(c.black)}: the file gives White to {who(c.file_white)}; "
        f"{reference(rule_text(c.rule, ed))} gives it to {who(c.white)}"
        for c in colours[:2]
    ]
    text = "; ".join(parts)
    if len(colours) > 2:
        text += f"; and {len(colours) - 2} more boards"
    if len(colours) > 1 and all(c.rule is ColourRule.TPN_PARITY for c in colours):
        text += " (all by TPN parity: is the initial colour, XXC/152, right?)"
    return text


def summary_text(r: RoundCheck, names: Mapping[int, str] | None = None) -> str:
    """A round's verdict in one line (players named when `names` has them)."""
    ed = r.edition
    if r.verdict is Verdict.COLOURS_DIFFER and r.boards is not None:
        return colour_text(r.boards.colours, ed, names)
    if r.verdict is Verdict.PAIRS_DIFFER:
        return describe(r.difference, ed)
    if r.verdict is Verdict.ILLEGAL:
        return "; ".join(r.illegalities)
    if r.verdict in (Verdict.NO_VALID_PAIRING, Verdict.INCONSISTENT, Verdict.ERROR):
        return r.error or ""
    return ""


# --- JSON ---------------------------------------------------------------------------------


def _value(v: object) -> object:
    if isinstance(v, Composition):
        return {"score": points(v.score), "residents": list(v.residents), "mdps": list(v.mdps)}
    if isinstance(v, Fraction):
        return float(v)
    return v


def difference_dict(diff: Difference, ed: Edition, other: str = "other") -> dict[str, Any]:
    """The difference as JSON-ready data, the other pairing's side named `other`."""
    better = f"{other}_better"
    if diff.kind is DifferenceKind.NO_VALID_PAIRING:
        return {"kind": diff.kind.value, "players": list(diff.players)}
    if diff.kind is DifferenceKind.UNSCORED:
        return {"kind": diff.kind.value, "tier": None, "bracket": None, better: False, "reason": diff.reason}
    bracket = None if diff.bracket is None else points(diff.bracket)
    if diff.tier is None:
        return {"kind": diff.kind.value, "bracket": bracket, "tier": None, "rules": _value(diff.rules),
                other: _value(diff.other), better: diff.other_better}
    return {"kind": diff.kind.value, "bracket": bracket, "tier": diff.tier.name, "label": tier_label(diff.tier, ed),
            "rules": _value(diff.rules), other: _value(diff.other), better: diff.other_better}


def difference_json(diff: Difference | None, ed: Edition) -> dict[str, Any] | None:
    """The check's difference: the other side named 'file', with its sentence."""
    if diff is None:
        return None
    out = difference_dict(diff, ed, "file")
    if diff.kind is not DifferenceKind.NO_VALID_PAIRING:
        out["text"] = describe(diff, ed)
    return out


def boards_json(p: Pairing, ed: Edition) -> list[dict[str, Any]]:
    return [{"board": i, "white": b.white, "black": b.black, "colour_rule": rule_text(b.colour_rule, ed)}
            for i, b in enumerate(p.boards, start=1)]


def round_json(r: RoundCheck) -> dict[str, Any]:
    ed = r.edition
    out: dict[str, Any] = {"round": r.round, "verdict": r.verdict.value, "summary": summary_text(r),
                           "difference": difference_json(r.difference, ed), "illegalities": list(r.illegalities)}
    out["rules"] = None if r.rules is None else {
        "boards": boards_json(r.rules, ed), "bye": r.rules.bye,
        "pab_score": points(r.rules.pab_score) if r.rules.pab_score is not None else None,
    }
    out["file"] = None if r.file is None else {
        "boards": [{"board": i, "white": w, "black": b, "colours": frozenset((w, b)) not in r.file.colourless}
                   for i, (w, b) in enumerate(r.file_boards, start=1)],
        "bye": r.file.bye,
    }
    out["boards"] = None if r.boards is None else {
        "rules_only": [list(pq) for pq in r.boards.rules_only],
        "file_only": [list(pq) for pq in r.boards.file_only],
        "colours": [{"board": c.board, "white": c.white, "black": c.black, "colour_rule": rule_text(c.rule, ed),
                     "file_white": c.file_white, "file_black": c.file_black} for c in r.boards.colours],
        "bye": r.boards.same_bye,
    }
    out["error"] = r.error if r.verdict is Verdict.ERROR else None
    if r.verdict is Verdict.INCONSISTENT:
        out["contradictions"] = r.error
    if r.verdict is Verdict.PAIRS_DIFFER:
        out["side_by_side"] = [[label, o, rv] for label, rv, o in (side_row(t, a, b, ed) for t, a, b in r.side_by_side)]
    if r.verdict in (Verdict.ERROR, Verdict.INCONSISTENT):
        out["exit_code"] = r.exit_code
    out["seconds"] = r.seconds
    return out


def file_json(rep: FileCheck) -> dict[str, Any]:
    out: dict[str, Any] = {"file": rep.file, "edition": rep.edition, "rounds": [round_json(r) for r in rep.rounds],
                           "error": rep.error, "exit_code": rep.exit_code}
    if rep.error is None or rep.name or rep.notes:
        out.update(notes=rep.notes, name=rep.name, players=rep.players, warnings=rep.warnings)
        out["standings"] = standings_check_json(rep.standings)
        if rep.edition_reason:
            out["edition_reason"] = rep.edition_reason
    return out


def to_json(reports: Sequence[FileCheck], edition: str) -> dict[str, Any]:
    """The whole check as one JSON document."""
    return {"schema": SCHEMA, "edition": edition, "summary": counts(reports), "exit_code": exit_code(reports),
            "files": [file_json(rep) for rep in reports]}


# --- rich ---------------------------------------------------------------------------------

STYLE = {Verdict.MATCH: "green", Verdict.COLOURS_DIFFER: "yellow", Verdict.PAIRS_DIFFER: "red",
         Verdict.ILLEGAL: "bold red", Verdict.NO_VALID_PAIRING: "magenta",
         Verdict.INCONSISTENT: "bold yellow", Verdict.ERROR: "bold magenta"}
_SHORT = {Verdict.COLOURS_DIFFER: "colours", Verdict.PAIRS_DIFFER: "pairs", Verdict.NO_VALID_PAIRING: "no pairing",
          Verdict.INCONSISTENT: "inconsistent"}


def summary_line(reports: Sequence[FileCheck]) -> str:
    c = counts(reports)
    parts = [f"{c[v.value]} {v.value}" for v in list(Verdict)[1:] if c[v.value]]
    files = f"{c['files']} file{'s' if c['files'] != 1 else ''}"
    if c["unreadable files"]:
        files += f" ({c['unreadable files']} unreadable)"
    rest = (", " + ", ".join(parts)) if parts else ""
    standings = standings_summary([rep.standings for rep in reports])
    return f"{c[Verdict.MATCH.value]}/{c['rounds']} rounds match{rest}{standings}; {files}"


def file_table(rep: FileCheck) -> Group:
    """One file: round, verdict, first differing criterion (or what the file breaks)."""
    table = Table()
    table.add_column("round", justify="right")
    table.add_column("verdict")
    table.add_column("first difference", overflow="fold")
    names = {pid: name for pid, (name, _) in rep.roster.items()}
    for r in rep.rounds:
        table.add_row(str(r.round), Text(r.verdict.value, style=STYLE.get(r.verdict, "")),
                      Text(summary_text(r, names)))
    if rep.standings is not None:
        return Group(Text(rep.file, style="bold"), table, standings_check_table(rep.standings))
    return Group(Text(rep.file, style="bold"), table)


def summary_table(reports: Sequence[FileCheck]) -> Table:
    """Many files: one line each, rounds per verdict."""
    table = Table(title="summary", title_justify="left", box=box.SIMPLE_HEAD)
    table.add_column("file", overflow="fold", min_width=12)
    table.add_column("rounds", justify="right")
    for v in Verdict:
        table.add_column(_SHORT.get(v, v.value), justify="right", no_wrap=True)
    for rep in reports:
        if rep.error:
            table.add_row(Text(Path(rep.file).name), "-", *[""] * (len(Verdict) - 1), Text(rep.error))
            continue
        c = counts([rep])
        table.add_row(Text(Path(rep.file).name), str(c["rounds"]),
                      *[str(c[v.value]) if c[v.value] else "" for v in Verdict])
    return table


# --- the reference engines' checker output (`-c`) ------------------------------------------


def checker_lines(t: Tournament, stem: str, r: RoundCheck) -> list[str]:
    """A round as bbpPairings' and JaVaFo's checkers print it: `NAME: Round #N`, and
    where the file's pairing differs, the rules' pairs beside the file's (the pairs of
    the players involved, in board order; the PAB as `id - 0`)."""
    out = [f"{stem}: Round #{r.round}"]
    if r.verdict is Verdict.NO_VALID_PAIRING:
        return out + [f"No valid pairing exists for round {r.round}.", ""]
    if r.rules is None or r.file is None:
        return out + ([f"Error: {r.error}", ""] if r.error else [])
    st = build_state(t, r.round, r.edition.state_rules)
    recorded: dict[int, tuple[int, Colour | None]] = {}
    for p in t.players:
        e = p.entry(r.round)
        if e is not None:
            recorded[p.id] = (e.opponent if e.opponent is not None else p.id, e.colour)
    correct = [(b.white, b.black) for b in r.rules.boards] + ([(r.rules.bye, r.rules.bye)] if r.rules.bye else [])
    wrong, given = [], []
    for white, black in correct:
        opponent, colour = recorded.get(white, (white, None))
        if opponent == black and colour is not Colour.BLACK:
            continue
        wrong.append((white, black))
        for player in dict.fromkeys((white, black)):
            opp, col = recorded.get(player, (player, None))
            if player <= opp:
                given.append((opp, player) if col is Colour.BLACK else (player, opp))
    if not wrong:
        return out

    def order(pq: tuple[int, int]) -> tuple[object, ...]:
        return (pq[0] == pq[1], board_key(st, pq))

    wrong.sort(key=order)
    given.sort(key=order)

    def cell(pq: tuple[int, int]) -> str:
        return f"{pq[0]:>3} - {'0' if pq[0] == pq[1] else pq[1]:>3}"

    out.append("  Checker pairings" + " " * 8 + "Tournament pairings ")
    for i, pq in enumerate(given):
        left = cell(wrong[i]) if i < len(wrong) else " " * 9
        out.append("    " + left + " " * 16 + cell(pq))
    return out + [""]
