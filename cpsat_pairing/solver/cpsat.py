"""One CP-SAT call: the parameters every solve uses, timing, and reading the answer.

The parameters are fixed (one worker, seed 0), so the same model gives the same
solution on every machine; only `time_limit` is wall-clock, and a solve it stops is
an error, never an answer.
"""

from __future__ import annotations

import time
from typing import Any

from ortools.sat.python import cp_model

from cpsat_pairing.errors import SolveLimitError
from cpsat_pairing.solver.settings import SolverSettings

# Process-wide counters for benchmarks (scripts/bench.py): CP-SAT calls and their time.
# "bounded": tiers the count model's bound settled without a full solve; "repaired":
# tiers whose incumbent repair.repair improved; "witnessed": feasibility questions a
# proposed solution (repair.split_witness) answered; "fallbacks": relaxed models that
# found no answer, so that a more exact one decided; "evaluated": complete proposals
# checked without a CP-SAT call (evaluate.py); "near": brackets a model of their near
# pairs answered (dutch/near.py); "uncertified": near models that could not prove
# their answer, so that a model of every pair decided; "extended": near models made
# again with far pairs their certificate asked for; "propagated": questions any
# solution answers that a search on propagation alone settled (lex._reaching_run);
# "greedy": transpositions whose greedy choice was the first (dutch/order.py), no search;
# "hinted": rounds whose models started from a given pairing (dutch/loop.py, `check`).
STATS: dict[str, float] = {
    "solves": 0, "solve_seconds": 0.0, "build_seconds": 0.0, "bounded": 0, "repaired": 0, "witnessed": 0,
    "fallbacks": 0, "evaluated": 0, "near": 0, "uncertified": 0, "extended": 0, "propagated": 0,
    "light": 0, "greedy": 0, "realised": 0, "hinted": 0,
}


class InfeasibleError(RuntimeError):
    """The hard constraints admit no solution (of this model: a relaxed model's
    infeasibility says nothing of the round's)."""


class Uncertified(RuntimeError):
    """A model of part of the pairs (dutch/near.py) found an answer it cannot prove to
    be the full model's: the full model decides, or a model with `pairs` made too."""

    def __init__(self, message: str, pairs: list[tuple[int, int]] | None = None,
                 values: dict[int, int] | None = None) -> None:
        super().__init__(message)
        self.pairs = pairs or []
        self.values = values or {}  # the relaxation's solution that made far pairs, if any
        # What the model proved before it stopped, for the next model of the bracket:
        # the relaxation's optima (LexSolver.known_optima), the quality tiers fixed
        # (name, value: each the full model's optimum) and a solution that has them, its
        # variables named as `BracketModel.portable` names them.
        self.optima: dict[Any, int] = {}
        self.tiers: list[tuple[str, int]] = []
        self.incumbent: dict[tuple[str, int, int], int] = {}
        # The tier whose relaxation did better by far pairs (LexSolver's optimum key), and
        # that solution's pairs named as `portable` names them: a near model made again
        # with those far pairs tries that pairing first (PartialModel.realise).
        self.key: Any = None
        self.relaxed: dict[tuple[str, int, int], int] = {}


class Model(cp_model.CpModel):
    """A `CpModel` without the camelCase aliases of the pre-PEP 8 API.

    `CpModel.__init__` sets an alias on the instance for each of its `add_*`/`new_*`
    methods, about 1.4 ms a model (a small round builds a dozen); this package calls the
    snake_case names only.  Everything else is the public wrapper's: construction,
    variables, constraints, cloning and solving.  Tested on OR-Tools 9.15; where a version
    has no such hook, the override is never called and models are as usual.
    """

    def _add_pre_pep8_methods(self) -> None:
        return None


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


def timed_solve(solver: cp_model.CpSolver, model: cp_model.CpModel) -> Status:
    start = time.perf_counter()
    status = solver.solve(model)
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
