"""CP-SAT for this package: the model it builds (`Model`, which writes the proto
itself), one call with the parameters every solve uses, timing, and reading the answer.

Its counters and the outcomes a model may report live in cpsat_pairing/records.py, which
the rounds that build no model import without OR-Tools.

The parameters are fixed (one worker, seed 0), so the same model gives the same
solution on every machine; only `time_limit` is wall-clock, and a solve it stops is
an error, never an answer.  This module and solver/startup.py are where the package
meets OR-Tools below `cp_model`'s own classes: both tested on the pinned 9.15.
"""

from __future__ import annotations

import time
from typing import Any

from ortools.sat.python import cp_model
from ortools.sat.python import cp_model_helper as cmh
from ortools.util.python.sorted_interval_list import Domain

from cpsat_pairing.errors import SolveLimitError
from cpsat_pairing.records import STATS as STATS, InfeasibleError as InfeasibleError, Uncertified as Uncertified
from cpsat_pairing.solver.settings import SolverSettings

BOOLEAN = Domain(0, 1)
INT_MIN, INT_MAX = -(2**63), 2**63 - 1  # an open side of a linear constraint, as the modelling layer writes it
_UNBOUNDED = (INT_MIN, INT_MAX)  # bounds CpModel writes as they are (no offset)


class _Constraint:
    """A constraint written by `Model`: `only_enforce_if` as CpModel's answers it."""

    __slots__ = ("_model", "_proto")

    def __init__(self, model: Model, proto: Any) -> None:
        self._model = model
        self._proto = proto

    def only_enforce_if(self, *literals: Any) -> _Constraint:
        self._proto.enforcement_literal.extend(self._model.refs(literals))
        return self


class Model:
    """A CP-SAT model: the part of `CpModel`'s API this package builds its models with,
    writing the `CpModelProto` itself, field by field as `CpModel` writes it (the same
    proto: tests/test_light_start.py), and solved by `CpSolver` as any model is (it
    reads only `proto`).

    Why not `CpModel`: its C++ base's constructor imports numpy (for `numpy.bool_`,
    a type this package never passes), a fifth of a fresh process that pairs one small
    round; and `CpModel.__init__` sets a camelCase alias per method on every instance,
    about 1.4 ms a model.  Writing a constraint here is a few calls into the proto
    where `CpModel` makes one; measured, the rounds of any size cost the same
    (docs/performance.md, "Models without numpy").

    Tested on OR-Tools 9.15 (the pinned range): variables are the wrapper's own
    `IntVar` on the proto, `BoundedLinearExpression` gives its variables, coefficients,
    offset and bounds as `CpModel.add` reads them, and a Python bool is a constant
    variable (one per value, unnamed) as `CpModel` makes it.
    """

    def __init__(self) -> None:
        self.proto = cmh.CpModelProto()
        self._constants: dict[int, int] = {}

    def new_bool_var(self, name: str) -> cp_model.IntVar:
        return cmh.IntVar(self.proto).with_name(name).with_domain(BOOLEAN)

    def new_int_var(self, lb: int, ub: int, name: str) -> cp_model.IntVar:
        return cmh.IntVar(self.proto).with_name(name).with_domain(Domain(lb, ub))

    def add(self, ct: Any) -> _Constraint:
        if isinstance(ct, bool):
            return self.add_bool_or([True] if ct else [])
        proto = self.proto.constraints.add()
        linear = proto.linear
        linear.vars.extend([v.index for v in ct.vars])
        linear.coeffs.extend(ct.coeffs)
        offset = ct.offset
        linear.domain.extend([b if b in _UNBOUNDED else b - offset for b in ct.bounds.flattened_intervals()])
        return _Constraint(self, proto)

    def add_bool_or(self, *literals: Any) -> _Constraint:
        proto = self.proto.constraints.add()
        proto.bool_or.literals.extend(self.refs(literals))
        return _Constraint(self, proto)

    def add_at_most_one(self, *literals: Any) -> _Constraint:
        proto = self.proto.constraints.add()
        proto.at_most_one.literals.extend(self.refs(literals))
        return _Constraint(self, proto)

    def add_exactly_one(self, *literals: Any) -> _Constraint:
        proto = self.proto.constraints.add()
        proto.exactly_one.literals.extend(self.refs(literals))
        return _Constraint(self, proto)

    def add_implication(self, a: Any, b: Any) -> _Constraint:
        proto = self.proto.constraints.add()
        proto.bool_and.literals.extend(self.refs((b,)))
        return _Constraint(self, proto).only_enforce_if(a)

    def minimize(self, obj: Any) -> None:
        self.clear_objective()
        flat = cmh.FlatIntExpr(obj)
        objective = self.proto.objective
        objective.vars.extend([v.index for v in flat.vars])
        objective.scaling_factor = 1.0
        objective.offset = flat.offset
        objective.coeffs.extend(flat.coeffs)

    def clear_objective(self) -> None:
        self.proto.clear_objective()
        self.proto.clear_floating_point_objective()

    def add_assumptions(self, literals: Any) -> None:
        self.proto.assumptions.extend(self.refs((list(literals),)))

    def clear_assumptions(self) -> None:
        self.proto.assumptions.clear()

    def clear_hints(self) -> None:
        self.proto.clear_solution_hint()

    def refs(self, literals: tuple[Any, ...]) -> list[int]:
        """The proto's references of literals given as `f(a, b)` or `f([a, b])`."""
        if len(literals) == 1 and not isinstance(literals[0], (cmh.Literal, bool)):
            literals = tuple(literals[0])
        return [lit.index if not isinstance(lit, bool) else self._constant(int(lit)) for lit in literals]

    def _constant(self, value: int) -> int:
        index = self._constants.get(value)
        if index is None:
            index = self._constants[value] = len(self.proto.variables)
            self.proto.variables.add().domain.extend([value, value])
        return index


def configure(solver: cp_model.CpSolver, settings: SolverSettings, presolve: bool = True) -> None:
    """The parameters of every bracket-model solve."""
    p = solver.parameters
    p.num_workers = settings.workers
    p.random_seed = 0
    p.max_time_in_seconds = settings.time_limit
    p.linearization_level = 2
    # Symmetry detection and probing cost more than they save on these matchings.
    p.symmetry_level = 0
    p.cp_model_probing_level = 0
    p.max_presolve_iterations = 1
    # SAT inprocessing (clause vivification) re-runs the decisions of the long fixed
    # searches many times over.  It only simplifies clauses: no solution is lost, the
    # first one stays first.
    p.use_sat_inprocessing = False
    p.cp_model_presolve = presolve


Status = cp_model.CpSolverStatus


def solve(solver: cp_model.CpSolver, model: Model) -> Status:
    """`solver.solve(model)`: CpSolver reads only the model's `proto`, which `Model` has."""
    return solver.solve(model)  # type: ignore[arg-type]


def timed_solve(solver: cp_model.CpSolver, model: Model) -> Status:
    start = time.perf_counter()
    status = solve(solver, model)
    STATS["solve_seconds"] += time.perf_counter() - start
    STATS["solves"] += 1
    return status


def has_solution(status: Status) -> bool:
    return status in (cp_model.OPTIMAL, cp_model.FEASIBLE)


def found(solver: cp_model.CpSolver, status: Status) -> bool:
    """A feasibility question's answer: True (a solution), False (proven none); raises
    if CP-SAT stopped before deciding."""
    if status == cp_model.INFEASIBLE:
        return False
    if not has_solution(status):
        raise SolveLimitError(f"feasibility not decided (status {solver.status_name(status)})")
    return True


def read(field: Any) -> list[int]:
    """The values of a repeated field of a CP-SAT proto (a model's constraint, a
    response), by position.

    OR-Tools wraps its protos in pybind11 classes whose repeated fields support `len`
    and indexing but no iterator: `list(field)` walks them through the old sequence
    protocol, which stops on an IndexError raised through the binding.  That exception
    costs about as much as reading a hundred values (7-10 us against 0.3 us a value),
    and the evaluator reads every constraint of every small model it checks, each field
    of them mostly a handful of values or empty.  Reading by position ends without it."""
    return list(map(field.__getitem__, range(len(field))))


def solution(solver: cp_model.CpSolver) -> dict[int, int]:
    """Every variable's value, by index (one read of the response, not a call per
    variable; by position, `read`)."""
    return dict(enumerate(read(solver.response_proto.solution)))
