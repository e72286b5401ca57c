"""Paths of the test fixtures, shared by the test modules."""

from __future__ import annotations

from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures"
CORPUS = FIXTURES / "corpus"
CORPUS_2026 = sorted((CORPUS / "dutch-2026" / "dev").glob("*.trf"))
CORPUS_2017 = sorted((CORPUS / "dutch-2017" / "dev").glob("*.trf"))
CORPUS_2017_JAVAFO = sorted((CORPUS / "dutch-2017" / "dev-javafo").glob("*.trf"))
CORPUS_2013 = sorted((CORPUS / "dutch-2013" / "dev").glob("*.trf"))
BUGS = FIXTURES / "bugs"
REALTRF = FIXTURES / "realtrf"
BBP = REALTRF / "BieremaBoyzProgramming__bbpPairings"
