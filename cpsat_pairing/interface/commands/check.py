"""`check`: every round of paired files re-paired and compared, locally or on a cluster."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from cpsat_pairing.errors import ExitCode
from cpsat_pairing.interface.console import (
    EPILOG,
    PROG,
    TableOrJson,
    app,
    check_edition,
    cli_errors,
    edition_option,
    fail,
    resolve_file,
    write_output,
)

# --- check -------------------------------------------------------------------------------


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
    edition: Annotated[str | None, edition_option()] = None,
    rounds: Annotated[
        str | None, typer.Option("--rounds", help="Only these rounds, e.g. 3-7 or 2,5,8- (default: all).")
    ] = None,
    fmt: Annotated[TableOrJson, typer.Option("--format", "-f", help="table or json.", case_sensitive=False)] = (
        TableOrJson.table
    ),
    html: Annotated[
        Path | None, typer.Option("--html", help="Also write a self-contained HTML report here.")
    ] = None,
    jobs: Annotated[
        int | None,
        typer.Option("--jobs", "-j", min=1, help="Files checked in parallel, or the rounds of a single file (default: one per CPU core)."),
    ] = None,
    scheduler: Annotated[
        str | None,
        typer.Option("--scheduler", metavar="ADDRESS", help=(
            "Check on a Dask cluster: tcp://HOST:8786 (one task per file; needs the \\[distributed] extra), "
            "or 'local' for a LocalCluster of --jobs worker processes.")),
    ] = None,
) -> None:
    """Check every round of the files (see CHECK_HELP)."""
    from cpsat_pairing.apps.batch import check_files
    from cpsat_pairing.apps.check import exit_code, parse_rounds
    from cpsat_pairing.interface.views.check import (
        file_table,
        summary_line,
        summary_table,
        to_json,
    )

    if edition is not None:
        check_edition(edition)
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
        for note in rep.notes:
            typer.echo(note, err=True)
    if edition is None:
        used = sorted({rep.edition for rep in reports if rep.edition})
        edition = ", ".join(used) if used else "dutch-2026"
    if len(reports) == 1 and reports[0].error:
        fail(reports[0].error, ExitCode(reports[0].exit_code))
    if html is not None:
        from cpsat_pairing.interface.views.report import render

        write_output(render(reports, edition), html)
    if fmt is TableOrJson.json:
        typer.echo(json.dumps(to_json(reports, edition), indent=2, ensure_ascii=False))
    else:
        console = Console(highlight=False)
        for rep in reports:
            if rep.rounds and (len(reports) <= 5 or exit_code([rep]) != 0):
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
            out.append(resolve_file(name))
    return out


def _progress() -> Any:
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

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
