"""How the 2026 rules pair a round: the [C5] pre-pass, then each bracket by its
candidates where that proves the answer, else on its models.

[C5] (the lowest possible PAB score) is settled once for the whole round before the
first bracket, as the rules rank it above every quality criterion.  A bracket of a few
dozen players is then paired by scoring its candidates on the rules' tiers
(direct.py); where that proves nothing, on CP-SAT models (modelled.py), imported only
then: a round of small brackets never loads OR-Tools.
"""

from __future__ import annotations

from fractions import Fraction

from cpsat_pairing.domain.compat import Compatibility
from cpsat_pairing.domain.state import RoundState
from cpsat_pairing.dutch.e2026.direct import pair_directly
from cpsat_pairing.dutch.loop import Bracket, RoundContext, residents_bracket
from cpsat_pairing.dutch.result import BracketTrace, Pair
from cpsat_pairing.solver.matching import LazyAdjacency, greedy_mate, is_perfect
from cpsat_pairing.records import STATS


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
        from cpsat_pairing.dutch.e2026.modelled import BracketByModel  # OR-Tools, where a model is needed

        BracketByModel.pair(rc, bracket)
