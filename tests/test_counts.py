"""Class counts (counts.py): redundant constraints that must never change an answer.

They restate fixed tiers over the numbers of S1-S2 pairs between classes of players.
Checked here: the restatement is exact (the incumbent, which meets every fixed tier,
meets it too), the pairings are the same with and without them, and they do what they
are for: bound propagation alone, without LP or search, refutes a pair that only the
arithmetic of colour preferences excludes -- which lets the transposition's fixed search
run without the LP (solver/search.py), with the same answer.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace

import pytest
from ortools.sat.python import cp_model

from cpsat_pairing import SolverSettings, pair, read_trf
from cpsat_pairing.domain.state import PlayerState
from cpsat_pairing.domain.tournament import Colour
from cpsat_pairing.dutch import order
from cpsat_pairing.solver import search
from cpsat_pairing.solver.counts import add_class_counts
from cpsat_pairing.solver.settings import propagation_budget
from cpsat_pairing.solver.terms import make_term
from cpsat_pairing.testing.large import make_large


@pytest.fixture(scope="module")
def random_round(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A random 200-player tournament after 5 rounds: brackets of 30-70 players."""
    return make_large(tmp_path_factory.mktemp("counts"), players=200, seed=1)


def test_counts_hold_for_the_incumbent_and_change_no_pairing(random_round: Path, monkeypatch) -> None:
    """Every time counts are added, the incumbent (which meets every fixed tier) still
    fits the model with them; and the round's pairing is the one found without them."""
    restated: list[int] = []

    def checked(bm, s1, s2) -> int:
        n = add_class_counts(bm, s1, s2)
        restated.append(n)
        if n:
            # Only the new count variables are free: the incumbent must extend to them.
            assert bm.solver.check([], hint=dict(bm.solver.values)) is not None
        return n

    monkeypatch.setattr(order, "add_class_counts", checked)
    t = read_trf(random_round)
    with_counts = pair(t)
    assert sum(restated) >= 3, restated  # the counts were exercised
    monkeypatch.setattr(order, "add_class_counts", lambda bm, s1, s2: 0)
    without = pair(t)
    assert with_counts.as_pairs() == without.as_pairs()
    assert with_counts.bye == without.bye


def test_fixed_search_without_the_lp_finds_the_same_first_solution(random_round: Path, monkeypatch) -> None:
    """The transposition's fixed search runs on propagation alone first; it must find
    what the search with the LP finds, and on this round it is the one that decides."""
    runs: list[tuple[bool, str]] = []
    original = search._fixed_search

    def recorded(lex, budget, lp):
        solver, status = original(lex, budget, lp)
        runs.append((lp, solver.status_name(status)))
        return solver, status

    monkeypatch.setattr(search, "_fixed_search", recorded)
    t = read_trf(random_round)
    quick = pair(t)
    assert ("False", "OPTIMAL") in {(str(lp), st) for lp, st in runs}, runs
    runs.clear()
    with_lp = pair(t, settings=SolverSettings(propagation_budget=1e-9))
    assert any(lp for lp, _ in runs)
    assert quick.as_pairs() == with_lp.as_pairs() and quick.bye == with_lp.bye


def test_the_completion_tried_in_another_order_changes_no_pairing(random_round: Path, monkeypatch) -> None:
    """After the transposition's decisions the search completes the rest of the round,
    the next scoregroup's counts first (`ahead`); that order picks a completion, never
    the decisions' values: without it, the same pairs and every tier the same."""
    t = read_trf(random_round)
    ordered = pair(t)
    ahead_sizes: list[int] = []
    real = order.first_in_order

    def plain(lex, decisions, budget=None, ahead=()):  # type: ignore[no-untyped-def]
        ahead_sizes.append(len(ahead))
        return real(lex, decisions, budget)

    monkeypatch.setattr(order, "first_in_order", plain)
    unordered = pair(t)
    assert any(ahead_sizes)  # the order was in use on this round
    assert (unordered.as_pairs(), unordered.bye) == (ordered.as_pairs(), ordered.bye)
    assert [b.tiers for b in unordered.brackets] == [b.tiers for b in ordered.brackets]


def test_the_propagation_budget_scaled_to_the_model_changes_no_pairing(random_round: Path) -> None:
    """A small model gets a smaller propagation budget (settings.propagation_full_size,
    propagation_per_variable): the same pairing as with the full budget for every model."""
    t = read_trf(random_round)
    scaled = pair(t)
    full = pair(t, settings=SolverSettings(propagation_full_size=1, propagation_per_variable=1.0))
    assert scaled.as_pairs() == full.as_pairs() and scaled.bye == full.bye
    assert [b.tiers for b in scaled.brackets] == [b.tiers for b in full.brackets]


def test_the_propagation_budget_grows_with_the_model_between_its_floor_and_its_cap() -> None:
    settings = SolverSettings()
    small, middle, big = (propagation_budget(settings, n) for n in (100, 10_000, 1_000_000))
    assert small == settings.propagation_floor
    assert middle == pytest.approx(settings.propagation_per_variable * 10_000)
    assert big == settings.propagation_budget
    # Where the scaled budget is below the floor, the scaled one stands.
    tiny = SolverSettings(propagation_floor=0.1)
    assert propagation_budget(tiny, 100) == pytest.approx(tiny.propagation_budget * 100 / tiny.propagation_full_size)
    sizes = range(0, 500_000, 997)
    budgets = [propagation_budget(settings, n) for n in sizes]
    assert budgets == sorted(budgets)


def _player(pid: int, last: Colour) -> PlayerState:
    """A player with one game played: he prefers the other colour (strongly)."""
    return PlayerState(
        id=pid, score=Fraction(1), pairing_score=Fraction(1), rating=2000, colours=(last,), opponents=frozenset(),
        floats=(), pab_eligible=True, unplayed=0, topscorer=False, had_pab=False,
    )


def _bracket(
    counts: bool, closed: frozenset[tuple[int, int]] = frozenset()
) -> tuple[cp_model.CpModel, dict[tuple[int, int], cp_model.IntVar]]:
    """S1 = 6 players preferring White and 2 preferring Black, S2 = 4 of each; [C12] fixed
    at its minimum, 2 unmet preferences (two White-White pairs are forced).  The pairs
    `closed` are fixed to 0 for good (by their domains), as the exchange leaves them."""
    white, black = Colour.BLACK, Colour.WHITE  # the colour each last had, hence prefers the other
    s1, s2 = list(range(1, 9)), list(range(9, 17))
    last = {p: white if p <= 6 or p >= 13 else black for p in s1 + s2}
    players = {p: _player(p, c) for p, c in last.items()}
    m = cp_model.CpModel()
    x = {(p, q): m.new_bool_var(f"x_{p}_{q}") for p in s1 for q in s2}
    df = {p: m.new_bool_var(f"df_{p}") for p in s1 + s2}
    adj: dict[int, list] = {p: [] for p in s1 + s2}
    for (p, q), v in x.items():
        adj[p].append((q, v))
        adj[q].append((p, v))
    for p in s1 + s2:
        m.add(sum(v for _, v in adj[p]) + df[p] == 1)
        m.add(df[p] == 0)
    for pq in closed:
        m.proto.variables[x[pq].index].domain[1] = 0
    unmet = make_term("C12", "unmet colour preferences", ((1, v) for (p, q), v in x.items() if players[p].pref_colour == players[q].pref_colour))
    m.add(unmet.expr() == 2)
    bm = SimpleNamespace(
        model=m, adj=adj, adj_index={p: [(q, v.index) for q, v in row] for p, row in adj.items()}, df=df, far=None, inside=lambda p, q: True, state=SimpleNamespace(players=players),
        solver=SimpleNamespace(fixed=[(unmet, 2)], zero_for_good=lambda: {x[pq].index for pq in closed}),
    )
    if counts:
        assert add_class_counts(bm, s1, s2) == 1
    return m, x


@pytest.mark.parametrize("counts", [False, True])
def test_counts_let_propagation_refute_an_excluded_pair(counts: bool) -> None:
    """The Black-Black pair 8-9 would be a third unmet preference.  Without the counts
    only search (or the LP) finds that out; with them, propagation at the root does."""
    m, x = _bracket(counts)
    m.add_assumptions([x[8, 9]])
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.linearization_level = 0  # no LP: propagation alone
    solver.parameters.cp_model_presolve = False
    solver.parameters.max_number_of_conflicts = 0
    status = solver.solve(m)
    assert status == (cp_model.INFEASIBLE if counts else cp_model.UNKNOWN)


def _solutions(counts: bool, closed: frozenset[tuple[int, int]] = frozenset()) -> set[frozenset[tuple[int, int]]]:
    """Every solution of `_bracket` (its pairs)."""
    m, x = _bracket(counts, closed)
    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    seen: set[frozenset[tuple[int, int]]] = set()

    class Collect(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            seen.add(frozenset(k for k, v in x.items() if self.value(v)))

    solver.solve(m, Collect())
    return seen


def test_counts_keep_every_solution() -> None:
    """Same bracket: the models with and without the counts have the same solutions."""
    without, with_counts = _solutions(False), _solutions(True)
    assert without and without == with_counts


def test_counts_leave_out_pairs_closed_for_good() -> None:
    """Pairs fixed to 0 for good appear in no count constraint, and the model keeps its
    solutions (the counts stay implied by it)."""
    closed = frozenset({(1, 9), (1, 10), (2, 9), (7, 13), (8, 16)})
    base = len(_bracket(False, closed)[0].proto.constraints)
    m, x = _bracket(True, closed)
    added = list(m.proto.constraints)[base:]
    written = {i for c in added for i in c.linear.vars}
    assert added and written and not written & {x[pq].index for pq in closed}
    without, with_counts = _solutions(False, closed), _solutions(True, closed)
    assert without and without == with_counts
