"""What the solving layer reports, without OR-Tools: its counters and the outcomes a
model may end with.  A round whose brackets are all paired without a model
(dutch/e2026/direct.py) imports this, not the solver: OR-Tools' core takes longer to
load than such a round takes to pair."""

from __future__ import annotations

from typing import Any

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
# "direct_declined": those whose search ran out of steps or found no completion at
# its [C8] ceilings, so that the model paired them.
STATS: dict[str, float] = {
    "solves": 0, "solve_seconds": 0.0, "build_seconds": 0.0, "bounded": 0, "repaired": 0, "witnessed": 0,
    "fallbacks": 0, "evaluated": 0, "near": 0, "uncertified": 0, "extended": 0, "propagated": 0,
    "light": 0, "greedy": 0, "walked": 0, "realised": 0, "hinted": 0, "direct": 0, "direct_declined": 0,
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
