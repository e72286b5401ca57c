"""Lexicographic optimisation on one CP-SAT model: tiers solved in sequence.

The pairing rules rank candidates criterion by criterion; a candidate is better when it
is better on the first criterion where two differ.  We solve tier k, fix its optimum
(`expr == best`) and go on with tier k+1 on the same model, hinting the previous
solution so each solve starts from a complete feasible point.

Two economies keep the number of solver calls small without changing any answer:
* a tier whose value in the current solution already equals its lower bound is fixed
  without solving (nothing can beat a lower bound);
* consecutive small tiers are packed into one weighted objective while the objective's
  coefficients stay below `SolverSettings.max_weight` (a weighted sum with weights
  larger than the range of everything below is the same lexicographic order; larger
  weights make single solves slow enough to cost more than the solves they save).

A big model adds three more (bracket.py sets them up with `use_restrictions`):
restrictions (the pairs far from the natural partners fixed to 0), a lower bound from
the count model (bounds.py) and repair proposals (repair.py); each only finds or
proves solutions of the full model.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from itertools import compress, repeat

from ortools.sat.python import cp_model

from cpsat_pairing.errors import SolveLimitError
from cpsat_pairing.solver.cpsat import (
    Model,
    STATS, InfeasibleError, Status, configure, found, has_solution, solution, timed_solve,
)
from cpsat_pairing.solver.domains import Domains
from cpsat_pairing.solver.evaluate import Evaluator
from cpsat_pairing.solver.partial import Chunk, PartialModel
from cpsat_pairing.solver.settings import DEFAULT_SETTINGS, SolverSettings, propagation_budget
from cpsat_pairing.solver.terms import Term, add_linear, fits, set_objective, weights
from cpsat_pairing.records import Tier

Bound = Callable[[Chunk, Sequence[tuple[Term, int]]], "int | None"]
Repair = Callable[[Chunk, int], "dict[int, int] | None"]
Neighbourhood = Callable[[Chunk], "list[int]"]


class LexSolver(PartialModel):
    """Solves tiers one after another on `model`, keeping the incumbent solution.

    Callbacks a caller may set: `accept`, a condition the model cannot state (asked of
    every solution found; when it says no it has added a constraint cutting that
    solution off, and the solve is repeated), and `on_tier`, told the name of each
    tier solved (progress)."""

    def __init__(
        self, model: Model, all_vars: Iterable[cp_model.IntVar], settings: SolverSettings = DEFAULT_SETTINGS
    ) -> None:
        self.model = model
        self.all_vars = list(all_vars)
        self.settings = settings
        self._values: dict[int, int] = {}  # var index -> value: the incumbent
        self.solves = 0
        self.trace: list[Tier] = []
        self.accept: Callable[[dict[int, int]], bool] | None = None
        self.on_tier: Callable[[str], None] | None = None
        self._presolve = True
        # Variables a big model can usually do without: one list per restriction,
        # nested, the narrowest restriction (the longest list) first.  Each solve first
        # runs with those of the first list that the incumbent leaves at 0 fixed to 0:
        # a small model whose solutions are solutions of the full one.  A minimisation
        # whose restricted optimum misses the lower bound tries the next, wider
        # restriction, then the full model, each hinted with the best so far; a
        # feasibility question the restricted model answers yes is answered.
        self.optional: list[list[int]] = []
        self.bound: Bound | None = None
        self.repair: Repair | None = None
        # The incumbent's pair variables (by index) away from what a chunk weighs: kept
        # as they are, they leave a small model around the rest (`_settled_run`).
        self.neighbourhood: Neighbourhood | None = None
        self.fixed: list[tuple[Term, int]] = []  # the tiers fixed so far, with their values
        # The fixed tiers by their sum (variables and coefficients): a later tier that is
        # the same sum (e.g. 2026 [C13] where every unmet preference is strong, [C12]'s
        # sum) has that value in every solution, and its constraint would be a copy.
        self._sums: dict[tuple[int, int, int], list[tuple[Term, int]]] = {}
        # Variables some fixed tier weighs (but a `per_player` one): the repair keeps them.
        self.weighed: set[int] = set()
        self.domains = Domains(model)
        # A model fixed to a given pairing (scoring it): a tier whose Booleans are all
        # fixed for good by their domains has one value, read off them without a solve.
        self.read_fixed_tiers = False
        self.evaluator = Evaluator(model, settings.plain_evaluation_max)
        # The evaluator's last solution, and the model as it stood (`_model_state`): the
        # generation order often checks the incumbent that it has just checked.  It may
        # become the incumbent: the two methods that change the incumbent in place drop it.
        self._evaluated: tuple[tuple[int, int, int, int], dict[int, int]] | None = None
        self._hint_index: list[int] = []
        self.start_partial()

    # -- the incumbent ---------------------------------------------------------------

    @property
    def values(self) -> dict[int, int]:
        """The incumbent (var index -> value); read it, change it with the methods below."""
        return self._values

    def set_incumbent(self, values: dict[int, int]) -> None:
        self._values = values

    def update_incumbent(self, values: dict[int, int]) -> None:
        self._evaluated = None  # the incumbent may be the evaluator's answer kept
        self._values.update(values)

    def add_variables(self, variables: Iterable[cp_model.IntVar], true: Iterable[cp_model.IntVar] = ()) -> None:
        """New variables of the model, with those in `true` set in the incumbent."""
        self.all_vars.extend(variables)
        self._evaluated = None  # the incumbent may be the evaluator's answer kept
        for v in true:
            self._values[v.index] = 1

    def record(self, tier: Tier) -> None:
        """A tier decided outside the solver (e.g. read off a fixed search)."""
        self.trace.append(tier)

    def absorb(self, other: LexSolver, incumbent: dict[int, int], skip: frozenset[str]) -> None:
        """Take over what `other` (a model of part of this one) decided: its tiers but
        those named in `skip`, its solve count, and `incumbent` as this model's."""
        self._values = incumbent
        self.trace += [tier for tier in other.trace if tier.name not in skip]
        self.solves += other.solves

    def use_restrictions(self, optional: list[list[int]], bound: Bound | None, repair: Repair | None,
                         neighbourhood: Neighbourhood | None = None) -> None:
        self.optional = optional
        self.bound = bound
        self.repair = repair
        self.neighbourhood = neighbourhood

    @contextmanager
    def without_presolve(self) -> Iterator[None]:
        """Solves without CP-SAT's presolve (the feasibility-like solves of the
        generation order are faster without it)."""
        saved = self._presolve
        self._presolve = False
        try:
            yield
        finally:
            self._presolve = saved

    def value(self, term: Term) -> int:
        return sum(map(operator.mul, term.coefs, map(self._values.get, term.indices, repeat(0))))

    def var_value(self, v: cp_model.IntVar) -> int:
        return self._values.get(v.index, 0)

    def zero_for_good(self) -> set[int]:
        return self.domains.zero_for_good()

    def fix_domains(self, values: Iterable[tuple[int, int]]) -> None:
        """Fix these Booleans (index, value) for good, by their domains."""
        self.domains.fix(values)

    # -- one CP-SAT call ----------------------------------------------------------------

    def all_indices(self) -> list[int]:
        """`all_vars`' proto indices, kept (all_vars only grows)."""
        if len(self._hint_index) != len(self.all_vars):
            self._hint_index = [v.index for v in self.all_vars]
        return self._hint_index

    def _hint(self) -> None:
        # Straight into the proto: `add_hint` per variable costs more than some solves.
        self.model.clear_hints()
        hint = self.model.proto.solution_hint
        values = self._values
        indices = self.all_indices()
        hint.vars.extend(indices)
        hint.values.extend(list(map(values.get, indices, repeat(0))))

    def new_solver(self) -> cp_model.CpSolver:
        solver = cp_model.CpSolver()
        small = len(self.model.proto.variables) < self.settings.presolve_from
        configure(solver, self.settings, self._presolve and not small)
        return solver

    def call(
        self, hint_only: bool = False, budget: float | None = None, level: int | None = None, lp: bool = True,
        cuts: bool = True,
    ) -> tuple[cp_model.CpSolver, Status]:
        """One CP-SAT call on the full model (or on restriction `level`), hinted with the
        incumbent (with `hint_only`, just: is the hint itself a solution?), within
        `budget` if given (deterministic time); without `lp`, on propagation alone (no
        LP, no presolve); without `cuts`, with the LP of the linear constraints alone."""
        self._restrict_to(level)
        if self._values:
            self._hint()
        solver = self.new_solver()
        solver.parameters.fix_variables_to_their_hinted_value = hint_only
        if not lp:
            # Presolve too would cost more than such a search (2017 brackets of 3,000
            # pairs: ten times its budget, then nothing found).
            solver.parameters.linearization_level = 0
            solver.parameters.cp_model_presolve = False
        elif not cuts:
            solver.parameters.linearization_level = 1
        if hint_only:
            # Every variable of `all_vars` is fixed (any other, such as a class count,
            # follows from them): propagation checks the constraints, and presolve and
            # the LP would only cost their set-up.
            solver.parameters.linearization_level = 0
            solver.parameters.cp_model_presolve = False
        if budget is not None:
            solver.parameters.max_deterministic_time = budget
        return solver, self.timed(solver)

    def timed(self, solver: cp_model.CpSolver) -> Status:
        self.solves += 1
        return timed_solve(solver, self.model)

    def run(self, call: Callable[[], tuple[cp_model.CpSolver, Status]] | None = None) -> tuple[cp_model.CpSolver, Status]:
        """CP-SAT calls (`call`, by default `call()`) until a solution passes `accept`
        (each rejection adds a cut) or none is left."""
        while True:
            solver, status = (call or self.call)()
            if self.accept is None or not has_solution(status):
                return solver, status
            if self.accept(solution(solver)):
                return solver, status

    def _restrict_to(self, level: int | None) -> None:
        """Fix to 0 the optional variables of restriction `level` that the incumbent
        leaves at 0 and nothing else has fixed; free those fixed for another one
        (`None`: the full model)."""
        if level is None:
            self.domains.restrict(set())
            return
        values, current, mirror = self._values, self.domains.restriction, self.domains.fixed
        self.domains.restrict(
            {i for i in self.optional[level] if not values.get(i, 0) and (i in current or i not in mirror)}
        )

    def _restricted_run(self, level: int = 0, reach: bool = False) -> tuple[cp_model.CpSolver, Status] | None:
        """`run` on a restricted model within its budget; None if there is no such
        restriction or it found nothing (a wider one or the full model decides).
        `reach`: any solution in the objective's domain will do (`_reaching_run`)."""
        if level >= len(self.optional):
            return None
        settings = self.settings
        scale = min(settings.restricted_scale_max, max(1.0, len(self.model.proto.variables) / settings.restricted_full_size))
        budget = settings.restricted_budget * scale
        if reach:
            solver, status = self._reaching_run(budget, level)
        else:
            solver, status = self.run(lambda: self.call(budget=budget, level=level))
        return (solver, status) if has_solution(status) else None

    def _reaching_run(self, budget: float | None, level: int | None = None) -> tuple[cp_model.CpSolver, Status]:
        """`run` for a question that any solution answers: a feasibility question, or an
        objective whose domain starts at a proven lower bound (a solution there is
        optimal).  A search on propagation alone goes first, within the fixed search's
        propagation budget: where such a solution is within reach it finds it several
        times faster than the search with the LP, whose root relaxation and cuts are
        most of these solves.  Past it the search with the LP decides, within `budget`,
        hinted with what the first found short of the bound."""
        return self._first_then(
            lambda: self._propagation(level), lambda: self.call(budget=budget, level=level), "propagated"
        )

    def _propagation(self, level: int | None = None) -> tuple[cp_model.CpSolver, Status]:
        """A search on propagation alone within the fixed search's propagation budget
        for a model of this size (`_reaching_run`)."""
        size = len(self.model.proto.variables)
        return self.call(budget=propagation_budget(self.settings, size), level=level, lp=False)

    def _first_then(
        self, first: Callable[[], tuple[cp_model.CpSolver, Status]], then: Callable[[], tuple[cp_model.CpSolver, Status]],
        counter: str, keep: bool = True,
    ) -> tuple[cp_model.CpSolver, Status]:
        """`run` of a cheaper search `first`, kept if it proves its answer (an optimum,
        such as a solution at the start of the objective's domain, or none; counted in
        STATS[`counter`]); else `run` of `then`, hinted (with `keep`) with what `first`
        found short of it."""
        solver, status = self.run(first)
        if status in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
            STATS[counter] += 1
            return solver, status
        if keep and has_solution(status):
            self._keep(solver)
        return self.run(then)

    def _keep(self, solver: cp_model.CpSolver) -> None:
        self._values = solution(solver)

    # -- feasibility questions --------------------------------------------------------

    def check(self, lits: Sequence[cp_model.IntVar | cp_model.NotBooleanVariable], hint: dict[int, int] | None = None) -> dict[int, int] | None:
        """A solution of the fixed tiers with `lits` true, or None; nothing is fixed.

        `hint` (var index -> value) replaces the incumbent as the search's starting point.
        """
        return self.check_values([(lit.index, 1) if lit.index >= 0 else (-lit.index - 1, 0) for lit in lits], hint)

    def check_values(self, fixed: Sequence[tuple[int, int]], hint: dict[int, int] | None = None,
                     conclusive: bool = True) -> dict[int, int] | None:
        """`check` with Booleans (index, value) fixed instead of literals made true.

        A model of part of the pairs (`partial`) answers None only when the relaxation
        confirms it (else Uncertified), unless the caller draws no conclusion from a
        None (`conclusive` False)."""
        self.model.clear_objective()
        # Fixing the variables' domains (rather than assuming the literals) lets presolve
        # simplify the model with them.
        with self.domains.fixing(fixed):
            checked = self._checked(hint) if hint is not None else None
            if checked is not None:
                return checked
            incumbent = self._values
            if hint is not None:
                self._values = hint
            try:
                solver, status = self._reaching_run(None)
                if found(solver, status):
                    return solution(solver)
                if self.partial and conclusive:
                    self._refuted()
            finally:
                self._values = incumbent
        return None

    def _checked(self, proposal: dict[int, int]) -> dict[int, int] | None:
        """The full model's solution that is `proposal` (every variable of `all_vars`
        fixed to its value there), or None if it is not one.  Evaluated without CP-SAT
        when the evaluator can tell (evaluate.py), else one CP-SAT call."""
        self._restrict_to(None)
        state = self._model_state()
        last = self._evaluated
        if state is not None and last is not None and last[0] == state and proposal == last[1]:
            STATS["evaluated"] += 1
            return last[1]
        verdict = self.evaluator.solution(proposal, self.all_indices(), self.domains.fixed)
        if verdict is not None:
            STATS["evaluated"] += 1
            if verdict is False:
                return None
            if state is not None:
                self._evaluated = (state, verdict)
            return verdict
        incumbent, self._values = self._values, proposal
        try:
            solver, status = self.call(hint_only=True)
        finally:
            self._values = incumbent
        return solution(solver) if has_solution(status) else None

    def _model_state(self) -> tuple[int, int, int, int] | None:
        """What the evaluator's answer depends on besides the proposal: the constraints
        (only ever added), the variables, the fixed domains (`Domains.version`) and
        the variables a proposal decides.  The same state and proposal, the same
        answer.  None with assumptions or an objective's domain, where it answers
        nothing."""
        proto = self.model.proto
        if len(proto.assumptions) or len(proto.objective.domain):
            return None
        return (len(proto.constraints), len(proto.variables), self.domains.version, len(self.all_vars))

    def _feasible(self) -> tuple[cp_model.CpSolver, Status]:
        """A feasibility question: the restrictions first, the narrowest first, then the
        full model.  A restriction's "no" is cheap; its "yes" is the answer."""
        for level in range(len(self.optional)):
            found_ = self._restricted_run(level, reach=True)
            if found_ is not None:
                return found_
        solver, status = self._reaching_run(None)
        if self.partial and status == cp_model.INFEASIBLE:
            self._refuted()
        return solver, status

    def try_fix(self, lits: Sequence[cp_model.IntVar], tiers: Sequence[Tier]) -> bool:
        """Fix `lits` true if some solution of the fixed tiers allows it (one solve).

        Used when a candidate is known to be the lexicographic minimum of the next tiers
        whenever it is feasible at all, so one feasibility check replaces those tiers.
        """
        self.model.clear_objective()
        self.model.clear_assumptions()
        self.model.add_assumptions(lits)
        solver, status = self._feasible()
        self.model.clear_assumptions()
        if not found(solver, status):
            return False
        self._keep(solver)
        for lit in lits:
            self.model.add(lit == 1)
        self.trace.extend(tiers)
        return True

    def try_fix_domains(
        self, values: Sequence[tuple[int, int]], tiers: Sequence[Tier], proposal: dict[int, int] | None = None,
        search: bool = True, counter: str = "witnessed",
    ) -> bool:
        """`try_fix` for Booleans (index, value) fixed by their domains: a candidate that
        is a set of forced values needs no new variable or constraint, and whatever the
        answer, the model stays as small as it was (see order.py, the exchange).

        `proposal`, a solution believed to fit (repair.py), is checked first: if the
        model (and `accept`) accepts it, no search is needed.  Without `search`, a rejected proposal
        is the answer False (nothing fixed: the question is still open).  An accepted
        proposal counts in STATS under `counter`, so each source of proposals is
        measured apart."""
        self.model.clear_objective()
        with self.domains.fixing(values) as saved:
            answer = self._checked(proposal) if proposal is not None else None
            if answer is not None and self.accept is not None and not self.accept(answer):
                answer = None
            if answer is None:
                if not search:
                    return False
                solver, status = self._feasible()
                if not found(solver, status):
                    return False
                answer = solution(solver)
            else:
                STATS[counter] += 1
            saved.clear()  # keep them fixed
        self._values = answer
        self.trace.extend(tiers)
        return True

    # -- tiers --------------------------------------------------------------------------

    def solve(self, objective: tuple[list[int], list[int]] | None = None, chunk: Chunk = (), unpack: bool = False) -> None:
        """Solve with an optional objective (variable indices, coefficients) and store the
        solution as the incumbent.

        `chunk` is what the objective is made of: terms and their weights.  With
        restrictions (`optional`), an incumbent that already meets the count model's
        lower bound is kept as it is; otherwise the restrictions' optima come first, the
        narrowest first.  One is kept if it reaches a lower bound: the terms' own, or the
        count model's (the objective's domain starts at the bound, so a solve that reaches
        it stops there).  Otherwise it is the hint of the next solve; the full model's
        then mostly proves it.

        A model of part of the pairs (`partial`) tries the incumbent, the repair and the
        pairs away from the chunk's (`_settled_run`) against the bound; past them, with
        `unpack`, it raises _Unpack (the caller solves the chunk's first tier alone),
        else its near solution within a budget and the relaxation certify the tier or
        name the far pairs that reach it (`_near_tier`, solver/partial.py), and past
        that its own optimum must be certified (`_certify`).

        A small model with only a repair (no restriction, no count model) keeps the
        repaired incumbent where it reaches the terms' own bounds (`floor`)."""
        self.model.clear_objective()
        if objective is not None:
            set_objective(self.model, *objective)
        known: int | None = None  # a lower bound of the objective over the full model
        reach = False  # any solution in the objective's domain is optimal (it starts at the count bound)
        if objective is not None and chunk and (self.optional or self.bound is not None):
            own = sum(w * self.floor(t) for t, w in chunk)
            least = self.bound(chunk, self.fixed) if self.bound is not None else None
            known = own if least is None else max(own, least)
            if least is not None and sum(w * self.value(t) for t, w in chunk) <= least:
                STATS["bounded"] += 1  # the incumbent is already optimal
                return
            lower = known
            if self._repaired(chunk, lower) <= lower:
                STATS["bounded"] += 1  # the repaired incumbent is optimal
                return
            if self._settled_run(chunk, lower):
                STATS["bounded"] += 1
                return
            if unpack:
                raise _Unpack
            # The bound as the objective's domain: no solution is lost (none is below
            # it), and a solve stops as soon as it finds one that reaches it instead of
            # using up its budget to prove what the bound already proves.
            top = sum(c for c in objective[1] if c > 0)
            if lower <= top:
                self.model.proto.objective.domain.extend([lower, top])
                reach = least is not None
            if self.partial:
                near = self._near_tier(chunk, lower, least is not None, top)
                if near is None:
                    return
                known = near
            for level in range(len(self.optional)):
                found_ = self._restricted_run(level, reach=reach)
                if found_ is None:
                    continue
                self._keep(found_[0])
                value = round(found_[0].objective_value)
                if value <= own:
                    return
                if least is not None and value <= least:
                    STATS["bounded"] += 1
                    return
                if least is None:
                    break  # nothing to reach: the full model decides
        elif objective is not None and chunk and self.repair is not None:
            own = sum(w * self.floor(t) for t, w in chunk)
            if self._repaired(chunk, own) <= own:
                STATS["bounded"] += 1  # the repaired incumbent meets the terms' own bound
                return
        # Without the LP first only where nothing tried it yet: restrictions did, in
        # their own runs, and a near model's certified run chose its own (partial.py).
        if reach and not self.optional and not self.partial:
            solver, status = self._reaching_run(None)
        else:
            solver, status = self.run()
        if status == cp_model.INFEASIBLE:
            if self.partial:
                self._refuted()
            raise InfeasibleError("no solution satisfies the hard constraints")
        if objective is None and not has_solution(status):
            raise SolveLimitError(f"feasibility not decided (status {solver.status_name(status)})")
        if objective is not None and status != cp_model.OPTIMAL:
            raise SolveLimitError(f"tier not proven optimal (status {solver.status_name(status)})")
        self._keep(solver)
        if objective is not None and self.partial:
            self._certify(round(solver.objective_value), known)

    def _settled_run(self, chunk: Chunk, lower: int) -> bool:
        """A solve with the incumbent's pairs away from what the chunk weighs kept as
        they are (`neighbourhood`), within the restricted budget: a small model whose
        solutions are the full model's.  Keeps its solution and returns True if it
        reaches `lower`."""
        if self.neighbourhood is None:
            return False
        keep = self.neighbourhood(chunk)
        return bool(keep) and self._run_keeping(keep, lower)

    def _run_keeping(self, keep: Sequence[int], lower: int) -> bool:
        """A solve with the Booleans `keep` fixed to 1, within the restricted budget: a
        small model whose solutions are the full model's.  Keeps its solution and
        returns True if it reaches `lower`."""
        with self.domains.fixing([(i, 1) for i in keep]):
            solver, status = self.run(lambda: self.call(budget=self.settings.restricted_budget))
        if not has_solution(status):
            return False
        self._keep(solver)
        return round(solver.objective_value) <= lower

    def floor(self, term: Term) -> int:
        """The lowest value `term` can take: from its coefficients, or the bound the
        model proves for it (`Term.least`)."""
        lo = term.bounds()[0]
        return lo if term.least is None else max(lo, term.least(self))

    def _repaired(self, chunk: Chunk, target: int) -> int:
        """Keep `repair`'s proposal (which aims at `target`) if it lowers the chunk's
        value and the model accepts it (one CP-SAT call with every variable fixed to
        it); return the chunk's value in the incumbent, repaired or not."""
        current = sum(w * self.value(t) for t, w in chunk)
        if self.repair is None:
            return current
        proposal = self.repair(chunk, target)
        if proposal is None:
            return current
        incumbent, self._values = self._values, proposal
        value = sum(w * self.value(t) for t, w in chunk)
        self._values = incumbent
        if value < current:
            checked = self._checked(proposal)
            if checked is not None:
                self._values = checked
                STATS["repaired"] += 1
                return value
        return current

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
        max_weight = self.settings.max_weight
        while i < len(terms):
            if max_solves is not None and solves == max_solves:
                break
            term = terms[i]
            if term.active is not None and not term.active(self):
                i += 1
                continue
            known = self.fixed_value(term)
            if known is not None:
                self._fix(term, known)
                out.append(known)
                i += 1
                continue
            settled = self._settled_value(term) if self.read_fixed_tiers else None
            if settled is not None:
                self._fix(term, settled)
                out.append(settled)
                i += 1
                continue
            lo, hi = term.bounds()
            value = self.value(term)
            at_least = term.least is not None and value == term.least(self)
            if not term.vars or value == lo or at_least:
                if at_least:
                    STATS["bounded"] += 1
                self._fix(term, value)
                out.append(value)
                i += 1
                continue
            # Pack this term with the following ones while the weights fit; a term that
            # is the same sum as one packed already is decided with it, without a weight.
            chunk = [term]
            j = i + 1
            while j < len(terms) and terms[j].active is None:
                if not any(terms[j].same_sum(t) for t in chunk):
                    if not fits(chunk + [terms[j]], max_weight):
                        break
                    chunk.append(terms[j])
                j += 1
            weighted = list(zip(chunk, weights(chunk)))
            indices: list[int] = []
            coefs: list[int] = []
            for t, w in weighted:
                indices += t.indices
                coefs += [c * w for c in t.coefs] if w != 1 else t.coefs
            if self.on_tier is not None:
                self.on_tier(term.name)
            try:
                self.solve((indices, coefs), weighted, unpack=self.partial and len(chunk) > 1)
            except _Unpack:
                # A near model proves one tier at a time more easily than a packed
                # objective (solve); the rest of the chunk comes next.
                j = i + 1
                self.solve((term.indices, term.coefs), [(term, 1)])
            solves += 1
            for t in terms[i:j]:
                val = self.value(t)
                self._fix(t, val)
                out.append(val)
            i = j
        self.model.clear_objective()
        return out, i

    def _settled_value(self, term: Term) -> int | None:
        """The value of `term` when every variable it weighs is a Boolean fixed for good
        (not by the restriction, which a solve lifts), else None."""
        fixed, restriction = self.domains.fixed, self.domains.restriction
        total = 0
        for c, i in zip(term.coefs, term.indices):
            v = fixed.get(i)
            if v is None or i in restriction:
                return None
            total += c * v
        return total

    def fix(self, term: Term, val: int) -> None:
        """Fix a tier at a value known from elsewhere (e.g. the same tier of another model)."""
        self._fix(term, val)

    def fixed_value(self, term: Term) -> int | None:
        """The value of a fixed tier that is the same sum as `term`, or None."""
        if not term.vars:
            return None
        for other, val in self._sums.get(term.sum_key(), ()):
            if other.same_sum(term):
                return val
        return None

    def _fix(self, term: Term, val: int) -> None:
        known = self.fixed_value(term)
        if known is not None:
            if known != val:
                raise InfeasibleError(f"{term.name} fixed at {val}, the same sum as a tier fixed at {known}")
            self.trace.append(term.tier(val))
            return
        if term.vars:
            self._sums.setdefault(term.sum_key(), []).append((term, val))
            forced = term.forced(val)
            if forced is not None:
                # The domains say it all, and CP-SAT drops fixed variables as it loads the
                # model, where a constraint over them (185,000 pairs for [C12] at 0 in a
                # 950-player bracket) is loaded and propagated on every call.
                self.domains.fix(forced)
            else:
                add_linear(self.model, term.indices, term.coefs, val)
            self.fixed.append((term, val))
            if not term.per_player:
                self.weighed.update(compress(term.indices, term.coefs))
        self.trace.append(term.tier(val))


class _Unpack(Exception):
    """A packed chunk of a near model that no shortcut settled: its tiers one by one."""
