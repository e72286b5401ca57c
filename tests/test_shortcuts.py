"""Decisions taken without a search, each compared with the search it replaces: every
round pairs the same, with the same tiers, with it and without it; and it does decide.

- the transposition's greedy choice (dutch/order.py, `_greedy_first`): where it is a
  solution it is the fixed search's first;
- the 2026 [C6] parity bound (e2026/criteria.py): an odd bracket has at least one
  downfloater, so an incumbent with one is optimal on [C6].
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cpsat_pairing import SolverSettings, pair, read_trf
from cpsat_pairing.domain.state import round_exists
from cpsat_pairing.dutch.e2026 import criteria as criteria2026
from cpsat_pairing.dutch.registry import CRITERIA
from cpsat_pairing.solver.cpsat import STATS

from helpers import CORPUS_2013, CORPUS_2017, CORPUS_2026

SEARCH_ONLY = SolverSettings(greedy_transposition=False)


def _rounds(paths: list[Path], edition: str, settings: SolverSettings = SolverSettings()) -> list[object]:
    """Every round of the files paired: boards, PAB and each bracket's trace."""
    out: list[object] = []
    for path in paths:
        t = read_trf(path)
        for rnd in range(1, max(len(p.rounds) for p in t.players) + 1):
            if round_exists(t, rnd):
                p = pair(t, rnd, edition, settings)
                out.append((path.name, rnd, p.boards, p.bye, p.brackets))
    return out


@pytest.mark.parametrize(
    ("paths", "edition"),
    [(CORPUS_2026[:3], "dutch-2026"), (CORPUS_2017[:2], "dutch-2017"), (CORPUS_2013[:2], "dutch-2013")],
    ids=["2026", "2017", "2013"],
)
def test_the_greedy_choice_changes_no_pairing_and_no_tier(paths: list[Path], edition: str) -> None:
    before = STATS["greedy"]
    searched = _rounds(paths, edition, SEARCH_ONLY)
    assert STATS["greedy"] == before  # switched off: every transposition searched
    greedy = _rounds(paths, edition)
    assert STATS["greedy"] > before  # it answered some
    assert greedy == searched


def test_the_c6_parity_bound_changes_no_pairing_and_no_tier(monkeypatch: pytest.MonkeyPatch) -> None:
    paths = CORPUS_2026[3:16]
    before = STATS["bounded"]
    bounded = _rounds(paths, "dutch-2026")
    with_bound = STATS["bounded"] - before

    def without_bound(bm):  # type: ignore[no-untyped-def]
        terms = criteria2026.fewest_downfloaters(bm)
        for term in terms:
            term.least = None
        return terms

    monkeypatch.setitem(CRITERIA, "C6", without_bound)
    before = STATS["bounded"]
    assert _rounds(paths, "dutch-2026") == bounded
    assert STATS["bounded"] - before < with_bound  # the bound decided some [C6] tiers
