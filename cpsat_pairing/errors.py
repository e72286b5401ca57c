"""Domain errors and the process exit codes they map to (bbpPairings' table).

Only `cli.py` turns these into exit codes; everything below it raises.
"""

from __future__ import annotations

from enum import IntEnum
from pathlib import Path


class ExitCode(IntEnum):
    """Exit codes shared with bbpPairings and JaVaFo."""

    OK = 0
    NO_PAIRING = 1  # no valid pairing (pair) / discrepancies found (check)
    UNEXPECTED = 2
    INVALID_INPUT = 3
    SIZE_LIMIT = 4
    FILE_ACCESS = 5


OK = ExitCode.OK
NO_PAIRING = ExitCode.NO_PAIRING
UNEXPECTED = ExitCode.UNEXPECTED
INVALID_INPUT = ExitCode.INVALID_INPUT
SIZE_LIMIT = ExitCode.SIZE_LIMIT
FILE_ACCESS = ExitCode.FILE_ACCESS


class PairingError(Exception):
    """Base of every error the engine reports to a user; carries its exit code."""

    exit_code: ExitCode = ExitCode.UNEXPECTED


class InputError(PairingError, ValueError):
    """Raised when a TRF file cannot be read: says where (file, line, column) and why.

    `line` and `column` are 1-based; column 1 is the first character of the line
    (record code), so a player's starting rank is reported at column 5.
    """

    exit_code = ExitCode.INVALID_INPUT

    def __init__(
        self,
        message: str,
        *,
        file: str | Path = "<string>",
        line: int = 1,
        column: int = 1,
        text: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.file = str(file)
        self.line = max(1, line)
        self.column = max(1, column)
        self.text = text  # the offending line, when there is one

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}: {self.message}"


class InconsistentData(InputError):
    """Raised when records contradict each other (e.g. two players disagree on a game)."""


class FileAccessError(PairingError, OSError):
    """Raised when an input or output file cannot be opened, read or written."""

    exit_code = ExitCode.FILE_ACCESS

    def __init__(self, file: str | Path, reason: str) -> None:
        super().__init__(reason)
        self.file = str(file)
        self.reason = reason

    def __str__(self) -> str:
        return f"{self.file}: {self.reason}"


class EditionError(PairingError, ValueError):
    """Raised when a rules-edition file is malformed or names an unknown criterion."""

    exit_code = ExitCode.INVALID_INPUT


class UnsupportedFeature(PairingError, ValueError):
    """Raised when the input asks for something this engine does not implement."""

    exit_code = ExitCode.INVALID_INPUT


class RoundNotPairable(PairingError, ValueError):
    """Raised when asked to pair a round past the next one: its earlier rounds are not
    paired, so the round has no state to pair from (and a file written with it would
    hold empty rounds)."""

    exit_code = ExitCode.INVALID_INPUT

    def __init__(self, rnd: int, next_round: int, file: str | Path = "<string>") -> None:
        self.round = rnd
        self.next_round = next_round
        self.file = str(file)
        played = f"rounds 1-{next_round - 1} are paired" if next_round > 2 else (
            "round 1 is paired" if next_round == 2 else "no round is paired yet")
        super().__init__(f"round {rnd} cannot be paired: the next round that can be paired is "
                         f"{next_round} ({played})")

    def __str__(self) -> str:
        return f"{self.file}: {self.args[0]}"


class RoundsNotInFile(PairingError, ValueError):
    """Raised when a check asks for rounds the file does not hold: judging nothing is
    not a match, so the answer names the rounds that can be checked."""

    exit_code = ExitCode.INVALID_INPUT

    def __init__(self, spec: str, held: list[int], file: str | Path = "<string>") -> None:
        self.spec = spec
        self.held = held
        self.file = str(file)
        what = f"rounds {_spans(held)} can be checked" if held else "it holds no paired round"
        super().__init__(f"the file holds no round {spec}: {what}")

    def __str__(self) -> str:
        return f"{self.file}: {self.args[0]}"


def _spans(rounds: list[int]) -> str:
    """[1, 2, 3, 5] -> "1-3, 5": round numbers as people write them."""
    runs: list[list[int]] = []
    for r in sorted(rounds):
        if runs and r == runs[-1][-1] + 1:
            runs[-1].append(r)
        else:
            runs.append([r])
    return ", ".join(str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}" for run in runs)


class NotAPairing(PairingError, ValueError):
    """Raised when a pairing given to be scored (`evaluate`) is not a complete, legal
    pairing of the round: its tiers would be those of no candidate the rules compare."""

    exit_code = ExitCode.INVALID_INPUT


class NoValidPairing(PairingError):
    """The absolute criteria admit no pairing of the round: the arbiter decides (2026
    Art. 1.9.3).  `players` are those the arbiter should look at, `reasons` says why,
    a sentence each."""

    exit_code = ExitCode.NO_PAIRING

    def __init__(
        self, message: str, players: list[int] | None = None, reasons: list[str] | None = None,
        options: list[str] | None = None, told: list[str] | None = None,
    ) -> None:
        self.players = players or []
        self.reasons = reasons or []
        self.options = options or []  # what the arbiter could decide, a sentence each
        self.told = told or self.reasons  # the reasons with the players' names, for people
        if self.reasons:
            message += ": " + "; ".join(self.reasons)
        elif self.players:
            message += "; no compatible opponent for player(s) " + ", ".join(map(str, self.players))
        super().__init__(message)


class SolveLimitError(PairingError):
    """A solve stopped at its time limit before proving its answer: the pairing would
    not be the rules' answer, so none is given (exit 2, said plainly)."""

    exit_code = ExitCode.UNEXPECTED


class LimitExceeded(PairingError):
    """Raised when a size or time limit stops the engine before a proven answer."""

    exit_code = ExitCode.SIZE_LIMIT
