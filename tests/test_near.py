"""Near models (dutch/near.py): a big bracket's near pairs made, its far pairs counted.

Forced onto every bracket (`near_from=0`, a window of one place), the near model must
give the reference engine's pairing round after round, certifying its answers or
handing over to the model of every pair; its far counts must be the number of far
compatible pairs; and a certificate that fails, or names the far pairs it needs, must
still end in the same pairing.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from cpsat_pairing import SolverSettings, pair, parse_trf, read_trf
from cpsat_pairing.dutch.aggregate import AggregateBracketModel
from cpsat_pairing.dutch.bracket import BracketModel
from cpsat_pairing.dutch.e2026 import modelled
from cpsat_pairing.solver.bounds import CountBound
from cpsat_pairing.solver.cpsat import STATS, Uncertified
from cpsat_pairing.solver.lex import LexSolver
from cpsat_pairing.solver.terms import TierKind
from cpsat_pairing.testing.corpus import recorded
from cpsat_pairing.testing.large import build

from helpers import CORPUS_2026, refuse_certificates

FORCED = SolverSettings(near_from=0, near_window=1, direct_brackets=0)  # the near models, on small brackets too
EVERY_PAIR = SolverSettings(near_from=10**9)
SAMPLE = [CORPUS_2026[i] for i in (0, 4, 9)]


def _replay(settings: SolverSettings, paths=SAMPLE, rounds: range | None = None) -> int:
    """Pair the rounds as the reference engine did (round 1 is the same for every
    model and is left out); the rounds compared."""
    n = 0
    for path in paths:
        t = read_trf(path)
        last = max(len(p.rounds) for p in t.players)
        for rnd in rounds or range(2, last + 1):
            got = pair(t, rnd, "dutch-2026", settings)
            assert (set(got.as_pairs()), got.bye) == recorded(t, rnd), f"{path.name} round {rnd}"
            n += 1
    return n


def _near_models(monkeypatch) -> list[BracketModel]:
    """The near models built from now on."""
    made: list[BracketModel] = []
    original = modelled.build_model

    def build(rc, bracket, kind, extra=()):
        bm = original(rc, bracket, kind, extra)
        if kind == "near":
            made.append(bm)
        return bm

    monkeypatch.setattr(modelled, "build_model", build)
    return made


def test_forced_near_models_pair_as_the_reference_engine() -> None:
    before = dict(STATS)
    assert _replay(FORCED) > 10
    # The near models answered (certified) most brackets themselves.
    assert STATS["near"] - before["near"] > 10


@pytest.mark.parametrize("seed", [1, 9])
def test_forced_near_models_pair_as_the_model_of_every_pair(seed: int) -> None:
    """Random 120-player histories of six rounds, whose near models of no window at
    all answer wrongly without their certificates (these seeds): certified, extended
    where a certificate names far pairs, or handed over, they pair as the full model."""
    t = parse_trf(build(120, 6, seed))
    before = dict(STATS)
    near = pair(t, settings=SolverSettings(near_from=0, near_window=0, direct_brackets=0))
    full = pair(t, settings=EVERY_PAIR)
    assert (set(near.as_pairs()), near.bye) == (set(full.as_pairs()), full.bye)
    assert STATS["near"] > before["near"]


def test_far_counts_are_the_far_compatible_pairs_per_class_pair(monkeypatch) -> None:
    made = _near_models(monkeypatch)
    pair(parse_trf(build(120, 4, 1)), settings=FORCED)
    checked = 0
    for bm in made:
        far = bm.far
        assert far is not None
        residents = [p for p in bm.bracket if p not in bm.mdps]
        expected: Counter[tuple[int, int]] = Counter()
        for i, p in enumerate(residents):
            for q in residents[i + 1:]:
                if (p, q) not in bm.x and (q, p) not in bm.x and bm.compatible(p, q):
                    a, b = far.cls[p], far.cls[q]
                    expected[(a, b) if a <= b else (b, a)] += 1
        assert {g.classes: g.count for g in far.groups} == {k: v for k, v in expected.items() if v}
        checked += len(far.groups)
    assert checked > 10


def test_wanted_names_compatible_far_pairs_of_the_counted_classes(monkeypatch) -> None:
    made = _near_models(monkeypatch)
    pair(parse_trf(build(120, 4, 1)), settings=FORCED)
    bm = next(bm for bm in made if bm.far is not None and bm.far.groups)
    far = bm.far
    group = far.groups[0]
    players = [p for p in far.f if far.cls[p] in group.classes]
    values = {group.var.index: 1, **{far.f[p].index: 1 for p in players}}
    wanted = far.wanted(bm, values)
    assert wanted
    for p, q in wanted:
        a, b = far.cls[p], far.cls[q]
        assert ((a, b) if a <= b else (b, a)) == group.classes
        assert (p, q) not in bm.x and (q, p) not in bm.x and bm.compatible(p, q)
    assert far.wanted(bm, {}) == []


def test_uncertified_near_models_hand_over_to_the_model_of_every_pair(monkeypatch) -> None:
    refuse_certificates(monkeypatch)
    before = STATS["uncertified"]
    assert _replay(FORCED, SAMPLE[:2]) > 5
    assert STATS["uncertified"] > before


def test_near_models_made_again_with_the_far_pairs_a_certificate_names(monkeypatch) -> None:
    """The first near model of each bracket fails naming every far pair; the second,
    which has them all, is the model of every pair and certifies itself."""
    made = _near_models(monkeypatch)
    original = modelled.BracketByModel.solve
    seen: set[tuple[float, tuple[int, ...]]] = set()

    def solve(rc, bracket, kind, on_tier, extra=(), proved=None):
        bm = original(rc, bracket, kind, on_tier, extra, proved)
        key = (bracket.score, tuple(bracket.players))
        if kind == "near" and key not in seen and bm.far is not None and bm.far.groups:
            seen.add(key)
            every = [(p, q) for i, p in enumerate(bm.bracket) for q in bm.bracket[i + 1:]
                     if (p, q) not in bm.x and (q, p) not in bm.x and bm.compatible(p, q)]
            raise Uncertified("every far pair, in this test", every)
        return bm

    monkeypatch.setattr(modelled.BracketByModel, "solve", staticmethod(solve))
    before = STATS["extended"]
    assert _replay(replace(FORCED, near_extension_share=1.0), SAMPLE[:1]) > 3
    assert STATS["extended"] > before
    assert any(bm.far is not None and not bm.far.groups for bm in made)


def test_extensions_stop_at_their_share_of_the_bracket_s_pairs(monkeypatch) -> None:
    """A certificate naming more far pairs than `near_extension_share` of the
    bracket's pairs hands the bracket to the aggregate model instead: the same
    pairing, no near model made again."""
    original = modelled.BracketByModel.solve

    def solve(rc, bracket, kind, on_tier, extra=(), proved=None):
        bm = original(rc, bracket, kind, on_tier, extra, proved)
        if kind == "near" and bm.far is not None and bm.far.groups:
            raise Uncertified("one far pair, in this test", [next(iter(bm.x))])
        return bm

    monkeypatch.setattr(modelled.BracketByModel, "solve", staticmethod(solve))
    before = dict(STATS)
    assert _replay(replace(FORCED, near_extension_share=0.0), SAMPLE[:1]) > 3
    assert STATS["extended"] == before["extended"]
    assert STATS["fallbacks"] > before["fallbacks"]


@pytest.mark.parametrize("seed", [1, 9])
def test_tries_without_the_lp_cuts_change_no_pairing(seed: int) -> None:
    """A near model's certified runs and relaxations first try the LP without its cuts
    (`light_budget`); with no such try at all, the pairing is the same."""
    t = parse_trf(build(120, 6, seed))
    settings = SolverSettings(near_from=0, near_window=0, direct_brackets=0)
    before = STATS["light"]
    light = pair(t, settings=settings)
    assert STATS["light"] > before  # the tries answered some questions
    before = STATS["light"]
    plain = pair(t, settings=replace(settings, light_budget=0.0))
    assert STATS["light"] == before
    assert (set(light.as_pairs()), light.bye, light.brackets) == (set(plain.as_pairs()), plain.bye, plain.brackets)


def test_optima_carried_to_a_near_model_made_again_spare_its_relaxation(monkeypatch) -> None:
    """A near model made again for a bracket starts from the relaxation's optima the
    first one proved (LexSolver.known_optima): given each tier's optimum so, it solves
    no relaxation for those tiers, and the pairing is the reference engine's.  (Without
    the count model's bounds, which would spare the relaxation too.)"""
    monkeypatch.setattr(CountBound, "minimum", lambda self, chunk, fixed: None)
    optimum: dict[tuple, dict] = {}  # bracket -> tier key -> its optimum, from a first pass
    relaxed: list[tuple] = []
    original_solve = LexSolver.solve
    current: list[tuple] = []

    def solve(self, objective=None, chunk=(), unpack=False):
        key = self._optimum_key(chunk) if chunk else None
        original_solve(self, objective, chunk, unpack)
        if self.partial and key is not None and current:
            optimum.setdefault(current[0], {})[key] = sum(w * self.value(t) for t, w in chunk)

    original_bound = LexSolver._relaxed_bound

    def relaxed_bound(self, chunk, lower):
        relaxed.append(self._optimum_key(chunk))
        return original_bound(self, chunk, lower)

    original = modelled.BracketByModel.solve

    def bracket_solve(rc, bracket, kind, on_tier, extra=(), proved=None):
        current[:] = [(rc.state.round, tuple(bracket.players))]
        if kind == "near" and current[0] in carried:
            proved = Uncertified("the optima of a first pass, in this test")
            proved.optima = carried[current[0]]
        return original(rc, bracket, kind, on_tier, extra, proved)

    carried: dict[tuple, dict] = {}
    monkeypatch.setattr(LexSolver, "solve", solve)
    monkeypatch.setattr(LexSolver, "_relaxed_bound", relaxed_bound)
    monkeypatch.setattr(modelled.BracketByModel, "solve", staticmethod(bracket_solve))
    assert _replay(FORCED, SAMPLE[:1]) > 3
    first = len(relaxed)
    assert first and optimum
    carried.update(optimum)
    relaxed.clear()
    assert _replay(FORCED, SAMPLE[:1]) > 3
    assert len(relaxed) < first, (len(relaxed), first)


def test_a_model_after_an_uncertified_near_model_starts_from_its_certified_tiers(monkeypatch) -> None:
    """A near model that stops at the generation order has certified every quality
    tier: the model that takes over fixes them at once, from the near model's solution
    (checked whole by the solver), and the pairing is the reference engine's."""
    original_order = modelled.generation_order_keeping_below

    def order(bm, local):
        if bm.far is not None:
            raise Uncertified("stopped at the generation order, in this test")
        return original_order(bm, local)

    resumed: list[tuple[int, int]] = []
    original_resumed = modelled._resumed

    def spy(bm, terms, proved):
        done = original_resumed(bm, terms, proved)
        if proved is not None and bm.far is None and isinstance(bm, AggregateBracketModel):
            fixed = sum(1 for t in bm.solver.trace if t.kind is TierKind.QUALITY)
            resumed.append((fixed, len(proved.tiers)))
        return done

    monkeypatch.setattr(modelled, "generation_order_keeping_below", order)
    monkeypatch.setattr(modelled, "_resumed", spy)
    before = STATS["uncertified"]
    assert _replay(FORCED, SAMPLE[:1]) > 3
    assert STATS["uncertified"] > before
    assert resumed and all(fixed == tiers > 0 for fixed, tiers in resumed)


@pytest.mark.parametrize("carried", ["optimum", "start"])
def test_a_near_model_made_again_tries_the_relaxation_s_pairs_first(monkeypatch, carried: str) -> None:
    """A near model made again after its relaxation did better by far pairs keeps that
    solution's pairs first (LexSolver.realise): where they reach the tier's proven
    optimum the tier is settled so; where they miss it (here: the pairs of the solution
    the first model had when the tier began, which the players it leaves unpaired may
    still improve on) they settle nothing.  Both ways the pairing is the reference
    engine's.  (The carried solution is one of a first pass, standing for the
    relaxation's: carrying it is what an extension does.)"""
    made = _near_models(monkeypatch)
    first: dict[tuple, tuple] = {}  # bracket -> (tier key, the solution carried, the tier's optimum)
    current: list[tuple] = []
    original_tier = LexSolver._near_tier
    original_solve = LexSolver.solve

    def near_tier(self, chunk, lower, bounded, top):
        if current and current[0] not in first:
            bm = next(m for m in made if m.solver is self)
            first[current[0]] = (self._optimum_key(chunk), bm.portable(self.values), None)
        return original_tier(self, chunk, lower, bounded, top)

    def solve(self, objective=None, chunk=(), unpack=False):
        original_solve(self, objective, chunk, unpack)
        if chunk and current and current[0] in first and first[current[0]][2] is None:
            key, start, _ = first[current[0]]
            if key == self._optimum_key(chunk):
                bm = next(m for m in made if m.solver is self)
                kept = bm.portable(self.values) if carried == "optimum" else start
                first[current[0]] = (key, kept, sum(w * self.value(t) for t, w in chunk))

    original = modelled.BracketByModel.solve
    carry: dict[tuple, tuple] = {}

    def bracket_solve(rc, bracket, kind, on_tier, extra=(), proved=None):
        current[:] = [(rc.state.round, tuple(bracket.players))]
        if kind == "near" and current[0] in carry:
            key, kept, optimum = carry[current[0]]
            proved = Uncertified("a first pass's solution, in this test")
            proved.key, proved.relaxed, proved.optima = key, kept, {key: optimum}
        return original(rc, bracket, kind, on_tier, extra, proved)

    monkeypatch.setattr(LexSolver, "_near_tier", near_tier)
    monkeypatch.setattr(LexSolver, "solve", solve)
    monkeypatch.setattr(modelled.BracketByModel, "solve", staticmethod(bracket_solve))
    assert _replay(FORCED, SAMPLE[:1]) > 3
    carry.update({k: v for k, v in first.items() if v[2] is not None})
    assert carry
    before = STATS["realised"]
    assert _replay(FORCED, SAMPLE[:1]) > 3
    if carried == "optimum":
        assert STATS["realised"] > before
