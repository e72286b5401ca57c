"""Ranking (C.07 Art. 4.2) and direct encounter (Art. 6), which ranks within the groups
the earlier criteria left tied and so cannot be a value computed alone."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from cpsat_pairing.apps.standings.tiebreaks import Context, Part, Value
from cpsat_pairing.formats.tiebreak_codes import TieBreak

__all__ = ["rank"]



def _direct_encounter(ctx: Context, tb: TieBreak, group: Sequence[int], out: dict[int, Value]) -> list[list[int]]:
    """DE (6): the points each tied participant scored against the others of the group
    (several games against one opponent averaged).  If all have met, they are ordered by
    those points (6.2); if not, one is placed above the rest only when his points exceed
    what any below him could reach by winning the games not played (6.3).  A group
    still tied after a step is ranked by the same rule again, on its own."""
    rec = ctx.record
    members = set(group)
    scores: dict[int, Fraction] = {}
    reach: dict[int, Fraction] = {}
    met_all = True
    for pid in group:
        by_opponent: dict[int, list[int]] = {}
        parts = []
        for f in rec.facts[pid]:
            if f.opponent in members and (f.played or (tb.played and f.opponent is not None)):
                by_opponent.setdefault(f.opponent, []).append(f.points)
                parts.append(Part(f.round, f.opponent, ctx.fraction(f.points), "game against a tied participant"))
        scores[pid] = sum((Fraction(sum(v), len(v)) for v in by_opponent.values()), Fraction(0)) / rec.scale
        unmet = len(group) - 1 - len(by_opponent)
        met_all = met_all and unmet == 0
        reach[pid] = scores[pid] + unmet * Fraction(rec.win, rec.scale)
        out[pid] = Value(scores[pid], tuple(parts))
    order = sorted(group, key=lambda p: -scores[p])
    groups: list[list[int]] = []
    if met_all:
        for pid in order:
            if groups and scores[groups[-1][0]] == scores[pid]:
                groups[-1].append(pid)
            else:
                groups.append([pid])
    else:
        rest = list(order)
        while len(rest) > 1 and scores[rest[0]] > max(reach[p] for p in rest[1:]):
            groups.append([rest.pop(0)])
        groups.append(rest)
    result: list[list[int]] = []
    for g in groups:
        if 1 < len(g) < len(group):
            result.extend(_direct_encounter(ctx, tb, g, out))
        else:
            result.append(g)
    return result


def rank(ctx: Context, criteria: Sequence[tuple[TieBreak, dict[int, Value]]], players: Sequence[int]) -> list[int]:
    """Players in standings order: by each criterion in turn (higher first, except
    TPN; R reverses), ties left by all of them in pairing-number order (C.07 leaves
    them to lots)."""
    groups: list[list[int]] = [sorted(players)]
    for tb, values in criteria:
        if tb.base in ("DE", "EDE"):
            split: list[list[int]] = []
            for g in groups:
                split.extend(_direct_encounter(ctx, tb, g, values) if len(g) > 1 else [g])
            for pid in players:
                values.setdefault(pid, Value(None, note="not tied: direct encounter does not apply"))
            groups = split
            continue
        split = []
        descending = (tb.base != "TPN") != tb.reverse
        for g in groups:
            if len(g) == 1:
                split.append(g)
                continue
            # an undefined value ranks last; equal values keep pairing-number order (a stable sort)
            keyed = [(values[p].order, p) for p in g]
            if descending:
                keyed.sort(key=lambda kp: (kp[0] is not None, kp[0] or 0), reverse=True)
            else:
                keyed.sort(key=lambda kp: (kp[0] is None, kp[0] or 0))
            current = [keyed[0][1]]
            for (before, _), (now, pid) in zip(keyed, keyed[1:]):
                if now != before:
                    split.append(current)
                    current = []
                current.append(pid)
            split.append(current)
        groups = split
    return [pid for g in groups for pid in g]
