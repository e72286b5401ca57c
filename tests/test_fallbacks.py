"""Only the exact model may end a round: every relaxation that fails hands over.

Each relaxed or partial model (the aggregate model, the lazy model, the bracket-alone
solve after [C8], the restrictions of big models, the fixed search's budget, the count
bound, the repair proposals) is forced to fail here, and the round must still be
paired, identical to the reference engine; the bug reproducers stay as regressions.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from ortools.sat.python import cp_model

from cpsat_pairing import NoValidPairing, SolveLimitError, SolverSettings, pair, parse_trf, read_trf
from cpsat_pairing.domain.state import round_exists
from cpsat_pairing.dutch import bracket, order
from cpsat_pairing.dutch.bracket import BracketModel
from cpsat_pairing.dutch.e2013 import procedure as procedure2013
from cpsat_pairing.dutch.e2026.modelled import BracketByModel
from cpsat_pairing.formats.pair_list import write_pair_list
from cpsat_pairing.solver import lex
from cpsat_pairing.solver.bounds import CountBound
from cpsat_pairing.solver.cpsat import STATS, InfeasibleError
from cpsat_pairing.solver.lex import LexSolver
from cpsat_pairing.testing.corpus import recorded
from cpsat_pairing.testing.handmade import no_pairing_round_4

from helpers import BUGS, CORPUS_2026

# Restrictions on every model, narrow enough that the restricted optimum is often not the full one.
RESTRICTED = SolverSettings(sparse_from=0, windows=(1, 2), direct_brackets=0)


@pytest.mark.parametrize("case", ["infeasible-local-r10", "exchange-order-r6"])
def test_bug_reproducers_pair_as_the_reference_engine(case: str) -> None:
    t = read_trf(BUGS / f"{case}.trf")
    p = pair(t)
    assert write_pair_list(p.as_pairs(), p.bye) == (BUGS / f"{case}.dutch-2026.pairs").read_text()


# Every 2026 bracket on its models: these files' brackets are small enough to be paired
# by their candidates otherwise (dutch/e2026/direct.py), and the models are under test.
MODELS_ONLY = SolverSettings(direct_brackets=0)


def _replays_exactly(paths: list[Path], edition: str = "dutch-2026", settings: SolverSettings = MODELS_ONLY) -> int:
    """Pair every round of the files as the reference engine did; the rounds paired."""
    n = 0
    for path in paths:
        t = read_trf(path)
        for rnd in range(1, max(len(p.rounds) for p in t.players) + 1):
            if round_exists(t, rnd):
                got = pair(t, rnd, edition, settings)
                ours, theirs = (set(got.as_pairs()), got.bye), recorded(t, rnd)
                if rnd == 1 and t.initial_colour is None:  # a colour drawn by lot: pairs only
                    ours, theirs = ({frozenset(pq) for pq in ours[0]}, ours[1]), (
                        {frozenset(pq) for pq in theirs[0]}, theirs[1])
                assert ours == theirs, f"{path.name} round {rnd}"
                n += 1
    return n


def _failing(kinds: set[str], error: type[Exception]):
    """BracketByModel.solve, raising `error` for the model kinds in `kinds`."""
    original = BracketByModel.solve

    def solve(rc, bracket, kind, on_tier, *args, **kwargs):
        if kind in kinds:
            raise error("forced to fail")
        return original(rc, bracket, kind, on_tier, *args, **kwargs)

    return staticmethod(solve)


@pytest.mark.parametrize("error", [InfeasibleError, SolveLimitError, NoValidPairing])
@pytest.mark.parametrize("kinds", [{"aggregate"}, {"aggregate", "lazy"}], ids=["aggregate", "aggregate+lazy"])
def test_failed_relaxed_bracket_models_fall_back(monkeypatch, kinds, error) -> None:
    monkeypatch.setattr(BracketByModel, "solve", _failing(kinds, error))
    before = STATS["fallbacks"]
    assert _replays_exactly(CORPUS_2026[:2] + [BUGS / "infeasible-local-r10.trf"]) > 0
    assert STATS["fallbacks"] > before


@pytest.mark.parametrize("error", [InfeasibleError, SolveLimitError])
def test_failed_bracket_alone_solve_falls_back(monkeypatch, error) -> None:
    """The bracket-alone model (after [C8]) fails in its first solve: the full model decides."""
    original = BracketModel.__post_init__

    def post_init(self) -> None:
        original(self)
        if self.local:
            def fail(*args, **kwargs):
                raise error("forced to fail")

            self.solver.minimize = fail

    monkeypatch.setattr(BracketModel, "__post_init__", post_init)
    before = STATS["fallbacks"]
    assert _replays_exactly(CORPUS_2026[:3] + [BUGS / "infeasible-local-r10.trf"]) > 0
    assert STATS["fallbacks"] > before


def test_2013_lazy_model_without_a_solution_leaves_the_exact_model_to_prove_it(monkeypatch) -> None:
    """In the 2013 loop the lazy model is the procedure's own (C.12 looks at the next
    bracket only), not a relaxation of the exact model's tiers; only its having no
    solution at all -- relaxing completion -- hands over to the exact model.  The
    aggregate model, a relaxation of the lazy one, is tried before it."""
    original = procedure2013._solve
    kinds = []

    def solve(rc, players, mdps, next_group, kind, *rest):
        kinds.append(kind)
        if kind == "lazy":
            raise InfeasibleError("forced to fail")
        return original(rc, players, mdps, next_group, kind, *rest)

    monkeypatch.setattr(procedure2013, "_solve", solve)
    with pytest.raises(NoValidPairing) as info:
        pair(parse_trf(no_pairing_round_4()), 4, "dutch-2013")
    assert kinds == ["aggregate", "lazy", "exact"] and 1 in info.value.players


def test_restrictions_that_find_nothing_leave_the_full_model_to_decide(monkeypatch) -> None:
    """Restrictions on every model, each finding nothing within its budget."""
    calls = []

    def nothing(self, level=0, reach=False):
        calls.append(level)
        return None

    monkeypatch.setattr(LexSolver, "_restricted_run", nothing)
    assert _replays_exactly(CORPUS_2026[:2], settings=RESTRICTED) > 0
    assert calls


def test_searches_on_propagation_alone_that_find_nothing_leave_the_lp_search_to_decide(monkeypatch) -> None:
    """The first, LP-free try at a question any solution answers (LexSolver._reaching_run)
    has no budget at all and reports nothing found (with no budget CP-SAT still settles
    a model its loading decides): the search with the LP answers every one."""
    before = STATS["propagated"]
    real = LexSolver._propagation

    def nothing(self, level=None):  # type: ignore[no-untyped-def]
        solver, _ = real(self, level)
        return solver, cp_model.UNKNOWN

    monkeypatch.setattr(lex, "propagation_budget", lambda settings, size: 0.0)
    monkeypatch.setattr(LexSolver, "_propagation", nothing)
    assert _replays_exactly(CORPUS_2026[:2], settings=RESTRICTED) > 0
    assert STATS["propagated"] == before


def test_fixed_search_past_its_budget_is_solved_tier_by_tier(monkeypatch) -> None:
    """The transposition's fixed search stops at once, with and without the LP."""
    calls = []
    original = order._fix_partners_tier_by_tier

    def tier_by_tier(*args, **kwargs):
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(order, "_fix_partners_tier_by_tier", tier_by_tier)
    at_once = SolverSettings(propagation_budget=0.0, fixed_search_budget=0.0, greedy_transposition=False,
                             direct_brackets=0)
    assert _replays_exactly(CORPUS_2026[:2] + [BUGS / "exchange-order-r6.trf"], settings=at_once) > 0
    assert calls


def test_bounds_and_repairs_that_give_nothing(monkeypatch) -> None:
    """The count model gives no bound and repair no proposal: the solves decide."""
    monkeypatch.setattr(CountBound, "minimum", lambda self, chunk, fixed: None)
    monkeypatch.setattr(bracket, "repair", lambda bm, chunk, target=None, **options: None)
    assert _replays_exactly(CORPUS_2026[:2], settings=RESTRICTED) > 0


def test_only_the_exact_model_says_no_valid_pairing(monkeypatch) -> None:
    """Every relaxation failing changes nothing when the round truly has no pairing:
    the exact model's NoValidPairing, naming the players."""
    monkeypatch.setattr(BracketByModel, "solve", _failing({"aggregate", "lazy"}, InfeasibleError))
    with pytest.raises(NoValidPairing) as info:
        pair(parse_trf(no_pairing_round_4()), 4)
    assert 1 in info.value.players
