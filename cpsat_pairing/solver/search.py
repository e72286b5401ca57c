"""The fixed search: the solution of the fixed tiers that comes first in a given order.

Art. 4 generates candidates in an order; among candidates equal on every criterion,
the first generated wins.  Where that order is "each decision tried true before
false, in turn", the answer is the lexicographic maximum of the decision vector, and
a CP-SAT fixed search (CHOOSE_FIRST, SELECT_MAX_VALUE, no presolve) finds exactly it:
its first solution.

The walk (`first_candidate`) looks for that solution in Python first, where the
decisions come in rows ("S1[1] meets q" for each q in turn, then S1[2]'s, ...) and the
fixed tiers' sums decide most of the order.  Walked depth first in the search's order,
the rows give the candidates in the same order; a branch is cut only where no solution
can lie below it (a player meets at most one other; each fixed tier is a sum that must
equal its value, which a branch whose decided part plus the least, or most, the rest
can bring misses).  The first candidate that passes is therefore the search's answer
whenever the model accepts it; where the model rejects it (a constraint that is not a
fixed tier), or the walk is longer than its budget, nothing is concluded and the
CP-SAT search decides.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from contextlib import nullcontext

from ortools.sat.python import cp_model
from ortools.sat.python import cp_model_helper as cmh

from cpsat_pairing.errors import SolveLimitError
from cpsat_pairing.solver.cpsat import Model, Status, has_solution, solution
from cpsat_pairing.records import Uncertified
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


# -- the walk: the search's first candidate in Python ----------------------------------

# One row's options: (the other player, the decision's variable index), in order.
Row = Sequence[tuple[int, int]]


class _Sum:
    """A fixed tier's sum split into the decisions' part and the rest's range."""

    __slots__ = ("coef", "low", "high", "value")

    def __init__(self, coef: dict[int, int], low: int, high: int, value: int) -> None:
        self.coef = coef
        self.low = low
        self.high = high
        self.value = value


def _sums(lex: LexSolver, decided: frozenset[int], fixed: dict[int, int], derived: dict[int, list[int]]) -> list[_Sum]:
    """The fixed tiers that weigh a decision: their coefficients on the decisions, and
    the least and most the other variables can add (fixed ones their value, one that
    is 1 less some decisions (`derived`) as that, Booleans 0 or 1, a bounded integer 0
    to its bound)."""
    out = []
    for term, value in lex.fixed:
        coef: dict[int, int] = {}
        low = high = 0
        upper = term.upper or {}
        for c, i in zip(term.coefs, term.indices):
            if i in decided:
                coef[i] = coef.get(i, 0) + c
                continue
            minus = derived.get(i)
            if minus is not None:
                low += c
                high += c
                for j in minus:
                    coef[j] = coef.get(j, 0) - c
                continue
            v = fixed.get(i)
            if v is not None:
                low += c * v
                high += c * v
                continue
            top = upper.get(i, 1)
            low += min(0, c * top)
            high += max(0, c * top)
        if coef:
            out.append(_Sum(coef, low, high, value))
    return out


def first_candidate(lex: LexSolver, rows: Sequence[Row], budget: int, known: dict[int, int] | None = None,
                    derived: dict[int, list[int]] | None = None, paired: Collection[int] = (),
                    closed: Collection[int] = (), wanted: Collection[int] = ()) -> list[int | None] | None:
    """The first choice, row by row in order (an option, else none), of which no fixed
    tier's sum rules out every completion; each player chosen at most once, a decision
    fixed to 0 (or `closed`: 0 in every solution) never chosen, one fixed to 1 always,
    one of each row in `paired`, and each player of `wanted` chosen by some row.
    `known`: the values every solution has (by index; default: the fixed domains but
    the restriction's, which the fixed search lifts); `derived`: variables that are 1
    less the sum of some decisions in every solution.  Returns the chosen variable
    index per row (None: the row's decisions all false), or None after `budget`
    branches or where there is no such choice."""
    fixed = known if known is not None else lex.domains.for_good()
    decided = frozenset(i for row in rows for _, i in row)
    sums = _sums(lex, decided, fixed, derived or {})
    n = len(rows)
    options: list[list[tuple[int, int]]] = []
    for r, row in enumerate(rows):
        forced = [(q, i) for q, i in row if fixed.get(i) == 1]
        free = [(q, i) for q, i in row if fixed.get(i) != 0 and i not in closed]
        # (-1, -1): none of the row's decisions true, tried last; not where one is fixed.
        options.append(forced if forced else free if r in paired else [*free, (-1, -1)])
    # What the rows from r on can still add to each sum: suffix totals of each row's
    # least and most.
    lows = [[0] * (n + 1) for _ in sums]
    highs = [[0] * (n + 1) for _ in sums]
    for k, s in enumerate(sums):
        coef = s.coef
        for r in range(n - 1, -1, -1):
            gains = [coef.get(i, 0) for _, i in options[r]]
            lows[k][r] = lows[k][r + 1] + min(gains)
            highs[k][r] = highs[k][r + 1] + max(gains)
    partial = [0] * len(sums)
    # The last row that can still choose each wanted player.
    last = {q: max((r for r, row in enumerate(options) if any(o == q for o, _ in row)), default=-1) for q in wanted}

    def fits(r: int) -> bool:
        """Can the rows from `r` on still meet every sum, and choose every wanted
        player not chosen yet?"""
        if any(last[q] < r and q not in taken for q in wanted):
            return False
        return all(s.low + lows[k][r] <= s.value - partial[k] <= s.high + highs[k][r] for k, s in enumerate(sums))

    def add(i: int, sign: int) -> None:
        for k, s in enumerate(sums):
            partial[k] += sign * s.coef.get(i, 0)

    chosen: list[tuple[int, int]] = [(-1, -1)] * n
    tried = [0] * n  # the next option of each row
    taken: set[int] = set()
    if not fits(0):
        return None
    r = 0
    while r < n:
        row = options[r]
        while tried[r] < len(row):
            q, i = row[tried[r]]
            tried[r] += 1
            if q in taken:
                continue
            budget -= 1
            if budget < 0:
                return None
            add(i, 1)
            if q >= 0:
                taken.add(q)
            if fits(r + 1):
                chosen[r] = (q, i)
                r += 1
                if r < n:
                    tried[r] = 0
                break
            add(i, -1)
            taken.discard(q)
        else:
            r -= 1  # every option of row r failed: back to the row before
            if r < 0:
                return None
            q, i = chosen[r]
            add(i, -1)
            taken.discard(q)
    return [i if i >= 0 else None for _, i in chosen]
