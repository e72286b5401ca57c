"""The big-history builders of the bench: the same bytes for the same seed, and
histories the engine reads as played rounds."""

from __future__ import annotations

from pathlib import Path

import pytest

from cpsat_pairing import read_trf
from cpsat_pairing.apps.check import file_round
from cpsat_pairing.testing.large import greedy

NAIVE2000 = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "large" / "naive2000-r6.trf"


def test_greedy_history_is_a_function_of_its_arguments(tmp_path: Path) -> None:
    text = greedy(41, 5, 9, 3)
    assert text == greedy(41, 5, 9, 3) and text != greedy(41, 5, 9, 4)
    path = tmp_path / "g.trf"
    path.write_text(text)
    t = read_trf(path)
    assert len(t.players) == 41 and t.rounds_played == 5 and t.total_rounds == 9
    byes = [file_round(t, r).bye for r in range(1, 6)]
    assert None not in byes and len(set(byes)) == 5  # an odd field: one PAB a round, never twice


def test_greedy_history_pairs_neighbours_in_score_order(tmp_path: Path) -> None:
    """Round 1 (every score 0): the rating order paired top-down, 1-2, 3-4, ..."""
    path = tmp_path / "g.trf"
    path.write_text(greedy(20, 1, 5, 7))
    pairs = {frozenset(pq) for pq in file_round(read_trf(path), 1).pairs}
    assert pairs == {frozenset((i, i + 1)) for i in range(1, 20, 2)}


def test_greedy_history_pairs_the_leader_with_the_next_he_has_not_met(tmp_path: Path) -> None:
    """Each round, the first player in score order (rating within a score) meets the next
    one in that order he has not met yet."""
    path = tmp_path / "g.trf"
    path.write_text(greedy(30, 5, 9, 11))
    t = read_trf(path)
    points = {"1": 1.0, "=": 0.5, "0": 0.0, "U": 1.0}
    for rnd in range(2, 6):
        score = {p.id: sum(points[e.result] for r in range(1, rnd) if (e := p.entry(r)) is not None)
                 for p in t.players}
        met = {p.id: {e.opponent for r in range(1, rnd) if (e := p.entry(r)) is not None} for p in t.players}
        order = sorted(score, key=lambda i: (-score[i], -t.player(i).rating, i))
        leader = order[0]
        partner = next(q for q in order[1:] if q not in met[leader])
        assert frozenset((leader, partner)) in {frozenset(pq) for pq in file_round(t, rnd).pairs}


@pytest.mark.skipif(not NAIVE2000.exists(), reason="the shared large corpus is not beside this checkout")
def test_greedy_history_is_the_one_of_the_large_corpus() -> None:
    assert greedy(2000, 5, 9, 2000) == NAIVE2000.read_text()
