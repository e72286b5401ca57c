"""matching: maximum matchings from scratch and from a warm start, against answers
found without the module (every matching of a small graph; the Tutte matrix's rank), on
random graphs and on graphs built so that only contracted blossoms lead to the answer."""

from __future__ import annotations

import random
import signal
from typing import Iterator

import pytest

from cpsat_pairing.solver.matching import (
    LazyAdjacency,
    growth,
    grows,
    is_perfect,
    max_matching,
    max_matching_covering,
)


def _graph(seed: int, most: int = 40, densities: tuple[float, ...] = (0.05, 0.1, 0.3, 0.8)) -> list[list[int]]:
    rng = random.Random(seed)
    n = rng.randint(2, most)
    density = rng.choice(densities)
    adj: list[list[int]] = [[] for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            if rng.random() < density:
                adj[i].append(j)
                adj[j].append(i)
    return adj


def _size(mate: list[int]) -> int:
    return sum(1 for v, w in enumerate(mate) if w > v)


def _valid(adj: list[list[int]], mate: list[int]) -> bool:
    return all(w == -1 or (mate[w] == v and w in adj[v]) for v, w in enumerate(mate))


class _Hang(Exception):
    pass


@pytest.fixture(autouse=True)
def _bounded() -> Iterator[None]:
    """Each test fails, instead of hanging, if it runs past 10 s: a search that never
    contracts a blossom it meets can loop forever."""
    def stop(signum: int, frame: object) -> None:
        raise _Hang("no answer within 10 s")

    old = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, 10)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


PRIME = 2**61 - 1


def _maximum_size(adj: list[list[int]], seed: int = 0) -> int:
    """The size of a maximum matching, without any matching algorithm: the Tutte matrix
    (x_vw above the diagonal for each edge, -x_vw below) with random values mod a prime
    has rank twice that size (Lovasz), except with probability at most n / PRIME."""
    rng = random.Random(seed)
    n = len(adj)
    m = [[0] * n for _ in range(n)]
    for v in range(n):
        for w in adj[v]:
            if v < w:
                x = rng.randrange(1, PRIME)
                m[v][w], m[w][v] = x, PRIME - x
    rank = 0
    for col in range(n):
        pivot = next((r for r in range(rank, n) if m[r][col]), None)
        if pivot is None:
            continue
        m[rank], m[pivot] = m[pivot], m[rank]
        inv = pow(m[rank][col], PRIME - 2, PRIME)
        for r in range(n):
            if r != rank and m[r][col]:
                f = m[r][col] * inv % PRIME
                m[r] = [(a - f * b) % PRIME for a, b in zip(m[r], m[rank])]
        rank += 1
    return rank // 2


@pytest.mark.parametrize("seed", range(60))
def test_a_warm_start_and_lazy_neighbours_give_a_maximum_matching(seed: int) -> None:
    adj = _graph(seed)
    best = _maximum_size(adj)
    # A random (not maximal) matching to start from, as a previous witness would be.
    rng = random.Random(seed + 1000)
    start = [-1] * len(adj)
    for v in rng.sample(range(len(adj)), len(adj)):
        free = [w for w in adj[v] if start[w] == -1 and start[v] == -1]
        if free and rng.random() < 0.5:
            w = rng.choice(free)
            start[v], start[w] = w, v
    rows = LazyAdjacency(len(adj), lambda v: list(adj[v]))
    mate = max_matching(rows, list(start))
    assert _valid(adj, mate)
    assert _size(mate) == best
    assert is_perfect(rows, list(start))[0] == (2 * best == len(adj))


def test_lazy_neighbours_are_listed_once_and_only_when_reached() -> None:
    """From a perfect warm start nothing is searched, so no neighbours are listed."""
    adj = [[1], [0, 2], [1, 3], [2]]
    asked: list[int] = []
    rows = LazyAdjacency(4, lambda v: (asked.append(v), adj[v])[1])
    assert is_perfect(rows, [1, 0, 3, 2])[0]
    assert asked == []
    rows[2], rows[2]
    assert asked == [2]


@pytest.mark.parametrize("seed", range(20))
def test_edges_added_to_lazy_neighbours_reach_both_rows(seed: int) -> None:
    """Edges added before or after a row is listed are in it (as the [C5] search adds
    the PAB's dummy player's edges level by level); the matching is the eager one's size."""
    adj = _graph(seed)
    rng = random.Random(seed)
    extra = [(v, w) for v in range(len(adj)) for w in range(v + 1, len(adj)) if w not in adj[v] and rng.random() < 0.1]
    rows = LazyAdjacency(len(adj), lambda v: list(adj[v]))
    for k, (v, w) in enumerate(extra):
        if k % 2:
            rows[v]  # listed before the edge comes
        rows.add_edge(v, w)
    full = [list(r) for r in adj]
    for v, w in extra:
        full[v].append(w)
        full[w].append(v)
    assert all(sorted(rows[v]) == sorted(full[v]) for v in range(len(adj)))
    assert _size(max_matching(rows)) == _maximum_size(full)


def _matchings(adj: list[list[int]], v: int = 0, used: frozenset[int] = frozenset()):
    """Every matching of a small graph, as the set of vertices it covers."""
    n = len(adj)
    while v < n and v in used:
        v += 1
    if v == n:
        yield used
        return
    yield from _matchings(adj, v + 1, used)  # v stays uncovered
    for w in adj[v]:
        if w > v and w not in used:
            yield from _matchings(adj, v + 1, used | {v, w})


@pytest.mark.parametrize("seed", range(100))
def test_the_tutte_rank_is_the_size_of_every_matching_tried(seed: int) -> None:
    """The oracle above, against every matching of small graphs."""
    adj = _graph(seed, most=11, densities=(0.1, 0.3, 0.6))
    assert _maximum_size(adj, seed) == max(len(c) for c in _matchings(adj)) // 2


@pytest.mark.parametrize("seed", range(300))
def test_covering_matching_takes_the_first_vertices_greedily(seed: int) -> None:
    """Against every matching of the graph: the result is maximum, and among the
    `first` vertices it covers the best set in their order (a matroid's greedy), which
    is what [C.7]'s look-ahead asks of the downfloaters (dutch/e2017/lookahead.py)."""
    rng = random.Random(seed)
    n = rng.randint(2, 12)
    first = rng.sample(range(n), rng.randint(1, n // 2 + 1))
    density = rng.choice([0.2, 0.4, 0.7])
    adj: list[list[int]] = [[] for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            if not (i in first and j in first) and rng.random() < density:
                adj[i].append(j)
                adj[j].append(i)
    covers = list(_matchings(adj))
    best = max(tuple(v in c for v in first) for c in covers)
    # With a warm start too: edges of a random matching, added once `first` is covered.
    start: list[tuple[int, int]] = []
    for v in rng.sample(range(n), n):
        if adj[v] and all(v not in e for e in start):
            w = rng.choice(adj[v])
            if all(w not in e for e in start):
                start.append((v, w))
    for warm in ((), start):
        mate = max_matching_covering(adj, first, warm)
        assert _valid(adj, mate)
        assert _size(mate) == max(len(c) for c in covers) // 2
        assert tuple(mate[v] != -1 for v in first) == best


@pytest.mark.parametrize("seed", range(300))
def test_skipping_failed_searches_trees_gives_the_same_matching(seed: int) -> None:
    """Hungarian trees skipped or searched again, from nothing or from a warm start, on
    sparse and dense graphs with odd cycles: the very same matching, so everything built
    on it (repair proposals, witnesses) stays the same."""
    adj = _graph(seed)
    n = len(adj)
    r = random.Random(seed + 2000)
    for row in adj:
        r.shuffle(row)
    warm = None
    if seed % 2:
        warm = [-1] * n
        for u in range(n):
            v = next((v for v in adj[u] if warm[v] == -1 and v != u), None)
            if warm[u] == -1 and v is not None and r.random() < 0.5:
                warm[u], warm[v] = v, u
    reference = max_matching(adj, None if warm is None else list(warm), prune=False)
    assert max_matching(adj, None if warm is None else list(warm)) == reference
    assert _valid(adj, reference) and _size(reference) == _maximum_size(adj)


# Graphs that force blossoms.  In random graphs an augmenting path rarely needs a
# contracted odd cycle, so wrong blossom code could pass the tests above.  The chains
# below come with a matching `pairs` that leaves two vertices free and whose only
# augmenting path joins them through odd cycles entered at their base and left at a
# neighbour of the base (which the search first reaches as an inner vertex): whichever
# free vertex it starts from, it finds the path only by contracting the cycles.


class _Built:
    """A graph under construction, with the matching that goes with it."""

    def __init__(self) -> None:
        self.adj: list[list[int]] = []
        self.pairs: list[tuple[int, int]] = []

    def vertex(self) -> int:
        self.adj.append([])
        return len(self.adj) - 1

    def edge(self, a: int, b: int, matched: bool = False) -> None:
        self.adj[a].append(b)
        self.adj[b].append(a)
        if matched:
            self.pairs.append((a, b))

    def half(self, rng: random.Random) -> int:
        """A free vertex, a stem (of length 0: the free vertex is the first cycle's base)
        and 1-3 odd cycles, each left at its base's neighbour into the next one's stem;
        returns the last cycle's exit."""
        v = self.vertex()
        for k in range(rng.randint(1, 3)):
            for _ in range(rng.randint(0 if k == 0 else 1, 2)):
                a, b = self.vertex(), self.vertex()
                self.edge(v, a)
                self.edge(a, b, matched=True)
                v = b
            length = rng.choice((3, 5, 7))
            cycle = [v] + [self.vertex() for _ in range(length - 1)]
            for i in range(length):
                self.edge(cycle[i], cycle[(i + 1) % length], matched=i % 2 == 1)
            v = cycle[1]
        return v

    def blow_up(self, v: int, length: int, rng: random.Random) -> None:
        """Replace v by an odd cycle (a blossom inside the ones v was on), its edges shared
        out among the cycle's vertices; the matching follows: v's partner takes the
        vertex its edge went to, the rest of the cycle is matched round."""
        mate = {a: b for p in self.pairs for a, b in (p, p[::-1])}
        cycle = [v] + [self.vertex() for _ in range(length - 1)]
        free = rng.randrange(length)
        for u in list(self.adj[v]):
            c = rng.choice(cycle)
            if c != v:
                self.adj[v].remove(u)
                self.adj[u][self.adj[u].index(v)] = c
                self.adj[c].append(u)
            if mate.get(v) == u:
                self.pairs.remove((v, u) if (v, u) in self.pairs else (u, v))
                self.pairs.append((u, c))
                free = cycle.index(c)
        for i in range(1, length, 2):
            a, b = cycle[(free + i) % length], cycle[(free + i + 1) % length]
            self.edge(a, b, matched=True)
        for i in range(0, length, 2):
            a, b = cycle[(free + i) % length], cycle[(free + i + 1) % length]
            self.edge(a, b)


def _blossom_graph(seed: int) -> tuple[list[list[int]], list[int]]:
    """Two halves joined exit to exit, some vertices blown up into nested blossoms, the
    vertices renumbered and each row shuffled; returns the graph and its matching."""
    rng = random.Random(seed)
    g = _Built()
    g.edge(g.half(rng), g.half(rng))
    for _ in range(rng.randint(0, 3)):
        g.blow_up(rng.randrange(len(g.adj)), rng.choice((3, 5)), rng)
    n = len(g.adj)
    label = rng.sample(range(n), n)
    adj: list[list[int]] = [[] for _ in range(n)]
    for v in range(n):
        adj[label[v]] = [label[w] for w in g.adj[v]]
        rng.shuffle(adj[label[v]])
    mate = [-1] * n
    for a, b in g.pairs:
        mate[label[a]], mate[label[b]] = label[b], label[a]
    return adj, mate


def _petersen() -> list[list[int]]:
    adj: list[list[int]] = [[] for _ in range(10)]
    for i in range(5):
        for a, b in ((i, (i + 1) % 5), (i, i + 5), (i + 5, (i + 2) % 5 + 5)):
            adj[a].append(b)
            adj[b].append(a)
    return adj


def _odd_cycles(seed: int) -> list[list[int]]:
    """Triangles chained (sharing a vertex, or joined by an edge), or an odd cycle with
    pendant paths: small graphs whose every maximum matching search meets odd cycles."""
    rng = random.Random(seed)
    g = _Built()
    kind = seed % 3
    if kind == 0:  # triangles sharing a vertex with the next
        v = g.vertex()
        for _ in range(rng.randint(2, 6)):
            a, b = g.vertex(), g.vertex()
            for x, y in ((v, a), (a, b), (b, v)):
                g.edge(x, y)
            v = rng.choice((a, b))
    elif kind == 1:  # triangles joined by an edge
        prev = None
        for _ in range(rng.randint(2, 6)):
            t = [g.vertex() for _ in range(3)]
            for i in range(3):
                g.edge(t[i], t[(i + 1) % 3])
            if prev is not None:
                g.edge(rng.choice(prev), rng.choice(t))
            prev = t
    else:  # an odd cycle with pendant paths
        length = rng.choice((3, 5, 7, 9))
        cycle = [g.vertex() for _ in range(length)]
        for i in range(length):
            g.edge(cycle[i], cycle[(i + 1) % length])
        for _ in range(rng.randint(1, 4)):
            v = rng.choice(cycle)
            for _ in range(rng.randint(1, 3)):
                w = g.vertex()
                g.edge(v, w)
                v = w
    for _ in range(rng.randint(0, 2)):
        g.blow_up(rng.randrange(len(g.adj)), 3, rng)
    n = len(g.adj)
    label = rng.sample(range(n), n)
    adj: list[list[int]] = [[] for _ in range(n)]
    for v in range(n):
        adj[label[v]] = rng.sample([label[w] for w in g.adj[v]], len(g.adj[v]))
    return adj


def _maximal(adj: list[list[int]], seed: int) -> list[int]:
    """A maximal matching taken in a random order: often not a maximum one."""
    rng = random.Random(seed)
    mate = [-1] * len(adj)
    for v in rng.sample(range(len(adj)), len(adj)):
        free = [w for w in adj[v] if mate[w] == -1 and mate[v] == -1]
        if free:
            w = rng.choice(free)
            mate[v], mate[w] = w, v
    return mate


def _every_way(adj: list[list[int]], start: list[int], best: int) -> None:
    """From nothing and from `start`, eager and lazy rows, trees skipped or not: a valid
    matching of the oracle's size, the same one whether trees are skipped or not."""
    for warm in (None, start):
        def copy() -> list[int] | None:
            return None if warm is None else list(warm)
        skipped = max_matching(adj, copy())
        searched = max_matching(adj, copy(), prune=False)
        lazy = max_matching(LazyAdjacency(len(adj), lambda v: list(adj[v])), copy())
        for mate in (skipped, searched, lazy):
            assert _valid(adj, mate)
            assert _size(mate) == best
        assert skipped == searched == lazy


@pytest.mark.parametrize("seed", range(120))
def test_augmenting_paths_through_contracted_blossoms(seed: int) -> None:
    """Chains of (nested) blossoms with the matching that needs them, and a random
    maximal one; the matching built with the graph is one short of the oracle's size."""
    adj, start = _blossom_graph(seed)
    best = _maximum_size(adj, seed)
    assert _size(start) == best - 1 and _valid(adj, start)
    _every_way(adj, start, best)
    _every_way(adj, _maximal(adj, seed), best)


@pytest.mark.parametrize("seed", range(120))
def test_odd_cycles_chained_triangles_and_the_petersen_graph(seed: int) -> None:
    adj = _petersen() if seed < 10 else _odd_cycles(seed)
    if seed < 10:  # renumbered, rows shuffled
        rng = random.Random(seed)
        label = rng.sample(range(10), 10)
        adj = [rng.sample(row, len(row)) for row in (adj[label.index(v)] for v in range(10))]
        adj = [[label[w] for w in row] for row in adj]
    best = _maximum_size(adj, seed)
    _every_way(adj, _maximal(adj, seed), best)


def _coverable(adj: list[list[int]], cover: set[int], seed: int) -> bool:
    """Whether a matching covers every vertex of `cover`, by the oracle: the graph plus
    helpers (joined to each other and to every vertex outside `cover`, as many as make
    the count even) has a perfect matching exactly then."""
    n = len(adj)
    outside = [v for v in range(n) if v not in cover]
    helpers = list(range(n, n + len(outside) + (n + len(outside)) % 2))
    big = [list(row) for row in adj] + [[] for _ in helpers]
    for h in helpers:
        for w in outside + [k for k in helpers if k != h]:
            big[h].append(w)
            if w < n:
                big[w].append(h)
    return 2 * _maximum_size(big, seed) == len(big)


@pytest.mark.parametrize("seed", range(30))
def test_covering_matching_on_blossoms(seed: int) -> None:
    """max_matching_covering completes its matching with the blossom search: on the
    graphs above, with and without a warm start, it is maximum and covers of `first`
    each vertex that can be covered together with the earlier ones it covers."""
    if seed % 2:  # a chain of blossoms of at most 30 vertices (the oracle here is slower)
        adj, start = next(g for g in map(_blossom_graph, range(seed, 10**6, 100)) if len(g[0]) <= 30)
    else:
        adj = _odd_cycles(seed)
        start = _maximal(adj, seed)
    rng = random.Random(seed)
    first: list[int] = []
    for v in rng.sample(range(len(adj)), len(adj)):
        if not any(w in first for w in adj[v]):  # a maximal independent set: they compete
            first.append(v)
    best = _maximum_size(adj, seed)
    pairs = [(v, w) for v, w in enumerate(start) if w > v]
    known: dict[frozenset[int], bool] = {}
    for warm in ((), pairs):
        mate = max_matching_covering(adj, first, warm)
        assert _valid(adj, mate) and _size(mate) == best
        covered: set[int] = set()
        for v in first:
            cover = frozenset(covered | {v})
            if cover not in known:
                known[cover] = _coverable(adj, set(cover), seed)
            assert (mate[v] != -1) == known[cover]
            if mate[v] != -1:
                covered.add(v)


def _without(adj: list[list[int]], v: int) -> tuple[list[list[int]], list[int]]:
    """The graph without vertex v (renumbered) and v's row in it."""
    def new(w: int) -> int:
        return w if w < v else w - 1
    rest = [[new(w) for w in row if w != v] for u, row in enumerate(adj) if u != v]
    return rest, [new(w) for w in adj[v]]


@pytest.mark.parametrize("seed", range(150))
def test_a_new_vertex_grows_the_matching_exactly_when_the_oracle_says(seed: int) -> None:
    """grows: one augmenting search from a new vertex, against the oracle's sizes with and
    without it, on random graphs and on blossom chains; the arguments stay as they were."""
    adj = _graph(seed) if seed < 100 else _blossom_graph(seed)[0]
    if len(adj) < 2:
        return
    rng = random.Random(seed)
    for v in rng.sample(range(len(adj)), min(4, len(adj))):
        rest, row = _without(adj, v)
        mate = max_matching(rest)
        before = (list(map(list, rest)), list(mate))
        gained = _maximum_size(adj, seed) - _maximum_size(rest, seed)
        assert grows(rest, mate, row) == (gained == 1)
        assert (rest, mate) == before


@pytest.mark.parametrize("seed", range(150))
def test_new_vertices_grow_the_matching_by_what_the_oracle_says(seed: int) -> None:
    """growth: the last k vertices added one by one to a maximum matching of the rest (each
    adjacent to old ones and to the new ones before it), against the oracle's sizes of the
    whole graph and of the rest; the arguments stay as they were."""
    adj = _graph(seed) if seed < 100 else _blossom_graph(seed)[0]
    rng = random.Random(seed)
    k = rng.randint(1, min(4, len(adj) - 1)) if len(adj) > 1 else 0
    n = len(adj) - k
    rest = [[w for w in row if w < n] for row in adj[:n]]
    rows = [list(row) for row in adj[n:]]  # an edge of two new vertices: read from the later
    mate = max_matching(rest)
    before = (list(map(list, rest)), list(mate))
    assert growth(rest, mate, rows) == _maximum_size(adj, seed) - _maximum_size(rest, seed)
    assert (rest, mate) == before
