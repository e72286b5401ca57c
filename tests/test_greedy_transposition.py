"""The transposition's greedy choice (dutch/order.py, `_greedy_first`): where it is a
solution it is the fixed search's first, so every round pairs the same, with the same
tiers, with it and without it; and it does answer transpositions."""

from __future__ import annotations

from pathlib import Path

import pytest

from cpsat_pairing import SolverSettings, pair, read_trf
from cpsat_pairing.domain.state import round_exists
from cpsat_pairing.solver.cpsat import STATS

from helpers import CORPUS_2013, CORPUS_2017, CORPUS_2026

SEARCH_ONLY = SolverSettings(greedy_transposition=False)


def _rounds(paths: list[Path], edition: str, settings: SolverSettings) -> list[object]:
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
    greedy = _rounds(paths, edition, SolverSettings())
    assert STATS["greedy"] > before  # it answered some
    assert greedy == searched
