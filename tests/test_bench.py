"""scripts/bench.py: figures per release, and a yardstick engine timed in the same run.

The yardstick here is this package's own bbpPairings-compatible command line, so the
test needs no other engine: its pairing must be ours.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "cpsat_pairing" / "examples" / "example.trf"
DOOR = Path(sys.executable).parent / "cpsat-pairing"


@pytest.mark.skipif(not DOOR.exists(), reason="the package's command line is not installed beside this Python")
def test_bench_times_a_yardstick_and_keeps_each_release(tmp_path: Path) -> None:
    baseline = tmp_path / "baseline.json"
    baseline.write_text(json.dumps({"example.trf": {"cpu_s": 1000.0}}))  # an old flat file: release "old"

    def bench(*extra: str) -> str:
        proc = subprocess.run(
            [sys.executable, str(ROOT / "scripts" / "bench.py"), str(EXAMPLE), "--repeat", "1",
             "--reference", f"dutch-2026={DOOR}", "--baseline", str(baseline), *extra],
            capture_output=True, text=True, cwd=ROOT, timeout=300,
        )
        assert proc.returncode == 0, proc.stderr
        return proc.stdout

    out = bench("--save", str(baseline), "--release", "first")
    assert "vs old" in out  # compared with the last release stored
    assert "same pairing" in out and "ours/theirs" in out
    out = bench("--save", str(baseline), "--release", "second")
    assert "vs first" in out
    stored = json.loads(baseline.read_text())["releases"]
    assert list(stored) == ["old", "first", "second"]
    figures = stored["second"]["example.trf"]
    assert figures["edition"] == "dutch-2026" and figures["wall_s"] > 0 and figures["reference_wall_s"] > 0
