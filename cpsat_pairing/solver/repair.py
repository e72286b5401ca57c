"""Re-pairing the residents: a cheap primal move for a big bracket's pair tiers.

A tier over the bracket's own pairs ([C12] colour preferences, mostly) starts from the
previous tier's solution, which was chosen for other reasons: it can be far from the
count model's bound (bounds.py), farther than CP-SAT's restricted solves get within
their budget.  Re-pairing
the residents among themselves with a maximum matching on the pairs the tier does not
weigh, then completing it with the others, usually reaches the bound at once; a
solution that reaches the bound is optimal, and the tier costs no search.

What must not change is kept as it is: the downfloaters and everyone paired outside
the bracket or with an MDP, and every pair that a fixed tier weighs (so every fixed
tier keeps its value).  The same move answers the generation order's first question,
"no exchange?" (Art. 4.3): re-pair the remainder across S1 and S2 (`split_witness`).
Both only propose; the solver (solver/lex.py) checks a proposal against the whole model
(every variable fixed: evaluated by solver/evaluate.py, or one CP-SAT call) before it is
kept, and searches as without it if it fails.
"""

from __future__ import annotations

import operator
from itertools import repeat
from typing import TYPE_CHECKING, Callable, Iterable, Sequence

from cpsat_pairing.solver.terms import Term
from cpsat_pairing.solver.matching import max_matching

if TYPE_CHECKING:
    from cpsat_pairing.solver.view import BracketView


def chunk_costs(chunk: Sequence[tuple[Term, int]]) -> dict[int, int]:
    """Each variable's weight in the chunk's objective, by index."""
    cost: dict[int, int] = {}
    for term, weight in chunk:
        for c, i in zip(term.coefs, term.indices):
            cost[i] = cost.get(i, 0) + weight * c
    return cost


def repair(bm: BracketView, chunk: Sequence[tuple[Term, int]]) -> dict[int, int] | None:
    """The incumbent with the residents' pairs among themselves re-made to lower the
    chunk's value (each pair's cost: its weight in the chunk), or None if nothing was
    found.  The result still has to be checked against the model."""
    solver = bm.solver
    values = solver.values
    cost = chunk_costs(chunk)
    if not any(cost.values()):
        return None
    weighed = solver.weighed  # such pairs stay as they are, and none is made
    closed = solver.zero_for_good()  # (not the restriction: the check lifts it)
    adj = bm.adj_index
    residents = bm.residents
    resident = frozenset(residents)
    old: list[int] = []  # the variables of the pairs re-made
    movable: list[int] = []
    for p in residents:
        for q, i in adj[p]:
            if values.get(i):
                if q in resident and i not in weighed:
                    movable.append(p)
                    if p < q:
                        old.append(i)
                break
    if len(movable) < 4:
        return None
    node = {p: k for k, p in enumerate(movable)}
    free: list[list[int]] = [[] for _ in movable]  # pairs of cost 0 or less
    costly: list[list[int]] = [[] for _ in movable]
    for p in movable:
        a = node[p]
        for q, i in adj[p]:
            b = node.get(q)
            if b is None or i in weighed or i in closed:
                continue  # (both residents: the pair is inside the bracket)
            (free if cost.get(i, 0) <= 0 else costly)[a].append(b)
    return _rematched(values, old, _pair_index(bm, movable), free, costly)


def _pair_index(bm: BracketView, movable: Sequence[int]) -> Callable[[int, int], int]:
    """The pair variable's index of two movable players (by their node numbers), read
    only for the pairs a matching makes: a map of every edge would cost more than the
    matching at a few hundred thousand pairs."""
    x = bm.x

    def index(a: int, b: int) -> int:
        p, q = movable[a], movable[b]
        return (x[p, q] if (p, q) in x else x[q, p]).index

    return index


def split_witness(bm: BracketView, s1: Sequence[int], s2: Sequence[int]) -> dict[int, int] | None:
    """A solution in which every pair of the remainder joins S1 (`s1`) and S2 (`s2`) --
    the "no exchange" candidate of Art. 4.3 -- made from the incumbent by re-pairing
    its remainder pairs across, or None.

    The restricted models cannot answer this question when the colour tiers need pairs
    far from the natural partners, and the full model's search is slow on a big
    bracket; a bipartite matching is quick.  Pairs a
    fixed tier weighs are used last (as few as the matching allows), and the proposal
    is dropped unless every fixed tier keeps its value."""
    solver = bm.solver
    values = solver.values
    s1set, s2set = frozenset(s1), frozenset(s2)
    weighed = solver.weighed
    closed = solver.zero_for_good()
    sides: tuple[list[int], list[int]] = ([], [])
    old: list[int] = []
    adj = bm.adj_index
    for p in (*s1, *s2):
        pair = next(((q, i) for q, i in adj[p] if values.get(i)), None)
        if pair is None or not bm.inside(p, pair[0]):
            if p in s1set:
                return None  # an S1 player floats: not this candidate's pairing
            continue  # an S2 player floats down and stays a downfloater
        q, i = pair
        if q not in s1set and q not in s2set:
            continue  # paired outside the remainder: kept
        sides[p in s2set].append(p)
        if p < q:
            old.append(i)
    if len(sides[0]) != len(sides[1]):
        return None
    movable = [*sides[0], *sides[1]]
    node = {p: k for k, p in enumerate(movable)}
    first = len(sides[0])
    cheap: list[list[int]] = [[] for _ in movable]
    dear: list[list[int]] = [[] for _ in movable]
    for p in sides[0]:
        a = node[p]
        for q, i in adj[p]:
            b = node.get(q)
            if b is None or b < first or i in closed:
                continue
            edges = dear if i in weighed else cheap
            edges[a].append(b)
            edges[b].append(a)
    out = _rematched(values, old, _pair_index(bm, movable), cheap, dear)
    if out is None:
        return None
    get = out.get
    for term, value in solver.fixed:
        if sum(map(operator.mul, term.coefs, map(get, term.indices, repeat(0)))) != value:
            return None
    return out


def _rematched(
    values: dict[int, int], old: list[int], var: Callable[[int, int], int], first: list[list[int]],
    last: list[list[int]],
) -> dict[int, int] | None:
    """`values` with the pairs `old` unmade and those of a perfect matching of the
    movable players (vertices 0..n-1; `var(a, b)`: the pair variable's index) made, or
    None if there is none.  The matching uses the edges `first` as far as it can, then completes
    with `last`: augmenting paths keep everyone matched so far matched."""
    mate = max_matching(first)
    if -1 in mate:
        for a, edges in enumerate(last):
            first[a] += edges
        mate = max_matching(first, mate)
        if -1 in mate:
            return None
    out = dict(values)
    for i in old:
        out[i] = 0
    for a, b in enumerate(mate):
        if a < b:
            out[var(a, b)] = 1
    return out


def settled_pairs(bm: BracketView, chunk: Sequence[tuple[Term, int]], width: int) -> list[int]:
    """The incumbent's pairs inside the bracket (by index) whose players are ranked more
    than `width` places from every player of a pair or a float that the chunk weighs,
    and from those players' partners.  Kept as they are, the rest is a small model:
    a repaired incumbent a few pairs short of the bound usually reaches it there."""
    values = bm.solver.values
    cost = chunk_costs(chunk)
    place = {p: k for k, p in enumerate(bm.bracket)}
    chosen = incumbent_pairs(bm)
    spots = [place[r] for p, q, i in chosen if cost.get(i, 0) > 0 for r in (p, q)]
    spots += [place[p] for p in bm.bracket if values.get(bm.df[p].index) and cost.get(bm.df[p].index, 0) > 0]
    if not spots or not chosen:
        return []
    return pairs_away(bm, chosen, spots, width)


def incumbent_pairs(bm: BracketView) -> list[tuple[int, int, int]]:
    """The incumbent's pairs of two bracket players: (p, q, index)."""
    values = bm.solver.values
    inside = frozenset(bm.bracket)
    return [(p, q, i) for (p, q), i in bm.pair_indices() if values.get(i) and p in inside and q in inside]


def pairs_away(bm: BracketView, chosen: Sequence[tuple[int, int, int]], spots: Iterable[int], width: int) -> list[int]:
    """The indices of the pairs of `chosen` whose players are ranked more than `width`
    places (in the bracket) from every place of `spots`, and are not the partners of
    players that are."""
    n = len(bm.bracket)
    near = [False] * n
    for k in spots:
        for j in range(max(0, k - width), min(n, k + width + 1)):
            near[j] = True
    partner = {p: q for a, b, _ in chosen for p, q in ((a, b), (b, a))}
    free = {p for k, p in enumerate(bm.bracket) if near[k]}
    free |= {partner[p] for p in list(free) if p in partner}
    return [i for p, q, i in chosen if p not in free and q not in free]
