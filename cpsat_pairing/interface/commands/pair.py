"""`pair`: the next round (or round R again), as a table, JSON, a pair list or TRF."""

from __future__ import annotations

import json
import os
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from cpsat_pairing.domain.tournament import Tournament
from cpsat_pairing.errors import ExitCode
from cpsat_pairing.interface.console import (
    EPILOG,
    FileArg,
    app,
    check_edition,
    cli_errors,
    edition_option,
    fail,
    file_edition,
    load_tournament,
    write_output,
)

# --- pair ------------------------------------------------------------------------------


class PairFormat(StrEnum):
    table = "table"
    json = "json"
    bbp = "bbp"
    trf = "trf"


@app.command(epilog=EPILOG)
@cli_errors
def pair(
    file: FileArg,
    edition: Annotated[str | None, edition_option()] = None,
    rnd: Annotated[
        int | None, typer.Option("--round", "-r", help="Re-pair round R from rounds 1..R-1 (absences of R kept).")
    ] = None,
    fmt: Annotated[
        PairFormat | None,
        typer.Option("--format", "-f", help="table (default on a terminal), json, bbp pair list, or trf.", case_sensitive=False),
    ] = None,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write here (atomically).")] = None,
    explain: Annotated[
        bool, typer.Option("--explain", help="Also explain it: brackets, tiers, colour rules (see `explain`).")
    ] = False,
) -> None:
    """Pair the next round (or re-pair round R) by the FIDE Dutch system."""
    from cpsat_pairing.dutch.rounds import pair as engine_pair
    from cpsat_pairing.interface.progress import progress_on_stderr
    from cpsat_pairing.interface.views.render import (
        bbp_pair_list,
        pairing_table,
        pairing_to_dict,
        trf_with_round,
    )

    t = load_tournament(file)
    choice = file_edition(t, edition)
    edition = choice.name
    check_edition(edition)
    if rnd is not None and rnd < 1:
        fail(f"{file}: --round must be at least 1", ExitCode.INVALID_INPUT)
    if rnd is None and t.total_rounds is not None and t.rounds_played >= t.total_rounds:
        fail(f"{file}: all {t.total_rounds} rounds are paired (use --round to re-pair one)", ExitCode.INVALID_INPUT)
    with progress_on_stderr(f"pairing {Path(file).name}") as progress:
        result = engine_pair(t, rnd, edition, progress=progress)
    if fmt is None:
        fmt = PairFormat.table if (output is None and sys.stdout.isatty()) else PairFormat.bbp
    extra = explanation(t, result, edition) if explain else None
    if fmt is PairFormat.table:
        if output is not None:
            console = Console(record=True, width=100, file=open(os.devnull, "w"))
            console.print(pairing_table(t, result))
            if extra is not None:
                console.print(extra[1])
            write_output(console.export_text(), output)
        else:
            Console(highlight=False).print(pairing_table(t, result))
            if extra is not None:
                Console(highlight=False).print(extra[1])
        return
    if extra is not None and fmt is not PairFormat.json:
        Console(stderr=True, highlight=False).print(extra[1])  # keep stdout machine-readable
    if fmt is PairFormat.json:
        data = pairing_to_dict(t, result, choice.reason)
        if extra is not None:
            data["explanation"] = extra[0]
        text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    elif fmt is PairFormat.bbp:
        text = bbp_pair_list(result)
    else:
        text = trf_with_round(t, result, "trf26" if t.dialect == "trf26" else "trf16")
    write_output(text, output)


def explanation(t: Tournament, result: Any, edition: str) -> tuple[dict[str, Any], Any]:
    """`explain`'s data and its rich rendering for a pairing just made."""
    from cpsat_pairing.apps.explain import explain as explain_pairing
    from cpsat_pairing.interface.views.explain import (
        explanation_json,
        explanation_renderable,
    )

    x = explain_pairing(t, result, edition)
    return explanation_json(x), explanation_renderable(x, {p.id: p.name for p in t.players})
