"""The depth-first walk (solver/search.py, `first_candidate`) against every candidate in the fixed
search's order: on random S1-S2 models with fixed tiers, its first candidate is the
first solution whenever it is a solution, and it never passes over one."""

from __future__ import annotations

import itertools
import random

import pytest

from cpsat_pairing.solver.cpsat import Model
from cpsat_pairing.solver.search import first_candidate
from cpsat_pairing.solver.lex import LexSolver
from cpsat_pairing.solver.terms import Term, add_linear, make_term

Choice = tuple[int | None, ...]  # per S1 player, his S2 partner or None


class Bracket:
    """S1 players 0..k-1 and S2 players k..k+m-1: x[p, q] for the pairs allowed,
    df[z] for each player (he meets nobody), each player's pairs and df summing to 1;
    some Booleans fixed by their domains; random tiers fixed at the values of one
    solution."""

    def __init__(self, rng: random.Random) -> None:
        k, m = rng.randint(1, 4), rng.randint(1, 5)
        self.s1, self.s2 = list(range(k)), list(range(k, k + m))
        model = Model()
        self.x = {(p, q): model.new_bool_var(f"x{p}_{q}") for p in self.s1 for q in self.s2 if rng.random() < 0.75}
        self.df = {z: model.new_bool_var(f"df{z}") for z in self.s1 + self.s2}
        for z in self.s1 + self.s2:
            row = [v.index for pq, v in self.x.items() if z in pq] + [self.df[z].index]
            add_linear(model, row, [1] * len(row), 1)
        self.solver = LexSolver(model, [*self.x.values(), *self.df.values()])
        self.fixed: dict[int, int] = {}
        for v in rng.sample([*self.x.values(), *(self.df[p] for p in self.s1)], rng.randint(0, 2)):
            self.fixed[v.index] = rng.randint(0, 1)
        self.solver.fix_domains(self.fixed.items())
        options = [list(itertools.chain((q for q in self.s2 if (p, q) in self.x), [None])) for p in self.s1]
        self.tiers: list[tuple[Term, int]] = []
        seed = [c for c in itertools.product(*options) if self.valid(c)]
        if seed:
            base = rng.choice(seed)
            for n in range(rng.randint(1, 3)):
                weighted = [(rng.choice((1, 1, 2, -1)), v) for v in [*self.x.values(), *self.df.values()]
                            if rng.random() < 0.4]
                term = make_term("T", str(n), weighted)
                if term.vars:
                    value = sum(c * self.values(base)[v.index] for c, v in zip(term.coefs, term.vars))
                    self.solver.fix(term, value)
                    self.tiers.append((term, value))
        self.options = options

    def values(self, choice: Choice) -> dict[int, int]:
        out = {v.index: 0 for v in [*self.x.values(), *self.df.values()]}
        for p, q in zip(self.s1, choice):
            if q is not None:
                out[self.x[p, q].index] = 1
        for z in self.s1 + self.s2:
            out[self.df[z].index] = int(not any(out[v.index] for pq, v in self.x.items() if z in pq))
        return out

    def valid(self, choice: Choice) -> bool:
        met = [q for q in choice if q is not None]
        if len(met) != len(set(met)):
            return False
        values = self.values(choice)
        if any(values[i] != v for i, v in self.fixed.items()):
            return False
        return all(sum(c * values[v.index] for c, v in zip(t.coefs, t.vars)) == val for t, val in self.tiers)

    def rows(self) -> list[list[tuple[int, int]]]:
        return [[(q, self.x[p, q].index) for q in self.s2 if (p, q) in self.x] for p in self.s1]

    def first(self) -> Choice | None:
        """The first solution in the search's order: S1 in turn, partners by number, none last."""
        return next((c for c in itertools.product(*self.options) if self.valid(c)), None)

    def choice(self, walked: list[int | None]) -> Choice:
        by_index = {v.index: q for (p, q), v in self.x.items()}
        return tuple(None if i is None else by_index[i] for i in walked)


@pytest.mark.parametrize("told", [True, False], ids=["floats derived", "floats as Booleans"])
def test_the_walks_first_candidate_is_the_first_solution_or_comes_before_it(told: bool) -> None:
    rng = random.Random(7)
    found = 0
    for _ in range(300):
        b = Bracket(rng)
        first = b.first()
        derived, paired, closed = {}, set(), set()
        if told:
            # Each df is 1 less its player's decisions (his row has nothing else); an S1
            # player whose df is fixed at 0 must take one of them.
            for z in b.s1 + b.s2:
                mine = [v.index for pq, v in b.x.items() if z in pq]
                if b.df[z].index not in b.fixed:
                    derived[b.df[z].index] = mine
                elif b.fixed[b.df[z].index] == 0 and z in b.s1:
                    paired.add(z)
                else:
                    closed.update(mine)
        walked = first_candidate(b.solver, b.rows(), 10**6, None, derived, paired, closed)
        if first is None:
            assert walked is None or not b.valid(b.choice(walked))
            continue
        assert walked is not None  # it never passes over a solution
        choice = b.choice(walked)
        order = list(itertools.product(*b.options))
        assert order.index(choice) <= order.index(first)
        if b.valid(choice):
            assert choice == first
            found += 1
        else:
            assert not told  # with every float derived, each sum is exact at a leaf
    assert found > 100


def test_the_walk_stops_at_its_budget() -> None:
    rng = random.Random(3)
    b = next(b for b in (Bracket(rng) for _ in range(100)) if len(b.s1) >= 3 and b.first() is not None)
    assert first_candidate(b.solver, b.rows(), 0) is None
