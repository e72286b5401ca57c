#!/usr/bin/env python3
"""The stress self-test: many tournaments of the stress profile, every round audited.

    scripts/stress.py --count K [--seed S] [--edition E ...] [--jobs J] [--keep DIR]
                      [--format trf16|trf26]

For each edition (default: all three), seeds S..S+K-1 of `generate --profile stress`
are generated (tiny fields played to the end, forfeits, bye bursts, late entries
together, withdrawals, dense forbidden pairs, Baku acceleration) and every round is
audited (cpsat_pairing/stress.py): paired rounds legal and complete, every "no valid
pairing" confirmed by an independent exhaustive search, no other failure.  Prints one
line per problem and a summary per edition; exits 1 if there was any problem.  --keep
DIR writes every tournament there (DIR/EDITION/tNNNNNN.trf) for other checkers; the
input of a failed round is always written to DIR (default ./stress-failures).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cpsat_pairing.apps import generate as gen
from cpsat_pairing.dutch.edition import available  # noqa: E402
from cpsat_pairing.apps.stress import audit_task  # noqa: E402


def _audits(tasks: list[tuple[int, str, str]], jobs: int):
    if jobs <= 1:
        for task in tasks:
            yield audit_task(task)
        return
    with ProcessPoolExecutor(jobs) as pool:
        futures = [pool.submit(audit_task, task) for task in tasks]
        for fut in as_completed(futures):
            yield fut.result()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", "-k", type=int, required=True)
    ap.add_argument("--seed", "-s", type=int, default=1)
    ap.add_argument("--edition", action="append", choices=available(), help="repeatable; default: all")
    ap.add_argument("--format", default="trf16", choices=("trf16", "trf26"))
    ap.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--keep", type=Path, help="write every generated tournament here")
    ap.add_argument("--failures", type=Path, default=Path("stress-failures"))
    a = ap.parse_args()
    bad = 0
    for edition in a.edition or available():
        tasks = [(s, edition, a.format) for s in range(a.seed, a.seed + a.count)]
        t0 = time.perf_counter()
        totals = dict(tournaments=0, players=0, rounds=0, unpairable=0, confirmed=0, problems=0)
        for done, au in enumerate(_audits(tasks, a.jobs), start=1):
            totals["tournaments"] += 1
            totals["players"] += au.players
            totals["rounds"] += au.rounds
            totals["unpairable"] += au.unpairable
            totals["confirmed"] += au.confirmed
            for line in au.errors + au.illegal + au.unconfirmed:
                print(f"  {edition}: {line}", flush=True)
                totals["problems"] += 1
            if au.failed_input is not None:
                a.failures.mkdir(parents=True, exist_ok=True)
                (a.failures / f"{edition}-{gen.file_name(au.seed)}").write_text(au.failed_input, encoding="utf-8")
            if a.keep is not None and au.trf is not None:
                folder = a.keep / edition
                folder.mkdir(parents=True, exist_ok=True)
                (folder / gen.file_name(au.seed)).write_text(au.trf, encoding="utf-8")
            if done % max(1, a.count // 10) == 0:
                print(f"  [{edition}] {done}/{a.count} tournaments, {totals['rounds']} rounds, "
                      f"{time.perf_counter() - t0:.0f} s", flush=True)
        bad += totals["problems"]
        print(f"{edition}: {totals['tournaments']} stress tournaments (seeds {a.seed}-{a.seed + a.count - 1}), "
              f"{totals['players']} players, {totals['rounds']} rounds paired, "
              f"{totals['unpairable']} rounds without a valid pairing ({totals['confirmed']} confirmed "
              f"independently), {totals['problems']} problems, {time.perf_counter() - t0:.0f} s", flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
