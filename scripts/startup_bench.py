#!/usr/bin/env python3
"""Where a fresh process's round goes: Python's start, OR-Tools' core, this package's
modules, and the pairing itself, against another engine's whole process.

    scripts/startup_bench.py [--players 100] [--rounds 9] [--round 5] [--seed 1]
                             [--runs 21] [--reference ENGINE]

Generates the round of `serve_bench.py` (same options) and times, as fresh processes
in turn, run after run (so a drift of the machine's speed falls on all alike):

1. the interpreter alone (`python -S -c pass`);
2. the interpreter with its site packages (`python -c pass`: the installation's `.pth`
   files run here);
3. that and OR-Tools' C++ core (`import ortools.sat.python.cp_model_helper`), when the
   round loads it (a round whose brackets all pair without a model does not);
4. that and every module of this package that the round loads (taken from a run of
   the round itself);
5. the round (`python -m cpsat_pairing --dutch FILE -p OUT`);
6. with --reference, ENGINE --dutch FILE -p OUT (its pairing must be ours: exit 1 if not).

Prints the median CPU seconds (user + system: what the process itself spent, however
busy the machine) and wall seconds of each, and what each step adds to the one
before.  Steps 1-4 are what a fresh round costs before it pairs anything: no change
inside the pairing can bring a fresh round below them.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from serve_bench import add_round_arguments, bench_round  # noqa: E402


def timed(argv: list[str]) -> tuple[float, float]:
    """CPU and wall seconds of one fresh process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(argv, check=True, capture_output=True, cwd=ROOT)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, wall


def loaded_modules(trf: Path, out: Path) -> list[str]:
    """This package's modules that a fresh round loads (by name), and OR-Tools' core
    first when it loads that."""
    probe = (
        "import runpy, sys\n"
        f"sys.argv = ['cpsat_pairing', '--dutch', {str(trf)!r}, '-p', {str(out)!r}]\n"
        "try:\n    runpy.run_module('cpsat_pairing', run_name='__main__')\n"
        "except SystemExit:\n    pass\n"
        "core = ['ortools.sat.python.cp_model_helper'] if 'ortools.sat.python.cp_model_helper' in sys.modules else []\n"
        "print(','.join(core + sorted(m for m in sys.modules if m.startswith('cpsat_pairing') and m != '__main__')))\n"
    )
    proc = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True, text=True, cwd=ROOT)
    return proc.stdout.strip().splitlines()[-1].split(",")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_round_arguments(ap)
    ap.add_argument("--runs", type=int, default=21)
    ap.add_argument("--reference", help="another engine's binary, called as ENGINE --dutch FILE -p OUT")
    a = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        trf, out, theirs = Path(tmp) / "round.trf", Path(tmp) / "out.txt", Path(tmp) / "theirs.txt"
        trf.write_text(bench_round(a))
        modules = loaded_modules(trf, out)
        core = modules[:1] if modules[0].startswith("ortools") else []
        py = sys.executable
        steps: list[tuple[str, list[str]]] = [
            ("interpreter (-S)", [py, "-S", "-c", "pass"]),
            ("+ site packages", [py, "-c", "pass"]),
        ]
        if core:
            steps.append(("+ OR-Tools' core", [py, "-c", "import " + core[0]]))
        steps += [
            (f"+ this package ({len(modules) - len(core)} modules, and theirs)",
             [py, "-c", "import " + ", ".join(modules)]),
            ("+ the round (--dutch FILE -p OUT)", [py, "-m", "cpsat_pairing", "--dutch", str(trf), "-p", str(out)]),
        ]
        if a.reference:
            steps.append(("reference, whole process", [a.reference, "--dutch", str(trf), "-p", str(theirs)]))
        cpu: list[list[float]] = [[] for _ in steps]
        wall: list[list[float]] = [[] for _ in steps]
        for _ in range(a.runs):
            for k, (_, argv) in enumerate(steps):
                c, w = timed(argv)
                cpu[k].append(c)
                wall[k].append(w)
        same = a.reference is None or out.read_text().split() == theirs.read_text().split()
    print(f"{a.players} players, round {a.rnd} (seed {a.seed}); medians of {a.runs} fresh processes each")
    print(f"{'step':<44} {'CPU s':>8} {'adds':>8} {'wall s':>8}")
    previous = 0.0
    ours = len(steps) if not a.reference else len(steps) - 1
    for k, (name, _) in enumerate(steps):
        c, w = statistics.median(cpu[k]), statistics.median(wall[k])
        adds = f"{c - previous:8.3f}" if k < ours else ""
        print(f"{name:<44} {c:8.3f} {adds:>8} {w:8.3f}")
        previous = c
    if a.reference:
        ref = statistics.median(cpu[-1])
        floor = statistics.median(cpu[ours - 2])
        print(f"the round: {statistics.median(cpu[ours - 1]) / ref:.1f}x the reference's CPU; "
              f"its start-up alone (the steps before it): {floor / ref:.1f}x"
              + ("" if core else "; OR-Tools not loaded"))
        print("the reference's pairing is ours" if same else "DIFFERENT PAIRINGS: the reference's is not ours")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
