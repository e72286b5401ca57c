"""Paths of the test fixtures, and checks shared by the test modules."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from cpsat_pairing.solver.cpsat import Uncertified
from cpsat_pairing.solver.domains import Domains
from cpsat_pairing.solver.lex import LexSolver
from cpsat_pairing.solver.terms import Term

FIXTURES = Path(__file__).parent / "fixtures"
CORPUS = FIXTURES / "corpus"
CORPUS_2026 = sorted((CORPUS / "dutch-2026" / "dev").glob("*.trf"))
CORPUS_2017 = sorted((CORPUS / "dutch-2017" / "dev").glob("*.trf"))
CORPUS_2017_JAVAFO = sorted((CORPUS / "dutch-2017" / "dev-javafo").glob("*.trf"))
CORPUS_2013 = sorted((CORPUS / "dutch-2013" / "dev").glob("*.trf"))
BUGS = FIXTURES / "bugs"
REALTRF = FIXTURES / "realtrf"
BBP = REALTRF / "BieremaBoyzProgramming__bbpPairings"


def domains_agree(domains: Domains) -> bool:
    """Every variable's proto domain is what the Python-side record of fixed domains says."""
    fixed = domains.fixed
    return all(
        (v.domain[0], v.domain[1]) == ((0, 1) if (f := fixed.get(i)) is None else (f, f))
        for i, v in enumerate(domains.model.proto.variables)
    )


def refuse_certificates(monkeypatch) -> None:
    """Make every near model fail its certificates: no tier settled by a bound, no
    relaxation solved, every optimum refused (its bracket then goes to the next model)."""

    def refuse(self, *args, **kwargs):
        raise Uncertified("no certificate in this test")

    monkeypatch.setattr(LexSolver, "_certify", refuse)
    monkeypatch.setattr(LexSolver, "_relaxed_bound", lambda self, chunk, lower: (lower, None))
    monkeypatch.setattr(LexSolver, "_certified_run", lambda self, known, proven=False: False)
    monkeypatch.setattr(LexSolver, "_settled_run", lambda self, chunk, lower: False)


def without_least(made: Callable[[Any], list[Term]]) -> Callable[[Any], list[Term]]:
    """A criterion as `made` makes it, without the bounds its terms prove (`Term.least`):
    every tier is then settled by a solve or the count model."""
    def terms(bm: Any) -> list[Term]:
        out = made(bm)
        for term in out:
            term.least = None
        return out
    return terms

