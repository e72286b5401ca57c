"""Small hand-made tournaments for the rules' worked cases."""

from __future__ import annotations

from collections.abc import Iterable


def field(n: int, forbidden: Iterable[tuple[int, int]] = (), rounds: int = 5) -> str:
    """TRF text of `n` players before round 1 (ratings 2499 down), with forbidden pairs."""
    lines = ["012 Hand-made bracket"]
    for i in range(1, n + 1):
        lines.append(f"001 {i:4d}      Player {i:<27d} {2500 - i:4d}                             0.0 {i:4d}")
    for a, b in forbidden:
        lines.append(f"XXP {a} {b}")
    lines += [f"XXR {rounds}", "XXC white1"]
    return "\n".join(lines) + "\n"


def no_pairing_round_4() -> str:
    """Four players before round 4 who have all met: no valid pairing is left."""
    lines = ["012 No pairing", "XXR 5", "XXC white1"]
    rows = {1: "    2 w 1     3 b 1     4 w 1", 2: "    1 b 0     4 b 0     3 w 1",
            3: "    4 w =     1 w 0     2 b 0", 4: "    3 b =     2 w 1     1 b 0"}
    for i in range(1, 5):
        lines.append(f"001 {i:4d}      Player {i:<27d} {2500 - i:4d}                             0.0 {i:4d}{rows[i]}")
    return "\n".join(lines) + "\n"
