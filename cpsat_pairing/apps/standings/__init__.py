"""Standings: points and the tie-breaks of C.07 over a tournament's results.

`standings(t, round=None, tiebreaks=None, rules=None)` ranks the players after a round
(the last one whose results are known by default) by points, then by the tie-breaks:
those asked for, else those the file declares (`202`, or `212` after its points),
else BH/C1 BH SB DE WIN (C.07 names no default list).
The text of C.07 (2024 or 2026) is chosen by the start date unless `rules` says.

The names are imported on first use, so that a `check` of a file whose ranks are not
held to any list loads only `record` (its rounds and the text in force).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cpsat_pairing.lazy import lazy_getattr

if TYPE_CHECKING:
    from cpsat_pairing.apps.standings.compute import DEFAULT_TIEBREAKS, Row, Standings, standings
    from cpsat_pairing.apps.standings.record import Rules
    from cpsat_pairing.apps.standings.tiebreaks import Part, Value

_WHERE = {"DEFAULT_TIEBREAKS": "compute", "Row": "compute", "Standings": "compute", "standings": "compute",
          "Rules": "record", "Part": "tiebreaks", "Value": "tiebreaks"}

__all__ = ["DEFAULT_TIEBREAKS", "Part", "Row", "Rules", "Standings", "Value", "standings"]


__getattr__ = lazy_getattr(__name__, _WHERE, globals())
