"""How the 2026 rules pair a round: the [C5] pre-pass, then each bracket on the most
relaxed model that can be completed.

[C5] (the lowest possible PAB score) is settled once for the whole round before the
first bracket, as the rules rank it above every quality criterion.  Each bracket is
then a CP-SAT model solved tier by tier: the edition's quality criteria, then the
generation order; its pairs are final, its downfloaters become the next bracket's MDPs.

The models of one bracket, most relaxed first: "aggregate" sees the next scoregroup as
counts (aggregate.py); "lazy" models the bracket and the next scoregroup pair by pair
and only asks that players paired further down have some lower partner; "exact"
models every remaining player.  Relaxing only adds candidates, so a relaxed optimum
that can be completed into a whole round-pairing is the exact optimum; a relaxed model
that finds no solution, or none within its budget, says nothing about the round, and
the next model decides.  Only the exact model's infeasibility is "no valid pairing".
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from fractions import Fraction

from cpsat_pairing.domain.compat import Compatibility
from cpsat_pairing.domain.state import RoundState
from cpsat_pairing.dutch.aggregate import AggregateBracketModel
from cpsat_pairing.dutch.bracket import BracketModel
from cpsat_pairing.dutch.e2026.direct import pair_directly
from cpsat_pairing.dutch.e2026.local import (
    generation_order_keeping_below,
    solve_locally,
)
from cpsat_pairing.dutch.loop import (
    Bracket,
    RoundContext,
    first_solution,
    residents_bracket,
)
from cpsat_pairing.dutch.model import partners
from cpsat_pairing.dutch.registry import CRITERIA
from cpsat_pairing.dutch.result import BracketTrace, Pair
from cpsat_pairing.errors import NoValidPairing, SolveLimitError
from cpsat_pairing.solver.cpsat import STATS, InfeasibleError, Uncertified
from cpsat_pairing.solver.matching import LazyAdjacency, greedy_mate, is_perfect
from cpsat_pairing.solver.settings import near_pays
from cpsat_pairing.solver.terms import Term, TierKind

# What a relaxed or partial model may raise instead of answering.
RELAXATION_FAILURES = (NoValidPairing, InfeasibleError, SolveLimitError, Uncertified)


def pab_prepass(st: RoundState, present: list[int], ok: Compatibility) -> tuple[Fraction | None, list[Pair]]:
    """[C5]: the lowest score the PAB assignee can have in a complete round-pairing,
    and a complete round-pairing that achieves it (the first incumbent).

    A blossom matching answers "can everybody be paired, the PAB going to an eligible
    player scoring at most L?" for L rising from the lowest score; the first yes is
    the [C5] score.  Even fields get their complete round-pairing the same way.

    Raises:
        NoValidPairing: no complete round-pairing exists.
    """
    # Each player's neighbours in `present` order (a scan with set lookups), listed only
    # for the players the matching's searches reach: the start below pairs nearly
    # everyone, so most rows are never needed.
    def row(i: int) -> list[int]:
        if i == dummy:
            return []
        far = ok.excluded(present[i])
        return [j for j, q in enumerate(present) if q not in far]

    n = len(present)
    dummy = n
    index = {p: i for i, p in enumerate(present)}
    eligible = [p for p in present if st.players[p].pab_eligible]
    units = st.pairing_units
    levels: list[int | None] = [None]
    if n % 2:
        levels = [*sorted({units[p] for p in eligible})]
    adj = LazyAdjacency(n + n % 2, row)
    mate = greedy_mate(present, ok.excluded) + [-1] * (n % 2)
    for level in levels:
        score = None  # the level's pairing score, for the answer
        if level is not None:
            for p in eligible:
                if units[p] == level:
                    adj.add_edge(dummy, index[p])
                    score = st.players[p].pairing_score
        perfect, mate = is_perfect(adj, mate)
        if perfect:
            pairs = [(p, present[mate[i]]) for i, p in enumerate(present) if i < mate[i] < dummy]
            return score, pairs
    from cpsat_pairing.dutch.unpairable import no_valid_pairing  # a round without a pairing only

    raise no_valid_pairing(st, present, ok)


def start_with_pab_score(rc: RoundContext) -> None:
    """The [C5] score and the first witness (a given pairing: its own PAB's score), and
    who may then be left unpaired."""
    st = rc.state
    present = list(st.present)
    if rc.forced is None:
        rc.pab_score, rc.witness = pab_prepass(st, present, rc.compatible)
    else:
        paired = {p for pq in rc.forced for p in pq}
        left = [p for p in present if p not in paired]
        rc.pab_score = st.players[left[0]].pairing_score if left else None
        rc.witness = list(rc.forced)
    rc.pab_allowed = frozenset(
        p for p in present
        if st.players[p].pab_eligible and (rc.pab_score is None or st.players[p].pairing_score <= rc.pab_score)
    )


def build_model(rc: RoundContext, bracket: Bracket, kind: str, extra: Sequence[Pair] = ()) -> BracketModel:
    """One bracket's model of the given kind, started from the witness (or, if that does
    not fit it, from any solution).  "near" is the aggregate model of the near pairs
    (dutch/near.py), which also makes the pairs `extra`."""
    cls = AggregateBracketModel if kind in ("near", "aggregate") else BracketModel
    start = time.perf_counter()
    bm = cls(
        rc.state, rc.remaining, bracket.players, frozenset(bracket.mdps), bracket.next_group, rc.compatible,
        rc.pab_allowed, settings=rc.settings, pab_score=rc.pab_score, lazy=kind != "exact",
        near=[*rc.witness, *extra] if kind == "near" else None,
        given=partners(rc.forced) if rc.forced is not None and cls is BracketModel else None,
    )
    STATS["build_seconds"] += time.perf_counter() - start
    first_solution(bm, rc)
    return bm


def quality_terms(rc: RoundContext, bm: BracketModel) -> list[Term]:
    terms: list[Term] = []
    for name in rc.edition.quality:
        terms += CRITERIA[name](bm)
    return terms


class Procedure2026:
    """The 2026 round (see the module docstring)."""

    def start(self, rc: RoundContext) -> None:
        start_with_pab_score(rc)

    def next_bracket(self, rc: RoundContext) -> Bracket | None:
        return residents_bracket(rc)

    def pair_bracket(self, rc: RoundContext, bracket: Bracket) -> None:
        direct = pair_directly(rc, bracket, rc.settings.direct_brackets) if rc.settings.direct_brackets else None
        if direct is not None:
            STATS["direct"] += 1
            rc.tell(bracket.head(len(rc.scoregroups)))
            taken = set(direct.pairs)
            rc.record(BracketTrace(bracket.score, bracket.residents, bracket.mdps, direct.pairs, direct.downfloaters,
                                   direct.tiers), witness=[pq for pq in direct.full if pq not in taken])
            return
        kinds = [k for k in rc.settings.models if rc.forced is None or k != "aggregate"]
        if not bracket.next_group:
            kinds = [k for k in kinds if k != "lazy"]  # no next scoregroup: aggregate = lazy
        if "aggregate" in kinds and near_pays(rc.settings, len(bracket.residents)):
            kinds.insert(kinds.index("aggregate"), "near")
        head = bracket.head(len(rc.scoregroups))
        full: list[Pair] | None = None
        proved: Uncertified | None = None  # what a near model proved before it stopped
        for kind in kinds:
            rc.tell(head)
            on_tier = None if rc.progress is None else _on_tier(rc, head)
            if kind == "exact":
                bm = self.solve(rc, bracket, kind, on_tier, proved=proved)
                full = bm.complete()
                break
            try:
                if kind == "near":
                    bm = self.solve_near(rc, bracket, on_tier)
                else:
                    bm = self.solve(rc, bracket, kind, on_tier, proved=proved)
            except RELAXATION_FAILURES as failure:
                STATS["fallbacks"] += 1
                STATS["uncertified"] += isinstance(failure, Uncertified)
                if isinstance(failure, Uncertified) and failure.tiers:
                    proved = failure
                continue
            full = bm.complete()
            if full is not None:
                STATS["near"] += kind == "near"
                break
        assert full is not None, "the exact model always completes"
        pairs, floaters = bm.bracket_result()
        taken = set(pairs)
        rc.record(BracketTrace(bracket.score, bracket.residents, bracket.mdps, pairs, floaters, list(bm.solver.trace)),
                  witness=[pq for pq in full if pq not in taken])

    @classmethod
    def solve_near(cls, rc: RoundContext, bracket: Bracket, on_tier: Callable[[str], None] | None) -> BracketModel:
        """The bracket on a model of its near pairs (dutch/near.py), which a certificate
        that fails for want of some far pairs makes again with them, up to
        `SolverSettings.near_extensions` times and with `near_extension_share` of
        the bracket's pairs."""
        extra: list[Pair] = []
        proved: Uncertified | None = None
        size = len(bracket.players)
        most = rc.settings.near_extension_share * size * (size - 1) / 2
        for _ in range(rc.settings.near_extensions):
            try:
                return cls.solve(rc, bracket, "near", on_tier, extra, proved)
            except Uncertified as failure:
                if not failure.pairs or len(extra) + len(failure.pairs) > most:
                    raise
                STATS["extended"] += 1
                extra += failure.pairs
                proved = failure
        return cls.solve(rc, bracket, "near", on_tier, extra, proved)

    @staticmethod
    def solve(rc: RoundContext, bracket: Bracket, kind: str, on_tier: Callable[[str], None] | None,
              extra: Sequence[Pair] = (), proved: Uncertified | None = None) -> BracketModel:
        """Build the bracket's model of that kind and solve it (`_solved`), starting
        from what an earlier near model of it `proved`.  A near model that stops says
        what it proved (`_proved`); one whose relaxation does better by far pairs also
        names them (FarPairs.wanted)."""
        bm = build_model(rc, bracket, kind, extra)
        bm.solver.on_tier = on_tier
        if proved is not None:
            bm.solver.known_optima.update(proved.optima)
            if proved.key is not None:
                x = bm.x
                bm.solver.realise(proved.key, [x[p, q].index for (kind, p, q), v in proved.relaxed.items()
                                               if kind == "x" and v and (p, q) in x])
        try:
            return _solved(rc, bm, proved)
        except Uncertified as failure:
            if bm.far is None:
                raise
            if not failure.pairs and failure.values:
                named = Uncertified(str(failure), bm.far.wanted(bm, failure.values))
                named.key, named.relaxed = failure.key, bm.portable(failure.values)
                failure = named
            _proved(bm, failure)
            raise failure from None


def _proved(bm: BracketModel, failure: Uncertified) -> None:
    """Record in `failure` what the near model `bm` proved before it stopped: its
    relaxation's optima, the quality tiers it fixed (each certified, so the full
    model's optimum) and its incumbent, a solution of the full model that has them."""
    failure.optima = bm.solver.known_optima
    failure.tiers = [(t.name, t.value) for t in bm.solver.trace if t.kind is TierKind.QUALITY]
    failure.incumbent = bm.portable(bm.solver.values)


def _resumed(bm: BracketModel, terms: list[Term], proved: Uncertified | None) -> int:
    """Fix the first of `terms` at the values an earlier near model of the bracket
    proved, its solution (which has them) the incumbent; return how many terms are
    done (fixed, or skipped as inactive): none if this model cannot hold that
    solution, or rejects it (the solver checks it whole)."""
    if proved is None or not proved.tiers:
        return 0
    values = bm.from_portable(proved.incumbent)
    if values is None or not bm.solver.try_fix_domains([], [], proposal=values, search=False):
        return 0
    done = 0
    tiers = iter(proved.tiers)
    for term in terms:
        if term.active is not None and not term.active(bm.solver):
            done += 1  # skipped, as minimising would skip it
            continue
        name, value = next(tiers, ("", 0))
        if term.name != name or bm.solver.value(term) != value:
            break
        bm.solver.fix(term, value)
        done += 1
    return done


def _solved(rc: RoundContext, bm: BracketModel, proved: Uncertified | None = None) -> BracketModel:
    """Solve `bm`'s quality tiers, then the generation order: the tiers after [C8] on
    the bracket alone when the bracket is a small part of the model.  The tiers an
    earlier near model of the bracket `proved` are fixed at once (`_resumed`)."""
    terms = quality_terms(rc, bm)
    done = _resumed(bm, terms, proved)
    local = bm.local_vars()
    k = len(terms)
    while k and terms[k - 1].active is None and local.issuperset(terms[k - 1].indices):
        k -= 1
    if rc.forced is not None or bm.u or len(bm.x) < 2 * len(local) or not rc.settings.bracket_alone or done > k:
        bm.solver.minimize(terms[done:])
        generation_order_keeping_below(bm, local)
        return bm
    terms = terms[done:]
    k -= done
    bm.solver.minimize(terms[:k])
    if not solve_locally(rc.edition, bm):
        bm.solver.minimize(terms[k:])
        generation_order_keeping_below(bm, local)
    return bm


def _on_tier(rc: RoundContext, head: str) -> Callable[[str], None]:
    return lambda name: rc.tell(f"{head} ▸ {name}")
