#!/usr/bin/env python3
"""The endorsement test (FIDE C.02): random tournaments through a pairings checker.

    scripts/endorse.py --count K [--seed S] [--step N] [--players 20-150] [--rounds 5-11]
                       [--jobs J] [--scheduler tcp://HOST:8786|local] [--keep DIR]
                       [--edition E] [--json OUT] [--minutes M]
    scripts/endorse.py --reference ENGINE --count K [--direction both|theirs|ours]
                       [--config FILE] [--ours-count K2] [--profiles standard,stress] ...

Without --reference, the self-test: seeds S..S+K-1 of `cpsat-pairing generate` (same
options and defaults), checked with our `check`.

With --reference ENGINE (a bbpPairings-compatible executable, kept outside the project),
the two directions of the certification:

- theirs: seeds S..S+K-1 of ENGINE's random tournament generator (`--dutch -g [FILE]
  -o OUT -s SEED`: its default random configuration, or --config FILE, such as the
  fields of `scripts/generator-configs/`), each checked with our `check`.  Every
  round that is not the rules' pairing is a discrepancy; each is listed with the
  criterion that decides it.  C.02 allows at most 10 in 50,000
  tournaments, so the figure for 50,000 is extrapolated from the measured rate when
  fewer were run (and says so).  A seed whose generation stops at a round for which
  the generator finds no valid pairing is no tournament: where our engine cannot pair
  that round from the rounds written before it either, it is listed as not finished by
  the generator and not counted; otherwise, as any seed not generated, it counts.
- ours: K2 (default K) seeds of our own `generate`, per profile (standard and stress),
  each checked by ENGINE's checker (`--dutch FILE -c`); every round it flags (a pairing
  it would make otherwise, or "no valid pairing") is counted.

--step N takes every Nth seed (S, S+N, ...): a sample spread over a long range of seeds
(the reference generator's first draws follow the seed closely: with its default
configuration, seeds 1-4,400 all have 5 rounds and later ones up to 15).

Generation and checks run in a local pool of --jobs (ENGINE in subprocesses), our
checks on a Dask cluster with --scheduler.  --minutes M stops the first direction at
the first batch of seeds that ends after M minutes (the figures say how many ran).
Exits 0 when there is no discrepancy in any direction, 1 otherwise.  --keep DIR keeps
the files (default: a temporary directory, removed afterwards unless a discrepancy was
found).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cpsat_pairing import NoValidPairing, PairingError, pair, read_trf  # noqa: E402
from cpsat_pairing.apps import generate as gen  # noqa: E402
from cpsat_pairing.apps.batch import check_files  # noqa: E402
from cpsat_pairing.apps.check import FileCheck, Verdict, counts  # noqa: E402
from cpsat_pairing.interface.views.check import summary_text, to_json  # noqa: E402

CERTIFICATION_COUNT = 50_000  # C.02: tournaments from an existing generator
ALLOWED = 10  # C.02: more discrepancies than this and the program is rejected
REFERENCE_TIMEOUT = 900  # seconds for one call of the reference engine
BATCH = 250  # seeds per batch when a time budget is set


def _fmt(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.1f} s"
    return f"{seconds / 60:.1f} min" if seconds < 7200 else f"{seconds / 3600:.2f} h"


# --- the reference engine ----------------------------------------------------------------


def reference_generate(exe: str, seed: int, out: Path, config: str | None = None) -> str | None:
    """One tournament from ENGINE's generator; None when it was written, else why not."""
    cmd = [exe, "--dutch", "-g", *([config] if config else []), "-o", str(out), "-s", str(seed)]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=REFERENCE_TIMEOUT)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"seed {seed}: {exc}"
    if proc.returncode != 0 or not out.exists():
        return f"seed {seed}: the generator exited {proc.returncode}: {proc.stderr.strip()[:300]}"
    return None


@dataclass
class ReferenceCheck:
    """ENGINE's `-c` verdict on one file: its rounds, those it flags, or its error."""

    file: str
    rounds: int = 0
    flagged: list[int] = field(default_factory=list)  # a different pairing, or "no valid pairing"
    unpairable: list[int] = field(default_factory=list)  # of those, "no valid pairing"
    error: str | None = None


def parse_reference_check(text: str, file: str = "") -> ReferenceCheck:
    """Read `-c` output: a `NAME: Round #N` line per round, followed by a table
    (`Checker pairings ... Tournament pairings`) or `No valid pairing exists for round
    N.` when the round is not the checker's pairing."""
    out = ReferenceCheck(file)
    current = 0
    for line in text.splitlines():
        head, sep, tail = line.rpartition(": Round #")
        if sep and tail.strip().isdigit():
            current = int(tail)
            out.rounds += 1
        elif line.strip().startswith("Checker pairings") and current not in out.flagged:
            out.flagged.append(current)
        elif line.startswith("No valid pairing exists for round"):
            out.unpairable.append(current)
            if current not in out.flagged:
                out.flagged.append(current)
    return out


def reference_check(exe: str, path: str) -> ReferenceCheck:
    try:
        proc = subprocess.run([exe, "--dutch", path, "-c"], capture_output=True, text=True, timeout=REFERENCE_TIMEOUT)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return ReferenceCheck(path, error=str(exc))
    res = parse_reference_check(proc.stdout, path)
    if proc.returncode != 0:
        res.error = f"the checker exited {proc.returncode}: {proc.stderr.strip()[:300]}"
    return res


def _threads(fn: Callable[..., Any], tasks: list[tuple[Any, ...]], jobs: int) -> Iterator[Any]:
    """fn(*task) for each task, `jobs` subprocess calls at a time, in the tasks' order."""
    with ThreadPoolExecutor(max(1, jobs)) as pool:
        yield from pool.map(lambda task: fn(*task), tasks)


# --- tournaments -------------------------------------------------------------------------


@dataclass
class Made:
    paths: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    # Seeds the generator stopped at a round it found no valid pairing for, which our
    # engine cannot pair either: no tournament, and no discrepancy.
    unfinished: list[str] = field(default_factory=list)
    seconds: float = 0.0


# How the reference's generator says that it stopped at a round without a valid pairing.
STOPPED = re.compile(r"No valid pairing exists for round (\d+)")


def stopped_agreed(error: str, path: Path, edition: str) -> str | None:
    """Where the generator stopped at round R for want of a valid pairing and left its
    rounds before R in `path`: whether our engine agrees that round R has none (a
    sentence), else None (the failure counts)."""
    stopped = STOPPED.search(error)
    if stopped is None or not path.exists():
        return None
    rnd = int(stopped.group(1))
    try:
        pair(read_trf(path), rnd, edition)
    except NoValidPairing:
        return f"round {rnd}: no valid pairing by the generator's pairing, none by ours either"
    except PairingError:  # an unreadable partial file is a failure like any other
        pass
    return None


def make_ours(seeds: list[int], cfg: gen.GenConfig, jobs: int, folder: Path) -> Made:
    made = Made()
    t0 = time.perf_counter()
    for seed, text, summ in gen.generate_many(seeds, cfg, jobs):
        if text is None:
            made.failed.append(f"seed {seed}: {summ['error']}")
            continue
        path = folder / gen.file_name(seed)
        path.write_text(text, encoding="utf-8")
        made.paths.append(str(path))
    made.paths.sort()
    made.seconds = time.perf_counter() - t0
    return made


def make_theirs(exe: str, config: str | None, seeds: list[int], jobs: int, folder: Path, edition: str) -> Made:
    made = Made()
    t0 = time.perf_counter()
    tasks = [(exe, seed, folder / gen.file_name(seed), config) for seed in seeds]
    for task, error in zip(tasks, _threads(reference_generate, tasks, jobs)):
        if error is None:
            made.paths.append(str(task[2]))
            continue
        agreed = stopped_agreed(error, task[2], edition)
        if agreed is None:
            made.failed.append(error)
        else:
            made.unfinished.append(f"seed {task[1]}: {agreed}")
    made.seconds = time.perf_counter() - t0
    return made


# --- our check ---------------------------------------------------------------------------


class Checker:
    """Our `check` on a local pool, or on a Dask cluster kept open across batches."""

    def __init__(self, edition: str, jobs: int, scheduler: str | None) -> None:
        self.edition, self.jobs, self.scheduler = edition, jobs, scheduler
        self.client: Any = None
        self.cluster: Any = None
        if scheduler:
            from cpsat_pairing.apps import batch as dist

            self.client, self.cluster = dist.connect(scheduler, workers=jobs)
            for warning in dist.check_workers(self.client):
                print(f"warning: {warning}", file=sys.stderr)

    def __call__(self, paths: list[str]) -> list[FileCheck]:
        if self.client is not None:
            from cpsat_pairing.apps import batch as dist

            return dist.check_files_dask(paths, self.client, self.edition)
        return check_files(paths, self.edition, None, self.jobs)

    def close(self) -> None:
        if self.client is not None:
            self.client.close()
        if self.cluster is not None:
            self.cluster.close()

    @property
    def where(self) -> str:
        return f"Dask {self.scheduler}" if self.scheduler else f"a pool of {self.jobs}"


@dataclass
class Tally:
    """What our check found over the batches of one direction."""

    seeds: list[int] = field(default_factory=list)
    reports: list[FileCheck] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    unfinished: list[str] = field(default_factory=list)
    t_make: float = 0.0
    t_check: float = 0.0
    wall: float = 0.0

    def discrepancies(self) -> list[tuple[str, int | None, str, str]]:
        """(file, round or None for the whole file, verdict, the deciding criterion)."""
        out: list[tuple[str, int | None, str, str]] = []
        for rep in self.reports:
            if rep.error:
                out.append((rep.file, None, "unreadable", rep.error))
            for r in rep.rounds:
                if r.verdict is not Verdict.MATCH:
                    out.append((rep.file, r.round, r.verdict.value, summary_text(r)))
        return out


def run_check_direction(make: Callable[[list[int], Path], Made], seeds: list[int], folder: Path, checker: Checker,
                        minutes: float | None, label: str) -> Tally:
    """Make and check the tournaments of `seeds` in batches (one batch without a time
    budget), printing each discrepancy as soon as it is found."""
    tally = Tally()
    t0 = time.perf_counter()
    size = BATCH if minutes else len(seeds)
    for start in range(0, len(seeds), size):
        batch = seeds[start:start + size]
        made = make(batch, folder)
        t1 = time.perf_counter()
        reports = checker(made.paths)
        tally.t_check += time.perf_counter() - t1
        tally.t_make += made.seconds
        tally.seeds += batch
        tally.failed += made.failed
        tally.unfinished += made.unfinished
        tally.reports += reports
        for message in made.failed:
            print(f"  not generated: {message}", flush=True)
        for message in made.unfinished:
            print(f"  not finished by the generator: {message}", flush=True)
        for file, rnd, verdict, why in Tally(reports=reports).discrepancies():
            print(f"  DISCREPANCY {file}" + (f" round {rnd}" if rnd else "") + f": {verdict}: {why}", flush=True)
        elapsed = time.perf_counter() - t0
        print(f"  {label}: seeds {tally.seeds[0]}-{tally.seeds[-1]} done in {_fmt(elapsed)} "
              f"({len(tally.seeds) / elapsed:.2f} tournaments/s)", flush=True)
        if minutes and elapsed > minutes * 60:
            break
    tally.wall = time.perf_counter() - t0
    return tally


def check_figures(tally: Tally, where: str) -> tuple[list[str], int]:
    """The certification's figures for a direction checked by us, and its discrepancies."""
    c = counts(tally.reports)
    found = tally.discrepancies()
    bad_rounds = sum(1 for d in found if d[1] is not None)
    bad_files = len({d[0] for d in found})
    total = bad_rounds + c["unreadable files"] + len(tally.failed)
    n = len(tally.seeds)
    per = tally.wall / max(1, n)
    step = tally.seeds[1] - tally.seeds[0] if n > 1 else 1
    lines = [
        f"tournaments: {n} (seeds {tally.seeds[0]}-{tally.seeds[-1]}" + (f", step {step}" if step > 1 else "")
        + f"), {c['files']} checked, {c['rounds']} rounds",
        f"discrepancies: {bad_rounds} rounds in {bad_files} tournaments; {c['unreadable files']} unreadable, "
        f"{len(tally.failed)} not generated",
        f"wall time: {_fmt(tally.wall)} (generation {_fmt(tally.t_make)}, check {_fmt(tally.t_check)} on {where}); "
        f"{n / tally.wall:.2f} tournaments/s, {per:.2f} s each, {c['rounds'] / tally.wall:.2f} rounds/s",
    ]
    if tally.unfinished:
        lines.insert(2, f"not finished by the generator: {len(tally.unfinished)} seeds, each stopped at a round "
                        "without a valid pairing that ours cannot pair either (no tournament, no discrepancy)")
    if n < CERTIFICATION_COUNT:
        lines.append(f"{CERTIFICATION_COUNT:,} tournaments at this rate: {_fmt(per * CERTIFICATION_COUNT)} "
                     f"(extrapolated from {n}, not run)")
    lines.append(f"C.02 allows at most {ALLOWED} in {CERTIFICATION_COUNT:,}: "
                 + ("none found" if total == 0 else f"{total} found in {n}"))
    for file, rnd, verdict, why in found:
        lines.append(f"  {Path(file).name}" + (f" round {rnd}" if rnd else "") + f": {verdict}: {why}")
    return lines, total


# --- their check -------------------------------------------------------------------------


def reference_figures(exe: str, profile: str, made: Made, jobs: int) -> tuple[list[str], int]:
    """ENGINE's `-c` on our tournaments of one profile: its figures and flagged count."""
    t0 = time.perf_counter()
    results = list(_threads(reference_check, [(exe, p) for p in made.paths], jobs))
    seconds = time.perf_counter() - t0
    flagged = [(r.file, rnd, rnd in r.unpairable) for r in results for rnd in r.flagged]
    errors = [r for r in results if r.error]
    lines = [
        f"{profile}: {len(made.paths)} tournaments, {sum(r.rounds for r in results)} rounds: "
        f"{len(flagged)} flagged rounds in {len({f for f, _, _ in flagged})} tournaments, {len(errors)} checker errors, "
        f"{len(made.failed)} not generated; generated in {_fmt(made.seconds)}, checked in {_fmt(seconds)}",
    ]
    for file, rnd, unpairable in flagged:
        lines.append(f"  {Path(file).name} round {rnd}: " + ("no valid pairing, says the checker" if unpairable
                                                            else "the checker pairs it otherwise"))
    lines += [f"  {Path(r.file).name}: {r.error}" for r in errors]
    lines += [f"  not generated: {m}" for m in made.failed]
    return lines, len(flagged) + len(errors) + len(made.failed)


# --- the command line ----------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", "-k", type=int, required=True)
    ap.add_argument("--seed", "-s", type=int, default=1)
    ap.add_argument("--step", type=int, default=1, help="every Nth seed from --seed (default 1: consecutive)")
    ap.add_argument("--players", default="20-150", help="our generator's field sizes (standard profile)")
    ap.add_argument("--rounds", default="5-11", help="our generator's rounds (standard profile)")
    ap.add_argument("--edition", default="dutch-2026")
    ap.add_argument("--format", default="trf16", choices=("trf16", "trf26"))
    ap.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--scheduler", help="check on this Dask cluster (tcp://HOST:8786, or 'local')")
    ap.add_argument("--keep", type=Path, help="write the tournaments here and keep them")
    ap.add_argument("--json", type=Path, help="write our check's JSON report here")
    ap.add_argument("--minutes", type=float, help="stop the checked direction after the batch that ends past this")
    ap.add_argument("--reference", metavar="ENGINE", help="a bbpPairings-compatible executable: both directions")
    ap.add_argument("--direction", choices=("both", "theirs", "ours"), default="both",
                    help="with --reference: their tournaments through our check, ours through theirs, or both")
    ap.add_argument("--config", help="with --reference: the generator's configuration file (default: its own)")
    ap.add_argument("--ours-count", type=int, help="with --reference: our tournaments per profile (default --count)")
    ap.add_argument("--profiles", default="standard,stress", help="with --reference: our generator's profiles")
    a = ap.parse_args(argv)
    if a.count < 1 or a.jobs < 1 or a.step < 1 or a.seed < 0 or (a.ours_count is not None and a.ours_count < 1):
        ap.error("--count, --ours-count, --step and --jobs must be at least 1, --seed at least 0")
    profiles = [p.strip() for p in a.profiles.split(",") if p.strip()]
    try:
        cfg = gen.GenConfig(players=gen.parse_range(a.players, "--players"),
                            rounds=gen.parse_range(a.rounds, "--rounds"), edition=a.edition, format=a.format)
        configs = {p: gen.GenConfig(profile=p, players=cfg.players, rounds=cfg.rounds, edition=a.edition,
                                    format=a.format) for p in profiles}
    except ValueError as exc:
        ap.error(str(exc))

    folder = a.keep or Path(tempfile.mkdtemp(prefix="endorse-"))
    folder.mkdir(parents=True, exist_ok=True)
    seeds = list(range(a.seed, a.seed + a.count * a.step, a.step))
    checked = not a.reference or a.direction in ("both", "theirs")
    report: list[str] = []
    problems = 0
    if checked:
        if a.reference:
            where = folder / "theirs"
            label = f"their generator ({a.config or 'default configuration'}), our check"
            make: Callable[[list[int], Path], Made] = lambda batch, out: make_theirs(  # noqa: E731
                a.reference, a.config, batch, a.jobs, out, a.edition)
        else:
            where = folder
            label = f"our generator (players {a.players}, rounds {a.rounds}), our check"
            make = lambda batch, out: make_ours(batch, cfg, a.jobs, out)  # noqa: E731
        where.mkdir(parents=True, exist_ok=True)
        print(f"{label}: seeds {seeds[0]}-{seeds[-1]}, {a.edition}, {a.jobs} jobs, in {where}", flush=True)
        checker = Checker(a.edition, a.jobs, a.scheduler)
        try:
            tally = run_check_direction(make, seeds, where, checker, a.minutes, "checked")
        finally:
            checker.close()
        lines, found = check_figures(tally, checker.where)
        report += [f"({'a' if a.reference else 'self'}) {label}", *(f"    {x}" for x in lines)]
        problems += found
        if a.json:
            a.json.write_text(json.dumps(to_json(tally.reports, a.edition), indent=1), encoding="utf-8")
    if a.reference and a.direction in ("both", "ours"):
        count = a.ours_count or a.count
        ours = list(range(a.seed, a.seed + count * a.step, a.step))
        report.append(f"(b) our generator, their check ({a.reference} -c): seeds {ours[0]}-{ours[-1]} per profile")
        for profile in profiles:
            where = folder / "ours" / profile
            where.mkdir(parents=True, exist_ok=True)
            print(f"our generator ({profile}), their check: {count} tournaments in {where}", flush=True)
            lines, found = reference_figures(a.reference, profile, make_ours(ours, configs[profile], a.jobs, where),
                                             a.jobs)
            report += [f"    {x}" for x in lines]
            problems += found
    print(f"\nC.02 certification figures ({a.edition})")
    print("\n".join(report))
    if not a.keep and problems == 0:
        shutil.rmtree(folder, ignore_errors=True)
    elif not a.keep:
        print(f"files kept in {folder}")
    return 0 if problems == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
