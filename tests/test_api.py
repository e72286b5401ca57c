"""The root API: every name it lists is there, typed, and importing the package costs
nothing until a name is used."""

from __future__ import annotations

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
