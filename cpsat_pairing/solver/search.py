"""The fixed search: the solution of the fixed tiers that comes first in a given order.

Art. 4 generates candidates in an order; among candidates equal on every criterion,
the first generated wins.  Where that order is "each decision tried true before
false, in turn", the answer is the lexicographic maximum of the decision vector, and
a CP-SAT fixed search (CHOOSE_FIRST, SELECT_MAX_VALUE, no presolve) finds exactly it:
its first solution.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import nullcontext

from ortools.sat.python import cp_model
from ortools.sat.python import cp_model_helper as cmh

from cpsat_pairing.errors import SolveLimitError
from cpsat_pairing.solver.cpsat import Model, Status, Uncertified, has_solution, solution
from cpsat_pairing.solver.lex import LexSolver
from cpsat_pairing.solver.settings import propagation_budget


Literal = cp_model.IntVar | cmh.Literal
Reduction = cmh.DecisionStrategyProto.DomainReductionStrategy


def first_in_order(
    lex: LexSolver, decisions: Sequence[Literal], budget: float | None = None,
    ahead: Sequence[cp_model.IntVar] = (),
) -> bool | None:
    """Keep the solution of the fixed tiers that is first in the order of `decisions`;
    return False if there is none, and None (nothing kept) if the search with the LP
    used up `budget` (deterministic time).  `ahead`: Booleans that the completion after
    the decisions tries first, in this order (where they are true in the incumbent).

    Propagation alone (no LP) runs first, within `propagation_budget` below: with the
    class counts (counts.py) it refutes the candidates of a big bracket by itself, and
    the LP's re-solve at every decision would be most of the search.  Where it does not,
    the search soon thrashes and stops at that budget; the search with the LP then
    decides.  Both are complete searches in the same order: the same first solution.

    A model of part of the pairs (`LexSolver.partial`) searches its relaxation; its
    first solution is kept if it makes no far pair, else Uncertified is raised."""
    model = lex.model
    lex.domains.restrict(set())
    model.clear_objective()
    model.clear_hints()
    # After the decisions, the incumbent's true Booleans are tried true: the search
    # would otherwise set the rest (the round below the bracket) to 0 one by one and
    # repair what that breaks.
    decided = [v.index for v in decisions]  # a negated Boolean: -index - 1
    done = {r if r >= 0 else -r - 1 for r in decided}
    values = lex.values
    completion = [i for i in lex.all_indices() if values.get(i) and i not in done]
    # The order of what follows the decisions changes which completion is found, not
    # the decisions' values; a decision there costs a rescan of the whole list
    # (CHOOSE_FIRST starts from the top), so what settles the most goes first.
    first = [v.index for v in ahead if values.get(v.index) and v.index not in done]
    put = set(first)
    completion = first + [i for i in completion if i not in put]
    _add_strategy(model, decided, cp_model.SELECT_MAX_VALUE)
    if lex.partial:
        # A model of part of the pairs searches its relaxation, whose refutations hold
        # for the full model (LexSolver.use_relaxation).  Right after the decisions, no
        # far pair is tried first: a completion by near pairs if there is one, before
        # the incumbent's choices below are revisited.
        assert lex.relax is not None
        _add_strategy(model, [lex.relax, *lex.far], cp_model.SELECT_MIN_VALUE)
    _add_strategy(model, completion, cp_model.SELECT_MAX_VALUE)
    with lex.relaxed() if lex.partial else nullcontext():
        solver, status = _fixed_search(lex, propagation_budget(lex.settings, len(model.proto.variables)), lp=False)
        if not has_solution(status) and status != cp_model.INFEASIBLE:
            solver, status = _fixed_search(lex, budget, lp=True)
    model.proto.search_strategy.clear()
    if status == cp_model.INFEASIBLE:
        return False
    if not has_solution(status):
        if budget is not None and solver.deterministic_time >= budget:
            return None
        raise SolveLimitError(f"feasibility not decided (status {solver.status_name(status)})")
    values = solution(solver)
    if lex.uses_far(values):
        raise Uncertified("the first transposition of the relaxation makes a far pair", values=values)
    lex.set_incumbent(values)
    return True


def _add_strategy(model: Model, refs: Sequence[int], value: Reduction) -> None:
    """Decide these literals (by reference: a negated Boolean is -index - 1) in this
    order, each to `value` first."""
    strategy = model.proto.search_strategy.add()
    if all(r >= 0 for r in refs):
        strategy.variables.extend(refs)
    else:  # a negated Boolean as the expression 1 - b
        for r in refs:
            expr = strategy.exprs.add()
            expr.vars.append(r if r >= 0 else -r - 1)
            expr.coeffs.append(1 if r >= 0 else -1)
            expr.offset = 0 if r >= 0 else 1
    strategy.variable_selection_strategy = cp_model.CHOOSE_FIRST
    strategy.domain_reduction_strategy = value


def _fixed_search(lex: LexSolver, budget: float | None, lp: bool) -> tuple[cp_model.CpSolver, Status]:
    """One run of the fixed search set up by `first_in_order`, within `budget`."""
    solver = lex.new_solver()
    solver.parameters.search_branching = cp_model.FIXED_SEARCH
    if not lp:
        solver.parameters.linearization_level = 0
    else:
        # Every linear constraint in the LP from the start: the search re-solves it at
        # each of its few decisions, and adding the violated rows lazily costs more
        # rounds of it (a 137-player 2017 bracket's MDP partner: 0.29 -> 0.21 units).
        solver.parameters.add_lp_constraints_lazily = False
        # And no cuts: they seldom refute a candidate the LP alone does not, and
        # separating them at each decision is a third of a big bracket's search.
        solver.parameters.cut_level = 0
    # No presolve: it may drop solutions dominated by others (possibly the first) and
    # rewrite the decision literals; either loses the order.
    solver.parameters.cp_model_presolve = False
    if budget is not None:
        solver.parameters.max_deterministic_time = budget
    # A solution `accept` rejects is cut off; the next one found is again the first.
    return lex.run(lambda: (solver, lex.timed(solver)))
