"""Near models of the 2017 bracket alone (dutch/e2017/procedure.py, dutch/near.py).

A big normal bracket is first paired on a model of its near pairs, its far pairs
counted by class.  Forced onto every such bracket (`near_from=0`, a window of one
place or none), it must give the reference engine's pairing and the same trace as the
model of every pair, certifying its answers, made again with the far pairs a failed
certificate names, or handing over.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from ortools.sat.python import cp_model

from cpsat_pairing import SolverSettings, pair, parse_trf, read_trf
from cpsat_pairing.dutch.e2017 import procedure
from cpsat_pairing.dutch.e2017.bracket import BracketModel2017
from cpsat_pairing.solver.cpsat import STATS, Model, Uncertified
from cpsat_pairing.testing.corpus import recorded
from cpsat_pairing.testing.large import build

from helpers import CORPUS_2017, CORPUS_2017_JAVAFO, refuse_certificates

FORCED = SolverSettings(near_from=0, near_window=1)
EVERY_PAIR = SolverSettings(near_from=10**9)
SAMPLE = [*CORPUS_2017, CORPUS_2017_JAVAFO[0]]


def _copy(model: Model) -> cp_model.CpModel:
    """The wrapper's own model of the same proto, to add to and solve apart."""
    copy = cp_model.CpModel()
    copy.proto.copy_from(model.proto)
    return copy


def _replay(settings: SolverSettings, paths=SAMPLE) -> int:
    """Pair every round from the second as the reference engine did; the rounds compared."""
    n = 0
    for path in paths:
        t = read_trf(path)
        last = max(len(p.rounds) for p in t.players)
        for rnd in range(2, last + 1):
            got = pair(t, rnd, "dutch-2017", settings)
            assert (set(got.as_pairs()), got.bye) == recorded(t, rnd), f"{path.name} round {rnd}"
            n += 1
    return n


def test_forced_near_models_pair_as_the_reference_engine() -> None:
    before = dict(STATS)
    assert _replay(FORCED) > 10
    assert STATS["near"] - before["near"] > 10  # the near models answered brackets themselves


@pytest.mark.parametrize("seed", [1, 9])
def test_forced_near_models_pair_and_explain_as_the_model_of_every_pair(seed: int) -> None:
    """Random 120-player histories, near models of no window at all: the same pairing
    and the same tiers, bracket by bracket, as the model of every pair."""
    t = parse_trf(build(120, 6, seed))
    before = dict(STATS)
    near = pair(t, edition="dutch-2017", settings=SolverSettings(near_from=0, near_window=0))
    full = pair(t, edition="dutch-2017", settings=EVERY_PAIR)
    assert STATS["near"] > before["near"]
    assert (set(near.as_pairs()), near.bye) == (set(full.as_pairs()), full.bye)
    assert near.brackets == full.brackets


def test_uncertified_near_models_hand_over_to_the_model_of_every_pair(monkeypatch) -> None:
    refuse_certificates(monkeypatch)
    before = dict(STATS)
    assert _replay(FORCED) > 10
    assert STATS["uncertified"] > before["uncertified"]


def test_near_models_made_again_with_the_far_pairs_a_certificate_names(monkeypatch) -> None:
    """Each bracket's first near model fails naming every far pair; the second has
    them all (no far pair left) and answers."""
    made: list[BracketModel2017] = []
    original = procedure._lookahead
    seen: set[tuple[int, ...]] = set()

    def lookahead(rc, inner, lower, on_tier):
        made.append(inner)
        key = tuple(inner.bracket)
        if inner.far is not None and inner.far.groups and key not in seen:
            seen.add(key)
            every = [(p, q) for i, p in enumerate(inner.bracket) for q in inner.bracket[i + 1:]
                     if (p, q) not in inner.x and (q, p) not in inner.x and inner.compatible(p, q)]
            raise Uncertified("every far pair, in this test", every)
        return original(rc, inner, lower, on_tier)

    monkeypatch.setattr(procedure, "_lookahead", lookahead)
    before = STATS["extended"]
    assert _replay(replace(FORCED, near_extension_share=1.0)) > 10
    assert STATS["extended"] > before
    assert any(bm.far is not None and not bm.far.groups for bm in made)


def test_a_player_without_far_partners_on_the_other_side_makes_no_far_pair(monkeypatch) -> None:
    """Once S1 and S2 are fixed, the relaxation counts far pairs by class on each side;
    a player whose every pair to the other side is made (a near model made again with
    them) is paired by no far pair there, even where his class has far pairs."""
    captured: list[tuple] = []
    original = procedure._bracket_alone

    def bracket_alone(rc, bracket, mdps, sd_base, near=None):
        if near is not None:
            captured.append((rc, bracket, mdps, sd_base))
        return original(rc, bracket, mdps, sd_base, near)

    monkeypatch.setattr(procedure, "_bracket_alone", bracket_alone)
    pair(parse_trf(build(120, 4, 1)), edition="dutch-2017", settings=SolverSettings(near_from=0, near_window=0))
    rc, bracket, mdps, sd_base = next(c for c in captured if not c[2] and len(c[1]) >= 20)
    half = len(bracket) // 2
    s1, s2 = bracket[:half], bracket[half:]
    p = s1[0]
    extra = [(p, q) for q in s2 if rc.compatible(p, q)]
    bm = original(rc, bracket, mdps, sd_base, extra)
    assert bm.far is not None and p in bm.far.f
    bm.far.split_by_sides(bm, s1, s2)
    q = next(q for q in s1[1:] if q in bm.far.f and any(
        (q, r) not in bm.x and (r, q) not in bm.x and rc.compatible(q, r) for r in s2))

    def relaxation_pairs_far(player: int) -> bool:
        with bm.solver.relaxed():
            model = _copy(bm.model)
        model.add(model.get_bool_var_from_proto_index(bm.far.f[player].index) == 1)
        return cp_model.CpSolver().solve(model) in (cp_model.OPTIMAL, cp_model.FEASIBLE)

    assert not relaxation_pairs_far(p)
    assert relaxation_pairs_far(q)  # one with far partners still may


@pytest.mark.parametrize(("players", "rnd"), [(120, 1), (121, 1), (121, 5)])
def test_the_last_bracket_on_a_near_model_pairs_and_explains_as_the_model_of_every_pair(
        players: int, rnd: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The last bracket (the whole of round 1) on a near model that completes the round,
    the PAB included when the players are odd: the same pairing and tiers as the model
    of every pair."""
    answered: list[bool] = []
    original = procedure._solve_last_by_near
    monkeypatch.setattr(procedure, "_solve_last_by_near", lambda *a: _kept(answered, original, *a))
    t = parse_trf(build(players, 5, 3))
    near = pair(t, rnd, "dutch-2017", SolverSettings(near_from=0, near_window=1))
    full = pair(t, rnd, "dutch-2017", EVERY_PAIR)
    assert any(answered), "no last bracket was answered by a near model"
    assert (set(near.as_pairs()), near.bye) == (set(full.as_pairs()), full.bye)
    assert near.brackets == full.brackets


def _kept(answered: list[bool], original, *args):
    found = original(*args)
    answered.append(found is not None)
    return found


def test_two_mdps_never_meet_in_a_near_model(monkeypatch: pytest.MonkeyPatch) -> None:
    """As in the model of every pair (`compatible_rows`): their pair would have been
    made in the bracket they came from."""
    made: list[BracketModel2017] = []
    original = BracketModel2017.__post_init__

    def post_init(self) -> None:
        original(self)
        if self.near is not None:
            made.append(self)

    monkeypatch.setattr(BracketModel2017, "__post_init__", post_init)
    _replay(FORCED, SAMPLE[:2])
    assert any(len(bm.mdps) >= 2 for bm in made)
    assert not any(p in bm.mdps and q in bm.mdps for bm in made for p, q in bm.x)


def test_the_relaxation_of_a_last_bracket_near_model_makes_far_pairs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Its certificates hold only if it is a relaxation of the model of every pair:
    the far pairs it counts complete the round as the near ones do."""
    made: list[tuple[cp_model.CpModel, list[int]]] = []
    original = BracketModel2017.__post_init__

    def post_init(self) -> None:
        original(self)
        if self.near is not None and self.special and self.far is not None and self.far.groups:
            with self.solver.relaxed():  # as built, before any tier is fixed
                made.append((_copy(self.model), [v.index for v in self.far.f.values()]))

    monkeypatch.setattr(BracketModel2017, "__post_init__", post_init)
    pair(parse_trf(build(121, 5, 3)), 1, "dutch-2017", SolverSettings(near_from=0, near_window=1))
    model, far = made[0]
    model.add(sum(model.get_bool_var_from_proto_index(i) for i in far) >= 2)
    assert cp_model.CpSolver().solve(model) in (cp_model.OPTIMAL, cp_model.FEASIBLE)
