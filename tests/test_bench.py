"""scripts/bench.py: figures per release, and a yardstick engine timed in the same run.

The yardstick here is this package's own bbpPairings-compatible command line, so the
test needs no other engine: its pairing must be ours.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "cpsat_pairing" / "examples" / "example.trf"
DOOR = Path(sys.executable).parent / "cpsat-pairing"


def _env(tmp_path: Path) -> dict[str, str]:
    """bench.py keeps generated inputs and reference pairings in CPSAT_PAIRING_BENCH_DIR
    (else a fixed folder under /tmp): here, the test's own folder."""
    return {**os.environ, "CPSAT_PAIRING_BENCH_DIR": str(tmp_path / "bench-dir")}


@pytest.mark.skipif(not DOOR.exists(), reason="the package's command line is not installed beside this Python")
def test_bench_times_a_yardstick_and_keeps_each_release(tmp_path: Path) -> None:
    baseline = tmp_path / "baseline.json"
    baseline.write_text(json.dumps({"example.trf": {"cpu_s": 1000.0}}))  # an old flat file: release "old"

    def bench(*extra: str) -> str:
        proc = subprocess.run(
            [sys.executable, str(ROOT / "scripts" / "bench.py"), str(EXAMPLE), "--repeat", "1",
             "--reference", f"dutch-2026={DOOR}", "--baseline", str(baseline), *extra],
            capture_output=True, text=True, cwd=ROOT, timeout=300, env=_env(tmp_path),
        )
        assert proc.returncode == 0, proc.stderr
        return proc.stdout

    out = bench("--save", str(baseline), "--release", "first")
    assert (tmp_path / "bench-dir" / "reference" / "example.pairs").is_file()  # the yardstick's pairing, kept here
    assert "vs old" in out  # compared with the last release stored
    assert "same pairing" in out and "ours/theirs" in out
    out = bench("--save", str(baseline), "--release", "second")
    assert "vs first" in out
    stored = json.loads(baseline.read_text())["releases"]
    assert list(stored) == ["old", "first", "second"]
    figures = stored["second"]["example.trf"]
    assert figures["edition"] == "dutch-2026" and figures["wall_s"] > 0 and figures["reference_wall_s"] > 0


@pytest.mark.skipif(not DOOR.exists(), reason="the package's command line is not installed beside this Python")
def test_bench_calibrates_its_times_and_times_a_check(tmp_path: Path) -> None:
    """Times are also shown scaled to the targets' machine speed (the yardstick's time
    on its input against the 2.5 s the targets assume), and `--check` times a whole
    tournament's check and reports its slowest round."""
    tournament = ROOT / "tests" / "fixtures" / "corpus" / "dutch-2013" / "dev" / "j000047.trf"
    proc = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "bench.py"), str(EXAMPLE), "--repeat", "1",
         "--calibrate", str(DOOR), "--calibrate-on", str(EXAMPLE), "--check", str(tournament),
         "--edition", "dutch-2013"],
        capture_output=True, text=True, cwd=ROOT, timeout=300, env=_env(tmp_path),
    )
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "calibration: cpsat-pairing pairs example.trf in" in out
    assert "calibrated" in out and "target: none for this size" in out
    assert "check j000047.trf" in out and "slowest round" in out
    assert re.search(r" (\d+)/\1 rounds match", out), out  # the fixture replays exactly
    assert "calibration after the runs" in out and "calibrated by both yardstick runs" in out


@pytest.mark.skipif(not DOOR.exists(), reason="the package's command line is not installed beside this Python")
def test_bench_save_without_baseline_keeps_the_other_releases(tmp_path: Path) -> None:
    saved = tmp_path / "baseline.json"
    saved.write_text(json.dumps({"releases": {"old": {"example.trf": {"cpu_s": 1.0}}}}))
    proc = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "bench.py"), str(EXAMPLE), "--repeat", "1",
         "--save", str(saved), "--release", "new"],
        capture_output=True, text=True, cwd=ROOT, timeout=300, env=_env(tmp_path),
    )
    assert proc.returncode == 0, proc.stderr
    assert set(json.loads(saved.read_text())["releases"]) == {"old", "new"}


@pytest.mark.skipif(not DOOR.exists(), reason="the package's command line is not installed beside this Python")
def test_bench_runs_saved_to_one_file_keep_each_others_inputs(tmp_path: Path) -> None:
    """Runs compared with one baseline and saved to another file under one release (one
    run per edition, say) add up there: a later run keeps the earlier runs' inputs."""
    baseline = tmp_path / "baseline.json"
    baseline.write_text(json.dumps({"releases": {"old": {"example.trf": {"cpu_s": 1.0}}}}))
    saved = tmp_path / "new.json"
    other = tmp_path / "other.trf"
    other.write_text(EXAMPLE.read_text())
    for source in (EXAMPLE, other):
        proc = subprocess.run(
            [sys.executable, str(ROOT / "scripts" / "bench.py"), str(source), "--repeat", "1",
             "--baseline", str(baseline), "--save", str(saved), "--release", "new"],
            capture_output=True, text=True, cwd=ROOT, timeout=300, env=_env(tmp_path),
        )
        assert proc.returncode == 0, proc.stderr
    assert set(json.loads(saved.read_text())["releases"]["new"]) == {"example.trf", "other.trf"}
    assert set(json.loads(baseline.read_text())["releases"]) == {"old"}


@pytest.mark.skipif(not DOOR.exists(), reason="the package's command line is not installed beside this Python")
def test_bench_reruns_with_a_reference_on_its_own_generated_inputs(tmp_path: Path) -> None:
    """The reference engine's pairing of a generated input is kept apart from it: beside
    the input, FILE.<edition>.pairs would be read as its reference pairing, and a second
    run stopped on an unknown edition."""
    folder = tmp_path / "bench"
    folder.mkdir()
    generated = folder / "random-example.trf"
    generated.write_bytes(EXAMPLE.read_bytes())
    for _ in range(2):
        proc = subprocess.run(
            [sys.executable, str(ROOT / "scripts" / "bench.py"), str(generated), "--repeat", "1",
             "--reference", f"dutch-2026={DOOR}"],
            capture_output=True, text=True, cwd=ROOT, timeout=300,
            env={**os.environ, "CPSAT_PAIRING_BENCH_DIR": str(folder)},
        )
        assert proc.returncode == 0, proc.stderr
        assert "Traceback" not in proc.stdout and "same pairing" in proc.stdout, proc.stdout


def test_bench_times_the_greedy_family_and_says_where_a_run_gave_up(tmp_path: Path) -> None:
    """`--naive` adds one greedy-history input per size and seed; a run past `--timeout`
    is reported with the stage it was in, and its figures say it did not finish."""
    saved = tmp_path / "figures.json"

    def bench(*extra: str) -> str:
        proc = subprocess.run(
            [sys.executable, str(ROOT / "scripts" / "bench.py"), str(EXAMPLE), "--repeat", "1",
             "--naive", "31,40", "--naive-seeds", "2", "--save", str(saved), "--release", "r", *extra],
            capture_output=True, text=True, cwd=ROOT, timeout=300,
            env={**os.environ, "CPSAT_PAIRING_BENCH_DIR": str(tmp_path)},
        )
        assert proc.returncode == 0, proc.stderr
        return proc.stdout

    out = bench()
    for n in (31, 40):
        assert re.search(rf"^naive{n}-s2-r6\.trf: dutch-2026 median wall", out, re.M), out
        assert (tmp_path / f"naive{n}-s2-r6.trf").exists()
    out = bench("--timeout", "0.05")
    assert "naive40-s2-r6.trf: dutch-2026 (40 players) no answer within 0.05 s; it was in " in out
    assert json.loads(saved.read_text())["releases"]["r"]["naive40-s2-r6.trf"]["timeout_s"] == 0.05
