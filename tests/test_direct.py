"""Small 2026 brackets paired by their candidates (dutch/e2026/direct.py), each compared
with the model that pairs them otherwise: every round pairs the same, with the same
tiers (the bracket's trace is the model's, tier for tier), from no witness and from
the file's own pairing as `check` gives it; the direct path answers most small
brackets, and declines some (its completion finds no round-pairing at [C8]'s ceilings),
which the model then pairs."""

from __future__ import annotations

import dataclasses

import pytest

from cpsat_pairing import SolverSettings, pair, read_trf
from cpsat_pairing.apps.check import file_round
from cpsat_pairing.apps.generate import GenConfig, play
from cpsat_pairing.domain.state import round_exists
from cpsat_pairing.domain.tournament import Tournament
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

