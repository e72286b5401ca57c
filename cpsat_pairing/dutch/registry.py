"""The names an edition file may use: quality criteria and round procedures.

Each edition module (e2026.py, e2017/, e2013/) registers its criteria and its
procedure here when it is imported; `edition.load_edition` imports the module the
file names and checks every name the file lists against what it registered.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from cpsat_pairing.dutch.model import PairModel
    from cpsat_pairing.solver.terms import Term

Criterion = Callable[["PairModel"], "list[Term]"]
CRITERIA: dict[str, Criterion] = {}
PROCEDURES: dict[str, Any] = {}  # name -> the procedure object (dutch.rounds.Procedure)

C = TypeVar("C", bound=Callable[..., Any])


def criterion(name: str) -> Callable[[C], C]:
    """Register a quality criterion under the name edition files use for it."""

    def deco(fn: C) -> C:
        if name in CRITERIA:
            raise ValueError(f"criterion {name!r} registered twice")
        CRITERIA[name] = fn
        return fn

    return deco


def register_procedure(name: str, procedure: Any) -> None:
    """Register the round procedure (the loop's hooks) an edition file names."""
    PROCEDURES[name] = procedure
