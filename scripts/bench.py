#!/usr/bin/env python3
"""Benchmark: pair large inputs several times; print medians of wall, CPU, solver and
model-building time, and peak memory.

    scripts/bench.py [FILES...] [--repeat 3] [--baseline scripts/bench-baseline.json]
                     [--save scripts/bench-baseline.json] [--generate 1000,2000,5000]

Each run is a fresh process (start-up included, as an arbiter would see it) that reads
the file, pairs the next round and prints its figures.  Where FILE.<edition>.pairs
exists beside FILE (the reference engine's pairing), the output is compared with it.
`--generate` adds inputs of those sizes made by scripts/make_large.py (seed 1).
The machine is small and shared: CPU seconds are steadier than wall seconds.
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
GENERATED = Path("/tmp/cpsat-pairing-bench")

DRIVER = """
import json, resource, sys, time
t0 = time.perf_counter()
from cpsat_pairing.dutch.rounds import pair
from cpsat_pairing.solver.cpsat import STATS
from cpsat_pairing.interface.views.render import bbp_pair_list
from cpsat_pairing.formats import read_trf
p = pair(read_trf(sys.argv[1]), edition=sys.argv[2])
print(json.dumps({"pairs": bbp_pair_list(p), "solve_s": STATS["solve_seconds"],
                  "build_s": STATS["build_seconds"], "solves": STATS["solves"], "bounded": STATS["bounded"],
                  "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0}))
"""


def run_once(path: Path, edition: str) -> dict:
    """Figures of one fresh process: wall, CPU, solver, model building, its own peak RSS."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", DRIVER, str(path), edition], capture_output=True, text=True, cwd=ROOT
    )
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"{path.name}: exit {proc.returncode}: {proc.stderr.strip()[-2000:]}")
    out = json.loads(proc.stdout)
    out["wall_s"] = wall
    out["cpu_s"] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return out


def reference(path: Path) -> tuple[str, str] | None:
    for ref in sorted(path.parent.glob(path.stem + ".*.pairs")):
        return ref.name.split(".")[1], ref.read_text()
    return None


def generated(sizes: str) -> list[Path]:
    GENERATED.mkdir(exist_ok=True)
    out = []
    for n in (int(x) for x in sizes.split(",") if x):
        path = GENERATED / f"random{n}-r6.trf"
        if not path.exists():
            subprocess.run(
                [sys.executable, str(ROOT / "scripts" / "make_large.py"), "--players", str(n), "--seed", "1",
                 "-o", str(path)],
                check=True,
            )
        out.append(path)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*", type=Path)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--baseline", type=Path)
    ap.add_argument("--save", type=Path)
    ap.add_argument("--generate", default="", help="comma-separated sizes to generate, e.g. 1000,2000,5000")
    a = ap.parse_args()
    files = (a.files or DEFAULT) + generated(a.generate)
    base = json.loads(a.baseline.read_text()) if a.baseline and a.baseline.exists() else {}
    figures: dict[str, dict[str, float]] = {}
    for path in files:
        ref = reference(path)
        edition = ref[0] if ref else "dutch-2026"
        runs = [run_once(path, edition) for _ in range(a.repeat)]
        keys = ("wall_s", "cpu_s", "solve_s", "build_s", "solves", "bounded")
        med = {k: statistics.median(r[k] for r in runs) for k in keys}
        peak = max(r["peak_mib"] for r in runs)
        same = "" if ref is None else ("identical to reference" if runs[-1]["pairs"] == ref[1] else "DIFFERS from reference")
        old = base.get(path.name)
        ratio = f" (x{med['cpu_s'] / old['cpu_s']:.2f} CPU vs baseline)" if old and old.get("cpu_s") else ""
        print(
            f"{path.name}: {edition} median wall {med['wall_s']:.2f}s, CPU {med['cpu_s']:.2f}s{ratio}, "
            f"solver {med['solve_s']:.2f}s in {med['solves']:.0f} solves ({med['bounded']:.0f} tiers by the count bound), model building {med['build_s']:.2f}s, "
            f"peak {peak:.0f} MiB {same}",
            flush=True,
        )
        figures[path.name] = {k: round(v, 3) for k, v in med.items()} | {"peak_mib": round(peak, 1)}
    if a.save:
        a.save.write_text(json.dumps(figures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
