"""The 2017 edition's shortcuts give the plain model's answer, tier by tier.

A normal bracket is first paired on its own with [C.7] decided by matchings
(dutch/e2017/lookahead.py); otherwise its tiers after [C.7] are solved on the bracket
alone (dutch/alone.py); big models add restrictions, repair and, on the bracket alone,
the count model's bounds.  None may change a pairing or a tier value: each round is
paired with them (restrictions forced on from 200 pair variables, so that small files
use them too) and without any (`bracket_alone=False`, no restriction), and compared.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cpsat_pairing import SolverSettings, pair, read_trf
from cpsat_pairing.apps.check import with_rounds_in_file
from cpsat_pairing.domain.state import round_exists
from cpsat_pairing.dutch.e2017 import procedure
from cpsat_pairing.dutch.e2017.lookahead import NextBracket

from helpers import CORPUS, CORPUS_2017, CORPUS_2017_JAVAFO

FILES = CORPUS_2017 + CORPUS_2017_JAVAFO + sorted((CORPUS / "dutch-2017" / "shortcuts").glob("*.trf"))
PLAIN = SolverSettings(bracket_alone=False, sparse_from=10**9)
RESTRICTED = SolverSettings(sparse_from=200)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_shortcuts_agree_with_the_plain_model(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    decided = []
    real = procedure._solve_by_lookahead
    monkeypatch.setattr(procedure, "_solve_by_lookahead", lambda *a: decided.append(real(*a)) or decided[-1])
    t = read_trf(path)
    last = max(len(p.rounds) for p in t.players)
    t = with_rounds_in_file(t, last)
    for rnd in (r for r in range(1, last + 1) if round_exists(t, r)):
        plain = pair(t, rnd, "dutch-2017", settings=PLAIN)
        for settings in (SolverSettings(), RESTRICTED):
            got = pair(t, rnd, "dutch-2017", settings=settings)
            assert (got.as_pairs(), got.bye) == (plain.as_pairs(), plain.bye), f"round {rnd}"
            assert [b.tiers for b in got.brackets] == [b.tiers for b in plain.brackets], f"round {rnd}"
    assert any(m is not None for m in decided), "no bracket was decided by the matchings"


@pytest.mark.parametrize("path", FILES[:2] + FILES[-1:], ids=lambda p: p.stem)
def test_downfloaters_short_of_the_bounds_leave_the_bracket_to_the_full_model(path: Path, monkeypatch) -> None:
    """A set of downfloaters that does not reach [C.7]'s bounds (forced here for every
    set) hands the bracket to the full model: the answers stay the plain model's."""
    monkeypatch.setattr(NextBracket, "reaches_bounds", lambda self, floaters: False)
    t = read_trf(path)
    last = max(len(p.rounds) for p in t.players)
    t = with_rounds_in_file(t, last)
    for rnd in (r for r in range(1, last + 1) if round_exists(t, r)):
        got, plain = pair(t, rnd, "dutch-2017"), pair(t, rnd, "dutch-2017", settings=PLAIN)
        assert (got.as_pairs(), got.bye) == (plain.as_pairs(), plain.bye), f"round {rnd}"
        assert [b.tiers for b in got.brackets] == [b.tiers for b in plain.brackets], f"round {rnd}"
