"""`explain`: a round in the rules' terms, and why two players were not paired."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from cpsat_pairing.domain.tournament import Tournament
from cpsat_pairing.errors import ExitCode

# --- pair ------------------------------------------------------------------------------
from cpsat_pairing.interface.commands.pair import explanation
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
    write_output,
)

EXPLAIN_HELP = (
    "Explain a pairing from the solver's trace: per bracket the residents, MDPs, M0, MaxPairs, M1, S1, S2, "
    "Limbo, downfloaters and every non-zero tier; per board the Art. 5.2 colour rule.\n\n"
    "With --player N (or the start of a name; repeatable): that player's round in sentences: the brackets "
    "he went through, his float, his opponent and, for each opponent the rules' order tries before, what "
    "rules it out (already met, colour clash, the round could not be completed, or the first criterion "
    "that gets worse), his colour and the rule that gave it, or why he gets the PAB.\n\n"
    "With --why-not A B: the first criterion that gets worse when A-B is forced, or the absolute "
    "criterion that forbids it.\n\n"
    "--html FILE also writes the round as a page: brackets as bands with S1 and S2, pairs, floaters, "
    "colours and the bye, each player's sentences a click away."
)


@app.command(
    "explain",
    epilog=EPILOG,
    help=EXPLAIN_HELP,
    short_help="Explain a round: brackets, tiers, colour rules; --player N in sentences; --why-not A B; --html.",
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
    player: Annotated[
        list[str] | None,
        typer.Option("--player", "-p", metavar="N|NAME", help="Tell this player's pairing in sentences: bracket, "
                     "float, opponent and why not the ones tried first, colour, bye (repeatable; a number or "
                     "the start of a name)."),
    ] = None,
    html: Annotated[
        Path | None,
        typer.Option("--html", metavar="FILE", help="Also write the round as a self-contained page: brackets, "
                     "S1/S2, pairs, floaters, colours, bye, every player's sentences."),
    ] = None,
    tiebreaks: Annotated[bool, typer.Option(
        "--tiebreaks", help="With --player: the player's points and tie-breaks after the round (default: the "
        "last played): the rounds and opponents that counted, what each unplayed round was worth and why, "
        "what was cut.")] = False,
    codes: Annotated[str | None, typer.Option(
        "--codes", help='With --tiebreaks: these tie-breaks (e.g. "BH/C1 SB") instead of the file\'s or the '
        "default list.")] = None,
    tiebreak_rules: Annotated[str | None, typer.Option(
        "--tiebreak-rules", help="With --tiebreaks: the C.07 text, 2024 or 2026 (default: by the start date).")] = None,
) -> None:
    """Explain one round (see EXPLAIN_HELP)."""
    from cpsat_pairing.apps.explain import why_not as why_not_pairing
    from cpsat_pairing.dutch.rounds import pair as engine_pair
    from cpsat_pairing.interface.views.explain import why_not_json, why_not_renderable

    t = load_tournament(file)
    if tiebreaks:
        _explain_tiebreaks(t, file, player or [], rnd, codes, tiebreak_rules, fmt)
        return
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
    result = engine_pair(t, rnd, edition)
    chosen = [resolve_player(t, text, file) for text in player or []]
    if html is not None:
        from cpsat_pairing.interface.views.round_page import round_page

        write_output(round_page(t, result, edition, frozenset(chosen)), html)
    if chosen:
        from cpsat_pairing.apps.story import story
        from cpsat_pairing.interface.views.story import Names, sentences, story_json

        names = Names(t)
        told = [story(t, rnd, pid, edition, result) for pid in chosen]
        if fmt is TableOrJson.json:
            typer.echo(json.dumps({"round": rnd, "edition": edition, "players": [story_json(s, names) for s in told]},
                                  indent=2, ensure_ascii=False))
        else:
            console = Console(highlight=False, soft_wrap=True)
            for i, s in enumerate(told):
                if i:
                    console.print()
                for line in sentences(s, names):
                    console.print(line, markup=False)
        return
    data, renderable = explanation(t, result, edition)
    if fmt is TableOrJson.json:
        typer.echo(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        Console(highlight=False).print(renderable)


def _explain_tiebreaks(t: Tournament, file: str, players: list[str], rnd: int | None, codes: str | None,
                       rules: str | None, fmt: TableOrJson) -> None:
    from cpsat_pairing.apps.standings import standings
    from cpsat_pairing.interface.views.standings import tiebreak_sentences, tiebreak_story_json

    if not players:
        fail(f"{file}: --tiebreaks needs --player N", ExitCode.INVALID_INPUT)
    chosen = [resolve_player(t, text, file) for text in players]
    s = standings(t, round=rnd, tiebreaks=None if t.tiebreaks or t.standings_order else codes, rules=rules)
    if fmt is TableOrJson.json:
        typer.echo(json.dumps({"round": s.round, "rules": s.rules.value, "tiebreaks": list(s.tiebreaks),
                               "players": [tiebreak_story_json(s, pid) for pid in chosen]},
                              indent=2, ensure_ascii=False))
        return
    names = {p.id: p.name for p in t.players}
    console = Console(highlight=False, soft_wrap=True)
    for i, pid in enumerate(chosen):
        if i:
            console.print()
        for line in tiebreak_sentences(s, pid, names):
            console.print(line, markup=False)


def resolve_player(t: Tournament, text: str, file: str) -> int:
    """A player named on the command line: his number, or the start of his name (one match)."""
    ids = {p.id for p in t.players}
    if text.strip().isdigit():
        pid = int(text)
        if pid not in ids:
            fail(f"{file}: --player {text}: no player {pid}", ExitCode.INVALID_INPUT)
        return pid
    key = text.strip().casefold()
    found = [p for p in t.players if p.name.casefold().startswith(key)]
    if not found:
        found = [p for p in t.players if any(w.startswith(key) for w in p.name.casefold().replace(",", " ").split())]
    if len(found) != 1:
        which = ", ".join(f"{p.id} {p.name}" for p in found[:8]) if found else "none"
        fail(f"{file}: --player {text!r} names {len(found)} players ({which}): give a number or more of the name",
             ExitCode.INVALID_INPUT)
    return found[0].id
