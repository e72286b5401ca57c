"""C.12 "allows P1 pairings here" as the last requirement before the generation order.

C.12 goes back to the previous bracket for "another pairing there that moves down a
different set of players of the same size and same scores and allows P1 pairings here".
JaVaFo 1.4 does so only among the pairings of that bracket that meet every requirement
the bracket was paired under: among candidates equal on every tier it takes the first
in the D.1/D.2 order whose floaters let the next bracket make its P1 pairings, never a
candidate that is worse on X or on a float requirement (docs/edition-2013.md).  "Its
P1 pairings" as C.1 and C.2 set them there with the first candidate's floater: every
floater (an MDP there) has an opponent in the next scoregroup, and the next
scoregroup's players who have an opponent among its players and that floater (C.1
moves the others down) are all paired but at most one; another floater must let the
next bracket make as many pairs.  Only a bracket that pairs all of its players but at
most one goes back so: when P1 was lowered there (C.14), its floaters stand.

Not in a bracket that C.13's backtracking re-pairs (C.12 is not asked there at all).
"""

from __future__ import annotations

from cpsat_pairing.dutch.bracket import BracketModel
from cpsat_pairing.solver.matching import max_matching
from cpsat_pairing.solver.terms import Tier

# The requirement as a tier of the trace, recorded only when it is not met (1).
P1_TIER = ("C.12", "floater without the next bracket's P1 pairings")


def allows_p1_pairings(bm: BracketModel, floaters: frozenset[int], nxt: list[int]) -> bool:
    """True when the next bracket, with these floaters as its MDPs, allows its P1 pairings:
    every floater has an opponent there (C.1 sends an MDP without one to C.12), and the
    residents with an opponent (C.1 moves the others down) all but one pair."""
    if not all(_has_opponent(bm, f, nxt) for f in floaters):
        return False
    residents = _kept_by_c1(bm, floaters, nxt)
    return _matched(bm, floaters, residents) >= (len(floaters) + len(residents)) // 2


def _has_opponent(bm: BracketModel, floater: int, nxt: list[int]) -> bool:
    """C.1: an MDP with no opponent in the next scoregroup is sent back to C.12."""
    return any(bm.compatible(floater, q) for q in nxt)


def _kept_by_c1(bm: BracketModel, floaters: frozenset[int], nxt: list[int]) -> list[int]:
    """The next scoregroup's players who have an opponent among its players and these
    floaters (C.1 moves the others down)."""
    group = set(floaters) | set(nxt)
    return [q for q in nxt if any(bm.compatible(q, o) for o in group if o != q)]


def _matched(bm: BracketModel, floaters: frozenset[int], nxt: list[int]) -> int:
    """The pairs the next bracket can make with these floaters (B.1/B.2): a maximum
    matching over the floaters and the next scoregroup, floaters not paired together."""
    verts = [*floaters, *nxt]
    index = {v: i for i, v in enumerate(verts)}
    adj: list[list[int]] = [[] for _ in verts]
    for i, v in enumerate(verts):
        for w in verts[max(i + 1, len(floaters)) :]:
            if bm.compatible(v, w):
                adj[i].append(index[w])
                adj[index[w]].append(i)
    return sum(1 for m in max_matching(adj) if m != -1) // 2


def may_gain(bm: BracketModel, floaters: list[int]) -> bool:
    """Could another set of floaters do better?  Not when the bracket floats nobody or
    more than one player, or its floater already allows the next bracket its P1
    pairings."""
    if len(floaters) != 1:
        return False  # none: every solution floats nobody (P is fixed)
    return not allows_p1_pairings(bm, frozenset(floaters), list(bm.next_group))


def _floaters(bm: BracketModel, values: dict[int, int]) -> frozenset[int]:
    return frozenset(p for p in bm.bracket if values.get(bm.df[p].index))


def _p1(bm: BracketModel, floaters: frozenset[int], nxt: list[int]) -> int:
    """The next bracket's P1 with these floaters as its MDPs: half its players, without
    those who have no opponent there (C.1 moves them down)."""
    return (len(floaters) + len(_kept_by_c1(bm, floaters, nxt))) // 2


def floater_matters(bm: BracketModel) -> bool:
    """The incumbent floats one player, and some players who could float pass the test
    while others fail it: then which floater the first candidate has decides P1."""
    nxt = list(bm.next_group)
    if len(_floaters(bm, bm.solver.values)) != 1:
        return False
    passing = [allows_p1_pairings(bm, frozenset((p,)), nxt) for p in bm.bracket]
    return any(passing) and not all(passing)


def keep_most_next_pairs(bm: BracketModel, first: frozenset[int] | None = None) -> None:
    """Among the solutions of every tier fixed so far, which all float one player (P
    is fixed), keep those whose floater allows the next bracket its P1 pairings, if
    any does: the test is read for each player who could float, and one feasibility
    question says whether a solution floats one who passes it.

    With `first`, the floater of the first candidate (the one the generation order
    takes on these tiers): "its P1 pairings" are the P1 the next bracket had with him,
    and another floater passes when he has an opponent there and the next bracket then
    makes that many pairs (not his own P1, which C.1 may have lowered)."""
    nxt = list(bm.next_group)
    if len(_floaters(bm, bm.solver.values)) != 1:
        return
    if first is not None and len(first) == 1:
        target = _p1(bm, first, nxt)
        failing = [p for p in bm.bracket
                   if not _has_opponent(bm, p, nxt) or _matched(bm, frozenset((p,)), nxt) < target]
    else:
        failing = [p for p in bm.bracket if not allows_p1_pairings(bm, frozenset((p,)), nxt)]
    if len(failing) < len(bm.bracket):
        found = bm.solver.check_values([(bm.df[p].index, 0) for p in failing])
        if found is not None:
            bm.solver.set_incumbent(dict(found))
            for p in failing:
                bm.model.add(bm.df[p] == 0)
            return
    # No solution floats a player who passes (a given pairing's floater fails): the
    # requirement is not met, and the trace says so, so that `check` can name it.
    bm.solver.record(Tier(*P1_TIER, 1))
