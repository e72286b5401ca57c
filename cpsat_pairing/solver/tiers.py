"""Tiers: a solved term's value, named by its criterion or generation-order step.

Check mode compares two pairings tier by tier and explanations read them, whether a
model solved the bracket (solver/terms.py makes the terms) or its candidates were
scored without one (dutch/e2026/direct.py): this module needs no OR-Tools.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class TierKind(str, Enum):
    """A quality criterion of the edition, or a step of the generation order (which
    only tells apart candidates equal on every criterion)."""

    QUALITY = "quality"
    ORDER = "order"


@dataclass(frozen=True)
class Tier:
    """A solved term: `criterion` is the edition's name for it ("C12", "C.6", "B.3") or
    the generation-order step ("MDP set", "MDP-pairing", "exchange", "transposition");
    `detail` says what it counts.  Lower values are better; a `maximised` tier was
    solved negated (its count is -value and more is better)."""

    criterion: str
    detail: str
    value: int
    kind: TierKind = TierKind.QUALITY
    maximised: bool = False
    # The BSN a generation-order tier is about (the S1 player whose partner it fixes,
    # the player an exchange keeps or moves, the MDP a set takes), if any.
    subject: int | None = None

    @classmethod
    def of(cls, criterion: str, detail: str, value: int, kind: TierKind, maximised: bool,
           subject: int | None) -> Tier:
        """`Tier(...)` for the solver's hot path (a tier for every term fixed): the same
        fields set in one step, not one `object.__setattr__` each as a frozen
        dataclass's `__init__` does (a third of the time)."""
        tier = object.__new__(cls)
        tier.__dict__.update(criterion=criterion, detail=detail, value=value, kind=kind, maximised=maximised,
                             subject=subject)
        return tier

    @property
    def name(self) -> str:
        """The tier as one label, e.g. 'C12 unmet colour preferences', 'exchange: BSN 3 stays in S1'."""
        sep = ": " if self.kind is TierKind.ORDER else " "
        return f"{self.criterion}{sep}{self.detail}" if self.detail else self.criterion

    @property
    def shown(self) -> int:
        """The value as a reader counts it (a maximised tier's count, positive)."""
        return -self.value if self.maximised else self.value
