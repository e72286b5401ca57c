"""The root API: every name it lists is there, typed, and importing the package costs
nothing until a name is used."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

import cpsat_pairing
import cpsat_pairing as cp


def test_every_listed_name_resolves() -> None:
    for name in cpsat_pairing.__all__:
        assert getattr(cpsat_pairing, name) is not None
    assert sorted(dir(cpsat_pairing)) == sorted(cpsat_pairing.__all__)


def test_importing_the_package_imports_no_solver() -> None:
    code = "import sys, cpsat_pairing; print('ortools' in sys.modules, cpsat_pairing.__version__)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out[0] == "False" and out[1] == cpsat_pairing.__version__


def test_an_unknown_name_is_an_attribute_error() -> None:
    try:
        cpsat_pairing.no_such_name  # type: ignore[attr-defined]  # noqa: B018
    except AttributeError as exc:
        assert "no_such_name" in str(exc)
    else:
        raise AssertionError("no AttributeError")


@pytest.mark.parametrize("rnd", [0, 8, 99])
def test_pairing_a_round_past_the_next_one_is_an_input_error(rnd: int) -> None:
    t = cp.read_trf(Path(__file__).parent / "fixtures" / "doors" / "t000002_r1-6.trf")
    with pytest.raises(cp.RoundNotPairable, match="next round that can be paired is 7") as info:
        cp.pair(t, rnd)
    assert isinstance(info.value, ValueError) and info.value.exit_code == 3 and info.value.next_round == 7


def _everyone_absent_in_round_1() -> cp.Tournament:
    """A fixture's players with round 1 held and every one of them absent (all late
    entries), nothing after it."""
    t = cp.read_trf(Path(__file__).parent / "fixtures" / "doors" / "t000002_r1-6.trf")
    absent = (cp.RoundEntry(None, None, "Z"),)
    return dataclasses.replace(t, players=tuple(dataclasses.replace(p, rounds=absent) for p in t.players))


def test_a_round_every_player_missed_is_held() -> None:
    """A round in which every player has a block and nobody a game (all absent) was held:
    the next round can be paired, the one after it cannot, and round 1 can still be
    paired again (its blocks read as the absences entered for it)."""
    t = _everyone_absent_in_round_1()
    assert t.rounds_played == 0 and t.next_pairable_round == 2
    assert len(cp.pair(t, 2).as_pairs()) == len(t.players) // 2
    with pytest.raises(cp.RoundNotPairable, match="next round that can be paired is 2"):
        cp.pair(t, 3)


def test_absences_entered_for_the_next_round_keep_it_the_next() -> None:
    """Only some players have blocks in round 7: they are the absences entered for it,
    so round 8 still cannot be paired."""
    t = cp.read_trf(Path(__file__).parent / "fixtures" / "doors" / "t000002_r1-6.trf")
    absent = dataclasses.replace(t.players[0], rounds=(*t.players[0].rounds, cp.RoundEntry(None, None, "Z")))
    t = dataclasses.replace(t, players=(absent, *t.players[1:]))
    assert t.next_pairable_round == 7
    with pytest.raises(cp.RoundNotPairable, match="next round that can be paired is 7"):
        cp.pair(t, 8)


def test_the_stress_generator_pairs_after_a_round_everyone_missed() -> None:
    """Stress seed 1042 has three players, all late for round 1: its round 2 is paired."""
    from cpsat_pairing.apps.generate import GenConfig, play

    t = play(1042, dataclasses.replace(GenConfig(), profile="stress")).tournament
    assert t.rounds_played >= 2
