"""Lexicographic optimisation on one CP-SAT model: tiers solved in sequence.

The pairing rules rank candidates criterion by criterion; a candidate is better when it
is better on the first criterion where two differ.  We solve tier k, fix its optimum
(`expr == best`) and go on with tier k+1 on the same model, hinting the previous
solution so each solve starts from a complete feasible point.

Two economies keep the number of solver calls small without changing any answer:
* a tier whose value in the current solution already equals its lower bound is fixed
  without solving (nothing can beat a lower bound);
* consecutive small tiers are packed into one weighted objective while the objective's
  coefficients stay below MAX_WEIGHT (a weighted sum with weights larger than the range
  of everything below is the same lexicographic order).  Large weights make single
  solves slow enough to cost more than the solves they save (measured: with 2^36 one
  round of a 118-player tournament took over 120 s instead of 1 s with 2^24; on a
  500-player round 2^24 costs 20 % more than 2^36 and 2^16 costs 40 % more).
"""

from __future__ import annotations

import operator
import time
from dataclasses import dataclass, field
from contextlib import contextmanager
from itertools import repeat
from typing import Callable, Iterable, Iterator, Sequence

from ortools.sat.python import cp_model

from cpsat_pairing.errors import ExitCode, PairingError

MAX_WEIGHT = 1 << 24

# Deterministic-time budget (CP-SAT work units, the same on every machine) of a
# restricted solve (see `LexSolver.optional`).  Past it, the full model decides.
RESTRICTED_BUDGET = 1.0

# Process-wide counters for benchmarks (scripts/bench.py): CP-SAT calls and their time.
# "bounded": tiers the count model's bound settled without a full solve; "repaired":
# tiers whose incumbent repair.repair improved; "witnessed": feasibility questions a
# proposed solution (repair.split_witness) answered; "fallbacks": relaxed models that
# found no answer, so that a more exact one decided.
STATS: dict[str, float] = {
    "solves": 0, "solve_seconds": 0.0, "build_seconds": 0.0, "bounded": 0, "repaired": 0, "witnessed": 0,
    "fallbacks": 0,
}


# Deterministic time for the fixed search without the LP (`first_in_order`); past it,
# the search with the LP runs.
PROPAGATION_BUDGET = 0.5


class SolveLimitError(PairingError):
    """A tier was not proven optimal: the answer would not be the rules' answer.

    Never printed as a pairing: the command fails with exit 2 and says so."""

    exit_code = ExitCode.UNEXPECTED


class InfeasibleError(RuntimeError):
    """The hard constraints admit no solution."""


@dataclass
class Term:
    """One lexicographic component: minimise sum(coef * var) (all vars Boolean)."""

    name: str
    coefs: list[int]
    vars: list[cp_model.IntVar]
    one_hot: bool = False  # exactly one of `vars` is true (e.g. "the partner of p")
    # A tier that applies only in some solutions of the tiers above (e.g. [C9]): asked
    # with the solver once those are fixed.
    active: Callable[["LexSolver"], bool] | None = None
    _indices: list[int] | None = field(default=None, repr=False, compare=False)

    @property
    def indices(self) -> list[int]:
        """The variables' proto indices (read once: each read crosses into C++)."""
        if self._indices is None:
            self._indices = [v.index for v in self.vars]
        return self._indices

    def bounds(self) -> tuple[int, int]:
        if self.one_hot and self.coefs:
            return min(self.coefs), max(self.coefs)
        lo = sum(c for c in self.coefs if c < 0)
        hi = sum(c for c in self.coefs if c > 0)
        return lo, hi

    def expr(self) -> cp_model.LinearExprT:
        return cp_model.LinearExpr.weighted_sum(self.vars, self.coefs)


def make_term(name: str, weighted: Iterable[tuple[int, cp_model.IntVar]], one_hot: bool = False) -> Term:
    """A term from (coefficient, variable) pairs; zero coefficients are left out."""
    coefs: list[int] = []
    vs: list[cp_model.IntVar] = []
    for c, v in weighted:
        if c:
            coefs.append(c)
            vs.append(v)
    return Term(name, coefs, vs, one_hot)


def _weights(chunk: Sequence[Term]) -> list[int]:
    """Weights making a weighted sum order like the terms lexicographically."""
    out = []
    w = 1
    for t in reversed(chunk):
        out.append(w)
        lo, hi = t.bounds()
        w *= hi - lo + 1
    return out[::-1]


def _fits(chunk: Sequence[Term]) -> bool:
    """The packed objective stays within MAX_WEIGHT, even as CP-SAT bounds it (from
    every coefficient, not from the one-hot structure)."""
    total = 0
    for t, w in zip(chunk, _weights(chunk)):
        if t.one_hot and t.coefs:
            total += w * max(abs(c) for c in t.coefs)  # exactly one of its Booleans is true
        else:
            total += w * sum(abs(c) for c in t.coefs)
    return total <= MAX_WEIGHT


def _set_objective(model: cp_model.CpModel, indices: list[int], coefs: list[int]) -> None:
    """minimise sum(coefs * variables), written into the proto (the modelling layer reads
    each variable's index through C++: 0.85 s of a 2,000-player round)."""
    objective = model.proto.objective
    objective.vars.extend(indices)
    objective.coeffs.extend(coefs)
    objective.scaling_factor = 1.0


def add_linear(model: cp_model.CpModel, indices: list[int], coefs: list[int], value: int) -> None:
    """sum(coefs * variables) == value, written into the proto."""
    linear = model.proto.constraints.add().linear
    linear.vars.extend(indices)
    linear.coeffs.extend(coefs)
    linear.domain.extend([value, value])


def _write_domain(proto_variables, index: int, value: int | None, current: int | None) -> None:
    """A Boolean's domain, now fixed to `current` (None: free, [0, 1]), set to `value`.
    Between free and fixed only one bound changes: one write, not two (each crosses
    into C++; hundreds of thousands per round at 5,000 players)."""
    domain = proto_variables[index].domain
    if current is None:
        domain[1 - value] = value  # (value is not None: free to free is no write)
    elif value is None:
        domain[1 - current] = 1 - current
    else:
        domain[0], domain[1] = value, value


def _found(solver: cp_model.CpSolver, status: int) -> bool:
    """A feasibility question's answer: True (a solution), False (proven none); raises
    if CP-SAT stopped before deciding."""
    if status == cp_model.INFEASIBLE:
        return False
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise SolveLimitError(f"feasibility not decided (status {solver.status_name(status)})")
    return True


def _solution(solver: cp_model.CpSolver) -> dict[int, int]:
    """Every variable's value, by index (one read of the response, not a call per variable)."""
    return dict(enumerate(solver.response_proto.solution))


@dataclass
class LexSolver:
    """Solves tiers one after another on `model`, keeping the incumbent solution."""

    model: cp_model.CpModel
    all_vars: list[cp_model.IntVar]
    workers: int = 1
    time_limit: float = 600.0
    values: dict[int, int] = field(default_factory=dict)  # var index -> value
    solves: int = 0
    trace: list[tuple[str, int]] = field(default_factory=list)
    # A condition the model cannot state (e.g. "the next bracket can still reach its
    # fixed tiers"): asked of every solution found; when it says no it has added a
    # constraint cutting that solution off, and the solve is repeated.
    accept: Callable[[dict[int, int]], bool] | None = None
    on_tier: Callable[[str], None] | None = None  # told the name of each tier solved
    presolve: bool = True  # the generation order turns it off (order.py)
    # Variables a big model can usually do without (bracket.py: pairs far from the
    # natural S1-S2 partners): one list per restriction, nested, the narrowest
    # restriction (the longest list) first.  Each solve first runs with those of the
    # first list that the incumbent leaves at 0 fixed to 0: a small model whose
    # solutions are solutions of the full one.  A minimisation whose
    # restricted optimum misses the lower bound tries the next, wider restriction,
    # then the full model, each hinted with the best so far; a feasibility question
    # the restricted model answers yes is answered.  The answers are the full model's
    # either way.
    optional: list[list[int]] = field(default_factory=list)
    # A lower bound of a chunk of tiers (terms, weights) given the tiers fixed so far
    # (bounds.CountBound.minimum), for models with a restriction.
    bound: Callable[[Sequence[tuple[Term, int]], Sequence[tuple[Term, int]]], int | None] | None = None
    # A proposal of a better solution for a chunk of tiers (repair.repair), tried when
    # the incumbent misses the bound; checked against the model before it is kept.
    repair: Callable[[Sequence[tuple[Term, int]]], dict[int, int] | None] | None = None
    fixed: list[tuple[Term, int]] = field(default_factory=list)
    weighed: set[int] = field(default_factory=set)  # variables some fixed tier weighs
    # Booleans whose domain is fixed (by `_fixed`, `fix_domains` or the restriction in
    # place): index -> value.
    _domains: dict[int, int] = field(default_factory=dict)
    _restriction: set[int] = field(default_factory=set)  # those the restriction fixed
    _hint_index: list[int] = field(default_factory=list)  # all_vars' indices (`_all_indices`)

    def _params(self, solver: cp_model.CpSolver) -> None:
        p = solver.parameters
        p.num_workers = self.workers
        p.random_seed = 0
        p.max_time_in_seconds = self.time_limit
        p.linearization_level = 2
        # Symmetry detection and probing cost more than they save on these matchings
        # (measured: 0.5-1 s per solve down to 0.05-0.1 s on a 100-player bracket).
        p.symmetry_level = 0
        p.cp_model_probing_level = 0
        p.max_presolve_iterations = 1
        # SAT inprocessing (clause vivification) re-runs decisions many times over on
        # these models: a 200 x 200 assignment's fixed search took 260,000 branches
        # instead of 200; a 400-player bracket's transposition 3.4 s instead of 0.9 s, a
        # 600-player bracket's no-exchange check 11 s instead of 5 s.  It only
        # simplifies clauses: no solution is lost, the first one stays first.
        p.use_sat_inprocessing = False
        p.cp_model_presolve = self.presolve

    def _all_indices(self) -> list[int]:
        """`all_vars`' proto indices, kept (all_vars only grows)."""
        if len(self._hint_index) != len(self.all_vars):
            self._hint_index = [v.index for v in self.all_vars]
        return self._hint_index

    def _hint(self) -> None:
        # Straight into the proto: `add_hint` per variable costs more than some solves.
        self.model.clear_hints()
        hint = self.model.proto.solution_hint
        values = self.values
        indices = self._all_indices()
        hint.vars.extend(indices)
        hint.values.extend([values.get(i, 0) for i in indices])

    def _call(
        self, hint_only: bool = False, budget: float | None = None, level: int | None = None
    ) -> tuple[cp_model.CpSolver, int]:
        """One CP-SAT call on the full model (or on restriction `level`), hinted with the
        incumbent (with `hint_only`, just: is the hint itself a solution?), within
        `budget` if given (deterministic time)."""
        self._restrict_to(level)
        if self.values:
            self._hint()
        solver = cp_model.CpSolver()
        self._params(solver)
        solver.parameters.fix_variables_to_their_hinted_value = hint_only
        if hint_only:
            # Every variable of `all_vars` is fixed (any other, such as a class count,
            # follows from them): propagation checks the constraints, and presolve and
            # the LP would only cost their set-up (5,000 players: 21 such checks 6.9 s
            # -> 4.3 s, the same pairing).
            solver.parameters.linearization_level = 0
            solver.parameters.cp_model_presolve = False
        if budget is not None:
            solver.parameters.max_deterministic_time = budget
        return solver, self._timed_solve(solver)

    @contextmanager
    def _fixed(self, values: Iterable[tuple[int, int]]) -> Iterator[Callable[[], None]]:
        """The model with these Booleans (index, value) fixed by their domains, so that
        presolve simplifies the model with them; the domains are restored on exit unless
        the caller calls the `keep` it is given."""
        saved = self._set_domains(values)
        try:
            yield saved.clear
        finally:
            self._restore_domains(saved)

    def zero_for_good(self) -> set[int]:
        """Booleans whose domain is fixed to 0 other than by the restriction (which a
        solve on the full model lifts)."""
        restriction = self._restriction
        return {i for i, v in self._domains.items() if v == 0 and i not in restriction}

    def fix_domains(self, values: Iterable[tuple[int, int]]) -> None:
        """Fix these Booleans (index, value) for good, by their domains."""
        self._set_domains(values)

    def _set_domains(self, values: Iterable[tuple[int, int]]) -> list[tuple[int, int | None]]:
        """Write the domains; return what they were ((index, value or None if free)).

        Which Booleans are fixed is kept on the Python side (`_domains`): reading tens
        of thousands of domains back through the proto cost more than the solves they
        served (2,000 players: 8 s of 75)."""
        proto = self.model.proto.variables
        mirror = self._domains
        restriction = self._restriction
        saved: list[tuple[int, int | None]] = []
        for index, value in values:
            old = current = mirror.get(index)
            if index in restriction:  # now fixed by the caller, free again after it
                restriction.discard(index)
                old = None
                if current == value:
                    saved.append((index, old))
                    continue
            elif old == value:
                continue
            saved.append((index, old))
            mirror[index] = value
            _write_domain(proto, index, value, current)
        return saved

    def _restore_domains(self, saved: list[tuple[int, int | None]]) -> None:
        proto = self.model.proto.variables
        mirror = self._domains
        for index, old in reversed(saved):
            current = mirror[index]
            if old is None:
                del mirror[index]
            else:
                mirror[index] = old
            if old != current:
                _write_domain(proto, index, old, current)

    def _restrict_to(self, level: int | None) -> None:
        """Fix to 0 the optional variables of restriction `level` that the incumbent
        leaves at 0 and nothing else has fixed; free those fixed for another one
        (`None`: the full model).

        The restriction stays in place between solves, and moving to the next one
        writes only the difference: consecutive tiers restrict nearly the same tens of
        thousands of pairs, and writing them all and back for every solve cost seconds
        (2,000 players: 5.6 s)."""
        current = self._restriction
        if level is None:
            target: set[int] = set()
        else:
            values, mirror = self.values, self._domains
            target = {i for i in self.optional[level] if not values.get(i, 0) and (i in current or i not in mirror)}
        if target == current:
            return
        proto = self.model.proto.variables
        mirror = self._domains
        # Between free ([0, 1]) and 0 only the upper bound changes: one write, not two.
        for index in current - target:
            del mirror[index]
            proto[index].domain[1] = 1
        for index in target - current:
            mirror[index] = 0
            proto[index].domain[1] = 0
        self._restriction = target

    def _restricted_run(self, level: int = 0) -> tuple[cp_model.CpSolver, int] | None:
        """`_run` on a restricted model within RESTRICTED_BUDGET; None if there is no
        such restriction or it found nothing (a wider one or the full model decides)."""
        if level >= len(self.optional):
            return None
        solver, status = self._run(lambda: self._call(budget=RESTRICTED_BUDGET, level=level))
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return solver, status
        return None

    def _timed_solve(self, solver: cp_model.CpSolver) -> int:
        start = time.perf_counter()
        status = solver.solve(self.model)
        STATS["solve_seconds"] += time.perf_counter() - start
        STATS["solves"] += 1
        self.solves += 1
        return status

    def _run(self, call: Callable[[], tuple[cp_model.CpSolver, int]] | None = None) -> tuple[cp_model.CpSolver, int]:
        """CP-SAT calls (`call`, by default `_call`) until a solution passes `accept`
        (each rejection adds a cut) or none is left."""
        while True:
            solver, status = (call or self._call)()
            if self.accept is None or status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                return solver, status
            if self.accept(_solution(solver)):
                return solver, status

    def check(self, lits: Sequence[cp_model.IntVar], hint: dict[int, int] | None = None) -> dict[int, int] | None:
        """A solution of the fixed tiers with `lits` true, or None; nothing is fixed.

        `hint` (var index -> value) replaces the incumbent as the search's starting point.
        """
        return self.check_values([(lit.index, 1) if lit.index >= 0 else (-lit.index - 1, 0) for lit in lits], hint)

    def check_values(self, fixed: Sequence[tuple[int, int]], hint: dict[int, int] | None = None) -> dict[int, int] | None:
        """`check` with Booleans (index, value) fixed instead of literals made true."""
        self.model.clear_objective()
        # Fixing the variables' domains (rather than assuming the literals) lets presolve
        # simplify the model with them.
        incumbent = self.values
        if hint is not None:
            self.values = hint
        try:
            with self._fixed(fixed):
                solver, status = self._call(hint_only=hint is not None)
                if hint is not None and status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                    solver, status = self._call()
        finally:
            self.values = incumbent
        return _solution(solver) if _found(solver, status) else None

    def _keep(self, solver: cp_model.CpSolver) -> None:
        self.values = _solution(solver)

    def solve(self, objective: tuple[list[int], list[int]] | None = None, chunk: Sequence[tuple[Term, int]] = ()) -> None:
        """Solve with an optional objective (variable indices, coefficients) and store the
        solution as the incumbent.

        `chunk` is what the objective is made of: terms and their weights.  With
        restrictions (`optional`), an incumbent that already meets the count model's
        lower bound (bounds.py) is kept as it is; otherwise the restrictions' optima come
        first, the narrowest first.  One is kept if it reaches a lower bound: the terms'
        own, or the count model's.  Otherwise it is the hint of the next solve; the full
        model's then mostly proves it (a 226-player bracket's colour tier: 5.3 s from
        the previous tier's solution, 0.08 s + 0.5 s this way)."""
        self.model.clear_objective()
        if objective is not None:
            _set_objective(self.model, *objective)
        if objective is not None and chunk and self.optional:
            own = sum(w * t.bounds()[0] for t, w in chunk)
            least = self.bound(chunk, self.fixed) if self.bound is not None else None
            if least is not None and sum(w * self.value(t) for t, w in chunk) <= least:
                STATS["bounded"] += 1  # the incumbent is already optimal
                return
            if least is not None and self._repaired(chunk) <= least:
                STATS["bounded"] += 1  # the repaired incumbent is optimal
                return
            for level in range(len(self.optional)):
                found = self._restricted_run(level)
                if found is None:
                    continue
                self._keep(found[0])
                value = round(found[0].objective_value)
                if value <= own:
                    return
                if least is not None and value <= least:
                    STATS["bounded"] += 1
                    return
                if least is None:
                    break  # nothing to reach: the full model decides
        solver, status = self._run()
        if status == cp_model.INFEASIBLE:
            raise InfeasibleError("no solution satisfies the hard constraints")
        if objective is None and status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            raise SolveLimitError(f"feasibility not decided (status {solver.status_name(status)})")
        if objective is not None and status != cp_model.OPTIMAL:
            raise SolveLimitError(f"tier not proven optimal (status {solver.status_name(status)})")
        self._keep(solver)

    def _repaired(self, chunk: Sequence[tuple[Term, int]]) -> int:
        """Keep `repair`'s proposal if it lowers the chunk's value and the model accepts
        it (one CP-SAT call with every variable fixed to it); return the chunk's value
        in the incumbent, repaired or not."""
        current = sum(w * self.value(t) for t, w in chunk)
        if self.repair is None:
            return current
        proposal = self.repair(chunk)
        if proposal is None:
            return current
        incumbent, self.values = self.values, proposal
        value = sum(w * self.value(t) for t, w in chunk)
        self.values = incumbent
        if value < current:
            solver, status = self._checked(proposal)
            if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                self._keep(solver)
                STATS["repaired"] += 1
                return value
        return current

    def _checked(self, proposal: dict[int, int]) -> tuple[cp_model.CpSolver, int]:
        """One CP-SAT call on the full model with every variable fixed to `proposal`:
        is it a solution?"""
        incumbent, self.values = self.values, proposal
        try:
            solver, status = self._call(hint_only=True)
        finally:
            self.values = incumbent
        return solver, status

    def _feasible(self) -> tuple[cp_model.CpSolver, int]:
        """A feasibility question: the restrictions first, the narrowest first, then the
        full model (2,000 players: the no-exchange checks of the 250-400-player
        brackets took 83 s on the full models, 14 s with one restriction and under
        1 s with two).  A restriction's "no" is cheap; its "yes" is the answer."""
        for level in range(len(self.optional)):
            found = self._restricted_run(level)
            if found is not None:
                return found
        return self._run()

    def try_fix(self, lits: Sequence[cp_model.IntVar], trace: Sequence[tuple[str, int]]) -> bool:
        """Fix `lits` true if some solution of the fixed tiers allows it (one solve).

        Used when a candidate is known to be the lexicographic minimum of the next tiers
        whenever it is feasible at all, so one feasibility check replaces those tiers.
        """
        self.model.clear_objective()
        self.model.clear_assumptions()
        self.model.add_assumptions(lits)
        solver, status = self._feasible()
        self.model.clear_assumptions()
        if not _found(solver, status):
            return False
        self._keep(solver)
        for lit in lits:
            self.model.add(lit == 1)
        self.trace.extend(trace)
        return True

    def try_fix_domains(
        self, values: Sequence[tuple[int, int]], trace: Sequence[tuple[str, int]], proposal: dict[int, int] | None = None
    ) -> bool:
        """`try_fix` for Booleans (index, value) fixed by their domains: a candidate that
        is a set of forced values needs no new variable or constraint, and whatever the
        answer, the model stays as small as it was (see order.py, the exchange).

        `proposal`, a solution believed to fit (repair.py), is checked first: if the
        model accepts it, no search is needed."""
        self.model.clear_objective()
        with self._fixed(values) as keep:
            solver, status = self._checked(proposal) if proposal is not None else (None, cp_model.UNKNOWN)
            if solver is None or status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                solver, status = self._feasible()
            else:
                STATS["witnessed"] += 1
            if not _found(solver, status):
                return False
            keep()
        self._keep(solver)
        self.trace.extend(trace)
        return True

    def first_in_order(self, decisions: Sequence[cp_model.IntVar], budget: float | None = None) -> bool | None:
        """Keep the solution of the fixed tiers that is first in the order of `decisions`
        (each tried true before false, in turn): the lexicographic maximum of that bit
        vector.  A CP-SAT fixed search (without the LP, then if need be with it);
        returns False if there is none, and None (nothing kept) if the search with the LP
        used up `budget` (deterministic time)."""
        self._restrict_to(None)
        self.model.clear_objective()
        self.model.clear_hints()
        # After the decisions, the incumbent's true Booleans are tried true: the search
        # would otherwise set the rest (the round below the bracket) to 0 one by one and
        # repair what that breaks (2,000 players: 150-380 conflicts per bracket).
        decided = [v.index for v in decisions]
        done = set(decided)
        values = self.values
        completion = [i for i in self._all_indices() if values.get(i) and i not in done]
        strategy = self.model.proto.search_strategy.add()
        strategy.variables.extend([*decided, *completion])  # by index: 0.5 s at 2,000 players
        strategy.variable_selection_strategy = cp_model.CHOOSE_FIRST
        strategy.domain_reduction_strategy = cp_model.SELECT_MAX_VALUE
        # Propagation alone (no LP) first: with the class counts (counts.py) it refutes
        # the candidates of a big bracket by itself, and the LP's re-solve at every
        # decision was most of the search (2,000 players, a 380-player bracket: 2.9 s
        # -> 0.3 s).  Where it does not, the search soon thrashes and stops at
        # PROPAGATION_BUDGET; the search with the LP then decides.  Either finds the
        # same first solution.
        solver, status = self._fixed_search(PROPAGATION_BUDGET, lp=False)
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE, cp_model.INFEASIBLE):
            solver, status = self._fixed_search(budget, lp=True)
        self.model.proto.search_strategy.clear()
        if status == cp_model.INFEASIBLE:
            return False
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            if budget is not None and solver.deterministic_time >= budget:
                return None
            raise SolveLimitError(f"feasibility not decided (status {solver.status_name(status)})")
        self._keep(solver)
        return True

    def _fixed_search(self, budget: float | None, lp: bool) -> tuple[cp_model.CpSolver, int]:
        """One run of the fixed search set up by `first_in_order`, within `budget`
        (deterministic time), with or without the LP relaxation."""
        solver = cp_model.CpSolver()
        self._params(solver)
        solver.parameters.search_branching = cp_model.FIXED_SEARCH
        if not lp:
            solver.parameters.linearization_level = 0
        # No presolve: it may drop solutions dominated by others (possibly the first) and
        # rewrite the decision literals; either loses the order (measured: wrong pairs,
        # also with keep_all_feasible_solutions_in_presolve).
        solver.parameters.cp_model_presolve = False
        if budget is not None:
            solver.parameters.max_deterministic_time = budget
        # A solution `accept` rejects is cut off; the next one found is again the first.
        return self._run(lambda: (solver, self._timed_solve(solver)))

    def value(self, term: Term) -> int:
        return sum(map(operator.mul, term.coefs, map(self.values.get, term.indices, repeat(0))))

    def var_value(self, v: cp_model.IntVar) -> int:
        return self.values.get(v.index, 0)

    def minimize(self, terms: Sequence[Term]) -> list[int]:
        """Lexicographically minimise `terms` in order; fix each optimum; return them."""
        return self._minimize(terms)[0]

    def minimize_some(self, terms: Sequence[Term]) -> int:
        """Minimise a prefix of `terms` with at most one solve; return its length.

        For callers that tighten the later terms with what the first ones fixed."""
        return self._minimize(terms, max_solves=1)[1]

    def _minimize(self, terms: Sequence[Term], max_solves: int | None = None) -> tuple[list[int], int]:
        out: list[int] = []
        i = 0
        solves = 0
        terms = list(terms)
        while i < len(terms):
            if max_solves is not None and solves == max_solves:
                break
            term = terms[i]
            if term.active is not None and not term.active(self):
                i += 1
                continue
            lo, hi = term.bounds()
            if not term.vars or self.value(term) == lo:
                self._fix(term, self.value(term))
                out.append(self.value(term))
                i += 1
                continue
            # Pack this term with the following ones while the weights fit.
            chunk = [term]
            j = i + 1
            while j < len(terms) and terms[j].active is None and _fits(chunk + [terms[j]]):
                chunk.append(terms[j])
                j += 1
            weighted = list(zip(chunk, _weights(chunk)))
            indices: list[int] = []
            coefs: list[int] = []
            for t, w in weighted:
                indices += t.indices
                coefs += [c * w for c in t.coefs] if w != 1 else t.coefs
            if self.on_tier is not None:
                self.on_tier(term.name)
            self.solve((indices, coefs), weighted)
            solves += 1
            for t in chunk:
                val = self.value(t)
                self._fix(t, val)
                out.append(val)
            i = j
        self.model.clear_objective()
        return out, i

    def fix(self, term: Term, val: int) -> None:
        """Fix a tier at a value known from elsewhere (e.g. the same tier of another model)."""
        self._fix(term, val)

    def _fix(self, term: Term, val: int) -> None:
        if term.vars:
            add_linear(self.model, term.indices, term.coefs, val)
            self.fixed.append((term, val))
            self.weighed.update(i for c, i in zip(term.coefs, term.indices) if c)
        self.trace.append((term.name, val))
