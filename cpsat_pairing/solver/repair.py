"""Re-pairing the bracket's pairs: a cheap primal move for a bracket's pair tiers.

A tier over the bracket's own pairs ([C12] colour preferences, mostly) starts from the
previous tier's solution, which was chosen for other reasons: it can be far from the
count model's bound (bounds.py), or the tier's own, farther than CP-SAT's restricted
solves get within their budget.  Re-pairing the residents among themselves (and in a
small model the MDPs with them: the MDP set stays, which MDP meets whom is the
generation order's, after every quality tier) with a maximum matching on the pairs
the tier does not weigh, then completing it with the others, usually reaches the
bound at once; a solution that reaches the bound is optimal, and the tier costs no
search.

What must not change is kept as it is: the downfloaters and everyone paired outside
the bracket, and every pair that a fixed tier weighs (so every fixed tier keeps its
value); two MDPs never meet inside the bracket (Art. 3.2).  The same move answers the
generation order's first question, "no exchange?" (Art. 4.3): re-pair the remainder
across S1 and S2 (`split_witness`).  Both only propose; the solver (solver/lex.py)
checks a proposal against the whole model (every variable fixed: evaluated by
solver/evaluate.py, or one CP-SAT call) before it is kept, and searches as without it
if it fails.
"""

from __future__ import annotations

import operator
from itertools import repeat
from typing import TYPE_CHECKING, Callable, Iterable, Sequence

from cpsat_pairing.solver.terms import Term
from cpsat_pairing.solver.matching import max_matching

if TYPE_CHECKING:
    from cpsat_pairing.solver.lex import LexSolver
    from cpsat_pairing.solver.view import BracketView


def chunk_costs(chunk: Sequence[tuple[Term, int]]) -> dict[int, int]:
    """Each variable's weight in the chunk's objective, by index."""
    cost: dict[int, int] = {}
    for term, weight in chunk:
        for c, i in zip(term.coefs, term.indices):
            cost[i] = cost.get(i, 0) + weight * c
    return cost


def repair(bm: BracketView, chunk: Sequence[tuple[Term, int]], target: int | None = None,
           trade: bool = True, with_mdps: bool = False) -> dict[int, int] | None:
    """The incumbent with the residents' pairs among themselves re-made to lower the
    chunk's value (each pair's cost: its weight in the chunk), or None if nothing was
    found.  The result still has to be checked against the model.

    With `with_mdps`, the MDPs' pairs with residents are re-made too: a small model's
    tiers are bounded by the terms' own bounds, which an MDP given a better colour
    match often reaches.  A big model's restricted solves start from the residents'
    re-pairing alone: an incumbent with its MDPs moved can leave them far from the
    count model's bound (docs/performance.md, release 0.3.38).

    With `trade`, a resident who floats down may trade places with one paired inside:
    the float (his own variables that are true, and his pair below if it is one of the
    model's) is a vertex of the matching too, which any resident who can take it over
    may meet.
    When the matching leaves the chunk above `target`, it is improved along
    alternating cycles (`_cancel_cycles`) until it reaches it, if it can."""
    solver = bm.solver
    values = solver.values
    cost = chunk_costs(chunk)
    if not any(cost.values()):
        return None
    weighed = solver.weighed  # such pairs stay as they are, and none is made
    closed = solver.zero_for_good()  # (not the restriction: the check lifts it)
    adj = bm.adj_index
    mdps = bm.mdps
    players = bm.bracket if with_mdps else bm.residents
    inside = bm.inside if with_mdps else (lambda p, q: q not in mdps and q in bm.in_bracket)
    old: list[int] = []  # the variables of the pairs re-made
    movable: list[int] = []
    for p in players:
        for q, i in adj[p]:
            if values.get(i):
                if inside(p, q) and i not in weighed:
                    movable.append(p)
                    if p < q:
                        old.append(i)
                break
    floats = _floats(bm, values, movable, closed) if trade else []
    if len(movable) + len(floats) < 4:
        return None
    players = movable + [d for d, _ in floats]
    node = {p: k for k, p in enumerate(players)}
    n = len(players)
    size = n + len(floats)
    free: list[list[int]] = [[] for _ in range(size)]  # pairs of cost 0 or less
    costly: list[list[int]] = [[] for _ in range(size)]
    edges: list[dict[int, int]] = [{} for _ in range(size)]  # every pair allowed, with its cost
    at, price = node.get, cost.get
    for p in players:
        a = node[p]
        # Each pair to another player of the graph (inside the bracket; never two MDPs)
        # that no fixed tier weighs and nothing has closed, with its cost.
        allowed = [(b, price(i, 0)) for q, i in adj[p]
                   if (b := at(q)) is not None and i not in weighed and i not in closed
                   and (q not in mdps or p not in mdps)]
        edges[a].update(allowed)
        free[a] = [b for b, c in allowed if c <= 0]
        costly[a] = [b for b, c in allowed if c > 0]
    # The floats: vertex n + k, the k-th float, meets whoever can take it over.
    # Who may take over a float: the same variables, weighing what the float's weigh in
    # every fixed tier (so that the trade keeps their values).
    candidates = [_takers(bm, d, roles, players, closed) for d, roles in floats]
    signature = _fixed_coefficients(solver, {i for c in candidates for vs in c.values() for i in vs})
    taking: list[dict[int, list[int]]] = []  # per float: node -> the variables he takes
    for k, ((d, roles), takers) in enumerate(zip(floats, candidates)):
        sign = [signature[i] for i in roles]
        taking.append({node[q]: vs for q, vs in takers.items() if [signature[i] for i in vs] == sign})
        for b, vs in taking[-1].items():
            c = edges[n + k][b] = edges[b][n + k] = sum(cost.get(i, 0) for i in vs)
            (free if c <= 0 else costly)[n + k].append(b)
            (free if c <= 0 else costly)[b].append(n + k)
    index = _pair_index(bm, players)
    mate = _matched(free, costly)
    if mate is None:
        return None
    if target is not None:
        changed = [*old, *(i for d, roles in floats for i in roles)]
        base = sum(c * values.get(i, 0) for i, c in cost.items()) - sum(cost.get(i, 0) for i in changed)
        _cancel_cycles(mate, edges, target - base)
    out = dict(values)
    for i in old:
        out[i] = 0
    for _, roles in floats:
        for i in roles:
            out[i] = 0
    for a, b in enumerate(mate):
        if a < b:
            if b >= n:
                for i in taking[b - n][a]:
                    out[i] = 1
            else:
                out[index(a, b)] = 1
    return out


def _floats(bm: BracketView, values: dict[int, int], movable: Sequence[int], closed: set[int]) -> list[tuple[int, list[int]]]:
    """The residents who float down and may trade places with a movable one, each with
    his variables that are true: his own (a downfloater, and so on) and his pair
    below, if the model has it."""
    out: list[tuple[int, list[int]]] = []
    inside = frozenset(movable)
    families = bm.player_families()
    for d, v in bm.df.items():
        if d in inside or d in bm.mdps or not values.get(v.index):
            continue
        roles = [f[d].index for f in families.values() if d in f and values.get(f[d].index)]
        pairs = [(q, i) for q, i in bm.adj_index[d] if values.get(i)]
        if len(pairs) > 1 or any(bm.inside(d, q) for q, _ in pairs):
            continue
        out.append((d, roles + [i for _, i in pairs]))
    return out


def _fixed_coefficients(solver: LexSolver, indices: set[int]) -> dict[int, tuple[int, ...]]:
    """Each of these variables' coefficients in the fixed tiers, in order: two
    variables with the same ones can trade values without changing any fixed tier."""
    fixed = [term for term, _ in solver.fixed]
    coefs: dict[int, list[int]] = {i: [0] * len(fixed) for i in indices}
    for k, term in enumerate(fixed):
        for c, i in zip(term.coefs, term.indices):
            row = coefs.get(i)
            if row is not None:
                row[k] += c
    return {i: tuple(row) for i, row in coefs.items()}


def _takers(bm: BracketView, d: int, roles: list[int], players: Sequence[int], closed: set[int]) -> dict[int, list[int]]:
    """Who of `players` has the variables to take over the float of `d` (`roles`, his
    true variables), with them: the same families, and a pair with the same player
    below; none fixed to 0.  `d` himself is one, with his own."""
    families = bm.player_families()
    mine = {f[d].index: name for name, f in families.items() if d in f}
    below = [q for q, i in bm.adj_index[d] if i in roles]
    x = bm.x
    out: dict[int, list[int]] = {d: list(roles)}
    for q in players:
        if q == d:
            continue
        vs: list[int] = []
        for i in roles:
            name = mine.get(i)
            if name is not None:
                v = families[name].get(q)
            else:
                r = below[0]
                v = x.get((q, r))
                if v is None:
                    v = x.get((r, q))
            if v is None or v.index in closed:
                break
            vs.append(v.index)
        else:
            out[q] = vs
    return out


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
    None if there is none (`_matched`)."""
    mate = _matched(first, last)
    return None if mate is None else _with_pairs(values, old, var, mate)


def _matched(first: list[list[int]], last: list[list[int]]) -> list[int] | None:
    """A perfect matching (mate by vertex) that uses the edges `first` as far as it can,
    then completes with `last` (augmenting paths keep everyone matched so far
    matched), or None.  `first` is extended with `last` when they are needed."""
    mate = max_matching(first)
    if -1 in mate:
        for a, edges in enumerate(last):
            first[a] += edges
        mate = max_matching(first, mate)
        if -1 in mate:
            return None
    return mate


def _with_pairs(values: dict[int, int], old: list[int], var: Callable[[int, int], int], mate: list[int]) -> dict[int, int]:
    """`values` with the pairs `old` unmade and those of `mate` made."""
    out = dict(values)
    for i in old:
        out[i] = 0
    for a, b in enumerate(mate):
        if a < b:
            out[var(a, b)] = 1
    return out


# `_cancel_cycles` stops after this many cycles or arcs looked at: a proposal need not
# be optimal (the count model's bound decides), and a big bracket's search would
# otherwise cost more than the solve it may save.
CYCLE_ROUNDS = 20
CYCLE_ARCS = 300_000


def _cancel_cycles(mate: list[int], edges: Sequence[dict[int, int]], target: int) -> None:
    """Improve a perfect matching in place by re-pairing along alternating cycles that
    lower its cost (`edges[a][b]`: the cost of pair a-b, for every pair allowed).

    A matching that takes the free pairs first can still be completed with costlier
    pairs than needed (two same-colour pairs where two mixed ones fit, or a longer chain
    of such swaps).  Re-pairing the pairs {u_i, m_i} (m_i = mate[u_i]) as {m_i, u_i+1}
    around a cycle changes the cost by the sum of the arcs u_i -> u_i+1, each weighing
    cost(m_i, u_i+1) - cost(u_i, m_i): a negative cycle of these arcs is an improvement.
    Bellman-Ford passes from every vertex at once find one, as a cycle of their
    predecessor links (which only a negative cycle makes); one that meets a pair twice
    is not a re-pairing, and the search stops there, as it does once the matching
    costs `target` or less."""
    n = len(mate)
    arcs = CYCLE_ARCS
    for _ in range(CYCLE_ROUNDS):
        own = [edges[u][mate[u]] for u in range(n)]
        if sum(own) // 2 <= target:
            return
        dist = [0] * n
        pred = [-1] * n
        cycle = None
        for _ in range(n):
            changed = False
            for u in range(n):
                m = mate[u]
                du = dist[u] - own[u]
                near = edges[m]
                arcs -= len(near)
                for v, c in near.items():
                    if du + c < dist[v] and v != u:
                        dist[v] = du + c
                        pred[v] = u
                        changed = True
            if not changed or arcs < 0:
                return
            cycle = _pred_cycle(pred)
            if cycle is not None:
                break
        if cycle is None:
            return
        ends = {v for u in cycle for v in (u, mate[u])}
        if len(ends) != 2 * len(cycle):
            return  # a pair met twice: no re-pairing
        partners = [mate[u] for u in cycle]
        for k, m in enumerate(partners):
            v = cycle[(k + 1) % len(cycle)]
            mate[m], mate[v] = v, m


def _pred_cycle(pred: list[int]) -> list[int] | None:
    """A cycle of the predecessor links, in the arcs' direction, or None."""
    n = len(pred)
    state = [0] * n  # 0 unseen, 1 on the current walk, 2 done
    for start in range(n):
        walk = []
        v = start
        while v != -1 and state[v] == 0:
            state[v] = 1
            walk.append(v)
            v = pred[v]
        if v != -1 and state[v] == 1:
            loop = walk[walk.index(v):]
            loop.reverse()  # pred points backwards along the arcs
            return loop
        for w in walk:
            state[w] = 2
    return None


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
