"""Class counts: the fixed tiers restated over S1-S2 pair counts, for the transposition search.

The transposition (Art. 4.2) is searched depth first: S1[1] tries its partners by BSN,
then S1[2], ... (order.py).  A candidate after which the fixed tiers cannot be met is
refuted by the LP -- a re-solve of an LP over every S1-S2 pair, for each candidate.  In
a big bracket most such candidates fail on arithmetic.  Say [C12] was fixed at 5 unmet
colour preferences, S1 holds 94 players preferring White and S2 only 89 preferring
Black: five White-White pairs are forced, so no Black-Black pair may be made at all.
The LP finds that out again for every Black-Black candidate it is offered, one LP
re-solve each.

Counting needs the pairs grouped by class.  For each fixed tier that weighs S1-S2 pairs
(the first of `KEYS` under which the weight of a pair depends only on the classes of
its two players) the model gets

    n[a, b] = the number of S1-S2 pairs joining class a in S1 and class b in S2,
    sum over b of n[a, b] + the class's other pairs inside the bracket
        + its downfloaters = the size of a (and likewise for S2's classes),
    the tier over n[a, b] (and its variables outside the S1-S2 pairs) = its value.

Each line follows from constraints the model already has -- the definitions of n, a
bracket player's "paired inside the bracket or a downfloater" (`df`), the fixed tier --
so no solution is lost or added, and the first solution in the search's order is the
same.  But CP-SAT's bound propagation then does the arithmetic once, and fixes to 0
every pair it excludes before the search tries it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Hashable, Sequence

from cpsat_pairing.solver.cpsat import Model
from cpsat_pairing.solver.terms import Term, add_linear

if TYPE_CHECKING:
    from cpsat_pairing.solver.view import BracketView
    from cpsat_pairing.domain.state import PlayerState

# What a tier can know of a player, coarsest first: the colour tiers weigh a pair by the
# two colour preferences (and their strength), the float tiers by float histories.
KEYS: tuple[Callable[["PlayerState"], Hashable], ...] = (
    lambda ps: ps.pref_colour,
    lambda ps: (ps.pref_colour, ps.pref_kind),
    lambda ps: (ps.pref_colour, ps.pref_kind, ps.cd),
    lambda ps: ps.float_in(1),
    lambda ps: ps.float_in(2),
    lambda ps: (ps.float_in(1), ps.float_in(2)),
    lambda ps: (ps.pref_colour, ps.pref_kind, ps.cd, ps.colours[-2:], ps.topscorer),
    lambda ps: (
        ps.pref_colour, ps.pref_kind, ps.cd, ps.colours[-2:], ps.topscorer, ps.float_in(1), ps.float_in(2),
        ps.pairing_score,
    ),
)


def add_class_counts(bm: BracketView, s1: Sequence[int], s2: Sequence[int]) -> int:
    """Add the class-count constraints of the S1-S2 pairs of `bm` (a bracket model whose
    S1 and S2 are `s1` and `s2`) for each fixed tier that weighs those pairs by class;
    return how many tiers were restated.

    `bm` may be any edition's bracket model: what is used is `adj`, `df` (with
    `inside`, its definition: a bracket player's pairs inside the bracket plus his df
    make 1) and the solver's `fixed` tiers.  The constraints are written straight into the proto,
    by variable index: the modelling layer would cross into C++ for every term."""
    s1set, s2set = frozenset(s1), frozenset(s2)
    # Variables fixed to 0 for good add nothing to a count: left out, they leave the
    # same constraints over fewer terms (once the exchange is known, most of a big
    # bracket's pairs).
    zero = bm.solver.zero_for_good()
    # The S1-S2 pairs: variable index -> (S1 player, S2 player).
    cross: dict[int, tuple[int, int]] = {}
    adj = bm.adj_index
    for p in s1:
        for q, i in adj[p]:
            if q in s2set and i not in zero:
                cross[i] = (p, q)
    # A near model whose far pairs are counted by side (dutch/near.py): each count of
    # far S1-S2 pairs of two classes joins them, as a pair of two of its players, and
    # weighs what the tier weighs its class pair by (its far count's coefficient).
    far_count: dict[int, int] = {}  # such a count's index -> the index of its class pair's far count
    upper: dict[int, int] = {}
    sides = bm.far.sides if bm.far is not None else {}
    for index, (rep, total, ub) in sides.items():
        if index not in zero:
            cross[index] = rep
            far_count[index] = total
            upper[index] = ub
    if not cross:
        return 0
    players = bm.state.players
    groupings: dict[int, tuple[dict[int, int], list[int], int]] = {}

    def grouping(k: int) -> tuple[dict[int, int], list[int], int]:
        """Class of each player (a small integer), the class pair of each cross pair in
        order (S1 class * classes + S2 class: integers hash faster than tuples), and the
        number of classes."""
        if k not in groupings:
            ids: dict[Hashable, int] = {}
            cls = {p: ids.setdefault(KEYS[k](players[p]), len(ids)) for p in (*s1, *s2)}
            size = len(ids)
            groupings[k] = cls, [cls[p] * size + cls[q] for p, q in cross.values()], size
        return groupings[k]

    by_key: dict[int, list[tuple[Term, int, dict[int, int]]]] = {}
    for term, value in bm.solver.fixed:
        weights: dict[int, int] = {}  # a tier may weigh one variable more than once
        for c, i in zip(term.coefs, term.indices):
            if i in cross:
                weights[i] = weights.get(i, 0) + c
        if far_count:
            on = dict.fromkeys(far_count.values(), 0)
            for c, i in zip(term.coefs, term.indices):
                if i in on:
                    on[i] += c
            for index, total in far_count.items():
                if on[total]:
                    weights[index] = on[total]
        if not weights or value == term.bounds()[0]:
            continue  # nothing to count, or propagation alone sets every pair of it
        for k in range(len(KEYS)):
            if _respects(grouping(k)[1], cross, weights):
                by_key.setdefault(k, []).append((term, value, weights))
                break
    if by_key:
        # Each player's other pairs inside the bracket and his df, by index.
        far = bm.far.f if bm.far is not None else None
        rest = {}
        for side, other in ((s1, s2set), (s2, s1set)):
            for p in side:
                rest[p] = [i for q, i in adj[p] if q not in other and i not in zero and bm.inside(p, q)]
                if bm.df[p].index not in zero:
                    rest[p].append(bm.df[p].index)
                if far and not sides and p in far and far[p].index not in zero:
                    rest[p].append(far[p].index)  # a near model's far pair (dutch/near.py)
        # The far counts that the counts by side make up are stated by them.
        stated = zero | set(far_count.values()) if far_count else zero
        for k, terms in by_key.items():
            _add_layer(bm.model, (s1, s2), cross, *grouping(k), rest, terms, stated, upper)
    return sum(len(t) for t in by_key.values())


def _respects(groups: list[int], cross: dict[int, tuple[int, int]], weights: dict[int, int]) -> bool:
    """Whether every cross pair of a class pair has the same weight in the tier."""
    seen: dict[int, int] = {}
    for g, i in zip(groups, cross):
        if seen.setdefault(g, weights.get(i, 0)) != weights.get(i, 0):
            return False
    return True


def _add_layer(
    model: Model,
    sides: tuple[Sequence[int], Sequence[int]],
    cross: dict[int, tuple[int, int]],
    cls: dict[int, int],
    groups: list[int],
    classes: int,
    rest: dict[int, list[int]],
    terms: list[tuple[Term, int, dict[int, int]]],
    zero: set[int],
    upper: dict[int, int],
) -> None:
    """The counts of one class key, and the tiers `terms` restated over them (`zero`:
    variables left out of them; `upper`: cross variables that count more than one pair,
    with their upper bounds)."""
    members: dict[int, list[int]] = {}
    for g, i in zip(groups, cross):
        members.setdefault(g, []).append(i)
    size: dict[tuple[int, int], int] = {}
    for side, players in enumerate(sides):
        for p in players:
            size[side, cls[p]] = size.get((side, cls[p]), 0) + 1
    n: dict[int, int] = {}  # class pair -> index of its count
    for g, indices in members.items():
        a, b = divmod(g, classes)
        n[g] = model.new_int_var(0, min(sum(upper.get(i, 1) for i in indices), size[0, a], size[1, b]), "").index
        add_linear(model, [n[g], *indices], [1] + [-1] * len(indices), 0)
    # Each class: its players are paired across, paired otherwise inside the bracket,
    # or float down (the definition of df, summed over the class).
    degree: dict[tuple[int, int], list[int]] = {key: [] for key in size}
    for g, index in n.items():
        a, b = divmod(g, classes)
        degree[0, a].append(index)
        degree[1, b].append(index)
    # A side whose players have many more pairs besides the S1-S2 ones (S2 = every
    # resident, S1 = a few MDPs) gets no class rows: each would repeat the players'
    # own rows over most of the bracket's pairs, for a bound (n[a, b] <= the class's
    # size) its counts' domains already give.  Any subset of these lines is implied.
    for side, players in enumerate(sides):
        if sum(len(rest[p]) for p in players) > 2 * len(cross):
            for p in players:
                degree.pop((side, cls[p]), None)
            continue
        for p in players:
            degree[side, cls[p]] += rest[p]
    for key, row in degree.items():
        add_linear(model, row, [1] * len(row), size[key])
    for term, value, weights in terms:
        weight_of: dict[int, int] = {}
        for g, i in zip(groups, cross):
            weight_of.setdefault(g, weights.get(i, 0))
        outside: dict[int, int] = {}
        for c, i in zip(term.coefs, term.indices):
            if i not in cross and i not in zero:
                outside[i] = outside.get(i, 0) + c
        indices = [n[g] for g, w in weight_of.items() if w] + list(outside)
        coefs = [w for w in weight_of.values() if w] + list(outside.values())
        add_linear(model, indices, coefs, value)
