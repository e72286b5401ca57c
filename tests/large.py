"""Random big tournaments for tests, made by scripts/make_large.py (the benchmark's generator)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def make_large(directory: Path, players: int, seed: int, rounds: int = 5) -> Path:
    """A tournament of `players` with `rounds` rounds of random legal history; round
    `rounds + 1` is left to pair.  The same bytes for the same arguments."""
    trf = directory / f"large-{players}-{seed}.trf"
    subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "make_large.py"), "--players", str(players), "--rounds", str(rounds),
         "--seed", str(seed), "-o", str(trf)],
        check=True,
    )
    return trf
