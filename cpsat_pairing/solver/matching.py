"""Maximum-cardinality matching in general graphs (Edmonds' blossom algorithm).

Used to check completion ([C4]) quickly: can these players all be paired, given who
may meet whom?  CP-SAT answers the same question, but a dedicated augmenting-path
search from a warm start answers it far faster, which matters once per bracket.
"""

from __future__ import annotations

from collections import deque
from typing import Callable, Collection, Iterable, Sequence


def max_matching(adj: Sequence[Sequence[int]], mate: list[int] | None = None, prune: bool = True) -> list[int]:
    """Return `mate` (mate[v] = partner or -1) of a maximum matching of the graph.

    `adj[v]` lists the neighbours of vertex v (0..n-1).  `mate`, if given, is a valid
    matching to start from (it is improved in place and returned); free vertices are
    first matched greedily.

    A search from a free vertex that finds no augmenting path leaves a Hungarian tree
    whose vertices lie on no augmenting path, then or after later augmentations (which
    never touch them); with `prune` later searches skip them instead of exploring them
    again, so a graph where most searches fail costs about one pass, not one per free
    vertex.  The searches otherwise run in the same order: the same matching either way
    (`prune=False` is the reference the tests compare with).
    """
    n = len(adj)
    if mate is None:
        mate = [-1] * n
    for v in range(n):  # greedy start: most of the work done cheaply
        if mate[v] == -1:
            for w in adj[v]:
                if mate[w] == -1:
                    mate[v], mate[w] = w, v
                    break
    dead = [False] * n
    for root in range(n):
        if mate[root] == -1 and not dead[root]:
            _augment_from(adj, mate, root, dead if prune else None)
    return mate


def _augment_from(adj: Sequence[Sequence[int]], mate: list[int], root: int, dead: list[bool] | None = None) -> bool:
    """Search an augmenting path from the free vertex `root` and flip it if found; if
    there is none, mark the search's Hungarian tree in `dead` (whose vertices it skips)."""
    n = len(adj)
    parent = [-1] * n
    base = list(range(n))
    used = [False] * n
    used[root] = True
    queue = deque([root])
    skip = dead if dead is not None else [False] * n

    def lca(a: int, b: int) -> int:
        seen = [False] * n
        while True:
            a = base[a]
            seen[a] = True
            if mate[a] == -1:
                break
            a = parent[mate[a]]
        while True:
            b = base[b]
            if seen[b]:
                return b
            b = parent[mate[b]]

    def mark_path(v: int, b: int, child: int, blossom: list[bool]) -> None:
        while base[v] != b:
            blossom[base[v]] = blossom[base[mate[v]]] = True
            parent[v] = child
            child = mate[v]
            v = parent[mate[v]]

    while queue:
        v = queue.popleft()
        for to in adj[v]:
            if skip[to] or base[v] == base[to] or mate[v] == to:
                continue
            if to == root or (mate[to] != -1 and parent[mate[to]] != -1):
                cur = lca(v, to)
                blossom = [False] * n
                mark_path(v, cur, to, blossom)
                mark_path(to, cur, v, blossom)
                for i in range(n):
                    if blossom[base[i]]:
                        base[i] = cur
                        if not used[i]:
                            used[i] = True
                            queue.append(i)
            elif parent[to] == -1:
                parent[to] = v
                if mate[to] == -1:
                    # Flip the path root ... v - to.
                    while to != -1:
                        pv = parent[to]
                        nxt = mate[pv]
                        mate[to], mate[pv] = pv, to
                        to = nxt
                    return True
                used[mate[to]] = True
                queue.append(mate[to])
    if dead is not None:
        for i in range(n):
            if used[i] or parent[i] != -1:
                dead[i] = True
    return False


def grows(adj: Sequence[Sequence[int]], mate: Sequence[int], row: Iterable[int]) -> bool:
    """Whether a new vertex adjacent to `row` lets the maximum matching `mate` of `adj`
    grow: a vertex adds at most one pair, and it does exactly when one augmenting search
    from it succeeds (Edmonds).  `adj` and `mate` are left as they are."""
    n = len(adj)
    extended = list(adj)
    new_row = list(row)
    for w in new_row:
        extended[w] = [*adj[w], n]
    extended.append(new_row)
    return _augment_from(extended, [*mate, -1], n)


def growth(adj: Sequence[Sequence[int]], mate: Sequence[int], rows: Sequence[Iterable[int]]) -> int:
    """How many pairs new vertices add to the maximum matching `mate` of `adj`: the
    k-th new vertex is adjacent to `rows[k]` (old vertices, and new ones by their index
    n + j, j < k).  Each is added in turn to a maximum matching of the graph so far, so
    one augmenting search from it says whether it adds a pair (Edmonds), and the graph
    is matched once, not once per set of new vertices.  `adj` and `mate` are left as
    they are."""
    extended: list[Sequence[int]] = list(adj)  # a row is copied only when it grows
    matched = list(mate)
    added = 0
    for row in rows:
        v = len(extended)
        new_row = [w for w in row if w < v]
        for w in new_row:
            extended[w] = [*extended[w], v]
        extended.append(new_row)
        matched.append(-1)
        added += _augment_from(extended, matched, v)
    return added


def max_matching_covering(adj: Sequence[Sequence[int]], first: Sequence[int],
                          start: Iterable[tuple[int, int]] = ()) -> list[int]:
    """A maximum matching that covers as many of the vertices `first` as any matching
    can, each earlier one before later ones; no two of `first` may be adjacent.
    The edges of `start` whose two ends are still free then join the matching before
    it is completed (a warm start: with lazy rows, only the players left free by them
    have their neighbours listed).

    The vertex sets a matching can cover form a matroid, so taking them greedily in order
    gives that set.  Each is matched to a free neighbour or by an augmenting path before
    any other vertex is matched: every matched edge then joins a `first` vertex to
    another, so a search from a `first` vertex is a bipartite one (no blossom), and it
    finds a path whenever the vertices taken so far and this one can be covered
    together; augmenting uncovers nobody.  The rest is then completed to a maximum
    matching, which again uncovers nobody."""
    mate = [-1] * len(adj)
    for v in first:
        if mate[v] == -1:
            w = next((w for w in adj[v] if mate[w] == -1), -1)
            if w != -1:
                mate[v], mate[w] = w, v
            else:
                _augment_from(adj, mate, v)
    for v, w in start:
        if mate[v] == mate[w] == -1:
            mate[v], mate[w] = w, v
    return max_matching(adj, mate)


def augment_bipartite(p: int, partners: Callable[[int], Iterable[int]], mate: dict[int, int], seen: set[int]) -> bool:
    """Kuhn's augmenting path from the left vertex `p` (`partners(v)`: the right
    vertices v may take, in the order tried; `mate`: each matched right vertex's left
    partner), flipped if found.  A left vertex matched before stays matched, so left
    vertices augmented in turn are matched greedily in that order."""
    for q in partners(p):
        if q in seen:
            continue
        seen.add(q)
        if q not in mate or augment_bipartite(mate[q], partners, mate, seen):
            mate[q] = p
            return True
    return False


def greedy_mate(players: Sequence[int], excluded: Callable[[int], Collection[int]]) -> list[int]:
    """A matching to start from, by index into `players`: each player in turn with the
    next free player he may meet (`excluded(p)`: whom p may not).  It pairs nearly
    everyone at once, so an augmenting search from it lists few rows (LazyAdjacency)."""
    n = len(players)
    mate = [-1] * n
    for i, p in enumerate(players):
        if mate[i] == -1:
            far = excluded(p)
            j = next((j for j in range(i + 1, n) if mate[j] == -1 and players[j] not in far), None)
            if j is not None:
                mate[i], mate[j] = j, i
    return mate


def is_perfect(adj: Sequence[Sequence[int]], mate: list[int] | None = None) -> tuple[bool, list[int]]:
    m = max_matching(adj, mate)
    return all(x != -1 for x in m), m


class LazyAdjacency(Sequence[list[int]]):
    """Adjacency lists computed on first use: an augmenting-path search from a good
    warm start reaches few vertices, and listing every vertex's neighbours up front
    costs more than the search."""

    def __init__(self, size: int, row: Callable[[int], list[int]]) -> None:
        self._rows: list[list[int] | None] = [None] * size
        self._row = row
        self._extra: dict[int, list[int]] = {}  # edges added before their row was listed

    def __len__(self) -> int:
        return len(self._rows)

    def __getitem__(self, v: int) -> list[int]:  # type: ignore[override]
        got = self._rows[v]
        if got is None:
            got = self._rows[v] = self._row(v) + self._extra.pop(v, [])
        return got

    def add_edge(self, a: int, b: int) -> None:
        """An edge beyond those `row` lists (listed last in both rows)."""
        for v, w in ((a, b), (b, a)):
            got = self._rows[v]
            if got is None:
                self._extra.setdefault(v, []).append(w)
            else:
                got.append(w)
