"""The lexicographic solver: the fixed search (search.py) gives what the tiers in sequence
give; restrictions and fixed domains are undone exactly."""

from __future__ import annotations

import random

import pytest
from ortools.sat.python import cp_model

from cpsat_pairing import SolverSettings, Tier, pair, read_trf
from cpsat_pairing.dutch import order
from cpsat_pairing.solver.cpsat import InfeasibleError
from cpsat_pairing.solver.lex import LexSolver
from cpsat_pairing.solver.search import first_in_order
from cpsat_pairing.solver.terms import Term
from cpsat_pairing.testing.corpus import recorded

from helpers import CORPUS_2026, domains_agree


Pair = tuple[int, int]


def _instance(seed: int) -> tuple[int, list[Pair], set[Pair], int]:
    """A random bipartite 'S1 against S2' instance with a side constraint that makes the
    greedy choice fail: at most k 'bad' pairs, as the colour tiers would fix.  (S1's
    size, the allowed pairs, the bad ones, k.)"""
    rng = random.Random(seed)
    n1, n2 = rng.randint(3, 7), rng.randint(7, 10)
    edges = [(i, j) for i in range(n1) for j in range(n2) if rng.random() < 0.7]
    bad = {e for e in edges if rng.random() < 0.4}
    return n1, edges, bad, rng.randint(0, 2)


def _matching_model(seed: int) -> tuple[cp_model.CpModel, list[int], dict[tuple[int, int], cp_model.IntVar]]:
    n1, edges, bad, k = _instance(seed)
    m = cp_model.CpModel()
    x = {(i, j): m.new_bool_var(f"x{i}_{j}") for i, j in edges}
    for i in range(n1):
        m.add_exactly_one(v for (a, _), v in x.items() if a == i)
    for j in {j for _, j in edges}:
        m.add_at_most_one(v for (_, b), v in x.items() if b == j)
    m.add(sum(x[e] for e in edges if e in bad) <= k)
    return m, list(range(n1)), x


def _first_by_search(seed: int) -> list[int] | None:
    """The lexicographically smallest (partner of S1's first, of its second, ...), by
    trying every partner in order, depth first: the first complete assignment found."""
    n1, edges, bad, k = _instance(seed)

    def search(i: int, used: frozenset[int], bad_left: int) -> list[int] | None:
        if i == n1:
            return []
        for a, j in edges:
            cost = (a, j) in bad
            if a == i and j not in used and cost <= bad_left:
                rest = search(i + 1, used | {j}, bad_left - cost)
                if rest is not None:
                    return [j + 1, *rest]
        return None

    return search(0, frozenset(), k)


def _solve_all(model: cp_model.CpModel, x: dict) -> LexSolver | None:
    solver = LexSolver(model, list(x.values()))
    try:
        solver.solve()
    except InfeasibleError:
        return None
    return solver


FEASIBLE_SEEDS = [seed for seed in range(41) if _solve_all(*_matching_model(seed)[::2]) is not None]


def test_most_random_instances_are_feasible() -> None:
    assert len(FEASIBLE_SEEDS) >= 35
    assert FEASIBLE_SEEDS == [seed for seed in range(41) if _first_by_search(seed) is not None]


@pytest.mark.parametrize("seed", FEASIBLE_SEEDS)
def test_first_in_order_is_the_lexicographic_minimum_of_the_partner_tiers(seed: int) -> None:
    """With presolve on, 16 of these 40 instances come out wrong: the test has teeth."""
    model, s1, x = _matching_model(seed)
    tiers = _solve_all(model, x)
    assert tiers is not None
    terms = [Term("transposition", f"partner of {i}", [j + 1 for (a, j) in x if a == i],
                  [v for (a, _), v in x.items() if a == i], one_hot=True) for i in s1]
    expected = tiers.minimize(terms)

    model2, _, x2 = _matching_model(seed)
    fixed = _solve_all(model2, x2)
    assert fixed is not None
    decisions = [v for i in s1 for (a, j), v in sorted(x2.items(), key=lambda kv: kv[0]) if a == i]
    assert first_in_order(fixed, decisions)
    got = [next(j + 1 for (a, j), v in x2.items() if a == i and fixed.var_value(v)) for i in s1]
    assert got == expected == _first_by_search(seed)


def test_partner_tiers_fall_back_to_one_by_one_past_the_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """With no budget for the fixed search, the tiers solved in sequence give the same rounds."""
    t = read_trf(next(p for p in CORPUS_2026 if p.stem == "t000031"))
    calls = []
    original = order._fix_partners_tier_by_tier
    monkeypatch.setattr(order, "_fix_partners_tier_by_tier", lambda *a: (calls.append(1), original(*a)))
    no_budget = SolverSettings(propagation_budget=1e-9, fixed_search_budget=1e-9, direct_brackets=0)
    for rnd in range(1, t.rounds_played + 1):
        got = pair(t, rnd, settings=no_budget)
        assert (set(got.as_pairs()), got.bye) == recorded(t, rnd)
    assert calls  # the fallback really ran


@pytest.mark.parametrize("seed", FEASIBLE_SEEDS[:10])
def test_restrictions_and_fixed_domains_are_undone_exactly(seed: int) -> None:
    """Moving between restrictions, fixing values for a check and keeping some for good
    leave each variable's domain as the solver records it; the full model comes back."""
    model, s1, x = _matching_model(seed)
    solver = _solve_all(model, x)
    assert solver is not None
    pairs = sorted(x)
    solver.use_restrictions([[x[k].index for k in pairs[::2]], [x[k].index for k in pairs[::4]]], None, None)
    for level in (0, 1, 0, None):
        solver._restrict_to(level)
        assert domains_agree(solver.domains)
        if level is not None:  # the incumbent's own pairs stay free
            assert all(solver.domains.fixed.get(i, 1) for i, v in solver.values.items() if v)
    solver._restrict_to(0)
    chosen = [v for v in x.values() if solver.var_value(v)]
    with solver.domains.fixing([(chosen[0].index, 0)]):
        assert domains_agree(solver.domains)
    assert domains_agree(solver.domains)
    assert solver.check([chosen[0]]) is not None  # the full model again (the restriction lifted)
    assert not solver.domains.restriction and domains_agree(solver.domains)
    # A candidate that keeps the incumbent's first pair is feasible and stays fixed.
    assert solver.try_fix_domains([(chosen[0].index, 1)], [Tier("test", "kept", 1)])
    assert solver.domains.fixed[chosen[0].index] == 1 and domains_agree(solver.domains)
    # One that drops every pair of the first S1 player is not, and leaves nothing behind.
    row = [(v.index, 0) for (a, _), v in x.items() if a == s1[0]]

    before = solver.domains.for_good()  # the restriction in place comes and goes
    assert not solver.try_fix_domains(row, [Tier("test", "dropped", 1)])
    assert solver.domains.for_good() == before and domains_agree(solver.domains)


def test_a_tier_at_its_least_value_is_fixed_by_domains() -> None:
    """A tier at the least value its weights allow fixes its Booleans' domains (no
    constraint is added); above it, and for a one-hot term, the constraint is added.
    Either way the next tiers see the same solutions."""
    m = cp_model.CpModel()
    xs = [m.new_bool_var(f"x{i}") for i in range(6)]
    m.add(sum(xs) == 3)
    m.add_bool_or([xs[0], xs[1]])
    solver = LexSolver(m, xs)
    solver.solve()
    zero = Term("T1", "x2..x4 (can all be 0)", [1, 2, 1], xs[2:5])
    most = Term("T2", "x0, x1, x5 (maximised, can all be 1)", [-1, -1, -1], [xs[0], xs[1], xs[5]])
    before = len(m.proto.constraints)
    assert solver.minimize([zero, most]) == [0, -3]
    assert len(m.proto.constraints) == before
    assert {i: solver.domains.fixed[i] for i in (2, 3, 4, 0, 1, 5)} == {2: 0, 3: 0, 4: 0, 0: 1, 1: 1, 5: 1}
    assert [tuple(m.proto.variables[i].domain) for i in range(6)] == [(1, 1)] * 2 + [(0, 0)] * 3 + [(1, 1)]

    m2 = cp_model.CpModel()
    ys = [m2.new_bool_var(f"y{i}") for i in range(4)]
    m2.add(ys[0] + ys[1] >= 1)
    m2.add_exactly_one(ys[2:])
    solver2 = LexSolver(m2, ys)
    solver2.solve()
    above = Term("T1", "y0, y1 (one at least)", [1, 1], ys[:2])
    one_hot = Term("T2", "the one of y2, y3", [5, 7], ys[2:], one_hot=True)
    before = len(m2.proto.constraints)
    assert solver2.minimize([above, one_hot]) == [1, 5]
    assert len(m2.proto.constraints) == before + 2
    assert not solver2.domains.fixed


def test_a_tier_that_is_the_same_sum_as_a_fixed_one_costs_no_solve_and_no_constraint() -> None:
    """[C13] is [C12]'s sum when every unmet preference is strong: its value is the one
    fixed, in every solution.  The tiers after it are solved as before."""
    def tiers(seed: int, copy: bool) -> tuple[list[int], LexSolver, int]:
        model, s1, x = _matching_model(seed)
        solver = _solve_all(model, x)
        assert solver is not None
        rng = random.Random(seed)
        weighted = [(rng.randint(1, 3), v) for v in x.values() if rng.random() < 0.5]
        first = Term("colour", "unmet", [c for c, _ in weighted], [v for _, v in weighted])
        again = Term("colour", "unmet strong", list(first.coefs), list(first.vars))
        partners = [Term("transposition", f"partner of {i}", [j + 1 for (a, j) in x if a == i],
                         [v for (a, _), v in x.items() if a == i], one_hot=True) for i in s1]
        before = solver.solves
        values = solver.minimize([first, *([again] if copy else []), *partners])
        constraints = len(model.proto.constraints)
        return values, solver, solver.solves - before + constraints

    for seed in FEASIBLE_SEEDS[:10]:
        with_copy, solver, cost = tiers(seed, copy=True)
        alone, _, cost_alone = tiers(seed, copy=False)
        assert with_copy == [alone[0], alone[0], *alone[1:]]
        assert [t.name for t in solver.trace][:2] == ["colour unmet", "colour unmet strong"]
        assert solver.trace[1].value == solver.trace[0].value
        assert cost == cost_alone  # no solve and no constraint for the copy


def test_a_tier_fixed_again_at_another_value_of_the_same_sum_is_infeasible() -> None:
    model, _, x = _matching_model(FEASIBLE_SEEDS[0])
    solver = _solve_all(model, x)
    assert solver is not None
    term = Term("colour", "unmet", [1] * len(x), list(x.values()))
    value = solver.value(term)
    solver.fix(term, value)
    with pytest.raises(InfeasibleError):
        solver.fix(Term("colour", "unmet strong", list(term.coefs), list(term.vars)), value + 1)


def test_a_proposal_checked_again_on_the_same_model_is_not_evaluated_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """The evaluator's answer is kept with the model's state: the same proposal on the
    same model gets it back without a second evaluation; a fixed domain, a constraint
    or the incumbent changed in place (`update_incumbent`) since all make it evaluate
    again, and it still refuses what it refused."""
    m = cp_model.CpModel()
    xs = [m.new_bool_var(f"x{i}") for i in range(4)]
    m.add(sum(xs) == 2)
    solver = LexSolver(m, xs)
    calls: list[dict[int, int]] = []
    evaluate = solver.evaluator.solution

    def counted(proposal, decided, fixed):  # type: ignore[no-untyped-def]
        calls.append(dict(proposal))
        return evaluate(proposal, decided, fixed)

    monkeypatch.setattr(solver.evaluator, "solution", counted)
    one = {0: 1, 1: 1, 2: 0, 3: 0}
    assert solver.try_fix_domains([], [], proposal=dict(one), search=False)
    assert solver.try_fix_domains([], [], proposal=dict(one), search=False)
    assert len(calls) == 1
    solver.update_incumbent({0: 0})  # the incumbent, the answer kept, changed in place
    assert not solver.try_fix_domains([], [], proposal=dict(solver.values), search=False)
    assert len(calls) == 2
    assert solver.try_fix_domains([(3, 0)], [], proposal=dict(one), search=False)  # a domain fixed
    assert len(calls) == 3
    m.add(xs[0] + xs[2] <= 1)  # a constraint added
    assert solver.try_fix_domains([], [], proposal=dict(one), search=False)
    assert len(calls) == 4
    m.add(xs[1] == 0)
    assert not solver.try_fix_domains([], [], proposal=dict(one), search=False)
    assert len(calls) == 5
