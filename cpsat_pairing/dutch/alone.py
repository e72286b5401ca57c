"""The bracket alone: a bracket's last tiers solved without the rest of the round.

Once the tiers that look beyond the bracket are fixed (2026 [C8], 2017 [C.7] and the
completion of the round), every later tier and the generation order depend only on
the pairs inside the bracket and on who floats down.  They are solved on a model of the
bracket alone -- a few thousand variables instead of tens of thousands -- and each
solution's set of downfloaters is checked once against the full model (with the fixed
tiers); a set that fails is cut off and the solve repeated.  The answer is the same: a
candidate of the full model is a bracket candidate whose downfloaters pass the check.
The bracket alone relaxes the full model, so when it fails (no solution, a budget, too
many cuts) the full model decides.

Each edition builds its own bracket-alone model and fixes on it the tiers it shares
with the full model; `solve_alone` does the rest.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ortools.sat.python import cp_model

from cpsat_pairing.dutch.model import PairModel
from cpsat_pairing.dutch.order import generation_order
from cpsat_pairing.errors import SolveLimitError
from cpsat_pairing.records import STATS, InfeasibleError
from cpsat_pairing.solver.terms import Term

FloatVars = dict[int, cp_model.IntVar]


class _TooManyCuts(Exception):
    """The bracket-alone model kept proposing downfloaters the rest of the round cannot take."""


def solve_alone(bm: PairModel, inner: PairModel, todo: Sequence[Term], skip: frozenset[str],
                floats: Sequence[FloatVars] = (), one_per_solve: bool = False, s1_size: str = "pairs",
                also: Callable[[frozenset[int]], bool] | None = None) -> bool:
    """Minimise `todo` (terms of `inner`, the bracket alone) and the generation order on
    `inner`, checking each set of downfloaters against `bm`; on success `bm`'s incumbent
    and trace take the answer over.  Returns False (nothing decided) if the
    bracket-alone model fails: then the full model decides.

    `skip` names the tiers `bm` has recorded already (those `inner` shares with it);
    `floats` are `bm`'s other per-player variables of a downfloater (beside `df`) that
    move with him when another player of his score takes his place; `one_per_solve`
    solves the terms one by one instead of packing them into weighted objectives;
    `also` is a condition on the set of downfloaters that `bm` does not hold (2013 C.12,
    decided by a matching), asked first.  `s1_size` as in `generation_order`."""
    outer_df = {p: bm.df[p] for p in bm.bracket}
    checked: dict[frozenset[int], dict[int, int] | None] = {}

    def passes(floaters: frozenset[int], values: dict[int, int]) -> bool:
        if also is not None and not also(floaters):
            return False
        if floaters not in checked:
            wanted = [(outer_df[p].index, int(p in floaters)) for p in bm.bracket]
            checked[floaters] = bm.solver.check_values(wanted, _swap_floaters(bm, inner, checked[last[0]], last[0],
                                                                              floaters, values, floats))
        if checked[floaters] is None:
            return False
        last[0] = floaters
        return True

    vals = bm.solver.values
    inner_values = {v.index: vals.get(bm.x[k].index, 0) for k, v in inner.x.items()}
    inner_values.update({inner.df[p].index: vals.get(bm.df[p].index, 0) for p in bm.bracket})
    inner.solver.set_incumbent(inner_values)
    start = frozenset(p for p in bm.bracket if vals.get(bm.df[p].index))
    checked[start] = dict(vals)
    last = [start]

    inner.solver.on_tier = bm.solver.on_tier
    if not finish_alone(inner, todo, passes, one_per_solve, s1_size):
        return False
    floaters = frozenset(p for p in bm.bracket if inner.solver.var_value(inner.df[p]))
    outer = dict(checked[floaters] or {})
    for key, v in inner.x.items():
        outer[bm.x[key].index] = inner.solver.var_value(v)
    for p in bm.bracket:
        outer[bm.df[p].index] = inner.solver.var_value(inner.df[p])
    bm.solver.absorb(inner.solver, outer, skip)
    return True


def finish_alone(inner: PairModel, todo: Sequence[Term], passes: Callable[[frozenset[int], dict[int, int]], bool],
                 one_per_solve: bool = False, s1_size: str = "pairs") -> bool:
    """Minimise `todo` and the generation order on the bracket-alone model `inner`,
    keeping only solutions whose downfloaters `passes` (given the set and the solution)
    accepts; each rejected set is cut off.  False when the model fails (no solution, a
    budget, more than `max_cuts` rejected sets): then the full model decides.

    `inner` may also be a full model whose one missing condition is on the set of
    downfloaters (2013 C.12): the cuts then make it a model for this bracket only."""
    cuts = 0
    max_cuts = inner.solver.settings.max_cuts

    def accept(values: dict[int, int]) -> bool:
        nonlocal cuts
        floaters = frozenset(p for p in inner.bracket if values.get(inner.df[p].index))
        if passes(floaters, values):
            return True
        cuts += 1
        if cuts > max_cuts:
            raise _TooManyCuts
        # Exactly this set is cut off: a superset is another candidate (the number of
        # downfloaters may not be fixed yet).
        inner.model.add(
            sum(inner.df[p] for p in floaters) - sum(inner.df[p] for p in inner.bracket if p not in floaters)
            <= len(floaters) - 1
        )
        return False

    inner.solver.accept = accept
    try:
        if one_per_solve:
            for term in todo:
                inner.solver.minimize([term])
        else:
            inner.solver.minimize(todo)
        generation_order(inner, s1_size)
    except (_TooManyCuts, InfeasibleError, SolveLimitError):
        STATS["fallbacks"] += 1
        return False
    finally:
        inner.solver.accept = None  # it sees `inner`: no cycle to outlive the bracket
    return True


def _swap_floaters(bm: PairModel, inner: PairModel, base_values: dict[int, int] | None, base: frozenset[int],
                   floaters: frozenset[int], inside: dict[int, int], floats: Sequence[FloatVars]) -> dict[int, int]:
    """A starting point for checking `floaters`: the pairs inside the bracket from the
    bracket-alone solution, and below it the solution found for the `base` set, each new
    downfloater taking over the place of an old one of the same score (the fixed tiers
    usually fix how many float per score), so that it is usually a solution."""
    vals = dict(base_values or {})
    partner: dict[int, tuple[int, cp_model.IntVar]] = {}
    for (p, q), v in bm.x.items():
        if vals.get(v.index):
            partner[p], partner[q] = (q, v), (p, v)
    score = bm.score
    gone = sorted(base - floaters, key=bm.state.rank_key)
    new = sorted(floaters - base, key=bm.state.rank_key)
    for key, v in inner.x.items():
        vals[bm.x[key].index] = inside.get(v.index, 0)
    for p in new:
        old = next((g for g in gone if score[g] == score[p]), None)
        if old is None:
            continue
        q = old
        gone.remove(q)
        for d in (bm.df, *floats):
            if q in d and p in d:
                vals[d[p].index] = vals.get(d[q].index, 0)
        vals[bm.df[p].index], vals[bm.df[q].index] = 1, 0
        for d in floats:
            if q in d:
                vals[d[q].index] = 0
        if q in partner:
            n, v = partner[q]
            vals[v.index] = 0
            key = (p, n) if (p, n) in bm.x else (n, p)
            if key in bm.x and (n not in bm.in_bracket or n in floaters):
                vals[bm.x[key].index] = 1
    return vals
