"""Pairs one round under the 2017 rules (C.04.3 2017): brackets top-down, PPB and CLB.

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
"""

from __future__ import annotations

from cpsat_pairing.dutch.e2017 import criteria as _criteria2017  # noqa: F401  (fills the registry)
from cpsat_pairing.dutch.e2017.bracket import BracketModel2017
from cpsat_pairing.dutch.e2017.criteria import REGISTRY2017
from cpsat_pairing.dutch.edition import Edition
from cpsat_pairing.solver.lex import InfeasibleError, Term
from cpsat_pairing.solver.matching import is_perfect
from cpsat_pairing.dutch.order import generation_order
from cpsat_pairing.domain.state import RoundState, build_state
from cpsat_pairing.domain.tournament import Tournament


def completable(players: list[int], ok, eligible: frozenset[int]) -> bool:
    """Can `players` all be paired (C.1-C.3), but at most one allowed the PAB (C.2)?"""
    index = {p: i for i, p in enumerate(players)}
    adj: list[list[int]] = [[] for _ in players]
    for i, p in enumerate(players):
        for q in players[i + 1 :]:
            if ok(p, q):
                adj[i].append(index[q])
                adj[index[q]].append(i)
    if len(players) % 2:
        dummy = len(players)
        adj.append([])
        for p in players:
            if p in eligible:
                adj[dummy].append(index[p])
                adj[index[p]].append(dummy)
    good, _ = is_perfect(adj)
    return good


def _solve(
    ed: Edition,
    st: RoundState,
    bracket: list[int],
    mdps: list[int],
    lower: list[int],
    ok,
    eligible: frozenset[int],
    special: bool,
    final: bool,
    odd: bool,
    workers: int,
    forced: list[tuple[int, int]] | None,
) -> BracketModel2017:
    """Build one bracket's model and solve its quality tiers and generation order."""

    def build(soft: bool) -> BracketModel2017:
        bm = BracketModel2017(
            st, bracket, frozenset(mdps), lower, ok, eligible, special, final=final, odd=odd,
            soft_completion=soft, workers=workers,
        )
        if forced is not None:
            bm.force(forced)
        bm.solver.solve()
        return bm

    try:
        bm = build(False)
    except InfeasibleError:
        if not special or forced is not None:
            raise
        # Two MDPs never meet in a bracket: the complete pairing may then not exist in
        # the bracket's model; [C.4] becomes its first tier.
        bm = build(True)
    terms: list[Term] = []
    for name in ed.quality:
        terms += REGISTRY2017[name](bm)
    # One tier per solve: packing them into one weighted objective (as lex.py does to
    # save solves) makes the matching LP weak here and a single solve can take minutes.
    for term in terms:
        bm.solver.minimize([term])
    generation_order(bm, ed.order.get("remainder_bsn", "fresh"))  # type: ignore[arg-type]
    return bm


def pair2017(t: Tournament, rnd: int, ed: Edition, workers: int = 1, forced: list[tuple[int, int]] | None = None):
    from cpsat_pairing.dutch.rounds import (
        BracketTrace, Pairing, compatibility, make_boards, no_valid_pairing,
    )

    st = build_state(t, rnd, ed.state_rules)
    present = list(st.present)
    ok = compatibility(st, t)
    eligible = frozenset(p for p in present if st.players[p].pab_eligible)
    if not completable(present, ok, eligible):
        raise no_valid_pairing(st, present, ok)
    odd = len(present) % 2 == 1
    score = {p: st.players[p].pairing_score for p in present}
    groups: list[list[int]] = []
    for p in present:
        if groups and score[groups[-1][0]] == score[p]:
            groups[-1].append(p)
        else:
            groups.append([p])
    gi = 0
    mdps: list[int] = []
    collapsed = False
    all_pairs: list[tuple[int, int]] = []
    traces: list[BracketTrace] = []
    while gi < len(groups) or len(mdps) > 1:
        if collapsed:
            residents = [p for g in groups[gi:] for p in g]
            gi = len(groups)
        elif gi < len(groups):
            residents = groups[gi]
            gi += 1
        else:
            residents = []
        bracket = sorted(mdps + residents, key=st.rank_key)
        level = score[residents[0]] if residents else score[bracket[0]]
        kind = "CLB" if collapsed else ""
        if collapsed or gi >= len(groups):
            lower: list[int] = []
            bm = _solve(ed, st, bracket, mdps, lower, ok, eligible, True, False, odd, workers, forced)
            pairs, floaters = bm.bracket_result()
        else:
            nxt = groups[gi]
            final = gi == len(groups) - 1
            bm = _solve(ed, st, bracket, mdps, nxt, ok, eligible, False, final, odd, workers, forced)
            pairs, floaters = bm.bracket_result()
            # A.9 asks whether the rules' pairing of this bracket can be completed; a
            # given (forced) pairing always can, so its bracket is the PPB when the
            # rules' own pairing of the same bracket would be.
            probe = floaters
            if forced is not None:
                free = _solve(ed, st, bracket, mdps, nxt, ok, eligible, False, final, odd, workers, None)
                probe = free.bracket_result()[1]
            rest = probe + [p for g in groups[gi:] for p in g]
            if not completable(rest, ok, eligible):
                # A.9: this is the PPB; pair it again with everybody below, completing.
                below = [p for g in groups[gi:] for p in g]
                bm = _solve(ed, st, bracket, mdps, below, ok, eligible, True, False, odd, workers, forced)
                pairs, floaters = bm.bracket_result()
                collapsed = True
                kind = "PPB"
        traces.append(BracketTrace(level, residents, list(mdps), pairs, floaters, list(bm.solver.trace), kind=kind))
        all_pairs += pairs
        mdps = floaters
    bye = mdps[0] if mdps else None
    boards = make_boards(t, st, all_pairs, ed)
    # No PAB-score criterion in 2017: the PAB is whoever the last bracket leaves unpaired.
    return Pairing(rnd, ed.name, boards, bye, sorted(st.absent), traces, None)
