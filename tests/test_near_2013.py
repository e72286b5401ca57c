"""Near models of the 2013 last bracket (dutch/e2013/procedure.py, dutch/near.py).

A big last bracket -- the whole of round 1 -- is first paired on a model of its near
pairs, its far pairs counted by class.  Forced onto every last bracket (`near_from=0`,
a window of one place), it must give the reference engine's pairing and the same
trace as the model of every pair, or hand over when it is not certified.
"""

from __future__ import annotations

import pytest
from helpers import CORPUS, refuse_certificates

from cpsat_pairing import SolverSettings, pair, parse_trf, read_trf
from cpsat_pairing.domain.state import round_exists
from cpsat_pairing.dutch.e2013 import procedure
from cpsat_pairing.solver.cpsat import STATS
from cpsat_pairing.testing.corpus import as_replayed, recorded
from cpsat_pairing.testing.large import build

FORCED = SolverSettings(near_from=0, near_window=1)
EVERY_PAIR = SolverSettings(near_from=10**9)
SAMPLE = [CORPUS / "dutch-2013" / "dev" / f"{name}.trf" for name in ("j000017", "j000044")]


def _near_answers(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether each near model tried answered its bracket."""
    answered: list[bool] = []
    original = procedure.on_near_models

    def counted(*args):
        decided, found = original(*args)
        answered.append(found is not None)
        return decided, found

    monkeypatch.setattr(procedure, "on_near_models", counted)
    return answered


@pytest.mark.parametrize(("players", "rnd"), [(120, 1), (121, 1), (121, 6)])
def test_the_last_bracket_on_a_near_model_pairs_and_explains_as_the_model_of_every_pair(
        players: int, rnd: int, monkeypatch: pytest.MonkeyPatch) -> None:
    answered = _near_answers(monkeypatch)
    t = parse_trf(build(players, 5, 3))
    near = pair(t, rnd, "dutch-2013", FORCED)
    full = pair(t, rnd, "dutch-2013", EVERY_PAIR)
    assert any(answered), "no last bracket was answered by a near model"
    assert (set(near.as_pairs()), near.bye) == (set(full.as_pairs()), full.bye)
    assert near.brackets == full.brackets


def _replay(settings: SolverSettings) -> int:
    """Pair every round as the reference engine did; the rounds compared."""
    n = 0
    for path in SAMPLE:
        t = as_replayed(read_trf(path))
        for rnd in range(2, t.rounds_played + 1):
            if round_exists(t, rnd):
                got = pair(t, rnd, "dutch-2013", settings)
                assert (set(got.as_pairs()), got.bye) == recorded(t, rnd), f"{path.name} round {rnd}"
                n += 1
    return n


def test_forced_near_models_pair_as_the_reference_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    answered = _near_answers(monkeypatch)
    assert _replay(FORCED) > 10
    assert sum(answered) > 5


def test_uncertified_near_models_hand_over_to_the_model_of_every_pair(monkeypatch: pytest.MonkeyPatch) -> None:
    refuse_certificates(monkeypatch)
    answered = _near_answers(monkeypatch)
    before = STATS["uncertified"]
    assert _replay(FORCED) > 10
    assert not all(answered)  # those with far pairs (a near model of a few players may have none)
    assert STATS["uncertified"] > before


def test_the_transposition_does_not_pass_over_a_far_pair_a_later_s1_player_needs() -> None:
    """j000060 round 5, a bracket of 11 on a near model of window 1: the first
    transposition pairs S1[3] with 18 and S1[4] with 20 by a far pair.  "20 paired by
    no far pair" must not be decided before S1[3]'s partner (order._decisions), or the
    search takes 23 for S1[3] and certifies it."""
    t = as_replayed(read_trf(CORPUS / "dutch-2013" / "dev" / "j000060.trf"))
    got = pair(t, 5, "dutch-2013", FORCED)
    assert (set(got.as_pairs()), got.bye) == recorded(t, 5)


def test_x_counts_the_pairs_that_2026s_c12_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    """A near model's transposition certificate reasons with the colour arithmetic of
    a fixed tier marked `same_colour` (FarPairs.skipped): 2013's X is marked so, and
    must count exactly the pairs [C12] counts, each once, on the same model."""
    from cpsat_pairing.dutch.e2013.criteria import colour_x
    from cpsat_pairing.dutch.e2026.criteria import colour_preferences

    models = []
    real = procedure._tiers
    monkeypatch.setattr(procedure, "_tiers", lambda rc, bm, *a, **k: models.append(bm) or real(rc, bm, *a, **k))
    pair(parse_trf(build(120, 4, 2)), None, "dutch-2013", FORCED)
    assert models
    for bm in models:
        (x,), (c12,) = colour_x(bm), colour_preferences(bm)
        assert x.same_colour and sorted(zip(x.indices, x.coefs)) == sorted(zip(c12.indices, c12.coefs))
