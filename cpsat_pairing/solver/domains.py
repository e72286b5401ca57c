"""Booleans fixed by their domains, and the restriction of a big model.

Fixing a variable's domain (rather than adding a constraint) lets presolve drop it and
leaves the model as small as it was when the domain is restored.  Which Booleans are
fixed is mirrored on the Python side: reading tens of thousands of domains back
through the proto costs more than the solves they serve.  The *restriction* is a set
of optional pairs fixed to 0 (see `LexSolver.optional`): it stays in place between
solves and moves by differences, since consecutive tiers restrict nearly the same pairs.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from cpsat_pairing.solver.cpsat import Model

Saved = list[tuple[int, int | None]]  # (index, the value it was fixed to, or None: free)


def _write(proto_variables: Any, index: int, value: int | None, current: int | None) -> None:
    """A Boolean's domain, now fixed to `current` (None: free, [0, 1]), set to `value`.
    Between free and fixed only one bound changes: one write, not two (each crosses
    into C++)."""
    domain = proto_variables[index].domain
    if current is None:
        assert value is not None  # free to free is no write
        domain[1 - value] = value
    elif value is None:
        domain[1 - current] = 1 - current
    else:
        domain[0], domain[1] = value, value


class Domains:
    """The fixed domains of one model's Booleans."""

    def __init__(self, model: Model) -> None:
        self.model = model
        self.fixed: dict[int, int] = {}  # index -> value, for every Boolean fixed by its domain
        self.restriction: set[int] = set()  # those the restriction fixed (to 0)
        self.version = 0  # counts the changes: the same version, the same domains

    def fix(self, values: Iterable[tuple[int, int]]) -> Saved:
        """Fix these Booleans (index, value); return what they were, for `restore`.
        A Boolean the restriction had fixed is now fixed by the caller instead."""
        proto = self.model.proto.variables
        mirror = self.fixed
        restriction = self.restriction
        saved: Saved = []
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
            _write(proto, index, value, current)
        if saved:
            self.version += 1
        return saved

    def release(self, index: int) -> Saved:
        """Free a Boolean fixed by `fix`; return what it was, for `restore`."""
        current = self.fixed.pop(index, None)
        if current is None:
            return []
        self.version += 1
        _write(self.model.proto.variables, index, None, current)
        return [(index, current)]

    def restore(self, saved: Saved) -> None:
        if saved:
            self.version += 1
        proto = self.model.proto.variables
        mirror = self.fixed
        for index, old in reversed(saved):
            current = mirror.get(index)
            if old is None:
                mirror.pop(index, None)
            else:
                mirror[index] = old
            if old != current:
                _write(proto, index, old, current)

    @contextmanager
    def fixing(self, values: Iterable[tuple[int, int]]) -> Iterator[Saved]:
        """The model with these Booleans fixed; restored on exit unless the caller
        clears the list it is given (then they stay fixed)."""
        saved = self.fix(values)
        try:
            yield saved
        finally:
            self.restore(saved)

    def zero_for_good(self) -> set[int]:
        """Booleans fixed to 0 other than by the restriction (which a solve on the full
        model lifts)."""
        restriction = self.restriction
        return {i for i, v in self.fixed.items() if v == 0 and i not in restriction}

    def for_good(self) -> dict[int, int]:
        """Booleans fixed other than by the restriction, with their values."""
        restriction = self.restriction
        return {i: v for i, v in self.fixed.items() if i not in restriction}

    def restrict(self, target: set[int]) -> None:
        """Make `target` the restriction: free those no longer in it, fix the new ones
        to 0 (between free and 0 only the upper bound changes)."""
        current = self.restriction
        if target == current:
            return
        self.version += 1
        proto = self.model.proto.variables
        mirror = self.fixed
        for index in current - target:
            del mirror[index]
            proto[index].domain[1] = 1
        for index in target - current:
            mirror[index] = 0
            proto[index].domain[1] = 0
        self.restriction = target
