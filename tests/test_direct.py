"""Small 2026 brackets paired by their candidates (dutch/e2026/direct.py), each compared
with the model that pairs them otherwise: every round pairs the same, with the same
tiers (the bracket's trace is the model's, tier for tier), from no witness and from
the file's own pairing as `check` gives it; the direct path answers most small
brackets, and declines some (its completion finds no round-pairing at [C8]'s ceilings),
which the model then pairs."""

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


def test_the_direct_path_declines_where_the_ceilings_are_not_made() -> None:
    """Stress tournaments hold brackets whose best candidate by [C8]'s ceilings cannot
    make them in any round-pairing the completion finds: the model pairs those, and
    the rounds still pair as the model alone pairs them."""
    ts = _stress(range(31, 61))
    before = STATS["direct_declined"], STATS["direct"]
    direct = _rounds(ts, SolverSettings(), hinted=False)
    assert STATS["direct_declined"] > before[0]
    assert STATS["direct"] > before[1]
    assert direct == _rounds(ts, MODEL_ONLY, hinted=False)


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
