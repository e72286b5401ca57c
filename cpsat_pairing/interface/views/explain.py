"""Explanations for people and programs: JSON and rich tables, in the edition's numbering."""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from cpsat_pairing.apps.explain import (
    BracketExplanation,
    RoundExplanation,
    WhyNot,
    WhyNotStatus,
)
from cpsat_pairing.dutch.edition import Edition
from cpsat_pairing.formats import format_points
from cpsat_pairing.interface.views.check import (
    describe,
    difference_dict,
    rule_text,
    shown,
    side_row,
)
from cpsat_pairing.records import Tier

# Generation-order tiers about one BSN each, shown as one row per family: a 40-player
# bracket has a tier per S1 player for the exchange and for the transposition.
_FAMILIES = {
    ("exchange", False): "exchange: BSNs kept / moved (per tier)",
    ("transposition", True): "transposition: partner BSNs of S1, in order",
    ("MDP-pairing", True): "MDP-pairing: partner BSNs of the MDPs, in order",
    ("MDP set", False): "MDP set: BSNs in S1",
}


def _tier(tier: Tier, ed: Edition) -> dict[str, Any]:
    """A tier's value as solved (lower is better) and as shown: counts the rules
    maximise, such as [C8]'s pairs, are solved negated and shown positive."""
    label, v, _, note = shown(tier, tier.value, tier.value, ed)
    return {"tier": tier.name, "label": label, "value": tier.value, "shown": f"{v}{note}"}


def _family(tier: Tier) -> tuple[str, bool] | None:
    if tier.subject is None:
        return None
    key = (tier.criterion, tier.detail.startswith("partner"))
    return key if key in _FAMILIES else None


def compact_tiers(tiers: list[Tier], ed: Edition) -> list[tuple[str, str]]:
    """Table rows for the tiers, one row per family of generation-order tiers: the S1
    players kept and the partner BSNs in order (the JSON keeps every tier)."""
    rows: list[tuple[str, str]] = []
    groups: dict[str, list[str]] = {}
    for tier in tiers:
        family = _family(tier)
        label, v, _, note = shown(tier, tier.value, tier.value, ed)
        if family is None:
            rows.append((label, f"{v}{note}"))
            continue
        name = f"{ed.article(family[0])} {_FAMILIES[family]}"
        if name not in groups:
            groups[name] = []
            rows.append((name, ""))
        groups[name].append(f"{v}{note}" if family[1] else f"{tier.subject}:{v}{note}")
    return [(k, " ".join(groups[k]) if k in groups else v) for k, v in rows]


def bracket_json(br: BracketExplanation, ed: Edition) -> dict[str, Any]:
    out: dict[str, Any] = {
        "score": format_points(br.score),
        "residents": br.residents,
        "mdps": br.mdps,
        "M0": len(br.mdps),
        "MaxPairs": len(br.pairs),
        "M1": len(br.m1),
        "homogeneous": br.homogeneous,
        "limbo": br.limbo,
        "pairs": [list(pq) for pq in br.pairs],
        "downfloaters": br.downfloaters,
        "tiers": [_tier(t, ed) for t in br.tiers],
    }
    if br.kind:
        out["kind"] = br.kind  # 2017 A.9: the penultimate / collapsed last bracket
    if br.legacy is not None:  # 2013: A.6.b, A.8
        out["P0"], out["X1"], out["Z1"] = br.legacy.p0, br.legacy.x1, br.legacy.z1
    out["S1"], out["S2"] = br.s1, br.s2
    out["remainder"] = None if br.remainder is None else {"S1": br.remainder[0], "S2": br.remainder[1]}
    return out


def explanation_json(x: RoundExplanation) -> dict[str, Any]:
    p, ed = x.pairing, x.edition
    return {
        "round": p.round,
        "edition": p.edition,
        "pab_score": None if p.pab_score is None else format_points(p.pab_score),
        "bye": p.bye,
        "absent": list(p.absent),
        "brackets": [bracket_json(br, ed) for br in x.brackets],
        "boards": [{"board": i, "white": b.white, "black": b.black, "colour_rule": rule_text(b.colour_rule, ed)}
                   for i, b in enumerate(p.boards, start=1)],
    }


def _ids(xs: list[int] | None, names: dict[int, str] | None = None) -> str:
    if not xs:
        return "-"
    return ", ".join(f"{x} {names[x]}" if names and names.get(x) else str(x) for x in xs)


def explanation_renderable(x: RoundExplanation, names: dict[int, str] | None = None) -> Group:
    """Brackets top-down, then the boards with their colour rule."""
    names = names or {}
    p, ed = x.pairing, x.edition
    pab = (f"; PAB score [C5] {format_points(p.pab_score)}, PAB to {p.bye}" if p.bye and p.pab_score is not None
           else f"; PAB to {p.bye}" if p.bye else "")
    items: list[Any] = [Text(f"Round {p.round} — {p.edition}{pab}", style="bold")]
    for br in x.brackets:
        kind = f"{br.kind}, " if br.kind else ""
        table = Table(title=f"bracket {format_points(br.score)} ({kind}"
                            f"{'homogeneous' if br.homogeneous else 'heterogeneous'})",
                      title_justify="left", show_header=False)
        table.add_column("what", style="bold")
        table.add_column("value", overflow="fold")
        rows = [("residents", _ids(br.residents, names)), ("MDPs", _ids(br.mdps, names)),
                ("M0 / MaxPairs / M1", f"{len(br.mdps)} / {len(br.pairs)} / {len(br.m1)}")]
        if br.legacy is not None:
            z1 = "" if br.legacy.z1 is None else f" / {br.legacy.z1}"
            rows.append((f"P0 / X1{' / Z1' if z1 else ''} (A.6, A.8)", f"{br.legacy.p0} / {br.legacy.x1}{z1}"))
        rows += [("S1", _ids(br.s1, names)), ("S2", _ids(br.s2, names))]
        if br.remainder:
            rows += [("remainder S1", _ids(br.remainder[0], names)), ("remainder S2", _ids(br.remainder[1], names))]
        rows += [("Limbo", _ids(br.limbo, names)), ("pairs", ", ".join(f"{a}-{b}" for a, b in br.pairs) or "-"),
                 ("downfloaters", _ids(br.downfloaters, names))]
        rows += compact_tiers(br.tiers, ed)
        for k, v in rows:
            table.add_row(Text(k), Text(v))
        items.append(table)
    boards = Table(title=f"colours ({ed.article('colours')})", title_justify="left")
    for col in ("bd", "white", "black", "rule"):
        boards.add_column(col)
    for i, bd in enumerate(p.boards, start=1):
        boards.add_row(str(i), Text(f"{bd.white} {names.get(bd.white, '')}".rstrip()),
                       Text(f"{bd.black} {names.get(bd.black, '')}".rstrip()), Text(rule_text(bd.colour_rule, ed)))
    items.append(boards)
    return Group(*items)


# --- why not ------------------------------------------------------------------------------


def why_not_reason(w: WhyNot) -> str:
    if w.status is WhyNotStatus.ABSENT:
        return f"{' and '.join(map(str, w.absent))} not paired in round {w.round} (absent)"
    if w.status is WhyNotStatus.PAIRED:
        return f"the rules pair {w.a} with {w.b}"
    if w.status is WhyNotStatus.FORBIDDEN:
        return "; ".join(w.illegalities)
    if w.status is WhyNotStatus.IMPOSSIBLE:
        return f"no complete round-pairing contains {w.a}-{w.b} ([C4] completion)"
    return describe(w.difference, w.edition, other_name=f"with {w.a}-{w.b}")


def why_not_json(w: WhyNot) -> dict[str, Any]:
    name = f"with {w.a}-{w.b}"
    rows = (side_row(t, r, o, w.edition) for t, r, o in w.side_by_side)
    return {
        "round": w.round, "a": w.a, "b": w.b, "status": w.status.value, "reason": why_not_reason(w),
        "difference": None if w.difference is None else difference_dict(w.difference, w.edition),
        "side_by_side": [{"tier": label, "rules": r, name: o} for label, r, o in rows],
        "rules_pairs": [list(pq) for pq in w.rules_pairs], "forced_pairs": [list(pq) for pq in w.forced_pairs],
    }


def why_not_renderable(w: WhyNot) -> Group:
    """The verdict, then the first differing bracket's tiers side by side."""
    head = Text(f"Round {w.round}: why not {w.a}-{w.b}? {w.status.value}: {why_not_reason(w)}")
    items: list[Any] = [head]
    if w.side_by_side and w.difference is not None and w.difference.bracket is not None:
        name = f"with {w.a}-{w.b}"
        table = Table(title=f"bracket {format_points(w.difference.bracket)}: tiers that differ", title_justify="left")
        for col in ("tier", "rules", name):
            table.add_column(col)
        for t, r, o in w.side_by_side:
            label, rv, ov = side_row(t, r, o, w.edition)
            table.add_row(Text(label), str(rv), str(ov))
        items.append(table)
    return Group(*items)
