"""2026: the tiers after [C8] on the bracket alone (dutch/alone.py), and the generation
order on the full model with the rest of the round kept where it was.
"""

from __future__ import annotations

from cpsat_pairing.dutch.alone import solve_alone
from cpsat_pairing.dutch.bracket import BracketModel
from cpsat_pairing.dutch.completion import complete_pairing
from cpsat_pairing.dutch.edition import Edition
from cpsat_pairing.dutch.order import generation_order
from cpsat_pairing.dutch.registry import CRITERIA
from cpsat_pairing.solver.matching import LazyAdjacency, max_matching_covering
from cpsat_pairing.solver.terms import Term


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
    hint = _completed(bm) or {i: (after.get(i, 0) if i in local else v) for i, v in before.items()}
    near = bm.solver.check_values(fixed, hint)
    if near is not None:
        bm.solver.set_incumbent({**after, **near})


def _completed(bm: BracketModel) -> dict[int, int] | None:
    """A complete round-pairing with the incumbent's bracket pairs and downfloaters, as
    the model's values, or None (none found, or the model cannot hold it).

    [C8] fixed how many pairs the next scoregroup holds, and how many of them each
    score of downfloaters leads: a maximum matching of the downfloaters and the next
    scoregroup that covers the downfloaters in ranking order first (a matroid: that
    order is the one the tiers ask for) gets as many where the model's optimum does.
    Everyone else is paired as near the witness as a matching started from it gets.
    The solver checks the values whole (the caller searches if they fail)."""
    pairs, floaters = bm.bracket_result()
    group = list(bm.next_group)
    verts = [*floaters, *group]
    index = {p: i for i, p in enumerate(verts)}

    def row(i: int) -> list[int]:
        """Downfloaters meet the next scoregroup; its players meet both."""
        excluded = bm.compatible.excluded(verts[i])
        return [index[q] for q in (group if i < len(floaters) else verts) if q not in excluded]

    # The witness's pairs within the next scoregroup (or from a downfloater into it)
    # start its matching.
    kept: list[tuple[int, int]] = []
    for p, q in bm.witness.items():
        a, b = index.get(p), index.get(q)
        if p < q and a is not None and b is not None and max(a, b) >= len(floaters):
            kept.append((a, b))
    mate = max_matching_covering(LazyAdjacency(len(verts), row), range(len(floaters)), kept)
    met = [(verts[i], verts[j]) for i, j in enumerate(mate) if j > i]
    taken = {p for pq in (*pairs, *met) for p in pq}
    rest = complete_pairing([p for p in bm.remaining if p not in taken], bm.compatible, bm.pab_allowed,
                            bm.witness.items())
    return None if rest is None else bm.values_of([*pairs, *met, *rest])


def solve_locally(ed: Edition, bm: BracketModel) -> bool:
    """Solve the tiers after [C8] and the generation order on the bracket alone
    (dutch/alone.py).  Returns False (nothing decided) if the bracket-alone model
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
    todo = [t for t in terms if t.name not in fixed]
    return solve_alone(bm, inner, todo, frozenset(fixed), (bm.exit,))
