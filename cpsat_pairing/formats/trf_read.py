"""Read Tournament Report Files: FIDE TRF16 (C.04 Annex-2), the pairing-engine
extensions (JaVaFo `XX*`, bbpPairings `BB*`) and TRF-2026 (C.02.03 Annexure A).

Fixed-column parsing as the specification defines it (columns 1-based, inclusive), with
leniency for what real files do: blank opponent fields on byes, `0000 - =` half-point
byes, lines that stop early (withdrawals), ratings left blank, UTF-8 / UTF-8-BOM /
latin-1 text and LF / CRLF / CR line ends. Every problem that makes the data unusable
raises `InputError` with file, line and column; problems that do not (a Points column
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
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import ClassVar

from cpsat_pairing.domain.tournament import (
    BYE_RESULTS, PENDING_RESULT, Acceleration, Colour, Contradiction, ForbiddenPairs, Player,
    RoundEntry, Scoring, Tournament, declared_points_agree, player_points,
)
from cpsat_pairing.errors import FileAccessError, InconsistentData, InputError
from cpsat_pairing.formats.fields import (
    FieldError, decode, fields_240_fixed, fields_240_tokens, fields_250_fixed, fields_250_tokens,
    fields_260_fixed, fields_260_tokens, fields_xxa_fixed, fields_xxa_tokens, fixed_or_tokens, int_at,
    pairs_162_fixed, pairs_162_tokens, points_at, split_lines, tokens,
)
from cpsat_pairing.formats.layout import (
    COMPLEMENTARY, ID_COLS, MAX_ID, MAX_ROUNDS, POINTS_COLS, TRF16X_CODES, TRF26_CODES, block_col, format_points,
)
from cpsat_pairing.formats.players import parse_player, writes_bye_code
from cpsat_pairing.formats.scoring import BB_FIELDS, FIELDS_162, XXS_FIELDS, XXS_ONE_COLOUR, ScoringBuilder

__all__ = ["parse_trf", "read_trf"]


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
    scoring: ScoringBuilder = field(default_factory=ScoringBuilder)
    forbidden: list[ForbiddenPairs] = field(default_factory=list)
    # (ids, first round, per-round points) in file order; expanded in `finish`
    acceleration: list[tuple[range, int, tuple[Fraction, ...]]] = field(default_factory=list)
    accel_rounds: list[tuple[int, int, int]] = field(default_factory=list)  # (first, last round, line)
    byes: dict[int, dict[int, str]] = field(default_factory=dict)
    bye_at: dict[tuple[int, int], tuple[int, int]] = field(default_factory=dict)  # (round, id) -> (line, column)
    absent_next: list[int] = field(default_factory=list)
    rank_mode: bool = False
    hint_092: str | None = None
    hint_192: str | None = None
    tiebreaks_202: tuple[str, ...] = ()
    standings_212: tuple[str, ...] = ()
    codes: set[str] = field(default_factory=set)
    bye_codes: bool = False  # some player line writes `0000 - U/F/H` (not the older `=`)
    warnings: list[str] = field(default_factory=list)
    contradictions: list[Contradiction] = field(default_factory=list)
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
        except FieldError as exc:
            raise InputError(exc.message, file=self.source, line=number, column=exc.column, text=line) from None

    def error(self, number: int, column: int, message: str, cls: type[InputError] = InputError) -> InputError:
        text = self.lines[number - 1] if 0 < number <= len(self.lines) else None
        return cls(message, file=self.source, line=number, column=column, text=text)

    def warn(self, number: int, column: int, message: str) -> None:
        self.warnings.append(f"{self.source}:{number}:{column}: {message}")

    def contradict(self, rnd: int, number: int, column: int, message: str) -> None:
        """Records that disagree about round `rnd`: a warning, and that round refused."""
        self.warn(number, column, message)
        self.contradictions.append(Contradiction(rnd, number, column, message))

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

    def _tiebreak_list(self, number: int, line: str) -> tuple[str, ...]:
        """`202` (the tie-breaks) and `212` (the whole standings order): C.07 codes."""
        from cpsat_pairing.formats.tiebreak_codes import parse_tiebreaks  # files with 202/212 only

        self.header.append(line)
        found = parse_tiebreaks(line[4:], file=self.source, line=number, column=5, line_text=line)
        return tuple(tb.code for tb in found)

    def _tiebreaks_202(self, number: int, line: str) -> None:
        self.tiebreaks_202 = self._tiebreak_list(number, line)

    def _standings_212(self, number: int, line: str) -> None:
        self.standings_212 = self._tiebreak_list(number, line)

    def _rounds(self, number: int, line: str) -> None:
        toks = tokens(line, 4)
        if len(toks) != 1:
            raise FieldError(5, f"number of rounds: expected one number, found {line[3:].strip()!r}")
        col, text = toks[0]
        value = int_at(text, col, "number of rounds", MAX_ROUNDS)
        if value < 1:
            raise FieldError(col, "number of rounds must be at least 1")
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
        toks = tokens(line, 4)
        if len(toks) != 1 or toks[0][1].upper() not in ("W", "B"):
            raise FieldError(5, f"initial colour: expected W or B, found {line[3:].strip()!r}")
        col, text = toks[0]
        self._set_colour(number, col, Colour.WHITE if text.upper() == "W" else Colour.BLACK)

    def _xxc(self, number: int, line: str) -> None:
        for col, tok in tokens(line, 4):
            low = tok.lower()
            if low == "rank":
                self.rank_mode = True
            elif low in ("white1", "black1"):
                self._set_colour(number, col, Colour.WHITE if low == "white1" else Colour.BLACK)
            else:
                self.warn(number, col, f"XXC option {tok!r} ignored (known: rank, white1, black1)")

    # -- scoring ------------------------------------------------------------------------

    def _scoring_162(self, number: int, line: str) -> None:
        pairs = fixed_or_tokens(lambda: pairs_162_fixed(line), lambda: pairs_162_tokens(line))
        for col, symbol, value in pairs:
            sym = symbol.upper()
            if sym == "W":
                self.scoring.set_win(value, with_pab=True)
            elif sym == "P":
                self.scoring.set_pab(value)
            elif sym in FIELDS_162:
                self.scoring.set(FIELDS_162[sym], value)
            elif sym != "X":  # X: unknown result (adjourned); nothing scores it here
                raise FieldError(col, f"scoring symbol {symbol!r}: expected W, D, L, A, P or X")

    def _scoring_xxs(self, number: int, line: str) -> None:
        for col, tok in tokens(line, 4):
            code, sep, text = tok.partition("=")
            code = code.upper()
            if not sep or (code not in XXS_FIELDS and code not in XXS_ONE_COLOUR):
                raise FieldError(col, f"XXS: expected CODE=VALUE with a JaVaFo code, found {tok!r}")
            value = points_at(text, col + len(code) + 1, f"XXS {code}")
            if code == "PAB":
                self.scoring.set_pab(value)
            elif code in XXS_ONE_COLOUR:
                side, name = XXS_ONE_COLOUR[code]
                getattr(self.scoring, side)[name] = value
                self.scoring.colour_line = number
            else:
                self.scoring.set(XXS_FIELDS[code], value)

    def _scoring_bb(self, number: int, line: str) -> None:
        code = line[:3].upper()
        toks = tokens(line, 4)
        if len(toks) != 1:
            raise FieldError(5, f"{code}: expected one value like 1.0, found {line[3:].strip()!r}")
        col, text = toks[0]
        value = points_at(text, col, code)
        if code == "BBW":
            self.scoring.set_win(value, with_pab=True)
        elif code == "BBU":
            self.scoring.set_pab(value)
        else:
            self.scoring.set(BB_FIELDS[code], value)

    # -- player records -----------------------------------------------------------------

    def _player(self, number: int, line: str) -> None:
        player = parse_player(line, number, self.warn)
        if player.id in self.player_line:
            raise self.error(
                number, ID_COLS[0],
                f"duplicate starting rank {player.id} (first on line {self.player_line[player.id]})",
                InconsistentData,
            )
        self.player_line[player.id] = number
        self.players.append(player)
        self.bye_codes = self.bye_codes or writes_bye_code(line)

    # -- engine instructions ------------------------------------------------------------

    def _ref(self, pid: int, number: int, col: int, record: str) -> int:
        if pid < 1:
            raise FieldError(col, f"{record}: player id must be at least 1")
        self.id_refs.append((pid, number, col, record, True))
        return pid

    def _ids(self, toks: Sequence[tuple[int, str]], number: int, record: str) -> list[int]:
        return [self._ref(int_at(t, c, f"{record} player id", MAX_ID), number, c, record) for c, t in toks]

    def _forbidden_xxp(self, number: int, line: str) -> None:
        ids = self._ids(tokens(line, 4), number, "XXP")
        if len(ids) < 2:
            raise FieldError(5, "XXP: expected at least two player ids")
        self.forbidden.append(ForbiddenPairs(tuple(ids)))

    def _forbidden_260(self, number: int, line: str) -> None:
        first, last, toks = fixed_or_tokens(lambda: fields_260_fixed(line), lambda: fields_260_tokens(line))
        ids = self._ids(toks, number, "260")
        if len(ids) < 2:
            raise FieldError(13, "260: expected at least two player ids")
        if first < 1 or last < first:
            raise FieldError(5, f"260: bad round range {first}..{last}")
        self.forbidden.append(ForbiddenPairs(tuple(ids), first, last))

    def _absent_xxz(self, number: int, line: str) -> None:
        for pid in self._ids(tokens(line, 4), number, "XXZ"):
            if pid not in self.absent_next:
                self.absent_next.append(pid)

    def _byes_240(self, number: int, line: str) -> None:
        kind, rnd, toks = fixed_or_tokens(lambda: fields_240_fixed(line), lambda: fields_240_tokens(line))
        if rnd < 1:
            raise FieldError(7, "240: round must be at least 1")
        ids = self._ids(toks, number, "240")
        if not ids:
            raise FieldError(11, "240: expected at least one player id")
        entered = self.byes.setdefault(rnd, {})
        for (col, _), pid in zip(toks, ids, strict=True):
            if entered.get(pid, kind) != kind:
                raise self.error(
                    number, col, f"240: player {pid} has two different byes in round {rnd}", InconsistentData
                )
            entered[pid] = kind
            self.bye_at.setdefault((rnd, pid), (number, col))

    def _accel_xxa(self, number: int, line: str) -> None:
        pid, values = fixed_or_tokens(lambda: fields_xxa_fixed(line), lambda: fields_xxa_tokens(line))
        if pid < 1:
            raise FieldError(ID_COLS[0], "XXA: player id must be at least 1")
        self.id_refs.append((pid, number, ID_COLS[0], "XXA", False))  # acceleration of nobody: warn
        self.accel_rounds.append((1, len(values), number))
        self.acceleration.append((range(pid, pid + 1), 1, tuple(values)))

    def _accel_250(self, number: int, line: str) -> None:
        points, first_round, last_round, first_id, last_id = fixed_or_tokens(
            lambda: fields_250_fixed(line), lambda: fields_250_tokens(line)
        )
        if first_round < 1 or last_round < first_round:
            raise FieldError(15, f"250: bad round range {first_round}..{last_round}")
        if first_id < 1 or last_id < first_id:
            raise FieldError(23, f"250: bad player range {first_id}..{last_id}")
        self.id_refs.append((first_id, number, 23, "250", False))  # a range: warn, don't fail
        self.id_refs.append((last_id, number, 28, "250", False))
        values = (points,) * (last_round - first_round + 1)
        self.accel_rounds.append((first_round, last_round, number))
        self.acceleration.append((range(first_id, last_id + 1), first_round, values))

    _HANDLERS: ClassVar[dict[str, Callable[[_Reader, int, str], None]]] = {}

    # -- the whole file -----------------------------------------------------------------

    def finish(self) -> Tournament:
        if not self.players:
            raise InputError("no player records (001) found: is this a TRF file?", file=self.source,
                           line=max(1, len(self.lines)), column=1)
        by_id = {p.id: p for p in self.players}
        self._check_refs(by_id)
        self.players = _check_games(self, by_id)
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
            tiebreaks=self.tiebreaks_202,
            standings_order=self.standings_212,
            dialect=_dialect(self.codes),
            header_lines=tuple(self.header),
            source=self.source,
        )
        if not self.bye_codes:
            t = _legacy_pab(t)
        self._check_rounds(t)
        self._check_byes(t)
        self._check_points(t)
        return dataclasses.replace(t, warnings=tuple(self.warnings), contradictions=tuple(self.contradictions))

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
        if t.total_rounds is not None:
            for first, last, number in self.accel_rounds:
                if last > t.total_rounds:
                    self.warn(number, 5, f"acceleration for rounds {first}-{last}, but the tournament has "
                              f"{t.total_rounds} rounds")

    def _check_byes(self, t: Tournament) -> None:
        """A `240` bye for a round in which the player's line records a game or the PAB."""
        for rnd, entered in t.byes.items():
            for pid, kind in entered.items():
                e = t.player(pid).entry(rnd)
                if e is None or (e.opponent is None and e.result != "U"):
                    continue
                number, col = self.bye_at[(rnd, pid)]
                where = f"line {self.player_line[pid]}, column {block_col(rnd)}"
                self.contradict(rnd, number, col, f"round {rnd}: 240 gives player {pid} a bye ({kind}), but "
                                f"his line ({where}) records {_block_text(e)} in that round")

    def _check_points(self, t: Tournament) -> None:
        """Points (81-84) should equal the results under the scoring; the results decide."""
        for p in t.players:
            if declared_points_agree(t, p) or p.declared_points is None:
                continue
            self.warn(
                self.player_line[p.id], POINTS_COLS[0],
                f"player {p.id}: Points column says {format_points(p.declared_points)}, "
                f"the results give {format_points(player_points(p, t.scoring))} (the results are used)",
            )


_Reader._HANDLERS = {
    "001": _Reader._player,
    "012": _Reader._name,
    "092": _Reader._edition_092,
    "142": _Reader._rounds,
    "152": _Reader._colour_152,
    "162": _Reader._scoring_162,
    "192": _Reader._edition_192,
    "202": _Reader._tiebreaks_202,
    "212": _Reader._standings_212,
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
    point without opponent, `0000 - +`, and a half-point bye as a draw, `0000 - =`.  In
    a file that writes none of the bye codes (U, F, H; the caller knows), a round where
    exactly one player has `0000 - +` gave that player the pairing-allocated bye.  Only
    in a round that was paired (someone has an opponent): in the round to pair, `0000 -
    +` is a full-point bye the arbiter entered.
    """
    if t.dialect == "trf26":
        return t
    last = max((len(p.rounds) for p in t.players), default=0)
    pab: dict[int, int] = {}  # round -> player
    for rnd in range(1, last + 1):
        if not any((e := p.entry(rnd)) is not None and e.opponent is not None for p in t.players):
            continue
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
    if codes & TRF26_CODES:
        return "trf26"
    if codes & TRF16X_CODES:
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


def _check_games(reader: _Reader, by_id: dict[int, Player]) -> list[Player]:
    """Both sides of every scheduled game name each other, with opposite colours and
    complementary results.  A disagreement is a contradiction of that round; a block
    naming an opponent who does not name the player back is dropped, so that the other
    rounds see each game once (its round is refused anyway)."""
    dropped: set[tuple[int, int]] = set()  # (player, round)
    for a in reader.players:
        number = reader.player_line[a.id]
        for rnd, e in enumerate(a.rounds, start=1):
            if e is None or e.opponent is None:
                continue
            col = block_col(rnd)
            b = by_id.get(e.opponent)
            if b is None:
                raise reader.error(number, col, f"round {rnd}: opponent {e.opponent} is not in the file",
                                   InconsistentData)
            if e.result in BYE_RESULTS:
                reader.warn(number, col + 7, f"round {rnd}: bye code {e.result!r} with opponent {b.id}")
                continue
            f = b.entry(rnd)
            if f is None or f.opponent != a.id:
                reader.contradict(rnd, number, col, f"round {rnd}: player {a.id} is paired with {b.id}, but "
                                  f"{_other(reader, b, rnd)} "
                                  f"{'is empty' if f is None else 'records ' + _block_text(f)}")
                dropped.add((a.id, rnd))
                continue
            if e.colour is not None and e.colour is f.colour and a.id < b.id:
                reader.contradict(rnd, number, col + 5, f"round {rnd}: players {a.id} and {b.id} both have "
                                  f"colour {e.colour.value!r} ({_other(reader, b, rnd)})")
            if (e.result, f.result) not in COMPLEMENTARY and a.id < b.id:
                reader.contradict(rnd, number, col + 7, f"round {rnd}: result {_show(e.result)} of player {a.id} "
                                  f"does not match {_show(f.result)} of player {b.id} ({_other(reader, b, rnd)})")
            if e.played and (e.colour is None or f.colour is None) and a.id < b.id:
                reader.warn(number, col + 5, f"round {rnd}: game {a.id}-{b.id} played without colours")
    if not dropped:
        return reader.players
    return [dataclasses.replace(p, rounds=tuple(None if (p.id, r) in dropped else e
                                                for r, e in enumerate(p.rounds, start=1)))
            for p in reader.players]


def _other(reader: _Reader, b: Player, rnd: int) -> str:
    """Where a contradiction's other side stands (made only for a message: a file's
    every block is compared)."""
    return f"{b.id}'s round {rnd} (line {reader.player_line[b.id]}, column {block_col(rnd)})"


def _block_text(e: RoundEntry) -> str:
    """A round block as a reader of the file sees it."""
    if e.opponent is None:
        return "the pairing-allocated bye" if e.result == "U" else f"no game ('0000 - {e.result}')"
    return f"a game against {e.opponent}"


def _show(code: str) -> str:
    return "(blank)" if code == PENDING_RESULT else repr(code)


# --- public reading API -----------------------------------------------------------------


def parse_trf(data: str | bytes, source: str = "<string>") -> Tournament:
    """Parse TRF text (or raw bytes, decoded UTF-8 / UTF-8-BOM / latin-1).

    Raises:
        InputError: a record is malformed (with its line and column).
        InconsistentData: records contradict each other.
    """
    text, encoding = decode(data)
    reader = _Reader(source=source)
    reader.lines = split_lines(text)
    for number, line in enumerate(reader.lines, start=1):
        reader.feed(number, line)
    if encoding == "latin-1":
        reader.warnings.insert(0, f"{source}: not valid UTF-8; read as latin-1")
    return reader.finish()


def read_trf(path: str | Path) -> Tournament:
    """Read a TRF file.

    Raises:
        FileAccessError: the file cannot be opened or read.
        InputError: see `parse_trf`.
    """
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise FileAccessError(path, exc.strerror or str(exc)) from exc
    return parse_trf(data, source=str(path))
