"""A bracket model that sees the next scoregroup as counts, not as pairs.

The bracket's own tiers need its pairs one by one; the next scoregroup matters only
through [C8] (how many pairs the next bracket can make, by the score of their higher
player) and completion.  Modelling every pair of a 100-player next scoregroup costs
thousands of variables in each of a bracket's solves.  Here each next-scoregroup
resident n only says *how* it will be paired -- with a downfloater of this bracket
(`up[n]`), with another resident of its group (`w[n]`), or further down (`exit[n]`) --
and each bracket player p whether it floats into the next scoregroup (`dn[p]`).  The
number of pairs inside the next scoregroup is a unary counter over `w`.

This relaxes the rules' model: it allows count patterns no real pairing realises.  Its
lexicographic optimum is the rules' answer whenever it can be realised, which
`complete()` checks with a blossom matching; the engine falls back to the pair-by-pair
model when it cannot (dutch/e2026/procedure.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from itertools import filterfalse
from typing import Iterable

from ortools.sat.python import cp_model

from cpsat_pairing.dutch.bracket import BracketModel, Pair
from cpsat_pairing.solver.lex import LexSolver
from cpsat_pairing.solver.cpsat import INT_MIN
from cpsat_pairing.solver.terms import add_linear, add_sums
from cpsat_pairing.solver.matching import is_perfect


@dataclass
class AggregateBracketModel(BracketModel):
    dn: dict[int, cp_model.IntVar] = field(default_factory=dict)
    up: dict[int, cp_model.IntVar] = field(default_factory=dict)
    w: dict[int, cp_model.IntVar] = field(default_factory=dict)
    nn_pairs: list[cp_model.IntVar] = field(default_factory=list)  # unary: pairs inside the next scoregroup

    def __post_init__(self) -> None:
        self._setup()
        self.lazy = True
        self.x_in_bracket = True
        ns = frozenset(self.next_group)
        self.players = [p for p in self.remaining if p in self.in_bracket or p in ns]
        pset = frozenset(self.players)
        self.lower = [p for p in self.remaining if p not in pset]
        ok = self.compatible
        m = self.model
        nb = ok.neighbours
        bracket = self.bracket  # in ranking order, as `remaining`
        if self.near is None:
            self._make_pairs(self._rows(bracket, False))
        else:
            from cpsat_pairing.dutch.near import FarPairs, near_rows  # big brackets only

            self._make_pairs(near_rows(self, self.settings.near_window, self.near))
            self.far = FarPairs.build(self)
        far = self.far.f if self.far is not None else {}
        lower_set = frozenset(self.lower)
        for p in self.bracket:
            if not nb(p).isdisjoint(ns):
                self.dn[p] = m.new_bool_var(f"dn_{p}")
        for n in self.next_group:
            if not nb(n).isdisjoint(self.in_bracket):
                self.up[n] = m.new_bool_var(f"up_{n}")
            if not nb(n).isdisjoint(ns):
                self.w[n] = m.new_bool_var(f"w_{n}")
        odd = len(self.remaining) % 2
        adj = self.adj_index  # constraints by index: the modelling layer crosses into C++ per term
        for p in self.players:
            terms = [i for _, i in adj[p]]
            for family in (self.dn, self.up, self.w, far):
                if p in family:
                    terms.append(family[p].index)
            if self.lower and not nb(p).isdisjoint(lower_set):
                self.exit[p] = m.new_bool_var(f"exit_{p}")
                terms.append(self.exit[p].index)
            if odd and p in self.pab_allowed:
                self.u[p] = m.new_bool_var(f"u_{p}")
                terms.append(self.u[p].index)
            add_linear(m, terms, [1] * len(terms), 1)
        if odd and not self.lower:
            add_sums(m, [(1, self.u.values())], 1, 1)
        elif odd:
            add_sums(m, [(1, self.u.values())], INT_MIN, 1)
        if self.exit:
            add_sums(m, [(1, self.exit.values())], INT_MIN, len(self.lower))
        # sum(dn) == sum(up), and 2 * sum(nn_pairs) == sum(w), as `model.add` writes
        # them: with nothing on the left, `0 == e` is `e == 0`.
        add_sums(m, [(1, self.dn.values()), (-1, self.up.values())] if self.dn else [(1, self.up.values())], 0, 0)
        self.nn_pairs = [m.new_bool_var(f"nn_{i}") for i in range(len(self.w) // 2)]
        add_sums(m, [(2, self.nn_pairs), (-1, self.w.values())] if self.nn_pairs else [(1, self.w.values())], 0, 0)
        for a, b in zip(self.nn_pairs, self.nn_pairs[1:]):
            m.add_implication(b, a)
        mdps = self.mdps
        for p in self.bracket:
            d = m.new_bool_var(f"df_{p}")
            self.df[p] = d
            # Every pair is in the bracket (`x_in_bracket`): it is inside unless it
            # joins two MDPs (`inside`, read once per player, not per pair).
            terms = [i for q, i in adj[p] if q not in mdps] if p in mdps else [i for _, i in adj[p]]
            if p in far:
                terms.append(far[p].index)  # a far pair is made inside the bracket
            self.df_rows[p] = terms
            terms = [*terms, d.index]
            add_linear(m, terms, [1] * len(terms), 1)
        if len(self.players) >= self.settings.parity_cuts_from:
            # A small model's solves take a fraction of a millisecond with or without
            # the cuts; writing them, and reading them back in every proposal checked
            # (solver/evaluate.py), costs more.  They cut off no solution, so they
            # change how soon a tier is proven, never its value.
            self.add_parity_cuts()
        all_vars = [*self.x.values(), *self.dn.values(), *self.up.values(), *self.w.values(), *self.nn_pairs]
        all_vars += [*self.u.values(), *self.exit.values(), *self.df.values()]
        if self.far is not None:
            all_vars += self.far.variables()
        self.solver = LexSolver(m, all_vars, self.settings)
        if self.far is not None:
            self.solver.use_relaxation(self.far.relax.index, [v.index for v in self.far.f.values()])
        self._restrict()

    def player_families(self) -> dict[str, dict[int, cp_model.IntVar]]:
        return {"df": self.df, "u": self.u, "exit": self.exit, "dn": self.dn, "up": self.up, "w": self.w}

    def counters(self) -> list[cp_model.IntVar]:
        return list(self.nn_pairs)

    def _leaving(self, members: list[int], g: frozenset[int]) -> list[int]:
        """As in the pair model, plus the next-scoregroup counts that leave g."""
        out = super()._leaving(members, g)
        families = [] if all(n in g for n in self.next_group) else [self.dn, self.w]
        if not self.in_bracket <= g:
            families.append(self.up)
        for d in families:
            out += [d[p].index for p in members if p in d]
        return out

    def next_bracket_pairs(self) -> dict[Fraction, list[cp_model.IntVar]]:
        units = self.units
        by_level: dict[int, list[cp_model.IntVar]] = {}
        for p, v in self.dn.items():
            by_level.setdefault(units[p], []).append(v)
        if self.nn_pairs:
            by_level.setdefault(units[self.next_group[0]], []).extend(self.nn_pairs)
        return {self.level_score[level]: vs for level, vs in by_level.items()}

    # -- realising the counts ------------------------------------------------------

    def complete(self) -> list[Pair] | None:
        """A complete round-pairing with the incumbent's bracket pairs and counts, or None."""
        val = self.solver.var_value
        chosen = self.chosen_pairs()
        floaters = [p for p, v in self.dn.items() if val(v)]
        group = [n for n in self.next_group if (n in self.up and val(self.up[n])) or (n in self.w and val(self.w[n]))]
        verts = floaters + group
        index = {p: i for i, p in enumerate(verts)}
        adj: list[list[int]] = [[] for _ in verts]
        group_set = frozenset(group)
        for i, p in enumerate(verts):
            far = self.compatible.excluded(p)
            # A set, built in the group's order: its order is the row's, which decides
            # the matching found and so the witness the next bracket starts from.
            later = [j for j in map(index.__getitem__, frozenset(filterfalse(far.__contains__, group_set))) if j > i]
            adj[i] += later
            for j in later:
                adj[j].append(i)
        ok, mate = is_perfect(adj)
        if not ok:
            return None
        chosen += [(p, verts[mate[i]]) for i, p in enumerate(verts) if mate[i] > i]
        below = self.complete_below()
        return None if below is None else chosen + below

    def _values_of(self, partner: dict[int, int]) -> dict[int, int] | None:
        """As in the pair model: the pairs inside the bracket and the counts."""
        ns = frozenset(self.next_group)
        vals: dict[int, int] = {v.index: 0 for v in self.solver.all_vars}
        nn = 0
        for p in self.players:
            q = partner.get(p)
            if q is None:
                var = self.u.get(p)
            elif p in self.in_bracket and q in self.in_bracket:
                var = self.x.get((p, q), self.x.get((q, p)))
            elif p in self.in_bracket and q in ns:
                var = self.dn.get(p)
            elif p in ns and q in self.in_bracket:
                var = self.up.get(p)
            elif p in ns and q in ns:
                var = self.w.get(p)
                nn += 1
            else:
                var = self.exit.get(p)
            if var is None:
                return None
            vals[var.index] = 1
        for v in self.nn_pairs[: nn // 2]:
            vals[v.index] = 1
        for p, v in self.df.items():
            q = partner.get(p)
            vals[v.index] = int(q is None or not self.inside(p, q))
        return vals

    def force(self, pairs: Iterable[Pair]) -> None:
        raise NotImplementedError("a given pairing is scored on the pair-by-pair model")
