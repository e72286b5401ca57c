#!/usr/bin/env python3
"""Measure how well `check` detects a tampered round.

    scripts/mutate.py CORPUS_DIR_OR_FILES... [--limit N] [--seed S] [--edition E] [--keep DIR]

For each file, three mutations of one round each (round and players drawn at random,
seeded per file name): two opponents swapped between two boards, the colours of one
board swapped, the PAB moved to another player (who gives his board to the former PAB
holder).  Each mutated file is checked up to the mutated round.  Prints one line per
missed mutation or false alarm, then the detection rate (mutated round not `match`)
and the false alarms (a round before the mutated one flagged).  Keep runs small: each
mutation re-pairs every round up to the mutated one.
"""

from __future__ import annotations

import argparse
import random
import sys
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cpsat_pairing.apps.check import Verdict, check_tournament  # noqa: E402
from cpsat_pairing.domain.state import round_exists  # noqa: E402
from cpsat_pairing.formats import read_trf, write_trf  # noqa: E402
from cpsat_pairing.interface.views.check import summary_text  # noqa: E402
from cpsat_pairing.testing.mutate import mutations  # noqa: E402

def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--limit", type=int, default=0, help="only the first N files")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--edition", default="dutch-2026")
    ap.add_argument("--keep", type=Path, help="write the mutated files here")
    a = ap.parse_args()
    files: list[Path] = []
    for p in map(Path, a.paths):
        files += sorted(p.glob("*.trf")) if p.is_dir() else [p]
    if a.limit:
        files = files[: a.limit]
    tried = detected = alarms = 0
    by_kind: dict[str, list[int]] = {}
    for path in files:
        t = read_trf(path)
        last = max((len(p.rounds) for p in t.players), default=0)
        rounds = [r for r in range(1, last + 1) if round_exists(t, r)]
        rng = random.Random(a.seed * 1_000_003 + zlib.crc32(path.name.encode()))
        for kind, rnd, mutated in mutations(t, rng, rounds):
            if a.keep:
                a.keep.mkdir(parents=True, exist_ok=True)
                (a.keep / f"{path.stem}-{kind.replace(' ', '-')}-r{rnd}.trf").write_text(write_trf(mutated, t.dialect))
            report = check_tournament(mutated, a.edition, f"1-{rnd}")
            flagged = {r.round: r for r in report if r.verdict is not Verdict.MATCH}
            tried += 1
            hit = rnd in flagged
            detected += hit
            by_kind.setdefault(kind, [0, 0])[0] += hit
            by_kind[kind][1] += 1
            if not hit:
                print(f"MISSED {path.name} {kind} round {rnd}", flush=True)
            else:
                r = flagged[rnd]
                print(f"ok     {path.name} {kind} round {rnd}: {r.verdict.value}: {summary_text(r)}", flush=True)
            for r in sorted(flagged):
                if r < rnd:
                    alarms += 1
                    print(f"FALSE ALARM {path.name} {kind}: round {r} before mutated round {rnd}: "
                          f"{flagged[r].verdict.value}", flush=True)
    rate = 100.0 * detected / tried if tried else 0.0
    kinds = ", ".join(f"{k} {h}/{n}" for k, (h, n) in by_kind.items())
    print(f"detected {detected}/{tried} mutations ({rate:.1f}%): {kinds}; {alarms} false alarms; {len(files)} files")
    return 0 if detected == tried and alarms == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
