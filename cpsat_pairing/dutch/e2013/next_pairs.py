"""C.12 "allows P1 pairings here": a requirement between A.7.d and X.

C.12 goes back to the previous bracket for "another pairing there that moves down a
different set of players of the same size and same scores and allows P1 pairings here".
JaVaFo 1.4 does so when the first candidate of that bracket (the one its requirements
and the D.1/D.2 order pick) floats a player with whom the next bracket cannot make its
P1 pairings.  Going back, it keeps every requirement that C.10 never lowers for it
(B.2, A.7.d) and lowers the others (C.10.a-e: X, Z, B.5/B.6) as far as needed for a
floater who passes; among the pairings that do, the requirements and the D order pick
as before (docs/edition-2013.md, "Sixteenth pass").  "Its P1 pairings" as C.1 and C.2
set them there with the first candidate's floater: every floater (an MDP there) has an
opponent in the next scoregroup, and the next scoregroup's players who have an
opponent among its players and that floater (C.1 moves the others down) are all paired
but at most one; another floater must let the next bracket make as many pairs.  Only a
bracket that pairs all of its players but at most one goes back so: when P1 was
lowered there (C.14), its floaters stand.

Not in a bracket that C.13's backtracking re-pairs (C.12 is not asked there at all).
"""

from __future__ import annotations

from cpsat_pairing.dutch.bracket import BracketModel
from cpsat_pairing.dutch.e2013.criteria import penultimate
from cpsat_pairing.solver.matching import grows, max_matching
from cpsat_pairing.solver.terms import Tier

# The requirement as a tier of the trace, recorded only when it is not met (1).
P1_TIER = ("C.12", "floater without the next bracket's P1 pairings")


class NextBracket:
    """The next scoregroup as a graph, with a maximum matching, for the bracket's players
    tried one by one as its floater (an MDP there): one floater adds at most one pair,
    found by one augmenting search from him, so the scoregroup is matched once."""

    def __init__(self, bm: BracketModel) -> None:
        self.ok = bm.compatible
        self.nxt = list(bm.next_group)
        index = {v: i for i, v in enumerate(self.nxt)}
        self.adj: list[list[int]] = [[] for _ in self.nxt]
        for i, v in enumerate(self.nxt):
            for w in self.nxt[i + 1 :]:
                if self.ok(v, w):
                    self.adj[i].append(index[w])
                    self.adj[index[w]].append(i)
        self.mate = max_matching(self.adj)
        self.pairs = sum(1 for m in self.mate if m != -1) // 2
        self.lowest = penultimate(bm)

    def has_opponent(self, floater: int) -> bool:
        """C.1: an MDP with no opponent in the next scoregroup is sent back to C.12;
        in the lowest bracket he is C.13's (the bye, or the brackets joined)."""
        return self.lowest or any(self.ok(floater, q) for q in self.nxt)

    def matched(self, floater: int) -> int:
        """The pairs the next bracket can make with this floater (B.1/B.2)."""
        row = [i for i, q in enumerate(self.nxt) if self.ok(floater, q)]
        return self.pairs + grows(self.adj, self.mate, row)

    def p1(self, floater: int) -> int:
        """The next bracket's P1 with this floater as its MDP: half its players, without
        the residents who have no opponent among them and him (C.1 moves them down)."""
        kept = sum(1 for i, q in enumerate(self.nxt) if self.adj[i] or self.ok(q, floater))
        return (1 + kept) // 2

    def allows_p1_pairings(self, floater: int) -> bool:
        """True when the next bracket, with this floater as its MDP, allows its P1
        pairings: he has an opponent there (C.1 sends an MDP without one to C.12), and
        the residents with an opponent (C.1 moves the others down) all but one pair.
        (Residents with no opponent add no pair, so the matching may count them.)"""
        return self.has_opponent(floater) and self.matched(floater) >= self.p1(floater)


def may_gain(bm: BracketModel, floaters: list[int]) -> bool:
    """Could another set of floaters do better?  Not when the bracket floats nobody or
    more than one player, or its floater already allows the next bracket its P1
    pairings."""
    if len(floaters) != 1:
        return False  # none: every solution floats nobody (P is fixed)
    return not NextBracket(bm).allows_p1_pairings(floaters[0])


def _floaters(bm: BracketModel, values: dict[int, int]) -> frozenset[int]:
    return frozenset(p for p in bm.bracket if values.get(bm.df[p].index))


def floater_matters(bm: BracketModel) -> bool:
    """The incumbent floats one player, and some players who could float pass the test
    while others fail it: then which floater the first candidate has decides P1."""
    if len(_floaters(bm, bm.solver.values)) != 1:
        return False
    nxt = NextBracket(bm)
    passing = [nxt.allows_p1_pairings(p) for p in bm.bracket]
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
    if len(_floaters(bm, bm.solver.values)) != 1:
        return
    nxt = NextBracket(bm)
    if first is not None and len(first) == 1:
        target = nxt.p1(next(iter(first)))
        failing = [p for p in bm.bracket if not nxt.has_opponent(p) or nxt.matched(p) < target]
    else:
        failing = [p for p in bm.bracket if not nxt.allows_p1_pairings(p)]
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
