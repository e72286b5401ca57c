"""The standings part of a check report: lines for the terminal, a JSON object, and the
rows the HTML report shows."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rich.table import Table
from rich.text import Text

if TYPE_CHECKING:
    from cpsat_pairing.apps.standings_check import StandingsCheck

__all__ = ["standings_check_json", "standings_check_table", "standings_summary"]


def standings_check_json(sc: StandingsCheck | None) -> dict[str, Any] | None:
    if sc is None:
        return None
    return {"round": sc.round, "rules": sc.rules, "rules_reason": sc.rules_why, "tiebreaks": list(sc.tiebreaks),
            "notes": list(sc.notes),
            "differences": [{"player": d.player, "name": d.name, "what": d.what, "file": d.file_value,
                             "rules": d.rules_value, "rounds": d.rounds} for d in sc.differences]}


def standings_summary(checks: Sequence[StandingsCheck | None]) -> str:
    """"; standings: N differences" for the summary line, or nothing."""
    n = sum(len(sc.differences) for sc in checks if sc is not None)
    return f"; standings: {n} difference{'s' if n != 1 else ''}" if n else ""


def standings_check_table(sc: StandingsCheck) -> Table | Text:
    verdict = f"{len(sc.differences)} difference(s)" if sc.differences else "match"
    if not sc.differences:
        return Text(f"standings after round {sc.round}: match" + "".join(f"; {n}" for n in sc.notes))
    table = Table(title=f"standings after round {sc.round}: {verdict}", title_justify="left",
                  caption="; ".join(sc.notes) or None, caption_justify="left")
    for name in ("player", "what", "file", "rules", "made up of"):
        table.add_column(name, overflow="fold")
    for d in sc.differences:
        table.add_row(f"{d.player} {d.name}", d.what, d.file_value, d.rules_value, d.rounds)
    return table
