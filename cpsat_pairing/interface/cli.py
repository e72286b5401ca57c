"""The `cpsat-pairing` entry point: bbpPairings' or JaVaFo's command line (doors.py), or
our own (commandline.py).

A program that calls the engine once per round through another engine's command line
does not use the typer app: loading it (typer, click, rich and every command's module)
would be a fifth of the process's time on a small round, so it is imported only for
our own command line.  `app` is the typer app, imported on first use.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, NoReturn

from cpsat_pairing.interface import doors

if TYPE_CHECKING:
    from cpsat_pairing.interface.commandline import app

__all__ = ["app", "main"]


def main(argv: list[str] | None = None) -> NoReturn:
    """Console-script entry point: a door's command line, or ours."""
    raw = sys.argv[1:] if argv is None else argv
    door = doors.which_door(raw)
    if door is not None:  # bbpPairings' or JaVaFo's command line, for programs that call either
        sys.exit(doors.main(raw, door))
    from cpsat_pairing.interface.commandline import run

    run(argv)


def __getattr__(name: str) -> Any:
    if name != "app":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from cpsat_pairing.interface.commandline import app as typer_app

    return typer_app
