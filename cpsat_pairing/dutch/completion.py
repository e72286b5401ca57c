"""A complete round-pairing by a maximum matching (Edmonds), without a model.

It is the witness a round's first bracket model starts from (a feasibility solve of a
big bracket costs more than its tiers), and the 2017 loop's test of whether a
bracket's downfloaters and the players below can still be paired (A.9).
"""

from __future__ import annotations

from collections.abc import Iterable

from cpsat_pairing.domain.compat import Compatibility
from cpsat_pairing.solver.matching import LazyAdjacency, is_perfect

Pair = tuple[int, int]


def complete_pairing(players: list[int], ok: Compatibility, eligible: frozenset[int],
                     start: Iterable[Pair] = ()) -> list[Pair] | None:
    """A pairing of all `players` but at most one allowed the PAB, or None.

    The matching starts from the pairs of `start` (the last such pairing found) that
    join two of `players`, and lists a player's neighbours only when a search reaches
    him: below a bracket most of the last pairing still holds."""
    index = {p: i for i, p in enumerate(players)}
    n = len(players)
    odd = n % 2 == 1

    def row(i: int) -> list[int]:
        if i == n:  # the PAB
            return [index[p] for p in players if p in eligible]
        out = [index[q] for q in ok.neighbours(players[i]) if q in index]
        if odd and players[i] in eligible:
            out.append(n)
        return out

    adj = LazyAdjacency(n + odd, row)
    mate = [-1] * (n + odd)
    for p, q in start:
        i, j = index.get(p), index.get(q)
        if i is not None and j is not None and mate[i] == mate[j] == -1:
            mate[i], mate[j] = j, i
    good, mate = is_perfect(adj, mate)
    if not good:
        return None
    return [(players[i], players[j]) for i, j in enumerate(mate[:n]) if i < j < n]
