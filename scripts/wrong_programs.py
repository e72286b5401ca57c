#!/usr/bin/env python3
"""Judge the mistakes real programs make: `check` on wrong round-pairings of any corpus.

    scripts/wrong_programs.py CORPUS_DIR_OR_FILES... [--edition E] [--limit N]
                              [--rounds K] [--seed S] [--kinds KIND,...] [--max-ratio R]

For each file, K rounds drawn at random (seeded per file name); in each, every mistake
of cpsat_pairing/testing/wrong.py (far pairing, by rating, no acceleration, forbidden
pairs ignored, PAB again, colours swapped, other edition, no previous results) is made
from the round's history, written into the file as its round and checked, as is the
rules' own pairing of the round.  Prints one line per judged round and at the end the
verdict counts per mistake, the errors, the wrong rounds called "match" (each is a
defect of the checker), and the time of checking a wrong round over the time of
checking the right one (median and worst).  Exits 1 when a round errs, a wrong round
is called a match, or the worst ratio exceeds --max-ratio (default: no limit).
Keep runs small (each judged round re-pairs it twice or more): nice -n 19.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import zlib
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cpsat_pairing.apps.check import Verdict  # noqa: E402
from cpsat_pairing.domain.state import round_exists  # noqa: E402
from cpsat_pairing.formats import read_trf  # noqa: E402
from cpsat_pairing.interface.views.check import summary_text  # noqa: E402
from cpsat_pairing.testing.wrong import KINDS, Judged, judge_round  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--edition", default="dutch-2026")
    ap.add_argument("--limit", type=int, default=0, help="only the first N files")
    ap.add_argument("--rounds", type=int, default=1, help="rounds judged per file")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--kinds", default=",".join(KINDS), help="comma-separated mistakes (default: all)")
    ap.add_argument("--max-ratio", type=float, default=0.0, help="fail above this wrong/right time ratio")
    a = ap.parse_args()
    kinds = tuple(k.strip() for k in a.kinds.split(",") if k.strip())
    unknown = [k for k in kinds if k not in KINDS]
    if unknown:
        ap.error(f"unknown mistakes {unknown}; known: {', '.join(KINDS)}")
    files: list[Path] = []
    for p in map(Path, a.paths):
        files += sorted(p.glob("*.trf")) if p.is_dir() else [p]
    if a.limit:
        files = files[: a.limit]
    judged: list[Judged] = []
    for path in files:
        t = read_trf(path)
        rounds = [r for r in range(1, t.rounds_played + 1) if round_exists(t, r)]
        rng = random.Random(a.seed * 1_000_003 + zlib.crc32(path.name.encode()))
        for rnd in sorted(rng.sample(rounds, min(a.rounds, len(rounds)))):
            try:
                found = judge_round(t, rnd, a.edition, kinds, summary_text)
            except Exception as exc:  # the rules' own pairing failed: report, go on
                print(f"ERROR  {path.name} round {rnd}: the rules' pairing: {type(exc).__name__}: {exc}", flush=True)
                judged.append(Judged(str(path), rnd, "rules' pairing", Verdict.ERROR, str(exc), 0.0, 0.0))
                continue
            for j in found:
                mark = "ERROR " if j.verdict is Verdict.ERROR else "MATCH!" if j.verdict is Verdict.MATCH else "ok    "
                print(f"{mark} {path.name} round {rnd} {j.kind}: {j.verdict.value}: {j.summary[:120]} "
                      f"({j.seconds:.2f} s, right {j.right_seconds:.2f} s)", flush=True)
            judged += found
    return report(judged, len(files), a.edition, a.max_ratio)


def report(judged: list[Judged], files: int, edition: str, max_ratio: float) -> int:
    by_kind: dict[str, Counter[str]] = {}
    for j in judged:
        by_kind.setdefault(j.kind, Counter())[j.verdict.value] += 1
    for kind, c in by_kind.items():
        print(f"{kind}: " + ", ".join(f"{n} {v}" for v, n in c.most_common()))
    errors = [j for j in judged if j.verdict is Verdict.ERROR]
    matched = [j for j in judged if j.verdict is Verdict.MATCH]
    timed = [j for j in judged if j.verdict is not Verdict.ERROR]
    ratios = [j.ratio for j in timed]
    worst = max(timed, key=lambda j: j.ratio, default=None)
    median = statistics.median(ratios) if ratios else 0.0
    where = f" ({Path(worst.file).name} round {worst.round}, {worst.kind})" if worst else ""
    print(f"{edition}: {len(judged)} wrong rounds judged in {files} files; {len(errors)} errors; "
          f"{len(matched)} wrong rounds called match; time wrong/right median {median:.2f}, "
          f"worst {max(ratios, default=0.0):.2f}{where}")
    too_slow = max_ratio > 0 and any(r > max_ratio for r in ratios)
    return 1 if errors or matched or too_slow else 0


if __name__ == "__main__":
    sys.exit(main())
