"""scripts/startup_bench.py: a fresh round's CPU split into Python's start, OR-Tools'
core (where the round loads it), this package's modules and the round, against another
engine's process.

The yardstick is this package's own bbpPairings-compatible command line (its pairing
must be ours), and a stand-in that answers another pairing (which must be said)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOOR = Path(sys.executable).parent / "cpsat-pairing"
STEPS = ["interpreter (-S)", "+ site packages", "+ this package", "+ the round", "reference, whole process"]


def _bench(reference: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "startup_bench.py"), "--players", "12", "--rounds", "5",
         "--round", "2", "--runs", "1", "--reference", str(reference)],
        capture_output=True, text=True, cwd=ROOT, timeout=300,
    )


@pytest.mark.skipif(not DOOR.exists(), reason="the package's command line is not installed beside this Python")
def test_startup_bench_splits_the_fresh_round_and_compares_the_pairing() -> None:
    proc = _bench(DOOR)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    for step in STEPS:
        row = next(line for line in lines if line.startswith(step))
        cpu = float(row[44:].split()[0])
        assert cpu > 0, row
    # "+ this package" names how many of the package's modules the round loaded.
    loaded = re.search(r"this package \((\d+) modules", proc.stdout)
    assert loaded is not None and int(loaded.group(1)) > 10
    # Its small brackets are all paired by their candidates: no model, no OR-Tools.
    assert "OR-Tools not loaded" in proc.stdout and "+ OR-Tools' core" not in proc.stdout
    assert "the reference's pairing is ours" in proc.stdout


def test_startup_bench_says_when_the_reference_pairs_otherwise(tmp_path: Path) -> None:
    other = tmp_path / "other-engine"
    other.write_text('#!/bin/sh\n# --dutch FILE -p OUT\nprintf "1\\n1 2\\n" > "$4"\n')
    other.chmod(0o755)
    proc = _bench(other)
    assert proc.returncode == 1
    assert "DIFFERENT PAIRINGS" in proc.stdout
