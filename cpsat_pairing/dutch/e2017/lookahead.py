"""[C.7] by matchings: a normal bracket paired without a model of the next scoregroup.

[C.7] asks for the downfloaters that give the following bracket (the downfloaters and
the next scoregroup) the most pairs, then the smallest PSD: from the highest SD down,
the fewest of this bracket's players left without a partner.  For a given set D of k
downfloaters both are one matching question, since no two of D can meet there (their
pair would be a pair inside this bracket):

* the pairs are at most (k + |next scoregroup|) // 2;
* the PSD is best when every player of D is paired.

When the set D that [C.5] and [C.6] leave reaches both bounds, no other set can do
better, and [C.7] is decided without the pair model of the bracket and the next
scoregroup (whose pairs are the square of their number): the later tiers are solved on
the bracket alone, each new set of downfloaters checked to reach the bounds too.  A
set that does not reach them hands the bracket to the full model
(`dutch/e2017/procedure.py`); so does a final bracket, where [C.7] weighs the round's
completion instead.
"""

from __future__ import annotations

from fractions import Fraction

from cpsat_pairing.domain.compat import Compatibility
from cpsat_pairing.dutch.e2017.bracket import BracketModel2017
from cpsat_pairing.formats.layout import points_text as points
from cpsat_pairing.solver.matching import max_matching_covering
from cpsat_pairing.records import Tier, TierKind


class NextBracket:
    """The next bracket of a normal bracket as matchings: `inner` is the bracket alone
    (its downfloaters' SDs measured from the next scoregroup), `lower` the next
    scoregroup."""

    def __init__(self, inner: BracketModel2017, lower: list[int], compatible: Compatibility) -> None:
        self.inner = inner
        self.lower = lower
        nb = compatible.neighbours
        index = self.index = {p: i for i, p in enumerate(lower)}
        # Each row in the next scoregroup's order; by set intersection, since a
        # player's neighbours are the whole round less a few (domain/compat.py).
        lower_set = frozenset(lower)
        self.rows = [sorted(index[q] for q in nb(p) & lower_set) for p in lower]
        self.below = {p: sorted(index[q] for q in nb(p) & lower_set) for p in inner.bracket}
        # Those of the bracket with a partner in the bracket or below (two MDPs never
        # meet): the players the full model's [C.7] PSD counts, by SD.
        mdps, in_bracket = inner.mdps, inner.in_bracket
        residents = in_bracket - mdps
        self.counted = [
            p for p in inner.bracket
            if self.below[p] or not nb(p).isdisjoint(residents if p in mdps else in_bracket)
        ]
        self._seen: dict[frozenset[int], bool] = {}

    def reaches_bounds(self, floaters: frozenset[int]) -> bool:
        """Do these downfloaters give the next bracket (k + |next|) // 2 pairs, and a
        partner to each of them that has one anywhere?"""
        got = self._seen.get(floaters)
        if got is None:
            got = self._seen[floaters] = self._reaches(floaters)
        return got

    def _covering(self, floaters: frozenset[int]) -> tuple[list[int], list[int]]:
        """The downfloaters from the highest SD down, and a maximum matching of the next
        bracket that covers as many of them as any matching can, in that order (the
        i-th of them is vertex len(lower) + i)."""
        inner, n = self.inner, len(self.lower)
        order = sorted(floaters, key=lambda p: (-inner.sd_floater(p), inner.pos[p]))
        adj = [list(row) for row in self.rows] + [list(self.below[p]) for p in order]
        for i, p in enumerate(order):
            for j in self.below[p]:
                adj[j].append(n + i)
        return order, max_matching_covering(adj, range(n, n + len(order)))

    def _reaches(self, floaters: frozenset[int]) -> bool:
        n = len(self.lower)
        counted = frozenset(self.counted)
        order, mate = self._covering(floaters)
        if any(mate[n + i] == -1 for i, p in enumerate(order) if p in counted):
            return False
        return sum(1 for v in mate if v != -1) // 2 == (len(floaters) + n) // 2

    def optimum(self, floaters: frozenset[int]) -> list[Tier]:
        """[C.7]'s tiers for these downfloaters, each bracket player but them paired in
        the bracket (a given pairing's): the next bracket's most pairs, then from the
        highest SD down the most of the bracket's players paired -- at the bounds or
        not.  The vertex sets a matching can cover form a matroid whose bases are the
        maximum matchings' (matching.max_matching_covering), so covering the
        downfloaters greedily from the highest SD down reaches every tier at once."""
        inner, n = self.inner, len(self.lower)
        order, mate = self._covering(floaters)
        covered = {p for i, p in enumerate(order) if mate[n + i] != -1}
        out = [Tier("C.7", "next-bracket pairs", -(sum(1 for v in mate if v != -1) // 2), TierKind.QUALITY, True)]
        by_sd: dict[int, int] = {}
        for p in self.counted:
            by_sd[inner.sd_floater(p)] = by_sd.get(inner.sd_floater(p), 0) + int(p not in floaters or p in covered)
        for sd in sorted(by_sd, reverse=True):
            detail = f"next-bracket PSD: paired downfloaters with SD {points(Fraction(sd, inner.unit))}"
            out.append(Tier("C.7", detail, -by_sd[sd], TierKind.QUALITY, True))
        return out

    def tiers(self, k: int) -> list[Tier]:
        """[C.7]'s tiers at their bounds, as the full model records them: the pairs,
        then one PSD tier per SD of the players counted, highest first."""
        inner = self.inner
        out = [Tier("C.7", "next-bracket pairs", -((k + len(self.lower)) // 2), TierKind.QUALITY, True)]
        by_sd: dict[int, int] = {}
        for p in self.counted:
            by_sd[inner.sd_floater(p)] = by_sd.get(inner.sd_floater(p), 0) + 1
        for sd in sorted(by_sd, reverse=True):
            detail = f"next-bracket PSD: paired downfloaters with SD {points(Fraction(sd, inner.unit))}"
            out.append(Tier("C.7", detail, -by_sd[sd], TierKind.QUALITY, True))
        return out
