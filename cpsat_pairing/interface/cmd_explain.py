"""`explain`: a round in the rules' terms, and why two players were not paired."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console

from cpsat_pairing.errors import ExitCode
from cpsat_pairing.interface.console import (
    EPILOG,
    FileArg,
    TableOrJson,
    app,
    check_edition,
    cli_errors,
    edition_option,
    fail,
    file_edition,
    load_tournament,
)

# --- pair ------------------------------------------------------------------------------
from cpsat_pairing.interface.cmd_pair import explanation


EXPLAIN_HELP = (
    "Explain a pairing from the solver's trace: per bracket the residents, MDPs, M0, MaxPairs, M1, S1, S2, "
    "Limbo, downfloaters and every non-zero tier; per board the Art. 5.2 colour rule.\n\n"
    "With --why-not A B: the first criterion that gets worse when A-B is forced, or the absolute "
    "criterion that forbids it."
)


@app.command(
    "explain",
    epilog=EPILOG,
    help=EXPLAIN_HELP,
    short_help="Explain a round: brackets, tiers, colour rules; --why-not A B.",
)
@cli_errors
def explain_command(
    file: FileArg,
    edition: Annotated[str | None, edition_option()] = None,
    rnd: Annotated[
        int | None, typer.Option("--round", "-r", help="Explain round R (re-paired from rounds 1..R-1).")
    ] = None,
    fmt: Annotated[TableOrJson, typer.Option("--format", "-f", help="table or json.", case_sensitive=False)] = (
        TableOrJson.table
    ),
    why_not: Annotated[
        tuple[int, int] | None,
        typer.Option("--why-not", metavar="A B", help="Why are A and B not paired? Force A-B and compare."),
    ] = None,
) -> None:
    """Explain one round (see EXPLAIN_HELP)."""
    from cpsat_pairing.apps.explain import why_not as why_not_pairing
    from cpsat_pairing.dutch.rounds import pair as engine_pair
    from cpsat_pairing.interface.explain_view import why_not_json, why_not_renderable

    t = load_tournament(file)
    edition = file_edition(t, edition).name
    check_edition(edition)
    if rnd is not None and rnd < 1:
        fail(f"{file}: --round must be at least 1", ExitCode.INVALID_INPUT)
    if rnd is None:
        if t.total_rounds is not None and t.rounds_played >= t.total_rounds:
            fail(f"{file}: all {t.total_rounds} rounds are paired (use --round to explain one)", ExitCode.INVALID_INPUT)
        rnd = t.rounds_played + 1
    if why_not is not None:
        a, b = why_not
        ids = {p.id for p in t.players}
        unknown = [x for x in (a, b) if x not in ids]
        if unknown or a == b:
            fail(f"{file}: --why-not needs two different players of the file"
                 + (f" (no player {', '.join(map(str, unknown))})" if unknown else ""), ExitCode.INVALID_INPUT)
        answer = why_not_pairing(t, rnd, a, b, edition)
        if fmt is TableOrJson.json:
            typer.echo(json.dumps(why_not_json(answer), indent=2, ensure_ascii=False))
        else:
            Console(highlight=False).print(why_not_renderable(answer))
        return
    data, renderable = explanation(t, engine_pair(t, rnd, edition), edition)
    if fmt is TableOrJson.json:
        typer.echo(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        Console(highlight=False).print(renderable)
