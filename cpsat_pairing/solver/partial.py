"""A model of part of the pairs (dutch/near.py) in the lexicographic solver: its
relaxation and the certificates that make its answers the full model's.

`LexSolver` takes these methods from `PartialModel`; a model becomes partial with
`use_relaxation`.  Every solve then runs on the near pairs alone, whose solutions are
solutions of the full model; an answer that depends on the pairs left out is asked
again of the relaxation (the far pairs counted by class), and without a certificate
`Uncertified` hands the bracket to the next model.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

from ortools.sat.python import cp_model

from cpsat_pairing.solver.cpsat import Model, Status, found, has_solution, solution
from cpsat_pairing.records import STATS, InfeasibleError, Uncertified
from cpsat_pairing.solver.terms import Term

if TYPE_CHECKING:
    from cpsat_pairing.solver.domains import Domains
    from cpsat_pairing.solver.settings import SolverSettings

Chunk = Sequence[tuple[Term, int]]  # terms packed into one objective, with their weights
OptimumKey = tuple[tuple[tuple[str, int], ...], tuple[str, ...]]


class PartialModel:
    """The part of `LexSolver` that a model of part of the pairs uses."""

    if TYPE_CHECKING:  # what it uses of the solver it is part of (solver/lex.py)
        model: Model
        settings: SolverSettings
        domains: Domains
        fixed: list[tuple[Term, int]]
        _values: dict[int, int]

        def run(self, call: Callable[[], tuple[cp_model.CpSolver, Status]] | None = None) -> tuple[cp_model.CpSolver, Status]: ...
        def call(self, hint_only: bool = False, budget: float | None = None, level: int | None = None,
                 lp: bool = True, cuts: bool = True) -> tuple[cp_model.CpSolver, Status]: ...
        def value(self, term: Term) -> int: ...
        def _feasible(self) -> tuple[cp_model.CpSolver, Status]: ...
        def _propagation(self, level: int | None = None) -> tuple[cp_model.CpSolver, Status]: ...
        def _keep(self, solver: cp_model.CpSolver) -> None: ...
        def _run_keeping(self, keep: Sequence[int], lower: int) -> bool: ...
        def _first_then(self, first: Callable[[], tuple[cp_model.CpSolver, Status]],
                        then: Callable[[], tuple[cp_model.CpSolver, Status]], counter: str,
                        keep: bool = True) -> tuple[cp_model.CpSolver, Status]: ...

    def start_partial(self) -> None:
        """Not partial until `use_relaxation`."""
        # The Boolean that lets the far pairs be made, and the Booleans that say a far
        # pair is made.
        self.relax: int | None = None
        self.far: list[int] = []
        # The relaxation's optima proven for this bracket, by the tiers fixed before and
        # the chunk's tiers (`_optimum_key`): each is a lower bound of the full model's
        # optimum, so a near model of the same bracket made again with more pairs
        # starts from them instead of solving its relaxation again.
        self.known_optima: dict[OptimumKey, int] = {}
        self.propagate_first = False
        # The pairs (by index) of a relaxation's solution that did better by far pairs
        # in a near model of this bracket with fewer pairs, and the tier it was for
        # (`realise`).
        self.realisation: tuple[OptimumKey, list[int]] | None = None

    def use_relaxation(self, relax: int, far: Sequence[int], propagate_first: bool = False) -> None:
        """The model holds part of the pairs (dutch/near.py): the others are counted by
        variables that the Boolean `relax` at 0 keeps at 0, and `far` say a player is
        paired by one of them.

        Every solve runs with `relax` at 0: the near pairs alone, whose solutions are
        the full model's.  An answer that depends on the pairs left out -- an optimum
        above every known lower bound, a "no" -- is asked again of the relaxation
        (`relax` free: every full solution is one of its solutions); where that does not
        confirm it, `Uncertified` is raised and a model of every pair decides.

        `propagate_first`: a certified run first searches on propagation alone, as a
        reaching run does: a model of pairs and downfloaters alone reaches its bound so
        (the 2017 bracket alone), where one that counts the players below does not."""
        self.propagate_first = propagate_first
        self.relax = relax
        self.far = list(far)
        self.domains.fix([(relax, 0)])

    def realise(self, key: OptimumKey, pairs: list[int]) -> None:
        """Try these pairs first on the tier `key`: the near pairs of a relaxation's
        solution that reached its optimum by far pairs, in a model made again with the
        far pairs it may stand for.  With them kept, the rest is the few players that
        solution paired by far pairs: a small search finds how the new pairs join them,
        where the search of the whole near model, hinted with a solution that misses
        the bound, runs out of its budget (`_near_tier`)."""
        self.realisation = (key, pairs)

    @property
    def partial(self) -> bool:
        """A model of part of the pairs (`use_relaxation`)."""
        return self.relax is not None

    @contextmanager
    def relaxed(self) -> Iterator[None]:
        """The relaxation: the far pairs free (`use_relaxation`)."""
        assert self.relax is not None
        saved = self.domains.release(self.relax)
        try:
            yield
        finally:
            self.domains.restore(saved)

    def uses_far(self, values: dict[int, int]) -> bool:
        """Whether a solution of the relaxation makes a far pair (then it is not one of
        the full model's as it stands)."""
        return any(values.get(i, 0) for i in self.far)

    def near_solution(self) -> None:
        """Take a solution of the near pairs with what is fixed as the incumbent;
        Uncertified if the near pairs have none (the relaxation has one)."""
        self.model.clear_objective()
        solver, status = self._feasible()
        if not found(solver, status):
            raise InfeasibleError("no solution satisfies the hard constraints")
        self._keep(solver)

    def _refuted(self) -> bool:
        """A "no" of the near pairs, asked again of the relaxation (the objective, if
        any, stays): True if it confirms it; raises Uncertified if not."""
        _, status = self._relaxation_run()
        if status == cp_model.INFEASIBLE:
            return True
        raise Uncertified("the pairs left out may answer yes")

    def _relaxation_run(self) -> tuple[cp_model.CpSolver, Status]:
        """`run` on the relaxation, hinted with the incumbent, within `relaxed_budget`."""
        with self.relaxed():
            return self._light_first(keep=False)

    def _light_first(self, keep: bool) -> tuple[cp_model.CpSolver, Status]:
        """`run` within `relaxed_budget`, after a try with the LP of the linear
        constraints alone within `light_budget` (SolverSettings): kept if it proves
        its answer (reaches the objective domain's lower bound, or finds none).  With
        `keep`, what that try found short of it hints the search with the cuts."""
        light = self.settings.light_budget

        if light <= 0:
            return self.run(self._with_cuts)
        return self._first_then(lambda: self.call(budget=light, cuts=False), self._with_cuts, "light", keep)

    def _with_cuts(self) -> tuple[cp_model.CpSolver, Status]:
        """The search with the LP and its cuts, within `relaxed_budget`."""
        return self.call(budget=self.settings.relaxed_budget)

    def _relaxation_reaches(self, value: int) -> bool:
        """Whether the relaxation proves that no solution does better than `value` (its
        optimum, within the objective's domain, is `value` or more)."""
        solver, status = self._relaxation_run()
        return status == cp_model.OPTIMAL and round(solver.objective_value) >= value

    def _near_tier(self, chunk: Chunk, lower: int, bounded: bool, top: int) -> int | None:
        """A tier of a model of part of the pairs that the incumbent, the repair and the
        settled run left above `lower` (the count model's bound, if `bounded`, or the
        terms' own): None if settled here, else the best lower bound known, which the
        objective's domain then starts at.  Raises Uncertified when only far pairs
        reach the relaxation's optimum.

        The near pairs' best within a budget comes first if a bound is known: the count
        model's (where the near pairs fall short of it, the relaxation has so far
        proven the same bound) or the relaxation's optimum that a near model of this
        bracket with fewer pairs proved.  Reached, it needs no relaxation solved."""
        key = self._optimum_key(chunk)
        carried = self.known_optima.get(key)
        tried: int | None = None
        if carried is not None or bounded:
            tried = lower if carried is None else max(lower, carried)
            if tried > top:
                tried = None
            else:
                self._objective_domain(tried, top)
                if self._realised(key, tried) or self._certified_run(tried, proven=True):
                    return None
                self._objective_domain(lower, top)
        relaxed = self._relaxed_bound(chunk, lower)
        if relaxed is None:
            return None  # the incumbent or the relaxation's solution is optimal
        lower, far_optimum = relaxed
        if far_optimum is not None:  # the relaxation's optimum, proven
            self.known_optima[key] = lower
        self._objective_domain(lower, top)
        # Again if the relaxation raised the bound above what was tried.
        if (tried is None or lower > tried) and self._certified_run(lower, proven=far_optimum is not None):
            return None
        if far_optimum is not None:
            # The relaxation's optimum is reached only by far pairs so far: a near model
            # with them may reach it, and this one cannot prove what it would need to
            # (that nothing does) in any fair time.
            failure = Uncertified("the relaxation does better by far pairs", values=far_optimum)
            failure.key = key
            raise failure
        return lower

    def _realised(self, key: OptimumKey, target: int) -> bool:
        """The pairs of `realisation` kept, if it is for this tier: True if a solution
        then reaches `target`, a proven lower bound (it is kept as the incumbent)."""
        if self.realisation is None or self.realisation[0] != key:
            return False
        pairs = self.realisation[1]
        self.realisation = None
        if self._run_keeping(pairs, target):
            STATS["realised"] += 1
            return True
        return False

    def _objective_domain(self, lower: int, top: int) -> None:
        """The objective's values limited to [lower, top] (none if empty: no limit)."""
        domain = self.model.proto.objective.domain
        domain.clear()
        if lower <= top:
            domain.extend([lower, top])

    def _certify(self, value: int, known: int | None) -> None:
        """The optimum `value` of the near pairs is the full model's when it reaches a
        lower bound `known` of it, or the relaxation's optimum (hinted with it): else
        Uncertified."""
        if (known is None or value > known) and not self._relaxation_reaches(value):
            raise Uncertified("the pairs left out may do better")

    def _certified_run(self, known: int, proven: bool = False) -> bool:
        """The near pairs' best solution within `relaxed_budget`, kept if it reaches
        `known` or the relaxation (hinted with it) proves that nothing does better: the
        near model need not prove its own optimum, which can take far longer than the
        relaxation's proof.  False if neither settles it (the unbounded solve decides).
        `proven`: `known` is this relaxation's optimum, so it proves nothing above it.
        With the LP from the start (`_light_first`, not `_reaching_run`): the near pairs
        of a model that counts the players below seldom reach the bound on propagation
        alone, and a big model's failed try costs seconds; a model with
        `propagate_first` searches on propagation alone first, then with the cuts."""
        if self.propagate_first:
            solver, status = self._first_then(self._propagation, self._with_cuts, "propagated")
        else:
            solver, status = self._light_first(keep=True)
        if not has_solution(status):
            return False
        self._keep(solver)
        value = round(solver.objective_value)
        if value <= known:
            return True
        if not proven and self._relaxation_reaches(value):
            STATS["bounded"] += 1
            return True
        return False

    def _optimum_key(self, chunk: Chunk) -> OptimumKey:
        """What a relaxation's optimum of `chunk` is known by (`known_optima`): the tiers
        fixed before it, with their values, and the chunk's tiers."""
        return tuple((t.name, v) for t, v in self.fixed), tuple(t.name for t, _ in chunk)

    def _relaxed_bound(self, chunk: Chunk, lower: int) -> tuple[int, dict[int, int] | None] | None:
        """The relaxation's optimum of the objective set (a lower bound of the full
        model's, often tighter than the count model's) and its solution, which makes far
        pairs; None when it settles the tier: the incumbent reaches it, or the
        relaxation's optimal solution makes no far pair (then it is the incumbent).
        (`lower`, None) if the relaxation is not solved within `relaxed_budget`."""
        solver, status = self._relaxation_run()
        if status != cp_model.OPTIMAL:
            return lower, None
        bound = round(solver.objective_value)
        if sum(w * self.value(t) for t, w in chunk) <= bound:
            STATS["bounded"] += 1
            return None
        values = solution(solver)
        if not self.uses_far(values):
            self._values = values
            STATS["bounded"] += 1
            return None
        return max(lower, bound), values
