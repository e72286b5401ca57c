"""Checking a complete proposal against a model without a CP-SAT call.

A proposal (a repaired incumbent, a witness of "no exchange": solver/repair.py) fixes
every decision variable; CP-SAT checks it with each of them fixed to its value.  On a
big bracket that call is mostly loading: two million terms validated, copied and
propagated once, 0.5-1 s, to evaluate sums.  The same sums in numpy take milliseconds.

The evaluation is exact or gives up: every constraint of the model is evaluated (linear
with its domain and enforcement, bool_or, bool_and, at_most_one, exactly_one); a
variable the proposal leaves open is derived from an equality that determines it (a
class count, solver/counts.py) and checked against its own domain; anything else -- a
constraint of another kind, an open variable no equality determines, assumptions --
and CP-SAT decides as before.  A "no" is only ever a cost (the caller then searches),
never a lost solution: the evaluator says no only when a constraint is violated.

Domains: a decision variable is a Boolean whose domain is [0, 1] unless `Domains` has
fixed it (its mirror is passed in); that is how every bracket model makes them
(new_bool_var, terms.new_booleans).  A value other than 0 or 1, and every derived
variable, is checked against the domain read from the proto.

Two evaluations of the same constraints, the same way: in plain Python for a small
model (`PlainEvaluator`), in numpy for a big one (`ArrayEvaluator`).  Numpy is imported
only when a model is big enough for it to pay: a small model's evaluation takes a
millisecond or two either way, and numpy's import costs a fresh process a tenth of a
second, more than pairing a small round's brackets.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from itertools import repeat
from typing import TYPE_CHECKING, Any, Literal, Protocol

from cpsat_pairing.solver.cpsat import Model, read
from cpsat_pairing.solver.terms import WRITTEN

if TYPE_CHECKING:
    import numpy as np

# A literal constraint's kind (its index in the proto's names): what must hold of its
# literals once enforced.
LITERAL_KINDS = ("bool_or", "bool_and", "at_most_one", "exactly_one")
OR, AND, AT_MOST_ONE, EXACTLY_ONE = range(4)


def _force(x: Any, known: Any, derived: list[int], refs: Iterable[int]) -> None:
    """Set each literal of `refs` true (a variable's index, or -index - 1 for its
    negation) in `x`, mark it known and record it: both evaluators' unit step."""
    for ref in refs:
        i = ref if ref >= 0 else -ref - 1
        x[i], known[i] = (1 if ref >= 0 else 0), True
        derived.append(i)


def in_domain(value: int, domain: tuple[int, ...]) -> bool:
    """Whether `value` lies in a proto domain (sorted intervals, flattened)."""
    return any(domain[k] <= value <= domain[k + 1] for k in range(0, len(domain), 2))


@dataclass
class _Linear:
    enforcement: list[int]
    vars: list[int]
    coefs: list[int]
    domain: tuple[int, ...]

    @property
    def simple(self) -> bool:
        """Unenforced, one interval, some terms (the arrays' flattened pass)."""
        return not self.enforcement and len(self.domain) == 2 and bool(self.vars)


@dataclass
class _Literals:
    kind: int
    enforcement: list[int]
    literals: list[int]


@dataclass
class _Mirror:
    """The model's constraints as read so far (a model's constraints only grow)."""

    read: int = 0
    supported: bool = True
    linear: list[_Linear] = field(default_factory=list)
    literals: list[_Literals] = field(default_factory=list)


def _has(name: str) -> Callable[[Any], bool]:
    return operator.methodcaller(f"has_{name}")


# Each kind's test and field, made once (a getattr by a formatted name per constraint
# was most of reading a small model's constraints).
_HAS_LITERALS = [_has(name) for name in LITERAL_KINDS]
_LITERALS_OF = [operator.attrgetter(name) for name in LITERAL_KINDS]


def _value(x: list[int], ref: int) -> int:
    """A literal's value (a negative reference -i-1 is the negation of variable i)."""
    return x[ref] if ref >= 0 else 1 - x[-ref - 1]


def _split(refs: list[int]) -> tuple[list[int], list[int]]:
    """Literals as (variables of the positive ones, variables of the negated ones)."""
    return [r for r in refs if r >= 0], [-r - 1 for r in refs if r < 0]


@dataclass
class _Checks:
    """The mirror's constraints as `PlainEvaluator._holds` checks them: each linear one
    with a single interval as (variables, coefficients or None for all 1, low, high);
    each other, and each literal constraint, with its literals split by sign (the sums
    then run in C, the evaluation's bulk on a small model)."""

    linear: int = 0  # how many of the mirror's constraints are compiled
    literals: int = 0
    plain: list[tuple[list[int], list[int] | None, int, int]] = field(default_factory=list)
    enforced: list[tuple[list[int], list[int], list[int], list[int], tuple[int, ...]]] = field(default_factory=list)
    clauses: list[tuple[int, list[int], list[int], list[int], list[int]]] = field(default_factory=list)


class PlainEvaluator:
    """Evaluates complete proposals on one model, reading its new constraints each time
    (plain Python: evaluate_arrays.ArrayEvaluator's evaluation, constraint by constraint)."""

    def __init__(self, model: Model) -> None:
        self.model = model
        self._mirror = _Mirror()
        self._checks = _Checks()

    def _refresh(self) -> _Mirror:
        mirror = self._mirror
        constraints = self.model.proto.constraints
        total = len(constraints)
        written = WRITTEN.get(self.model, {})
        for k in range(mirror.read, total):
            known = written.pop(k, None)
            if known is not None:
                indices, coefs, lo, hi = known
                vs = list(indices)
                cs = [1] * len(vs) if coefs is None else list(coefs)
                if vs and min(vs) < 0:
                    mirror.supported = False
                mirror.linear.append(_Linear([], vs, cs, (lo, hi)))
                continue
            c = constraints[k]
            enforcement = read(c.enforcement_literal)
            if c.has_linear():
                lin = c.linear
                vs = read(lin.vars)
                if vs and min(vs) < 0:
                    mirror.supported = False
                mirror.linear.append(_Linear(enforcement, vs, read(lin.coeffs), tuple(read(lin.domain))))
            else:
                kind = next((k for k, has in enumerate(_HAS_LITERALS) if has(c)), None)
                if kind is None:
                    mirror.supported = False
                else:
                    literals = read(_LITERALS_OF[kind](c).literals)
                    mirror.literals.append(_Literals(kind, enforcement, literals))
        mirror.read = total
        return mirror

    def solution(
        self, proposal: Mapping[int, int], decided: Iterable[int], fixed: Mapping[int, int]
    ) -> dict[int, int] | Literal[False] | None:
        """The model's solution that gives the variables `decided` their values in
        `proposal` (0 where it has none), with every other variable derived; False if
        that violates a constraint or a fixed domain (`fixed`: index -> value); None if
        the evaluator cannot tell (CP-SAT must decide)."""
        proto = self.model.proto
        mirror = self._refresh()
        if not mirror.supported:
            return None
        n = len(proto.variables)
        x = [0] * n
        known = [False] * n
        idx = list(decided)
        for i, v in zip(idx, map(proposal.get, idx, repeat(0))):
            x[i], known[i] = v, True
            if v != 0 and v != 1 and not in_domain(v, tuple(read(proto.variables[i].domain))):
                return False
        for i, v in fixed.items():
            if known[i] and x[i] != v:
                return False
            if not known[i]:
                x[i], known[i] = v, True
        if not all(known):
            derived = self._derive(mirror, x, known)
            if derived is None:
                return None
            for i in derived:
                if not in_domain(x[i], tuple(read(proto.variables[i].domain))):
                    return False
        if not self._holds(mirror, x):
            return False
        return dict(enumerate(x))

    @staticmethod
    def _derive(mirror: _Mirror, x: list[int], known: list[bool]) -> list[int] | None:
        """Set the open variables from equalities with one open variable, until none is
        left (their indices), or None when some cannot be derived."""
        is_known = known.__getitem__
        pending = [
            c for c in mirror.linear
            if c.simple and c.domain[0] == c.domain[1] and not all(map(is_known, c.vars))
        ]
        derived: list[int] = []
        # Literals an unenforced clause forces: a unit bool_or, a bool_and, an
        # exactly_one whose other literals are known (the modelling layer's constant
        # true is a variable of its own, in a unit clause).
        for clause in mirror.literals:
            if clause.enforcement or not clause.literals or clause.kind == AT_MOST_ONE:
                continue
            refs = clause.literals
            open_ = [not known[ref if ref >= 0 else -ref - 1] for ref in refs]
            if not any(open_):
                continue
            shut = [ref for ref, o in zip(refs, open_) if not o]
            opened = [ref for ref, o in zip(refs, open_) if o]
            if clause.kind == AND:
                forced = opened
            elif len(opened) == 1:
                others = sum(_value(x, ref) for ref in shut)
                if others == 0:
                    forced = opened
                elif clause.kind == EXACTLY_ONE and others == 1:
                    forced = [-ref - 1 for ref in opened]  # the negation: the literal is false
                else:
                    continue
            else:
                continue
            _force(x, known, derived, forced)
        progress = True
        while pending and progress:
            progress = False
            waiting = []
            for c in pending:
                unknown = [k for k, v in enumerate(c.vars) if not known[v]]
                if not unknown:
                    continue
                if len(unknown) > 1:
                    waiting.append(c)
                    continue
                k = unknown[0]
                rest = sum(coef * x[v] for j, (v, coef) in enumerate(zip(c.vars, c.coefs)) if j != k)
                coef = c.coefs[k]
                target = c.domain[0] - rest
                if coef == 0 or target % coef:
                    return None
                i = c.vars[k]
                x[i], known[i] = target // coef, True
                derived.append(i)
                progress = True
            pending = waiting
        return derived if all(known) else None

    def _compiled(self, mirror: _Mirror) -> _Checks:
        """`_Checks` with the constraints read since the last call."""
        checks = self._checks
        for c in mirror.linear[checks.linear:]:
            if not c.enforcement and len(c.domain) == 2:
                ones = all(coef == 1 for coef in c.coefs)
                checks.plain.append((c.vars, None if ones else c.coefs, c.domain[0], c.domain[1]))
            else:
                checks.enforced.append((*_split(c.enforcement), c.vars, c.coefs, c.domain))
        checks.linear = len(mirror.linear)
        for clause in mirror.literals[checks.literals:]:
            checks.clauses.append((clause.kind, *_split(clause.enforcement), *_split(clause.literals)))
        checks.literals = len(mirror.literals)
        return checks

    def _holds(self, mirror: _Mirror, x: list[int]) -> bool:
        """Every constraint holds in `x` (the same test as constraint by constraint:
        an enforced constraint counts where all its enforcement literals are true)."""
        checks = self._compiled(mirror)
        get = x.__getitem__
        for vs, cs, lo, hi in checks.plain:
            total = sum(map(get, vs)) if cs is None else sum(map(operator.mul, map(get, vs), cs))
            if total < lo or total > hi:
                return False
        for pos, neg, vs, cs, domain in checks.enforced:
            if not all(map(get, pos)) or any(map(get, neg)):
                continue
            if not in_domain(sum(map(operator.mul, map(get, vs), cs)), domain):
                return False
        for kind, pos, neg, lits, nots in checks.clauses:
            if (pos and not all(map(get, pos))) or (neg and any(map(get, neg))):
                continue
            true = sum(map(get, lits)) + len(nots) - sum(map(get, nots))
            if kind == OR:
                if true == 0:
                    return False
            elif kind == AT_MOST_ONE:
                if true > 1:
                    return False
            elif kind == EXACTLY_ONE:
                if true != 1:
                    return False
            elif true != len(lits) + len(nots):
                return False
        return True


@dataclass
class _ArrayLinear:
    enforcement: np.ndarray
    vars: np.ndarray
    coefs: np.ndarray
    domain: tuple[int, ...]


    @property
    def simple(self) -> bool:
        """Unenforced, one interval, some terms: evaluated in the flattened pass."""
        return not self.enforcement.size and len(self.domain) == 2 and bool(self.vars.size)


@dataclass
class _ArrayLiterals:
    kind: int
    enforcement: np.ndarray
    literals: np.ndarray


@dataclass
class _ArrayMirror:
    """The model's constraints as read so far (a model's constraints only grow)."""

    read: int = 0
    supported: bool = True
    linear: list[_ArrayLinear] = field(default_factory=list)
    literals: list[_ArrayLiterals] = field(default_factory=list)
    # The unenforced linear constraints with one interval, flattened for one pass.
    flat: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None = None
    flat_count: int = 0


def _literal_values(x: np.ndarray, refs: np.ndarray) -> np.ndarray:
    """Values of literals (a negative reference -i-1 is the negation of variable i)."""
    import numpy as np

    positive = refs >= 0
    return np.where(positive, x[np.where(positive, refs, 0)], 1 - x[np.where(positive, 0, -refs - 1)])


class ArrayEvaluator:
    """Evaluates complete proposals on one model, reading its new constraints each time."""

    def __init__(self, model: Model) -> None:
        self.model = model
        self._reader = PlainEvaluator(model)
        self._mirror = _ArrayMirror()

    def _refresh(self) -> _ArrayMirror:
        """The mirror with the constraints added since the last call, as arrays (read
        as lists by `PlainEvaluator`, whose lists are then let go)."""
        import numpy as np

        mirror = self._mirror
        new = self._reader._refresh()
        mirror.supported = new.supported
        for c in new.linear:
            mirror.linear.append(_ArrayLinear(
                np.array(c.enforcement, dtype=np.int64), np.array(c.vars, dtype=np.int64),
                np.array(c.coefs, dtype=np.int64), c.domain,
            ))
        for clause in new.literals:
            mirror.literals.append(_ArrayLiterals(
                clause.kind, np.array(clause.enforcement, dtype=np.int64), np.array(clause.literals, dtype=np.int64),
            ))
        new.linear.clear()
        new.literals.clear()
        return mirror

    def _flat(self, mirror: _ArrayMirror) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(vars, coefs, segment starts, lows, highs) of the unenforced one-interval
        linear constraints with terms, rebuilt when constraints were added."""
        import numpy as np

        if mirror.flat is None or mirror.flat_count != len(mirror.linear):
            simple = [c for c in mirror.linear if c.simple]
            sizes = np.array([c.vars.size for c in simple], dtype=np.int64)
            starts = np.concatenate(([0], np.cumsum(sizes)[:-1])) if simple else np.zeros(0, dtype=np.int64)
            vs = np.concatenate([c.vars for c in simple]) if simple else np.zeros(0, dtype=np.int64)
            cs = np.concatenate([c.coefs for c in simple]) if simple else np.zeros(0, dtype=np.int64)
            lo = np.array([c.domain[0] for c in simple], dtype=np.int64)
            hi = np.array([c.domain[1] for c in simple], dtype=np.int64)
            mirror.flat = (vs, cs, starts, lo, hi)
            mirror.flat_count = len(mirror.linear)
        return mirror.flat

    def solution(
        self, proposal: Mapping[int, int], decided: Iterable[int], fixed: Mapping[int, int]
    ) -> dict[int, int] | Literal[False] | None:
        """`PlainEvaluator.solution` on arrays: the same answer, cheaper on big models."""
        import numpy as np

        proto = self.model.proto
        mirror = self._refresh()
        if not mirror.supported:
            return None
        n = len(proto.variables)
        x = np.zeros(n, dtype=np.int64)
        known = np.zeros(n, dtype=bool)
        idx = np.fromiter(decided, dtype=np.int64)
        x[idx] = [proposal.get(i, 0) for i in idx.tolist()]
        known[idx] = True
        odd = idx[(x[idx] != 0) & (x[idx] != 1)]
        for i in odd.tolist():
            if not in_domain(int(x[i]), tuple(read(proto.variables[i].domain))):
                return False
        for i, v in fixed.items():
            if known[i] and x[i] != v:
                return False
            if not known[i]:
                x[i], known[i] = v, True
        if not known.all():
            derived = self._derive(mirror, x, known)
            if derived is None:
                return None
            for i in derived:
                if not in_domain(int(x[i]), tuple(read(proto.variables[i].domain))):
                    return False
        if not self._holds(mirror, x):
            return False
        return dict(enumerate(x.tolist()))

    @staticmethod
    def _derive(mirror: _ArrayMirror, x: np.ndarray, known: np.ndarray) -> list[int] | None:
        """Set the open variables from equalities with one open variable, until none is
        left (their indices), or None when some cannot be derived."""
        import numpy as np

        pending = [c for c in mirror.linear if c.simple and c.domain[0] == c.domain[1] and not known[c.vars].all()]
        derived: list[int] = []
        # Literals an unenforced clause forces: a unit bool_or, a bool_and, an
        # exactly_one whose other literals are known (the modelling layer's constant
        # true is a variable of its own, in a unit clause).
        for clause in mirror.literals:
            if clause.enforcement.size or not clause.literals.size or clause.kind == AT_MOST_ONE:
                continue
            refs = clause.literals
            var = np.where(refs >= 0, refs, -refs - 1)
            open_ = ~known[var]
            if not open_.any():
                continue
            if clause.kind == AND:
                forced = refs[open_]
            elif int(open_.sum()) == 1:
                others = int(_literal_values(x, refs[~open_]).sum()) if (~open_).any() else 0
                if others == 0:
                    forced = refs[open_]
                elif clause.kind == EXACTLY_ONE and others == 1:
                    forced = -refs[open_] - 1  # the negation: the literal is false
                else:
                    continue
            else:
                continue
            _force(x, known, derived, forced.tolist())
        progress = True
        while pending and progress:
            progress = False
            waiting = []
            for c in pending:
                open_ = ~known[c.vars]
                count = int(open_.sum())
                if count == 0:
                    continue
                if count > 1:
                    waiting.append(c)
                    continue
                k = int(np.flatnonzero(open_)[0])
                rest = int(np.dot(c.coefs[~open_], x[c.vars[~open_]]))
                coef = int(c.coefs[k])
                target = c.domain[0] - rest
                if coef == 0 or target % coef:
                    return None
                i = int(c.vars[k])
                x[i], known[i] = target // coef, True
                derived.append(i)
                progress = True
            pending = waiting
        return derived if known.all() else None

    def _holds(self, mirror: _ArrayMirror, x: np.ndarray) -> bool:
        import numpy as np

        vs, cs, starts, lo, hi = self._flat(mirror)
        if starts.size:
            sums = np.add.reduceat(cs * x[vs], starts)
            if np.any(sums < lo) or np.any(sums > hi):
                return False
        for c in mirror.linear:
            if c.simple:
                continue
            if c.enforcement.size and not _literal_values(x, c.enforcement).all():
                continue
            if not in_domain(int(np.dot(c.coefs, x[c.vars])) if c.vars.size else 0, c.domain):
                return False
        for clause in mirror.literals:
            if clause.enforcement.size and not _literal_values(x, clause.enforcement).all():
                continue
            true = int(_literal_values(x, clause.literals).sum()) if clause.literals.size else 0
            if clause.kind == OR and true == 0:
                return False
            if clause.kind == AND and true != clause.literals.size:
                return False
            if clause.kind == AT_MOST_ONE and true > 1:
                return False
            if clause.kind == EXACTLY_ONE and true != 1:
                return False
        return True


class _Evaluation(Protocol):
    def solution(
        self, proposal: Mapping[int, int], decided: Iterable[int], fixed: Mapping[int, int]
    ) -> dict[int, int] | Literal[False] | None: ...


class Evaluator:
    """Evaluates complete proposals on one model; the first call chooses plain Python
    (up to `plain_max` variables) or numpy, kept for the model's later calls (each
    reads the model's constraints once, as they are added)."""

    def __init__(self, model: Model, plain_max: int) -> None:
        self.model = model
        self.plain_max = plain_max
        self.chosen: _Evaluation | None = None

    def solution(
        self, proposal: Mapping[int, int], decided: Iterable[int], fixed: Mapping[int, int]
    ) -> dict[int, int] | Literal[False] | None:
        """The model's solution that is `proposal` (see evaluate_arrays.py), False if
        it is none, None if the evaluator cannot tell."""
        proto = self.model.proto
        if len(proto.assumptions) or len(proto.objective.domain):
            return None
        if self.chosen is None:
            if len(proto.variables) <= self.plain_max:
                self.chosen = PlainEvaluator(self.model)
            else:
                self.chosen = ArrayEvaluator(self.model)  # numpy, only now
        return self.chosen.solution(proposal, decided, fixed)
