"""The best candidate of a bracket by its tier values, then the generation order.

The search behind dutch/e2026/direct.py, on the bracket's players as indices 0..n-1
(BSN - 1).  A candidate pairs all but `d` of them, `d` the fewest any pairing leaves;
its value is one integer whose digits are the tiers, most significant first: what its
downfloaters weigh (`float_value`, a set's own sum) plus what its pairs weigh (each
pair its own).  Two searches, each a branch and bound over non-negative weights:

1. the least value: the downfloater sets in the order of their own value, each with
   the least pairing of the others; a set whose own value already exceeds the best
   ends the search;
2. the first candidate at that value in the generation order (Art. 4, as the model's
   order tiers fix it): the MDP set, the MDPs' partners, the remainder's exchange, its
   transposition.  S1 of a pairing of the remainder is the higher-ranked player of
   each of its pairs (see `exchanges`), so a pairing is reached once, from its own S1.

Both count their steps: past `budget` they stop and say nothing (`OutOfBudget`), the
same on every machine.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import combinations, product

from cpsat_pairing.solver.matching import augment_bipartite

Edge = tuple[int, int]


class OutOfBudget(Exception):
    """The search took more steps than its budget: the model decides."""


class CandidateSearch:
    """One bracket's two searches (see the module docstring), sharing a step budget."""

    def __init__(self, rows: list[list[int]], mdps: Sequence[bool], may_float: Sequence[bool],
                 pair_value: dict[Edge, int], float_value: Callable[[tuple[int, ...]], int | None], budget: int,
                 wants: Sequence[int] = (), same_wish: int = 0) -> None:
        """`rows[i]`: the later players i may meet (a pair of two MDPs is no candidate's);
        `float_value(D)`: what downfloaters D weigh, indices ascending (None: D is no
        candidate's).  `wants[i]`: the
        colour i prefers (1, 2; 0 none), a pair of two who prefer the same weighing
        `same_wish` in the pair values (the [C12] digit)."""
        self.rows = rows
        self.wants = list(wants) or [0] * len(rows)
        self.same_wish = same_wish
        self.n = len(rows)
        self.mdps = mdps
        self.may_float = may_float
        self.pair_value = pair_value
        self.float_value = float_value
        self.budget = budget
        self.steps = 0
        # Each player's lightest pair: the players still to pair weigh at least half
        # the sum of theirs (a pair weighs at least the mean of its two players' least).
        least: list[int | None] = [None] * self.n
        for i, row in enumerate(rows):
            for j in row:
                w = pair_value.get((i, j), 0)
                for k in (i, j):
                    if least[k] is None or w < least[k]:  # type: ignore[operator]
                        least[k] = w
        self.least = [w or 0 for w in least]
        # Each player's later partners, lightest pair first (the least pairing's search order).
        self.lightest = [sorted(((pair_value.get((i, j), 0), j) for j in row)) for i, row in enumerate(rows)]

    def _step(self) -> None:
        self.steps += 1
        if self.steps > self.budget:
            raise OutOfBudget

    # -- 1. the least value ------------------------------------------------------------

    def least_value(self, d: int, known: int | None = None) -> tuple[int, dict[tuple[int, ...], int]] | None:
        """The least value of a candidate with `d` downfloaters, and each downfloater
        set that reaches it with the value its pairs must then have; None if no
        candidate has `d` downfloaters.  `known`: the value of some candidate (the
        witness's), which bounds the search from the start.  Each set weighed is a step."""
        floatable = [i for i in range(self.n) if self.may_float[i]]
        sets: list[tuple[int, tuple[int, ...]]] = []
        for D in combinations(floatable, d):
            self._step()
            own = self.float_value(D)
            if own is not None:
                sets.append((own, D))
        sets.sort()
        best: int | None = None
        reaching: dict[tuple[int, ...], int] = {}
        for own, D in sets:
            limit = best if best is not None else known
            if limit is not None and own > limit:
                break
            free = [True] * self.n
            for i in D:
                free[i] = False
            bound = None if limit is None else limit - own
            paired = self._least_pairing(free, bound)
            if paired is None:
                continue
            value = own + paired
            if best is None or value < best:
                best, reaching = value, {D: paired}
            elif value == best:
                reaching[D] = paired
        return None if best is None else (best, reaching)

    def _least_pairing(self, free: list[bool], bound: int | None) -> int | None:
        """The least weight of a pairing of the free players, if one weighs at most `bound`."""
        best: list[int | None] = [bound]
        found = [False]
        rest = sum(self.least[i] for i in range(self.n) if free[i])
        wanting = [0, 0, 0]
        for i in range(self.n):
            if free[i]:
                wanting[self.wants[i]] += 1
        self._pair_from(0, free, 0, rest, wanting, best, found)
        return best[0] if found[0] else None

    def _pair_from(self, i: int, free: list[bool], value: int, rest: int, wanting: list[int],
                   best: list[int | None], found: list[bool]) -> None:
        """Pair the free players from `i` on; `best` the least weight found (`found`),
        else the bound a pairing may reach: a branch that cannot go below the one, or
        reach the other, is cut.  What the free players will weigh is at least half
        their lightest pairs (`rest`), and at least the pairs of two who prefer the
        same colour that their numbers force: of k pairs, a colour wanted by w > k of
        the 2k players is wanted by both in w - k of them."""
        self._step()
        n = self.n
        while i < n and not free[i]:
            i += 1
        if i == n:
            if not found[0] or (best[0] is not None and value < best[0]):
                best[0], found[0] = value, True
            return
        limit = best[0]
        if limit is not None:
            k = (wanting[0] + wanting[1] + wanting[2]) // 2
            forced = self.same_wish * (max(0, wanting[1] - k) + max(0, wanting[2] - k))
            ahead = 2 * value + max(rest, 2 * forced)
            if ahead >= 2 * limit if found[0] else ahead > 2 * limit:
                return
        free[i] = False
        least = self.least
        wants = self.wants
        wanting[wants[i]] -= 1
        for w, j in self.lightest[i]:
            if not free[j]:
                continue
            # The child's own first cut, without a call for it (the bound by the
            # lightest pairs alone; the child adds the colours' count).
            limit = best[0]
            ahead = 2 * (value + w) + rest - least[i] - least[j]
            if limit is not None and (ahead >= 2 * limit if found[0] else ahead > 2 * limit):
                continue
            free[j] = False
            wanting[wants[j]] -= 1
            self._pair_from(i + 1, free, value + w, rest - least[i] - least[j], wanting, best, found)
            wanting[wants[j]] += 1
            free[j] = True
        wanting[wants[i]] += 1
        free[i] = True

    # -- 2. the first candidate in the generation order -----------------------------------

    def first_in_order(self, d: int, reaching: dict[tuple[int, ...], int]) -> tuple[list[Edge], list[int]] | None:
        """The first candidate in the generation order whose downfloaters are one of the
        sets `reaching` and whose pairs weigh what that set needs."""
        mdps = [i for i in range(self.n) if self.mdps[i]]
        residents = [i for i in range(self.n) if not self.mdps[i]]
        most = max(reaching.values())
        floatable = frozenset(i for D in reaching for i in D)
        for vector in sorted({tuple(int(m in D) for m in mdps) for D in reaching}):
            floating = [m for m, f in zip(mdps, vector) if f]
            paired = [m for m, f in zip(mdps, vector) if not f]
            sets = [D for D in reaching if tuple(int(m in D) for m in mdps) == vector]
            for mdp_pairs, value in self._mdp_pairings(paired, frozenset(residents), most, 0, 0, [], set()):
                taken = {r for _, r in mdp_pairs}
                if not self._remainder_reaches(sets, taken, paired, value, reaching):
                    continue
                remainder = [r for r in residents if r not in taken]
                n1 = (len(remainder) - (d - len(floating))) // 2
                for s1 in exchanges(remainder, n1, self._step):
                    s2 = frozenset(remainder).difference(s1)
                    if not self._matchable(s1, s2):
                        continue
                    for pairs, total in self._transpositions(s1, s2, floatable, most, 0, value, [], set()):
                        met = {q for _, q in pairs}
                        D = tuple(sorted((*floating, *(q for q in s2 if q not in met))))
                        if reaching.get(D) == total:
                            return [*mdp_pairs, *pairs], list(D)
        return None

    def _remainder_reaches(self, sets: list[tuple[int, ...]], taken: set[int], paired: list[int], value: int,
                           reaching: dict[tuple[int, ...], int]) -> bool:
        """Whether, after an MDP-pairing of weight `value`, the remainder can be paired
        to reach one of the downfloater sets `sets` at its value."""
        for D in sets:
            if taken.intersection(D):
                continue
            free = [True] * self.n
            for i in (*D, *taken, *paired):
                free[i] = False
            if self._least_pairing(free, reaching[D] - value) is not None:
                return True
        return False

    def _matchable(self, s1: list[int], s2: frozenset[int]) -> bool:
        """Whether every S1 player can have his own lower-ranked S2 partner (Kuhn's
        augmenting paths): a transposition exists."""
        mate: dict[int, int] = {}
        rows = self.rows

        def partners(v: int) -> Iterable[int]:
            return (q for q in rows[v] if q in s2)

        for p in s1:
            if not augment_bipartite(p, partners, mate, set()):
                return False
            self._step()
        return True

    def _mdp_pairings(self, paired: list[int], residents: frozenset[int], most: int, k: int, value: int,
                      out: list[Edge], used: set[int]) -> Iterator[tuple[list[Edge], int]]:
        """The MDP-pairings of the MDPs `paired` from the k-th on, each to a resident, in
        the order of their partners' BSNs (MDPs in BSN order), weighing at most `most`."""
        self._step()
        if k == len(paired):
            yield list(out), value
            return
        m = paired[k]
        for r in self.rows[m]:
            if r in residents and r not in used:
                w = value + self.pair_value.get((m, r), 0)
                if w > most:
                    continue
                used.add(r)
                out.append((m, r))
                yield from self._mdp_pairings(paired, residents, most, k + 1, w, out, used)
                out.pop()
                used.discard(r)

    def _transpositions(self, s1: list[int], s2: frozenset[int], floatable: frozenset[int], most: int, k: int,
                        total: int, out: list[Edge], used: set[int]) -> Iterator[tuple[list[Edge], int]]:
        """The pairings of the remainder with S1 `s1` in the order of 4.2: S1's players in
        BSN order, each with a lower-ranked S2 player, lowest BSN first (the S2 players
        left over float, each one of `floatable`), weighing at most `most`: with the
        pairs of two who prefer the same colour that the S1 players still to pair must
        make, an S1 player wanting a colour that fewer S2 players left do not want."""
        self._step()
        if k == len(s1):
            yield list(out), total
            return
        left = [q for q in s2 if q not in used]
        if sum(1 for q in left if q not in floatable) > len(s1) - k:
            return
        wants = self.wants
        if self.same_wish:
            forced = 0
            for colour in (1, 2):
                others = sum(1 for q in left if wants[q] != colour)
                forced += max(0, sum(1 for p in s1[k:] if wants[p] == colour) - others)
            if total + forced * self.same_wish > most:
                return
        p = s1[k]
        for q in self.rows[p]:
            if q in s2 and q not in used:
                w = total + self.pair_value.get((p, q), 0)
                if w > most:
                    continue
                used.add(q)
                out.append((p, q))
                yield from self._transpositions(s1, s2, floatable, most, k + 1, w, out, used)
                out.pop()
                used.discard(q)


def exchanges(remainder: list[int], n1: int, step: Callable[[], None]) -> Iterator[list[int]]:
    """The S1s of the remainder in the order of its exchanges (4.3.2) as the model's
    tiers rank them: fewest players moved, the smallest BSN sum, the highest BSN out
    of the original S1, the lowest into it.  Of a pairing's S1s that order first takes
    the higher-ranked player of each pair (the first two tiers are sums over its pairs,
    each pair's choice its own), so a pairing is generated from that S1 alone.  Each
    S1 ranked costs the search a `step`."""
    s1, s2 = remainder[:n1], remainder[n1:]
    bsn = {p: i + 1 for i, p in enumerate(remainder)}
    for k in range(min(n1, len(s2)) + 1):
        keyed = []
        for out, into in product(combinations(s1, k), combinations(s2, k)):
            step()
            moved = set(out)
            new = [p for p in s1 if p not in moved] + list(into)
            members = set(new)
            key = (sum(bsn[p] for p in new), tuple(int(p in members) for p in reversed(s1)),
                   tuple(-int(q in members) for q in s2))
            keyed.append((key, sorted(new, key=bsn.__getitem__)))
        keyed.sort()
        for _, new in keyed:
            yield new
