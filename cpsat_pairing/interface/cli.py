"""The `cpsat-pairing` command line: one typer app, one function per command.

Only this module prints, exits or maps exceptions to exit codes (bbpPairings' table:
0 ok, 1 no valid pairing, 2 unexpected, 3 invalid input, 4 limit, 5 file access).
To add a command, decorate a function with `@app.command()` and `@cli_errors`, and get
its tournament with `load_tournament(path)`.
"""

from __future__ import annotations

import functools
import json
import os
import sys
import tempfile
from collections.abc import Callable
from enum import StrEnum
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any, NoReturn, ParamSpec, TypeVar

import typer
from rich.console import Console
from rich.table import Table

from cpsat_pairing import __version__

from cpsat_pairing import examples
from cpsat_pairing.errors import ExitCode, FileAccessError, PairingError
from cpsat_pairing.domain.tournament import Scoring, Tournament
from cpsat_pairing.formats import format_points, parse_trf, read_trf, tournament_to_dict, write_trf
from cpsat_pairing.domain.tournament import player_points

PROG = "cpsat-pairing"
EXAMPLE_NAME = "example"

EPILOG = (
    "FILE may be the word 'example' (when no such file exists here) to use the bundled "
    "example tournament: 14 players, 8 of 9 rounds played.\n\n"
    "Exit codes: 0 ok · 1 no valid pairing · 2 unexpected error · "
    "3 invalid input · 4 size or time limit · 5 file access · 10 check: a round differs.\n\n"
    f"Examples: {PROG} info example · {PROG} info t.trf --json · "
    f"{PROG} convert t.trf --to trf26 -o t26.trf"
)

app = typer.Typer(
    name=PROG,
    help="FIDE Dutch Swiss pairing engine on OR-Tools CP-SAT, with explanations.",
    epilog=EPILOG,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

_settings = {"debug": False}

P = ParamSpec("P")
R = TypeVar("R")


# --- error handling shared by every command ----------------------------------------------


def fail(message: str, code: ExitCode) -> NoReturn:
    """Print one line on stderr and exit with `code`."""
    typer.echo(message, err=True)
    raise typer.Exit(int(code))


def cli_errors(func: Callable[P, R]) -> Callable[P, R]:
    """Turn domain errors into their exit codes and anything else into exit 2, one line
    on stderr each (a traceback only with --debug)."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except (typer.Exit, typer.Abort, typer.BadParameter):
            raise
        except PairingError as exc:
            fail(str(exc), exc.exit_code)
        except OSError as exc:
            where = f"{exc.filename}: " if exc.filename else ""
            fail(f"{where}{exc.strerror or exc}", ExitCode.FILE_ACCESS)
        except Exception as exc:  # the one place that catches everything
            if _settings["debug"]:
                raise
            first_line = (str(exc).splitlines() or [""])[0]
            fail(f"{PROG}: unexpected error: {type(exc).__name__}: {first_line} "
                 "(run with --debug for the traceback)", ExitCode.UNEXPECTED)

    return wrapper


def load_tournament(path: str | Path, *, show_warnings: bool = True) -> Tournament:
    """Read the tournament named on the command line, or exit with the right code.

    The word `example` (when no such file exists) names the bundled example. Warnings
    go to stderr unless `show_warnings` is false (commands that display them).
    """
    try:
        if str(path) == EXAMPLE_NAME and not Path(path).exists():
            t = parse_trf(examples.read_bytes(), source=examples.EXAMPLE)
        else:
            t = read_trf(path)
    except PairingError as exc:
        fail(str(exc), exc.exit_code)
    if show_warnings:
        for warning in t.warnings:
            typer.echo(f"warning: {warning}", err=True)
    return t


def write_output(text: str, output: Path | None) -> None:
    """Write to stdout, or to `output` through a temporary file renamed into place, so
    a failed run never leaves a truncated or overwritten output."""
    if output is None:
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    directory = output.parent if str(output.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{output.name}.", suffix=".tmp", dir=directory)
    except OSError as exc:
        raise FileAccessError(output, f"cannot write: {exc.strerror or exc}") from exc
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
        os.replace(tmp, output)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise FileAccessError(output, f"cannot write: {exc.strerror or exc}") from exc
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


# --- the app -----------------------------------------------------------------------------


def _version(value: bool) -> None:
    if value:
        typer.echo(f"{PROG} {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version and exit.")
    ] = False,
    debug: Annotated[bool, typer.Option("--debug", help="Show tracebacks of unexpected errors.")] = False,
) -> None:
    """FIDE Dutch Swiss pairing engine on OR-Tools CP-SAT, with explanations."""
    _settings["debug"] = debug


FileArg = Annotated[str, typer.Argument(metavar="FILE", help="A TRF file, or 'example'.", show_default=False)]


# --- info --------------------------------------------------------------------------------


def _points(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"


def _scoring_text(s: Scoring) -> str:
    if s.is_default:
        return "default (win 1, draw 0.5, loss 0)"
    parts = (("win", s.win), ("draw", s.draw), ("loss", s.loss), ("forfeit win", s.forfeit_win),
             ("forfeit loss", s.forfeit_loss), ("PAB", s.pab), ("HPB", s.hpb), ("FPB", s.fpb),
             ("ZPB", s.zpb))
    return ", ".join(f"{name} {_points(v)}" for name, v in parts)


def info_summary(t: Tournament) -> dict[str, Any]:
    """What `info` reports, as plain data (also its --json output)."""
    played = t.rounds_played
    next_round = played + 1 if t.total_rounds is None or played < t.total_rounds else None
    full = tournament_to_dict(t)
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
        "initial_colour": full["initial_colour"],
        "rank_mode": t.rank_mode,
        "scoring": full["scoring"],
        "forbidden_pairs": len(t.forbidden),
        "accelerated_players": len(t.acceleration),
        "requested_byes": sum(len(m) for m in t.byes.values()),
        "absent_next": list(t.absent_next),
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
        ("initial colour", summary["initial_colour"] or "not stated"),
        ("scoring", _scoring_text(t.scoring)),
        ("pairing ids", "by rank (XXC rank)" if t.rank_mode else "starting ranks"),
    ]
    optional = (
        ("forbidden pairs", summary["forbidden_pairs"]),
        ("accelerated players", summary["accelerated_players"]),
        ("requested byes", summary["requested_byes"]),
        ("absent next round", len(t.absent_next)),
    )
    rows += [(label, str(n)) for label, n in optional if n]
    rows.append(("warnings", str(len(t.warnings))))
    for label, value in rows:
        table.add_row(label, value, end_section=False)
    return table


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


class Target(StrEnum):
    trf16 = "trf16"
    trf26 = "trf26"
    json = "json"


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


# --- pair ------------------------------------------------------------------------------


class PairFormat(StrEnum):
    table = "table"
    json = "json"
    bbp = "bbp"
    trf = "trf"


def _edition_option() -> Any:
    return typer.Option(
        "--edition", "-e", show_default=False,
        help="Rule edition: dutch-2026, dutch-2017, dutch-2013 (default: the one the file names, else dutch-2026).",
    )


def _file_edition(t: Tournament, edition: str | None) -> str:
    """--edition, or the edition the file names (`192` code, `092`/`012` text); notes on stderr."""
    from cpsat_pairing.dutch.edition import resolve_edition

    chosen, notes = resolve_edition(edition, t.edition_hint, t.name)
    for note in notes:
        typer.echo(f"{t.source or 'input'}: {note}", err=True)
    return chosen


@app.command(epilog=EPILOG)
@cli_errors
def pair(
    file: FileArg,
    edition: Annotated[str | None, _edition_option()] = None,
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
    from cpsat_pairing.interface.render import bbp_pair_list, pairing_table, pairing_to_dict, trf_with_round
    from cpsat_pairing.interface.progress import progress_on_stderr

    t = load_tournament(file)
    edition = _file_edition(t, edition)
    try:
        from cpsat_pairing.dutch.edition import load_edition

        load_edition(edition)
    except ValueError as exc:
        fail(str(exc), ExitCode.INVALID_INPUT)
    if rnd is not None and rnd < 1:
        fail(f"{file}: --round must be at least 1", ExitCode.INVALID_INPUT)
    if rnd is None and t.total_rounds is not None and t.rounds_played >= t.total_rounds:
        fail(f"{file}: all {t.total_rounds} rounds are paired (use --round to re-pair one)", ExitCode.INVALID_INPUT)
    with progress_on_stderr(f"pairing {Path(file).name}") as progress:
        result = engine_pair(t, rnd, edition, progress=progress)
    if fmt is None:
        fmt = PairFormat.table if (output is None and sys.stdout.isatty()) else PairFormat.bbp
    extra = _explanation(t, result, edition) if explain else None
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
        data = pairing_to_dict(t, result)
        if extra is not None:
            data["explanation"] = extra[0]
        text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    elif fmt is PairFormat.bbp:
        text = bbp_pair_list(result)
    else:
        text = trf_with_round(t, result, "trf26" if t.dialect == "trf26" else "trf16")
    write_output(text, output)


def _explanation(t: Tournament, result: Any, edition: str) -> tuple[dict[str, Any], Any]:
    """`explain`'s data and its rich rendering for a pairing just made."""
    from cpsat_pairing.apps.explain import explain as explain_pairing
    from cpsat_pairing.apps.explain import explanation_renderable

    data = explain_pairing(t, result, edition)
    return data, explanation_renderable(data, {p.id: p.name for p in t.players})


def _check_edition(edition: str) -> None:
    from cpsat_pairing.dutch.edition import load_edition

    try:
        load_edition(edition)
    except ValueError as exc:
        fail(str(exc), ExitCode.INVALID_INPUT)


# --- check -------------------------------------------------------------------------------


class CheckFormat(StrEnum):
    table = "table"
    json = "json"


def _resolve_file(name: str) -> str:
    """The word `example` (when no such file exists) names the bundled example."""
    if name == EXAMPLE_NAME and not Path(name).exists():
        return str(examples.path())
    return name


CHECK_HELP = (
    "Check a paired tournament: re-pair each round from the ones before and compare.\n\n"
    "FILE may be a directory: its *.trf files. Many files are checked in a local process pool (--jobs), or "
    "on a Dask cluster with --scheduler tcp://HOST:8786 (pip install 'cpsat-pairing\\[distributed]'; workers "
    "need the package, not the files: each task carries its file).\n\n"
    "Each round gets a verdict (match, colours differ, pairs differ, illegal, no valid pairing) and, when "
    "it differs, the first criterion on which the file's pairing and the rules' one differ, bracket by "
    "bracket. Exit 0 when every round matches, 10 when any differs, else the error's code "
    "(3 invalid input, 5 file access, ...)."
)


@app.command(epilog=EPILOG, help=CHECK_HELP)
@cli_errors
def check(
    files: Annotated[
        list[str], typer.Argument(metavar="FILE...", help="Paired TRF files, or 'example'.", show_default=False)
    ],
    edition: Annotated[str | None, _edition_option()] = None,
    rounds: Annotated[
        str | None, typer.Option("--rounds", help="Only these rounds, e.g. 3-7 or 2,5,8- (default: all).")
    ] = None,
    fmt: Annotated[CheckFormat, typer.Option("--format", "-f", help="table or json.", case_sensitive=False)] = (
        CheckFormat.table
    ),
    html: Annotated[
        Path | None, typer.Option("--html", help="Also write a self-contained HTML report here.")
    ] = None,
    jobs: Annotated[
        int | None,
        typer.Option("--jobs", "-j", min=1, help="Files checked in parallel (default: one per CPU core)."),
    ] = None,
    scheduler: Annotated[
        str | None,
        typer.Option("--scheduler", metavar="ADDRESS", help=(
            "Check on a Dask cluster: tcp://HOST:8786 (one task per file; needs the \\[distributed] extra), "
            "or 'local' for a LocalCluster of --jobs worker processes.")),
    ] = None,
) -> None:
    """Check every round of the files (see CHECK_HELP)."""
    from cpsat_pairing.apps.check import check_files, exit_code, file_table, parse_rounds, summary_line, summary_table, to_json

    if edition is not None:
        _check_edition(edition)
    try:
        parse_rounds(rounds)
    except ValueError as exc:
        fail(f"--rounds: {exc}", ExitCode.INVALID_INPUT)
    paths = _expand_paths(files)
    if jobs is None:
        jobs = os.cpu_count() or 1
    if scheduler is not None:
        reports = _run_checks_dask(paths, edition, rounds, scheduler, jobs)
    else:
        reports = _run_checks(paths, edition, rounds, jobs, check_files)
    for rep in reports:
        for note in rep.get("notes") or []:
            typer.echo(note, err=True)
    if edition is None:
        used = sorted({rep["edition"] for rep in reports if rep["edition"]})
        edition = ", ".join(used) if used else "dutch-2026"
    if len(reports) == 1 and reports[0]["error"]:
        fail(reports[0]["error"], ExitCode(reports[0]["exit_code"]))
    if html is not None:
        from cpsat_pairing.interface.report_html import render

        write_output(render(reports, edition), html)
    if fmt is CheckFormat.json:
        typer.echo(json.dumps(to_json(reports, edition), indent=2, ensure_ascii=False))
    else:
        console = Console(highlight=False)
        for rep in reports:
            if rep["rounds"] and (len(reports) <= 5 or exit_code([rep]) != 0):
                console.print(file_table(rep))
        if len(reports) > 1:
            console.print(summary_table(reports))
        console.print(summary_line(reports), markup=False)
    raise typer.Exit(exit_code(reports))


def _expand_paths(files: list[str]) -> list[str]:
    """FILE arguments as files: a directory stands for its *.trf files (sorted)."""
    out: list[str] = []
    for name in files:
        path = Path(name)
        if path.is_dir():
            found = sorted(str(f) for f in path.iterdir() if f.suffix.lower() == ".trf" and f.is_file())
            if not found:
                fail(f"{name}: no .trf files in this directory", ExitCode.INVALID_INPUT)
            out += found
        else:
            out.append(_resolve_file(name))
    return out


def _progress() -> Any:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn("checking"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    return Progress(*columns, console=Console(stderr=True), transient=True)


def _run_checks_dask(paths: list[str], edition: str | None, rounds: str | None, scheduler: str, jobs: int) -> list[Any]:
    """Run the checks on a Dask cluster (one task per file), with the same progress bar."""
    from cpsat_pairing.apps import batch as dist

    if not dist.available():
        fail(f"{PROG} check --scheduler: the 'distributed' package is missing; {dist.INSTALL_HINT}",
             ExitCode.INVALID_INPUT)
    try:
        client, cluster = dist.connect(scheduler, workers=jobs)
    except (OSError, ValueError) as exc:
        fail(f"{PROG} check: cannot reach the Dask scheduler at {scheduler}: {type(exc).__name__}: {exc}",
             ExitCode.UNEXPECTED)
    try:
        try:
            warnings = dist.check_workers(client)
        except RuntimeError as exc:
            fail(f"{PROG} check: {exc}", ExitCode.UNEXPECTED)
        for warning in warnings:
            typer.echo(f"warning: {warning}", err=True)
        with _progress() as progress:
            task = progress.add_task("check", total=len(paths))
            return dist.check_files_dask(paths, client, edition, rounds,
                                         on_done=lambda _: progress.advance(task))
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _run_checks(paths: list[str], edition: str | None, rounds: str | None, jobs: int, check_files: Any) -> list[Any]:
    """Run the checks, with a progress bar on stderr when there is more than one file."""
    if len(paths) <= 1:
        return list(check_files(paths, edition, rounds, jobs))
    with _progress() as progress:
        task = progress.add_task("check", total=len(paths))
        return list(check_files(paths, edition, rounds, jobs, on_done=lambda _: progress.advance(task)))


# --- explain -----------------------------------------------------------------------------


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
    edition: Annotated[str | None, _edition_option()] = None,
    rnd: Annotated[
        int | None, typer.Option("--round", "-r", help="Explain round R (re-paired from rounds 1..R-1).")
    ] = None,
    fmt: Annotated[CheckFormat, typer.Option("--format", "-f", help="table or json.", case_sensitive=False)] = (
        CheckFormat.table
    ),
    why_not: Annotated[
        tuple[int, int] | None,
        typer.Option("--why-not", metavar="A B", help="Why are A and B not paired? Force A-B and compare."),
    ] = None,
) -> None:
    """Explain one round (see EXPLAIN_HELP)."""
    from cpsat_pairing.dutch.rounds import pair as engine_pair
    from cpsat_pairing.apps.explain import why_not as why_not_pairing
    from cpsat_pairing.apps.explain import why_not_renderable

    t = load_tournament(file)
    edition = _file_edition(t, edition)
    _check_edition(edition)
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
        data = why_not_pairing(t, rnd, a, b, edition)
        if fmt is CheckFormat.json:
            typer.echo(json.dumps(data, indent=2, ensure_ascii=False))
        else:
            Console(highlight=False).print(why_not_renderable(data))
        return
    data, renderable = _explanation(t, engine_pair(t, rnd, edition), edition)
    if fmt is CheckFormat.json:
        typer.echo(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        Console(highlight=False).print(renderable)


# --- generate ----------------------------------------------------------------------------


GENERATE_HELP = (
    "Generate random tournaments (FIDE's random tournament generator, RTG): every round paired by this "
    "engine, results drawn from the ratings, requested byes, forfeits, late entries and withdrawals at the "
    "given rates.\n\n"
    "The same seed and options give the same bytes on every machine. One tournament: --seed S --output "
    "PATH (stdout without --output). Many: --count K --output-dir DIR writes seeds S..S+K-1 as tSEED.trf "
    "plus manifest.csv. --players and --rounds take N or A-B (drawn per tournament from the seed).\n\n"
    "--profile stress draws each tournament's size and rates from its seed instead (the options above "
    "then have no effect): tiny fields played until no round can be paired, many forfeits and double "
    "forfeits, rounds of many byes, late entries arriving together, withdrawals, dense forbidden pairs, "
    "Baku acceleration. --acceleration baku adds Baku acceleration (C.04.7) as XXA/250 records."
)


class GenProfile(StrEnum):
    standard = "standard"
    stress = "stress"


class Acceleration(StrEnum):
    none = "none"
    baku = "baku"


def _rate_option(name: str, meaning: str) -> Any:
    return typer.Option(f"--{name}", min=0.0, max=1.0, help=f"Probability {meaning}.")


@app.command(epilog=EPILOG, help=GENERATE_HELP, short_help="Generate random tournaments (RTG), each round paired by the engine.")
@cli_errors
def generate(
    seed: Annotated[int, typer.Option("--seed", "-s", min=0, help="Seed of the (first) tournament.")],
    players: Annotated[str, typer.Option("--players", "-n", metavar="N|A-B", help="Number of players.")] = "20-150",
    rounds: Annotated[str, typer.Option("--rounds", "-r", metavar="R|A-B", help="Number of rounds.")] = "5-11",
    edition: Annotated[str, _edition_option()] = "dutch-2026",
    draw_rate: Annotated[float, _rate_option("draw-rate", "of a draw between equal ratings")] = 0.35,
    forfeit_rate: Annotated[float, _rate_option("forfeit-rate", "that a paired game is forfeited")] = 0.02,
    bye_rate: Annotated[float, _rate_option("bye-rate", "that a player requests a bye (H/Z/F) for a round")] = 0.02,
    late_rate: Annotated[float, _rate_option("late-rate", "that a player enters late (absent, Z, first rounds)")] = 0.04,
    withdraw_rate: Annotated[float, _rate_option("withdraw-rate", "that a player withdraws (line stops)")] = 0.03,
    fmt: Annotated[
        Target, typer.Option("--format", "-f", help="trf16 (with XXR/XXC) or trf26 (142/152).", case_sensitive=False)
    ] = Target.trf16,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write the tournament here (atomically).")] = None,
    count: Annotated[int | None, typer.Option("--count", "-k", min=1, help="Generate K tournaments (seeds S..S+K-1).")] = None,
    output_dir: Annotated[Path | None, typer.Option("--output-dir", "-d", help="Directory for --count.")] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, help="Tournaments generated in parallel (--count).")] = 1,
    profile: Annotated[
        GenProfile, typer.Option("--profile", help="standard, or stress (each tournament's own hard cases).",
                                 case_sensitive=False)
    ] = GenProfile.standard,
    acceleration: Annotated[
        Acceleration, typer.Option("--acceleration", help="none, or baku (C.04.7).", case_sensitive=False)
    ] = Acceleration.none,
    config: Annotated[Path | None, typer.Option("--bbp-config", hidden=True)] = None,
) -> None:
    """Generate random tournaments (see GENERATE_HELP)."""
    from cpsat_pairing.apps.generate import MAX_SEED, GenConfig, bbp_config, parse_range

    _check_edition(edition)
    if fmt is Target.json:
        fail("--format: generate writes trf16 or trf26", ExitCode.INVALID_INPUT)
    try:
        cfg = GenConfig(players=parse_range(players, "--players"), rounds=parse_range(rounds, "--rounds"),
                        edition=edition, draw_rate=draw_rate, forfeit_rate=forfeit_rate, bye_rate=bye_rate,
                        late_rate=late_rate, withdraw_rate=withdraw_rate, format=fmt.value, profile=profile.value,
                        acceleration=acceleration.value)
        if config is not None:
            cfg = bbp_config(config.read_text(encoding="utf-8"), cfg)
    except ValueError as exc:
        fail(f"{PROG} generate: {exc}", ExitCode.INVALID_INPUT)
    if count is None:
        if output_dir is not None:
            fail(f"{PROG} generate: --output-dir goes with --count (one tournament: --output)", ExitCode.INVALID_INPUT)
        _generate_one(seed, cfg, output)
        return
    if output_dir is None or output is not None:
        fail(f"{PROG} generate: --count needs --output-dir DIR (and no --output)", ExitCode.INVALID_INPUT)
    if seed + count - 1 > MAX_SEED:
        fail(f"{PROG} generate: seeds must stay below 2^63", ExitCode.INVALID_INPUT)
    _generate_many(seed, count, cfg, output_dir, jobs)


def _generate_one(seed: int, cfg: Any, output: Path | None) -> None:
    from cpsat_pairing.apps.generate import generate as generate_tournament
    from cpsat_pairing.formats import write_trf

    if output is not None and output.is_dir():
        fail(f"{output}: is a directory (use --count K --output-dir DIR for many)", ExitCode.FILE_ACCESS)
    write_output(write_trf(generate_tournament(seed, cfg), cfg.format), output)


def _generate_many(seed: int, count: int, cfg: Any, output_dir: Path, jobs: int) -> None:
    import csv
    import io

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from cpsat_pairing.apps.generate import MANIFEST_FIELDS, file_name, generate_many, manifest_row

    try:
        output_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise FileAccessError(output_dir, f"cannot create directory: {exc.strerror or exc}") from exc
    rows: dict[int, list[Any]] = {}
    failed: list[str] = []
    columns = (TextColumn("generating"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True, disable=count <= 1) as progress:
        task = progress.add_task("generate", total=count)
        for s, text, summ in generate_many(list(range(seed, seed + count)), cfg, jobs):
            progress.advance(task)
            if text is None:
                failed.append(summ["error"])
                continue
            write_output(text, output_dir / file_name(s))
            rows[s] = manifest_row(s, summ)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(MANIFEST_FIELDS)
    writer.writerows(rows[s] for s in sorted(rows))
    write_output(buffer.getvalue(), output_dir / "manifest.csv")
    typer.echo(f"{len(rows)} tournament{'s' if len(rows) != 1 else ''} written to {output_dir}", err=True)
    if failed:
        for message in failed:
            typer.echo(f"{PROG} generate: {message}", err=True)
        raise typer.Exit(int(ExitCode.NO_PAIRING))


def bbp_argv(argv: list[str]) -> list[str] | None:
    """Translate bbpPairings' argv (`--dutch FILE -p [OUT]`, `-c`, `-g [CONFIG] -o OUT -s SEED`)
    to ours, else None."""
    if "--dutch" not in argv:
        return None
    rest = [a for a in argv if a != "--dutch"]
    if "-p" in rest:
        i = rest.index("-p")
        files = [a for a in rest[:i] if not a.startswith("-")]
        out = rest[i + 1 : i + 2]
        args = ["pair", *files, "--format", "bbp"]
        if out:
            args += ["--output", out[0]]
        return args
    if "-c" in rest:
        files = [a for a in rest if not a.startswith("-")]
        return ["check", *files]
    if "-g" in rest:  # the random tournament generator: -g [CONFIG] -o OUT [-s SEED]
        args = ["generate"]
        values = {"-g": None, "-o": None, "-s": None}
        i = 0
        while i < len(rest):
            flag = rest[i]
            if flag in values and i + 1 < len(rest) and not rest[i + 1].startswith("-"):
                values[flag] = rest[i + 1]
                i += 2
                continue
            i += 1
        if values["-g"] is not None:
            args += ["--bbp-config", values["-g"]]
        if values["-o"] is not None:
            args += ["--output", values["-o"]]
        if values["-s"] is None:
            import secrets

            values["-s"] = str(secrets.randbelow(2**32))
            print(f"{PROG}: seed {values['-s']}", file=sys.stderr)
        return args + ["--seed", values["-s"]]
    return None


# --- entry point -------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> NoReturn:
    """Console-script entry point: run the app; usage errors exit 3 (invalid input)."""
    command = typer.main.get_command(app)
    raw = sys.argv[1:] if argv is None else argv
    translated = bbp_argv(raw)
    if translated is not None:
        argv = translated
    try:
        rv = command.main(args=argv, prog_name=PROG, standalone_mode=False)
    except Exception as exc:  # click's usage errors are not public in typer; duck-type them
        show = getattr(exc, "show", None)
        if callable(show) and hasattr(exc, "exit_code"):
            show(file=sys.stderr)
            code = int(getattr(exc, "exit_code", 2))
            sys.exit(int(ExitCode.INVALID_INPUT) if code == 2 else code)
        if isinstance(exc, typer.Abort):
            sys.exit(1)
        if _settings["debug"]:
            raise
        typer.echo(f"{PROG}: unexpected error: {type(exc).__name__}: {exc}", err=True)
        sys.exit(int(ExitCode.UNEXPECTED))
    sys.exit(rv if isinstance(rv, int) else 0)
