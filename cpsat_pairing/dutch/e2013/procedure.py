"""Pairs one round under the 2013 edition (C.04.3.1, Istanbul 2012 text; JaVaFo 1.4).

The legacy text is a procedure (C.1-C.14): pair the score brackets from the top down,
try transpositions and exchanges (D.1-D.3) under a set of requirements, and lower the
requirements in the order of C.10 when no candidate meets them.  We model the outcome of
that procedure, not its search: each bracket is the same CP-SAT model as for the later
editions (bracket.py), solved on the 2013 tiers (criteria2013.py) and then on the
generation order (order.py), which makes the first candidate the procedure would accept
the unique optimum.

What is specific to 2013 here:
* A.3: a heterogeneous bracket in which at least half of the players were moved down is
  treated as homogeneous (no MDP-pairing, S1 is the top half of the whole bracket);
* B.1.b: a player who scored without playing (a bye, a forfeit win) gets no bye
  (StateRules.bye_rule = "any_points");
* B.2 applies to everyone but topscorers, whose exception is a tier (C.10.g);
* the completion of the round (C.12 backtracking, C.13 on the lowest brackets) is kept
  as a condition on every bracket: a bracket is paired so that the players below can
  still be paired, which is what backtracking and merging the lowest brackets achieve.
"""

from __future__ import annotations


from cpsat_pairing.dutch.e2013 import criteria as _criteria2013  # noqa: F401  (fills the registry)
from cpsat_pairing.dutch.edition import Edition
from cpsat_pairing.dutch.bracket import BracketModel
from cpsat_pairing.dutch.e2026 import REGISTRY
from cpsat_pairing.dutch.rounds import (
    BracketTrace,
    NoValidPairing,
    Pairing,
    _pab_score,
    no_valid_pairing,
    compatibility,
    make_boards,
)
from cpsat_pairing.solver.lex import STATS, InfeasibleError, Term
from cpsat_pairing.dutch.order import generation_order
from cpsat_pairing.domain.state import build_state
from cpsat_pairing.domain.tournament import Tournament


def treated_as_homogeneous(n_mdps: int, size: int) -> bool:
    """A.3: a heterogeneous bracket with at least half its players moved down."""
    return n_mdps > 0 and 2 * n_mdps >= size


def _solve_bracket(ed, st, remaining, bracket, mdps, next_group, ok, eligible, workers, pab_score, witness, kind,
                   forced=None) -> BracketModel:
    """One bracket's model ("lazy": the bracket and the next scoregroup pair by pair;
    "exact": every remaining player), solved on the edition's tiers then the
    generation order."""
    bm = BracketModel(
        st, remaining, bracket, frozenset(mdps), next_group, ok, eligible, workers=workers, pab_score=pab_score,
        lazy=kind != "exact",
    )
    if forced is not None:
        bm.force(forced)
    if not bm.start_from(witness):
        try:
            bm.solver.solve()
        except InfeasibleError:
            raise no_valid_pairing(st, remaining, ok) from None
    terms: list[Term] = []
    for name in ed.quality:
        terms += REGISTRY[name](bm)
    bm.solver.minimize(terms)
    generation_order(bm, ed.order.get("remainder_bsn", "fresh"), ed.order.get("s1_size", "pairs"))
    return bm


def _pairable(bm) -> bool:
    """Some pair of the bracket meets B.1/B.2: P0 > 0 before any backtracking."""
    return any(bm.inside(p, q) for p, q in bm.x)


def pair(
    t: Tournament,
    rnd: int | None,
    ed: Edition,
    workers: int = 1,
    forced: list[tuple[int, int]] | None = None,
) -> Pairing:
    if rnd is None:
        rnd = t.rounds_played + 1
    st = build_state(t, rnd, ed.state_rules)
    present = list(st.present)
    ok = compatibility(st, t)
    if forced is None and ed.pab_score == "minimise-first":
        pab_score, witness = _pab_score(st, present, ok, workers)
    elif forced is None:
        # The bye is what the lowest bracket leaves unpaired (C.13), not a score fixed
        # for the whole round first.
        pab_score, witness = None, []
    else:
        paired = {p for pq in forced for p in pq}
        left = [p for p in present if p not in paired]
        pab_score = st.players[left[0]].pairing_score if left and ed.pab_score == "minimise-first" else None
        witness = list(forced)
    eligible = frozenset(
        p for p in present if st.players[p].pab_eligible and (pab_score is None or st.players[p].pairing_score <= pab_score)
    )
    score = {p: st.players[p].pairing_score for p in present}
    levels = sorted({score[p] for p in present}, reverse=True)
    remaining = list(present)
    mdps: list[int] = []
    all_pairs: list[tuple[int, int]] = []
    traces: list[BracketTrace] = []
    bye: int | None = None
    for i, level in enumerate(levels):
        residents = [p for p in remaining if score[p] == level and p not in mdps]
        bracket = sorted(mdps + residents, key=st.rank_key)
        nxt = levels[i + 1] if i + 1 < len(levels) else None
        next_group = [p for p in remaining if nxt is not None and score[p] == nxt]
        model_mdps = [] if treated_as_homogeneous(len(mdps), len(bracket)) else mdps
        args = (ed, st, remaining, bracket, model_mdps, next_group, ok, eligible, workers, pab_score, witness)
        unconstrained: tuple[list[tuple[int, int]], list[int]] | None = None
        try:
            bm = _solve_bracket(*args, "lazy", forced)
            pairs, floaters = bm.bracket_result()
            unconstrained = (sorted(pairs), list(floaters))
            full = bm.complete()
        except (NoValidPairing, InfeasibleError):
            # The lazy model relaxes completion: with no solution it leaves the exact
            # model to prove that none exists.  (It is not a relaxation of the exact
            # model's tiers -- C.12 looks at the next bracket only -- so a solve limit in
            # it is not handed over: that would change the answer.)
            STATS["fallbacks"] += 1
            full = None
        backtracked = False
        if full is None:
            # The players below cannot be paired after this bracket's best pairing:
            # C.13 backtracks into this bracket (the penultimate one).
            bm = _solve_bracket(*args, "exact", forced)
            pairs, floaters = bm.bracket_result()
            full = bm.complete()
            assert full is not None
            backtracked = unconstrained is not None and (sorted(pairs), floaters) != unconstrained
        witness = [pq for pq in full if pq not in set(pairs)]
        merge: list[int] | None = None
        if nxt is not None and not pairs and _pairable(bm):
            # C.13: backtracking brought P down to 0 here: this bracket joins the ones
            # below as the S1 of the new lowest bracket.
            merge = list(bracket)
        elif backtracked and nxt is not None and any(score[p] < nxt for p in remaining):
            # This bracket was re-paired so that the lowest one could be paired: by
            # then every bracket below had been joined into it (C.13); this
            # bracket's floaters are its MDPs.
            merge = list(floaters)
        if merge is not None:
            traces.append(BracketTrace(level, residents, list(mdps), pairs, floaters, list(bm.solver.trace)))
            all_pairs += pairs
            paired = {p for pq in pairs for p in pq}
            remaining = [p for p in remaining if p not in paired]
            merged = sorted(remaining, key=st.rank_key)
            model_mdps = [] if treated_as_homogeneous(len(merge), len(merged)) else sorted(merge, key=st.rank_key)
            args = (ed, st, remaining, merged, model_mdps, [], ok, eligible, workers, pab_score, witness)
            bm = _solve_bracket(*args, "exact", forced)
            pairs, floaters = bm.bracket_result()
            below = [p for p in merged if p not in merge]
            traces.append(BracketTrace(score[below[-1]] if below else level, below, sorted(merge, key=st.rank_key),
                                       pairs, floaters, list(bm.solver.trace)))
            all_pairs += pairs
            bye = floaters[0] if floaters else None
            break
        traces.append(BracketTrace(level, residents, list(mdps), pairs, floaters, list(bm.solver.trace)))
        all_pairs += pairs
        paired = {p for pq in pairs for p in pq}
        remaining = [p for p in remaining if p not in paired]
        mdps = floaters
        if nxt is None and floaters:
            bye = floaters[0]
    boards = make_boards(t, st, all_pairs, ed)
    return Pairing(rnd, ed.name, boards, bye, sorted(st.absent), traces, pab_score)


__all__ = ["pair", "treated_as_homogeneous"]
