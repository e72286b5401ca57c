"""scripts/endorse.py: both directions of the certification test, with stand-ins for the
reference engine (no other engine needed).

The package's own bbpPairings-compatible command line stands in for an engine that
agrees with us: nothing may be counted.  A fake engine -- its generator writes a
tournament with one tampered round, its checker flags two rounds -- must be counted,
round by round, with the criterion that decides our verdict.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from cpsat_pairing import read_trf, write_trf
from cpsat_pairing.testing import mutate
from cpsat_pairing.testing.handmade import field, no_pairing_round_4

from helpers import CORPUS

ROOT = Path(__file__).resolve().parent.parent
DOOR = Path(sys.executable).parent / "cpsat-pairing"
SMALL = CORPUS / "dutch-2026" / "dev" / "t000149.trf"  # 8 players, 7 rounds
FAKE = """#!{python}
import shutil, sys
args = sys.argv[1:]
if "-g" in args:
    shutil.copyfile({tampered!r}, args[args.index("-o") + 1])
elif "-c" in args:
    name = args[1].rsplit("/", 1)[-1][:-4]
    for r in (1, 2, 3, 4):
        print(f"{{name}}: Round #{{r}}")
        if r == 2:
            print("  Checker pairings        Tournament pairings ")
            print("      1 -   2                 1 -   3")
            print()
        if r == 4:
            print("No valid pairing exists for round 4.")
            print()
"""


def _endorse(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "scripts" / "endorse.py"), "--jobs", "2", *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=600)


@pytest.mark.skipif(not DOOR.exists(), reason="the package's command line is not installed beside this Python")
def test_an_engine_that_agrees_finds_nothing_either_way(tmp_path: Path) -> None:
    proc = _endorse("--reference", str(DOOR), "--count", "2", "--step", "3", "--ours-count", "1", "--keep",
                    str(tmp_path))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = proc.stdout
    assert "tournaments: 2 (seeds 1-4, step 3), 2 checked" in out
    assert "discrepancies: 0 rounds in 0 tournaments; 0 unreadable, 0 not generated" in out
    assert "50,000 tournaments at this rate:" in out and "(extrapolated from 2, not run)" in out
    for profile in ("standard", "stress"):
        assert re.search(rf"{profile}: 1 tournaments, [1-9]\d* rounds: 0 flagged rounds in 0 tournaments, "
                         r"0 checker errors", out), out
    assert sorted(p.name for p in (tmp_path / "theirs").glob("*.trf")) == ["t000001.trf", "t000004.trf"]


def test_a_tampered_round_and_flagged_rounds_are_counted(tmp_path: Path) -> None:
    t = read_trf(SMALL)
    tampered = tmp_path / "tampered.trf"
    tampered.write_text(write_trf(mutate.swap_opponents(t, 7, 0, 1), t.dialect))
    engine = tmp_path / "engine"
    engine.write_text(FAKE.format(python=sys.executable, tampered=str(tampered)))
    engine.chmod(0o755)
    proc = _endorse("--reference", str(engine), "--count", "2", "--ours-count", "1", "--profiles", "standard",
                    "--keep", str(tmp_path / "out"))
    assert proc.returncode == 1
    out = proc.stdout
    # Ours: the two copies of the tampered file differ in their last round, 7, only, each with its reason.
    assert "discrepancies: 2 rounds in 2 tournaments" in out
    listed = re.findall(r"^\s+(t00000[12]\.trf) round (\d+): (pairs differ|illegal): (.+)$", out, re.M)
    assert [(f, r) for f, r, _, _ in listed] == [("t000001.trf", "7"), ("t000002.trf", "7")]
    assert all(why.startswith("[") for _, _, _, why in listed)  # the deciding criterion, e.g. "[C12] ..."
    assert "C.02 allows at most 10 in 50,000: 2 found in 2" in out
    # Theirs: rounds 2 and 4 of our one tournament.
    assert "standard: 1 tournaments, 4 rounds: 2 flagged rounds in 1 tournaments" in out
    assert "t000001.trf round 2: the checker pairs it otherwise" in out
    assert "t000001.trf round 4: no valid pairing, says the checker" in out


STOPS = """#!{python}
import shutil, sys
args = sys.argv[1:]
shutil.copyfile({partial!r}, args[args.index("-o") + 1])
print("Error generating the tournament: No valid pairing exists for round {rnd} of the generated tournament",
      file=sys.stderr)
sys.exit(1)
"""


@pytest.mark.parametrize(("unpairable", "counted"), [(True, False), (False, True)], ids=["agreed", "pairable"])
def test_a_tournament_the_generator_cannot_finish(tmp_path: Path, unpairable: bool, counted: bool) -> None:
    """The generator stops at a round it finds no valid pairing for, leaving the rounds
    before it: no tournament and no discrepancy where ours cannot pair that round
    either; where ours can, the seed counts as not generated."""
    partial = tmp_path / "partial.trf"
    partial.write_text(no_pairing_round_4() if unpairable else field(6))
    engine = tmp_path / "engine"
    engine.write_text(STOPS.format(python=sys.executable, partial=str(partial), rnd=4 if unpairable else 1))
    engine.chmod(0o755)
    proc = _endorse("--reference", str(engine), "--count", "2", "--direction", "theirs", "--keep", str(tmp_path / "out"))
    out = proc.stdout
    assert "tournaments: 2 (seeds 1-2), 0 checked, 0 rounds" in out, out
    if counted:
        assert proc.returncode == 1
        assert "0 unreadable, 2 not generated" in out and "C.02 allows at most 10 in 50,000: 2 found in 2" in out
        assert "not finished by the generator" not in out
    else:
        assert proc.returncode == 0, out + proc.stderr
        assert "0 unreadable, 0 not generated" in out and "C.02 allows at most 10 in 50,000: none found" in out
        assert "not finished by the generator: 2 seeds" in out
        assert "seed 1: round 4: no valid pairing by the generator's pairing, none by ours either" in out
