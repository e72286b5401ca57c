"""Small 2026 brackets paired by their candidates (dutch/e2026/direct.py), each compared
with the model that pairs them otherwise: every round pairs the same, with the same
tiers (the bracket's trace is the model's, tier for tier), from no witness and from
the file's own pairing as `check` gives it; the direct path answers most small
brackets at [C8]'s ceilings, some with exact [C8] and [C9] values (checked here against
every round-pairing listed), and declines a few (out of steps), which the model then
pairs."""

from __future__ import annotations

import dataclasses
import itertools
import random

import pytest

from cpsat_pairing import SolverSettings, pair, read_trf
from cpsat_pairing.apps.check import file_round
from cpsat_pairing.apps.generate import GenConfig, play
from cpsat_pairing.domain.state import round_exists
from cpsat_pairing.domain.tournament import Tournament
from cpsat_pairing.dutch.e2026.candidates import CandidateSearch, exchanges
from cpsat_pairing.dutch.e2026.next_bracket import exact_next
from cpsat_pairing.dutch.e2026.scoring import BracketFacts, tier_specs
from cpsat_pairing.solver.cpsat import STATS

from helpers import CORPUS_2026

MODEL_ONLY = SolverSettings(direct_brackets=0)


def _stress(seeds: range) -> list[Tournament]:
    cfg = dataclasses.replace(GenConfig(), profile="stress")
    return [play(seed, cfg).tournament for seed in seeds]


def _rounds(ts: list[Tournament], settings: SolverSettings, hinted: bool) -> list[object]:
    out: list[object] = []
    for t in ts:
        for rnd in range(1, t.rounds_played + 1):
            if round_exists(t, rnd):
                hint = sorted(file_round(t, rnd).pairs) if hinted else None
                p = pair(t, rnd, "dutch-2026", settings, hint=hint)
                out.append((rnd, p.boards, p.bye, p.brackets))
    return out


@pytest.mark.parametrize("hinted", [False, True], ids=["fresh", "from the file's pairing"])
@pytest.mark.parametrize(
    "sample",
    [pytest.param(lambda: [read_trf(p) for p in CORPUS_2026[:4]], id="2026 corpus"),
     pytest.param(lambda: _stress(range(1, 31)), id="stress tournaments")],
)
def test_direct_brackets_change_no_pairing_and_no_tier(sample: object, hinted: bool) -> None:
    ts = sample()  # type: ignore[operator]
    before = STATS["direct"]
    modelled = _rounds(ts, MODEL_ONLY, hinted)
    assert STATS["direct"] == before
    direct = _rounds(ts, SolverSettings(), hinted)
    assert STATS["direct"] > before
    assert direct == modelled


def test_exact_values_pair_the_brackets_the_ceilings_do_not_prove(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stress tournaments hold brackets whose best candidate by [C8]'s ceilings makes
    them in no round-pairing the completion finds, or floats more players than the
    bracket alone must ([C4]): those are scored with exact [C8] and [C9] values, and
    the rounds still pair as the model alone pairs them.  Among them: brackets that
    float two more players than they must, and a downfloater who ends with the PAB
    where [C9] counts it."""
    import cpsat_pairing.dutch.e2026.direct as direct_module

    seen = {"more floaters": 0, "C9 > 0": 0}
    original = direct_module._solve_exactly

    def exactly(br: BracketFacts, specs: object, levels: object, d: int, *rest: object) -> object:
        got = original(br, specs, levels, d, *rest)  # type: ignore[arg-type]
        if got is not None:
            seen["more floaters"] += len(got.downfloaters) > d
            seen["C9 > 0"] += any(t.criterion == "C9" and t.value for t in got.tiers)
        return got

    monkeypatch.setattr(direct_module, "_solve_exactly", exactly)
    ts = _stress(range(31, 61))
    before = STATS["direct_exact"], STATS["direct"]
    direct = _rounds(ts, SolverSettings(), hinted=False)
    assert STATS["direct_exact"] > before[0]
    assert STATS["direct"] > before[1]
    assert seen["more floaters"] and seen["C9 > 0"], seen
    assert direct == _rounds(ts, MODEL_ONLY, hinted=False)


def test_exact_next_is_the_best_over_every_round_pairing(monkeypatch: pytest.MonkeyPatch) -> None:
    """On the brackets of stress rounds with few players left, exact_next's [C8] and
    [C9] for each downfloater set are those of the best of every complete round-pairing
    listed, and the round-pairing it gives makes them."""
    import cpsat_pairing.dutch.e2026.direct as direct

    compared = [0]
    original = direct._solve

    def checked(br: BracketFacts) -> object:
        rest_size = len(br.rc.remaining) - len(br.players)
        if br.next_group and rest_size <= 9 and len(br.players) <= 6:
            compared[0] += _compare_exact_next(br)
        return original(br)

    monkeypatch.setattr(direct, "_solve", checked)
    _rounds(_stress(range(1, 41)), SolverSettings(), hinted=False)
    assert compared[0] > 100


def _compare_exact_next(br: BracketFacts) -> int:
    specs = tier_specs(br)
    levels = [s.next_level for s in specs if s.next_level is not None and s.next_level != -1]
    c9 = any(s.pab_below for s in specs)
    n = len(br.players)
    compared = 0
    for d in range(n % 2, min(n, 3) + 1, 2):
        for D in itertools.combinations(br.players, d):
            pab_player = D[0] if c9 and d == 1 and br.ps[D[0]].unplayed else None
            got = exact_next(br, levels, list(D), pab_player, lambda cost: None)
            best = _best_by_listing(br, levels, D, pab_player)
            if got is None:
                assert best is None
            else:
                assert best == (got.counts, got.pab_unplayed)
                in_bracket = set(br.players) - set(D)
                left = [p for p in br.rc.remaining if p not in in_bracket]
                paired = [p for pq in got.rest for p in pq]
                assert set(paired) <= set(left) and len(set(paired)) == len(paired)
                assert len(left) - len(paired) == len(left) % 2  # all paired but the PAB's
                assert all(p in br.rc.pab_allowed for p in set(left) - set(paired))
                assert all(br.ok(p, q) for p, q in got.rest)
                assert not any(p in D and q in D and not (p in br.mdps and q in br.mdps) for p, q in got.rest)
                assert _value_of(br, levels, D, got.rest, pab_player) == best
            compared += 1
    return compared


def _value_of(br: BracketFacts, levels: list[int], D: tuple[int, ...], pairs: list[tuple[int, int]],
              pab_player: int | None) -> tuple[dict[int, int], int]:
    ng = set(br.next_group)
    top = set(D) | ng
    counts = {-1: 0, **{u: 0 for u in levels}}
    for p, q in pairs:
        if p in top and q in top and (p in ng or q in ng):
            counts[-1] += 1
            counts[max(br.units[p], br.units[q])] += 1
    paired = {p for pq in pairs for p in pq}
    return counts, (br.ps[pab_player].unplayed if pab_player is not None and pab_player not in paired else 0)


def _best_by_listing(br: BracketFacts, levels: list[int], D: tuple[int, ...],
                     pab_player: int | None) -> tuple[dict[int, int], int] | None:
    """The best [C8] counts (most, then most per level highest first), then the least
    [C9], over every complete round-pairing of the players left: two downfloaters
    meet only if both are MDPs, the one left unpaired is one who may have the PAB."""
    in_bracket = set(br.players) - set(D)
    left = [p for p in br.rc.remaining if p not in in_bracket]
    best: tuple[tuple[int, ...], int, tuple[dict[int, int], int]] | None = None

    def allowed(p: int, q: int) -> bool:
        both_floating = p in D and q in D
        return br.ok(p, q) and (not both_floating or (p in br.mdps and q in br.mdps))

    def walk(free: list[int], pairs: list[tuple[int, int]], bye: bool) -> None:
        nonlocal best
        if not free:
            value = _value_of(br, levels, D, pairs, pab_player)
            key = tuple([-value[0][-1], *(-value[0][u] for u in levels)])
            if best is None or (key, value[1]) < best[:2]:
                best = (key, value[1], value)
            return
        p, others = free[0], free[1:]
        for q in others:
            if allowed(p, q):
                walk([x for x in others if x != q], [*pairs, (p, q)], bye)
        if not bye and len(free) % 2 and p in br.rc.pab_allowed:
            walk(others, pairs, True)

    walk(left, [], False)
    return None if best is None else best[2]


def test_direct_brackets_hold_at_most_the_settings_players(monkeypatch: pytest.MonkeyPatch) -> None:
    """`direct_brackets` caps the bracket's size: at 2 only one- and two-player
    brackets are paired directly, and still as the model pairs them."""
    ts = _stress(range(1, 11))
    sizes: list[int] = []
    import cpsat_pairing.dutch.e2026.procedure as procedure

    original = procedure.pair_directly

    def spy(rc, bracket, limit):  # type: ignore[no-untyped-def]
        found = original(rc, bracket, limit)
        if found is not None:
            sizes.append(len(bracket.players))
        return found

    monkeypatch.setattr(procedure, "pair_directly", spy)
    small = _rounds(ts, SolverSettings(direct_brackets=2), hinted=False)
    assert sizes and max(sizes) <= 2
    assert small == _rounds(ts, MODEL_ONLY, hinted=False)



def test_a_search_out_of_budget_leaves_the_bracket_to_the_model() -> None:
    """Past its steps (the exact values' checks included) the direct path says
    nothing, and the model pairs the bracket."""
    ts = _stress(range(1, 11))
    before = STATS["direct_declined"]
    starved = _rounds(ts, SolverSettings(direct_budget=20), hinted=False)
    assert STATS["direct_declined"] > before
    assert starved == _rounds(ts, MODEL_ONLY, hinted=False)


def test_exchanges_rank_every_s1_once_in_the_order_of_the_exchange_tiers() -> None:
    """Every S1 of the remainder comes once, ordered as the model's exchange tiers rank
    them: fewest moved, smallest BSN sum, highest BSN out of the original S1 (its
    "stays" tiers, last player first), lowest BSN into it."""
    for size in range(1, 9):
        remainder = list(range(10, 10 + size))
        for n1 in range(size // 2 + 1):
            got = list(exchanges(remainder, n1, lambda: None))
            s1, s2 = remainder[:n1], remainder[n1:]

            def key(new: list[int]) -> tuple[object, ...]:
                bsn = {p: i + 1 for i, p in enumerate(remainder)}
                return (-sum(p in new for p in s1), sum(bsn[p] for p in new),
                        tuple(int(p in new) for p in reversed(s1)), tuple(-int(q in new) for q in s2))

            every = sorted((sorted(c) for c in itertools.combinations(remainder, n1)), key=key)
            assert got == every


@pytest.mark.parametrize("seed", range(60))
def test_the_search_finds_the_first_of_the_best_candidates(seed: int) -> None:
    """On random brackets (random compatibility, MDPs and weights), the two searches'
    answer is the least (value, generation order) over every candidate listed."""
    rng = random.Random(seed)
    n = rng.randint(2, 9)
    m = rng.randint(0, min(3, n - 1))
    mdps = [i < m for i in range(n)]
    rows = [[j for j in range(i + 1, n) if not (mdps[i] and mdps[j]) and rng.random() < 0.75] for i in range(n)]
    pair_value = {(i, j): rng.choice([0, 0, 0, 1, 4, 16]) for i in range(n) for j in rows[i]}
    float_weight = [rng.choice([0, 64, 128]) for _ in range(n)]

    def float_value(D: tuple[int, ...]) -> int:
        return sum(float_weight[i] for i in D)

    listed = _all_candidates(rows, n)
    if not listed:
        return
    d = min(len(f) for _, f in listed)
    listed = [(p, f) for p, f in listed if len(f) == d]
    search = CandidateSearch(rows, mdps, [True] * n, pair_value, float_value, budget=10**7)
    least = search.least_value(d)
    assert least is not None
    found = search.first_in_order(d, least[1])
    assert found is not None

    def value(c: tuple[list[tuple[int, int]], list[int]]) -> int:
        return float_value(tuple(c[1])) + sum(pair_value[e] for e in c[0])

    def order(c: tuple[list[tuple[int, int]], list[int]]) -> tuple[object, ...]:
        pairs, floating = c
        partner = {a: b for x, y in pairs for a, b in ((x, y), (y, x))}
        ms = [i for i in range(n) if mdps[i]]
        paired = [i for i in ms if i in partner]
        remainder = [i for i in range(n) if not mdps[i] and i not in {partner[x] for x in paired}]
        rem_pairs = [(x, y) for x, y in pairs if x in remainder]
        highers = sorted(min(e) for e in rem_pairs)
        s1, s2 = remainder[:len(rem_pairs)], remainder[len(rem_pairs):]
        bsn = {p: i + 1 for i, p in enumerate(remainder)}
        exchange = (-sum(p in highers for p in s1), sum(bsn[p] for p in highers),
                    tuple(int(p in highers) for p in reversed(s1)), tuple(-int(q in highers) for q in s2))
        return (tuple(int(i not in partner) for i in ms), tuple(partner[i] for i in paired), exchange,
                tuple(partner[p] for p in highers))

    best = min(listed, key=lambda c: (value(c), order(c)))
    assert least[0] == value(best)
    assert (sorted(found[0]), found[1]) == (sorted(best[0]), best[1])


def _all_candidates(rows: list[list[int]], n: int) -> list[tuple[list[tuple[int, int]], list[int]]]:
    out: list[tuple[list[tuple[int, int]], list[int]]] = []

    def walk(i: int, free: frozenset[int], pairs: list[tuple[int, int]], floating: list[int]) -> None:
        if i == n:
            out.append((list(pairs), list(floating)))
            return
        if i not in free:
            walk(i + 1, free, pairs, floating)
            return
        for j in rows[i]:
            if j in free:
                walk(i + 1, free - {i, j}, [*pairs, (i, j)], floating)
        walk(i + 1, free - {i}, pairs, [*floating, i])

    walk(0, frozenset(range(n)), [], [])
    return out
