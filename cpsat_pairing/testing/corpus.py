"""Replaying reference-paired tournaments: pair every round from its history and compare.

For round R, rounds 1..R-1 are history and the absences entered for R are kept; the
engine's pairing must be the file's: the same pairs, the same colours, the same
pairing-allocated bye.  Only a pair the file records without colours is compared by ids.
A file that states no initial colour is given the one its first coloured round shows,
as an arbiter's program gives it to an engine (`XXC`).
"""

from __future__ import annotations

import dataclasses
import re
import time
from dataclasses import dataclass
from pathlib import Path

from cpsat_pairing.apps.check import Verdict, check_round, file_round, with_rounds_in_file
from cpsat_pairing.apps.compare import DifferenceKind
from cpsat_pairing.domain.state import round_exists
from cpsat_pairing.domain.tournament import RoundEntry, Tournament
from cpsat_pairing.dutch.boards import infer_initial_colour
from cpsat_pairing.dutch.result import Pair
from cpsat_pairing.dutch.rounds import pair
from cpsat_pairing.errors import NoValidPairing
from cpsat_pairing.formats import read_trf, write_trf


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
    why: str = ""  # what decides the miss (`deciding`), when asked for


def as_replayed(t: Tournament) -> Tournament:
    """A finished file as a replay reads it: without `XXR`/`142`, the number of rounds
    is the number played (JaVaFo-made files)."""
    if t.total_rounds is None:
        t = dataclasses.replace(t, total_rounds=t.rounds_played)
    if t.initial_colour is None:
        t = dataclasses.replace(t, initial_colour=infer_initial_colour(t))
    return with_rounds_in_file(t, max((len(p.rounds) for p in t.players), default=0))


def replay(t: Tournament, edition: str = "dutch-2026", first: int = 1, name: str = "") -> list[Replayed]:
    """Every round of `t` from `first` on, re-paired and compared with the file."""
    t = as_replayed(t)
    last = max((len(p.rounds) for p in t.players), default=0)
    out = []
    for rnd in range(max(1, first), last + 1):
        if not round_exists(t, rnd):
            continue
        expected, exp_bye = recorded(t, rnd)
        t0 = time.perf_counter()
        try:
            got = pair(t, rnd, edition)
            fr = file_round(t, rnd)
            pairs = {
                (q, p) if (q, p) in expected and frozenset((p, q)) in fr.colourless else (p, q)
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


def deciding(t: Tournament, rnd: int, edition: str) -> str:
    """What decides a missed round, as `check` finds it: the first tier on which the
    file's pairing and the rules' differ (its counts left out, so that misses of one
    kind fall in one class), that the brackets differ, or the verdict."""
    res = check_round(as_replayed(t), rnd, edition)
    d = res.difference
    if res.verdict is not Verdict.PAIRS_DIFFER or d is None:
        return res.verdict.value
    if d.kind in (DifferenceKind.QUALITY, DifferenceKind.GENERATION) and d.tier is not None:
        return f"{d.kind.value}: {re.sub(r'(?<![A-Za-z0-9.])[0-9][0-9./]*', 's', d.tier.name)}"
    return d.kind.value


def replay_file(path: str | Path, edition: str = "dutch-2026", first: int = 1) -> list[Replayed]:
    return replay(read_trf(path), edition, first, Path(path).name)


# --- a round prepared as a client program writes it ---------------------------------------

# How programs mark the players left out of the round to pair, by the code the reference
# file gives them there: TRF16's letters (JaVaFo's manual, bbpPairings, Sharly Chess,
# Tornello) and the older symbols (heltour, Vega's export).
NOTATIONS: dict[str, dict[str, str]] = {
    "letters": {"Z": "Z", "H": "H", "F": "F"},
    "symbols": {"Z": "-", "H": "=", "F": "+"},
}


def is_left_out(t: Tournament, pid: int, rnd: int) -> bool:
    """Not paired in round `rnd` of the file: no block, or a bye other than the PAB."""
    e = t.player(pid).entry(rnd)
    return e is None or (e.opponent is None and e.result != "U")


def prepared_round(t: Tournament, rnd: int, notation: str = "letters") -> str:
    """The file as a client hands it to an engine before round `rnd`: rounds 1..rnd-1,
    and a block in round `rnd` for each player left out of it, in `notation`; the
    initial colour and the number of rounds stated."""
    codes = NOTATIONS[notation]
    players = []
    for p in t.players:
        kept = list(p.rounds[: rnd - 1]) + [None] * max(0, rnd - 1 - len(p.rounds))
        if is_left_out(t, p.id, rnd):
            e = p.entry(rnd)
            code = e.result if e is not None and e.result in "HF" else "Z"
            kept.append(RoundEntry(None, None, codes[code]))
        players.append(dataclasses.replace(p, rounds=tuple(kept)))
    t = as_replayed(t)
    return write_trf(dataclasses.replace(t, players=tuple(players), byes={}, absent_next=()), "trf16")


def replay_prepared(t: Tournament, edition: str, notation: str, name: str = "") -> list[Replayed]:
    """Every round with someone left out, paired from `prepared_round` text (read back
    as a file is) and compared with the file."""
    from cpsat_pairing.formats import parse_trf

    full = as_replayed(t)
    last = max((len(p.rounds) for p in t.players), default=0)
    out = []
    for rnd in range(2, last + 1):
        if not round_exists(full, rnd) or not any(is_left_out(full, p.id, rnd) for p in full.players):
            continue
        expected, exp_bye = recorded(full, rnd)
        colourless = file_round(full, rnd).colourless
        t0 = time.perf_counter()
        try:
            got = pair(parse_trf(prepared_round(full, rnd, notation)), None, edition)
            pairs = {(q, p) if (q, p) in expected and frozenset((p, q)) in colourless else (p, q)
                     for p, q in got.as_pairs()}
            ok = got.round == rnd and pairs == expected and got.bye == exp_bye
            detail = "" if ok else f"round {got.round}; bye {got.bye} vs {exp_bye}; ours-only {sorted(pairs - expected)}"
        except Exception as exc:  # a replay must report, not stop
            ok, detail = False, f"error: {type(exc).__name__}: {exc}"
        out.append(Replayed(name, rnd, ok, time.perf_counter() - t0, detail))
    return out
