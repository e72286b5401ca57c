"""The relaxed bracket models give the exact model's answer (engine._MODELS).

The engine tries the aggregate model first (next scoregroup as counts), then the lazy
pair model (whose tiers after [C8] are solved on the bracket alone), then the exact
model.  Relaxing only adds candidates, so whichever model completes first must agree
with the exact model -- checked here round by round, not assumed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cpsat_pairing.dutch import rounds as engine
from cpsat_pairing.apps.check import file_round
from cpsat_pairing.domain.compat import Compatibility, absolute_colour_clash
from cpsat_pairing.domain.state import build_state, round_exists
from cpsat_pairing.formats import read_trf

CORPUS = Path(__file__).parent / "fixtures" / "corpus" / "dutch-2026" / "dev"
SAMPLE = [CORPUS / "t000031.trf", CORPUS / "t000158.trf", CORPUS / "t000182.trf"]


def _rounds(path: Path):
    t = read_trf(path)
    last = max(len(p.rounds) for p in t.players)
    return t, [r for r in range(1, last + 1) if round_exists(t, r)]


@pytest.mark.parametrize("path", SAMPLE, ids=lambda p: p.stem)
def test_relaxed_models_agree_with_the_exact_model(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    t, rounds = _rounds(path)
    default = [engine.pair(t, r) for r in rounds]
    monkeypatch.setattr(engine, "_MODELS", ["exact"])
    exact = [engine.pair(t, r) for r in rounds]
    for r, a, b in zip(rounds, default, exact):
        assert (a.as_pairs(), a.bye) == (b.as_pairs(), b.bye), f"round {r}"
        assert [tr.tiers for tr in a.brackets] == [tr.tiers for tr in b.brackets], f"round {r}"


@pytest.mark.parametrize("path", SAMPLE[:2], ids=lambda p: p.stem)
def test_lazy_model_solved_on_the_bracket_alone_matches_the_file(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the aggregate model the lazy model runs, with its local phase."""
    monkeypatch.setattr(engine, "_MODELS", ["lazy", "exact"])
    calls = []
    real = engine._solve_locally
    monkeypatch.setattr(engine, "_solve_locally", lambda *a: calls.append(1) or real(*a))
    t, rounds = _rounds(path)
    for r in rounds:
        got = engine.pair(t, r)
        fr = file_round(t, r)
        assert (set(got.as_pairs()), got.bye) == (set(fr.pairs), fr.bye), f"round {r}"
    assert calls, "the local phase was never used"


def test_neighbour_sets_are_the_absolute_criteria() -> None:
    t = read_trf(SAMPLE[1])
    st = build_state(t, 5, engine.load_edition("dutch-2026").state_rules)
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
    engine.pair(t, rounds[-1], progress=seen.append)
    assert any(s.startswith("bracket 1/") for s in seen)
    assert len({s.split(" ▸ ")[0] for s in seen}) >= 2
