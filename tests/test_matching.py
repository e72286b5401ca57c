"""matching: maximum matchings from scratch and from a warm start, against answers
found without the module (every matching of a small graph; the Tutte matrix's rank)."""

from __future__ import annotations

import random

import pytest

from cpsat_pairing.solver.matching import LazyAdjacency, is_perfect, max_matching, max_matching_covering


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
