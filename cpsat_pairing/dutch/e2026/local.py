"""The bracket alone: the tiers after [C8] solved without the rest of the round.

Once the tiers that look beyond the bracket ([C8]: the next bracket) are fixed, every
later tier and the generation order depend only on the pairs inside the bracket and
on who floats down.  They are solved on a model of the bracket alone -- a few thousand
variables instead of tens of thousands -- and each solution's set of downfloaters is
checked once against the full model (with the fixed tiers); a set that fails is cut
off and the solve repeated.  The answer is the same: a candidate of the full model is
a bracket candidate whose downfloaters pass the check.  The bracket alone relaxes the
full model, so when it fails (no solution, a budget, too many cuts) the full model
decides.
"""

from __future__ import annotations

from ortools.sat.python import cp_model

from cpsat_pairing.dutch.bracket import BracketModel
from cpsat_pairing.dutch.edition import Edition
from cpsat_pairing.dutch.order import generation_order
from cpsat_pairing.dutch.registry import CRITERIA
from cpsat_pairing.errors import SolveLimitError
from cpsat_pairing.solver.cpsat import STATS, InfeasibleError
from cpsat_pairing.solver.terms import Term


class _TooManyCuts(Exception):
    """The local model kept proposing downfloaters the rest of the round cannot take."""


def generation_order_keeping_below(bm: BracketModel, local: frozenset[int]) -> None:
    """The generation order on the full model, the rest of the round kept close to
    where the quality tiers left it.

    The generation order only decides the bracket (its pairs and downfloaters); what
    CP-SAT picks below is arbitrary, and it is the next bracket's starting point.  The
    values from before (close to the last witness) make a much better start: with the
    same downfloaters they still fit and are put back; otherwise one feasibility solve
    with the bracket fixed, hinted with them, finds the nearest fit."""
    before = dict(bm.solver.values)
    floaters = [before.get(bm.df[p].index, 0) for p in bm.bracket]
    generation_order(bm)
    after = bm.solver.values
    if [after.get(bm.df[p].index, 0) for p in bm.bracket] == floaters:
        bm.solver.update_incumbent({i: v for i, v in before.items() if i not in local and i in after})
        return
    fixed = [(index, after.get(index, 0)) for index in sorted(local)]
    hint = {i: (after.get(i, 0) if i in local else v) for i, v in before.items()}
    near = bm.solver.check_values(fixed, hint)
    if near is not None:
        bm.solver.set_incumbent({**after, **near})


def solve_locally(ed: Edition, bm: BracketModel) -> bool:
    """Solve the remaining tiers and the generation order on the bracket alone (see
    the module docstring).  Returns False (nothing decided) if the bracket-alone model
    fails: then the full model decides."""
    fixed = {tier.name: tier.value for tier in bm.solver.trace}
    inner = BracketModel(
        bm.state, bm.remaining, bm.bracket, bm.mdps, bm.next_group, bm.compatible, bm.pab_allowed,
        settings=bm.settings, local=True,
    )
    terms: list[Term] = []
    for name in ed.quality:
        terms += CRITERIA[name](inner)
    for t in terms:
        if t.name in fixed and t.vars:
            inner.solver.fix(t, fixed[t.name])
    outer_df = {p: bm.df[p] for p in bm.bracket}
    checked: dict[frozenset[int], dict[int, int] | None] = {}
    cuts = 0
    max_cuts = bm.settings.max_cuts

    def accept(values: dict[int, int]) -> bool:
        nonlocal cuts
        floaters = frozenset(p for p in bm.bracket if values.get(inner.df[p].index))
        if floaters not in checked:
            wanted = [(outer_df[p].index, int(p in floaters)) for p in bm.bracket]
            checked[floaters] = bm.solver.check_values(wanted, _swap_floaters(last[0], floaters, values))
        if checked[floaters] is not None:
            last[0] = floaters
            return True
        cuts += 1
        if cuts > max_cuts:
            raise _TooManyCuts
        # Exactly this set is cut off: a superset is another candidate (the number of
        # downfloaters is fixed only once [C6] is).
        inner.model.add(
            sum(inner.df[p] for p in floaters) - sum(inner.df[p] for p in bm.bracket if p not in floaters)
            <= len(floaters) - 1
        )
        return False

    vals = bm.solver.values
    inner_values = {v.index: vals.get(bm.x[k].index, 0) for k, v in inner.x.items()}
    inner_values.update({inner.df[p].index: vals.get(bm.df[p].index, 0) for p in bm.bracket})
    inner.solver.set_incumbent(inner_values)
    start = frozenset(p for p in bm.bracket if vals.get(bm.df[p].index))
    checked[start] = dict(vals)
    last = [start]

    def _swap_floaters(base: frozenset[int], floaters: frozenset[int], inside: dict[int, int]) -> dict[int, int]:
        """A starting point for checking `floaters`: the pairs inside the bracket from the
        local solution, and below it the solution found for the `base` set, each new
        downfloater taking over the place of an old one of the same score ([C7] fixes
        how many float per score), so that it is usually a solution."""
        vals = dict(checked[base] or {})
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
            for d in (bm.df, bm.exit):
                if q in d and p in d:
                    vals[d[p].index] = vals.get(d[q].index, 0)
            vals[bm.df[p].index], vals[bm.df[q].index] = 1, 0
            if q in bm.exit:
                vals[bm.exit[q].index] = 0
            if q in partner:
                n, v = partner[q]
                vals[v.index] = 0
                key = (p, n) if (p, n) in bm.x else (n, p)
                if key in bm.x and (n not in bm.in_bracket or n in floaters):
                    vals[bm.x[key].index] = 1
        return vals

    inner.solver.accept = accept
    inner.solver.on_tier = bm.solver.on_tier
    try:
        inner.solver.minimize([t for t in terms if t.name not in fixed])
        generation_order(inner)
    except (_TooManyCuts, InfeasibleError, SolveLimitError):
        STATS["fallbacks"] += 1
        return False
    floaters = frozenset(p for p in bm.bracket if inner.solver.var_value(inner.df[p]))
    outer = dict(checked[floaters] or {})
    for key, v in inner.x.items():
        outer[bm.x[key].index] = inner.solver.var_value(v)
    for p in bm.bracket:
        outer[bm.df[p].index] = inner.solver.var_value(inner.df[p])
    bm.solver.absorb(inner.solver, outer, frozenset(fixed))
    return True
