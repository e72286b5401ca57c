"""The standings half of `check`: the file's points column (81-84) and ranks (86-89)
recomputed from its results, each difference named with what makes it up.

Ranks are checked against the tie-breaks the file declares (`202`/`212`); a file that
declares none is not held to any list (its rank column may be a pairing order), and
the check says so.  A points column that disagrees with the results is reported player
by player with the points of each round, and the standings are computed from the
results.  TRF records carry no tie-break values, so there are none to recompute.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING
from fractions import Fraction

from cpsat_pairing.apps.standings.record import choose_rules, last_complete_round
from cpsat_pairing.domain.tournament import Tournament, declared_points_agree, player_points
from cpsat_pairing.formats import points_text

if TYPE_CHECKING:
    from cpsat_pairing.apps.standings.compute import Row

__all__ = ["StandingsCheck", "StandingsDifference", "check_standings"]


@dataclass(frozen=True)
class StandingsDifference:
    player: int
    name: str
    what: str  # "points", "rank" or a tie-break code
    file_value: str
    rules_value: str
    rounds: str  # what makes the rules' value up


@dataclass(frozen=True)
class StandingsCheck:
    round: int
    rules: str
    rules_why: str
    tiebreaks: tuple[str, ...]
    differences: tuple[StandingsDifference, ...]
    notes: tuple[str, ...]


def _rounds_text(t: Tournament, pid: int, upto: int) -> str:
    p = t.player(pid)
    parts = []
    for r in range(1, upto + 1):
        e = p.entry(r)
        pts = t.scoring.points(e.outcome) if e is not None else Fraction(0)
        parts.append(f"r{r} {points_text(pts) if e is not None else '-'}")
    return ", ".join(parts)


def _deciding(row: Row) -> str:
    return "; ".join([f"points {row.points.text}",
                      *(f"{code} {v.text}" for code, v in row.tiebreaks.items())])


def check_standings(t: Tournament) -> StandingsCheck | None:
    """None for a file with no round played."""
    last = last_complete_round(t)
    if last == 0:
        return None
    diffs: list[StandingsDifference] = []
    notes: list[str] = []
    wrong_points = [p for p in t.players if not declared_points_agree(t, p)]
    for p in wrong_points:
        assert p.declared_points is not None
        diffs.append(StandingsDifference(p.id, p.name, "points", points_text(p.declared_points),
                                         points_text(player_points(p, t.scoring)), _rounds_text(t, p.id, last)))
    if wrong_points:
        notes.append(f"the points column disagrees with the results for {len(wrong_points)} player(s): "
                     "the standings are computed from the results")
    declared = bool(t.tiebreaks or t.standings_order)
    ranks = {p.id: p.rank for p in t.players if p.rank is not None}
    rules, why = choose_rules(t)
    tiebreaks: tuple[str, ...] = ()
    if not ranks:
        notes.append("the file carries no ranks (86-89)")
    elif not declared:
        notes.append("ranks (86-89) not checked: the file declares no tie-breaks (202/212)")
    elif last < t.rounds_played:
        notes.append(f"ranks not checked: round {t.rounds_played} has no results yet")
    else:
        from cpsat_pairing.apps.standings.compute import standings

        s = standings(t, round=last)
        tiebreaks = s.tiebreaks
        for row in s.rows:
            if row.id in ranks and ranks[row.id] != row.rank:
                diffs.append(StandingsDifference(row.id, row.name, "rank", str(ranks[row.id]), str(row.rank),
                                                 _deciding(row)))
    return StandingsCheck(last, rules.value, why, tiebreaks, tuple(diffs), tuple(notes))
