"""Lexicographic terms and the tiers they become once solved.

A *term* is one component of a lexicographic objective: minimise sum(coef * var) over
Booleans.  Once its optimum is fixed it is recorded as a *tier*: which criterion (or
which step of the generation order), what it counts, and its value.  Tiers are values:
check mode compares two pairings tier by tier, explanations read them, and nothing
needs to parse a display string to know what a tier is (cpsat_pairing/records.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from ortools.sat.python import cp_model

from cpsat_pairing.solver.cpsat import BOOLEAN, INT_MAX, INT_MIN, Model
from cpsat_pairing.records import Tier as Tier, TierKind as TierKind

if TYPE_CHECKING:
    from cpsat_pairing.solver.lex import LexSolver


@dataclass
class Term:
    """One lexicographic component: minimise sum(coef * var) over Booleans, and over the
    integers of `upper` (a near model's counts of far pairs, dutch/near.py)."""

    criterion: str
    detail: str
    coefs: list[int]
    vars: list[cp_model.IntVar]
    kind: TierKind = TierKind.QUALITY
    one_hot: bool = False  # exactly one of `vars` is true (e.g. "the partner of p")
    subject: int | None = None  # see Tier.subject
    # A tier that applies only in some solutions of the tiers above (e.g. [C9]): asked
    # with the solver once those are fixed.
    active: Callable[[LexSolver], bool] | None = None
    # A lower bound the model proves once the tiers above are fixed (asked with the
    # solver then): an incumbent that meets it is optimal without a solve.
    least: Callable[[LexSolver], int] | None = None
    # A pair inside the bracket between two residents weighs what its two players each
    # bring (e.g. "paired residents who floated down"), so re-pairing the same residents
    # among themselves keeps the term's value: the repair (repair.py) may move such pairs.
    per_player: bool = False
    # Variables that are not Booleans, by index, with their upper bounds (lower: 0).
    upper: dict[int, int] | None = None
    # The term counts the pairs of two players who prefer the same colour, each once
    # (2026 [C12]): a near model's certificate reasons with it (dutch/near.py).
    same_colour: bool = False
    _indices: list[int] | None = field(default=None, repr=False, compare=False)
    # Read on every tier that packs or weighs the term (a big bracket's [C12] has
    # 400,000 coefficients); a term's coefficients do not change once it is made.
    _bounds: tuple[int, int] | None = field(default=None, repr=False, compare=False)
    _magnitude: int | None = field(default=None, repr=False, compare=False)
    # Looked up twice for every tier fixed (LexSolver.fixed_value, _fix).
    _sum_key: tuple[int, int, int] | None = field(default=None, repr=False, compare=False)
    # `forced`'s least value (None: never forced) and the values it forces.
    _forced: tuple[int | None, list[tuple[int, int]]] | None = field(default=None, repr=False, compare=False)
    _maximised: bool | None = field(default=None, repr=False, compare=False)

    @property
    def name(self) -> str:
        return self.tier(0).name

    @property
    def maximised(self) -> bool:
        """Solved negated: every coefficient is negative (a count the rules maximise)."""
        if self._maximised is None:
            self._maximised = bool(self.coefs) and all(c < 0 for c in self.coefs)
        return self._maximised

    def tier(self, value: int) -> Tier:
        return Tier.of(self.criterion, self.detail, value, self.kind, self.maximised, self.subject)

    @property
    def indices(self) -> list[int]:
        """The variables' proto indices (read once: each read crosses into C++)."""
        if self._indices is None:
            self._indices = [v.index for v in self.vars]
        return self._indices

    def bounds(self) -> tuple[int, int]:
        if self._bounds is None:
            if self.one_hot and self.coefs:
                self._bounds = min(self.coefs), max(self.coefs)
            else:
                scaled = self.scaled()
                self._bounds = sum(c for c in scaled if c < 0), sum(c for c in scaled if c > 0)
        return self._bounds

    def scaled(self) -> list[int]:
        """Each coefficient times its variable's upper bound: what the variable can add."""
        if not self.upper:
            return self.coefs
        upper = self.upper
        return [c * upper.get(i, 1) for c, i in zip(self.coefs, self.indices)]

    def magnitude(self) -> int:
        """The largest absolute value the term's sum can take: its largest coefficient
        when one-hot (exactly one of its Booleans is true), else all of them added up."""
        if self._magnitude is None:
            if self.one_hot and self.coefs:
                self._magnitude = max(abs(c) for c in self.coefs)
            else:
                self._magnitude = sum(abs(c) for c in self.scaled())
        return self._magnitude

    def sum_key(self) -> tuple[int, int, int]:
        """A key under which terms that are the same sum meet (`same_sum`)."""
        if self._sum_key is None:
            self._sum_key = len(self.indices), hash(tuple(self.indices)), hash(tuple(self.coefs))
        return self._sum_key

    def same_sum(self, other: Term) -> bool:
        """The same variables with the same coefficients, in the same order."""
        return self.indices == other.indices and self.coefs == other.coefs

    def forced(self, val: int) -> list[tuple[int, int]] | None:
        """A tier fixed at the least value its coefficients allow leaves every Boolean it
        weighs at its own bound (0 for a positive weight, 1 for a negative one), and every
        integer of a positive weight at 0: those values (index, value), or None if the value
        is above that least one.  Not for a one-hot term, whose least value is one of its
        coefficients."""
        if self.one_hot:
            return None
        if self._forced is None:
            self._forced = self._least_and_forced()
        least, forced = self._forced
        return forced if least is not None and val == least else None

    def _least_and_forced(self) -> tuple[int | None, list[tuple[int, int]]]:
        """`forced`'s least value (None: never forced) and the values it forces."""
        indices = self.indices
        if not self.upper and len(set(indices)) == len(indices):
            # Booleans, each once (most terms): each coefficient is its variable's weight.
            coefs = self.coefs
            return sum(c for c in coefs if c < 0), [(i, 0 if c > 0 else 1) for c, i in zip(coefs, indices) if c]
        weight: dict[int, int] = {}
        for c, i in zip(self.coefs, indices):
            weight[i] = weight.get(i, 0) + c
        upper = self.upper or {}
        if any(c < 0 for i, c in weight.items() if i in upper):
            return None, []  # an integer at its upper bound: a constraint states it
        return sum(c for c in weight.values() if c < 0), [(i, 0 if c > 0 else 1) for i, c in weight.items() if c]

    def expr(self) -> cp_model.LinearExprT:
        return cp_model.LinearExpr.weighted_sum(self.vars, self.coefs)


def make_term(
    criterion: str, detail: str, weighted: Iterable[tuple[int, cp_model.IntVar]], *,
    kind: TierKind = TierKind.QUALITY, one_hot: bool = False, subject: int | None = None,
) -> Term:
    """A term from (coefficient, variable) pairs; zero coefficients are left out."""
    coefs: list[int] = []
    vs: list[cp_model.IntVar] = []
    for c, v in weighted:
        if c:
            coefs.append(c)
            vs.append(v)
    return Term(criterion, detail, coefs, vs, kind, one_hot, subject=subject)


def weights(chunk: Sequence[Term]) -> list[int]:
    """Weights making a weighted sum order like the terms lexicographically."""
    out = []
    w = 1
    for t in reversed(chunk):
        out.append(w)
        lo, hi = t.bounds()
        w *= hi - lo + 1
    return out[::-1]


def fits(chunk: Sequence[Term], max_weight: int) -> bool:
    """The packed objective stays within `max_weight`, even as CP-SAT bounds it (from
    every coefficient, not from the one-hot structure)."""
    return sum(w * t.magnitude() for t, w in zip(chunk, weights(chunk))) <= max_weight


def set_objective(model: Model, indices: list[int], coefs: list[int]) -> None:
    """minimise sum(coefs * variables), written into the proto (the modelling layer reads
    each variable's index through C++)."""
    objective = model.proto.objective
    objective.vars.extend(indices)
    objective.coeffs.extend(coefs)
    objective.scaling_factor = 1.0


def new_booleans(model: Model, count: int) -> list[cp_model.IntVar]:
    """`count` unnamed Booleans, the next proto indices in order.  `new_bool_var` makes
    a new domain object for each (a third of its cost): a big bracket has hundreds of
    thousands of pair variables, and nothing reads their names."""
    proto = model.proto
    return [cp_model.IntVar(proto).with_domain(BOOLEAN) for _ in range(count)]


# The linear constraints written below, by model and position, as the lists they were
# written from: reading a big constraint back from the proto costs ten times more than
# writing it (evaluate.py takes them from here instead, and drops them).
WRITTEN: WeakKeyDictionary[Model, dict[int, tuple[list[int], list[int] | None, int, int]]] = (
    WeakKeyDictionary()
)


def _written(model: Model) -> dict[int, tuple[list[int], list[int] | None, int, int]]:
    log = WRITTEN.get(model)
    if log is None:
        log = WRITTEN[model] = {}
    return log


def add_sum(model: Model, indices: list[int], lo: int = INT_MIN, hi: int = INT_MAX) -> None:
    """lo <= sum(variables) <= hi, written into the proto as `model.add(sum(...) <= hi)`
    would write it (the same constraint: the same search), without building the
    expression term by term."""
    constraints = model.proto.constraints
    indices = list(indices)  # a copy for the log: callers may reuse theirs
    _written(model)[len(constraints)] = (indices, None, lo, hi)
    linear = constraints.add().linear
    linear.vars.extend(indices)
    linear.coeffs.extend([1] * len(indices))
    linear.domain.extend([lo, hi])


def add_linear(model: Model, indices: list[int], coefs: list[int], value: int) -> None:
    """sum(coefs * variables) == value, written into the proto."""
    add_weighted(model, indices, coefs, value, value)


def add_weighted(model: Model, indices: list[int], coefs: list[int], lo: int, hi: int) -> None:
    """lo <= sum(coefs * variables) <= hi, written into the proto."""
    constraints = model.proto.constraints
    indices, coefs = list(indices), list(coefs)  # copies for the log: callers may reuse theirs
    _written(model)[len(constraints)] = (indices, coefs, lo, hi)
    linear = constraints.add().linear
    linear.vars.extend(indices)
    linear.coeffs.extend(coefs)
    linear.domain.extend([lo, hi])


def add_sums(model: Model, parts: Sequence[tuple[int, Iterable[cp_model.IntVar]]], lo: int, hi: int) -> None:
    """lo <= sum(c * sum(variables) for c, variables in parts) <= hi, written into the
    proto exactly as `model.add` writes that expression (the variables in index order;
    with none, the constant's truth), without building it through the modelling layer
    term by term: a model's few sums over a family of its variables.  Each variable
    appears in one part only."""
    coefs = {v.index: c for c, variables in parts for v in variables}
    if not coefs:
        model.add(lo <= 0 <= hi)
        return
    indices = sorted(coefs)
    add_weighted(model, indices, [coefs[i] for i in indices], lo, hi)
