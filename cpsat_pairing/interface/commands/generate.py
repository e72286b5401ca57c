"""`generate`: random tournaments (FIDE's RTG), every round paired by the engine."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from cpsat_pairing.errors import ExitCode, FileAccessError
from cpsat_pairing.interface.console import (
    EPILOG,
    PROG,
    Target,
    app,
    check_edition,
    cli_errors,
    edition_option,
    fail,
    write_output,
)

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
    edition: Annotated[str, edition_option()] = "dutch-2026",
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

    check_edition(edition)
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

    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    from cpsat_pairing.apps.generate import (
        MANIFEST_FIELDS,
        file_name,
        generate_many,
        manifest_row,
    )

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
