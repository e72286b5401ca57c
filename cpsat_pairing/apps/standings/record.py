"""Each player's rounds as the tie-break regulations see them (C.07 Art. 16): what kind
of round it was, what it scored, whether it was a voluntary unplayed round (VUR).

Points are kept as integers in units of 1/`scale` of a point, so that sums over
thousands of players stay fast and exact whatever the scoring system.
"""

from __future__ import annotations

import datetime
import math
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

from cpsat_pairing.domain.tournament import PENDING_RESULT, Colour, Outcome, RoundEntry, Scoring, Tournament
from cpsat_pairing.dutch.edition import parse_date

__all__ = ["Kind", "Record", "RoundFact", "Rules", "build_record", "choose_rules", "last_complete_round"]


class Kind(str, Enum):
    GAME = "game"  # played over the board
    FORFEIT_WIN = "forfeit win"
    FORFEIT_LOSS = "forfeit loss"
    DOUBLE_FORFEIT = "double forfeit"
    PENDING = "result not known"
    PAB = "pairing-allocated bye"
    FPB = "full-point bye"
    HPB = "half-point bye"
    ZPB = "zero-point bye"
    ABSENT = "absent"


class Rules(str, Enum):
    """The two texts of C.07 in use."""

    Y2024 = "2024"  # in force 1 August 2024
    Y2026 = "2026"  # in force 1 March 2026


RULES_2026_FROM = datetime.date(2026, 3, 1)


@dataclass(frozen=True, slots=True)
class RoundFact:
    round: int
    kind: Kind
    opponent: int | None  # the opponent's id, also for a forfeit
    colour: Colour | None
    points: int  # in units
    vur: bool  # voluntary unplayed round (16.2): nothing scored as a win, nothing played
    played: bool  # over the board


@dataclass(frozen=True)
class Record:
    """The facts of rounds 1..`rounds` for every player, in units of 1/`scale`."""

    t: Tournament
    rounds: int
    scale: int
    win: int
    draw: int
    facts: dict[int, tuple[RoundFact, ...]]
    total: dict[int, int]  # points after `rounds`

    def points(self, units: int) -> Fraction:
        return Fraction(units, self.scale)


def _kind(e: RoundEntry | None) -> Kind:
    if e is None:
        return Kind.ABSENT
    if e.opponent is not None:
        if e.played:
            return Kind.GAME
        if e.result == PENDING_RESULT:
            return Kind.PENDING
        return Kind.FORFEIT_WIN if e.result == "+" else Kind.FORFEIT_LOSS
    return {"U": Kind.PAB, "F": Kind.FPB, "+": Kind.FPB, "H": Kind.HPB}.get(e.result, Kind.ZPB)


def build_record(t: Tournament, rounds: int) -> Record:
    s: Scoring = t.scoring
    values = [s.points(o) for o in Outcome if o is not Outcome.UNKNOWN]
    scale = math.lcm(*(v.denominator for v in values), 2)
    win, draw = int(s.win * scale), int(s.draw * scale)
    facts: dict[int, tuple[RoundFact, ...]] = {}
    total: dict[int, int] = {}
    units = {code: int(s.points(RoundEntry(None, None, code).outcome) * scale)
             for code in "10=WDL+-HFUZ" + PENDING_RESULT}
    for p in t.players:
        row = []
        for r in range(1, rounds + 1):
            e = p.entry(r)
            kind = _kind(e)
            if e is None:
                row.append(RoundFact(r, kind, None, None, 0, True, False))
                continue
            pts = units[e.result]
            if kind is Kind.FORFEIT_LOSS and e.opponent is not None:
                opp = t.player(e.opponent).entry(r)
                if opp is not None and opp.result == "-":
                    kind = Kind.DOUBLE_FORFEIT
            played = kind is Kind.GAME
            row.append(RoundFact(r, kind, e.opponent, e.colour if played else None, pts, not played and pts < win,
                                 played))
        facts[p.id] = tuple(row)
        total[p.id] = sum(f.points for f in row)
    return Record(t, rounds, scale, win, draw, facts, total)


def last_complete_round(t: Tournament) -> int:
    """The last round whose results are known (a paired round with every result still
    blank is not played yet)."""
    last = t.rounds_played
    while last > 0 and all(
        (e := p.entry(last)) is None or e.opponent is None or e.result == PENDING_RESULT for p in t.players
    ) and any((e := p.entry(last)) is not None and e.result == PENDING_RESULT for p in t.players):
        last -= 1
    return last


def choose_rules(t: Tournament, override: str | None = None) -> tuple[Rules, str]:
    """The text of C.07 that applies, and why: the override, else the one in force on
    the start date (`042`), else on the first round's date (`132`), else the text in
    force now (a date that reads two ways across 1 March 2026 decides nothing)."""
    if override is not None:
        return Rules(override), f"C.07 text of {override} as asked"
    first_round = next((d for d in t.round_dates if d), None)
    unread = []
    for record, text in (("042", t.start_date), ("132", first_round)):
        if not text:
            continue
        sides = {d >= RULES_2026_FROM for d in parse_date(text, year_first=record == "132")}
        what = "start date" if record == "042" else "first round's date"
        if sides == {True}:
            return Rules.Y2026, f"the {what} {text} ({record}) is on or after 1 March 2026"
        if sides == {False}:
            return Rules.Y2024, (f"the {what} {text} ({record}) is before 1 March 2026: the text in force "
                                 "since 1 August 2024")
        unread.append(f"{what} {text!r} ({record}) " + ("reads two ways" if sides else "not readable"))
    why = "; ".join(unread) if unread else "no start date (042)"
    return Rules.Y2026, f"{why}: the text in force since 1 March 2026"
