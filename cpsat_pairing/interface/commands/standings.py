"""The `standings` command: the ranking after a round, by points and C.07 tie-breaks."""

from __future__ import annotations

import json
from enum import Enum
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from cpsat_pairing.interface.console import EPILOG, FileArg, app, cli_errors, load_tournament, write_output


class StandingsFormat(str, Enum):
    table = "table"
    json = "json"
    csv = "csv"
    html = "html"


class TieBreakRules(str, Enum):
    y2024 = "2024"
    y2026 = "2026"


@app.command(epilog=EPILOG)
@cli_errors
def standings(
    file: FileArg,
    round: Annotated[int | None, typer.Option("--round", "-r", help="After this round (default: the last played).")] = None,
    tiebreaks: Annotated[str | None, typer.Option(
        "--tiebreaks", "-t", help='Tie-breaks, e.g. "BH/C1 BH SB DE WIN", when the file declares none (202/212); '
        "else BH/C1 BH SB DE WIN (C.07 names no default list).")] = None,
    rules: Annotated[TieBreakRules | None, typer.Option(
        "--tiebreak-rules", help="C.07 text (default: by the start date, 042).")] = None,
    fmt: Annotated[StandingsFormat, typer.Option("--format", "-f", help="Output format.")] = StandingsFormat.table,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write here instead of stdout.")] = None,
) -> None:
    """Rank the players by points and the tie-breaks of FIDE C.07 (2024 or 2026 text)."""
    from cpsat_pairing.apps.standings import standings as compute
    from cpsat_pairing.interface.views.standings import (
        standings_csv,
        standings_dict,
        standings_html,
        standings_table,
    )

    t = load_tournament(file)
    # The file's own list (202, 212) comes first, then --tiebreaks (issue 42's order).
    declared = None if t.tiebreaks or t.standings_order else tiebreaks
    s = compute(t, round=round, tiebreaks=declared, rules=rules.value if rules else None)
    if fmt is StandingsFormat.json:
        write_output(json.dumps(standings_dict(s), indent=2, ensure_ascii=False) + "\n", output)
    elif fmt is StandingsFormat.csv:
        write_output(standings_csv(s), output)
    elif fmt is StandingsFormat.html:
        write_output(standings_html(s, t.name), output)
    else:
        Console(highlight=False, soft_wrap=False).print(standings_table(s))
