"""The commands about a file itself: `info` (what it holds) and `convert` (to another format)."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from cpsat_pairing.domain.tournament import (
    ABSENCE_RESULTS,
    Scoring,
    Tournament,
    player_points,
)
from cpsat_pairing.dutch.boards import read_initial_colour
from cpsat_pairing.dutch.edition import edition_for, team_note
from cpsat_pairing.formats import format_points, tournament_to_dict, write_trf
from cpsat_pairing.interface.console import (
    EPILOG,
    FileArg,
    Target,
    app,
    cli_errors,
    load_tournament,
    write_output,
)


def _points(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"


def _scoring_text(s: Scoring) -> str:
    if s.is_default:
        return "default (win 1, draw 0.5, loss 0)"
    parts = (("win", s.win), ("draw", s.draw), ("loss", s.loss), ("forfeit win", s.forfeit_win),
             ("forfeit loss", s.forfeit_loss), ("PAB", s.pab), ("HPB", s.hpb), ("FPB", s.fpb),
             ("ZPB", s.zpb))
    return ", ".join(f"{name} {_points(v)}" for name, v in parts)


def pre_entered(t: Tournament, rnd: int) -> dict[int, str]:
    """The players left out of round `rnd` before it is paired, with their code: the
    blocks entered in that round (`0000 - Z`, `-`, `=`, `+`, `H`, `F`), TRF-2026 `240`
    byes, JaVaFo's `XXZ` ("Z")."""
    out: dict[int, str] = {}
    for p in t.players:
        e = p.entry(rnd)
        if e is not None and e.opponent is None and e.result in ABSENCE_RESULTS:
            out[p.id] = e.result
    out.update(t.byes.get(rnd, {}))
    out.update({pid: "Z" for pid in t.absent_next if rnd == t.rounds_played + 1})
    return dict(sorted(out.items()))


def info_summary(t: Tournament) -> dict[str, Any]:
    """What `info` reports, as plain data (also its --json output)."""
    played = t.rounds_played
    next_round = played + 1 if t.total_rounds is None or played < t.total_rounds else None
    full = tournament_to_dict(t)
    team = t.team_system
    if team is None:
        choice = edition_for(t)
        edition, reason = choice.name, choice.reason
    else:  # `pair` and `check` refuse it unless --edition asks for the players' individual reading
        edition, reason = None, f"{team_note(team)}; team Swiss pairing (C.04.6) is not implemented"
    colour = read_initial_colour(t)
    return {
        "schema": full["schema"],
        "file": t.source,
        "name": t.name,
        "dialect": t.dialect,
        "edition_hint": t.edition_hint,
        "players": len(t.players),
        "rounds_played": played,
        "total_rounds": t.total_rounds,
        "next_round": next_round,
        "team_system": team,
        "edition": edition,
        "edition_reason": reason,
        "initial_colour": full["initial_colour"],
        "initial_colour_read_off": None if colour is None else {"colour": colour[0].name.lower(), "round": colour[1]},
        "rank_mode": t.rank_mode,
        "scoring": full["scoring"],
        "forbidden_pairs": len(t.forbidden),
        "accelerated_players": len(t.acceleration),
        "requested_byes": sum(len(m) for m in t.byes.values()),
        "absent_next": list(t.absent_next),
        "pre_entered_next": {str(k): v for k, v in pre_entered(t, next_round).items()} if next_round else {},
        "warnings": list(t.warnings),
    }


def _info_table(t: Tournament, summary: dict[str, Any]) -> Table:
    table = Table(title=t.name or summary["file"], show_header=False, title_justify="left")
    table.add_column("field", style="bold")
    table.add_column("value", overflow="fold")
    rows = [
        ("file", summary["file"]),
        ("format", summary["dialect"] + (f"  ({t.edition_hint})" if t.edition_hint else "")),
        ("players", str(summary["players"])),
        ("rounds played", str(summary["rounds_played"])),
        ("total rounds", "not stated" if t.total_rounds is None else str(t.total_rounds)),
        ("next round", "none (finished)" if summary["next_round"] is None else str(summary["next_round"])),
        ("rules", f"{summary['edition']}: {summary['edition_reason']}" if summary["edition"]
         else summary["edition_reason"]),
        ("initial colour", summary["initial_colour"] or _read_off(summary["initial_colour_read_off"])),
        ("scoring", _scoring_text(t.scoring)),
        ("pairing ids", "by rank (XXC rank)" if t.rank_mode else "starting ranks"),
    ]
    optional = (
        ("forbidden pairs", summary["forbidden_pairs"]),
        ("accelerated players", summary["accelerated_players"]),
        ("requested byes", summary["requested_byes"]),
    )
    rows += [(label, str(n)) for label, n in optional if n]
    if summary["pre_entered_next"]:
        codes = summary["pre_entered_next"]
        rows.append((f"left out of round {summary['next_round']}",
                     f"{len(codes)}: " + ", ".join(f"{pid} ({_ABSENCE_NAMES.get(c, c)})" for pid, c in codes.items())))
    rows.append(("warnings", str(len(t.warnings))))
    for label, value in rows:
        table.add_row(label, value, end_section=False)
    return table


_ABSENCE_NAMES = {"Z": "absent", "-": "absent", "H": "half-point bye", "=": "half-point bye",
                  "F": "full-point bye", "+": "full-point bye"}


def _read_off(found: dict[str, Any] | None) -> str:
    if found is None:
        return "not stated (White, unless round 1 shows another)"
    return f"not stated; round {found['round']} shows {found['colour']}"


def _players_table(t: Tournament) -> Table:
    table = Table(title="players", title_justify="left")
    for name, justify in (("id", "right"), ("name", "left"), ("rating", "right"), ("points", "right"),
                          ("rounds", "left")):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for p in t.players:
        history = " ".join(_block_short(e) for e in p.rounds)
        points = format_points(player_points(p, t.scoring))
        table.add_row(str(p.id), p.name, str(p.rating or ""), points, history)
    return table


def _block_short(e: Any) -> str:
    if e is None:
        return "."
    colour = e.colour.value if e.colour else "-"
    opponent = "" if e.opponent is None else str(e.opponent)
    return f"{opponent}{colour}{e.result}"


# --- info --------------------------------------------------------------------------------


@app.command(epilog=EPILOG)
@cli_errors
def info(
    file: FileArg,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
    players: Annotated[bool, typer.Option("--players", help="Also list the players and their rounds.")] = False,
) -> None:
    """Summarise a tournament file: players, rounds, scoring, format, warnings."""
    t = load_tournament(file, show_warnings=False)
    summary = info_summary(t)
    if as_json:
        if players:
            summary["player_list"] = tournament_to_dict(t)["players"]
        typer.echo(json.dumps(summary, indent=2, ensure_ascii=False))
        return
    console = Console(highlight=False, soft_wrap=False)
    console.print(_info_table(t, summary))
    if players:
        console.print(_players_table(t))
    for warning in t.warnings:
        console.print(f"warning: {warning}", markup=False)


# --- convert -----------------------------------------------------------------------------


@app.command(epilog=EPILOG)
@cli_errors
def convert(
    file: FileArg,
    to: Annotated[Target, typer.Option("--to", help="Output format.", case_sensitive=False, show_default=False)],
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write here (atomically) instead of stdout.")
    ] = None,
) -> None:
    """Convert a tournament file to TRF16 (with XX*/BB* records), TRF-2026 or JSON.

    Points are recomputed from the results; records that are not interpreted are kept.
    """
    t = load_tournament(file)
    if to is Target.json:
        text = json.dumps(tournament_to_dict(t), indent=2, ensure_ascii=False) + "\n"
    else:
        text = write_trf(t, to.value)
    write_output(text, output)
