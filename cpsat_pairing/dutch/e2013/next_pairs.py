"""C.12 "allows P1 pairings here": a requirement above every one C.10 lowers.

C.12 goes back to the previous bracket for "another pairing there that moves down a
different set of players of the same size and same scores and allows P1 pairings here".
JaVaFo 1.4 does so when the first candidate of that bracket (the one its requirements
and the D.1/D.2 order pick) floats players with whom the next bracket cannot make its
P1 pairings.  Going back, it lowers the requirements as C.10 does (a-g: B.6/B.5, X, Z,
A.7.d and last B.2 for topscorers) as far as needed for floaters who pass; among the
pairings that do, the requirements and the D order pick as before
(docs/edition-2013.md, "Sixteenth pass", "Twentieth pass", "Twenty-second pass").
"Its P1 pairings" as C.1 and C.2 set them there with the first candidate's floaters
(its MDPs): half the next bracket's players, without the residents who have no
opponent among them (C.1 moves them down); other floaters must let the next bracket
make as many pairs.  One floater must also have an opponent there (C.1 sends an MDP
without one back here), and so must each of several who were moved down into this
bracket ("Twenty-third pass").  The floaters are read as a set, however many the
bracket floats ("Eighteenth pass": j105141 r10 floats two, with whom the next bracket
makes two pairs of three); a bracket that floats everybody (P at 0, C.13's join) has
no other set to go back for.

Not in a bracket that C.13's backtracking re-pairs (C.12 is not asked there at all).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from ortools.sat.python import cp_model

from cpsat_pairing.dutch.bracket import BracketModel
from cpsat_pairing.dutch.e2013.criteria import penultimate
from cpsat_pairing.solver.matching import grows, growth, max_matching
from cpsat_pairing.records import Tier

# The requirement as a tier of the trace, recorded only when it is not met (1).
P1_TIER = ("C.12", "floater without the next bracket's P1 pairings")
# C.1 asked of each floater C.12's return chooses who was moved down into the bracket.
OPPONENT_TIER = ("C.12", "floaters moved down again without an opponent below")


class NextBracket:
    """The next scoregroup as a graph, with a maximum matching, for the bracket's
    floaters (its MDPs there) tried as a set: each floater adds at most one pair, found
    by one augmenting search from him, so the scoregroup is matched once."""

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

    def matched(self, floaters: Sequence[int]) -> int:
        """The pairs the next bracket can make with these floaters (B.1/B.2)."""
        n = len(self.nxt)
        rows = [[i for i, q in enumerate(self.nxt) if self.ok(f, q)]
                + [n + j for j, g in enumerate(floaters[:k]) if self.ok(f, g)] for k, f in enumerate(floaters)]
        return self.pairs + growth(self.adj, self.mate, rows)

    def moved(self, floaters: Collection[int]) -> int:
        """The next scoregroup's residents C.1 moves down with these floaters as its
        MDPs: those with no opponent among its players."""
        return sum(1 for i, q in enumerate(self.nxt) if not self.adj[i] and not any(self.ok(q, f) for f in floaters))

    def p1(self, floaters: Collection[int]) -> int:
        """The next bracket's P1 with these floaters as its MDPs: half its players,
        without the residents C.1 moves down."""
        return (len(floaters) + len(self.nxt) - self.moved(floaters)) // 2

    def p0_less_moved(self, floaters: Collection[int]) -> int:
        """P0 of the next bracket with these floaters as its MDPs, less one for each of
        its residents C.1 moves down."""
        return max(0, (len(self.nxt) + len(floaters)) // 2 - self.moved(floaters))

    def passes(self, floaters: Sequence[int], target: int) -> bool:
        """The next bracket makes `target` pairs with these floaters; one floater must
        also have an opponent there (C.1 sends an MDP without one back here).  Two or
        more are not each asked for one: the reference keeps a set with a floater who
        has none when the next bracket still makes its pairs (j105103 r7, j105174 r6:
        docs/edition-2013.md, "Seventeenth pass")."""
        if len(floaters) == 1 and not self.has_opponent(floaters[0]):
            return False
        return self.matched(floaters) >= target

    def allows_p1_pairings(self, floaters: Sequence[int]) -> bool:
        """True when the next bracket, with these floaters as its MDPs, allows its P1
        pairings.  (Residents with no opponent add no pair, so the matching may count
        them.)"""
        return self.passes(floaters, self.p1(floaters))


def movers(bm: BracketModel) -> list[int]:
    """The bracket's players C.1 moves down: those with no opponent in it (two MDPs
    never meet in a bracket).  They float in every candidate."""
    return [p for p in bm.bracket if not any(q != p and bm.inside(p, q) and bm.compatible(p, q) for q in bm.bracket)]


def without_opponent_after_movers(bm: BracketModel, nxt: NextBracket) -> list[int]:
    """The bracket's players moved down into it (a score above its own) who, floated on,
    would find no opponent in the next scoregroup once C.1's movers have theirs: the
    movers are matched into it first (as many as can be), then each other floater is
    asked alone for one of the players left (C.1 asks each MDP).  A resident of the
    bracket is not asked: the reference floats one on with no opponent there where the
    next bracket makes as many pairs either way (docs/edition-2013.md, "Twenty-third
    pass")."""
    own = min(bm.score[p] for p in bm.bracket)
    moved_down = [p for p in bm.bracket if bm.score[p] > own]
    if not moved_down:
        return []
    moved = movers(bm)
    # The movers and the next scoregroup as a bipartite graph: movers 0..m-1, then the
    # scoregroup's players.
    m = len(moved)
    index = {q: m + j for j, q in enumerate(nxt.nxt)}
    adj: list[list[int]] = [[index[q] for q in nxt.nxt if nxt.ok(p, q)] for p in moved]
    adj += [[] for _ in nxt.nxt]
    for i, row in enumerate(adj[:m]):
        for j in row:
            adj[j].append(i)
    mate = max_matching(adj)
    taken = frozenset(moved)
    return [p for p in moved_down if p not in taken
            and not grows(adj, mate, [index[q] for q in nxt.nxt if nxt.ok(p, q)])]


def keep_floaters_with_opponents(bm: BracketModel) -> None:
    """C.12's return, after the P1 test: among the pairings kept so far, fewest
    floaters moved down again without an opponent below
    (`without_opponent_after_movers`).  Not in the penultimate bracket, whose floaters'
    want of an opponent is C.13's."""
    nxt = NextBracket(bm)
    if nxt.lowest:
        return
    lacking = without_opponent_after_movers(bm, nxt)
    if lacking:
        bm.solver.minimize([bm.term(*OPPONENT_TIER, ((1, bm.df[p]) for p in lacking))])


def first_stands(bm: BracketModel, floaters: list[int]) -> bool:
    """Whether the next bracket, with the first candidate's floaters as its MDPs, sends
    nothing back here: each floater has an opponent there (C.1), and it makes its P1
    pairings, P0 of all its players less one for each resident C.1 moves down (no
    opponent among them).  j105137 r10: five players, one moved, one pair suffices
    (docs/edition-2013.md, "Nineteenth pass")."""
    if not floaters:
        return True
    nxt = NextBracket(bm)
    if not all(nxt.has_opponent(f) for f in floaters):
        return False
    return nxt.matched(sorted(floaters)) >= nxt.p0_less_moved(floaters)


def _no_other_set(bm: BracketModel, floaters: Collection[int]) -> bool:
    """Nobody floats (P is fixed: every solution floats nobody), or every player of two
    or more does (P at 0, C.13's join): no other set of as many players to go back for.
    (A one-player bracket is still tested, so that its trace says when he fails.)"""
    return not floaters or len(floaters) == len(bm.bracket) > 1


def may_gain(bm: BracketModel, floaters: list[int]) -> bool:
    """Could another set of floaters do better?  Not when there is no other set, or the
    floaters already allow the next bracket its P1 pairings and none of them was moved
    down into the bracket to meet nobody in the next one (`without_opponent_after_movers`)."""
    if _no_other_set(bm, floaters):
        return False
    nxt = NextBracket(bm)
    if not nxt.allows_p1_pairings(sorted(floaters)):
        return True
    return not nxt.lowest and bool(set(floaters) & set(without_opponent_after_movers(bm, nxt)))


def _floaters(bm: BracketModel, values: dict[int, int]) -> list[int]:
    return [p for p in bm.bracket if values.get(bm.df[p].index)]


def floater_matters(bm: BracketModel) -> bool:
    """The incumbent floats somebody, and which floaters the first candidate has may
    decide the next bracket's P1 pairings: with one floater, some players who could
    float pass the test while others fail it; with more, the sets are not listed (there
    may be many), so always."""
    floaters = _floaters(bm, bm.solver.values)
    if _no_other_set(bm, floaters):
        return False
    if len(floaters) > 1:
        return True
    nxt = NextBracket(bm)
    passing = [nxt.allows_p1_pairings([p]) for p in bm.bracket]
    return any(passing) and not all(passing)


def keep_most_next_pairs(bm: BracketModel, first: frozenset[int] | None = None) -> None:
    """Among the solutions of every tier fixed so far, which all float as many players
    of the same scores (P and B.3 are fixed), keep those whose floaters allow the next
    bracket its P1 pairings, if any do.

    With `first`, the floaters of the first candidate (the one the generation order
    takes on these tiers): "its P1 pairings" are the P1 the next bracket had with them,
    and other floaters pass when the next bracket then makes that many pairs (not their
    own P1, which C.1 may have lowered).  Without it, one floater is tested against his
    own P1 (more are not asked)."""
    current = _floaters(bm, bm.solver.values)
    if _no_other_set(bm, current):
        return
    nxt = NextBracket(bm)
    if len(current) == 1:
        kept = _keep_one_floater(bm, nxt, first)
    elif first is not None and len(first) == len(current):
        kept = _keep_floater_sets(bm, nxt, nxt.p1(first))
    else:
        return
    if not kept:
        # No solution floats players who pass (a given pairing's floaters fail): the
        # requirement is not met, and the trace says so, so that `check` can name it.
        bm.solver.record(Tier(*P1_TIER, 1))


def _keep_one_floater(bm: BracketModel, nxt: NextBracket, first: frozenset[int] | None) -> bool:
    """One floater: the test is read for each player who could float, and one
    feasibility question says whether a solution floats one who passes it; if one does,
    the players who fail are kept from floating."""
    target = None if first is None or len(first) != 1 else nxt.p1(first)
    failing = [p for p in bm.bracket
               if not (nxt.allows_p1_pairings([p]) if target is None else nxt.passes([p], target))]
    if len(failing) == len(bm.bracket):
        return False
    found = bm.solver.check_values([(bm.df[p].index, 0) for p in failing])
    if found is None:
        return False
    bm.solver.set_incumbent(dict(found))
    for p in failing:
        bm.model.add(bm.df[p] == 0)
    return True


def _keep_floater_sets(bm: BracketModel, nxt: NextBracket, target: int) -> bool:
    """Two or more floaters: the sets of as many players are too many to list, so the
    test is a constraint of the model, a matching of the next bracket's players (its
    scoregroup and the bracket's floaters, each open only when he floats) with at least
    `target` pairs; one feasibility question says whether a solution meets it, and if
    one does, every later tier keeps it."""
    on = _next_bracket_matching(bm, nxt, target)
    found = bm.solver.check_values([(on.index, 1)])
    if found is None:
        return False
    bm.solver.set_incumbent(dict(found))
    bm.model.add(on == 1)
    return True


def _next_bracket_matching(bm: BracketModel, nxt: NextBracket, target: int) -> cp_model.IntVar:
    """An auxiliary matching of the next bracket's players with at least `target`
    pairs, enforced by the literal returned: pairs of the next scoregroup, of a
    bracket player and one of it, and of two bracket players, a bracket player taking
    part only when he floats (B.1/B.2 as `compatible` says)."""
    m = bm.model
    on = m.new_bool_var("c12_p1_pairings")
    players = [*nxt.nxt, *bm.bracket]
    at: dict[int, list[cp_model.IntVar]] = {p: [] for p in players}
    ys: list[cp_model.IntVar] = []
    for i, p in enumerate(players):
        for q in players[i + 1 :]:
            if nxt.ok(p, q):
                y = m.new_bool_var(f"p1_{p}_{q}")
                at[p].append(y)
                at[q].append(y)
                ys.append(y)
    for q in nxt.nxt:
        m.add(sum(at[q]) <= 1)
    for p in bm.bracket:
        m.add(sum(at[p]) <= bm.df[p])
    m.add(sum(ys) >= target).only_enforce_if(on)
    bm.solver.add_variables([*ys, on])
    return on
