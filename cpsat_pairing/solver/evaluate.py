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
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
from ortools.sat.python import cp_model

from cpsat_pairing.solver.terms import WRITTEN

_NONE = np.zeros(0, dtype=np.int64)  # no enforcement literal

# A literal constraint's kind (its index in the proto's names): what must hold of its
# literals once enforced.
_LITERAL_KINDS = ("bool_or", "bool_and", "at_most_one", "exactly_one")
_OR, _AND, _AT_MOST_ONE, _EXACTLY_ONE = range(4)


@dataclass
class _Linear:
    enforcement: np.ndarray
    vars: np.ndarray
    coefs: np.ndarray
    domain: tuple[int, ...]


    @property
    def simple(self) -> bool:
        """Unenforced, one interval, some terms: evaluated in the flattened pass."""
        return not self.enforcement.size and len(self.domain) == 2 and bool(self.vars.size)


@dataclass
class _Literals:
    kind: int
    enforcement: np.ndarray
    literals: np.ndarray


@dataclass
class _Mirror:
    """The model's constraints as read so far (a model's constraints only grow)."""

    read: int = 0
    supported: bool = True
    linear: list[_Linear] = field(default_factory=list)
    literals: list[_Literals] = field(default_factory=list)
    # The unenforced linear constraints with one interval, flattened for one pass.
    flat: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None = None
    flat_count: int = 0


def _literal_values(x: np.ndarray, refs: np.ndarray) -> np.ndarray:
    """Values of literals (a negative reference -i-1 is the negation of variable i)."""
    positive = refs >= 0
    return np.where(positive, x[np.where(positive, refs, 0)], 1 - x[np.where(positive, 0, -refs - 1)])


class Evaluator:
    """Evaluates complete proposals on one model, reading its new constraints each time."""

    def __init__(self, model: cp_model.CpModel) -> None:
        self.model = model
        self._mirror = _Mirror()

    def _refresh(self) -> _Mirror:
        mirror = self._mirror
        constraints = self.model.proto.constraints
        total = len(constraints)
        written = WRITTEN.get(self.model, {})
        for k in range(mirror.read, total):
            known = written.pop(k, None)
            if known is not None:
                indices, coefs, lo, hi = known
                vs = np.array(indices, dtype=np.int64)
                cs = np.ones(vs.size, dtype=np.int64) if coefs is None else np.array(coefs, dtype=np.int64)
                if vs.size and vs.min() < 0:
                    mirror.supported = False
                mirror.linear.append(_Linear(_NONE, vs, cs, (lo, hi)))
                continue
            c = constraints[k]
            enforcement = np.array(c.enforcement_literal, dtype=np.int64)
            if c.has_linear():
                lin = c.linear
                vs = np.array(lin.vars, dtype=np.int64)
                if vs.size and vs.min() < 0:
                    mirror.supported = False
                mirror.linear.append(_Linear(enforcement, vs, np.array(lin.coeffs, dtype=np.int64), tuple(lin.domain)))
            else:
                kind = next((k for k, name in enumerate(_LITERAL_KINDS) if getattr(c, f"has_{name}")()), None)
                if kind is None:
                    mirror.supported = False
                else:
                    literals = np.array(getattr(c, _LITERAL_KINDS[kind]).literals, dtype=np.int64)
                    mirror.literals.append(_Literals(kind, enforcement, literals))
        mirror.read = total
        return mirror

    def _flat(self, mirror: _Mirror) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(vars, coefs, segment starts, lows, highs) of the unenforced one-interval
        linear constraints with terms, rebuilt when constraints were added."""
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
        """The model's solution that gives the variables `decided` their values in
        `proposal` (0 where it has none), with every other variable derived; False if
        that violates a constraint or a fixed domain (`fixed`: index -> value); None if
        the evaluator cannot tell (CP-SAT must decide)."""
        proto = self.model.proto
        if len(proto.assumptions) or len(proto.objective.domain):
            return None
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
            if not _in_domain(int(x[i]), tuple(proto.variables[i].domain)):
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
                if not _in_domain(int(x[i]), tuple(proto.variables[i].domain)):
                    return False
        if not self._holds(mirror, x):
            return False
        return dict(enumerate(x.tolist()))

    @staticmethod
    def _derive(mirror: _Mirror, x: np.ndarray, known: np.ndarray) -> list[int] | None:
        """Set the open variables from equalities with one open variable, until none is
        left (their indices), or None when some cannot be derived."""
        pending = [c for c in mirror.linear if c.simple and c.domain[0] == c.domain[1] and not known[c.vars].all()]
        derived: list[int] = []
        # Literals an unenforced clause forces: a unit bool_or, a bool_and, an
        # exactly_one whose other literals are known (the modelling layer's constant
        # true is a variable of its own, in a unit clause).
        for clause in mirror.literals:
            if clause.enforcement.size or not clause.literals.size or clause.kind == _AT_MOST_ONE:
                continue
            refs = clause.literals
            var = np.where(refs >= 0, refs, -refs - 1)
            open_ = ~known[var]
            if not open_.any():
                continue
            if clause.kind == _AND:
                forced = refs[open_]
            elif int(open_.sum()) == 1:
                others = int(_literal_values(x, refs[~open_]).sum()) if (~open_).any() else 0
                if others == 0:
                    forced = refs[open_]
                elif clause.kind == _EXACTLY_ONE and others == 1:
                    forced = -refs[open_] - 1  # the negation: the literal is false
                else:
                    continue
            else:
                continue
            for ref in forced.tolist():
                i = ref if ref >= 0 else -ref - 1
                x[i], known[i] = (1 if ref >= 0 else 0), True
                derived.append(i)
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

    def _holds(self, mirror: _Mirror, x: np.ndarray) -> bool:
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
            if not _in_domain(int(np.dot(c.coefs, x[c.vars])) if c.vars.size else 0, c.domain):
                return False
        for clause in mirror.literals:
            if clause.enforcement.size and not _literal_values(x, clause.enforcement).all():
                continue
            true = int(_literal_values(x, clause.literals).sum()) if clause.literals.size else 0
            if clause.kind == _OR and true == 0:
                return False
            if clause.kind == _AND and true != clause.literals.size:
                return False
            if clause.kind == _AT_MOST_ONE and true > 1:
                return False
            if clause.kind == _EXACTLY_ONE and true != 1:
                return False
        return True


def _in_domain(value: int, domain: tuple[int, ...]) -> bool:
    """Whether `value` lies in a proto domain (sorted intervals, flattened)."""
    return any(domain[k] <= value <= domain[k + 1] for k in range(0, len(domain), 2))
