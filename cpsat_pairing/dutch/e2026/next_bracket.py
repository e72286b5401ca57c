"""[C8] for one candidate of a 2026 bracket: its ceilings, and a complete round-pairing
that makes them ([C4] too), which proves them.

The bracket alone cannot know what the following bracket will pair; dutch/e2026/direct.py
ranks candidates with [C8] at these ceilings and keeps the best only where such a
round-pairing is found: the witness the round carries, else one built with blossom
matchings.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from cpsat_pairing.dutch.e2026.scoring import BracketFacts
from cpsat_pairing.dutch.loop import RoundContext
from cpsat_pairing.dutch.result import Pair
from cpsat_pairing.solver.matching import LazyAdjacency, augment_bipartite, greedy_mate, is_perfect, max_matching


def next_ceilings(br: BracketFacts, c8_levels: Sequence[int], floaters: Sequence[int]) -> dict[int, int]:
    """[C8]'s counts at their ceilings for these downfloaters: the total (key -1),
    then each level highest first.  Every pair of the following bracket holds a
    next-scoregroup resident below; a downfloater leads at most one, and only one
    who may meet a resident; pairs of two residents need two who may meet."""
    units = br.units
    ng = len(br.next_group)
    dn = br.dn_set
    by_level: dict[int, int] = {}
    for p in floaters:
        if p in dn:
            by_level[units[p]] = by_level.get(units[p], 0) + 1
    d = len(floaters)
    total = min(ng, (d + ng) // 2, sum(by_level.values()) + (ng // 2 if br.nn_possible else 0))
    out = {-1: total}
    above = 0
    for u in c8_levels:
        if u == br.ng_level:
            out[u] = total - above
        else:
            out[u] = min(by_level.get(u, 0), ng - above, total - above)
        above += out[u]
    return out


def witness_completion(br: BracketFacts, pairs: list[Pair], ceilings: dict[int, int]) -> list[Pair] | None:
    """The round's witness (a complete round-pairing of the remaining players: the
    file's own where `check` gave it) when it makes this candidate and [C8]'s
    ceilings."""
    inside, rest = br.witness_parts
    players = br.players
    if {(players[i], players[j]) for i, j in inside} != set(pairs):
        return None
    in_bracket = frozenset(players)
    ns = frozenset(br.next_group)
    units = br.units
    led: dict[int, int] = {}
    for p, q in rest:
        if p in ns and q in ns:
            level = units[p]
        elif p in ns and q in in_bracket or q in ns and p in in_bracket:
            level = units[q if p in ns else p]
        else:
            continue
        led[level] = led.get(level, 0) + 1
    if sum(led.values()) != ceilings.get(-1, 0):
        return None
    if any(led.get(u, 0) != ceilings[u] for u in ceilings.keys() - {-1}):
        return None
    return list(pairs) + rest


def completion(br: BracketFacts, pairs: list[Pair], floaters: list[int], ceilings: dict[int, int]) -> list[Pair] | None:
    """A complete round-pairing of the remaining players with the bracket's `pairs`
    in which the following bracket makes [C8]'s ceilings, or None if none is found."""
    if not br.next_group:
        return list(pairs)  # the last bracket: its floater, if any, has the PAB
    from_witness = witness_completion(br, pairs, ceilings)
    if from_witness is not None:
        return from_witness
    units = br.units
    ng = br.next_group
    ok = br.ok
    # The downfloaters, highest level first, each to a resident of the next
    # scoregroup by an augmenting path (a matched downfloater stays matched).
    order = sorted(floaters, key=lambda p: -units[p])
    mate: dict[int, int] = {}

    def residents(v: int) -> Iterable[int]:
        return (q for q in ng if ok(v, q))

    for p in order:
        if p in br.dn_set:
            augment_bipartite(p, residents, mate, set())
    led: dict[int, int] = {}
    for p in mate.values():
        led[units[p]] = led.get(units[p], 0) + 1
    for u in ceilings.keys() - {-1}:
        if u != br.ng_level and led.get(u, 0) != ceilings[u]:
            return None
    out = list(pairs)
    out += [(p, q) for q, p in mate.items()]
    free_ng = [q for q in ng if q not in mate]
    want = ceilings.get(-1, 0) - len(mate)
    # The residents left pair among themselves, `want` pairs: where that is all of
    # them but one, each in turn is the one who goes down (or has the PAB).
    leftovers: list[int | None] = [None]
    if want and want == len(free_ng) // 2 and len(free_ng) % 2:
        leftovers = list(reversed(free_ng))
    excluded = br.rc.compatible.excluded
    for out_of_ng in leftovers:
        group = [q for q in free_ng if q != out_of_ng]
        inner: list[Pair] = []
        if want:
            adj = LazyAdjacency(len(group), lambda i: [j for j, q in enumerate(group)
                                                       if j != i and q not in excluded(group[i])])
            m = max_matching(adj, greedy_mate(group, excluded))
            inner = [(group[i], group[j]) for i, j in enumerate(m) if i < j]
            if len(inner) < want:
                continue
        done = {p for pq in out for p in pq} | {p for pq in inner[:want] for p in pq}
        rest = [p for p in br.rc.remaining if p not in done]
        tail = out + inner[:want]
        if _completes(rest, br.rc, tail):
            return tail
    return None


def _completes(rest: list[int], rc: RoundContext, out: list[Pair]) -> bool:
    """Pair `rest` completely (the PAB, if one is left, to a player [C2] and [C5] allow),
    appending the pairs to `out`."""
    excluded = rc.compatible.excluded
    n = len(rest)
    dummy = n if n % 2 else -1

    def row(i: int) -> list[int]:
        if i == dummy:
            return [j for j, p in enumerate(rest) if p in rc.pab_allowed]
        far = excluded(rest[i])
        found = [j for j, q in enumerate(rest) if j != i and q not in far]
        if dummy >= 0 and rest[i] in rc.pab_allowed:
            found.append(dummy)
        return found

    adj = LazyAdjacency(n + (n % 2), row)
    perfect, mate = is_perfect(adj, greedy_mate(rest, excluded) + [-1] * (n % 2))
    if not perfect:
        return False
    out += [(p, rest[mate[i]]) for i, p in enumerate(rest) if i < mate[i] < n]
    return True
