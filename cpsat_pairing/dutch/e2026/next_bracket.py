"""[C8] for one candidate of a 2026 bracket: its ceilings, a complete round-pairing
that makes them ([C4] too), which proves them, and where none is found, its exact
value ([C9] above the last bracket with it).

The bracket alone cannot know what the following bracket will pair; dutch/e2026/direct.py
ranks candidates with [C8] at these ceilings and keeps the best where such a
round-pairing is found: the witness the round carries, else one built with blossom
matchings.  Otherwise it ranks them on exact values (`exact_next`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations, groupby

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


@dataclass
class NextValue:
    """A downfloater set's exact [C8] counts (keyed as `next_ceilings` keys them), its
    [C9] value (the one downfloater's unplayed games if every such round-pairing gives
    him the PAB, else 0), and a complete round-pairing of the players the bracket's
    pairs leave that makes them."""

    counts: dict[int, int]
    pab_unplayed: int
    rest: list[Pair]


def exact_next(br: BracketFacts, c8_levels: Sequence[int], floaters: Sequence[int], pab_player: int | None,
               step: Callable[[int], None]) -> NextValue | None:
    """[C8] and [C9] for these downfloaters as the exact model finds them, over every
    complete round-pairing of the players left ([C4]); None if there is none.

    The following bracket's pairs W (each a next-scoregroup resident with a downfloater
    or another resident) are valued by their number, then by their downfloaters' score
    levels, highest first: the value is W's players', whatever pairs them.  The player
    sets W are tried from the highest value down, and the first that is perfectly
    paired by such pairs while the other players can be completely paired is the
    optimum: a round-pairing containing W is worth at least W's value, and the
    optimum's own W comes no later.  `pab_player`: the one downfloater, where [C9]
    counts his unplayed games; his value class is then searched for a round-pairing
    that does not leave him the PAB.  Each set W tried `step`s by the number of
    players left (its matching starts from one of them all, and repairs it), the
    downfloaters' subsets by their number."""
    rc = br.rc
    fset = frozenset(floaters)
    in_bracket = frozenset(br.players)
    rest = [p for p in rc.remaining if p not in in_bracket or p in fset]
    n = len(rest)
    step(n)
    mdps = br.mdps
    excluded = rc.compatible.excluded
    allowed = rc.pab_allowed
    # The players left: any two who may meet, but two downfloaters only if both are MDPs
    # (any other two would be a pair of the bracket: another candidate); the PAB as a
    # vertex `n` when they are odd in number.

    def row(i: int) -> list[int]:
        if i == n:
            return [j for j, p in enumerate(rest) if p in allowed]
        p = rest[i]
        far = excluded(p)
        if p in fset:
            out = [j for j, q in enumerate(rest) if q not in far and (q not in fset or (p in mdps and q in mdps))]
        else:
            out = [j for j, q in enumerate(rest) if q not in far]
        if n % 2 and p in allowed:
            out.append(n)
        return out

    every = LazyAdjacency(n + n % 2, row)
    index = {p: i for i, p in enumerate(rest)}
    # The round's witness pairs nearly all of them already: a warm start that lists few
    # rows, however big the round.
    start = [-1] * len(every)
    for p, q in rc.witness:
        i, j = index.get(p), index.get(q)
        if (i is not None and j is not None and q not in excluded(p)
                and not (p in fset and q in fset and not (p in mdps and q in mdps))):
            start[i], start[j] = j, i
    whole = max_matching(every, start)
    ng = [index[q] for q in br.next_group]
    ng_set = frozenset(ng)
    units = br.units
    d_levels = [u for u in c8_levels if u != br.ng_level]
    leaders = [index[p] for p in floaters if p in br.dn_set]
    step(1 << len(leaders))  # their subsets, listed and sorted
    subsets = sorted(((tuple(sum(1 for i in a if units[rest[i]] == u) for u in d_levels), a)
                      for r in range(len(leaders) + 1) for a in combinations(leaders, r)),
                     key=lambda t: t[0], reverse=True)
    pab = index[pab_player] if pab_player is not None and n % 2 else None
    top = next_ceilings(br, c8_levels, floaters)[-1]
    for k in range(top, -1, -1):
        for profile, group in groupby(subsets, key=lambda t: t[0]):
            leaving_pab: NextValue | None = None
            for _, a in group:
                if len(a) > k or 2 * k - len(a) > len(ng):
                    continue
                for b in combinations(ng, 2 * k - len(a)):
                    step(n)
                    inner = _paired_inside(every, a, b, ng_set)
                    if inner is None:
                        continue
                    counts = {-1: k, **dict(zip(d_levels, profile))}
                    if br.ng_level is not None:
                        counts[br.ng_level] = k - len(a)
                    if pab is not None and pab not in a:
                        outer = _completed(every, whole, inner, avoid=pab)
                        if outer is None:
                            if leaving_pab is None:
                                outer = _completed(every, whole, inner)
                                if outer is not None:
                                    pairs = [(rest[i], rest[j]) for i, j in outer if j != n]
                                    leaving_pab = NextValue(counts, br.ps[rest[pab]].unplayed, pairs)
                            continue
                    else:
                        outer = _completed(every, whole, inner)
                        if outer is None:
                            continue
                    return NextValue(counts, 0, [(rest[i], rest[j]) for i, j in outer if j != n])
            if leaving_pab is not None:
                return leaving_pab
    return None


def _paired_inside(every: LazyAdjacency, a: tuple[int, ...], b: tuple[int, ...],
                   ng: frozenset[int]) -> list[tuple[int, int]] | None:
    """A perfect pairing of the downfloaters `a` and residents `b` by the following
    bracket's pairs (a downfloater with a resident, or two residents), or None."""
    verts = [*a, *b]
    local = {v: i for i, v in enumerate(verts)}
    sub = [[local[w] for w in every[v] if w in local and (v in ng or w in ng)] for v in verts]
    perfect, mate = is_perfect(sub)
    return [(verts[i], verts[j]) for i, j in enumerate(mate) if i < j] if perfect else None


def _completed(every: LazyAdjacency, whole: list[int], inner: list[tuple[int, int]],
               avoid: int | None = None) -> list[tuple[int, int]] | None:
    """A complete pairing of the players left that contains the pairs `inner` (not
    leaving `avoid` the PAB, the last vertex), or None: a maximum matching of them
    all (`whole`) with those pairs put in, the players they took from freed and
    matched again."""
    dummy = len(every) - 1
    partner = {x: y for a, b in inner for x, y in ((a, b), (b, a))}
    mate = list(whole)
    for v in partner:
        w = mate[v]
        if w != -1 and w not in partner:
            mate[w] = -1
    for v, w in partner.items():
        mate[v] = w
    if avoid is not None and mate[avoid] == dummy:
        mate[avoid] = mate[dummy] = -1

    def row(v: int) -> list[int]:
        if v in partner:
            return [partner[v]]
        got = [w for w in every[v] if w not in partner]
        if avoid is not None and v in (avoid, dummy):
            got = [w for w in got if w != (dummy if v == avoid else avoid)]
        return got

    perfect, mate = is_perfect(LazyAdjacency(len(every), row), mate)
    return [(v, w) for v, w in enumerate(mate) if v < w] if perfect else None
