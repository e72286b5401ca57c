"""The mistakes real programs make, judged: every wrong round gets a verdict (never an
error, never "match"), and scoring a given pairing builds a model of the pairs it
leaves open only, with every tier's value as on the model of every pair."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from cpsat_pairing import read_trf
from cpsat_pairing.apps.check import Verdict, check_round, file_round
from cpsat_pairing.apps.compare import aligned, bracket_of, first_difference, relevant_tiers
from cpsat_pairing.dutch.bracket import BracketModel
from cpsat_pairing.dutch.e2017 import bracket as bracket2017
from cpsat_pairing.dutch.e2013 import procedure as procedure2013
from cpsat_pairing.dutch.e2026 import modelled as modelled2026
from cpsat_pairing.domain.compat import Compatibility
from cpsat_pairing.domain.state import build_state
from cpsat_pairing.dutch.edition import as_edition
from cpsat_pairing.dutch.rounds import evaluate, illegalities, pair
from cpsat_pairing.errors import NotAPairing
from cpsat_pairing.solver.settings import DEFAULT_SETTINGS
from cpsat_pairing.testing.wrong import KINDS, MISTAKES, judge_round, with_round

from helpers import BUGS, CORPUS

SAMPLE = [(CORPUS / "dutch-2026" / "dev" / "t000044.trf", "dutch-2026", 4),
          (CORPUS / "dutch-2017" / "dev" / "t000049.trf", "dutch-2017", 3)]


@pytest.mark.parametrize(("path", "edition", "rnd"), SAMPLE, ids=lambda x: getattr(x, "stem", str(x)))
def test_every_wrong_round_is_judged_and_none_is_a_match(path: Path, edition: str, rnd: int) -> None:
    judged = judge_round(read_trf(path), rnd, edition)
    assert {j.kind for j in judged} >= {"far pairing", "by rating", "colours swapped", "no previous results"}
    for j in judged:
        assert j.verdict not in (Verdict.ERROR, Verdict.MATCH), (j.kind, j.verdict, j.summary)
    assert next(j for j in judged if j.kind == "colours swapped").verdict is Verdict.COLOURS_DIFFER


def test_every_kind_has_its_mistake() -> None:
    assert set(MISTAKES) == set(KINDS)


@pytest.mark.parametrize(("path", "edition"), [(CORPUS / "dutch-2017" / "dev" / "t000049.trf", "dutch-2017"),
                                             (CORPUS / "dutch-2026" / "dev" / "t000044.trf", "dutch-2026"),
                                             (CORPUS / "dutch-2013" / "dev" / "j000044.trf", "dutch-2013")],
                         ids=["2017", "2026", "2013"])
def test_given_pairs_score_as_the_model_of_every_pair(monkeypatch: pytest.MonkeyPatch, path: Path,
                                                      edition: str) -> None:
    """The model fixed to a file's pairing holds only the pairs it leaves open
    (2017: e2017/bracket.given_rows; 2026 and 2013's lowest bracket: BracketModel.given)
    and fixes them by their domains, so that a tier over them reads its value off them
    (LexSolver.read_fixed_tiers);
    2017's normal bracket is the bracket alone, [C.7] a matching of its fixed
    downfloaters (procedure._given_by_lookahead); with every pair and every tier
    solved instead, the same value on every tier, the same pairs and downfloaters."""
    t = read_trf(path)
    # 2017 without the bracket alone: [C.7] solved on the model of the next scoregroup's pairs.
    every_pair = dataclasses.replace(DEFAULT_SETTINGS, bracket_alone=edition != "dutch-2017")
    compared = 0
    for rnd in (2, 4):
        for kind in ("far pairing", "no previous results", "other edition"):
            wrong = MISTAKES[kind](t, rnd, edition)
            if wrong is None:
                continue
            w = with_round(t, rnd, wrong)
            fr = file_round(w, rnd)
            if illegalities(w, rnd, list(fr.pairs), fr.bye, edition):
                continue
            given = evaluate(w, rnd, list(fr.pairs), edition)
            with monkeypatch.context() as m:
                m.setattr(bracket2017, "given_rows", lambda rows, bm, partner: rows)
                m.setattr(modelled2026, "partners", lambda pairs: None)
                m.setattr(procedure2013, "partners", lambda pairs: None)
                m.setattr(bracket2017.BracketModel2017, "_forced_values", lambda self, partner: iter(()))
                m.setattr(BracketModel, "_forced_values", lambda self, partner: iter(()))
                every = evaluate(w, rnd, list(fr.pairs), edition, settings=every_pair)
            assert len(given.brackets) == len(every.brackets)
            for a, b in zip(given.brackets, every.brackets):
                assert [(t.name, x, y) for t, x, y in aligned(a.tiers, b.tiers) if x != y] == []
                assert set(a.pairs) == set(b.pairs) and a.downfloaters == b.downfloaters
            compared += 1
    assert compared >= 2


def test_a_far_accelerated_round_is_judged_on_a_small_model(monkeypatch: pytest.MonkeyPatch) -> None:
    """accel-far-389 (a round 1 paired as if there were no acceleration): the 2017
    check scored it on models of every pair, minutes and 1.3 GiB; now each model
    holds the given pairs and those [C.7] still chooses."""
    sizes: list[tuple[int, int]] = []  # (pairs of every model, pairs held)
    real = bracket2017.given_rows

    def recording(rows, bm, partner):  # type: ignore[no-untyped-def]
        out = real(rows, bm, partner)
        sizes.append((sum(len(r) for _, r in rows), sum(len(r) for _, r in out)))
        return out

    t = read_trf(BUGS / "accel-far-389.trf")
    res = check_round(t, 1, "dutch-2017")
    assert res.verdict is Verdict.PAIRS_DIFFER and res.difference is not None
    assert res.difference.tier is not None and res.difference.tier.criterion == "C.5"
    # The check scores the top bracket only (the first difference is there); every
    # bracket is scored when the given pairing is scored on its own.
    monkeypatch.setattr(bracket2017, "given_rows", recording)
    assert res.file is not None
    evaluate(t, 1, list(res.file.pairs), "dutch-2017")
    # The round's last bracket (everybody below the top group) holds the given pairs
    # alone; the top bracket keeps the next group's pairs for [C.7].
    assert sizes[-1][1] <= len(t.players) < sizes[-1][0] // 10
    assert sum(held for _, held in sizes) < sum(every for every, _ in sizes) // 3


@pytest.mark.parametrize(("path", "edition"), [(CORPUS / "dutch-2017" / "dev" / "t000049.trf", "dutch-2017"),
                                             (CORPUS / "dutch-2026" / "dev" / "t000044.trf", "dutch-2026"),
                                             (CORPUS / "dutch-2013" / "dev" / "j000044.trf", "dutch-2013")],
                         ids=["2017", "2026", "2013"])
def test_check_scores_down_to_the_first_difference(path: Path, edition: str) -> None:
    """`check` scores a wrong round against the rules' pairing down to the first bracket
    not alike it only (RoundContext.parted; 2017's PPB question read off the rules'
    trace): the same difference and the same tiers side by side as with every bracket
    scored, on fewer brackets when the difference lies above the last one."""
    t = read_trf(path)
    compared = shorter = 0
    for rnd in (2, 4):
        for kind in ("far pairing", "by rating", "no previous results", "other edition"):
            wrong = MISTAKES[kind](t, rnd, edition)
            if wrong is None:
                continue
            w = with_round(t, rnd, wrong)
            res = check_round(w, rnd, edition)
            if res.verdict is not Verdict.PAIRS_DIFFER:
                continue
            assert res.rules is not None and res.file is not None
            every = evaluate(w, rnd, list(res.file.pairs), edition)
            diff = first_difference(res.rules, every)
            assert res.difference == diff
            found = bracket_of(diff, res.rules, every) if diff is not None else None
            assert res.side_by_side == (relevant_tiers(diff, *found) if diff is not None and found else [])
            cut = evaluate(w, rnd, list(res.file.pairs), edition, against=res.rules)
            assert [(b.score, b.tiers, b.pairs) for b in cut.brackets] == [
                (b.score, b.tiers, b.pairs) for b in every.brackets[: len(cut.brackets)]]
            shorter += len(cut.brackets) < len(every.brackets)
            compared += 1
    assert compared >= 2 and shorter >= 1


@pytest.mark.parametrize("edition", ["dutch-2026", "dutch-2017", "dutch-2013"])
def test_what_is_not_a_pairing_is_refused_with_its_reason(edition: str) -> None:
    """`evaluate` scores complete, legal round-pairings only: a rematch, a player twice,
    two players left out are refused by name (they raised KeyError in the bracket
    models, which have no such pair)."""
    t = read_trf(CORPUS / "dutch-2017" / "dev" / "t000049.trf")
    rules = pair(t, 3, edition).as_pairs()
    (a, b), rest = rules[0], rules[1:]
    st = build_state(t, 3, as_edition(edition).state_rules)
    met = next(q for q in sorted(st.players[a].opponents) if any(q in pq for pq in rest))
    other = next(pq for pq in rest if met in pq)
    c = other[0] if other[1] == met else other[1]
    rematch = [pq for pq in rest if pq != other] + [(a, met), (b, c)]
    for given, said in ((rematch, f"[C1] {a} and {met} have already played each other"),
                        (rest, f"players {min(a, b)}, {max(a, b)} are left unpaired"),
                        ([*rest, (a, b), (a, b)], f"player {a} is paired twice")):
        with pytest.raises(NotAPairing, match=re.escape(said)):
            evaluate(t, 3, given, edition)


def test_a_special_bracket_forced_to_pair_two_mdps_says_so() -> None:
    """The 2017 model of a special bracket has no pair of two MDPs (theirs is made in
    the bracket they come from): forcing one is refused by name, not a KeyError."""
    t = read_trf(CORPUS / "dutch-2017" / "dev" / "t000049.trf")
    st = build_state(t, 3, as_edition("dutch-2017").state_rules)
    comp = Compatibility(st, t)
    players = sorted(st.present, key=st.rank_key)
    a = players[0]
    b = next(q for q in players if comp(a, q))
    c, d = next((c, d) for c in players for d in players
                if c not in (a, b) and d not in (a, b, c) and comp(c, d))
    bracket = sorted([a, b, c, d], key=st.rank_key)
    bm = bracket2017.BracketModel2017(st, bracket, frozenset({a, b}), [], comp, frozenset(st.present), True)
    with pytest.raises(NotAPairing, match=f"pairs {a} with {b}: two MDPs of the bracket|pairs {b} with {a}: two MDPs"):
        bm.force([(a, b), (c, d)])
