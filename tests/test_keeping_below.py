"""The round below a bracket after its generation order (dutch/e2026/local.py).

When the generation order changes the bracket's downfloaters, the rest of the round is
made again: from a complete round-pairing built by matchings (`_completed`), which
must keep every fixed tier ([C8]'s next-bracket pairs among them) so that the solver
accepts it whole; else by a feasibility search.  Neither may change a pairing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cpsat_pairing import pair, read_trf
from cpsat_pairing.dutch.e2026 import local
from cpsat_pairing.solver.cpsat import STATS
from cpsat_pairing.testing.large import make_large


@pytest.fixture(scope="module")
def big_round(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_large(tmp_path_factory.mktemp("below"), players=400, seed=1)


def test_the_completed_round_keeps_every_fixed_tier_and_changes_no_pairing(
    big_round: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    t = read_trf(big_round)
    made: list[bool] = []
    original = local._completed

    def completed(bm):
        values = original(bm)
        if values is not None:
            made.append(all(sum(c * values.get(i, 0) for c, i in zip(term.coefs, term.indices)) == value
                            for term, value in bm.solver.fixed))
        return values

    monkeypatch.setattr(local, "_completed", completed)
    solves = STATS["solves"]
    matched = pair(t)
    matched_solves = STATS["solves"] - solves
    assert made and all(made), made

    monkeypatch.setattr(local, "_completed", lambda bm: None)
    solves = STATS["solves"]
    searched = pair(t)
    assert STATS["solves"] - solves > matched_solves  # the searches the completion saved
    assert (matched.as_pairs(), matched.bye) == (searched.as_pairs(), searched.bye)


def test_a_completion_the_model_rejects_is_only_a_hint(big_round: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Values that break the model (everyone unpaired) are refused, and the search
    finds the round below as before."""
    t = read_trf(big_round)
    monkeypatch.setattr(local, "_completed", lambda bm: dict.fromkeys(bm.solver.values, 0))
    broken = pair(t)
    monkeypatch.setattr(local, "_completed", lambda bm: None)
    searched = pair(t)
    assert (broken.as_pairs(), broken.bye) == (searched.as_pairs(), searched.bye)
