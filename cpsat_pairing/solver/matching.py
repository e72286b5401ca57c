"""Maximum-cardinality matching in general graphs (Edmonds' blossom algorithm).

Used to check completion ([C4]) quickly: can these players all be paired, given who
may meet whom?  CP-SAT answers the same question, but a dedicated augmenting-path
search from a warm start answers it far faster, which matters once per bracket.
"""

from __future__ import annotations

from collections import deque
from typing import Callable, Sequence


def max_matching(adj: Sequence[Sequence[int]], mate: list[int] | None = None) -> list[int]:
    """Return `mate` (mate[v] = partner or -1) of a maximum matching of the graph.

    `adj[v]` lists the neighbours of vertex v (0..n-1).  `mate`, if given, is a valid
    matching to start from (it is improved in place and returned); free vertices are
    first matched greedily.
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
    for root in range(n):
        if mate[root] == -1:
            _augment_from(adj, mate, root)
    return mate


def _augment_from(adj: Sequence[Sequence[int]], mate: list[int], root: int) -> bool:
    """Search an augmenting path from the free vertex `root` and flip it if found."""
    n = len(adj)
    parent = [-1] * n
    base = list(range(n))
    used = [False] * n
    used[root] = True
    queue = deque([root])

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
            if base[v] == base[to] or mate[v] == to:
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
    return False


def max_bipartite_matching(adj: Sequence[Sequence[int]], mate: list[int] | None = None, *, left: int) -> list[int]:
    """`max_matching` for a bipartite graph, vertices 0..left-1 on one side and the rest
    on the other, with the same answer; an edge within a side the search meets raises
    ValueError (without blossoms the search would be wrong there, or not end).

    Without odd cycles there is no blossom, and a search that finds no augmenting path
    leaves behind a Hungarian tree whose vertices lie on no augmenting path, now or after
    later augmentations (which never touch them): later searches skip them instead of
    exploring them again.  A search that fails from every free vertex of a big graph
    then costs one pass over it, not one per free vertex."""
    n = len(adj)
    if mate is None:
        mate = [-1] * n
    for v in range(n):  # the same greedy start as max_matching
        if mate[v] == -1:
            for w in adj[v]:
                if mate[w] == -1:
                    mate[v], mate[w] = w, v
                    break
    parent = [-1] * n
    dead = [False] * n
    for root in range(n):
        if mate[root] != -1 or dead[root]:
            continue
        reached = [root]
        queue = deque([root])
        found = False
        while queue and not found:
            v = queue.popleft()
            side = v < left
            for to in adj[v]:
                if (to < left) == side:
                    raise ValueError(f"not bipartite: edge {v}-{to} within a side")
                if dead[to] or parent[to] != -1 or mate[v] == to:
                    continue
                parent[to] = v
                reached.append(to)
                if mate[to] == -1:
                    while to != -1:  # flip the path root ... v - to
                        pv = parent[to]
                        nxt = mate[pv]
                        mate[to], mate[pv] = pv, to
                        to = nxt
                    found = True
                    break
                reached.append(mate[to])
                queue.append(mate[to])
        for v in reached:
            parent[v] = -1
            if not found:
                dead[v] = True
    return mate


def max_matching_covering(adj: Sequence[Sequence[int]], first: Sequence[int]) -> list[int]:
    """A maximum matching that covers as many of the vertices `first` as any matching
    can, each earlier one before later ones; no two of `first` may be adjacent.

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
    return max_matching(adj, mate)


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
