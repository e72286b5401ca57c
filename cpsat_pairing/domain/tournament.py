"""Immutable tournament data, as read from a TRF file.

This module holds *recorded facts* only (who played whom, with which colour and result,
which scoring system, which records the file carried).  Everything the pairing rules
derive from those facts (scores, colour preferences, floats, ...) lives in `state.py`,
so that one tournament can be looked at "as of round R" for any R.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from fractions import Fraction
from functools import cached_property, lru_cache
from math import lcm
from types import MappingProxyType


class Colour(str, Enum):
    WHITE = "w"
    BLACK = "b"

    @property
    def opposite(self) -> "Colour":
        return Colour.BLACK if self is Colour.WHITE else Colour.WHITE


# Result codes of TRF16 (case-insensitive on input; stored upper-case, blank as "Z").
PLAYED_RESULTS = frozenset("10=WDL")  # a game was played (W/D/L: played, < 1 move)
FORFEIT_RESULTS = frozenset("+-")  # scheduled game not played
BYE_RESULTS = frozenset("HFUZ")  # no opponent: half/full/pairing-allocated/zero-point bye
# A block without an opponent that marks a player left out of a round: a requested bye
# (H, F, Z) or, as some programs write it, `0000 - -` (zero) and `0000 - +` (a full point).
ABSENCE_RESULTS = frozenset("HFZ+-")
# Not a TRF code: a pairing whose result is not known yet (written as a blank result
# column after an opponent, as engines do when they output the next round's pairing).
PENDING_RESULT = "*"


class Outcome(str, Enum):
    """What a round block scored, in the vocabulary of the scoring systems (XXS/BB*/162)."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"
    FORFEIT_WIN = "forfeit_win"
    FORFEIT_LOSS = "forfeit_loss"
    PAB = "pab"  # pairing-allocated bye (U)
    HPB = "hpb"  # half-point bye (H)
    FPB = "fpb"  # full-point bye (F)
    ZPB = "zpb"  # zero-point bye / absence (Z, blank)
    UNKNOWN = "unknown"  # paired, result not yet known (PENDING_RESULT); scores nothing


_OUTCOME_OF_CODE = {
    "1": Outcome.WIN,
    "W": Outcome.WIN,
    "=": Outcome.DRAW,
    "D": Outcome.DRAW,
    "0": Outcome.LOSS,
    "L": Outcome.LOSS,
    "+": Outcome.FORFEIT_WIN,
    "-": Outcome.FORFEIT_LOSS,
    "U": Outcome.PAB,
    "H": Outcome.HPB,
    "F": Outcome.FPB,
    "Z": Outcome.ZPB,
    PENDING_RESULT: Outcome.UNKNOWN,
}


@dataclass(frozen=True, slots=True)
class RoundEntry:
    """One 10-column round block of a player line.

    `opponent` is the opponent's starting rank (None for a bye or absence), `colour`
    the colour recorded (None for `-`/blank), `result` the upper-case TRF result code
    with blank normalised to "Z" -- except after an opponent, where a blank result
    means "paired, not played yet" and is stored as PENDING_RESULT ("*").
    """

    opponent: int | None
    colour: Colour | None
    result: str

    @property
    def outcome(self) -> Outcome:
        return _OUTCOME_OF_CODE[self.result]

    @property
    def played(self) -> bool:
        """A game over the board: it counts for colours, floats and meetings."""
        return self.opponent is not None and self.result in PLAYED_RESULTS

    @property
    def is_pab(self) -> bool:
        return self.result == "U"


@dataclass(frozen=True, slots=True)
class Player:
    """A `001` record: identity, declared points, and round blocks (None where absent)."""

    id: int  # starting rank (TPN unless `XXC rank` says otherwise)
    name: str
    rating: int = 0
    sex: str = ""
    title: str = ""
    federation: str = ""
    fide_id: str = ""
    birth_date: str = ""
    declared_points: Fraction | None = None
    rank: int | None = None
    rounds: tuple[RoundEntry | None, ...] = ()

    def entry(self, rnd: int) -> RoundEntry | None:
        """The block for round `rnd` (1-based), or None when the line has none."""
        if 1 <= rnd <= len(self.rounds):
            return self.rounds[rnd - 1]
        return None


@dataclass(frozen=True, slots=True)
class Scoring:
    """Points per outcome (TRF-2026 `162`, JaVaFo `XXS`, bbpPairings `BB*`).

    Fractions keep 0.5 steps exact; the pairing rules compare scores for equality.
    """

    win: Fraction = Fraction(1)
    draw: Fraction = Fraction(1, 2)
    loss: Fraction = Fraction(0)
    forfeit_win: Fraction = Fraction(1)
    forfeit_loss: Fraction = Fraction(0)
    pab: Fraction = Fraction(1)
    hpb: Fraction = Fraction(1, 2)
    fpb: Fraction = Fraction(1)
    zpb: Fraction = Fraction(0)

    def points(self, outcome: Outcome) -> Fraction:
        if outcome is Outcome.UNKNOWN:
            return Fraction(0)  # a result not entered yet scores nothing so far
        value: Fraction = getattr(self, outcome.value)
        return value

    @property
    def is_default(self) -> bool:
        return self == Scoring()


@dataclass(frozen=True, slots=True)
class ForbiddenPairs:
    """Players who may not meet one another (`XXP`, or TRF-2026 `260` with rounds)."""

    ids: tuple[int, ...]
    first_round: int | None = None
    last_round: int | None = None

    def applies(self, rnd: int) -> bool:
        lo = self.first_round or 1
        hi = self.last_round or 10**9
        return lo <= rnd <= hi


@dataclass(frozen=True, slots=True)
class Acceleration:
    """Fictitious points added for pairing only (`XXA`, TRF-2026 `250`)."""

    player_id: int
    points_by_round: tuple[Fraction, ...]  # index r-1 → points added when pairing round r

    def points(self, rnd: int) -> Fraction:
        if 1 <= rnd <= len(self.points_by_round):
            return self.points_by_round[rnd - 1]
        return Fraction(0)


@dataclass(frozen=True, slots=True)
class Contradiction:
    """Records of one file that disagree about round `round` (a bye record and a game,
    the two sides of a game): the round cannot be judged or re-paired from them.

    `line` and `column` locate the first record; `message` names both."""

    round: int
    line: int
    column: int
    message: str

    def located(self, source: str) -> str:
        """As a compiler says it: file:line:column: message."""
        return f"{source}:{self.line}:{self.column}: {self.message}"


@dataclass(frozen=True)
class Tournament:
    """A whole tournament file: players in file order plus the tournament records."""

    players: tuple[Player, ...]
    name: str = ""
    total_rounds: int | None = None  # XXR / 142; None when the file does not say
    initial_colour: Colour | None = None  # XXC white1/black1 / 152
    scoring: Scoring = field(default_factory=Scoring)
    forbidden: tuple[ForbiddenPairs, ...] = ()
    acceleration: tuple[Acceleration, ...] = ()
    # Requested byes entered for rounds not yet paired (TRF-2026 `240`): round → {id: code}
    byes: dict[int, dict[int, str]] = field(default_factory=dict)
    # XXZ: players absent from the round to be paired (JaVaFo only)
    absent_next: tuple[int, ...] = ()
    rank_mode: bool = False  # `XXC rank`: pair by position in file, not by id
    edition_hint: str | None = None  # `092` / `192` text naming the rules, if any
    # TRF-2026 `202` (the declared tie-breaks) and `212` (the whole standings order),
    # as canonical C.07 codes; empty when the file declares none.
    tiebreaks: tuple[str, ...] = ()
    standings_order: tuple[str, ...] = ()
    dialect: str = "trf16"  # "trf16", "trf16x" (XX*/BB*), "trf26"
    # Records kept verbatim so that writing a file loses nothing we do not interpret.
    header_lines: tuple[str, ...] = ()
    source: str = ""
    # Non-fatal problems found while reading (e.g. a Points column that disagrees with
    # the results); not part of the data, so not compared.
    warnings: tuple[str, ...] = field(default=(), compare=False)
    # Records that contradict each other, each about one round (also among `warnings`).
    contradictions: tuple[Contradiction, ...] = field(default=(), compare=False)

    def contradictions_in(self, rnd: int) -> tuple[Contradiction, ...]:
        """What the file's records contradict about round `rnd` (empty: nothing)."""
        return tuple(c for c in self.contradictions if c.round == rnd)

    def player(self, pid: int) -> Player:
        return self._by_id[pid]

    @cached_property
    def _by_id(self) -> dict[int, Player]:
        return {p.id: p for p in self.players}

    @cached_property
    def scoring_units(self) -> PointUnits:
        """`point_units` of the scoring, looked up once per tournament."""
        return point_units(self.scoring)

    @cached_property
    def rounds_played(self) -> int:
        """The last round that was paired: someone had an opponent or the PAB in it.

        A later round whose blocks are all unplayed (`0000 - Z`, `-`, `=`, `+`, `H`, `F`)
        is not played: it holds the absences entered for the round to pair (JaVaFo's
        manual, and the clients that write `0000 - -` for players left out)."""
        last = 0
        for p in self.players:
            for i in range(len(p.rounds), last, -1):
                e = p.rounds[i - 1]
                if e is not None and (e.opponent is not None or e.result == "U"):
                    last = i
                    break
        return last

    @property
    def next_pairable_round(self) -> int:
        """The last round that can be paired now: the one after the last paired, or after
        a run of rounds that every player's record shows as held without a game (each
        has a block in it, none an opponent or the PAB: everyone was absent, e.g. all
        late entries).  A round where only some players have blocks is still the round
        to pair: those are the absences entered for it."""
        nxt = self.rounds_played + 1
        while self.players and all(len(p.rounds) >= nxt and p.rounds[nxt - 1] is not None for p in self.players):
            nxt += 1
        return nxt

    @property
    def team_system(self) -> str | None:
        """The team system the file names, when it is a team tournament: its `192` code
        (FIDE_TEAM_*) or a `092` text naming a team system, else "310 team records" or
        "013 team records" when only its team records say so (TRF-2026's 310 replaced
        TRF16's 013: a team's name and its members' start numbers); None for an
        individual tournament."""
        for code in ("192", "092"):
            text = self._record(code)
            if text is not None and _TEAM.search(text.upper()):
                return f"{text} in its {code} record"
        for code in ("310", "013"):
            if any(line[:4] == f"{code} " for line in self.header_lines):
                return f"{code} team records"
        return None

    @property
    def start_date(self) -> str | None:
        """The `042` start date as written (formats vary: see dutch.edition.parse_date)."""
        return self._record("042")

    @property
    def round_dates(self) -> tuple[str, ...]:
        """The `132` round dates as written, round 1 first (blank where none)."""
        text = self._record("132", strip=False)
        if text is None:
            return ()
        return tuple(text[i : i + 8].strip() for i in range(91, len(text), 10))

    def _record(self, code: str, strip: bool = True) -> str | None:
        for line in self.header_lines:
            if line[:3] == code and line[3:4] in ("", " "):
                value = line[4:].strip() if strip else line
                return value or None
        return None


# "TEAM" as a word of its own (FIDE_TEAM_BAKU, FIDE-TEAM-BAKU, Team Swiss; not "Teams").
_TEAM = re.compile(r"(?<![A-Z])TEAM(?![A-Z])")


PointUnits = tuple[int, Mapping[Outcome, int]]


@lru_cache(maxsize=64)
def point_units(scoring: Scoring, extra: tuple[Fraction, ...] = ()) -> PointUnits:
    """A unit of points in which every outcome's points (and each of `extra`) is a whole
    number, and each outcome's points in it: sums of scores are then integer sums,
    which every round's state and every Points check make many of.  (Cached: hashing a
    Scoring costs more than a player's sum, so a loop over players looks it up once.)"""
    values = {o: scoring.points(o) for o in Outcome}
    unit = lcm(*(Fraction(v).denominator for v in (*values.values(), *extra)))
    return unit, MappingProxyType({o: int(v * unit) for o, v in values.items()})


def _in_units(blocks: Iterable[RoundEntry | None], per_outcome: Mapping[Outcome, int]) -> int:
    """The points of `blocks`, in whole units of the scoring's unit."""
    return sum(per_outcome[e.outcome] for e in blocks if e is not None)


def _points(player: Player, units: PointUnits, upto: int | None) -> Fraction:
    unit, per_outcome = units
    return Fraction(_in_units(player.rounds if upto is None else player.rounds[:upto], per_outcome), unit)


def player_points(player: Player, scoring: Scoring, upto: int | None = None) -> Fraction:
    """Points from the player's round blocks (rounds 1..upto, all when None)."""
    return _points(player, point_units(scoring), upto)


def declared_points_agree(t: Tournament, p: Player) -> bool:
    """The Points column (81-84) agrees with the results: the total, the total before an
    appended round not played yet, either with the next round's acceleration (programs
    write all four).  True when the column is blank."""
    if p.declared_points is None:
        return True
    played = t.rounds_played
    unit, per_outcome = t.scoring_units
    # In whole units (a file's every line is read through here): a Points column that
    # is no whole number of them agrees with no sum of results.
    so_far = _in_units(p.rounds[:played], per_outcome)
    total = so_far + _in_units(p.rounds[played:], per_outcome)
    declared = p.declared_points * unit
    if declared == total or declared == so_far:
        return True
    if not t.acceleration:
        return False
    extra = next((a.points(played + 1) for a in t.acceleration if a.player_id == p.id), Fraction(0)) * unit
    return declared - extra in (total, so_far)


def history(t: Tournament, rnd: int) -> Tournament:
    """The tournament as it stood before round `rnd` was paired.

    Rounds after `rnd` are dropped; round `rnd` keeps only entries that are not
    pairings (pre-entered absences and requested byes), as an arbiter's file would.
    """
    players = []
    for p in t.players:
        kept = list(p.rounds[: rnd - 1])
        e = p.entry(rnd)
        if e is not None and e.opponent is None and e.result in ABSENCE_RESULTS:
            kept += [None] * (rnd - 1 - len(kept)) + [e]
        players.append(replace(p, rounds=tuple(kept)))
    return replace(t, players=tuple(players))


def by_position(t: Tournament) -> tuple[Tournament, dict[int, int]]:
    """`XXC rank`: the tournament with each player numbered by his line's position in
    the file (JaVaFo's positional id, which then serves as TPN), every reference to a
    player renumbered alike; and the map back from position to the file's id."""
    position = {p.id: i for i, p in enumerate(t.players, start=1)}

    def entry(e: RoundEntry | None) -> RoundEntry | None:
        if e is None or e.opponent is None or e.opponent not in position:
            return e
        return replace(e, opponent=position[e.opponent])

    players = tuple(replace(p, id=position[p.id], rounds=tuple(entry(e) for e in p.rounds)) for p in t.players)
    renumbered = replace(
        t,
        players=players,
        forbidden=tuple(replace(f, ids=tuple(position[i] for i in f.ids if i in position)) for f in t.forbidden),
        acceleration=tuple(replace(a, player_id=position[a.player_id]) for a in t.acceleration
                           if a.player_id in position),
        byes={r: {position[i]: code for i, code in m.items() if i in position} for r, m in t.byes.items()},
        absent_next=tuple(position[i] for i in t.absent_next if i in position),
        rank_mode=False,
    )
    return renumbered, {i: pid for pid, i in position.items()}
