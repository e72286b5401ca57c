"""The 2026 engine against reference pairings, and the rules' worked cases by hand."""

from __future__ import annotations

from pathlib import Path

import pytest

import cpsat_pairing as cp
from cpsat_pairing.domain.state import round_exists
from cpsat_pairing.formats.pair_list import write_pair_list
from cpsat_pairing.testing.corpus import recorded
from cpsat_pairing.testing.handmade import field as _round1

from helpers import BBP, CORPUS_2026

pair, parse_trf, read_trf, NoValidPairing = cp.pair, cp.parse_trf, cp.read_trf, cp.NoValidPairing


def bbp_pair_list(p: cp.Pairing) -> str:
    return write_pair_list(p.as_pairs(), p.bye)


@pytest.mark.slow
@pytest.mark.parametrize("path", CORPUS_2026, ids=lambda p: p.stem)
def test_replay_matches_reference_engine(path: Path) -> None:
    """Every round of a bbpPairings-6.0-paired tournament, re-paired from its history."""
    t = read_trf(path)
    last = max(len(p.rounds) for p in t.players)
    checked = 0
    for rnd in range(1, last + 1):
        if not round_exists(t, rnd):
            continue
        got = pair(t, rnd)
        assert (set(got.as_pairs()), got.bye) == recorded(t, rnd), f"round {rnd}"
        checked += 1
    assert checked >= 5


@pytest.mark.parametrize("case", ["dutch_2025_C5", "dutch_2025_C9", "issue_7"])
def test_reference_engine_regressions(case: str) -> None:
    """bbpPairings' own tests: [C5] outranks [C6]; [C9] counts absences; forfeits are no meetings."""
    t = read_trf(BBP / f"{case}.input")
    expected = (BBP / f"{case}.output.expected").read_text()
    assert bbp_pair_list(pair(t)) == expected


def test_round_one_pairs_s1_with_s2_and_alternates_colours() -> None:
    """Art. 3.3 and 5.2.5: 1-6, 2-7, ...; odd TPNs of S1 get the initial colour."""
    p = pair(parse_trf(_round1(10)))
    assert p.as_pairs() == [(1, 6), (7, 2), (3, 8), (9, 4), (5, 10)]
    assert p.bye is None


def test_transposition_order() -> None:
    """Art. 4.2: with 1-6 forbidden the first transposition is 7-6-8-9-10."""
    p = pair(parse_trf(_round1(10, [(1, 6)])))
    assert {tuple(sorted(pq)) for pq in p.as_pairs()} == {(1, 7), (2, 6), (3, 8), (4, 9), (5, 10)}


def test_exchange_when_no_transposition_works() -> None:
    """Art. 4.3: player 5 can meet nobody of S2, so the first exchange, 5<->6, is made."""
    forbidden = [(5, q) for q in range(6, 11)]
    p = pair(parse_trf(_round1(10, forbidden)))
    assert {tuple(sorted(pq)) for pq in p.as_pairs()} == {(1, 5), (2, 7), (3, 8), (4, 9), (6, 10)}


def test_odd_field_gives_the_pab_to_the_lowest_ranked() -> None:
    """Round 1 with 9 players: the last player takes the PAB ([C5] ties, then generation order)."""
    p = pair(parse_trf(_round1(9)))
    assert p.bye == 9
    assert len(p.boards) == 4


def test_no_valid_pairing_names_the_players() -> None:
    """Two players who may not meet: no complete round-pairing exists."""
    with pytest.raises(NoValidPairing) as exc:
        pair(parse_trf(_round1(2, [(1, 2)])))
    assert exc.value.players == [1, 2]


_GARBAGE_PROBE = """
import gc, sys
from cpsat_pairing import pair, read_trf
t = read_trf(sys.argv[1])
pair(t, 4, sys.argv[2])  # the first call loads and caches what every later call shares
gc.collect()
gc.disable()
pair(t, 4, sys.argv[2])
pair(t, 5, sys.argv[2])
print(gc.collect())
"""


@pytest.mark.parametrize("edition", ["dutch-2026", "dutch-2017", "dutch-2013"])
def test_a_round_leaves_no_cyclic_garbage(edition: str) -> None:
    """A round's models, terms and bounds are freed as soon as they are unused: no
    reference cycle (a term's bound holding the term itself did) is left for Python's
    cyclic garbage collector, whose passes over them cost a bulk check about 3 % of
    its time. The rounds are paired in a process of their own, so that no thread left
    by another test (a server's, a scheduler's) adds its garbage to the count."""
    import subprocess
    import sys

    probe = [sys.executable, "-c", _GARBAGE_PROBE, str(CORPUS_2026[0]), edition]
    done = subprocess.run(probe, capture_output=True, text=True, check=True, timeout=120)
    assert done.stdout.split() == ["0"]
