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
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cpsat_pairing.apps.check import MATCH, check_tournament, file_round  # noqa: E402
from cpsat_pairing.domain.state import round_exists  # noqa: E402
from cpsat_pairing.domain.tournament import Colour, RoundEntry, Tournament  # noqa: E402
from cpsat_pairing.formats import parse_trf, read_trf, write_trf# noqa: E402

_COMPLEMENT = {"1": "0", "0": "1", "=": "=", "W": "L", "L": "W", "D": "D", "+": "-", "-": "+", "*": "*"}


def _set(t: Tournament, rnd: int, entries: dict[int, RoundEntry]) -> Tournament:
    """`t` with round `rnd` of some players replaced (TRF round trip keeps it honest)."""
    players = []
    for p in t.players:
        if p.id in entries:
            rounds = list(p.rounds) + [None] * max(0, rnd - len(p.rounds))
            rounds[rnd - 1] = entries[p.id]
            p = replace(p, rounds=tuple(rounds))
        players.append(p)
    return parse_trf(write_trf(replace(t, players=tuple(players)), t.dialect), source=f"{t.source} (mutated)")


def _vs(e: RoundEntry, opponent: int, colour: Colour | None, result: str) -> RoundEntry:
    return replace(e, opponent=opponent, colour=colour, result=result)


def swap_opponents(t: Tournament, rnd: int, i: int, j: int) -> Tournament:
    """Boards i and j of round `rnd` (file order) exchange their second players:
    a-b, c-d become a-d, c-b; a and c keep colour and result, d and b take the opposite."""
    pairs = file_round(t, rnd).pairs
    (a, b), (c, d) = pairs[i], pairs[j]
    ea, ec = t.player(a).entry(rnd), t.player(c).entry(rnd)
    assert ea is not None and ec is not None
    opp = lambda col: None if col is None else col.opposite  # noqa: E731
    return _set(t, rnd, {
        a: _vs(ea, d, ea.colour, ea.result), d: _vs(ea, a, opp(ea.colour), _COMPLEMENT[ea.result]),
        c: _vs(ec, b, ec.colour, ec.result), b: _vs(ec, c, opp(ec.colour), _COMPLEMENT[ec.result]),
    })


def swap_colours(t: Tournament, rnd: int, i: int) -> Tournament:
    """Board i of round `rnd`: White and Black exchanged, results kept."""
    w, b = file_round(t, rnd).pairs[i]
    ew, eb = t.player(w).entry(rnd), t.player(b).entry(rnd)
    assert ew is not None and eb is not None
    return _set(t, rnd, {w: replace(ew, colour=Colour.BLACK), b: replace(eb, colour=Colour.WHITE)})


def move_bye(t: Tournament, rnd: int, i: int) -> Tournament:
    """The PAB of round `rnd` goes to a player of board i; the former PAB holder takes
    his place on the board (colour and result)."""
    fr = file_round(t, rnd)
    assert fr.bye is not None
    x, z = fr.pairs[i]
    ex, ez, ey = t.player(x).entry(rnd), t.player(z).entry(rnd), t.player(fr.bye).entry(rnd)
    assert ex is not None and ez is not None and ey is not None
    return _set(t, rnd, {x: ey, fr.bye: _vs(ex, z, ex.colour, ex.result), z: replace(ez, opponent=fr.bye)})


def _coloured(t: Tournament, rnd: int) -> list[int]:
    fr = file_round(t, rnd)
    return [i for i, pq in enumerate(fr.pairs) if frozenset(pq) not in fr.colourless]


def mutations(t: Tournament, rng: random.Random, rounds: list[int]) -> list[tuple[str, int, Tournament]]:
    """The three mutations of one file: (kind, mutated round, tournament)."""
    out = []
    swappable = [r for r in rounds if len(file_round(t, r).pairs) >= 2]
    if swappable:
        r = rng.choice(swappable)
        i, j = rng.sample(range(len(file_round(t, r).pairs)), 2)
        out.append(("swap opponents", r, swap_opponents(t, r, i, j)))
    colourable = [r for r in rounds if _coloured(t, r)]
    if colourable:
        r = rng.choice(colourable)
        out.append(("swap colours", r, swap_colours(t, r, rng.choice(_coloured(t, r)))))
    byes = [r for r in rounds if file_round(t, r).bye is not None and file_round(t, r).pairs]
    if byes:
        r = rng.choice(byes)
        out.append(("move bye", r, move_bye(t, r, rng.randrange(len(file_round(t, r).pairs)))))
    return out


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
            flagged = {r["round"]: r for r in report if r["verdict"] != MATCH}
            tried += 1
            hit = rnd in flagged
            detected += hit
            by_kind.setdefault(kind, [0, 0])[0] += hit
            by_kind[kind][1] += 1
            if not hit:
                print(f"MISSED {path.name} {kind} round {rnd}", flush=True)
            else:
                r = flagged[rnd]
                print(f"ok     {path.name} {kind} round {rnd}: {r['verdict']}: {r['summary']}", flush=True)
            for r in sorted(flagged):
                if r < rnd:
                    alarms += 1
                    print(f"FALSE ALARM {path.name} {kind}: round {r} before mutated round {rnd}: "
                          f"{flagged[r]['verdict']}", flush=True)
    rate = 100.0 * detected / tried if tried else 0.0
    kinds = ", ".join(f"{k} {h}/{n}" for k, (h, n) in by_kind.items())
    print(f"detected {detected}/{tried} mutations ({rate:.1f}%): {kinds}; {alarms} false alarms; {len(files)} files")
    return 0 if detected == tried and alarms == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
