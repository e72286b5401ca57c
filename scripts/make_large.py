#!/usr/bin/env python3
"""Write a big tournament with a random but legal history, to benchmark one round.

    scripts/make_large.py --players 5000 --rounds 5 --seed 1 -o /tmp/naive5000-r6.trf

Rounds 1..R are paired at random among players of nearby score (no rematches, no third
colour in a row where avoidable), results drawn from the ratings; round R+1 is left to
pair.  Not Dutch-paired (that would need an engine fast at this size): the point is
a realistic spread of scores, colours and floats, with the same bytes for the same seed.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cpsat_pairing.testing.large import build  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, required=True)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-o", "--output", type=Path, required=True)
    a = ap.parse_args()
    a.output.write_text(build(a.players, a.rounds, a.seed), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
