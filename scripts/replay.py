#!/usr/bin/env python3
"""Replay reference-paired tournaments: pair every round from its history and compare.

    scripts/replay.py CORPUS_DIR_OR_FILES... [--edition E] [--limit N] [--jobs J]
                      [--min-pct P] [--rounds-from R]

For every file and every round R that the file holds, round R is paired from rounds
1..R-1 (absences entered for R are kept) and compared with the file: the same pairs,
the same colours, the same pairing-allocated bye.  Prints one line per miss and a last
line `E: X/Y rounds exact (P%), ...`; exits 1 when the percentage is below --min-pct.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cpsat_pairing.apps.check import file_round, with_rounds_in_file  # noqa: E402
from cpsat_pairing.dutch.rounds import NoValidPairing, pair  # noqa: E402
from cpsat_pairing.domain.state import round_exists  # noqa: E402
from cpsat_pairing.formats import read_trf# noqa: E402
from cpsat_pairing.domain.tournament import Tournament  # noqa: E402


def file_pairing(t: Tournament, rnd: int) -> tuple[set[tuple[int, int]], int | None]:
    """The pairs (white, black) and the PAB recorded in the file for round `rnd`."""
    fr = file_round(t, rnd)
    return set(fr.pairs), fr.bye


def replay_file(args: tuple[str, str, int]) -> list[tuple[str, int, bool, float, str]]:
    path, edition, first = args
    t = read_trf(path)
    if t.total_rounds is None:
        # Files without XXR (JaVaFo-made): the number of rounds is the number played.
        t = dataclasses.replace(t, total_rounds=t.rounds_played)
    out = []
    last = max((len(p.rounds) for p in t.players), default=0)
    t = with_rounds_in_file(t, last)
    first_coloured = next(
        (r for r in range(1, last + 1) if any((e := p.entry(r)) is not None and e.colour is not None for p in t.players)),
        0,
    )
    for rnd in range(max(1, first), last + 1):
        if not round_exists(t, rnd):
            continue
        expected, exp_bye = file_pairing(t, rnd)
        t0 = time.perf_counter()
        try:
            got = pair(t, rnd, edition)
            pairs = set(got.as_pairs())
            # A colourless pairing in the file compares by ids only; so does every pair
            # of the first round when the file does not give the initial colour (the
            # reference engine drew it: it is not in the history).
            fr = file_round(t, rnd)
            loose = fr.colourless if (t.initial_colour is not None or rnd > first_coloured) else None
            pairs = {
                (q, p) if (q, p) in expected and (loose is None or frozenset((p, q)) in loose) else (p, q)
                for p, q in pairs
            }
            ok = pairs == expected and got.bye == exp_bye
            detail = ""
            if not ok:
                detail = (
                    f"bye {got.bye} vs {exp_bye}; ours-only {sorted(pairs - expected)}; "
                    f"file-only {sorted(expected - pairs)}"
                )
        except NoValidPairing as exc:
            ok, detail = False, f"no valid pairing: {exc}"
        except Exception as exc:  # a replay must report, not stop
            ok, detail = False, f"error: {type(exc).__name__}: {exc}"
        out.append((Path(path).name, rnd, ok, time.perf_counter() - t0, detail))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--edition", default="dutch-2026")
    ap.add_argument("--limit", type=int, default=0, help="only the first N files")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--min-pct", type=float, default=0.0)
    ap.add_argument("--rounds-from", type=int, default=1)
    a = ap.parse_args()
    files: list[str] = []
    for p in a.paths:
        path = Path(p)
        files += sorted(str(f) for f in path.glob("*.trf")) if path.is_dir() else [str(path)]
    if a.limit:
        files = files[: a.limit]
    tasks = [(f, a.edition, a.rounds_from) for f in files]
    t0 = time.perf_counter()
    results: list[tuple[str, int, bool, float, str]] = []
    if a.jobs > 1:
        with ProcessPoolExecutor(a.jobs) as pool:
            futures = [pool.submit(replay_file, task) for task in tasks]
            for done, fut in enumerate(as_completed(futures), start=1):
                res = fut.result()
                results += res
                good = sum(1 for r in results if r[2])
                print(f"[{done}/{len(tasks)} files] {good}/{len(results)} rounds exact", file=sys.stderr, flush=True)
                for name, rnd, ok, secs, detail in res:
                    if not ok:
                        print(f"MISS {name} round {rnd} ({secs:.2f}s): {detail}", flush=True)
    else:
        for done, task in enumerate(tasks, start=1):
            res = replay_file(task)
            results += res
            good = sum(1 for r in results if r[2])
            print(f"[{done}/{len(tasks)} files] {good}/{len(results)} rounds exact", file=sys.stderr, flush=True)
            for name, rnd, ok, secs, detail in res:
                if not ok:
                    print(f"MISS {name} round {rnd} ({secs:.2f}s): {detail}", flush=True)
    n = len(results)
    exact = sum(1 for r in results if r[2])
    pct = 100.0 * exact / n if n else 0.0
    times = [r[3] for r in results]
    med = statistics.median(times) if times else 0.0
    worst = max(results, key=lambda r: r[3]) if results else None
    print(
        f"{a.edition}: {exact}/{n} rounds exact ({pct:.2f}%), {len(files)} files, "
        f"median {med:.2f}s/round, max {worst[3] if worst else 0:.2f}s"
        f"{f' ({worst[0]} r{worst[1]})' if worst else ''}, wall {time.perf_counter() - t0:.0f}s"
    )
    return 1 if pct < a.min_pct else 0


if __name__ == "__main__":
    sys.exit(main())
