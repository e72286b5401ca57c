"""The `cpsat-pairing` command line: one typer app (console.py), one function per command.

The commands are registered by importing their modules, in the order `--help` lists
them.  To add one, write a function decorated with `@app.command()` and `@cli_errors`
in a module of `commands/` (its tournament from `load_tournament(path)`) and import it here.
The entry point (cli.py) comes here only for our own command line.
"""

from __future__ import annotations

import sys
from typing import NoReturn

import typer

from cpsat_pairing.errors import ExitCode
# isort: off
# Registering the commands: the order of these imports is the order of `--help`.
from cpsat_pairing.interface.commands import files  # noqa: F401  (info, convert)
from cpsat_pairing.interface.commands import pair  # noqa: F401
from cpsat_pairing.interface.commands import check  # noqa: F401
from cpsat_pairing.interface.commands import standings  # noqa: F401
from cpsat_pairing.interface.commands import explain  # noqa: F401
from cpsat_pairing.interface.commands import generate  # noqa: F401
from cpsat_pairing.interface.commands import serve  # noqa: F401
from cpsat_pairing.interface.commands import desk  # noqa: F401
# isort: on
from cpsat_pairing.interface.console import PROG, app, settings

__all__ = ["app", "run"]


def run(argv: list[str] | None = None) -> NoReturn:
    """Run the app; usage errors exit 3 (invalid input)."""
    command = typer.main.get_command(app)
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
        if settings["debug"]:
            raise
        typer.echo(f"{PROG}: unexpected error: {type(exc).__name__}: {exc}", err=True)
        sys.exit(int(ExitCode.UNEXPECTED))
    sys.exit(rv if isinstance(rv, int) else 0)
