"""How the 2017 rules pair a round (C.04.3 2017): brackets top-down, PPB and CLB.

A.9 "round-pairing outlook": brackets are paired from the top scoregroup down; each
normal bracket is solved on its own and the next scoregroup (for [C.7]), with nobody
obliged to be paired.  Once its pairs are chosen, the round must still be completable
by its downfloaters and every player below (checked with a blossom matching).  If it is
not, that bracket is the penultimate pairing bracket (PPB): it is paired again together
with every player below, now with completion ([C.4]); its downfloaters and all players
below then form the collapsed last bracket (CLB), whose pairing completes the round.
The last bracket (no scoregroup below) is paired with completion as well; the player it
leaves unpaired receives the PAB.  There is no global PAB-score tier: the PSD of the
last brackets ([C.6]) brings the PAB down to the lowest scores.

A normal bracket is first paired on its own, [C.7] decided by matchings when its
downfloaters reach that criterion's bounds (e2017/lookahead.py).  Otherwise the model
holds the next scoregroup (or, in the PPB, every player below) pair by pair, and the
tiers after [C.7] are solved on the bracket alone (dutch/alone.py).  A big bracket, and
a big last bracket or CLB (the whole of round 1), is first paired on a model of its near
pairs (dutch/near.py), whose answers are certified; the model of every pair decides
when they are not.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction

from cpsat_pairing.dutch.alone import finish_alone, solve_alone
from cpsat_pairing.dutch.completion import complete_pairing
from cpsat_pairing.dutch.e2017.bracket import BracketModel2017, compatible_rows
from cpsat_pairing.dutch.e2017.lookahead import NextBracket
from cpsat_pairing.dutch.loop import Bracket, RoundContext
from cpsat_pairing.dutch.model import partners
from cpsat_pairing.dutch.near import on_near_models
from cpsat_pairing.dutch.order import generation_order
from cpsat_pairing.dutch.registry import CRITERIA
from cpsat_pairing.dutch.result import BracketTrace, Pair
from cpsat_pairing.records import InfeasibleError
from cpsat_pairing.solver.matching import max_matching
from cpsat_pairing.solver.settings import near_pays
from cpsat_pairing.solver.terms import Term


def _solve(
    rc: RoundContext, bracket: list[int], mdps: list[int], lower: list[int], special: bool, final: bool,
    forced: list[Pair] | None, head: str = "",
) -> BracketModel2017:
    """Build one bracket's model and solve its quality tiers and generation order."""
    odd = len(rc.state.present) % 2 == 1

    def on_tier(name: str) -> None:
        rc.tell(f"{head} ▸ {name}")

    def build(soft: bool) -> BracketModel2017:
        bm = BracketModel2017(
            rc.state, bracket, frozenset(mdps), lower, rc.compatible, rc.pab_allowed, special, final=final, odd=odd,
            soft_completion=soft, settings=rc.settings, given=None if forced is None else partners(forced),
        )
        if forced is not None:
            bm.force(forced)
        bm.solver.on_tier = on_tier
        # A first solution: a normal bracket's is start_inside(); a special one's is a
        # complete matching, or CP-SAT's (whose infeasibility makes [C.4] a tier).
        if forced is not None or (special and (soft or not bm.start_complete())):
            bm.solver.solve()
        return bm

    if not special and not final and forced is None and rc.settings.bracket_alone:
        alone = _solve_by_lookahead(rc, bracket, mdps, lower, on_tier)
        if alone is not None:
            return alone
    if not special and not final and forced is not None and rc.settings.bracket_alone:
        return _given_by_lookahead(rc, bracket, mdps, lower, forced, on_tier)
    if special and not lower and forced is None and near_pays(rc.settings, len(bracket) - len(mdps)):
        last = _solve_last_by_near(rc, bracket, mdps, odd, on_tier)
        if last is not None:
            return last
    try:
        bm = build(False)
    except InfeasibleError:
        if not special or forced is not None:
            raise
        # Two MDPs never meet in a bracket: the complete pairing may then not exist in
        # the bracket's model; [C.4] becomes its first tier.
        bm = build(True)
    return _tiers(rc, bm, forced)


def _tiers(rc: RoundContext, bm: BracketModel2017, forced: list[Pair] | None) -> BracketModel2017:
    """The quality tiers, one per solve (packed into one weighted objective they make
    the matching LP weak here), then the generation order; the tiers after [C.7] on
    the bracket alone when there are players below it."""
    normal = not bm.special and forced is None
    if normal:
        bm.start_inside()
    for name in rc.edition.quality:
        if name not in LOOKING_BEYOND:
            continue
        if normal and name == "C.7":
            bm.pair_below()
        for term in CRITERIA[name](bm):
            bm.solver.minimize([term])
    if forced is None and bm.lower and not bm.soft_completion and rc.settings.bracket_alone:
        if _solve_alone(rc, bm):
            return bm
    for term in _later_terms(rc, bm):
        bm.solver.minimize([term])
    generation_order(bm)
    return bm


# The criteria that look beyond the bracket's own pairs and downfloaters: completion,
# the number of downfloaters and the PSD (which the later ones may not change), the
# next bracket ([C.7]).  The tiers after them are solved on the bracket alone.
LOOKING_BEYOND = frozenset({"C.4", "C.5", "C.6", "C.7"})


def _bracket_alone(rc: RoundContext, bracket: list[int], mdps: Iterable[int], sd_base: Fraction,
                   near: Sequence[Pair] | None = None) -> BracketModel2017:
    """The bracket's model without the players below (its downfloaters' SDs measured
    from `sd_base`, as its full model measures them); with `near`, a model of its near
    pairs and those pairs (dutch/near.py)."""
    return BracketModel2017(
        rc.state, bracket, frozenset(mdps), [], rc.compatible, rc.pab_allowed, False, sd_base=sd_base,
        settings=rc.settings, near=near,
    )


def _later_terms(rc: RoundContext, bm: BracketModel2017) -> list[Term]:
    """The terms of the criteria after those that look beyond the bracket."""
    return [t for name in rc.edition.quality if name not in LOOKING_BEYOND for t in CRITERIA[name](bm)]


def _solve_alone(rc: RoundContext, bm: BracketModel2017) -> bool:
    """The tiers after [C.7] and the generation order on the bracket alone
    (dutch/alone.py): [C.5] and [C.6] fixed on it as on the full model, every set of
    downfloaters checked against the full model (the next bracket's [C.7] values, or
    the round's completion in the PPB, the CLB and the last bracket)."""
    inner = _bracket_alone(rc, bm.bracket, bm.mdps, bm.min_score)
    fixed = {tier.name: tier.value for tier in bm.solver.trace}
    for name in ("C.5", "C.6"):
        for t in CRITERIA[name](inner):
            if t.vars:
                inner.solver.fix(t, fixed[t.name])
    return solve_alone(bm, inner, _later_terms(rc, inner), frozenset(fixed), one_per_solve=True)


def _solve_by_lookahead(
    rc: RoundContext, bracket: list[int], mdps: list[int], lower: list[int], on_tier: Callable[[str], None]
) -> BracketModel2017 | None:
    """A normal bracket on its own, [C.7] decided by matchings (e2017/lookahead.py), or
    None when its downfloaters do not reach [C.7]'s bounds (the full model decides).

    A big bracket is first solved on a model of its near pairs (dutch/near.py), made
    again with the far pairs a failed certificate names (as the 2026 near models are,
    `SolverSettings.near_extensions`, `near_extension_share`); without a certificate
    the model of every pair decides."""
    sd_base = min(rc.state.players[p].pairing_score for p in (*bracket, *lower))
    if near_pays(rc.settings, len(bracket) - len(mdps)):
        decided, found = on_near_models(
            rc.settings, len(bracket), _inside_matching(rc, bracket, frozenset(mdps)),
            lambda extra: _bracket_alone(rc, bracket, mdps, sd_base, extra),
            lambda inner: _lookahead(rc, inner, lower, on_tier),
        )
        if decided:
            return found
    return _lookahead(rc, _bracket_alone(rc, bracket, mdps, sd_base), lower, on_tier)


def _given_by_lookahead(
    rc: RoundContext, bracket: list[int], mdps: list[int], lower: list[int], forced: list[Pair],
    on_tier: Callable[[str], None],
) -> BracketModel2017:
    """A given pairing's normal bracket on the bracket alone: its downfloaters are
    fixed, so [C.7]'s choice below is one matching question (NextBracket.optimum), and
    the model with the next scoregroup's pairs (the floaters' pairs below, the next
    scoregroup's among themselves), whose solves cost more than pairing the round, is
    not built."""
    sd_base = min(rc.state.players[p].pairing_score for p in (*bracket, *lower))
    inner = BracketModel2017(
        rc.state, bracket, frozenset(mdps), [], rc.compatible, rc.pab_allowed, False, sd_base=sd_base,
        settings=rc.settings, given=partners(forced),
    )
    inner.force(forced)
    inner.solver.on_tier = on_tier
    inner.solver.solve()
    nb = NextBracket(inner, lower, rc.compatible)
    floaters = frozenset(p for p in inner.bracket if inner.solver.var_value(inner.df[p]))
    for name in rc.edition.quality:  # the criteria before [C.7]
        if name == "C.7":
            break
        if name in LOOKING_BEYOND:
            for term in CRITERIA[name](inner):
                inner.solver.minimize([term])
    for tier in nb.optimum(floaters):
        inner.solver.record(tier)
    for term in _later_terms(rc, inner):
        inner.solver.minimize([term])
    generation_order(inner)
    return inner


def _solve_last_by_near(rc: RoundContext, bracket: list[int], mdps: list[int], odd: bool,
                        on_tier: Callable[[str], None]) -> BracketModel2017 | None:
    """The last bracket (or the CLB) on a near model that completes the round, started
    from a complete matching of the bracket's compatible pairs; None when there is no
    such matching or no near model is certified (the model of every pair decides)."""
    extra = _witness_inside(rc, bracket, frozenset(mdps), odd)
    if extra is None:
        extra = _inside_matching(rc, bracket, frozenset(mdps), rc.pab_allowed if odd else None)
    if len(bracket) - 2 * len(extra) != int(odd):
        return None

    def make(pairs: list[Pair]) -> BracketModel2017:
        return BracketModel2017(rc.state, bracket, frozenset(mdps), [], rc.compatible, rc.pab_allowed, True, odd=odd,
                                settings=rc.settings, near=pairs)

    def solve(bm: BracketModel2017) -> BracketModel2017 | None:
        bm.solver.on_tier = on_tier
        return _tiers(rc, bm, None) if bm.start_complete() else None

    return on_near_models(rc.settings, len(bracket), extra, make, solve)[1]


def _witness_inside(rc: RoundContext, bracket: list[int], mdps: frozenset[int], odd: bool) -> list[Pair] | None:
    """The round's witness (the complete pairing the round loop keeps) as a complete
    matching of the bracket's pairs, if it is one: it costs nothing, where a matching
    of every compatible pair of round 1 lists millions of them."""
    inside = frozenset(bracket)
    pairs = [(p, q) for p, q in rc.witness if p in inside or q in inside]
    if any(p not in inside or q not in inside or (p in mdps and q in mdps) for p, q in pairs):
        return None
    paired = {p for pq in pairs for p in pq}
    left = [p for p in bracket if p not in paired]
    if len(left) != int(odd) or not all(p in rc.pab_allowed for p in left):
        return None
    return pairs


def _inside_matching(rc: RoundContext, bracket: list[int], mdps: frozenset[int],
                     pab: frozenset[int] | None = None) -> list[Pair]:
    """A maximum matching of the bracket's own compatible pairs (two MDPs never meet):
    a near model makes its pairs, so that it starts where the model of every pair
    starts, at [C.5]'s bound.  With `pab`, one of those players may instead take the
    PAB (a partner of his own), so that a complete matching leaves him unpaired."""
    index = {p: i for i, p in enumerate(bracket)}
    adj: list[list[int]] = [[] for _ in bracket]
    for p, later in compatible_rows(bracket, mdps, rc.compatible):
        i = index[p]
        for q in later:
            adj[i].append(index[q])
            adj[index[q]].append(i)
    if pab is not None:
        adj.append([index[p] for p in bracket if p in pab])
        for j in adj[-1]:
            adj[j].append(len(bracket))
    mate = max_matching(adj)
    return [(p, bracket[j]) for i, p in enumerate(bracket) if (j := mate[i]) > i and j < len(bracket)]


def _lookahead(rc: RoundContext, inner: BracketModel2017, lower: list[int],
               on_tier: Callable[[str], None]) -> BracketModel2017 | None:
    """`_solve_by_lookahead` on the bracket-alone model `inner`."""
    inner.solver.on_tier = on_tier
    inner.start_inside()
    for name in rc.edition.quality:  # the criteria before [C.7], on the bracket alone
        if name == "C.7":
            break
        if name in LOOKING_BEYOND:
            for term in CRITERIA[name](inner):
                inner.solver.minimize([term])
    nb = NextBracket(inner, lower, rc.compatible)
    floaters = frozenset(p for p in inner.bracket if inner.solver.var_value(inner.df[p]))
    if not nb.reaches_bounds(floaters):
        return None
    for tier in nb.tiers(len(floaters)):
        inner.solver.record(tier)
    if not finish_alone(inner, _later_terms(rc, inner), lambda fl, _: nb.reaches_bounds(fl), one_per_solve=True):
        return None
    return inner


class Procedure2017:
    """The 2017 round (see the module docstring)."""

    def start(self, rc: RoundContext) -> None:
        st = rc.state
        present = list(st.present)
        rc.pab_allowed = frozenset(p for p in present if st.players[p].pab_eligible)
        full = complete_pairing(present, rc.compatible, rc.pab_allowed)
        if full is None:
            from cpsat_pairing.dutch.unpairable import no_valid_pairing  # a round without a pairing only

            raise no_valid_pairing(st, present, rc.compatible)
        rc.witness = full

    def next_bracket(self, rc: RoundContext) -> Bracket | None:
        i = rc.next_group
        groups = rc.scoregroups
        if i >= len(groups) and len(rc.mdps) <= 1:
            return None
        score = rc.score
        if rc.collapsed:  # A.9: the CLB, the PPB's downfloaters and everybody below
            residents = [p for p in rc.remaining if p not in rc.mdps]
            rc.next_group = len(groups)
        elif i < len(groups):
            residents = [p for p in rc.remaining if score[p] == groups[i]]
            rc.next_group += 1
        else:
            residents = []
        players = sorted(rc.mdps + residents, key=rc.state.rank_key)
        level = score[residents[0]] if residents else score[players[0]]
        j = rc.next_group
        nxt = [p for p in rc.remaining if j < len(groups) and score[p] == groups[j]]
        return Bracket(level, residents, list(rc.mdps), players, nxt, i + 1, "CLB" if rc.collapsed else "")

    def pair_bracket(self, rc: RoundContext, bracket: Bracket) -> None:
        head = bracket.head(len(rc.scoregroups))
        rc.tell(head)
        players, mdps = bracket.players, bracket.mdps
        kind = bracket.kind
        if rc.collapsed or rc.next_group >= len(rc.scoregroups):
            bm = _solve(rc, players, mdps, [], True, False, rc.forced, head)
        else:
            final = rc.next_group == len(rc.scoregroups) - 1
            bm = _solve(rc, players, mdps, bracket.next_group, False, final, rc.forced, head)
            if _is_ppb(rc, bracket, bm, final):
                # A.9: this is the PPB; pair it again with everybody below, completing.
                below = [p for p in rc.remaining if p not in bracket.players]
                bm = _solve(rc, players, mdps, below, True, False, rc.forced, head + " (PPB)")
                rc.collapsed = True
                kind = "PPB"
        pairs, floaters = bm.bracket_result()
        rc.record(BracketTrace(bracket.score, bracket.residents, mdps, pairs, floaters, list(bm.solver.trace), kind))


def _is_ppb(rc: RoundContext, bracket: Bracket, bm: BracketModel2017, final: bool) -> bool:
    """A.9: whether the rules' pairing of this normal bracket (`bm`'s) leaves a round that
    cannot be completed, which makes it the PPB; when it can, the completion is the
    next witness.  A given (forced) pairing can always be completed, so its bracket is
    the PPB when the rules' own pairing of the same bracket is: read off the rules'
    trace of it when scoring against them, else paired again."""
    if rc.forced is not None:
        known = rc.rules_trace(bracket)
        if known is not None:
            return known.kind == "PPB"
        bm = _solve(rc, bracket.players, bracket.mdps, bracket.next_group, False, final, None)
    below = [p for p in rc.remaining if p not in bracket.players]
    full = complete_pairing(bm.bracket_result()[1] + below, rc.compatible, rc.pab_allowed, rc.witness)
    if full is None:
        return True
    rc.witness = full
    return False
