"""Lower bounds for a big bracket's quality tiers from a model of counts.

Every quality criterion weighs a pair by what the rules know of its two players (score,
colour preference, float history, ...), never by who they are; and a downfloater, an
exit or the PAB by the player's own such data.  Players alike in all of that form a
*class*; a pairing then has a value on every tier that depends only on how many pairs
join each two classes and how many players of each class float, exit, ...

The *count model* has one integer per class pair and per class and kind of float.  It
keeps each player's "paired exactly once" summed over his class, the round-wide limits
and the tiers already fixed, and forgets who has met whom ([C1]) and the odd-set cuts
but those of single classes and of the whole bracket (which its LP needs).
Every pairing of the bracket model maps onto a solution of it with the same tier
values, so its optimum is a lower bound.  When a solution of the bracket model (found
on its restriction, solver/lex.py) reaches that bound, the tier is solved without proving it
on the full model -- the proof is most of a big bracket's time.

The mapping is checked, not assumed: if any tier weighs two variables of the same
class (pair) differently, there is no bound and the full model decides.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, Sequence

from ortools.sat.python import cp_model

from cpsat_pairing.solver.cpsat import Model, solve
from cpsat_pairing.solver.terms import Term

if TYPE_CHECKING:
    from cpsat_pairing.solver.view import RoundView

# A class of players, or a group of variables the count model counts together.
Group = tuple[Any, ...]

def player_classes(bm: RoundView) -> dict[int, int]:
    """Each modelled player's class: a small integer, the same for players alike in
    everything a quality criterion reads of them (the near model's far pairs are
    counted by these classes too, dutch/near.py)."""
    st = bm.state
    next_set = frozenset(bm.next_group)

    def key(p: int) -> Group:
        ps = st.players[p]
        role = "mdp" if p in bm.mdps else "bracket" if p in bm.in_bracket else "next" if p in next_set else "lower"
        return (
            role, ps.pairing_score, ps.pref_colour, ps.pref_kind, ps.cd, ps.colours[-2:], ps.float_in(1),
            ps.float_in(2), ps.unplayed, ps.topscorer, p in bm.pab_allowed,
        )

    ids: dict[Group, int] = {}
    return {p: ids.setdefault(key(p), len(ids)) for p in bm.players}


class CountBound:
    """The count model of one bracket model, re-solved for each chunk of tiers."""

    def __init__(self, bm: RoundView) -> None:
        self.bm = bm
        self.cls = bm.far.cls if bm.far is not None else player_classes(bm)
        self.size = [0] * (max(self.cls.values(), default=-1) + 1)
        for p in bm.players:
            self.size[self.cls[p]] += 1
        # group of each variable: ("x", a, b, inside) for the pairs joining classes
        # a <= b, (family, a) for a player's own variable, ("v", index) for the rest.
        self.group: dict[int, Group] = {}
        self.members: dict[Group, int] = {}
        # How many pairs a variable stands for, where more than one: a near model's
        # count of the far pairs between two classes.
        self.weight: dict[int, int] = {}
        # The pair variables' indices are counted from the first (none read back), and
        # each group is one tuple shared by its members: 1.7 million pairs at 5,000
        # players.
        cls, inside, group = self.cls, bm.inside, self.group
        shared: dict[tuple[int, int, bool], Group] = {}
        for (p, q), i in bm.pair_indices():
            a, b = cls[p], cls[q]
            pair = (a, b, inside(p, q)) if a <= b else (b, a, inside(p, q))
            g = shared.get(pair)
            if g is None:
                g = shared[pair] = ("x", *pair)
            group[i] = g
        for name, family in bm.player_families().items():
            for p, v in family.items():
                group[v.index] = (name, cls[p])
        for v in bm.counters():
            group[v.index] = ("v", v.index)
        self.members.update(Counter(group.values()))  # in the order the groups first appear
        if bm.far is not None:
            for far in bm.far.groups:
                a, b = far.classes
                g = shared.get((a, b, True)) or ("x", a, b, True)
                group[far.var.index] = g
                self.weight[far.var.index] = far.count
                self.members[g] = self.members.get(g, 0) + far.count
        self.model = Model()
        self.var = {g: self.model.new_int_var(0, n, "") for g, n in self.members.items()}
        self._add_structure()
        self.fixed = 0  # how many of the bracket model's fixed tiers the model holds
        # Each term's aggregate, by identity (the term kept with it): a tier is
        # aggregated as the objective, then again as a fixed tier.
        self._aggregates: dict[int, tuple[Term, dict[Group, int] | None]] = {}

    def _add_structure(self) -> None:
        """Each player paired exactly once, and inside the bracket or a downfloater, both
        summed over his class; the round-wide limits on the PAB, exits and counts."""
        bm, m = self.bm, self.model
        degree: list[list[cp_model.IntVar]] = [[] for _ in self.size]
        inside: list[list[cp_model.IntVar]] = [[] for _ in self.size]
        # The pairs within one class, by class (counted twice in its rows above).
        own: list[list[cp_model.IntVar]] = [[] for _ in self.size]
        family: dict[str, list[cp_model.IntVar]] = {}
        for g, v in self.var.items():
            if g[0] == "x":
                _, a, b, ins = g
                for side in (a, b):
                    degree[side].append(v)
                    if ins:
                        inside[side].append(v)
                if a == b:
                    own[a].append(v)
            elif g[0] == "df":
                inside[g[1]].append(v)
            elif g[0] != "v":
                degree[g[1]].append(v)
            family.setdefault(g[0], []).append(v)
        in_bracket = {self.cls[p] for p in bm.bracket}  # a class is all bracket or all not
        if not bm.local:  # the bracket alone (bm.local) has only the inside constraint
            for c, n in enumerate(self.size):
                m.add(sum(degree[c]) == n)
                _odd_set_cut(m, degree[c], own[c], n)
        for c in in_bracket:
            m.add(sum(inside[c]) == self.size[c])
            _odd_set_cut(m, inside[c], own[c], self.size[c])
        # Summed over the bracket's classes, those rows are twice its pairs inside plus
        # its downfloaters: an odd bracket has a downfloater.
        _odd_set_cut(m, family.get("df", []), [], sum(self.size[c] for c in in_bracket))
        m.add(sum(family.get("u", [])) <= 1)
        m.add(sum(family.get("exit", [])) <= len(bm.lower))
        m.add(sum(family.get("dn", [])) == sum(family.get("up", [])))
        m.add(2 * sum(family.get("v", [])) == sum(family.get("w", [])))

    def _aggregate(self, term: Term) -> dict[Group, int] | None:
        """The term as (group -> coefficient), or None if it does not respect the groups."""
        known = self._aggregates.get(id(term))
        if known is None or known[0] is not term:
            known = self._aggregates[id(term)] = term, self._aggregated(term)
        return known[1]

    def _aggregated(self, term: Term) -> dict[Group, int] | None:
        coef: dict[Group, int] = {}
        count: dict[Group, int] = {}
        weight = self.weight
        for c, i in zip(term.coefs, term.indices):
            g = self.group.get(i)
            if g is None or coef.setdefault(g, c) != c:
                return None
            count[g] = count.get(g, 0) + weight.get(i, 1)
        if any(n != self.members[g] for g, n in count.items()):
            return None
        return coef

    def minimum(self, chunk: Sequence[tuple[Term, int]], fixed: Sequence[tuple[Term, int]]) -> int | None:
        """A lower bound of sum(weight * term) over the bracket model with the `fixed`
        tiers at their values (a list that only grows), or None."""
        objective = []
        for term, weight in chunk:
            agg = self._aggregate(term)
            if agg is None:
                return None
            objective += [(g, weight * c) for g, c in agg.items()]
        self._sync(fixed)
        self.model.minimize(sum(c * self.var[g] for g, c in objective))
        settings = self.bm.solver.settings
        # Most count models are proven at once by the default search; a few, with a
        # big weighted objective, take it most of its budget, where the core-based
        # search proves them within a tenth of it (and fails on many of the others).
        # So: the default search briefly, then core-based, then the default search
        # with the whole budget.  Each stage is exact or gives up.
        for core, budget in ((False, settings.bound_first_budget), (True, settings.bound_budget),
                             (False, settings.bound_budget)):
            solver = self._solver(core, budget)
            if solve(solver, self.model) == cp_model.OPTIMAL:
                return round(solver.objective_value)
        return None

    def group_of(self, p: int, q: int) -> Group:
        """The group the pair of p and q is counted in."""
        a, b = self.cls[p], self.cls[q]
        inside = self.bm.inside(p, q)
        return ("x", a, b, inside) if a <= b else ("x", b, a, inside)

    def refutes(self, pairs: Sequence[tuple[int, int]], fixed: Sequence[tuple[Term, int]]) -> bool:
        """Whether the count model, with the `fixed` tiers at their values, has no
        solution that makes these pairs (each counted in its group): then no pairing of
        the bracket model makes them.  False when it cannot tell within its budget."""
        self._sync(fixed)
        need = Counter(self.group_of(p, q) for p, q in pairs)
        lits = []
        for g, k in need.items():
            lit = self.model.new_bool_var("")
            self.model.add(self.var[g] >= k).only_enforce_if(lit)
            lits.append(lit)
        self.model.clear_objective()
        self.model.clear_assumptions()
        self.model.add_assumptions(lits)
        status = solve(self._solver(False, self.bm.solver.settings.bound_budget), self.model)
        self.model.clear_assumptions()
        return status == cp_model.INFEASIBLE

    def _sync(self, fixed: Sequence[tuple[Term, int]]) -> None:
        """State the `fixed` tiers (a list that only grows) not stated yet."""
        for term, value in fixed[self.fixed :]:
            agg = self._aggregate(term)
            if agg is not None:  # a tier the counts cannot state is left out: still a relaxation
                self.model.add(sum(c * self.var[g] for g, c in agg.items()) == value)
        self.fixed = len(fixed)

    @staticmethod
    def _solver(core: bool, budget: float) -> cp_model.CpSolver:
        solver = cp_model.CpSolver()
        p = solver.parameters
        p.num_workers = 1
        p.random_seed = 0
        p.max_deterministic_time = budget
        # As the bracket models' solves (cpsat.configure): the LP's cuts on; symmetry
        # detection, probing and inprocessing off.  Otherwise a big bracket's count
        # model can use up its budget and give no bound.
        p.linearization_level = 2
        p.symmetry_level = 0
        p.cp_model_probing_level = 0
        p.use_sat_inprocessing = False
        p.optimize_with_core = core
        return solver


def _odd_set_cut(model: Model, row: list[cp_model.IntVar], own: list[cp_model.IntVar], size: int) -> None:
    """The odd-set cut of a row "each of these `size` players once", in which each pair
    within the set (`own`) counts twice: an odd set cannot be paired within itself
    alone, so its other terms make at least 1.  Whole solutions keep it; the LP, which
    may pair half a player, does not, and without it a count model of a packed
    objective can need most of its budget to prove that an odd bracket has a
    downfloater."""
    if size % 2 == 0:
        return
    mine = {v.index for v in own}
    model.add(sum(v for v in row if v.index not in mine) >= 1)
