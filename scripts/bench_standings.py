"""Time standings on a big random tournament (a round-by-round generator without a
pairing engine: testing.large), e.g. 5,000 players, 11 rounds, five tie-breaks.

    python scripts/bench_standings.py [--players 5000] [--rounds 11] [--tiebreaks "..."]

Prints the seconds to read the file and to compute the standings (best of three).
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
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        standings(t, tiebreaks=args.tiebreaks)
        best = min(best, time.perf_counter() - start)
    print(f"{args.players} players, {t.rounds_played} rounds, {args.tiebreaks}: "
          f"read {read:.2f} s, standings {best:.2f} s")


if __name__ == "__main__":
    main()
