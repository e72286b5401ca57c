"""Explain a pairing from the solver's own trace: brackets, tiers, colour rules, why-not.

Nothing here re-implements a rule: every number comes from `Pairing.brackets` (what the
solver fixed, tier by tier) and `Board.colour_rule` (the Art. 5.2 rule the allocation
used).  The rules' vocabulary is derived from the trace as follows:

* M0 = number of MDPs entering the bracket; M1 = MDPs paired in it; Limbo = the MDPs
  not paired (they float on); MaxPairs = pairs made in the bracket (the optimum of
  [C6] with completion, i.e. the maximum the rules allow).
* Heterogeneous bracket (M1 > 0): S1 = the paired MDPs, S2 = the residents; the
  residents not paired with an MDP form the remainder, itself split as below.
* Homogeneous bracket or remainder: S1 = the higher-ranked player of each pair made,
  S2 = the other players (ranking order, Art. 1.2: pairing score descending, then TPN).
  After exchanges this is the S1 the generation order ended on, not the initial one.

`why_not(A, B)` forces A-B by forbidding A and B every other opponent in a copy of the
tournament, re-solves, scores that pairing on the original tiers and reports the first
criterion that gets worse.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from cpsat_pairing.apps.check import describe, first_difference, relevant_tiers, shown, side_row
from cpsat_pairing.dutch.edition import Edition, load_edition
from cpsat_pairing.dutch.rounds import BracketTrace, NoValidPairing, Pairing, illegalities, pair
from cpsat_pairing.domain.state import RoundState, build_state
from cpsat_pairing.domain.tournament import ForbiddenPairs, Tournament
from cpsat_pairing.formats import format_points


def _ranked(st: RoundState, ids: list[int]) -> list[int]:
    return sorted(ids, key=st.rank_key)


def _split(st: RoundState, players: list[int], pairs: list[tuple[int, int]]) -> tuple[list[int], list[int]]:
    """S1 = the higher-ranked player of each pair, S2 = everybody else (ranking order)."""
    s1 = [min(pq, key=st.rank_key) for pq in pairs]
    return _ranked(st, s1), _ranked(st, [p for p in players if p not in s1])


def _compact_tiers(tiers: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """Table rows for the tiers, one row per family of generation-order tiers.

    A 40-player bracket has a tier per S1 player for the exchange and for the
    transposition; listed one by one they would not fit a terminal page, so the rows
    give the S1 players kept and the partner BSNs in order (the JSON keeps every tier).
    """
    rows: list[tuple[str, str]] = []
    groups: dict[str, list[str]] = {}
    for t in tiers:
        name = t["tier"]
        for marker, label in (
            ("exchange: BSN", "Art. 4.3 exchange: BSNs kept / moved (per tier)"),
            ("transposition: partner of BSN", "Art. 4.2 transposition: partner BSNs of S1, in order"),
            ("MDP-pairing: partner of BSN", "Art. 4.2 MDP-pairing: partner BSNs of the MDPs, in order"),
            ("MDP set: BSN", "Art. 4.4 MDP set: BSNs in S1"),
        ):
            if name.startswith(marker) and name[len(marker):].strip()[:1].isdigit():
                if label not in groups:
                    groups[label] = []
                    rows.append((label, ""))
                bsn = name[len(marker):].split()[0]
                groups[label].append(t["shown"] if "partner" in marker else f"{bsn}:{t['shown']}")
                break
        else:
            rows.append((t["label"], t["shown"]))
    return [(k, " ".join(groups[k]) if k in groups else v) for k, v in rows]


def _tier(name: str, value: int) -> dict[str, Any]:
    """A tier's value as solved (lower is better) and as shown: counts the rules
    maximise, such as [C8]'s pairs, are solved negated and shown positive."""
    label, v, _, note = shown(name, value, value)
    return {"tier": name, "label": label, "value": value, "shown": f"{v}{note}"}


def explain_bracket(st: RoundState, br: BracketTrace) -> dict[str, Any]:
    """One bracket in the rules' terms (see the module docstring for the derivation)."""
    mdps = set(br.mdps)
    paired = {p for pq in br.pairs for p in pq}
    m1 = _ranked(st, [m for m in br.mdps if m in paired])
    limbo = _ranked(st, [m for m in br.mdps if m not in paired])
    out: dict[str, Any] = {
        "score": format_points(br.score),
        "residents": _ranked(st, br.residents),
        "mdps": _ranked(st, br.mdps),
        "M0": len(br.mdps),
        "MaxPairs": len(br.pairs),
        "M1": len(m1),
        "homogeneous": not m1,
        "limbo": limbo,
        "pairs": [list(pq) for pq in br.pairs],
        "downfloaters": list(br.downfloaters),
        "tiers": [_tier(n, v) for n, v in br.tiers if v],
    }
    if br.kind:
        out["kind"] = br.kind  # 2017 A.9: the penultimate / collapsed last bracket
    if m1:
        out["S1"], out["S2"] = m1, _ranked(st, br.residents)
        taken = {p for pq in br.pairs if set(pq) & mdps for p in pq}
        rest_pairs = [pq for pq in br.pairs if not set(pq) & mdps]
        rest = [p for p in br.residents if p not in taken]
        s1, s2 = _split(st, rest, rest_pairs)
        out["remainder"] = {"S1": s1, "S2": s2}
    else:
        out["S1"], out["S2"] = _split(st, br.residents, list(br.pairs))
        out["remainder"] = None
    return out


def explain(t: Tournament, p: Pairing, edition: str | Edition | None = None) -> dict[str, Any]:
    """The whole round: PAB score ([C5]), every bracket top-down, every board's colour rule."""
    ed = load_edition(edition or p.edition) if not isinstance(edition, Edition) else edition
    st = build_state(t, p.round, ed.state_rules)
    brackets = [explain_bracket(st, br) for br in p.brackets]
    for br in brackets:  # labels in the edition's own numbering (D.1, E.2 in 2017/2013)
        for tier in br["tiers"]:
            tier["label"] = ed.in_its_terms(tier["label"])
    return {
        "round": p.round,
        "edition": p.edition,
        "pab_score": None if p.pab_score is None else format_points(p.pab_score),
        "bye": p.bye,
        "absent": list(p.absent),
        "brackets": brackets,
        "boards": [{"board": i, "white": b.white, "black": b.black, "colour_rule": ed.in_its_terms(b.colour_rule)}
                   for i, b in enumerate(p.boards, start=1)],
    }


# --- why not A-B ------------------------------------------------------------------------


def _forbid_others(t: Tournament, rnd: int, a: int, b: int, present: list[int]) -> Tournament:
    """A copy where A and B may meet nobody but each other in round `rnd`."""
    extra = tuple(ForbiddenPairs((x, y), rnd, rnd) for x in (a, b) for y in present if y not in (a, b))
    return replace(t, forbidden=t.forbidden + extra)


def _has(p: Pairing, a: int, b: int) -> bool:
    return any({w, bl} == {a, b} for w, bl in p.as_pairs())


def why_not(t: Tournament, rnd: int, a: int, b: int, edition: str | Edition = "dutch-2026") -> dict[str, Any]:
    """Why the rules did not pair A with B in round `rnd`.

    `status`: `paired` (they are), `absent`, `forbidden` (an absolute criterion; the
    reason says which), `impossible` (no complete round-pairing contains A-B), or
    `worse` (the best pairing with A-B loses on `difference`, values side by side).
    """
    ed = load_edition(edition) if isinstance(edition, str) else edition
    st = build_state(t, rnd, ed.state_rules)
    out: dict[str, Any] = {"round": rnd, "a": a, "b": b, "status": "", "reason": "", "difference": None,
                           "side_by_side": [], "rules_pairs": [], "forced_pairs": []}
    missing = [x for x in (a, b) if x not in st.present]
    if missing:
        out.update(status="absent", reason=f"{' and '.join(map(str, missing))} not paired in round {rnd} (absent)")
        return out
    ours = pair(t, rnd, ed)
    out["rules_pairs"] = [list(pq) for pq in ours.as_pairs()]
    if _has(ours, a, b):
        out.update(status="paired", reason=f"the rules pair {a} with {b}")
        return out
    bad = illegalities(t, rnd, [(a, b)], None, ed)
    if bad:
        out.update(status="forbidden", reason="; ".join(bad))
        return out
    forced = _best_with(t, rnd, a, b, ed, list(st.present))
    if forced is None:
        out.update(status="impossible", reason=f"no complete round-pairing contains {a}-{b} ([C4] completion)")
        return out
    pairs = forced
    out["forced_pairs"] = [list(pq) for pq in pairs]
    theirs = pair(t, rnd, ed, forced=pairs)
    diff = first_difference(ours, theirs)
    name = f"with {a}-{b}"
    out.update(status="worse", difference=diff, reason=describe(diff, other_name=name))
    if diff is not None and diff.get("bracket") is not None:
        for x, y in zip(ours.brackets, theirs.brackets):
            if format_points(x.score) == diff["bracket"]:
                rows = (side_row(*d) for d in relevant_tiers(diff, x, y))
                out["side_by_side"] = [{"tier": label, "rules": r, name: o} for label, r, o in rows]
                break
    return out


def _best_with(
    t: Tournament, rnd: int, a: int, b: int, ed: Edition, present: list[int]
) -> list[tuple[int, int]] | None:
    """The rules' pairing when A and B may meet nobody else.  Neither can take the PAB
    either: the other would be left without an opponent, so every valid round-pairing
    of the copy contains A-B, and the engine returns the best of them."""
    try:
        alt = pair(_forbid_others(t, rnd, a, b, present), rnd, ed)
    except NoValidPairing:
        return None
    return alt.as_pairs() if _has(alt, a, b) else None


# --- rich renderings --------------------------------------------------------------------


def _ids(xs: list[int] | None) -> str:
    return " ".join(map(str, xs)) if xs else "-"


def explanation_renderable(data: dict[str, Any], names: dict[int, str] | None = None) -> Group:
    """Brackets top-down, then the boards with their colour rule."""
    names = names or {}
    try:
        terms = load_edition(data["edition"]).in_its_terms
    except ValueError:
        terms = str  # an edition this installation does not know: 2026 numbering

    items: list[Any] = [Text(f"Round {data['round']} — {data['edition']}"
                             + (f"; PAB score [C5] {data['pab_score']}, PAB to {data['bye']}"
                                if data["bye"] and data.get("pab_score") is not None
                                else f"; PAB to {data['bye']}" if data["bye"] else ""),
                             style="bold")]
    for br in data["brackets"]:
        kind = f"{br['kind']}, " if br.get("kind") else ""
        table = Table(title=f"bracket {br['score']} ({kind}{'homogeneous' if br['homogeneous'] else 'heterogeneous'})",
                      title_justify="left", show_header=False)
        table.add_column("what", style="bold")
        table.add_column("value", overflow="fold")
        rows = [("residents", _ids(br["residents"])), ("MDPs", _ids(br["mdps"])),
                ("M0 / MaxPairs / M1", f"{br['M0']} / {br['MaxPairs']} / {br['M1']}"),
                ("S1", _ids(br["S1"])), ("S2", _ids(br["S2"]))]
        if br["remainder"]:
            rows += [("remainder S1", _ids(br["remainder"]["S1"])), ("remainder S2", _ids(br["remainder"]["S2"]))]
        rows += [("Limbo", _ids(br["limbo"])), ("pairs", ", ".join(f"{p}-{q}" for p, q in br["pairs"]) or "-"),
                 ("downfloaters", _ids(br["downfloaters"]))]
        rows += [(terms(k), v) for k, v in _compact_tiers(br["tiers"])]
        for k, v in rows:
            table.add_row(Text(k), Text(v))
        items.append(table)
    boards = Table(title=terms("colours (Art. 5.2)"), title_justify="left")
    for col in ("bd", "white", "black", "rule"):
        boards.add_column(col)
    for bd in data["boards"]:
        boards.add_row(str(bd["board"]), Text(f"{bd['white']} {names.get(bd['white'], '')}".rstrip()),
                       Text(f"{bd['black']} {names.get(bd['black'], '')}".rstrip()), Text(bd["colour_rule"]))
    items.append(boards)
    return Group(*items)


def why_not_renderable(data: dict[str, Any]) -> Group:
    """The verdict, then the first differing bracket's tiers side by side."""
    head = Text(f"Round {data['round']}: why not {data['a']}-{data['b']}? {data['status']}: {data['reason']}")
    items: list[Any] = [head]
    if data["side_by_side"]:
        name = f"with {data['a']}-{data['b']}"
        table = Table(title=f"bracket {data['difference']['bracket']}: tiers that differ", title_justify="left")
        for col in ("tier", "rules", name):
            table.add_column(col)
        for row in data["side_by_side"]:
            table.add_row(Text(row["tier"]), str(row["rules"]), str(row[name]))
        items.append(table)
    return Group(*items)
