"""The proposal evaluator (solver/evaluate.py) against CP-SAT's own check of the same
proposal: the same verdict, the same derived values, and "cannot tell" where it must;
both ways, in plain Python (a small model) and in numpy (a big one)."""

from __future__ import annotations

import random

import pytest
from ortools.sat.python import cp_model

from cpsat_pairing.solver.evaluate import ArrayEvaluator, PlainEvaluator
from cpsat_pairing.solver.evaluate import Evaluator as Chooser

# Every test runs with each evaluation: the limit of "small" above every model (plain
# Python) and below every model (numpy).
PLAIN, ARRAYS = 1 << 40, -1


@pytest.fixture(params=[PLAIN, ARRAYS], ids=["plain", "arrays"])
def Evaluator(request: pytest.FixtureRequest):  # noqa: N802 -- stands for the class
    return lambda model: Chooser(model, request.param)
from cpsat_pairing.solver.terms import add_linear, add_sum


def _cpsat_check(model: cp_model.CpModel, decided: list[int], proposal: dict[int, int]) -> dict[int, int] | None:
    """CP-SAT's verdict, as the solver asks it: every decided variable fixed to its value."""
    model.clear_hints()
    for i in decided:
        model.proto.solution_hint.vars.append(i)
        model.proto.solution_hint.values.append(proposal.get(i, 0))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.fix_variables_to_their_hinted_value = True
    status = solver.solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    return dict(enumerate(solver.response_proto.solution))


def _random_model(rng: random.Random) -> tuple[cp_model.CpModel, list[cp_model.IntVar], list[int]]:
    """Booleans under every kind of constraint the bracket models write, plus two
    counts defined by equalities (as the class counts are); the counts are not decided."""
    m = cp_model.CpModel()
    xs = [m.new_bool_var(f"x{i}") for i in range(12)]
    for _ in range(rng.randint(2, 6)):
        vs = rng.sample(xs, rng.randint(2, 6))
        coefs = [rng.choice([-2, -1, 1, 1, 2, 3]) for _ in vs]
        lo = rng.randint(-3, 3)
        ct = m.add_linear_constraint(sum(c * v for c, v in zip(coefs, vs)), lo, lo + rng.randint(0, 4))
        if rng.random() < 0.3:
            lit = rng.choice(xs)
            ct.only_enforce_if(lit if rng.random() < 0.5 else lit.Not())
    for kind in ("or", "and", "amo", "eo"):
        if rng.random() < 0.6:
            lits = [v if rng.random() < 0.7 else v.Not() for v in rng.sample(xs, rng.randint(1, 4))]
            if kind == "or":
                m.add_bool_or(lits)
            elif kind == "and":
                m.add_bool_and(lits).only_enforce_if(rng.choice(xs))
            elif kind == "amo":
                m.add_at_most_one(lits)
            else:
                m.add_exactly_one(lits)
    a, b = rng.sample(range(12), 2)
    add_sum(m, [xs[a].index, xs[b].index], 0, 2)
    counts = []
    for _ in range(2):
        members = rng.sample(xs, 5)
        n = m.new_int_var(0, rng.randint(2, 5), "n")
        add_linear(m, [n.index, *(v.index for v in members)], [1] + [-1] * len(members), 0)
        counts.append(n)
    if rng.random() < 0.5:
        add_linear(m, [counts[0].index, counts[1].index], [1, 1], rng.randint(1, 6))
    return m, xs, [v.index for v in xs]


@pytest.mark.parametrize("seed", range(40))
def test_the_same_verdict_as_cpsat(seed: int, Evaluator) -> None:  # noqa: N803
    rng = random.Random(seed)
    model, _, decided = _random_model(rng)
    evaluator = Evaluator(model)
    for _ in range(25):
        proposal = {i: rng.randint(0, 1) for i in decided}
        expected = _cpsat_check(model, decided, proposal)
        verdict = evaluator.solution(proposal, decided, {})
        assert verdict is not None  # every constraint here is one it reads
        if expected is None:
            assert verdict is False
        else:
            assert verdict == expected  # the decided values and the derived counts
    # Some feasible proposals: CP-SAT's own solutions.
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    if solver.solve(model) == cp_model.OPTIMAL:
        proposal = dict(enumerate(solver.response_proto.solution))
        assert evaluator.solution(proposal, decided, {}) == proposal


def test_a_fixed_domain_is_respected(Evaluator) -> None:  # noqa: N803
    m = cp_model.CpModel()
    x, y = m.new_bool_var("x"), m.new_bool_var("y")
    m.add_bool_or([x, y])
    evaluator = Evaluator(m)
    assert evaluator.solution({x.index: 1, y.index: 0}, [x.index, y.index], {}) == {0: 1, 1: 0}
    assert evaluator.solution({x.index: 1, y.index: 0}, [x.index, y.index], {x.index: 0}) is False
    # A variable fixed by its domain and not decided takes the fixed value.
    assert evaluator.solution({y.index: 0}, [y.index], {x.index: 1}) == {0: 1, 1: 0}


def test_cannot_tell_is_none(Evaluator) -> None:  # noqa: N803
    m = cp_model.CpModel()
    x, y = m.new_bool_var("x"), m.new_bool_var("y")
    free = m.new_int_var(0, 3, "free")
    m.add(free + x <= 3)  # no equality determines it: CP-SAT must choose
    assert Evaluator(m).solution({x.index: 1, y.index: 0}, [x.index, y.index], {}) is None
    m2 = cp_model.CpModel()
    a, b = m2.new_int_var(0, 4, "a"), m2.new_int_var(0, 4, "b")
    m2.add_max_equality(a, [b, 2])  # a kind of constraint it does not read
    assert Evaluator(m2).solution({a.index: 2, b.index: 1}, [a.index, b.index], {}) is None
    m3 = cp_model.CpModel()
    z = m3.new_bool_var("z")
    m3.add_assumptions([z])
    assert Evaluator(m3).solution({z.index: 1}, [z.index], {}) is None


def test_constraints_written_by_index_are_taken_as_written(Evaluator) -> None:  # noqa: N803
    """add_linear's log is a copy: a caller changing its list afterwards changes nothing."""
    m = cp_model.CpModel()
    xs = [m.new_bool_var(f"x{i}") for i in range(4)]
    row = [v.index for v in xs[:2]]
    add_linear(m, row, [1, 1], 1)
    row.append(xs[2].index)
    evaluator = Evaluator(m)
    decided = [v.index for v in xs]
    assert evaluator.solution({0: 1, 1: 0, 2: 1, 3: 0}, decided, {}) == {0: 1, 1: 0, 2: 1, 3: 0}
    assert evaluator.solution({0: 1, 1: 1, 2: 0, 3: 0}, decided, {}) is False
    # Constraints added after a first evaluation are read too.
    add_sum(m, [xs[3].index], 1, 1)
    assert evaluator.solution({0: 1, 1: 0, 2: 1, 3: 0}, decided, {}) is False


@pytest.mark.parametrize(("limit", "kind"), [(PLAIN, PlainEvaluator), (ARRAYS, ArrayEvaluator), (12, PlainEvaluator), (11, ArrayEvaluator)])
def test_the_size_of_the_model_chooses(limit: int, kind: type) -> None:
    """Up to the limit (variables), plain Python; past it, numpy (12 variables here)."""
    m = cp_model.CpModel()
    xs = [m.new_bool_var(f"x{i}") for i in range(12)]
    m.add_exactly_one(xs)
    chooser = Chooser(m, limit)
    assert chooser.solution({0: 1}, range(12), {}) == {0: 1, **{i: 0 for i in range(1, 12)}}
    assert isinstance(chooser.chosen, kind)
