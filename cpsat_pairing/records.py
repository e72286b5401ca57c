"""What the solving layer records and reports, without OR-Tools: the tiers a solved term
becomes, its counters, and the outcomes a model may end with.

Check mode compares two pairings tier by tier and explanations read them, whether a
model solved the bracket (solver/terms.py makes the terms) or its candidates were
scored without one (dutch/e2026/direct.py).  A round whose brackets are all paired so
imports this module, not the solver: OR-Tools' core takes longer to load than such a
round takes to pair.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any


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


# Process-wide counters for benchmarks (scripts/bench.py): CP-SAT calls and their time.
# "bounded": tiers the count model's bound settled without a full solve; "repaired":
# tiers whose incumbent repair.repair improved; "witnessed": feasibility questions a
# proposed solution (repair.split_witness) answered; "fallbacks": relaxed models that
# found no answer, so that a more exact one decided; "evaluated": complete proposals
# checked without a CP-SAT call (evaluate.py); "near": brackets a model of their near
# pairs answered (dutch/near.py); "uncertified": near models that could not prove
# their answer, so that a model of every pair decided; "extended": near models made
# again with far pairs their certificate asked for; "propagated": questions any
# solution answers that a search on propagation alone settled (lex._reaching_run);
# "greedy": transpositions whose greedy choice was the first (dutch/order.py), no search;
# "walked": those whose first was found by the depth-first walk (solver/search.py);
# "hinted": rounds whose models started from a given pairing (dutch/loop.py, `check`);
# "direct": 2026 brackets paired by their candidates, no model (dutch/e2026/direct.py);
# "direct_exact": those of them whose best candidate by [C8]'s ceilings made no
# complete round-pairing found, proven with exact [C8] and [C9] values instead;
# "direct_declined": those whose search ran out of steps, so that the model paired them.
STATS: dict[str, float] = {
    "solves": 0, "solve_seconds": 0.0, "build_seconds": 0.0, "bounded": 0, "repaired": 0, "witnessed": 0,
    "fallbacks": 0, "evaluated": 0, "near": 0, "uncertified": 0, "extended": 0, "propagated": 0,
    "light": 0, "greedy": 0, "walked": 0, "realised": 0, "hinted": 0, "direct": 0, "direct_exact": 0,
    "direct_declined": 0,
}



class InfeasibleError(RuntimeError):
    """The hard constraints admit no solution (of this model: a relaxed model's
    infeasibility says nothing of the round's)."""


class Uncertified(RuntimeError):
    """A model of part of the pairs (dutch/near.py) found an answer it cannot prove to
    be the full model's: the full model decides, or a model with `pairs` made too."""

    def __init__(self, message: str, pairs: list[tuple[int, int]] | None = None,
                 values: dict[int, int] | None = None) -> None:
        super().__init__(message)
        self.pairs = pairs or []
        self.values = values or {}  # the relaxation's solution that made far pairs, if any
        # What the model proved before it stopped, for the next model of the bracket:
        # the relaxation's optima (LexSolver.known_optima), the quality tiers fixed
        # (name, value: each the full model's optimum) and a solution that has them, its
        # variables named as `BracketModel.portable` names them.
        self.optima: dict[Any, int] = {}
        self.tiers: list[tuple[str, int]] = []
        self.incumbent: dict[tuple[str, int, int], int] = {}
        # The tier whose relaxation did better by far pairs (LexSolver's optimum key), and
        # that solution's pairs named as `portable` names them: a near model made again
        # with those far pairs tries that pairing first (PartialModel.realise).
        self.key: Any = None
        self.relaxed: dict[tuple[str, int, int], int] = {}
