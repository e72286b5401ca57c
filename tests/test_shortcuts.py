"""Decisions taken without a search, each compared with the search it replaces: every
round pairs the same, with the same tiers, with it and without it; and it does decide.

- the transposition's greedy choice (dutch/order.py, `_greedy_first`): where it is a
  solution it is the fixed search's first, on the bracket alone too (where a solution
  must also pass the check of its downfloaters); and where it is not, the first
  candidate of the depth-first walk that the fixed tiers' sums allow
  (solver/search.py);
- the 2026 tiers' bounds (e2026/criteria.py): [C6] by parity and a maximum matching
  of the bracket, [C7] by what [C6] and the levels above leave, [C8] by the next
  scoregroup's size, [C12] by the colour preferences' counts; an incumbent at its
  bound is optimal without a solve;
- a small bracket model's repair (solver/repair.py, `SolverSettings.small_repair`; the
  2026 and 2013 brackets): a re-pairing inside the bracket (MDPs too) that reaches
  the tiers' own bounds is optimal;
- a given pairing as the round's first witness (`pair(..., hint=)`, which `check` gives
  the file's own): the models start from it, and every tier is still proven.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import itertools

import pytest

from cpsat_pairing import SolverSettings, pair, read_trf
from cpsat_pairing.apps.check import file_round
from cpsat_pairing.domain.state import round_exists
from cpsat_pairing.dutch import order
from cpsat_pairing.dutch.e2026 import criteria as criteria2026
from cpsat_pairing.dutch.registry import CRITERIA
from cpsat_pairing.dutch.result import Pair
from cpsat_pairing.solver.cpsat import STATS

from helpers import CORPUS_2013, CORPUS_2017, CORPUS_2026, without_least

# Every 2026 bracket on its models, whose shortcuts are under test: the corpus files'
# brackets are small enough to be paired by their candidates otherwise (test_direct.py).
MODELS = SolverSettings(direct_brackets=0)
SEARCH_ONLY = SolverSettings(greedy_transposition=False, direct_brackets=0)


def _rounds(paths: list[Path], edition: str, settings: SolverSettings = MODELS,
            hint: Callable[[list[Pair]], list[Pair]] | None = None) -> list[object]:
    """Every round of the files paired: boards, PAB and each bracket's trace; with
    `hint`, from what it makes of the file's own pairs of the round."""
    out: list[object] = []
    for path in paths:
        t = read_trf(path)
        for rnd in range(1, max(len(p.rounds) for p in t.players) + 1):
            if round_exists(t, rnd):
                given = None if hint is None else hint(sorted(file_round(t, rnd).pairs))
                p = pair(t, rnd, edition, settings, hint=given)
                out.append((path.name, rnd, p.boards, p.bye, p.brackets))
    return out


@pytest.mark.parametrize(
    ("counter", "without"),
    [("greedy", SEARCH_ONLY), ("walked", SolverSettings(walk_transposition=False, direct_brackets=0))],
    ids=["greedy choice", "walk"],
)
@pytest.mark.parametrize(
    ("paths", "edition"),
    [(CORPUS_2026[:3], "dutch-2026"), (CORPUS_2017[:2], "dutch-2017"), (CORPUS_2013[:2], "dutch-2013")],
    ids=["2026", "2017", "2013"],
)
def test_the_transpositions_shortcuts_change_no_pairing_and_no_tier(
        paths: list[Path], edition: str, counter: str, without: SolverSettings) -> None:
    """Switched off, a shortcut answers nothing (the greedy choice off: every
    transposition searched; the walk off: the greedy choice, then the search); on, it
    answers some, and every round pairs the same with the same tiers."""
    before = STATS[counter]
    searched = _rounds(paths, edition, without)
    assert STATS[counter] == before
    shortcut = _rounds(paths, edition)
    assert STATS[counter] > before  # it answered some
    assert shortcut == searched


@pytest.mark.parametrize(("paths", "edition"), [(CORPUS_2017[:2], "dutch-2017"), (CORPUS_2013[:2], "dutch-2013")],
                         ids=["2017", "2013"])
def test_the_greedy_choice_on_the_bracket_alone_asks_its_condition(
        paths: list[Path], edition: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """On the bracket alone (dutch/alone.py) a solution must also pass the check of its
    downfloaters (`LexSolver.accept`): the greedy choice answers there too, asks it, and
    changes nothing."""
    searched = _rounds(paths, edition, SEARCH_ONLY)
    asked: list[bool] = []
    kept: list[bool] = []
    real_first = order._greedy_first

    def first(bm, *args):  # type: ignore[no-untyped-def]
        accept = bm.solver.accept
        if accept is None:
            return real_first(bm, *args)

        def asking(values: dict[int, int]) -> bool:
            asked.append(True)
            return accept(values)

        bm.solver.accept = asking
        try:
            kept.append(real_first(bm, *args))
        finally:
            bm.solver.accept = accept
        return kept[-1]

    monkeypatch.setattr(order, "_greedy_first", first)
    assert _rounds(paths, edition) == searched
    assert any(kept) and len(asked) >= sum(kept)  # every kept proposal was asked


@pytest.mark.parametrize(
    ("paths", "edition"),
    [(CORPUS_2026[:4], "dutch-2026"), (CORPUS_2013[:2], "dutch-2013")],
    ids=["2026", "2013"],
)
def test_the_small_models_repair_changes_no_pairing_and_no_tier(paths: list[Path], edition: str) -> None:
    before = STATS["repaired"]
    searched = _rounds(paths, edition, SolverSettings(small_repair=False, direct_brackets=0))
    without = STATS["repaired"] - before
    before = STATS["repaired"]
    repaired = _rounds(paths, edition)
    assert STATS["repaired"] - before > without  # it answered some tiers
    assert repaired == searched


def _crossed(pairs: list[Pair]) -> list[Pair]:
    """Another complete pairing: the partners of the first two boards exchanged (often
    not legal; then the hint is ignored)."""
    if len(pairs) < 2:
        return pairs
    (a, b), (c, d) = pairs[:2]
    return [(a, d), (c, b), *pairs[2:]]


def _rematch(pairs: list[Pair]) -> list[Pair]:
    """Never legal: the first board's players twice."""
    return [*pairs, pairs[0]] if pairs else pairs


@pytest.mark.parametrize(
    ("paths", "edition", "spares"),
    # The 2017 brackets' models start from a matching of their own, not the witness.
    [(CORPUS_2026[:3], "dutch-2026", True), (CORPUS_2017[:2], "dutch-2017", False),
     (CORPUS_2013[:2], "dutch-2013", True)],
    ids=["2026", "2017", "2013"],
)
def test_the_files_own_pairing_as_hint_changes_no_pairing_and_no_tier(paths: list[Path], edition: str,
                                                                      spares: bool) -> None:
    solves, hinted = STATS["solves"], STATS["hinted"]
    searched = _rounds(paths, edition)
    alone = STATS["solves"] - solves
    assert STATS["hinted"] == hinted
    solves = STATS["solves"]
    assert _rounds(paths, edition, hint=list) == searched
    assert STATS["hinted"] - hinted == len(searched)  # every round started from the file's pairing
    assert STATS["solves"] - solves < alone if spares else STATS["solves"] - solves <= alone
    hinted = STATS["hinted"]
    assert _rounds(paths, edition, hint=_crossed) == searched  # a worse pairing, where legal
    assert STATS["hinted"] > hinted
    hinted = STATS["hinted"]
    assert _rounds(paths, edition, hint=_rematch) == searched
    assert STATS["hinted"] == hinted  # never taken


@pytest.mark.parametrize("name", ["C6", "C7", "C8", "C9", "C12", "C14", "C16"])
def test_the_2026_bounds_change_no_pairing_and_no_tier(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    paths = CORPUS_2026[3:16]
    before = STATS["bounded"]
    bounded = _rounds(paths, "dutch-2026")
    with_bound = STATS["bounded"] - before
    monkeypatch.setitem(CRITERIA, name, without_least(CRITERIA[name]))
    before = STATS["bounded"]
    assert _rounds(paths, "dutch-2026") == bounded
    assert STATS["bounded"] - before < with_bound  # the bound decided some of these tiers


def _fewest_by_enumeration(wants: tuple[str | None, ...], floaters: int) -> int:
    """Every choice of floaters, every pairing of the rest: the fewest same-preference pairs."""
    def least(rest: tuple[str | None, ...]) -> int:
        if not rest:
            return 0
        a, others = rest[0], rest[1:]
        return min((a is not None and a == b) + least(others[:j] + others[j + 1:]) for j, b in enumerate(others))

    n = len(wants)
    return min(least(tuple(wants[i] for i in range(n) if i not in out))
               for out in itertools.combinations(range(n), floaters))


@pytest.mark.parametrize(("white", "black", "none"),
                         [(w, b, z) for w in range(5) for b in range(4) for z in range(3) if 0 < w + b + z <= 8])
def test_the_c12_bound_is_the_fewest_same_preference_pairs(white: int, black: int, none: int) -> None:
    wants = ("w",) * white + ("b",) * black + (None,) * none
    n = len(wants)
    for floaters in range(n % 2, n + 1, 2):
        assert criteria2026.fewest_same_preference(n, [white, black], floaters) == _fewest_by_enumeration(wants, floaters)
