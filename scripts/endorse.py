#!/usr/bin/env python3
"""The endorsement self-test: generate K random tournaments, check them all.

    scripts/endorse.py --count K [--seed S] [--players 20-150] [--rounds 5-11]
                       [--jobs J] [--scheduler tcp://HOST:8786|local] [--keep DIR]
                       [--edition E] [--json OUT]

Tournaments are seeds S..S+K-1 of `cpsat-pairing generate` (same options and defaults),
generated in a local process pool; the checks run in the pool too, or on a Dask cluster
with --scheduler.  Prints the discrepancy count (rounds that are not the rules'
pairing, plus files that could not be generated or checked) and the times; exits 0
when there is none, 1 otherwise.  --keep DIR keeps the files (default: a temporary
directory, removed afterwards, unless a discrepancy was found).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cpsat_pairing.apps import generate as gen
from cpsat_pairing.apps.batch import check_files  # noqa: E402
from cpsat_pairing.apps.check import Verdict, counts  # noqa: E402
from cpsat_pairing.interface.views.check import summary_text, to_json  # noqa: E402


def _fmt(seconds: float) -> str:
    return f"{seconds:.1f} s" if seconds < 120 else f"{seconds / 60:.1f} min"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", "-k", type=int, required=True)
    ap.add_argument("--seed", "-s", type=int, default=1)
    ap.add_argument("--players", default="20-150")
    ap.add_argument("--rounds", default="5-11")
    ap.add_argument("--edition", default="dutch-2026")
    ap.add_argument("--format", default="trf16", choices=("trf16", "trf26"))
    ap.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--scheduler", help="check on this Dask cluster (tcp://HOST:8786, or 'local')")
    ap.add_argument("--keep", type=Path, help="write the tournaments here and keep them")
    ap.add_argument("--json", type=Path, help="write the check's JSON report here")
    a = ap.parse_args()
    if a.count < 1 or a.jobs < 1 or a.seed < 0:
        ap.error("--count and --jobs must be at least 1, --seed at least 0")
    try:
        cfg = gen.GenConfig(players=gen.parse_range(a.players, "--players"),
                            rounds=gen.parse_range(a.rounds, "--rounds"), edition=a.edition, format=a.format)
    except ValueError as exc:
        ap.error(str(exc))

    folder = a.keep or Path(tempfile.mkdtemp(prefix="endorse-"))
    folder.mkdir(parents=True, exist_ok=True)
    seeds = list(range(a.seed, a.seed + a.count))
    print(f"generating {a.count} tournaments (seeds {seeds[0]}-{seeds[-1]}, players {a.players}, "
          f"rounds {a.rounds}, {a.edition}) with {a.jobs} jobs in {folder}", flush=True)
    t0 = time.perf_counter()
    failed: list[str] = []
    paths: list[str] = []
    rounds = players = 0
    done = 0
    for seed, text, summ in gen.generate_many(seeds, cfg, a.jobs):
        done += 1
        if text is None:
            failed.append(summ["error"])
            continue
        path = folder / gen.file_name(seed)
        path.write_text(text, encoding="utf-8")
        paths.append(str(path))
        rounds += summ["rounds"]
        players += summ["players"]
        if done % max(1, a.count // 10) == 0:
            print(f"  generated {done}/{a.count} ({_fmt(time.perf_counter() - t0)})", flush=True)
    t_gen = time.perf_counter() - t0
    paths.sort()
    print(f"generated {len(paths)} tournaments, {rounds} rounds, {players} players in {_fmt(t_gen)}", flush=True)

    t1 = time.perf_counter()
    if a.scheduler:
        from cpsat_pairing.apps import batch as dist

        client, cluster = dist.connect(a.scheduler, workers=a.jobs)
        try:
            for warning in dist.check_workers(client):
                print(f"warning: {warning}", file=sys.stderr)
            t1 = time.perf_counter()  # a cluster that is already up: time the checks only
            reports = dist.check_files_dask(paths, client, a.edition)
        finally:
            client.close()
            if cluster is not None:
                cluster.close()
    else:
        reports = check_files(paths, a.edition, None, a.jobs)
    t_check = time.perf_counter() - t1
    c = counts(reports)
    bad_rounds = c["rounds"] - c[Verdict.MATCH.value]
    discrepancies = bad_rounds + c["unreadable files"] + len(failed)
    for rep in reports:
        if rep.error:
            print(f"  {rep.file}: {rep.error}")
        for r in rep.rounds:
            if r.verdict is not Verdict.MATCH:
                print(f"  {rep.file} round {r.round}: {r.verdict.value}: {summary_text(r)}")
    for message in failed:
        print(f"  generation failed: {message}")
    if a.json:
        a.json.write_text(json.dumps(to_json(reports, a.edition), indent=1), encoding="utf-8")
    where = f"Dask {a.scheduler}" if a.scheduler else f"a pool of {a.jobs}"
    print(f"checked {c['files']} files, {c['rounds']} rounds on {where} in {_fmt(t_check)} "
          f"({c['files'] / t_check:.2f} files/s)")
    total = t_gen + t_check
    print(f"discrepancies: {discrepancies} ({bad_rounds} rounds, {c['unreadable files']} unreadable files, "
          f"{len(failed)} not generated); total {_fmt(total)}, {total / max(1, len(paths)):.2f} s per tournament")
    if not a.keep and discrepancies == 0:
        shutil.rmtree(folder, ignore_errors=True)
    elif not a.keep:
        print(f"files kept in {folder}")
    return 0 if discrepancies == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
