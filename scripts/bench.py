#!/usr/bin/env python3
"""Benchmark: pair large inputs several times; print medians of wall, CPU, solver and
model-building time, and peak memory.

    scripts/bench.py [FILES...] [--repeat 3] [--generate 1000,2000,5000,9999]
                     [--naive 2000,5000,9999 [--naive-seeds 1,3,5]] [--timeout SECONDS]
                     [--edition dutch-2017] [--reference dutch-2026=PATH ...]
                     [--baseline scripts/bench-baseline.json [--against RELEASE]]
                     [--save scripts/bench-baseline.json --release RELEASE]
                     [--calibrate PATH] [--check FILE ...]

Each run is a fresh process (start-up included, as an arbiter would see it) that reads
the file, pairs the next round and prints its figures.  Where FILE.<edition>.pairs
exists beside FILE (the reference engine's pairing), the output is compared with it
and that edition is used; other inputs are paired by --edition (default dutch-2026).
`--generate` adds inputs of those sizes made by scripts/make_large.py (seed 1).
`--naive` adds the greedy-history family (`testing.large.greedy`: five rounds paired
greedily inside score order, round 6 to pair, the history of `large/naive2000-r6.trf`),
one input per size and seed of --naive-seeds.  `--timeout` gives up a run after that many
seconds (its other repeats are skipped) and says so, with the bracket and tier it was in.
Every run's progress (bracket, tier) is timed: a run of 5 s or more prints the stages
that took longest, which is where to look when a size grows badly.

`--reference EDITION=PATH` names a bbpPairings-compatible executable to time in the
same run (`PATH --dutch FILE -p OUT`, median of --repeat, inputs of at most
--reference-max players): the machine's speed drifts between days, so a ratio measured
in one run is the figure to compare; its pairing is compared with ours too.

The baseline file keeps each release's figures (`{"releases": {RELEASE: {INPUT: {...}}}}`,
INPUT the file name, with `@EDITION` for an edition other than dutch-2026):
`--save FILE --release R` adds this run's to R's in FILE (keeping its other inputs and
FILE's other releases); `--baseline` prints CPU ratios against the last release stored (or
`--against R`).

`--calibrate PATH` (a bbpPairings 6 executable) times it on `gen500-r6.trf` of the
shared corpus before and after the runs.  The speed targets hold on a machine where that
takes 2.5 s (the machine's speed drifts by up to 2x between days), so every time is also
printed scaled to that speed ("calibrated"), next to the target for its size and edition.
Memory is not scaled.

`--check FILE` times `cpsat-pairing check FILE` (every round of a paired tournament,
one per core, fresh process, start-up included; its edition is the file's, or
--edition) and reports its slowest round in a check of one round at a time.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LARGE = ROOT.parent / "shared" / "corpus" / "large"
DEFAULT = sorted(LARGE.glob("*.trf"))
# Generated inputs and the reference engine's pairings (CPSAT_PAIRING_BENCH_DIR elsewhere).
GENERATED = Path(os.environ.get("CPSAT_PAIRING_BENCH_DIR", "/tmp/cpsat-pairing-bench"))

# The speed targets (seconds, MiB) by players and edition, at the calibration speed:
# bbpPairings 6 pairs YARDSTICK in YARDSTICK_S seconds.  For 1,000 players the time
# target is a tenth of bbpPairings 6 in the same run (--reference).
YARDSTICK = LARGE / "gen500-r6.trf"
YARDSTICK_S = 2.5
TARGETS: dict[tuple[int, str], tuple[float | None, float]] = {
    (1000, "dutch-2026"): (None, 512),
    (2000, "dutch-2026"): (5, 1024),
    (5000, "dutch-2026"): (20, 2048),
    (9999, "dutch-2026"): (60, 4096),
    (2000, "dutch-2017"): (10, 1024),
    (5000, "dutch-2017"): (40, 2048),
}
CHECK_TARGET_S = 9.0  # a 389-player, 14-round 2017 tournament checked (JaVaFo 2.2's time)
ROUND_TARGET_S = 1.0  # any round of 300-400 players (2017 and 2013)

DRIVER = """
import json, resource, sys, time
t0 = time.perf_counter()
from cpsat_pairing.dutch.rounds import pair
from cpsat_pairing.solver.cpsat import STATS
from cpsat_pairing.interface.views.render import bbp_pair_list
from cpsat_pairing.formats import read_trf
def stage(text):
    print(f"{time.perf_counter() - t0:.3f}\t{text}", file=sys.stderr, flush=True)
p = pair(read_trf(sys.argv[1]), edition=sys.argv[2], progress=stage)
stage("done")
print(json.dumps({"pairs": bbp_pair_list(p), "solve_s": STATS["solve_seconds"],
                  "build_s": STATS["build_seconds"], "solves": STATS["solves"], "bounded": STATS["bounded"],
                  "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0}))
"""


def stages(log: str, end: float) -> list[tuple[str, float]]:
    """(stage, seconds) from the driver's timed progress lines, longest first; the last
    stage runs until `end` (the timeout) when the run did not finish."""
    marks: list[tuple[float, str]] = []
    for line in log.splitlines():
        stamp, _, text = line.partition("\t")
        try:
            marks.append((float(stamp), text))
        except ValueError:
            continue
    spans: dict[str, float] = {}
    for (at, text), nxt in zip(marks, [m[0] for m in marks[1:]] + [end]):
        if text != "done":
            spans[text] = spans.get(text, 0.0) + max(0.0, nxt - at)
    return sorted(spans.items(), key=lambda kv: -kv[1])


def run_once(path: Path, edition: str, timeout: float | None = None) -> dict:
    """Figures of one fresh process: wall, CPU, solver, model building, its own peak RSS,
    and the stages that took longest.  Past `timeout`: {"timeout": True, ...} with the
    stage it was in."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    try:
        proc = subprocess.run(
            [sys.executable, "-c", DRIVER, str(path), edition], capture_output=True, text=True, cwd=ROOT,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired as exc:
        log = exc.stderr.decode() if isinstance(exc.stderr, bytes) else (exc.stderr or "")
        spans = stages(log, timeout or 0.0)
        last = [line.partition("\t")[2] for line in log.splitlines() if "\t" in line]
        return {"timeout": True, "wall_s": time.perf_counter() - t0, "stages": spans,
                "last": last[-1] if last else "before the first bracket"}
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"{path.name}: exit {proc.returncode}: {proc.stderr.strip()[-2000:]}")
    out = json.loads(proc.stdout)
    out["wall_s"] = wall
    out["cpu_s"] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    out["stages"] = stages(proc.stderr, wall)
    return out


def slowest_stages(spans: list[tuple[str, float]], top: int = 3) -> str:
    return "; ".join(f"{text} {seconds:.1f} s" for text, seconds in spans[:top])


def players_in(path: Path) -> int:
    return sum(1 for line in path.read_text(encoding="utf-8", errors="replace").splitlines() if line.startswith("001"))


def run_reference(exe: Path, path: Path) -> tuple[float, str]:
    """Wall time and pair list of one run of a bbpPairings-compatible engine."""
    # Apart from the inputs: a FILE.<edition>.pairs beside an input is its reference pairing.
    (GENERATED / "reference").mkdir(parents=True, exist_ok=True)
    out = GENERATED / "reference" / f"{path.stem}.pairs"
    t0 = time.perf_counter()
    proc = subprocess.run([str(exe), "--dutch", str(path), "-p", str(out)], capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(f"{exe} on {path.name}: exit {proc.returncode}: {proc.stderr.strip()[-500:]}")
    return wall, out.read_text()


def releases(path: Path | None) -> dict[str, dict[str, dict[str, float | str]]]:
    """The baseline file's releases (a file of one flat set of figures is one release, "old")."""
    if path is None or not path.exists():
        return {}
    data = json.loads(path.read_text())
    return data["releases"] if "releases" in data else {"old": data}


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


def naive(sizes: str, seeds: str) -> list[Path]:
    """The greedy-history family: one input per size and seed (built once, then kept)."""
    from cpsat_pairing.testing.large import greedy

    GENERATED.mkdir(exist_ok=True)
    out = []
    for n in (int(x) for x in sizes.split(",") if x):
        for seed in (int(x) for x in seeds.split(",") if x):
            path = GENERATED / f"naive{n}-s{seed}-r6.trf"
            if not path.exists():
                path.write_text(greedy(n, 5, 9, seed), encoding="utf-8")
            out.append(path)
    return out


def calibration(exe: Path, on: Path, repeat: int) -> float:
    """Median wall time of the yardstick engine on `on` (YARDSTICK)."""
    return statistics.median(run_reference(exe, on)[0] for _ in range(repeat))


def verdict(seconds: float | None, target_s: float | None, peak: float | None, target_mib: float | None) -> str:
    parts = []
    if target_s is not None and seconds is not None:
        parts.append(f"{'met' if seconds <= target_s else 'MISSED'} (<= {target_s:g} s)")
    if target_mib is not None and peak is not None:
        parts.append(f"memory {'met' if peak < target_mib else 'MISSED'} (< {target_mib:g} MiB)")
    return ", ".join(parts)


def summary(figures: dict[str, dict[str, float | str]], yard: list[float]) -> None:
    """Every time scaled by both yardstick runs (before and after): a target is met for
    sure only if it is met at the slower of the two speeds."""
    lo, hi = YARDSTICK_S / max(yard), YARDSTICK_S / min(yard)
    print(f"calibrated by both yardstick runs (x{lo:.3f}-x{hi:.3f}):", flush=True)
    for key, fig in figures.items():
        players = fig.get("players")
        target = TARGETS.get((int(players), str(fig.get("edition")))) if players else None
        for name in ("wall_s", "slowest_round_s"):
            wall = fig.get(name)
            if not isinstance(wall, float):
                continue
            goal = target[0] if target and name == "wall_s" else None
            if key.startswith("check:"):
                goal = ROUND_TARGET_S if name == "slowest_round_s" and 300 <= int(players or 0) <= 400 else (
                    CHECK_TARGET_S if name == "wall_s" and players == 389 else None)
            met = "" if goal is None else (
                "  met" if wall * hi <= goal else
                "  MISSED" if wall * lo > goal else "  met at one speed only")
            print(f"  {key} {name}: {wall * lo:.2f}-{wall * hi:.2f} s" + (f" (target <= {goal:g} s){met}" if goal else ""),
                  flush=True)


def run_check(path: Path, edition: str | None, jobs: int | None = None) -> tuple[float, float, int, int]:
    """Wall time of one fresh `check` of every round (`jobs` rounds at a time, default
    one per core), its slowest round's seconds, and how many rounds matched out of how
    many."""
    cmd = [sys.executable, "-m", "cpsat_pairing", "check", str(path), "-f", "json"]
    if jobs:
        cmd += ["--jobs", str(jobs)]
    if edition:
        cmd += ["-e", edition]
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    wall = time.perf_counter() - t0
    if proc.returncode not in (0, 10):
        raise SystemExit(f"check {path.name}: exit {proc.returncode}: {proc.stderr.strip()[-2000:]}")
    rounds = json.loads(proc.stdout)["files"][0]["rounds"]
    slowest = max(r["seconds"] for r in rounds)
    matched = sum(r["verdict"] == "match" for r in rounds)
    return wall, slowest, matched, len(rounds)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*", type=Path)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--edition", help="for inputs without a reference pairing (default dutch-2026), and --check "
                                      "(default: the file's)")
    ap.add_argument("--baseline", type=Path)
    ap.add_argument("--against", help="the release of --baseline to compare with (default: the last)")
    ap.add_argument("--save", type=Path)
    ap.add_argument("--release", help="the name this run's figures are saved under (with --save)")
    ap.add_argument("--generate", default="", help="comma-separated sizes to generate, e.g. 1000,2000,5000,9999")
    ap.add_argument("--naive", default="", help="greedy-history sizes, e.g. 2000,5000,9999")
    ap.add_argument("--naive-seeds", default="1,3,5", help="their seeds (default 1,3,5)")
    ap.add_argument("--timeout", type=float, help="give up a run after this many seconds")
    ap.add_argument("--reference", action="append", default=[], metavar="EDITION=PATH",
                    help="a bbpPairings-compatible executable timed on that edition's inputs")
    ap.add_argument("--reference-max", type=int, default=2000, help="largest input the reference is timed on")
    ap.add_argument("--calibrate", type=Path, metavar="PATH",
                    help="bbpPairings 6, timed on gen500-r6.trf: times are also shown at the targets' speed")
    ap.add_argument("--calibrate-on", type=Path, default=YARDSTICK, metavar="FILE",
                    help=argparse.SUPPRESS)  # another input for the calibration run (the tests' small one)
    ap.add_argument("--check", action="append", default=[], type=Path, metavar="FILE",
                    help="a paired tournament to time `check` on (all its rounds)")
    a = ap.parse_args()
    if a.save and not a.release:
        ap.error("--save needs --release")
    made = generated(a.generate) + naive(a.naive, a.naive_seeds)
    files = ([] if a.check and not a.files and not made else (a.files or DEFAULT)) + made
    yard = [calibration(a.calibrate, a.calibrate_on, a.repeat)] if a.calibrate else []
    if yard:
        print(f"calibration: {a.calibrate.name} pairs {a.calibrate_on.name} in {yard[0]:.2f} s "
              f"(targets hold at {YARDSTICK_S} s)", flush=True)
    scale = (lambda: YARDSTICK_S / yard[0]) if yard else None
    stored = releases(a.baseline or a.save)  # the releases this run is compared with
    against = a.against or (list(stored)[-1] if stored else None)
    base = stored.get(against, {}) if against else {}
    yardsticks = dict(item.split("=", 1) for item in a.reference)
    figures: dict[str, dict[str, float | str]] = {}
    for path in files:
        ref = reference(path)
        edition = ref[0] if ref else (a.edition or "dutch-2026")
        players = players_in(path)
        key = path.name if edition == "dutch-2026" else f"{path.name}@{edition}"
        runs = []
        for _ in range(a.repeat):
            runs.append(run_once(path, edition, a.timeout))
            if runs[-1].get("timeout"):
                break
        if runs[-1].get("timeout"):
            print(f"{path.name}: {edition} ({players} players) no answer within {a.timeout:g} s; it was in "
                  f"{runs[-1]['last']}; longest stages: {slowest_stages(runs[-1]['stages'])}", flush=True)
            figures[key] = {"timeout_s": a.timeout, "edition": edition, "players": players, "stuck_in": runs[-1]["last"]}
            continue
        keys = ("wall_s", "cpu_s", "solve_s", "build_s", "solves", "bounded")
        med = {k: statistics.median(r[k] for r in runs) for k in keys}
        peak = max(r["peak_mib"] for r in runs)
        same = "" if ref is None else ("identical to reference" if runs[-1]["pairs"] == ref[1] else "DIFFERS from reference")
        old = base.get(key)
        ratio = f" (x{med['cpu_s'] / old['cpu_s']:.2f} CPU vs {against})" if old and old.get("cpu_s") else ""
        print(
            f"{path.name}: {edition} median wall {med['wall_s']:.2f}s, CPU {med['cpu_s']:.2f}s{ratio}, "
            f"solver {med['solve_s']:.2f}s in {med['solves']:.0f} solves ({med['bounded']:.0f} tiers by a bound), "
            f"model building {med['build_s']:.2f}s, peak {peak:.0f} MiB {same}",
            flush=True,
        )
        if runs[-1]["wall_s"] >= 5:
            print(f"  longest stages: {slowest_stages(runs[-1]['stages'])}", flush=True)
        figures[key] = {k: round(v, 3) for k, v in med.items()} | {"peak_mib": round(peak, 1), "edition": edition,
                                                                    "players": players}
        target = TARGETS.get((players, edition))
        if scale or target:
            at = med["wall_s"] * scale() if scale else None
            shown = f"calibrated {at:.2f} s; " if at is not None else ""
            print(f"  {shown}target: {verdict(at, *target[:1], peak, target[1]) if target else 'none for this size'}",
                  flush=True)
            if at is not None:
                figures[key] |= {"calibrated_wall_s": round(at, 3)}
        exe = yardsticks.get(edition)
        if exe and players <= a.reference_max:
            timed = [run_reference(Path(exe), path) for _ in range(a.repeat)]
            wall = statistics.median(t for t, _ in timed)
            agree = "same pairing" if timed[-1][1] == runs[-1]["pairs"] else "DIFFERENT pairing"
            print(f"  {Path(exe).name} ({edition}) median wall {wall:.2f}s in this run: ours/theirs "
                  f"x{med['wall_s'] / wall:.2f}, {agree}", flush=True)
            figures[key] |= {"reference_wall_s": round(wall, 3)}
    for path in a.check:
        timed = [run_check(path, a.edition) for _ in range(a.repeat)]
        wall = statistics.median(t[0] for t in timed)
        # Each round as an arbiter pairs it: alone on the machine (one job), not
        # beside another round on the other core.
        slowest = statistics.median(run_check(path, a.edition, jobs=1)[1] for _ in range(a.repeat))
        matched, rounds = timed[-1][2], timed[-1][3]
        players = players_in(path)
        print(f"check {path.name} ({players} players, {rounds} rounds): median wall {wall:.2f}s, "
              f"slowest round {slowest:.2f}s, {matched}/{rounds} rounds match", flush=True)
        if scale:
            print(f"  calibrated {wall * scale():.2f} s, slowest round {slowest * scale():.2f} s; "
                  f"round target {verdict(slowest * scale(), ROUND_TARGET_S, None, None) if 300 <= players <= 400 else 'none'}"
                  f"; check target {verdict(wall * scale(), CHECK_TARGET_S, None, None) if players == 389 else 'none'}",
                  flush=True)
        figures[f"check:{path.name}"] = {"wall_s": round(wall, 3), "slowest_round_s": round(slowest, 3),
                                         "players": players}
    if yard:
        yard.append(calibration(a.calibrate, a.calibrate_on, a.repeat))
        print(f"calibration after the runs: {yard[-1]:.2f} s (the figures above use the first, "
              f"{yard[0]:.2f} s; a large change means the machine's speed moved during the run)", flush=True)
        summary(figures, yard)
    if a.save:
        # The file's own releases, read again: a release's inputs may come from several
        # runs saved to it, whichever file each was compared with.
        kept = releases(a.save)
        kept.setdefault(a.release, {}).update(figures)
        a.save.write_text(json.dumps({"releases": kept}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
