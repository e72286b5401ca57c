"""The restriction of big models and the count model's bounds (lex.py, bounds.py).

Both are shortcuts that must never change an answer: the restriction only finds
solutions, and the count model's minimum must be a true lower bound.  Here they are
switched on for every model (`SolverSettings.sparse_from` 0), with a narrow window so that the
restricted optimum is often not the full one, and checked against the full models and
the reference engine.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from cpsat_pairing import SolverSettings, load_edition, pair, read_trf
from cpsat_pairing.domain.compat import Compatibility
from cpsat_pairing.domain.state import build_state, round_exists
from cpsat_pairing.dutch.bracket import BracketModel
from cpsat_pairing.dutch.e2017.bracket import BracketModel2017
from cpsat_pairing.dutch.registry import CRITERIA
from cpsat_pairing.solver.bounds import CountBound
from cpsat_pairing.solver.cpsat import STATS
from cpsat_pairing.solver.lex import LexSolver
from cpsat_pairing.solver.terms import make_term
from cpsat_pairing.testing.corpus import recorded
from cpsat_pairing.testing.large import make_large

from helpers import CORPUS_2017, CORPUS_2017_JAVAFO, CORPUS_2026, without_least

# Restriction and bounds on every model, narrow enough that the restricted optimum is often not the full one.
RESTRICTED = SolverSettings(sparse_from=0, windows=(1, 2), direct_brackets=0)  # small brackets by their models too
FULL = SolverSettings(sparse_from=10**9)


@pytest.fixture
def restricted_everywhere(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """Records (bound, true optimum) per bounded solve.  The 2026 criteria's own bounds
    (`Term.least`, tests/test_shortcuts.py) are off: they settle most small tiers before
    a solve, and here the count model is what bounds them."""
    for name in ("C6", "C7", "C8", "C12"):
        monkeypatch.setitem(CRITERIA, name, without_least(CRITERIA[name]))
    return _record_bounds(monkeypatch)


def _record_bounds(monkeypatch: pytest.MonkeyPatch, of: Callable[[CountBound], bool] = lambda counts: True
                   ) -> list[tuple[int, int]]:
    """(bound, true optimum) of each solve bounded by a count model that `of` selects,
    recorded as the solves run."""
    seen: list[tuple[int, int]] = []
    last: list[int | None] = []
    original_minimum = CountBound.minimum
    original_solve = LexSolver.solve

    def minimum(self, chunk, fixed):
        value = original_minimum(self, chunk, fixed)
        last.append(value if of(self) else None)
        return value

    def solve(self, objective=None, chunk=(), **kwargs):
        last.clear()
        original_solve(self, objective, chunk, **kwargs)
        if last and last[-1] is not None:
            seen.append((last[-1], sum(w * self.value(t) for t, w in chunk)))

    monkeypatch.setattr(CountBound, "minimum", minimum)
    monkeypatch.setattr(LexSolver, "solve", solve)
    return seen


@pytest.mark.parametrize("path", CORPUS_2026[:6], ids=lambda p: p.stem)
def test_restricted_models_still_match_the_reference(path: Path, restricted_everywhere) -> None:
    t = read_trf(path)
    last = max(len(p.rounds) for p in t.players)
    for rnd in range(1, last + 1):
        if round_exists(t, rnd):
            got = pair(t, rnd, settings=RESTRICTED)
            assert (set(got.as_pairs()), got.bye) == recorded(t, rnd), f"round {rnd}"
    seen = restricted_everywhere
    assert seen, "no tier was bounded: the shortcut was not exercised"
    assert all(least <= optimum for least, optimum in seen), seen


def test_count_bound_is_a_lower_bound_and_often_tight(tmp_path: Path, restricted_everywhere) -> None:
    """A random 240-player round 6: every bound is at most the tier's optimum, the
    shortcut fires, and the pairing equals the one from the full models."""
    t = read_trf(make_large(tmp_path, players=240, seed=3))
    before = STATS["bounded"]
    restricted = pair(t, settings=RESTRICTED)
    seen = restricted_everywhere
    assert all(least <= optimum for least, optimum in seen), seen
    assert sum(least == optimum for least, optimum in seen) >= 3
    assert STATS["bounded"] > before
    full = pair(t, settings=FULL)
    assert restricted.as_pairs() == full.as_pairs()
    assert restricted.bye == full.bye


def test_a_term_that_splits_a_class_gives_no_bound() -> None:
    """The count model checks that each tier weighs a class alike; if not, no bound."""
    t = read_trf(CORPUS_2026[0])
    st = build_state(t, 3)
    present = sorted(st.present, key=st.rank_key)
    bm = BracketModel(st, present, present, frozenset(), [], Compatibility(st, t), frozenset(present))
    counts = CountBound(bm)
    alike = make_term("test", "all downfloaters", ((1, v) for v in bm.df.values()))
    # All 14 present players in one bracket, round 3 as the file pairs it: none floats.
    assert len(present) == 14 and counts.minimum([(alike, 1)], []) == 0
    # The top 13 as the bracket: an odd number, so at least one floats to the 14th (the
    # whole bracket's odd-set cut), and one is enough.
    odd = BracketModel(st, present, present[:13], frozenset(), present[13:], Compatibility(st, t), frozenset(present))
    floats = make_term("test", "all downfloaters", ((1, v) for v in odd.df.values()))
    assert CountBound(odd).minimum([(floats, 1)], []) == 1
    # Weigh one player's downfloat differently from his classmates'.
    p = next(p for p in present if counts.size[counts.cls[p]] > 1)
    split = make_term("test", "one player", ((2 if q == p else 1, v) for q, v in bm.df.items()))
    assert counts.minimum([(split, 1)], []) is None


def test_staged_count_searches_give_the_default_search_bound(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The count model is solved briefly by the default search, then core-based, then by
    the default search again (bounds.py): every bound it gives is the optimum that the
    default search alone proves with a generous budget."""
    from ortools.sat.python import cp_model

    compared: list[tuple[int, int]] = []
    original_minimum = CountBound.minimum

    def minimum(self, chunk, fixed):
        value = original_minimum(self, chunk, fixed)
        if value is not None:
            solver = CountBound._solver(core=False, budget=50.0)
            assert solver.solve(self.model) == cp_model.OPTIMAL
            compared.append((value, round(solver.objective_value)))
        return value

    monkeypatch.setattr(CountBound, "minimum", minimum)
    pair(read_trf(make_large(tmp_path, players=240, seed=3)), settings=RESTRICTED)
    assert compared and all(a == b for a, b in compared), compared


def test_questions_any_solution_answers_are_settled_on_propagation_alone_without_changing_the_pairing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Restricted runs whose objective starts at the count bound, and feasibility
    questions, are first searched without the LP (LexSolver._reaching_run): on a random
    240-player round some are settled there, and the pairing is the one the searches
    with the LP alone give."""
    t = read_trf(make_large(tmp_path, players=240, seed=3))
    before = STATS["propagated"]
    quick = pair(t, settings=RESTRICTED)
    assert STATS["propagated"] > before

    def lp_only(self, budget, level=None):
        return self.run(lambda: self.call(budget=budget, level=level))

    monkeypatch.setattr(LexSolver, "_reaching_run", lp_only)
    before = STATS["propagated"]
    slow = pair(t, settings=RESTRICTED)
    assert STATS["propagated"] == before
    assert (quick.as_pairs(), quick.bye) == (slow.as_pairs(), slow.bye)


def test_a_model_too_small_for_restrictions_gets_the_count_bound_from_bound_from_pairs() -> None:
    """`bound_from`: a bracket model with that many pair variables but fewer than
    `sparse_from` has no restriction and the count model's bound; below it, neither.
    Either way the rounds match the reference engine's."""
    path = CORPUS_2026[0]
    t = read_trf(path)
    st = build_state(t, 3)
    present = sorted(st.present, key=st.rank_key)

    def model(settings: SolverSettings) -> BracketModel:
        return BracketModel(st, present, present, frozenset(), [], Compatibility(st, t), frozenset(present),
                            settings=settings)

    bounded = model(SolverSettings(bound_from=1))
    assert bounded.optional_pairs() == [] and bounded.solver.bound is not None
    assert model(SolverSettings(bound_from=10**9)).solver.bound is None
    for rnd in range(2, 6):
        for settings in (SolverSettings(bound_from=1), SolverSettings(bound_from=10**9)):
            got = pair(t, rnd, settings=settings)
            assert (set(got.as_pairs()), got.bye) == recorded(t, rnd), f"round {rnd}"


def _without_odd_set_cuts(monkeypatch: pytest.MonkeyPatch) -> None:
    """The count model as it was before its odd-set cuts (bounds.py)."""
    from cpsat_pairing.solver import bounds

    monkeypatch.setattr(bounds, "_odd_set_cut", lambda *args: None)


def test_odd_set_cuts_keep_every_count_bound(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The cuts hold in every whole solution: each count model's optimum, proven with a
    generous budget, is the same with and without them (a random 240-player round,
    every tier bounded)."""
    from ortools.sat.python import cp_model

    optima: list[list[int]] = [[], []]
    original_minimum = CountBound.minimum

    def minimum(self, chunk, fixed, into=optima[0]):
        value = original_minimum(self, chunk, fixed)
        solver = CountBound._solver(core=False, budget=50.0)
        assert solver.solve(self.model) == cp_model.OPTIMAL
        into.append(round(solver.objective_value))
        return value

    t = read_trf(make_large(tmp_path, players=240, seed=3))
    monkeypatch.setattr(CountBound, "minimum", minimum)
    with_cuts = pair(t, settings=RESTRICTED)
    _without_odd_set_cuts(monkeypatch)
    monkeypatch.setattr(CountBound, "minimum", lambda self, c, f: minimum(self, c, f, optima[1]))
    without = pair(t, settings=RESTRICTED)
    assert optima[0] and optima[0] == optima[1]
    assert (with_cuts.as_pairs(), with_cuts.bye) == (without.as_pairs(), without.bye)


@pytest.mark.parametrize("cuts", [True, False])
def test_an_odd_brackets_count_model_knows_its_downfloater_at_the_root(
    cuts: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The LP of an odd bracket's count model pairs half players and floats nobody; with
    the odd-set cuts its root bound is the one downfloater the bracket must have, so a
    packed objective that weighs downfloaters heavily is proven without a search."""
    from ortools.sat.python import cp_model

    if not cuts:
        _without_odd_set_cuts(monkeypatch)
    t = read_trf(make_large(tmp_path, players=240, seed=3))
    st = build_state(t, max(len(p.rounds) for p in t.players) + 1)
    present = sorted(st.present, key=st.rank_key)
    bracket = present[:119]  # odd, every player below it too
    bm = BracketModel(st, present, bracket, frozenset(), [], Compatibility(st, t), frozenset(present))
    counts = CountBound(bm)
    floaters = make_term("test", "downfloaters", ((1, v) for v in bm.df.values()))
    counts.model.minimize(sum(c * counts.var[g] for g, c in counts._aggregate(floaters).items()))
    solver = CountBound._solver(core=False, budget=1.0)
    solver.parameters.max_number_of_conflicts = 0
    solver.parameters.cp_model_presolve = False
    solver.parameters.cut_level = 0  # the LP of the rows alone
    solver.solve(counts.model)
    assert (solver.best_objective_bound >= 1) == cuts


def test_a_2017_bracket_that_completes_the_round_gets_the_count_bound() -> None:
    """The count model states what a 2017 model that completes the round (the last
    bracket, the PPB, the CLB) keeps: each player paired once or given the PAB; so such
    a model gets its bound from `bound_from` pairs.  A normal bracket with the players
    below, who may stay unpaired there, gets none; nor does a model whose completion is
    a tier."""
    t = read_trf(CORPUS_2017_JAVAFO[0])
    st = build_state(t, 5, load_edition("dutch-2017").state_rules)
    present = sorted(st.present, key=st.rank_key)
    top, below = present[:20], present[20:]
    compatible = Compatibility(st, t)
    pab = frozenset(p for p in present if st.players[p].pab_eligible)

    def model(lower: list[int], special: bool, soft: bool = False, bound_from: int = 1) -> BracketModel2017:
        return BracketModel2017(st, top, frozenset(), lower, compatible, pab, special, odd=len(present) % 2 == 1,
                                soft_completion=soft, settings=SolverSettings(bound_from=bound_from))

    assert model(below, special=True).solver.bound is not None
    assert model(below, special=True, bound_from=10**9).solver.bound is None
    assert model(below, special=True, soft=True).solver.bound is None
    assert model(below[:30], special=False).solver.bound is None


@pytest.mark.parametrize("path", [*CORPUS_2017[:2], *CORPUS_2017_JAVAFO[:2]], ids=lambda p: p.stem)
def test_2017_completing_brackets_bounded_everywhere_match_the_reference(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every 2017 model that completes the round bounded by its count model (`bound_from`
    1; these files' rounds have last brackets, PPBs and CLBs): every bound is at most
    the tier's optimum, some are reached, and every round is the reference engine's."""
    seen = _record_bounds(monkeypatch, of=lambda counts: counts.bm.special)
    t = read_trf(path)
    settings = SolverSettings(bound_from=1)
    for rnd in range(1, max(len(p.rounds) for p in t.players) + 1):
        if round_exists(t, rnd):
            got = pair(t, rnd, "dutch-2017", settings=settings)
            assert (set(got.as_pairs()), got.bye) == recorded(t, rnd), f"round {rnd}"
    assert seen, "no completing bracket was bounded"
    assert all(least <= optimum for least, optimum in seen), seen
    assert any(least == optimum for least, optimum in seen)
