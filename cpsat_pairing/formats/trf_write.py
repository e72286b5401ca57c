"""Writing TRF16 (with the XX*/BB* engine records) and TRF-2026, and appending a round.

Round trip: `parse_trf(write_trf(t, d))` equals `t` (ignoring `source`, `dialect` and
the declared Points, which are rewritten from the results) for both dialects, with one
exception: TRF16 has no record for requested byes (`240`), so `write_trf(t, "trf16")`
enters them as pre-entered `0000 - H/F/Z` blocks in the player lines.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Sequence
from fractions import Fraction

from cpsat_pairing.domain.tournament import (
    PENDING_RESULT, Acceleration, Colour, ForbiddenPairs, Player, RoundEntry, Scoring, Tournament, player_points,
)
from cpsat_pairing.errors import LimitExceeded
from cpsat_pairing.formats.layout import (
    BIRTH_COLS, DIALECTS, FEDERATION_COLS, FIDE_ID_COLS, ID_COLS, NAME_COLS, POINTS_COLS, RANK_COLS,
    RATING_COLS, SEX_COLS, TITLE_COLS, Line, block_col, format_points,
)
from cpsat_pairing.formats.scoring import bb_lines, fits_162, fits_bb, line_162, xxs_line

__all__ = ["append_round", "round_trip_view", "write_trf"]


def _fit(value: str, width: int, *, right: bool = False) -> str:
    value = value[:width]
    return value.rjust(width) if right else value.ljust(width)


def _player_line(p: Player, scoring: Scoring) -> str:
    if p.id > 9999:
        raise LimitExceeded(f"starting rank {p.id} does not fit TRF's 4 columns")
    if not 0 <= p.rating <= 9999:
        raise LimitExceeded(f"rating {p.rating} of player {p.id} does not fit TRF's 4 columns")
    points = format_points(player_points(p, scoring))
    if len(points) > 4:
        raise LimitExceeded(f"points {points} of player {p.id} do not fit TRF's 4 columns")
    line = Line("001").put(ID_COLS[0], f"{p.id:>4}")
    line.put(SEX_COLS[0], _fit(p.sex, 1)).put(TITLE_COLS[0], _fit(p.title, 3, right=True))
    line.put(NAME_COLS[0], _fit(p.name, 33))
    line.put(RATING_COLS[0], f"{p.rating:>4}" if p.rating else "    ")
    line.put(FEDERATION_COLS[0], _fit(p.federation, 3)).put(FIDE_ID_COLS[0], _fit(p.fide_id, 11, right=True))
    line.put(BIRTH_COLS[0], _fit(p.birth_date, 10)).put(POINTS_COLS[0], f"{points:>4}")
    line.put(RANK_COLS[0], f"{p.rank:>4}" if p.rank is not None else "    ")
    for rnd, e in enumerate(p.rounds, start=1):
        if e is not None:
            line.put(block_col(rnd), _block_text(e))
    return str(line)


def _block_text(e: RoundEntry) -> str:
    opponent = "0000" if e.opponent is None else f"{e.opponent:>4}"
    colour = e.colour.value if e.colour is not None else "-"
    result = " " if e.result == PENDING_RESULT else e.result
    return f"{opponent} {colour} {result}"


def _fold_byes(t: Tournament) -> tuple[Player, ...]:
    """Enter requested byes (240) as pre-entered `0000 - H/F/Z` blocks (TRF16 form)."""
    players = []
    for p in t.players:
        rounds = list(p.rounds)
        for rnd, entered in t.byes.items():
            code = entered.get(p.id)
            if code is None or (rnd <= len(rounds) and rounds[rnd - 1] is not None):
                continue
            rounds.extend([None] * (rnd - len(rounds)))
            rounds[rnd - 1] = RoundEntry(None, None, code)
        players.append(dataclasses.replace(p, rounds=tuple(rounds)))
    return tuple(players)


def _chunks(items: Sequence[int], size: int) -> Iterator[Sequence[int]]:
    for i in range(0, len(items), size):
        yield items[i : i + size]


def _lines_240(byes: dict[int, dict[int, str]]) -> list[str]:
    out = []
    for rnd in sorted(byes):
        for kind in "FHZ":
            ids = sorted(pid for pid, code in byes[rnd].items() if code == kind)
            for chunk in _chunks(ids, 20):
                line = Line("240").put(5, kind).put(7, f"{rnd:>3}")
                for i, pid in enumerate(chunk):
                    line.put(11 + 5 * i, f"{pid:>4}")
                out.append(str(line))
    return out


def _lines_250(acceleration: Sequence[Acceleration]) -> list[str]:
    """One record per run of rounds with equal points, consecutive ids grouped."""
    runs: list[tuple[Fraction, int, int, int]] = []  # (points, first round, last round, id)
    for acc in acceleration:
        rnd = 1
        values = acc.points_by_round
        while rnd <= len(values):
            value = values[rnd - 1]
            last = rnd
            while last < len(values) and values[last] == value:
                last += 1
            if value != 0:
                runs.append((value, rnd, last, acc.player_id))
            rnd = last + 1
    runs.sort(key=lambda r: (r[1], r[2], r[0], r[3]))
    out = []
    i = 0
    while i < len(runs):
        value, first, last, pid = runs[i]
        j = i
        while (j + 1 < len(runs) and runs[j + 1][:3] == (value, first, last)
               and runs[j + 1][3] == runs[j][3] + 1):
            j += 1
        text = format_points(value)
        if len(text) > 4:
            raise LimitExceeded(f"250: points {text} do not fit 4 columns")
        out.append(str(Line("250").put(10, f"{text:>4}").put(15, f"{first:>3}").put(19, f"{last:>3}")
                       .put(23, f"{pid:>4}").put(28, f"{runs[j][3]:>4}")))
        i = j + 1
    return out


def _line_xxa(acc: Acceleration) -> str:
    line = Line("XXA").put(5, f"{acc.player_id:>4}")
    for rnd, value in enumerate(acc.points_by_round, start=1):
        text = format_points(value)
        if len(text) > 4:
            raise LimitExceeded(f"XXA: points {text} do not fit 4 columns")
        line.put(10 + 5 * (rnd - 1), f"{text:>4}")
    return str(line)


def _line_260(fp: ForbiddenPairs) -> str:
    line = Line("260").put(5, f"{fp.first_round or 1:>3}").put(9, f"{fp.last_round or 999:>3}")
    for i, pid in enumerate(fp.ids):
        line.put(13 + 5 * i, f"{pid:>4}")
    return str(line)


def _ids_line(code: str, ids: Iterable[int]) -> str:
    return f"{code} " + " ".join(str(pid) for pid in ids)


def write_trf(t: Tournament, dialect: str = "trf16", *, newline: str = "\n") -> str:
    """Write `t` as TRF16 (with XX*/BB* engine records) or TRF-2026.

    Points (81-84) are recomputed from the results under `t.scoring`. Records the
    reader kept verbatim (`t.header_lines`) follow the `012` line. Forbidden pairs
    without rounds are written as `XXP` and ranged ones as `260` in both dialects;
    `XXZ` and `XXC rank` have no TRF-2026 form and are written as they are.

    Raises:
        ValueError: unknown dialect.
        LimitExceeded: a value does not fit its columns (ids or ratings over 9999, ...).
    """
    if dialect == "trf16x":
        dialect = "trf16"
    if dialect not in DIALECTS:
        raise ValueError(f"unknown TRF dialect {dialect!r}; expected one of {', '.join(DIALECTS)}")
    s = t.scoring
    lines = [f"012 {t.name}".rstrip(), *t.header_lines]
    if dialect == "trf26":
        if t.total_rounds is not None:
            lines.append(f"142 {t.total_rounds}")
        if t.initial_colour is not None:
            lines.append(f"152 {t.initial_colour.value.upper()}")
        if not s.is_default:
            lines.append(line_162(s))
            if not fits_162(s):
                lines.append(xxs_line(s))
        players = t.players
    else:
        players = _fold_byes(t)
    lines.extend(_player_line(p, s) for p in players)
    if dialect == "trf26":
        lines.extend(_lines_240(t.byes))
        lines.extend(_lines_250(t.acceleration))
        if t.rank_mode:
            lines.append("XXC rank")
    else:
        if t.total_rounds is not None:
            lines.append(f"XXR {t.total_rounds}")
        options = (["rank"] if t.rank_mode else []) + (
            [f"{t.initial_colour.name.lower()}1"] if t.initial_colour is not None else [])
        if options:
            lines.append("XXC " + " ".join(options))
        if not s.is_default:
            if fits_bb(s):
                lines.extend(bb_lines(s))
            lines.append(xxs_line(s))
        lines.extend(_line_xxa(a) for a in t.acceleration)
    lines.extend(_ids_line("XXP", fp.ids) for fp in t.forbidden if fp.first_round is None and fp.last_round is None)
    lines.extend(_line_260(fp) for fp in t.forbidden if fp.first_round is not None or fp.last_round is not None)
    if t.absent_next:
        lines.append(_ids_line("XXZ", t.absent_next))
    return newline.join(lines) + newline


def round_trip_view(t: Tournament, dialect: str = "trf26") -> Tournament:
    """What of `t` survives `parse_trf(write_trf(t, dialect))`: everything except the
    source name, the detected dialect, warnings and declared Points (rewritten from the
    results); for TRF16 the requested byes become pre-entered blocks."""
    players = _fold_byes(t) if dialect in ("trf16", "trf16x") else t.players
    return dataclasses.replace(
        t,
        players=tuple(dataclasses.replace(p, declared_points=None) for p in players),
        byes={} if dialect in ("trf16", "trf16x") else t.byes,
        source="",
        dialect="",
        warnings=(),
    )


# --- appending a round ------------------------------------------------------------------


def append_round(
    t: Tournament, pairs: Sequence[tuple[int, int]], bye: int | None, rnd: int
) -> Tournament:
    """Return `t` with round `rnd`'s pairing entered, results not yet known.

    Each pair is (white, black) and gets `OPP w` / `OPP b` with a pending result
    (written blank). The PAB recipient gets `0000 - U`. Everyone else keeps the block
    already entered for `rnd` (a pre-entered absence), else the requested bye (240)
    or absence (XXZ) for that round, else `0000 - Z`. Requested byes and XXZ for `rnd`
    are consumed.

    Raises:
        ValueError: unknown id, a player used twice, or a paired player who already
            has a game or a bye entered for `rnd`.
    """
    if rnd < 1:
        raise ValueError(f"round must be at least 1, got {rnd}")
    by_id = {p.id: p for p in t.players}
    new: dict[int, RoundEntry] = {}
    for white, black in pairs:
        for pid, opp, colour in ((white, black, Colour.WHITE), (black, white, Colour.BLACK)):
            _claim(new, by_id, pid, rnd, RoundEntry(opp, colour, PENDING_RESULT))
    if bye is not None:
        _claim(new, by_id, bye, rnd, RoundEntry(None, None, "U"))
    requested = t.byes.get(rnd, {})
    absent = set(t.absent_next) if rnd == t.rounds_played + 1 else set()
    players = []
    for p in t.players:
        entry = new.get(p.id) or p.entry(rnd)
        if entry is None:
            entry = RoundEntry(None, None, requested.get(p.id, "Z"))  # XXZ absentees too
        rounds = list(p.rounds) + [None] * max(0, rnd - len(p.rounds))
        rounds[rnd - 1] = entry
        players.append(dataclasses.replace(p, rounds=tuple(rounds)))
    byes = {r: dict(m) for r, m in t.byes.items() if r != rnd}
    return dataclasses.replace(
        t, players=tuple(players), byes=byes, absent_next=() if absent else t.absent_next, warnings=()
    )


def _claim(new: dict[int, RoundEntry], by_id: dict[int, Player], pid: int, rnd: int, entry: RoundEntry) -> None:
    if pid not in by_id:
        raise ValueError(f"round {rnd}: player {pid} is not in the tournament")
    if pid in new:
        raise ValueError(f"round {rnd}: player {pid} is paired twice")
    old = by_id[pid].entry(rnd)
    if old is not None:
        raise ValueError(f"round {rnd}: player {pid} already has {_block_text(old).strip()!r} entered")
    new[pid] = entry
