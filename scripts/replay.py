#!/usr/bin/env python3
"""Replay reference-paired tournaments: pair every round from its history and compare.

    scripts/replay.py CORPUS_DIR_OR_FILES... [--edition E] [--limit N] [--jobs J]
                      [--min-pct P] [--rounds-from R] [--prepared letters|symbols] [--why]

For every file and every round R that the file holds, round R is paired from rounds
1..R-1 (absences entered for R are kept) and compared with the file: the same pairs,
the same colours, the same pairing-allocated bye.  Prints one line per miss and a last
line `E: X/Y rounds exact (P%), ...`; exits 1 when the percentage is below --min-pct.

With --prepared, only the rounds in which someone was left out are replayed, each from
the text a client program writes before the round: rounds 1..R-1 and a block in round
R for each player left out (`0000 - Z/H/F`, or the older `0000 - -/=/+`), read back as
a file and paired as the next round.

With --why, each missed round is checked as `check` does (the file's pairing scored on
the same brackets and tiers) and the miss line names what decides it: the first tier
on which the two differ, or that the brackets themselves differ; a last table counts
the misses by that class.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cpsat_pairing.formats import read_trf  # noqa: E402
from cpsat_pairing.testing.corpus import (  # noqa: E402
    NOTATIONS,
    Replayed,
    deciding,
    replay_file,
    replay_prepared,
)


def _replay_task(task: tuple[str, str, int, str | None, bool]) -> list[Replayed]:
    path, edition, first, prepared, why = task
    if prepared is None:
        found = replay_file(path, edition, first)
    else:
        found = replay_prepared(read_trf(path), edition, prepared, Path(path).name)
    if not why or all(r.exact for r in found):
        return found
    t = read_trf(path)
    return [r if r.exact else dataclasses.replace(r, why=deciding(t, r.round, edition)) for r in found]


def _miss(r: Replayed) -> str:
    why = f" [{r.why}]" if r.why else ""
    return f"MISS {r.file} round {r.round} ({r.seconds:.2f}s){why}: {r.detail}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--edition", default="dutch-2026")
    ap.add_argument("--limit", type=int, default=0, help="only the first N files")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--min-pct", type=float, default=0.0)
    ap.add_argument("--rounds-from", type=int, default=1)
    ap.add_argument("--prepared", choices=sorted(NOTATIONS), help="replay from a client's prepared file")
    ap.add_argument("--why", action="store_true", help="name what decides each miss, and count them by it")
    a = ap.parse_args()
    files: list[str] = []
    for p in a.paths:
        path = Path(p)
        files += sorted(str(f) for f in path.glob("*.trf")) if path.is_dir() else [str(path)]
    if a.limit:
        files = files[: a.limit]
    tasks = [(f, a.edition, a.rounds_from, a.prepared, a.why) for f in files]
    t0 = time.perf_counter()
    results: list[Replayed] = []
    if a.jobs > 1:
        with ProcessPoolExecutor(a.jobs) as pool:
            futures = [pool.submit(_replay_task, task) for task in tasks]
            for done, fut in enumerate(as_completed(futures), start=1):
                res = fut.result()
                results += res
                good = sum(1 for r in results if r.exact)
                print(f"[{done}/{len(tasks)} files] {good}/{len(results)} rounds exact", file=sys.stderr, flush=True)
                for r in res:
                    if not r.exact:
                        print(_miss(r), flush=True)
    else:
        for done, task in enumerate(tasks, start=1):
            res = _replay_task(task)
            results += res
            good = sum(1 for r in results if r.exact)
            print(f"[{done}/{len(tasks)} files] {good}/{len(results)} rounds exact", file=sys.stderr, flush=True)
            for r in res:
                if not r.exact:
                    print(_miss(r), flush=True)
    n = len(results)
    exact = sum(1 for r in results if r.exact)
    pct = 100.0 * exact / n if n else 0.0
    times = [r.seconds for r in results]
    med = statistics.median(times) if times else 0.0
    worst = max(results, key=lambda r: r.seconds) if results else None
    print(
        f"{a.edition}: {exact}/{n} rounds exact ({pct:.2f}%), {len(files)} files, "
        f"median {med:.2f}s/round, max {worst.seconds if worst else 0:.2f}s"
        f"{f' ({worst.file} r{worst.round})' if worst else ''}, wall {time.perf_counter() - t0:.0f}s"
    )
    if a.why:
        classes = Counter(r.why for r in results if not r.exact)
        for why, k in classes.most_common():
            print(f"{k:5d}  {why}")
    return 1 if pct < a.min_pct else 0


if __name__ == "__main__":
    sys.exit(main())
