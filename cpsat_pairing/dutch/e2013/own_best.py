"""Whether a bracket's own best pairing leaves a round that can be completed, without a
model of the bracket.

C.13 backtracks from the pairing a bracket makes on its own (B.1/B.2 inside it, C.12 on
the next scoregroup) only where the rest of the round cannot be paired after it
(`procedure._own_best`, docs/edition-2013.md, "Fourteenth pass").  Most brackets leave
the rest pairable whatever their own best pairing is; this screen says so from
matchings alone, so that only the others need the bracket-alone model.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from cpsat_pairing.dutch.completion import complete_pairing
from cpsat_pairing.dutch.loop import RoundContext
from cpsat_pairing.dutch.result import Pair
from cpsat_pairing.solver.matching import max_matching


def own_floaters_complete(rc: RoundContext, players: Sequence[int], mdps: Sequence[int],
                          full: Sequence[Pair]) -> bool:
    """Whoever the bracket's own best pairing floats, the rest of the round can be paired
    after it.

    M1 then P make that pairing a maximum matching of the bracket (one that pairs the
    most MDPs pairs as many players as any), so it floats as many players as every
    maximum matching leaves out: none, where the bracket has a perfect matching, and then
    the rest is the players below it; one, where a player is left out, and then he is one
    that some maximum matching leaves out.  Two or more are not screened.  (The bracket's
    pairs are those of its model: two MDPs are never one.)  `full`: a complete pairing
    of the round, the completion checks' start."""
    index = {p: i for i, p in enumerate(players)}
    moved = frozenset(mdps)  # two MDPs are never a pair of the bracket (BracketModel.inside)
    adj = [[index[q] for q in rc.compatible.neighbours(p) if q in index and not (p in moved and q in moved)]
           for p in players]
    mate = max_matching(adj)
    left_out = mate.count(-1)
    inside = set(players)
    below = [p for p in rc.remaining if p not in inside]
    base = complete_pairing(below, rc.compatible, rc.pab_allowed, full)
    if left_out == 0:
        return base is not None
    if left_out > 1:
        return False
    size = len(players) - 1
    extends = _extension(rc, below, base)
    for i, p in enumerate(players):
        if extends(p) or complete_pairing([*below, p], rc.compatible, rc.pab_allowed, full) is not None:
            continue
        # Can a maximum matching leave p out?  The bracket without him, renumbered,
        # from the matching found (less p's pair): perfect exactly then.
        others = [[w if w < i else w - 1 for w in row if w != i] for j, row in enumerate(adj) if j != i]
        start = [-1] * size
        for j, m in enumerate(mate):
            if j != i and m not in (-1, i):
                start[j if j < i else j - 1] = m if m < i else m - 1
        if max_matching(others, start).count(-1) == 0:
            return False  # a maximum matching leaves p out, and the rest cannot be paired
    return True


def _extension(rc: RoundContext, below: list[int], base: list[Pair] | None) -> Callable[[int], bool]:
    """Whether a player p extends `base`, below's own complete pairing, to one of `below`
    and p at once: by the bye (p takes it, or meets the player who has it) or by one
    exchange (p meets a player whose partner takes the bye).  Read off `base` once per
    bracket; where it says no, a completion check decides."""
    if base is None:
        return lambda p: False
    if len(below) % 2:
        paired = {q for pq in base for q in pq}
        bye = next(q for q in below if q not in paired)
        return lambda p: rc.compatible(p, bye)
    mate = {a: b for pq in base for a, b in (pq, pq[::-1])}
    return lambda p: p in rc.pab_allowed or any(
        mate[q] in rc.pab_allowed for q in rc.compatible.neighbours(p) if q in mate)
