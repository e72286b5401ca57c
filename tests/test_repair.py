"""Re-pairing the residents (repair.py): a proposal that must never change an answer.

The restriction, the count bound and the repair are switched on for every model
(`SolverSettings.sparse_from` 0), so that small rounds go through them.  Checked: the pairings are the
ones found without the repair, the repair is really kept (and reaches the bound) on a
random round, and a proposal the model does not accept is dropped.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cpsat_pairing import SolverSettings, pair, read_trf
from cpsat_pairing.dutch import bracket, order
from cpsat_pairing.solver.cpsat import STATS
from cpsat_pairing.solver.repair import repair
from cpsat_pairing.domain.state import round_exists
from cpsat_pairing.testing.large import make_large

from helpers import CORPUS_2026

EVERYWHERE = SolverSettings(sparse_from=0, direct_brackets=0)  # small brackets by their models too


@pytest.fixture(scope="module")
def random_round(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_large(tmp_path_factory.mktemp("repair"), players=240, seed=2)


def _pairing(t, monkeypatch, proposer) -> tuple[list, object, int, int]:
    monkeypatch.setattr(bracket, "repair", proposer)
    before_kept, before_bounded = STATS["repaired"], STATS["bounded"]
    p = pair(t, settings=EVERYWHERE)
    return p.as_pairs(), p.bye, STATS["repaired"] - before_kept, STATS["bounded"] - before_bounded


def test_repair_is_kept_and_changes_no_pairing(random_round: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    t = read_trf(random_round)
    pairs, bye, kept, _ = _pairing(t, monkeypatch, repair)
    assert kept >= 1  # the repair was exercised and accepted by the model
    no_pairs, no_bye, none_kept, _ = _pairing(t, monkeypatch, lambda bm, chunk, target=None: None)
    assert none_kept == 0
    assert (pairs, bye) == (no_pairs, no_bye)


def test_a_proposal_the_model_rejects_is_dropped(random_round: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A proposal that leaves everyone unpaired lowers every pair tier, but breaks the
    model: the check drops it and the answer is unchanged."""
    t = read_trf(random_round)

    calls = []

    def broken(bm, chunk, target=None):
        calls.append(1)
        return {i: 0 for i in bm.solver.values}

    pairs, bye, kept, _ = _pairing(t, monkeypatch, broken)
    assert calls and kept == 0
    good_pairs, good_bye, _, _ = _pairing(t, monkeypatch, lambda bm, chunk, target=None: None)
    assert (pairs, bye) == (good_pairs, good_bye)


def test_split_witness_answers_no_exchange_and_changes_no_pairing(random_round: Path, monkeypatch) -> None:
    """The "no exchange" candidate is often answered by a re-paired incumbent; the
    pairings are the ones found by searching, and a bad witness is dropped."""
    t = read_trf(random_round)
    before = STATS["witnessed"]
    witnessed = pair(t)
    assert STATS["witnessed"] > before
    monkeypatch.setattr(order, "split_witness", lambda bm, s1, s2: None)
    searched = pair(t)
    assert (witnessed.as_pairs(), witnessed.bye) == (searched.as_pairs(), searched.bye)
    monkeypatch.setattr(order, "split_witness", lambda bm, s1, s2: {i: 0 for i in bm.solver.values})
    before = STATS["witnessed"]
    broken = pair(t)
    assert STATS["witnessed"] == before
    assert (broken.as_pairs(), broken.bye) == (searched.as_pairs(), searched.bye)


def test_every_proposal_pairs_each_player_once(random_round: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The residents' re-pairing matches a general graph (odd cycles and all), the split
    witness a bipartite one: in each proposal, kept or not, every player has one pair at
    most, and every bracket player is paired inside the bracket or floats, as in the
    incumbent (a downfloater may trade places with a resident: the float's vertex); the
    split witness pairs the players the incumbent pairs."""
    t = read_trf(random_round)
    # The model is seen through a weak proxy (bracket.py), gone with its bracket: what
    # the checks need is kept here.
    seen: list[tuple[list[int], dict[int, list[tuple[int, int]]], dict[int, int], dict[int, int], dict[int, int] | None,
                     frozenset[int]]] = []

    def spy(bm, chunk, target=None):
        incumbent = dict(bm.solver.values)
        proposal = repair(bm, chunk, target)
        if proposal is not None:
            inside = frozenset(i for (p, q), i in bm.pair_indices() if bm.inside(p, q))
            df = {p: v.index for p, v in bm.df.items()}
            seen.append((list(bm.players), bm.adj_index, incumbent, proposal, df, inside))
        return proposal

    def witness_spy(bm, s1, s2):
        incumbent = dict(bm.solver.values)
        proposal = real_witness(bm, s1, s2)
        if proposal is not None:
            seen.append((list(bm.players), bm.adj_index, incumbent, proposal, None, frozenset()))
        return proposal

    real_witness = order.split_witness
    monkeypatch.setattr(order, "split_witness", witness_spy)
    _pairing(t, monkeypatch, spy)
    assert len(seen) >= 2
    traded = 0
    for players, adj_index, incumbent, proposal, df, inside in seen:
        for p in players:
            before = sum(incumbent.get(i, 0) for _, i in adj_index[p])
            after = sum(proposal.get(i, 0) for _, i in adj_index[p])
            assert after <= 1, p
            if df is None:
                assert after == before, p
            elif p in df:
                def placed(values: dict[int, int]) -> int:
                    return sum(values.get(i, 0) for _, i in adj_index[p] if i in inside) + values.get(df[p], 0)
                assert placed(proposal) == placed(incumbent) == 1, p
                traded += proposal.get(df[p], 0) != incumbent.get(df[p], 0)
    assert traded  # some downfloater traded places with a resident


def test_an_mdp_is_re_paired_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """In a small model an MDP paired with a resident is re-paired like a resident (a
    better colour match for the MDP often reaches [C12]'s bound without a search),
    never with another MDP: on the first 2026 files some proposal gives an MDP another
    partner, and every round pairs as the search alone pairs it (test_shortcuts.py)."""
    moved = 0

    def spy(bm, chunk, target=None, trade=True, with_mdps=False):
        nonlocal moved
        proposal = repair(bm, chunk, target, trade, with_mdps)
        if proposal is not None:
            values = bm.solver.values
            for p in bm.mdps:
                partners = [q for q, i in bm.adj_index[p] if proposal.get(i)]
                assert not any(q in bm.mdps for q in partners), (p, partners)
                moved += partners != [q for q, i in bm.adj_index[p] if values.get(i)]
        return proposal

    monkeypatch.setattr(bracket, "repair", spy)
    for path in CORPUS_2026[:4]:
        t = read_trf(path)
        for rnd in range(2, max(len(p.rounds) for p in t.players) + 1):
            if round_exists(t, rnd):
                pair(t, rnd, "dutch-2026", SolverSettings(direct_brackets=0))  # every bracket modelled
    assert moved
