"""Time standings on a big random tournament (a round-by-round generator without a
pairing engine: testing.large), e.g. 5,000 players, 11 rounds, five tie-breaks.

    python scripts/bench_standings.py [--players 5000] [--rounds 11] [--tiebreaks "..."]

Prints the seconds to read the file and to compute the standings (best of three), wall
clock and CPU time of this process (on a shared machine the CPU time is the measure).
"""

from __future__ import annotations

import argparse
import time

from cpsat_pairing.apps.standings import standings
from cpsat_pairing.formats import parse_trf
from cpsat_pairing.testing.large import build


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, default=5000)
    ap.add_argument("--rounds", type=int, default=11)
    ap.add_argument("--tiebreaks", default="BH/C1 BH SB DE WIN")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    text = build(args.players, args.rounds, args.seed)
    start = time.perf_counter()
    t = parse_trf(text)
    read = time.perf_counter() - start
    best = cpu = float("inf")
    for _ in range(3):
        start, start_cpu = time.perf_counter(), time.process_time()
        standings(t, tiebreaks=args.tiebreaks)
        best = min(best, time.perf_counter() - start)
        cpu = min(cpu, time.process_time() - start_cpu)
    print(f"{args.players} players, {t.rounds_played} rounds, {args.tiebreaks}: "
          f"read {read:.2f} s, standings {best:.2f} s wall, {cpu:.2f} s CPU")


if __name__ == "__main__":
    main()
