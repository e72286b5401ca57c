"""The solver's settings: every budget, threshold and width in one frozen value.

`pair` takes one and passes it down; nothing reads a tuning global.  The budgets are
CP-SAT deterministic time (work units, the same on every machine) and only decide
which of several exact routes answers first: a shortcut that runs out of its budget
hands over to a more exact one, so no setting changes a pairing.  `time_limit` is the
one wall-clock figure: a safety net past which a solve is a `SolveLimitError`, never
an answer.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SolverSettings:
    workers: int = 1  # CP-SAT workers per solve (one: deterministic and fastest here)
    time_limit: float = 600.0  # wall-clock seconds per CP-SAT call before SolveLimitError
    # Consecutive tiers are packed into one weighted objective while its coefficients
    # stay below this: larger weights make single solves slower than the solves saved.
    max_weight: int = 1 << 24
    # Big models: each tier solved first restricted to the pairs near the natural S1-S2
    # partners, for models with at least `sparse_from` pair variables; `windows` are how
    # near (places within a scoregroup), the restrictions tried in turn.
    sparse_from: int = 4000
    windows: tuple[int, ...] = (8, 16)
    restricted_budget: float = 1.0  # per restricted solve; past it the full model decides
    # Big brackets are first solved on a model of their near pairs only (dutch/near.py;
    # the 2026 aggregate model, the 2017 bracket alone):
    # a bracket whose residents could form at least `near_from` pairs gets the pairs
    # within `near_window` places of the natural S1-S2 partners, the far ones as counts
    # per class pair, and each answer a certificate; without one, the model of every
    # pair decides.  `relaxed_budget` bounds each solve of the relaxation that such a
    # certificate takes (past it, no certificate).
    near_from: int = 20_000
    near_window: int = 12
    relaxed_budget: float = 5.0
    # Each such solve (and a near model's own best within `relaxed_budget`) first runs
    # with the LP of the linear constraints alone, without its cuts, within
    # `light_budget`: where a solution at the proven bound exists, that search finds it
    # several times faster than the one with the cuts, whose proofs are not needed there.
    light_budget: float = 3.0
    # A near model whose certificate names far pairs it needs is made again with them,
    # at most `near_extensions` times and with at most `near_extension_share` of the
    # bracket's pairs (more nears a model of every pair, which the aggregate model
    # builds faster).
    near_extensions: int = 2
    near_extension_share: float = 1 / 16
    # A model with more variables than this gets a proportionally bigger restricted
    # budget, up to `restricted_scale_max` times: a restriction's presolve and root LP
    # grow with the model, and a budget spent before them finds nothing at all.
    restricted_full_size: int = 50_000
    restricted_scale_max: float = 4.0
    # A count-model solve (a lower bound): the default search within
    # `bound_first_budget`, then the core-based one, then the default one, each within
    # `bound_budget`; past them, no bound.
    bound_first_budget: float = 0.03
    bound_budget: float = 0.3
    # A model too small for restrictions gets the count model's bound from this many
    # pair variables: where a solution reaches it, a search on propagation alone finds
    # it faster than the LP proves the optimum (below, the solves are too short to pay
    # for the count model).
    bound_from: int = 1000
    # The transposition's fixed search: on propagation alone first, then with the LP,
    # then (past both) the partner tiers one by one.
    propagation_budget: float = 0.5
    # A model with fewer variables gets a proportionally smaller propagation budget: the
    # LP search settles a small model in a few milliseconds where propagation alone can
    # thrash until its budget.
    propagation_full_size: int = 5000
    # And no more than `propagation_per_variable` units per variable, but at least
    # `propagation_floor`: a search that succeeds on propagation alone needs a fraction of
    # that (at most 0.3 millionths of a unit per variable, over the 2013, 2017 and 2026
    # corpora and the random 5,000-player round, from 2,000 variables up), and one that
    # thrashes uses up its whole budget before the LP search decides.  Below 1,000
    # variables the floor decides, and the LP search settled every such model of the
    # 2017 and 2026 corpora within 0.004 units: a higher floor only lets a thrashing
    # search cost several times the LP search after it (docs/performance.md, "The
    # propagation floor").
    propagation_per_variable: float = 2e-6
    propagation_floor: float = 0.002
    fixed_search_budget: float = 20.0
    # A model with fewer variables is solved without CP-SAT's presolve: an everyday
    # bracket's model (a few dozen variables) is solved in well under a millisecond,
    # and presolving it is a tenth of that.
    presolve_from: int = 300
    # The odd-set cuts of an aggregate model (BracketModel.add_parity_cuts) from this
    # many players in it (the bracket and the next scoregroup).  Without them, proving
    # how many players a bracket of two dozen can pair may need an exponential search
    # (a matching's parity is beyond CP-SAT's LP); below 20 they cost more than they save.
    parity_cuts_from: int = 20
    # The transposition's first candidate is tried as the greedy choice (S1 players in
    # turn with the lowest S2 player left), checked whole, before the fixed search:
    # where the greedy choice is a solution it is the search's answer (dutch/order.py).
    greedy_transposition: bool = True
    # Where the greedy choice is not a solution, the first candidate of a depth-first
    # walk in the search's order that no fixed tier's sum rules out is tried the same
    # way (solver/search.py, the walk), within `walk_budget` branches per S1 player.
    walk_transposition: bool = True
    walk_budget: int = 8
    # A small bracket model's tier first tries the bracket's pairs re-made
    # (solver/repair.py) against the tier's own bound (`Term.least`): a proposal that
    # reaches it is optimal and checked whole, so the tier needs no CP-SAT call.  Big
    # models always do this, against the count model's bound.
    small_repair: bool = True
    # A complete proposal is checked without CP-SAT (solver/evaluate.py) in plain Python
    # on a model of at most this many variables, in numpy on a bigger one: numpy's
    # import costs a fresh process more than a small round's evaluations.
    plain_evaluation_max: int = 20_000
    # The bracket models tried, most relaxed first (dutch/e2026/procedure.py); the last
    # must be "exact".
    models: tuple[str, ...] = ("aggregate", "lazy", "exact")
    # The tiers after [C8] solved on the bracket alone (dutch/e2026/local.py; 2017
    # after [C.7], 2013 C.12 decided by a matching of the floaters), which gives up
    # after `max_cuts` rejected sets of downfloaters (the full model then decides).
    bracket_alone: bool = True
    # 2026: a bracket of at most this many players is paired by scoring its candidates
    # (dutch/e2026/direct.py), the model only where that proves nothing; 0: never.
    # Bigger brackets' searches run out of steps more often, and the models are at
    # their best there (docs/performance.md).
    direct_brackets: int = 48
    # Steps of that search (dutch/e2026/candidates.py) before it leaves the bracket to
    # the model: a step is a few microseconds, a small model's pairing a few milliseconds.
    direct_budget: int = 5000
    max_cuts: int = 30

    def __post_init__(self) -> None:
        if not self.models or self.models[-1] != "exact":
            raise ValueError(f"SolverSettings.models must end with 'exact', got {self.models}")


def near_pays(settings: SolverSettings, residents: int) -> bool:
    """Whether a bracket of this many residents could form enough pairs for a model of
    its near pairs (dutch/near.py) to be worth its certificates: every edition asks
    this of every bracket, and only a big one loads the near models."""
    return residents * (residents - 1) // 2 >= settings.near_from


def propagation_budget(settings: SolverSettings, size: int) -> float:
    """The fixed search's budget on propagation alone for a model of `size` variables
    (SolverSettings: `propagation_budget`, scaled down below `propagation_full_size`,
    and between `propagation_floor` and `propagation_per_variable` per variable)."""
    scaled = settings.propagation_budget * min(1.0, size / settings.propagation_full_size)
    return min(scaled, max(settings.propagation_floor, settings.propagation_per_variable * size))


DEFAULT_SETTINGS = SolverSettings()
