"""The 2017 edition: reference pairings (bbpPairings 5.0 / JaVaFo 2.2) and hand-made
brackets for the PSD (A.8, C.6) and the PPB / CLB (A.9, C.4)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from helpers import CORPUS_2017, CORPUS_2017_JAVAFO

from cpsat_pairing import evaluate, load_edition, pair, parse_trf, read_trf
from cpsat_pairing.apps.check import file_round, with_rounds_in_file
from cpsat_pairing.domain.compat import Compatibility
from cpsat_pairing.domain.state import build_state, round_exists
from cpsat_pairing.dutch.completion import complete_pairing
from cpsat_pairing.dutch.e2017.bracket import BracketModel2017
from cpsat_pairing.dutch.edition import edition_named, resolve_edition
from cpsat_pairing.dutch.registry import CRITERIA

REGISTRY2017 = CRITERIA
ED = "dutch-2017"


@pytest.mark.slow
@pytest.mark.parametrize("path", CORPUS_2017 + CORPUS_2017_JAVAFO, ids=lambda p: p.stem)
def test_replay_matches_reference_engine_2017(path: Path) -> None:
    """Every round of a 2017-rules tournament, re-paired from its history."""
    t = read_trf(path)
    last = max(len(p.rounds) for p in t.players)
    t = with_rounds_in_file(t, last)  # JaVaFo's files: the rounds played are all the rounds
    checked = 0
    for rnd in range(1, last + 1):
        if not round_exists(t, rnd):
            continue
        fr = file_round(t, rnd)
        got = pair(t, rnd, ED)
        if t.initial_colour is None and checked == 0:
            # JaVaFo drew the initial colour: round 1 compares by ids only.
            assert {frozenset(pq) for pq in got.as_pairs()} == {frozenset(pq) for pq in fr.pairs}, f"round {rnd}"
        else:
            assert (set(got.as_pairs()), got.bye) == (set(fr.pairs), fr.bye), f"round {rnd}"
        assert got.bye == fr.bye, f"round {rnd}"
        checked += 1
    assert checked >= 5


def _trf(results: dict[int, list[tuple[int, str, str]]], forbidden=(), rounds: int = 5) -> str:
    """Players 1..n (rating order) with their rounds as (opponent, colour, result)."""
    points = {"1": Fraction(1), "=": Fraction(1, 2), "0": Fraction(0), "+": Fraction(1), "-": Fraction(0),
              "U": Fraction(1)}
    lines = ["012 Hand-made bracket"]
    for i, rs in sorted(results.items()):
        pts = sum((points[r] for _, _, r in rs), Fraction(0))
        head = f"001 {i:4d}      Player {i:<27d} {2500 - i:4d}                           {float(pts):4.1f} {i:4d}"
        lines.append(head + "".join(f"  {o:4d} {c} {r}" if o else f"  0000 - {r}" for o, c, r in rs))
    lines += [f"XXP {a} {b}" for a, b in forbidden]
    lines += [f"XXR {rounds}", "XXC white1"]
    return "\n".join(lines) + "\n"


# Round 1: 1-4, 2-5, 3-6, the higher-ranked players win.
ROUND1 = {1: [(4, "w", "1")], 2: [(5, "b", "1")], 3: [(6, "w", "1")],
          4: [(1, "b", "0")], 5: [(2, "w", "0")], 6: [(3, "b", "0")]}


def test_normal_brackets_without_ppb() -> None:
    """Round 2 of six: 1-2 in the top bracket (D.1), 3 floats and meets 4 (PSD), 5-6."""
    p = pair(parse_trf(_trf(ROUND1)), 2, ED)
    assert {frozenset(pq) for pq in p.as_pairs()} == {frozenset(x) for x in [(1, 2), (3, 4), (5, 6)]}
    assert [br.kind for br in p.brackets] == ["", ""]


def test_ppb_and_clb() -> None:
    """Player 5 may meet only 2 (1 was his opponent, the others are forbidden).  The top
    bracket's own best pairing 1-2 (its look-ahead [C.7] sees only the 0.5 scoregroup)
    cannot be completed, so it is the PPB and is paired again with everybody below; its
    downfloater 2 and the collapsed scoregroup (0.5 and 0) form the CLB."""
    r = {1: [(5, "w", "1")], 2: [(6, "b", "1")], 3: [(7, "w", "1")], 4: [(8, "b", "=")],
         5: [(1, "b", "0")], 6: [(2, "w", "0")], 7: [(3, "b", "0")], 8: [(4, "w", "=")]}
    t = parse_trf(_trf(r, forbidden=[(5, q) for q in (3, 4, 6, 7, 8)]))
    p = pair(t, 2, ED)
    got = {frozenset(pq) for pq in p.as_pairs()}
    assert {frozenset((1, 3)), frozenset((2, 5))} <= got and len(got) == 4
    assert [br.kind for br in p.brackets] == ["PPB", "CLB"]
    assert p.brackets[0].downfloaters == [2]
    assert sorted(p.brackets[1].residents) == [4, 5, 6, 7, 8] and p.brackets[1].mdps == [2]
    # Without the forbidden pairs the same bracket is an ordinary one: 1-2, 3 floats.
    q = pair(parse_trf(_trf(r)), 2, ED)
    assert frozenset((1, 2)) in {frozenset(pq) for pq in q.as_pairs()}
    assert all(br.kind == "" for br in q.brackets)


class _Meetings:
    """Who may meet whom among players 1-3, as `Compatibility` lists it."""

    def __init__(self, ok) -> None:
        self.ok = ok

    def neighbours(self, p: int) -> frozenset[int]:
        return frozenset(q for q in (1, 2, 3) if q != p and self.ok(p, q))


def _is_complete_and_legal(pairs: list[tuple[int, int]], players: list[int], ok: _Meetings,
                           eligible: frozenset[int]) -> bool:
    """Each player paired at most once, each pair allowed to meet, and at most one left
    out, who may have the PAB."""
    paired = [p for pq in pairs for p in pq]
    left = set(players) - set(paired)
    return (len(paired) == len(set(paired)) and set(paired) <= set(players)
            and all(q in ok.neighbours(p) for p, q in pairs) and len(left) <= 1 and left <= eligible)


def test_completable_counts_the_pab_eligibility() -> None:
    """C.2 / C.4: with an odd number left, the one unpaired must be allowed the PAB."""
    anyone = _Meetings(lambda p, q: True)
    got = complete_pairing([1, 2, 3], anyone, frozenset({3}))
    assert got is not None and _is_complete_and_legal(got, [1, 2, 3], anyone, frozenset({3}))
    assert sorted(map(sorted, got)) == [[1, 2]]  # only 3 may have the PAB
    not_1_2 = _Meetings(lambda p, q: {p, q} != {1, 2})
    got = complete_pairing([1, 2, 3], not_1_2, frozenset({1, 3}))
    assert got is not None and _is_complete_and_legal(got, [1, 2, 3], not_1_2, frozenset({1, 3}))
    assert sorted(map(sorted, got)) == [[2, 3]]  # 1-2 may not meet, so 1 has the PAB
    assert complete_pairing([1, 2, 3], not_1_2, frozenset({3})) is None
    assert complete_pairing([1, 2, 3], anyone, frozenset()) is None


def _bracket(t, rnd: int, bracket: list[int], mdps: list[int], lower: list[int], special: bool = False):
    st = build_state(t, rnd, load_edition(ED).state_rules)
    ok = Compatibility(st, t)
    eligible = frozenset(p for p in st.present if st.players[p].pab_eligible)
    return BracketModel2017(st, bracket, frozenset(mdps), lower, ok, eligible, special, odd=len(st.present) % 2 == 1)


def test_psd_terms_count_pairs_and_downfloaters_by_sd() -> None:
    """A.8: pair SD = score difference; downfloater SD = score - (lowest score - 1)."""
    t = parse_trf(_trf(ROUND1))
    bm = _bracket(t, 2, [1, 2, 3], [], [4, 5, 6])
    names = [term.name for term in REGISTRY2017["C.6"](bm)]
    # Downfloaters of the 1-point bracket over a 0-point scoregroup: SD 2; pairs: SD 0.
    assert names == ["C.6 PSD: SDs of 2", "C.6 PSD: SDs of 0"]
    bm.solver.solve()
    bm.solver.minimize(REGISTRY2017["C.5"](bm) + REGISTRY2017["C.6"](bm))
    assert [tier.value for tier in bm.solver.trace] == [1, 1, 1]


def test_psd_prefers_pairing_the_highest_mdp() -> None:
    """C.6: of two MDPs of different scores the higher one is paired (its SD as a
    downfloater is the larger), whatever their BSNs."""
    # Round 1: 1 beats 5, 2 draws 6, 3 beats 7, 4 beats 8.  Round 2: 1 beats 3, 2 and 4 ...
    r = {1: [(5, "w", "1"), (3, "b", "1")], 3: [(7, "w", "1"), (1, "w", "0")],
         2: [(6, "b", "="), (4, "w", "=")], 4: [(8, "b", "1"), (2, "b", "=")],
         5: [(1, "b", "0"), (7, "b", "0")], 7: [(3, "b", "0"), (5, "w", "1")],
         6: [(2, "w", "="), (8, "w", "1")], 8: [(4, "w", "0"), (6, "b", "0")]}
    t = parse_trf(_trf(r))
    st = build_state(t, 3, load_edition(ED).state_rules)
    scores = {p: st.players[p].pairing_score for p in st.present}
    assert scores[1] == 2 and scores[4] == Fraction(3, 2) and scores[2] == 1
    # Bracket 1.0 = {3, 6, 7, 2} with MDPs 1 (2.0) and 4 (1.5) coming down: the PSD pairs 1.
    bm = _bracket(t, 3, [1, 4, 2, 3, 6, 7], [1, 4], [5, 8])
    bm.solver.solve()
    terms = REGISTRY2017["C.5"](bm) + REGISTRY2017["C.6"](bm)
    bm.solver.minimize(terms)
    assert bm.solver.var_value(bm.df[1]) == 0


@pytest.mark.parametrize(
    "text, edition",
    [("FIDE_DUTCH_2017", "dutch-2017"), ("FIDE_DUTCH_2017_BAKU", "dutch-2017"), ("FIDE_DUTCH_2025", "dutch-2026"),
     ("FIDE_DUTCH_2026", "dutch-2026"), ("Individual  Swiss Dutch 2017 rules", "dutch-2017"),
     ("Individual  Swiss Dutch (Istanbul 2012 rules)", "dutch-2013"), ("Dutch 2013", "dutch-2013"),
     ("Open 2017", None), ("FIDE_DUTCH", None), ("AutoTest 3871978950438", None)],
)
def test_edition_named_by_the_file(text: str, edition: str | None) -> None:
    assert edition_named(text) == edition


def test_resolve_edition_notes() -> None:
    assert resolve_edition(None, "FIDE_DUTCH_2017")[0] == "dutch-2017"
    used, notes = resolve_edition("dutch-2026", "Swiss Dutch 2017 rules")
    assert used == "dutch-2026" and "warning" in notes[0]
    assert resolve_edition(None, None) == ("dutch-2026", [])


def test_forced_pairing_is_scored_on_the_same_ppb() -> None:
    """check/why-not: a given pairing of the PPB round is scored with the same brackets."""
    r = {1: [(5, "w", "1")], 2: [(6, "b", "1")], 3: [(7, "w", "1")], 4: [(8, "b", "=")],
         5: [(1, "b", "0")], 6: [(2, "w", "0")], 7: [(3, "b", "0")], 8: [(4, "w", "=")]}
    t = parse_trf(_trf(r, forbidden=[(5, q) for q in (3, 4, 6, 7, 8)]))
    ours = pair(t, 2, ED)
    other = evaluate(t, 2, [(3, 1), (2, 5), (4, 7), (6, 8)], ED)
    assert [br.kind for br in other.brackets] == ["PPB", "CLB"]
    assert [br.tiers[:2] for br in other.brackets][0] == [br.tiers[:2] for br in ours.brackets][0]
