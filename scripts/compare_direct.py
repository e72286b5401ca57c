#!/usr/bin/env python3
"""2026 brackets paired by their candidates against the model alone, on whole files.

    scripts/compare_direct.py GLOB [--count N] [--mode check|pair] [--limit 48]

Every round of each file is paired from its history twice in this process: with
`direct_brackets` at 0 (every bracket on its models) and at `--limit`; in "check" mode
from the file's own pairing of the round, as `check` pairs it.  Prints the CPU seconds
of each and the files whose pairings (boards, PAB, every bracket's tiers) differ; exit
1 if any does.  The same
comparison on samples is in tests/test_direct.py.
"""

from __future__ import annotations

import argparse
import dataclasses
import glob
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cpsat_pairing import SolverSettings, pair, read_trf  # noqa: E402
from cpsat_pairing.apps.check import file_round  # noqa: E402
from cpsat_pairing.domain.state import round_exists  # noqa: E402
from cpsat_pairing.errors import PairingError  # noqa: E402
from cpsat_pairing.records import STATS  # noqa: E402


def run(paths: list[str], mode: str, limit: int) -> tuple[list[str], float]:
    """Each file's rounds paired as text (boards, PAB, every bracket's tiers), with
    `direct_brackets` = `limit`; in "check" mode from the file's own pairing of each
    round, as `check` pairs it."""
    chosen = dataclasses.replace(SolverSettings(), direct_brackets=limit)
    out: list[str] = []
    start = time.process_time()
    for path in paths:
        t = read_trf(path)
        rounds = []
        for rnd in range(1, t.rounds_played + 1):
            if not round_exists(t, rnd):
                continue
            hint = sorted(file_round(t, rnd).pairs) if mode == "check" else None
            try:
                rounds.append(repr(pair(t, rnd, "dutch-2026", chosen, hint=hint)))
            except PairingError as exc:
                rounds.append(f"{type(exc).__name__}: {exc}")
        out.append("\n".join(rounds))
    return out, time.process_time() - start


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pattern", help="a glob of TRF files, e.g. 'corpus/dutch-2026/dev/*.trf'")
    ap.add_argument("--count", type=int, default=None)
    ap.add_argument("--mode", choices=("check", "pair"), default="check")
    ap.add_argument("--limit", type=int, default=SolverSettings().direct_brackets)
    a = ap.parse_args()
    paths = sorted(glob.glob(a.pattern))[: a.count]
    modelled, model_seconds = run(paths, a.mode, 0)
    before = STATS["direct"]
    direct, direct_seconds = run(paths, a.mode, a.limit)
    differ = [p for p, x, y in zip(paths, modelled, direct) if x != y]
    print(f"{len(paths)} files, {a.mode}: the models alone {model_seconds:.2f} s CPU, "
          f"with direct brackets of up to {a.limit} players {direct_seconds:.2f} s "
          f"({int(STATS['direct'] - before)} brackets paired directly)")
    print(f"differ: {len(differ)}" + "".join(f"\n  {p}" for p in differ))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
