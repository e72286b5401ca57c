#!/usr/bin/env python3
"""Benchmark: pair large inputs several times, print median wall time and peak memory.

    scripts/bench.py [FILES...] [--repeat 3] [--baseline scripts/bench-baseline.json]
                     [--save scripts/bench-baseline.json]

Each run is a fresh process (`cpsat-pairing pair FILE -f bbp`), so start-up is
included as an arbiter would see it.  Where FILE.<edition>.pairs exists beside FILE
(the reference engine's pairing), the output is compared with it as well.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = sorted((ROOT.parent / "shared" / "corpus" / "large").glob("*.trf"))


def run_once(path: Path, edition: str) -> tuple[float, float, str]:
    """Wall seconds, peak RSS (MiB) of the child, and its output."""
    cmd = [sys.executable, "-m", "cpsat_pairing", "pair", str(path), "-f", "bbp", "-e", edition]
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    wall = time.perf_counter() - t0
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    if proc.returncode != 0:
        raise SystemExit(f"{path.name}: exit {proc.returncode}: {proc.stderr.strip()}")
    return wall, max(peak, before) / 1024.0, proc.stdout


def reference(path: Path) -> tuple[str, str] | None:
    for ref in sorted(path.parent.glob(path.stem + ".*.pairs")):
        return ref.name.split(".")[1], ref.read_text()
    return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*", type=Path)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--baseline", type=Path)
    ap.add_argument("--save", type=Path)
    a = ap.parse_args()
    files = a.files or DEFAULT
    base = json.loads(a.baseline.read_text()) if a.baseline and a.baseline.exists() else {}
    figures: dict[str, dict[str, float]] = {}
    for path in files:
        ref = reference(path)
        edition = ref[0] if ref else "dutch-2026"
        walls, peaks, out = [], [], ""
        for _ in range(a.repeat):
            wall, peak, out = run_once(path, edition)
            walls.append(wall)
            peaks.append(peak)
        med = statistics.median(walls)
        same = "" if ref is None else ("identical to reference" if out == ref[1] else "DIFFERS from reference")
        ratio = f" (x{med / base[path.name]['median_s']:.2f} vs baseline)" if path.name in base else ""
        print(f"{path.name}: {edition} median {med:.2f}s{ratio}, peak {max(peaks):.0f} MiB, {same}", flush=True)
        figures[path.name] = {"median_s": round(med, 3), "peak_mib": round(max(peaks), 1)}
    if a.save:
        a.save.write_text(json.dumps(figures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
