"""Read and write Tournament Report Files: FIDE TRF16 (C.04 Annex-2), the pairing-engine
extensions (JaVaFo `XX*`, bbpPairings `BB*`) and TRF-2026 (C.02.03 Annexure A).

Fixed-column parsing as the specification defines it (columns 1-based, inclusive), with
leniency for what real files do: blank opponent fields on byes, `0000 - =` half-point
byes, lines that stop early (withdrawals), ratings left blank, UTF-8 / UTF-8-BOM /
latin-1 text and LF / CRLF / CR line ends. Every problem that makes the data unusable
raises `TrfError` with file, line and column; problems that do not (a Points column
that disagrees with the results) become `Tournament.warnings`.

Results not known yet
    A round block with an opponent and a blank result column is a pairing whose game
    has not been played (what engines output when they append the next round). It is
    read as the internal code `PENDING_RESULT` ("*"), written back as a blank, and
    scores nothing. A blank result *without* an opponent keeps its TRF meaning, "Z".

Round trip
    `parse_trf(write_trf(t, d))` equals `t` (ignoring `source`, `dialect` and the
    declared Points, which are rewritten from the results) for both dialects, with one
    exception: TRF16 has no record for requested byes (`240`), so `write_trf(t,
    "trf16")` enters them as pre-entered `0000 - H/F/Z` blocks in the player lines.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from pathlib import Path
from typing import Any, ClassVar, TypeVar

from cpsat_pairing.errors import FileAccessError, InconsistentData, LimitExceeded, TrfError
from cpsat_pairing.domain.tournament import (
    BYE_RESULTS,
    PENDING_RESULT,
    Acceleration,
    Colour,
    ForbiddenPairs,
    Player,
    RoundEntry,
    Scoring,
    Tournament,
)

__all__ = [
    "DIALECTS",
    "append_round",
    "format_points",
    "parse_trf",
    "player_points",
    "read_trf",
    "round_trip_view",
    "tournament_to_dict",
    "write_trf",
]

DIALECTS = ("trf16", "trf26")

# --- 001 record layout (TRF16 Annex-2; unchanged in TRF-2026) -------------------------
ID_COLS = (5, 8)
SEX_COLS = (10, 10)
TITLE_COLS = (11, 13)
NAME_COLS = (15, 47)
RATING_COLS = (49, 52)
FEDERATION_COLS = (54, 56)
FIDE_ID_COLS = (58, 68)
BIRTH_COLS = (70, 79)
POINTS_COLS = (81, 84)
RANK_COLS = (86, 89)
ROUND1_COL = 92  # round r: opponent 92+10(r-1) .. +3, colour +5, result +7
ROUND_STRIDE = 10
MAX_ROUNDS = 999  # round numbers have 3 columns in 240/250/260
MAX_ID = 9999  # starting ranks have 4 columns

RESULT_CODES = frozenset("+-WDL10=HFUZ")
# Result pairs that two opponents may record for one scheduled game.
_COMPLEMENTARY = frozenset(
    {("1", "0"), ("0", "1"), ("=", "="), ("W", "L"), ("L", "W"), ("D", "D"),
     ("+", "-"), ("-", "+"), ("-", "-"), (PENDING_RESULT, PENDING_RESULT)}
)
_TRF26_CODES = frozenset({"142", "152", "162", "192", "240", "250", "260"})
_TRF16X_CODES = frozenset(
    {"XXR", "XXC", "XXS", "XXA", "XXP", "XXZ", "BBW", "BBD", "BBL", "BBZ", "BBF", "BBU"}
)


# --- low-level field access ------------------------------------------------------------


class _FieldError(Exception):
    """A short reason and the column it points at; the reader loop adds file and line."""

    def __init__(self, column: int, message: str) -> None:
        super().__init__(message)
        self.column = column
        self.message = message


def _cols(line: str, first: int, last: int) -> str:
    """Columns first..last (1-based, inclusive), blank-padded when the line is short."""
    return line[first - 1 : last].ljust(last - first + 1)


def _is_digits(text: str) -> bool:
    return text.isascii() and text.isdigit()


def _int_at(text: str, column: int, what: str, limit: int | None = None) -> int:
    """A non-negative integer (surrounding blanks allowed), at most `limit`."""
    stripped = text.strip()
    if not _is_digits(stripped):
        raise _FieldError(column + _lead(text), f"{what}: expected a number, found {stripped!r}")
    value = int(stripped)
    if limit is not None and value > limit:
        raise _FieldError(column + _lead(text), f"{what}: {value} is more than {limit}")
    return value


def _lead(text: str) -> int:
    """Offset of the first non-blank character (where an error should point)."""
    return len(text) - len(text.lstrip()) if text.strip() else 0


def _points_at(text: str, column: int, what: str) -> Fraction:
    """A decimal score such as `11.5`, `4.0`, `.5` or `-1`."""
    stripped = text.strip().replace(",", ".")
    body = stripped[1:] if stripped.startswith("-") else stripped
    digits = body.replace(".", "", 1)
    if not digits or not _is_digits(digits):
        raise _FieldError(column + _lead(text), f"{what}: expected points like 11.5, found {stripped!r}")
    try:
        return Fraction(Decimal(stripped))
    except (InvalidOperation, ValueError) as exc:  # pragma: no cover - guarded above
        raise _FieldError(column, f"{what}: bad number {stripped!r}") from exc


def _tokens(line: str, start_col: int) -> list[tuple[int, str]]:
    """Whitespace-separated tokens from start_col on, each with its 1-based column."""
    out: list[tuple[int, str]] = []
    i = start_col - 1
    n = len(line)
    while i < n:
        if line[i].isspace():
            i += 1
            continue
        j = i
        while j < n and not line[j].isspace():
            j += 1
        out.append((i + 1, line[i:j]))
        i = j
    return out


_T = TypeVar("_T")


def _fixed_or_tokens(fixed: Callable[[], _T], tokens: Callable[[], _T]) -> _T:
    """Read a record by its columns; if that fails, by whitespace; report the column error."""
    try:
        return fixed()
    except _FieldError as first:
        try:
            return tokens()
        except _FieldError:
            raise first from None


def format_points(value: Fraction) -> str:
    """Points as TRF writes them: `11.5`, `4.0`, `0.25` (at least one decimal, exact)."""
    if value.denominator == 1:
        return f"{value.numerator}.0"
    text = f"{Decimal(value.numerator) / Decimal(value.denominator):f}"
    if Fraction(Decimal(text)) != value:
        raise LimitExceeded(f"points {value} cannot be written as a decimal number")
    return text


# --- decoding ---------------------------------------------------------------------------


def _decode(data: str | bytes) -> tuple[str, str]:
    """Text and the encoding used: UTF-8 (BOM allowed), else latin-1."""
    if isinstance(data, str):
        return data.removeprefix("\ufeff"), "text"
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        return data.decode("latin-1"), "latin-1"


def _split_lines(text: str) -> list[str]:
    """Split on CRLF, CR or LF only (str.splitlines would also split on latin-1 NEL)."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


# --- reading ----------------------------------------------------------------------------


@dataclass
class _ScoringBuilder:
    """Point values as the records set them, in file order (later records win).

    The three sources differ in what one symbol covers: 162 `W` and bbp `BBW` also set
    forfeit wins and full-point byes (and the PAB unless a `P`/`BBU` gave it); JaVaFo's
    `XXS W` sets WW, BW, FW and FPB but not PAB. `values` holds White's game points and
    `black` Black's (XXS BW/BD/BL); they must agree in the end.
    """

    values: dict[str, Fraction] = field(
        default_factory=lambda: {f.name: getattr(Scoring(), f.name) for f in dataclasses.fields(Scoring)}
    )
    black: dict[str, Fraction] = field(
        default_factory=lambda: {"win": Fraction(1), "draw": Fraction(1, 2), "loss": Fraction(0)}
    )
    pab_explicit: bool = False
    colour_line: int | None = None  # last XXS line that set one colour only

    def set(self, names: Iterable[str], value: Fraction) -> None:
        for name in names:
            self.values[name] = value
            if name in self.black:
                self.black[name] = value

    def set_win(self, value: Fraction, *, with_pab: bool) -> None:
        self.set(("win", "forfeit_win", "fpb"), value)
        if with_pab and not self.pab_explicit:
            self.values["pab"] = value

    def set_pab(self, value: Fraction) -> None:
        self.values["pab"] = value
        self.pab_explicit = True

    def build(self) -> Scoring:
        return Scoring(**self.values)


_XXS_FIELDS: dict[str, tuple[str, ...]] = {
    "ZPB": ("zpb",), "HPB": ("hpb",), "FPB": ("fpb",), "PAB": ("pab",), "FW": ("forfeit_win",),
    "FL": ("forfeit_loss",), "W": ("win", "forfeit_win", "fpb"), "D": ("draw", "hpb"),
}
_XXS_ONE_COLOUR = {"WW": ("values", "win"), "WD": ("values", "draw"), "WL": ("values", "loss"),
                   "BW": ("black", "win"), "BD": ("black", "draw"), "BL": ("black", "loss")}
_BB_FIELDS = {"BBD": ("draw", "hpb"), "BBL": ("loss",), "BBZ": ("zpb",), "BBF": ("forfeit_loss",)}
_162_FIELDS = {"D": ("draw", "hpb"), "L": ("loss",), "A": ("zpb", "forfeit_loss"), "Z": ("zpb", "forfeit_loss")}


@dataclass
class _Reader:
    """Accumulates records line by line, then checks them together in `finish`."""

    source: str
    players: list[Player] = field(default_factory=list)
    player_line: dict[int, int] = field(default_factory=dict)
    header: list[str] = field(default_factory=list)
    name: str | None = None
    total_rounds: tuple[int, int] | None = None  # (value, line)
    initial_colour: tuple[Colour, int] | None = None
    scoring: _ScoringBuilder = field(default_factory=_ScoringBuilder)
    forbidden: list[ForbiddenPairs] = field(default_factory=list)
    # (ids, first round, per-round points) in file order; expanded in `finish`
    acceleration: list[tuple[range, int, tuple[Fraction, ...]]] = field(default_factory=list)
    byes: dict[int, dict[int, str]] = field(default_factory=dict)
    absent_next: list[int] = field(default_factory=list)
    rank_mode: bool = False
    hint_092: str | None = None
    hint_192: str | None = None
    codes: set[str] = field(default_factory=set)
    warnings: list[str] = field(default_factory=list)
    # ids named by engine records: (id, line, column, record, must exist)
    id_refs: list[tuple[int, int, int, str, bool]] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)

    # -- dispatch ---------------------------------------------------------------------

    def feed(self, number: int, line: str) -> None:
        """Interpret one physical line (`number` is 1-based)."""
        if not line.strip():
            return
        code = line[:3]
        if len(line) > 3 and line[3] != " ":
            self.header.append(line)  # not a record (ruler lines, `###` comments, ...)
            return
        handler = self._HANDLERS.get(code.upper() if code[:2].upper() in ("XX", "BB") else code)
        if handler is None:
            self.header.append(line)
            return
        self.codes.add(code.upper())
        try:
            handler(self, number, line)
        except _FieldError as exc:
            raise TrfError(exc.message, file=self.source, line=number, column=exc.column, text=line) from None

    def error(self, number: int, column: int, message: str, cls: type[TrfError] = TrfError) -> TrfError:
        text = self.lines[number - 1] if 0 < number <= len(self.lines) else None
        return cls(message, file=self.source, line=number, column=column, text=text)

    def warn(self, number: int, column: int, message: str) -> None:
        self.warnings.append(f"{self.source}:{number}:{column}: {message}")

    # -- tournament records -------------------------------------------------------------

    def _name(self, number: int, line: str) -> None:
        if self.name is None:
            self.name = line[4:].strip()
        else:
            self.header.append(line)  # a second 012 (team leagues): keep it verbatim

    def _edition_092(self, number: int, line: str) -> None:
        self.header.append(line)
        self.hint_092 = self.hint_092 or line[4:].strip() or None

    def _edition_192(self, number: int, line: str) -> None:
        self.header.append(line)
        self.hint_192 = line[4:].strip() or None

    def _rounds(self, number: int, line: str) -> None:
        toks = _tokens(line, 4)
        if len(toks) != 1:
            raise _FieldError(5, f"number of rounds: expected one number, found {line[3:].strip()!r}")
        col, text = toks[0]
        value = _int_at(text, col, "number of rounds", MAX_ROUNDS)
        if value < 1:
            raise _FieldError(col, "number of rounds must be at least 1")
        if self.total_rounds is not None and self.total_rounds[0] != value:
            raise self.error(
                number, col,
                f"number of rounds {value} contradicts {self.total_rounds[0]} on line {self.total_rounds[1]}",
                InconsistentData,
            )
        self.total_rounds = (value, number)

    def _set_colour(self, number: int, column: int, colour: Colour) -> None:
        if self.initial_colour is not None and self.initial_colour[0] is not colour:
            raise self.error(
                number, column,
                f"initial colour contradicts the one on line {self.initial_colour[1]}",
                InconsistentData,
            )
        self.initial_colour = (colour, number)

    def _colour_152(self, number: int, line: str) -> None:
        toks = _tokens(line, 4)
        if len(toks) != 1 or toks[0][1].upper() not in ("W", "B"):
            raise _FieldError(5, f"initial colour: expected W or B, found {line[3:].strip()!r}")
        col, text = toks[0]
        self._set_colour(number, col, Colour.WHITE if text.upper() == "W" else Colour.BLACK)

    def _xxc(self, number: int, line: str) -> None:
        for col, tok in _tokens(line, 4):
            low = tok.lower()
            if low == "rank":
                self.rank_mode = True
            elif low in ("white1", "black1"):
                self._set_colour(number, col, Colour.WHITE if low == "white1" else Colour.BLACK)
            else:
                self.warn(number, col, f"XXC option {tok!r} ignored (known: rank, white1, black1)")

    # -- scoring ------------------------------------------------------------------------

    def _scoring_162(self, number: int, line: str) -> None:
        pairs = _fixed_or_tokens(lambda: _pairs_162_fixed(line), lambda: _pairs_162_tokens(line))
        for col, symbol, value in pairs:
            sym = symbol.upper()
            if sym == "W":
                self.scoring.set_win(value, with_pab=True)
            elif sym == "P":
                self.scoring.set_pab(value)
            elif sym in _162_FIELDS:
                self.scoring.set(_162_FIELDS[sym], value)
            elif sym != "X":  # X: unknown result (adjourned); nothing scores it here
                raise _FieldError(col, f"scoring symbol {symbol!r}: expected W, D, L, A, P or X")

    def _scoring_xxs(self, number: int, line: str) -> None:
        for col, tok in _tokens(line, 4):
            code, sep, text = tok.partition("=")
            code = code.upper()
            if not sep or (code not in _XXS_FIELDS and code not in _XXS_ONE_COLOUR):
                raise _FieldError(col, f"XXS: expected CODE=VALUE with a JaVaFo code, found {tok!r}")
            value = _points_at(text, col + len(code) + 1, f"XXS {code}")
            if code == "PAB":
                self.scoring.set_pab(value)
            elif code in _XXS_ONE_COLOUR:
                side, name = _XXS_ONE_COLOUR[code]
                getattr(self.scoring, side)[name] = value
                self.scoring.colour_line = number
            else:
                self.scoring.set(_XXS_FIELDS[code], value)

    def _scoring_bb(self, number: int, line: str) -> None:
        code = line[:3].upper()
        toks = _tokens(line, 4)
        if len(toks) != 1:
            raise _FieldError(5, f"{code}: expected one value like 1.0, found {line[3:].strip()!r}")
        col, text = toks[0]
        value = _points_at(text, col, code)
        if code == "BBW":
            self.scoring.set_win(value, with_pab=True)
        elif code == "BBU":
            self.scoring.set_pab(value)
        else:
            self.scoring.set(_BB_FIELDS[code], value)

    # -- player records -----------------------------------------------------------------

    def _player(self, number: int, line: str) -> None:
        player = _parse_player(line, self, number)
        if player.id in self.player_line:
            raise self.error(
                number, ID_COLS[0],
                f"duplicate starting rank {player.id} (first on line {self.player_line[player.id]})",
                InconsistentData,
            )
        self.player_line[player.id] = number
        self.players.append(player)

    # -- engine instructions ------------------------------------------------------------

    def _ref(self, pid: int, number: int, col: int, record: str) -> int:
        if pid < 1:
            raise _FieldError(col, f"{record}: player id must be at least 1")
        self.id_refs.append((pid, number, col, record, True))
        return pid

    def _ids(self, toks: Sequence[tuple[int, str]], number: int, record: str) -> list[int]:
        return [self._ref(_int_at(t, c, f"{record} player id", MAX_ID), number, c, record) for c, t in toks]

    def _forbidden_xxp(self, number: int, line: str) -> None:
        ids = self._ids(_tokens(line, 4), number, "XXP")
        if len(ids) < 2:
            raise _FieldError(5, "XXP: expected at least two player ids")
        self.forbidden.append(ForbiddenPairs(tuple(ids)))

    def _forbidden_260(self, number: int, line: str) -> None:
        first, last, toks = _fixed_or_tokens(lambda: _fields_260_fixed(line), lambda: _fields_260_tokens(line))
        ids = self._ids(toks, number, "260")
        if len(ids) < 2:
            raise _FieldError(13, "260: expected at least two player ids")
        if first < 1 or last < first:
            raise _FieldError(5, f"260: bad round range {first}..{last}")
        self.forbidden.append(ForbiddenPairs(tuple(ids), first, last))

    def _absent_xxz(self, number: int, line: str) -> None:
        for pid in self._ids(_tokens(line, 4), number, "XXZ"):
            if pid not in self.absent_next:
                self.absent_next.append(pid)

    def _byes_240(self, number: int, line: str) -> None:
        kind, rnd, toks = _fixed_or_tokens(lambda: _fields_240_fixed(line), lambda: _fields_240_tokens(line))
        if rnd < 1:
            raise _FieldError(7, "240: round must be at least 1")
        ids = self._ids(toks, number, "240")
        if not ids:
            raise _FieldError(11, "240: expected at least one player id")
        entered = self.byes.setdefault(rnd, {})
        for (col, _), pid in zip(toks, ids, strict=True):
            if entered.get(pid, kind) != kind:
                raise self.error(
                    number, col, f"240: player {pid} has two different byes in round {rnd}", InconsistentData
                )
            entered[pid] = kind

    def _accel_xxa(self, number: int, line: str) -> None:
        pid, values = _fixed_or_tokens(lambda: _fields_xxa_fixed(line), lambda: _fields_xxa_tokens(line))
        self._ref(pid, number, ID_COLS[0], "XXA")
        self.acceleration.append((range(pid, pid + 1), 1, tuple(values)))

    def _accel_250(self, number: int, line: str) -> None:
        points, first_round, last_round, first_id, last_id = _fixed_or_tokens(
            lambda: _fields_250_fixed(line), lambda: _fields_250_tokens(line)
        )
        if first_round < 1 or last_round < first_round:
            raise _FieldError(15, f"250: bad round range {first_round}..{last_round}")
        if first_id < 1 or last_id < first_id:
            raise _FieldError(23, f"250: bad player range {first_id}..{last_id}")
        self.id_refs.append((first_id, number, 23, "250", False))  # a range: warn, don't fail
        self.id_refs.append((last_id, number, 28, "250", False))
        values = (points,) * (last_round - first_round + 1)
        self.acceleration.append((range(first_id, last_id + 1), first_round, values))

    _HANDLERS: ClassVar[dict[str, Callable[[_Reader, int, str], None]]] = {}

    # -- the whole file -----------------------------------------------------------------

    def finish(self) -> Tournament:
        if not self.players:
            raise TrfError("no player records (001) found: is this a TRF file?", file=self.source,
                           line=max(1, len(self.lines)), column=1)
        by_id = {p.id: p for p in self.players}
        self._check_refs(by_id)
        _check_games(self, by_id)
        scoring = self._build_scoring()
        acceleration = _expand_acceleration(self.acceleration, sorted(by_id))
        t = Tournament(
            players=tuple(self.players),
            name=self.name or "",
            total_rounds=self.total_rounds[0] if self.total_rounds else None,
            initial_colour=self.initial_colour[0] if self.initial_colour else None,
            scoring=scoring,
            forbidden=tuple(self.forbidden),
            acceleration=acceleration,
            byes={r: dict(sorted(m.items())) for r, m in sorted(self.byes.items())},
            absent_next=tuple(self.absent_next),
            rank_mode=self.rank_mode,
            edition_hint=self.hint_192 or self.hint_092,
            dialect=_dialect(self.codes),
            header_lines=tuple(self.header),
            source=self.source,
        )
        t = _legacy_pab(t)
        self._check_rounds(t)
        self._check_points(t)
        return dataclasses.replace(t, warnings=tuple(self.warnings))

    def _check_refs(self, by_id: dict[int, Player]) -> None:
        for pid, number, col, record, must_exist in self.id_refs:
            if pid in by_id:
                continue
            if must_exist:
                raise self.error(number, col, f"{record}: player {pid} is not in the file", InconsistentData)
            self.warn(number, col, f"{record}: player {pid} is not in the file")

    def _build_scoring(self) -> Scoring:
        s = self.scoring
        for name, value in s.black.items():
            if s.values[name] != value:
                raise self.error(
                    s.colour_line or 1, 5,
                    f"XXS: points depending on colour ({name}: white {s.values[name]}, black {value}) "
                    "are not supported",
                )
        return s.build()

    def _check_rounds(self, t: Tournament) -> None:
        if t.total_rounds is not None and t.rounds_played > t.total_rounds:
            number = self.total_rounds[1] if self.total_rounds else 1
            self.warn(number, 5, f"{t.rounds_played} rounds are recorded but the file says {t.total_rounds}")

    def _check_points(self, t: Tournament) -> None:
        """Points (81-84) should equal the results under the scoring; the results decide."""
        played = t.rounds_played
        next_round = played + 1
        accel = {a.player_id: a.points(next_round) for a in t.acceleration}
        for p in t.players:
            if p.declared_points is None:
                continue
            total = player_points(p, t.scoring)
            so_far = player_points(p, t.scoring, upto=played)
            extra = accel.get(p.id, Fraction(0))
            if p.declared_points in {total, so_far, total + extra, so_far + extra}:
                continue
            self.warn(
                self.player_line[p.id], POINTS_COLS[0],
                f"player {p.id}: Points column says {format_points(p.declared_points)}, "
                f"the results give {format_points(total)} (the results are used)",
            )


_Reader._HANDLERS = {
    "001": _Reader._player,
    "012": _Reader._name,
    "092": _Reader._edition_092,
    "142": _Reader._rounds,
    "152": _Reader._colour_152,
    "162": _Reader._scoring_162,
    "192": _Reader._edition_192,
    "240": _Reader._byes_240,
    "250": _Reader._accel_250,
    "260": _Reader._forbidden_260,
    "XXR": _Reader._rounds,
    "XXC": _Reader._xxc,
    "XXS": _Reader._scoring_xxs,
    "XXA": _Reader._accel_xxa,
    "XXP": _Reader._forbidden_xxp,
    "XXZ": _Reader._absent_xxz,
    "BBW": _Reader._scoring_bb,
    "BBD": _Reader._scoring_bb,
    "BBL": _Reader._scoring_bb,
    "BBZ": _Reader._scoring_bb,
    "BBF": _Reader._scoring_bb,
    "BBU": _Reader._scoring_bb,
}


def _legacy_pab(t: Tournament) -> Tournament:
    """Read a TRF06-era pairing-allocated bye (`0000 - +`) as `U`.

    Before TRF16 there were no bye codes: JaVaFo 1.x wrote the bye it allocated as a
    point without opponent, `0000 - +`.  In a file that uses none of the bye codes
    (U, F, H), a round where exactly one player has `0000 - +` gave that player the
    pairing-allocated bye.
    """
    if t.dialect == "trf26" or any(
        e is not None and e.opponent is None and e.result in "UFH" for p in t.players for e in p.rounds
    ):
        return t
    last = max((len(p.rounds) for p in t.players), default=0)
    pab: dict[int, int] = {}  # round -> player
    for rnd in range(1, last + 1):
        who = [p.id for p in t.players if (e := p.entry(rnd)) is not None and e.opponent is None and e.result == "+"]
        if len(who) == 1:
            pab[rnd] = who[0]
    if not pab:
        return t
    players = []
    for p in t.players:
        rounds = list(p.rounds)
        for i, e in enumerate(rounds, start=1):
            if e is not None and pab.get(i) == p.id:
                rounds[i - 1] = dataclasses.replace(e, result="U", colour=None)
        players.append(dataclasses.replace(p, rounds=tuple(rounds)))
    return dataclasses.replace(t, players=tuple(players))


def _dialect(codes: set[str]) -> str:
    if codes & _TRF26_CODES:
        return "trf26"
    if codes & _TRF16X_CODES:
        return "trf16x"
    return "trf16"


def _expand_acceleration(
    records: Sequence[tuple[range, int, tuple[Fraction, ...]]], ids: Sequence[int]
) -> tuple[Acceleration, ...]:
    """Per-player, per-round fictitious points from XXA/250 records (a later record
    overrides an earlier one, as in bbpPairings); trailing zeros carry nothing."""
    by_player: dict[int, dict[int, Fraction]] = {}
    for pids, first_round, values in records:
        for pid in (p for p in ids if p in pids):
            rounds = by_player.setdefault(pid, {})
            for offset, value in enumerate(values):
                rounds[first_round + offset] = value
    out = []
    for pid in sorted(by_player):
        rounds = by_player[pid]
        points = [rounds.get(r, Fraction(0)) for r in range(1, max(rounds) + 1)]
        while points and points[-1] == 0:
            points.pop()
        if points:
            out.append(Acceleration(pid, tuple(points)))
    return tuple(out)


# --- record field readers (fixed columns, with whitespace fallbacks) --------------------


def _pairs_162_fixed(line: str) -> list[tuple[int, str, Fraction]]:
    out = []
    col = 6
    while col <= len(line):
        symbol = _cols(line, col, col)
        points = _cols(line, col + 1, col + 4)
        gap = _cols(line, col + 5, col + 8)
        if symbol.strip() or points.strip():
            if not symbol.strip():
                raise _FieldError(col, "162: missing result symbol")
            out.append((col, symbol, _points_at(points, col + 1, f"162 {symbol}")))
        if gap.strip():
            raise _FieldError(col + 5 + _lead(gap), "162: unexpected text between symbol/points pairs")
        col += 9
    if not out:
        raise _FieldError(6, "162: expected result symbols with points")
    return out


def _pairs_162_tokens(line: str) -> list[tuple[int, str, Fraction]]:
    toks = _tokens(line, 4)
    out = []
    i = 0
    while i < len(toks):
        col, tok = toks[i]
        if len(tok) > 1:
            out.append((col, tok[0], _points_at(tok[1:], col + 1, f"162 {tok[0]}")))
            i += 1
        elif i + 1 < len(toks):
            out.append((col, tok, _points_at(toks[i + 1][1], toks[i + 1][0], f"162 {tok}")))
            i += 2
        else:
            raise _FieldError(col, f"162: symbol {tok!r} without points")
    if not out:
        raise _FieldError(6, "162: expected result symbols with points")
    return out


def _fields_240_fixed(line: str) -> tuple[str, int, list[tuple[int, str]]]:
    kind = _cols(line, 5, 5).upper()
    if kind not in ("F", "H", "Z") or _cols(line, 6, 6).strip() or _cols(line, 10, 10).strip():
        raise _FieldError(5, f"240: expected bye type F, H or Z at column 5, found {kind!r}")
    rnd = _int_at(_cols(line, 7, 9), 7, "240 round", MAX_ROUNDS)
    return kind, rnd, _id_columns(line, 11)


def _fields_240_tokens(line: str) -> tuple[str, int, list[tuple[int, str]]]:
    toks = _tokens(line, 4)
    if len(toks) < 3 or toks[0][1].upper() not in ("F", "H", "Z"):
        raise _FieldError(5, "240: expected TYPE ROUND ID ...")
    return toks[0][1].upper(), _int_at(toks[1][1], toks[1][0], "240 round", MAX_ROUNDS), toks[2:]


def _id_columns(line: str, start: int) -> list[tuple[int, str]]:
    """4-column ids at start, start+5, ... separated by blanks."""
    out = []
    col = start
    while col <= len(line):
        text = _cols(line, col, col + 3)
        sep = _cols(line, col + 4, col + 4)
        if sep.strip():
            raise _FieldError(col + 4, "ids must be 4 columns wide, one blank apart")
        if text.strip():
            out.append((col, text))
        col += 5
    return out


def _fields_260_fixed(line: str) -> tuple[int, int, list[tuple[int, str]]]:
    if _cols(line, 8, 8).strip() or _cols(line, 12, 12).strip():
        raise _FieldError(8, "260: expected rounds at columns 5-7 and 9-11")
    first = _int_at(_cols(line, 5, 7), 5, "260 first round", MAX_ROUNDS)
    last = _int_at(_cols(line, 9, 11), 9, "260 last round", MAX_ROUNDS)
    return first, last, _id_columns(line, 13)


def _fields_260_tokens(line: str) -> tuple[int, int, list[tuple[int, str]]]:
    toks = _tokens(line, 4)
    if len(toks) < 4:
        raise _FieldError(5, "260: expected FIRST-ROUND LAST-ROUND ID ID ...")
    return (_int_at(toks[0][1], toks[0][0], "260 first round", MAX_ROUNDS),
            _int_at(toks[1][1], toks[1][0], "260 last round", MAX_ROUNDS), toks[2:])


def _fields_xxa_fixed(line: str) -> tuple[int, list[Fraction]]:
    if _cols(line, 9, 9).strip():
        raise _FieldError(9, "XXA: expected the player id at columns 5-8")
    pid = _int_at(_cols(line, 5, 8), 5, "XXA player id", MAX_ID)
    values = []
    col = 10
    while col <= len(line):
        text = _cols(line, col, col + 3)
        if _cols(line, col + 4, col + 4).strip():
            raise _FieldError(col + 4, "XXA: values must be 4 columns wide, one blank apart")
        values.append(_points_at(text, col, "XXA points") if text.strip() else Fraction(0))
        col += 5
    return pid, values


def _fields_xxa_tokens(line: str) -> tuple[int, list[Fraction]]:
    toks = _tokens(line, 4)
    if not toks:
        raise _FieldError(5, "XXA: expected a player id")
    pid = _int_at(toks[0][1], toks[0][0], "XXA player id", MAX_ID)
    return pid, [_points_at(t, c, "XXA points") for c, t in toks[1:]]


def _fields_250_fixed(line: str) -> tuple[Fraction, int, int, int, int]:
    for sep in (9, 14, 18, 22, 27):
        if _cols(line, sep, sep).strip():
            raise _FieldError(sep, "250: fields out of their columns")
    if len(line.rstrip()) > 31:
        raise _FieldError(32, "250: unexpected text after the last player id")
    match_points = _cols(line, 5, 8)
    game_points = _cols(line, 10, 13)
    # Game points for individuals; a team file may give match points only.
    if game_points.strip():
        points = _points_at(game_points, 10, "250 fictitious points")
    elif match_points.strip():
        points = _points_at(match_points, 5, "250 fictitious match points")
    else:
        raise _FieldError(10, "250: fictitious points missing")
    return (points,
            _int_at(_cols(line, 15, 17), 15, "250 first round", MAX_ROUNDS),
            _int_at(_cols(line, 19, 21), 19, "250 last round", MAX_ROUNDS),
            _int_at(_cols(line, 23, 26), 23, "250 first player", MAX_ID),
            _int_at(_cols(line, 28, 31), 28, "250 last player", MAX_ID))


def _fields_250_tokens(line: str) -> tuple[Fraction, int, int, int, int]:
    toks = _tokens(line, 4)
    if len(toks) == 6:
        toks = toks[1:]  # match points, then game points
    if len(toks) != 5:
        raise _FieldError(5, "250: expected POINTS FIRST-ROUND LAST-ROUND FIRST-ID LAST-ID")
    (pc, pt), *rest = toks
    limits = (MAX_ROUNDS, MAX_ROUNDS, MAX_ID, MAX_ID)
    ints = [_int_at(t, c, "250 field", limit) for (c, t), limit in zip(rest, limits, strict=True)]
    return _points_at(pt, pc, "250 fictitious points"), ints[0], ints[1], ints[2], ints[3]


# --- 001 records ------------------------------------------------------------------------


def _parse_player(line: str, reader: _Reader, number: int) -> Player:
    pid = _int_at(_cols(line, *ID_COLS), ID_COLS[0], "starting rank")
    if pid < 1:
        raise _FieldError(ID_COLS[0], "starting rank must be at least 1")
    rating_text = _cols(line, *RATING_COLS)
    points_text = _cols(line, *POINTS_COLS)
    rank_text = _cols(line, *RANK_COLS)
    return Player(
        id=pid,
        name=_cols(line, *NAME_COLS).strip(),
        rating=_int_at(rating_text, RATING_COLS[0], "rating") if rating_text.strip() else 0,
        sex=_cols(line, *SEX_COLS).strip(),
        title=_cols(line, *TITLE_COLS).strip(),
        federation=_cols(line, *FEDERATION_COLS).strip(),
        fide_id=_cols(line, *FIDE_ID_COLS).strip(),
        birth_date=_cols(line, *BIRTH_COLS).strip(),
        declared_points=_points_at(points_text, POINTS_COLS[0], "points") if points_text.strip() else None,
        rank=_int_at(rank_text, RANK_COLS[0], "rank") if rank_text.strip() else None,
        rounds=_parse_blocks(line, pid, reader, number),
    )


def _block_col(rnd: int) -> int:
    """Column of round `rnd`'s opponent field."""
    return ROUND1_COL + ROUND_STRIDE * (rnd - 1)


def _parse_blocks(line: str, pid: int, reader: _Reader, number: int) -> tuple[RoundEntry | None, ...]:
    """Round blocks from column 92, 10 columns each; trailing absent rounds dropped."""
    blocks: list[RoundEntry | None] = []
    rnd = 1
    while _block_col(rnd) <= len(line):
        col = _block_col(rnd)
        block = _cols(line, col, col + 9)
        blocks.append(_parse_block(block, col, pid, reader, number, rnd) if block.strip() else None)
        rnd += 1
    while blocks and blocks[-1] is None:
        blocks.pop()
    return tuple(blocks)


def _parse_block(block: str, col: int, pid: int, reader: _Reader, number: int, rnd: int) -> RoundEntry:
    for offset in (4, 6, 8, 9):
        if block[offset] != " ":
            raise _FieldError(col + offset, f"round {rnd}: unexpected {block[offset]!r}; a round block "
                              "is `OOOO C R` (opponent, colour, result) in 10 columns")
    opp_text = block[:4]
    opponent: int | None = None
    if opp_text.strip() and opp_text.strip().strip("0"):
        opponent = _int_at(opp_text, col, f"round {rnd} opponent")
    elif opp_text.strip():
        _int_at(opp_text, col, f"round {rnd} opponent")  # zeros only: reject e.g. "0 0"
    if opponent == pid:
        raise _FieldError(col, f"round {rnd}: player {pid} cannot be their own opponent")
    colour = _parse_colour(block[5], col + 5, rnd)
    result = _parse_result(block[7], col + 7, rnd, opponent)
    if opponent is None and colour is not None:
        reader.warn(number, col + 5, f"round {rnd}: colour {block[5]!r} without an opponent ignored")
        colour = None
    return RoundEntry(opponent, colour, result)


def _parse_colour(char: str, col: int, rnd: int) -> Colour | None:
    low = char.lower()
    if low == "w":
        return Colour.WHITE
    if low == "b":
        return Colour.BLACK
    if char in "- ":
        return None
    raise _FieldError(col, f"round {rnd}: colour must be w, b or -, found {char!r}")


def _parse_result(char: str, col: int, rnd: int, opponent: int | None) -> str:
    if char == " ":
        return PENDING_RESULT if opponent is not None else "Z"
    code = char.upper()
    if len(code) != 1 or code not in RESULT_CODES:
        raise _FieldError(col, f"round {rnd}: unknown result code {char!r} (expected one of + - W D L 1 0 = H F U Z)")
    if opponent is None and code in "=D":
        return "H"  # `0000 - =`: a half-point bye written as a draw (ICU files)
    return code


def _check_games(reader: _Reader, by_id: dict[int, Player]) -> None:
    """Both sides of every scheduled game name each other, with opposite colours and
    complementary results."""
    for a in reader.players:
        number = reader.player_line[a.id]
        for rnd, e in enumerate(a.rounds, start=1):
            if e is None or e.opponent is None:
                continue
            col = _block_col(rnd)
            b = by_id.get(e.opponent)
            if b is None:
                raise reader.error(number, col, f"round {rnd}: opponent {e.opponent} is not in the file",
                                   InconsistentData)
            if e.result in BYE_RESULTS:
                reader.warn(number, col + 7, f"round {rnd}: bye code {e.result!r} with opponent {b.id}")
                continue
            f = b.entry(rnd)
            if f is None or f.opponent != a.id:
                found = "nothing" if f is None else (
                    "no opponent" if f.opponent is None else f"player {f.opponent}")
                raise reader.error(number, col, f"round {rnd}: player {a.id} is paired with {b.id}, but "
                                   f"{b.id}'s round {rnd} names {found}", InconsistentData)
            if e.colour is not None and e.colour is f.colour:
                raise reader.error(number, col + 5, f"round {rnd}: players {a.id} and {b.id} both have "
                                   f"colour {e.colour.value!r}", InconsistentData)
            if (e.result, f.result) not in _COMPLEMENTARY:
                raise reader.error(number, col + 7, f"round {rnd}: result {_show(e.result)} of player {a.id} "
                                   f"does not match {_show(f.result)} of player {b.id}", InconsistentData)
            if e.played and (e.colour is None or f.colour is None) and a.id < b.id:
                reader.warn(number, col + 5, f"round {rnd}: game {a.id}-{b.id} played without colours")


def _show(code: str) -> str:
    return "(blank)" if code == PENDING_RESULT else repr(code)


# --- public reading API -----------------------------------------------------------------


def parse_trf(data: str | bytes, source: str = "<string>") -> Tournament:
    """Parse TRF text (or raw bytes, decoded UTF-8 / UTF-8-BOM / latin-1).

    Raises:
        TrfError: a record is malformed (with its line and column).
        InconsistentData: records contradict each other.
    """
    text, encoding = _decode(data)
    reader = _Reader(source=source)
    reader.lines = _split_lines(text)
    for number, line in enumerate(reader.lines, start=1):
        reader.feed(number, line)
    if encoding == "latin-1":
        reader.warnings.insert(0, f"{source}: not valid UTF-8; read as latin-1")
    return reader.finish()


def read_trf(path: str | Path) -> Tournament:
    """Read a TRF file.

    Raises:
        FileAccessError: the file cannot be opened or read.
        TrfError: see `parse_trf`.
    """
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise FileAccessError(path, exc.strerror or str(exc)) from exc
    return parse_trf(data, source=str(path))


# --- scores -----------------------------------------------------------------------------


def player_points(player: Player, scoring: Scoring, upto: int | None = None) -> Fraction:
    """Points from the player's round blocks (rounds 1..upto, all when None)."""
    rounds = player.rounds if upto is None else player.rounds[:upto]
    return sum((scoring.points(e.outcome) for e in rounds if e is not None), Fraction(0))


# --- writing ----------------------------------------------------------------------------


class _Line:
    """A record being laid out by columns."""

    def __init__(self, code: str) -> None:
        self.chars: list[str] = list(code)

    def put(self, column: int, text: str) -> _Line:
        end = column - 1 + len(text)
        if len(self.chars) < end:
            self.chars.extend(" " * (end - len(self.chars)))
        self.chars[column - 1 : end] = list(text)
        return self

    def __str__(self) -> str:
        return "".join(self.chars).rstrip()


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
    line = _Line("001").put(ID_COLS[0], f"{p.id:>4}")
    line.put(SEX_COLS[0], _fit(p.sex, 1)).put(TITLE_COLS[0], _fit(p.title, 3, right=True))
    line.put(NAME_COLS[0], _fit(p.name, 33))
    line.put(RATING_COLS[0], f"{p.rating:>4}" if p.rating else "    ")
    line.put(FEDERATION_COLS[0], _fit(p.federation, 3)).put(FIDE_ID_COLS[0], _fit(p.fide_id, 11, right=True))
    line.put(BIRTH_COLS[0], _fit(p.birth_date, 10)).put(POINTS_COLS[0], f"{points:>4}")
    line.put(RANK_COLS[0], f"{p.rank:>4}" if p.rank is not None else "    ")
    for rnd, e in enumerate(p.rounds, start=1):
        if e is not None:
            line.put(_block_col(rnd), _block_text(e))
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


def _scoring_fits_bb(s: Scoring) -> bool:
    return s.forfeit_win == s.win and s.fpb == s.win and s.hpb == s.draw


def _scoring_fits_162(s: Scoring) -> bool:
    return s.forfeit_win == s.win and s.fpb == s.win and s.hpb == s.draw and s.zpb == s.forfeit_loss


def _bb_lines(s: Scoring) -> list[str]:
    values = (("BBW", s.win), ("BBD", s.draw), ("BBL", s.loss), ("BBZ", s.zpb),
              ("BBF", s.forfeit_loss), ("BBU", s.pab))
    return [f"{code} {format_points(v):>4}" for code, v in values]


def _xxs_line(s: Scoring) -> str:
    values = (("WW", s.win), ("BW", s.win), ("WD", s.draw), ("BD", s.draw), ("WL", s.loss),
              ("BL", s.loss), ("ZPB", s.zpb), ("HPB", s.hpb), ("FPB", s.fpb), ("PAB", s.pab),
              ("FW", s.forfeit_win), ("FL", s.forfeit_loss))
    return "XXS " + " ".join(f"{code}={format_points(v)}" for code, v in values)


def _line_162(s: Scoring) -> str:
    line = _Line("162")
    pairs = (("W", s.win), ("D", s.draw), ("L", s.loss), ("A", s.zpb), ("P", s.pab))
    for i, (symbol, value) in enumerate(pairs):
        text = format_points(value)
        if len(text) > 4:
            raise LimitExceeded(f"162: points {text} do not fit 4 columns")
        line.put(6 + 9 * i, symbol).put(7 + 9 * i, f"{text:>4}")
    return str(line)


def _chunks(items: Sequence[int], size: int) -> Iterator[Sequence[int]]:
    for i in range(0, len(items), size):
        yield items[i : i + size]


def _lines_240(byes: dict[int, dict[int, str]]) -> list[str]:
    out = []
    for rnd in sorted(byes):
        for kind in "FHZ":
            ids = sorted(pid for pid, code in byes[rnd].items() if code == kind)
            for chunk in _chunks(ids, 20):
                line = _Line("240").put(5, kind).put(7, f"{rnd:>3}")
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
        out.append(str(_Line("250").put(10, f"{text:>4}").put(15, f"{first:>3}").put(19, f"{last:>3}")
                       .put(23, f"{pid:>4}").put(28, f"{runs[j][3]:>4}")))
        i = j + 1
    return out


def _line_xxa(acc: Acceleration) -> str:
    line = _Line("XXA").put(5, f"{acc.player_id:>4}")
    for rnd, value in enumerate(acc.points_by_round, start=1):
        text = format_points(value)
        if len(text) > 4:
            raise LimitExceeded(f"XXA: points {text} do not fit 4 columns")
        line.put(10 + 5 * (rnd - 1), f"{text:>4}")
    return str(line)


def _line_260(fp: ForbiddenPairs) -> str:
    line = _Line("260").put(5, f"{fp.first_round or 1:>3}").put(9, f"{fp.last_round or 999:>3}")
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
            lines.append(_line_162(s))
            if not _scoring_fits_162(s):
                lines.append(_xxs_line(s))
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
            if _scoring_fits_bb(s):
                lines.extend(_bb_lines(s))
            lines.append(_xxs_line(s))
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


# --- JSON -------------------------------------------------------------------------------

JSON_SCHEMA = 1


def _num(value: Fraction) -> float | int:
    return int(value) if value.denominator == 1 else float(value)


def tournament_to_dict(t: Tournament) -> dict[str, Any]:
    """A JSON-ready view of the tournament (stable keys, points as numbers)."""
    scoring = {f.name: _num(getattr(t.scoring, f.name)) for f in dataclasses.fields(Scoring)}
    return {
        "schema": JSON_SCHEMA,
        "name": t.name,
        "dialect": t.dialect,
        "edition_hint": t.edition_hint,
        "total_rounds": t.total_rounds,
        "rounds_played": t.rounds_played,
        "initial_colour": t.initial_colour.name.lower() if t.initial_colour else None,
        "rank_mode": t.rank_mode,
        "scoring": scoring,
        "players": [_player_dict(p, t.scoring) for p in t.players],
        "forbidden": [
            {"ids": list(fp.ids), "first_round": fp.first_round, "last_round": fp.last_round}
            for fp in t.forbidden
        ],
        "acceleration": [
            {"player": a.player_id, "points_by_round": [_num(v) for v in a.points_by_round]}
            for a in t.acceleration
        ],
        "byes": {str(r): {str(pid): code for pid, code in m.items()} for r, m in t.byes.items()},
        "absent_next": list(t.absent_next),
        "header_lines": list(t.header_lines),
        "warnings": list(t.warnings),
    }


def _player_dict(p: Player, scoring: Scoring) -> dict[str, Any]:
    return {
        "id": p.id,
        "name": p.name,
        "rating": p.rating,
        "sex": p.sex,
        "title": p.title,
        "federation": p.federation,
        "fide_id": p.fide_id,
        "birth_date": p.birth_date,
        "declared_points": None if p.declared_points is None else _num(p.declared_points),
        "points": _num(player_points(p, scoring)),
        "rank": p.rank,
        "rounds": [
            None if e is None else {
                "opponent": e.opponent,
                "colour": e.colour.name.lower() if e.colour else None,
                "result": None if e.result == PENDING_RESULT else e.result,
            }
            for e in p.rounds
        ],
    }
