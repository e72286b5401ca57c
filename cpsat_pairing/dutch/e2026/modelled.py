"""The 2026 bracket on CP-SAT models: the most relaxed model that can be completed.

Each bracket is a CP-SAT model solved tier by tier: the edition's quality criteria, then
the generation order; its pairs are final, its downfloaters become the next bracket's
MDPs.  A bracket that dutch/e2026/direct.py pairs by its candidates never comes here.

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

from cpsat_pairing.dutch.aggregate import AggregateBracketModel
from cpsat_pairing.dutch.bracket import BracketModel
from cpsat_pairing.dutch.e2026.local import (
    generation_order_keeping_below,
    solve_locally,
)
from cpsat_pairing.dutch.loop import Bracket, RoundContext, first_solution
from cpsat_pairing.dutch.model import partners
from cpsat_pairing.dutch.registry import CRITERIA
from cpsat_pairing.dutch.result import BracketTrace, Pair
from cpsat_pairing.errors import NoValidPairing, SolveLimitError
from cpsat_pairing.records import InfeasibleError, STATS, TierKind, Uncertified
from cpsat_pairing.solver.settings import near_pays
from cpsat_pairing.solver.terms import Term

# What a relaxed or partial model may raise instead of answering.
RELAXATION_FAILURES = (NoValidPairing, InfeasibleError, SolveLimitError, Uncertified)


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


class BracketByModel:
    """The bracket on its models (see the module docstring)."""

    @classmethod
    def pair(cls, rc: RoundContext, bracket: Bracket) -> None:
        """Pair the bracket on its models, most relaxed first, and record it."""
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
                bm = cls.solve(rc, bracket, kind, on_tier, proved=proved)
                full = bm.complete()
                break
            try:
                if kind == "near":
                    bm = cls.solve_near(rc, bracket, on_tier)
                else:
                    bm = cls.solve(rc, bracket, kind, on_tier, proved=proved)
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
