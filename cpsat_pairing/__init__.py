"""cpsat-pairing: the FIDE Swiss Dutch system on OR-Tools CP-SAT, with explanations.

    >>> import cpsat_pairing as cp
    >>> t = cp.read_trf("tournament.trf")          # or cp.parse_trf(text)
    >>> p = cp.pair(t)                              # the next round, dutch-2026 unless told
    >>> [(b.white, b.black) for b in p.boards], p.bye

`cp.evaluate(t, round, pairs)` scores a given pairing on the same tiers, `cp.check`
re-pairs every round of a paired file and says where it differs, `cp.explain` tells a
pairing in the rules' terms.  Every error is a `PairingError`; input errors are also
`ValueError`s that say where (file, line, column).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cpsat_pairing.lazy import lazy_getattr
from cpsat_pairing.solver import startup
from cpsat_pairing.version import __version__

# CP-SAT's module imports pandas for helpers never called here: a third of the start-up.
startup.install()

# The names are imported on first use: a program that runs one command (or imports one
# module) does not pay for importing every part of the package first.
_WHERE = {
    "FileCheck": "apps.check", "RoundCheck": "apps.check", "Verdict": "apps.check", "check": "apps.check",
    "RoundExplanation": "apps.explain", "WhyNot": "apps.explain", "explain": "apps.explain",
    "why_not": "apps.explain", "ColourRule": "domain.colours", "Colour": "domain.tournament",
    "Player": "domain.tournament", "RoundEntry": "domain.tournament", "Scoring": "domain.tournament",
    "Tournament": "domain.tournament", "Edition": "dutch.edition", "load_edition": "dutch.edition",
    "Board": "dutch.result", "BracketTrace": "dutch.result", "Pairing": "dutch.result",
    "evaluate": "dutch.rounds", "illegalities": "dutch.rounds", "pair": "dutch.rounds",
    "EditionError": "errors", "FileAccessError": "errors", "InconsistentData": "errors", "InputError": "errors",
    "LimitExceeded": "errors", "NoValidPairing": "errors", "NotAPairing": "errors", "PairingError": "errors",
    "RoundNotPairable": "errors", "RoundsNotInFile": "errors", "SolveLimitError": "errors", "UnsupportedFeature": "errors", "parse_trf": "formats", "read_trf": "formats",
    "write_trf": "formats", "SolverSettings": "solver.settings", "Tier": "solver.terms",
    "TierKind": "solver.terms", "standings": "apps.standings", "Standings": "apps.standings",
}

if TYPE_CHECKING:
    from cpsat_pairing.apps.check import FileCheck, RoundCheck, Verdict, check
    from cpsat_pairing.apps.explain import RoundExplanation, WhyNot, explain, why_not
    from cpsat_pairing.apps.standings import Standings, standings
    from cpsat_pairing.domain.colours import ColourRule
    from cpsat_pairing.domain.tournament import Colour, Player, RoundEntry, Scoring, Tournament
    from cpsat_pairing.dutch.edition import Edition, load_edition
    from cpsat_pairing.dutch.result import Board, BracketTrace, Pairing
    from cpsat_pairing.dutch.rounds import evaluate, illegalities, pair
    from cpsat_pairing.errors import (
        EditionError,
        FileAccessError,
        InconsistentData,
        InputError,
        LimitExceeded,
        NoValidPairing,
        NotAPairing,
        PairingError,
        RoundNotPairable,
        RoundsNotInFile,
        SolveLimitError,
        UnsupportedFeature,
    )
    from cpsat_pairing.formats import parse_trf, read_trf, write_trf
    from cpsat_pairing.solver.settings import SolverSettings
    from cpsat_pairing.records import Tier, TierKind


__getattr__ = lazy_getattr(__name__, _WHERE, globals())


def __dir__() -> list[str]:
    return sorted(__all__)


__all__ = [
    "Board", "BracketTrace", "Colour", "ColourRule", "Edition", "EditionError", "FileAccessError", "FileCheck",
    "InconsistentData", "InputError", "LimitExceeded", "NoValidPairing", "NotAPairing", "Pairing", "PairingError", "Player",
    "RoundCheck", "RoundEntry", "RoundExplanation", "RoundNotPairable", "RoundsNotInFile", "Scoring", "SolveLimitError", "SolverSettings", "Standings", "Tier",
    "TierKind", "Tournament", "UnsupportedFeature", "Verdict", "WhyNot", "__version__", "check", "evaluate",
    "explain", "illegalities", "load_edition", "pair", "parse_trf", "read_trf", "standings", "why_not", "write_trf",
]
