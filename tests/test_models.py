"""The relaxed bracket models give the exact model's answer (`SolverSettings.models`).

The engine tries the aggregate model first (next scoregroup as counts), then the lazy
pair model (whose tiers after [C8] are solved on the bracket alone), then the exact
model.  Relaxing only adds candidates, so whichever model completes first must agree
with the exact model -- checked here round by round, not assumed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cpsat_pairing import SolverSettings, load_edition, pair, read_trf
from cpsat_pairing.domain.compat import Compatibility, absolute_colour_clash
from cpsat_pairing.domain.state import build_state, round_exists
from cpsat_pairing.dutch.e2026 import procedure
from cpsat_pairing.testing.corpus import recorded

from helpers import CORPUS

DEV = CORPUS / "dutch-2026" / "dev"
SAMPLE = [DEV / "t000031.trf", DEV / "t000158.trf", DEV / "t000182.trf"]


def _rounds(path: Path):
    t = read_trf(path)
    last = max(len(p.rounds) for p in t.players)
    return t, [r for r in range(1, last + 1) if round_exists(t, r)]


@pytest.mark.parametrize("path", SAMPLE, ids=lambda p: p.stem)
def test_relaxed_models_agree_with_the_exact_model(path: Path) -> None:
    t, rounds = _rounds(path)
    default = [pair(t, r) for r in rounds]
    exact_only = SolverSettings(models=("exact",), bracket_alone=False)
    exact = [pair(t, r, settings=exact_only) for r in rounds]
    for r, a, b in zip(rounds, default, exact):
        assert (a.as_pairs(), a.bye) == (b.as_pairs(), b.bye), f"round {r}"
        assert [tr.tiers for tr in a.brackets] == [tr.tiers for tr in b.brackets], f"round {r}"


@pytest.mark.parametrize("path", SAMPLE[:2], ids=lambda p: p.stem)
def test_lazy_model_solved_on_the_bracket_alone_matches_the_file(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the aggregate model the lazy model runs, with its local phase."""
    calls = []
    real = procedure.solve_locally
    monkeypatch.setattr(procedure, "solve_locally", lambda *a: calls.append(1) or real(*a))
    t, rounds = _rounds(path)
    for r in rounds:
        got = pair(t, r, settings=SolverSettings(models=("lazy", "exact")))
        assert (set(got.as_pairs()), got.bye) == recorded(t, r), f"round {r}"
    assert calls, "the local phase was never used"


def test_neighbour_sets_are_the_absolute_criteria() -> None:
    t = read_trf(SAMPLE[1])
    st = build_state(t, 5, load_edition("dutch-2026").state_rules)
    ok = Compatibility(st, t)
    players = st.present
    for p in players:
        for q in players:
            if p == q:
                continue
            a, b = st.players[p], st.players[q]
            expected = q not in a.opponents and not absolute_colour_clash(a, b)
            assert ok(p, q) == expected == (q in ok.neighbours(p)), (p, q)


def test_progress_names_each_bracket() -> None:
    t, rounds = _rounds(SAMPLE[0])
    seen: list[str] = []
    pair(t, rounds[-1], progress=seen.append)
    assert any(s.startswith("bracket 1/") for s in seen)
    assert len({s.split(" ▸ ")[0] for s in seen}) >= 2
