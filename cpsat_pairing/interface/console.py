"""What every command shares: the typer app, errors mapped to exit codes, reading the
input and writing the output, the common options.

Only the interface prints, exits or maps exceptions to exit codes (bbpPairings' table:
0 ok, 1 no valid pairing, 2 unexpected, 3 invalid input, 4 limit, 5 file access).
"""

from __future__ import annotations

import functools
import os
import sys
import tempfile
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, NoReturn, ParamSpec, TypeVar

import typer

from cpsat_pairing import examples
from cpsat_pairing.domain.tournament import Tournament
from cpsat_pairing.dutch.boards import initial_colour_note
from cpsat_pairing.dutch.edition import EditionChoice, edition_for
from cpsat_pairing.errors import ExitCode, FileAccessError, NoValidPairing, PairingError
from cpsat_pairing.formats import parse_trf, read_trf
from cpsat_pairing.version import __version__

PROG = "cpsat-pairing"
EXAMPLE_NAME = "example"

EPILOG = (
    "FILE may be the word 'example' (when no such file exists here) to use the bundled "
    "example tournament: 14 players, 8 of 9 rounds played.\n\n"
    "Exit codes: 0 ok · 1 no valid pairing · 2 unexpected error · "
    "3 invalid input · 4 size or time limit · 5 file access · 10 check: a round differs.\n\n"
    f"Examples: {PROG} info example · {PROG} info t.trf --json · "
    f"{PROG} convert t.trf --to trf26 -o t26.trf\n\n"
    f"The other engines' command lines work too, for programs that call them: bbpPairings' "
    f"({PROG} --dutch t.trf -p [OUT] [-l [LIST]], -c, -g) and JaVaFo's ({PROG} t.trf -p [OUT], -c [R], -g)."
)

app = typer.Typer(
    name=PROG,
    help="FIDE Dutch Swiss pairing engine on OR-Tools CP-SAT, with explanations.",
    epilog=EPILOG,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

settings = {"debug": False}

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
        except NoValidPairing as exc:
            fail(arbiter_text(exc), exc.exit_code)
        except PairingError as exc:
            fail(str(exc), exc.exit_code)
        except OSError as exc:
            where = f"{exc.filename}: " if exc.filename else ""
            fail(f"{where}{exc.strerror or exc}", ExitCode.FILE_ACCESS)
        except Exception as exc:  # the one place that catches everything
            if settings["debug"]:
                raise
            first_line = (str(exc).splitlines() or [""])[0]
            fail(f"{PROG}: unexpected error: {type(exc).__name__}: {first_line} "
                 "(run with --debug for the traceback)", ExitCode.UNEXPECTED)

    return wrapper


def arbiter_text(exc: NoValidPairing) -> str:
    """A round without a valid pairing, told for the arbiter who must decide it: who
    cannot be paired and why, and what he could decide."""
    head = str(exc).split(":")[0] if exc.told else str(exc)
    lines = [f"{head[:1].upper()}{head[1:]}."]
    lines += [f"  - {reason[:1].upper()}{reason[1:]}." for reason in exc.told]
    if exc.options:
        lines.append("The arbiter could, for example:")
        lines += [f"  - {option}." for option in exc.options]
    return "\n".join(lines)


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


def _file_mode(output: Path) -> int:
    """The mode a plain `open()` would give: the existing file's, else 0o666 less the umask
    (a temporary file is created 0o600)."""
    try:
        return output.stat().st_mode & 0o777
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


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
        os.chmod(tmp, _file_mode(output))
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
    settings["debug"] = debug


FileArg = Annotated[str, typer.Argument(metavar="FILE", help="A TRF file, or 'example'.", show_default=False)]


# --- options and inputs shared by the commands ---------------------------------------------


def edition_option() -> Any:
    return typer.Option(
        "--edition", "-e", show_default=False,
        help=("Rule edition: dutch-2026, dutch-2017, dutch-2013 (default: the one the file names, else the one in "
              "force when the tournament started, else dutch-2026)."),
    )


def file_edition(t: Tournament, edition: str | None) -> EditionChoice:
    """--edition; else the edition the file names (`192`, `092`, `012`); else the one in
    force when it started (`042`, `132`); else the default.  Notes on stderr, with one
    about the initial colour when the file states none."""
    chosen = edition_for(t, edition)
    for note in chosen.notes:
        typer.echo(f"{t.source or 'input'}: {note}", err=True)
    colour = initial_colour_note(t)
    if colour is not None:
        typer.echo(f"{t.source or 'input'}: {colour}", err=True)
    return chosen


def check_edition(edition: str) -> None:
    from cpsat_pairing.dutch.edition import load_edition

    try:
        load_edition(edition)
    except ValueError as exc:
        fail(str(exc), ExitCode.INVALID_INPUT)


class TableOrJson(StrEnum):
    table = "table"
    json = "json"


def resolve_file(name: str) -> str:
    """The word `example` (when no such file exists) names the bundled example."""
    if name == EXAMPLE_NAME and not Path(name).exists():
        return str(examples.path())
    return name


class Target(StrEnum):
    trf16 = "trf16"
    trf26 = "trf26"
    json = "json"
