"""Replaying reference-paired tournaments: pair every round from its history and compare.

For round R, rounds 1..R-1 are history and the absences entered for R are kept; the
engine's pairing must be the file's: the same pairs, the same colours, the same
pairing-allocated bye.  Two things are compared by ids only: a pair the file records
without colours, and every pair of the first coloured round when the file does not
state the initial colour (the reference engine drew it: no history records it).
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass
from pathlib import Path

from cpsat_pairing.apps.check import file_round, with_rounds_in_file
from cpsat_pairing.domain.state import round_exists
from cpsat_pairing.domain.tournament import Tournament
from cpsat_pairing.dutch.result import Pair
from cpsat_pairing.dutch.rounds import pair
from cpsat_pairing.errors import NoValidPairing
from cpsat_pairing.formats import read_trf


def recorded(t: Tournament, rnd: int) -> tuple[set[Pair], int | None]:
    """The pairs (white, black) and the PAB recorded in the file for round `rnd`."""
    fr = file_round(t, rnd)
    return set(fr.pairs), fr.bye


@dataclass(frozen=True)
class Replayed:
    file: str
    round: int
    exact: bool
    seconds: float
    detail: str = ""  # what differs, when not exact


def as_replayed(t: Tournament) -> Tournament:
    """A finished file as a replay reads it: without `XXR`/`142`, the number of rounds
    is the number played (JaVaFo-made files)."""
    if t.total_rounds is None:
        t = dataclasses.replace(t, total_rounds=t.rounds_played)
    return with_rounds_in_file(t, max((len(p.rounds) for p in t.players), default=0))


def replay(t: Tournament, edition: str = "dutch-2026", first: int = 1, name: str = "") -> list[Replayed]:
    """Every round of `t` from `first` on, re-paired and compared with the file."""
    t = as_replayed(t)
    last = max((len(p.rounds) for p in t.players), default=0)
    first_coloured = next(
        (r for r in range(1, last + 1) if any((e := p.entry(r)) is not None and e.colour is not None for p in t.players)),
        0,
    )
    out = []
    for rnd in range(max(1, first), last + 1):
        if not round_exists(t, rnd):
            continue
        expected, exp_bye = recorded(t, rnd)
        t0 = time.perf_counter()
        try:
            got = pair(t, rnd, edition)
            fr = file_round(t, rnd)
            loose = fr.colourless if (t.initial_colour is not None or rnd > first_coloured) else None
            pairs = {
                (q, p) if (q, p) in expected and (loose is None or frozenset((p, q)) in loose) else (p, q)
                for p, q in got.as_pairs()
            }
            ok = pairs == expected and got.bye == exp_bye
            detail = "" if ok else (
                f"bye {got.bye} vs {exp_bye}; ours-only {sorted(pairs - expected)}; file-only {sorted(expected - pairs)}"
            )
        except NoValidPairing as exc:
            ok, detail = False, f"no valid pairing: {exc}"
        except Exception as exc:  # a replay must report, not stop
            ok, detail = False, f"error: {type(exc).__name__}: {exc}"
        out.append(Replayed(name, rnd, ok, time.perf_counter() - t0, detail))
    return out


def replay_file(path: str | Path, edition: str = "dutch-2026", first: int = 1) -> list[Replayed]:
    return replay(read_trf(path), edition, first, Path(path).name)
