"""Rounds without a valid pairing: who cannot be paired, and why (unpairable.py)."""

from __future__ import annotations

import pytest

from cpsat_pairing import NoValidPairing, pair, parse_trf
from cpsat_pairing.apps.stress import complete_pairing_exists, pairable
from cpsat_pairing.testing.handmade import field as _field
from cpsat_pairing.testing.handmade import no_pairing_round_4 as _no_pairing_round_4


def test_a_player_who_met_everybody_is_named_with_the_reason() -> None:
    t = parse_trf(_no_pairing_round_4())
    with pytest.raises(NoValidPairing) as info:
        pair(t, 4)
    assert info.value.players == [1, 2, 3, 4]  # a round robin already
    assert info.value.reasons[0] == (
        "player 1 has no possible opponent (already played 2, 3 and 4) and may not receive the PAB "
        "(the number of players is even)"
    )
    assert pairable(t, 4, "dutch-2026") is False  # the independent search agrees


def test_two_odd_groups_kept_apart_by_forbidden_pairs() -> None:
    """1-3 and 4-6 may not meet across: two groups of three, nobody between them."""
    t = parse_trf(_field(6, [(a, b) for a in (1, 2, 3) for b in (4, 5, 6)]))
    with pytest.raises(NoValidPairing) as info:
        pair(t)
    assert info.value.players == [1, 2, 3, 4, 5, 6]
    assert info.value.reasons == [
        "the groups of players {1, 2, 3} and {4, 5, 6} can be paired only within themselves; each group has an "
        "odd number of players, so at least 2 of them cannot be paired"
    ]


def test_odd_groups_with_a_partner_between_them() -> None:
    """Players 1-6 and 8 may meet only player 7: seven players for one partner."""
    forbidden = [(a, b) for a in range(1, 7) for b in range(a + 1, 7)]  # 1-6 never meet each other
    t = parse_trf(_field(8, forbidden + [(8, q) for q in range(1, 7)]))
    with pytest.raises(NoValidPairing) as info:
        pair(t)
    assert info.value.reasons == [
        "players 1, 2, 3, 4, 5, 6 and 8 can each be paired only with 7, so at least 6 of them cannot be paired"
    ]


def _nobody_may_have_the_pab() -> str:
    """Five players before round 3, each with a PAB or a forfeit win already ([C2]):
    round 1 1-2 and 3-4 won by forfeit, 5 the PAB; round 2 1-3 played, 4-5 won by
    forfeit by 4, 2 the PAB."""
    lines = ["012 No PAB left", "XXR 5", "XXC white1"]
    rows = {1: "    2 w +     3 w 1", 2: "    1 b -  0000 - U", 3: "    4 w +     1 b 0",
            4: "    3 b -     5 w +", 5: " 0000 - U     4 b -"}
    for i in range(1, 6):
        lines.append(f"001 {i:4d}      Player {i:<27d} {2500 - i:4d}                             0.0 {i:4d}{rows[i]}")
    return "\n".join(lines) + "\n"


def test_an_odd_field_where_nobody_may_have_the_pab_is_said_so() -> None:
    """Pairs are possible (forfeited games are not played), but five players need a PAB
    and none may receive it: that is the reason given, not a group of the PAB alone."""
    t = parse_trf(_nobody_may_have_the_pab())
    with pytest.raises(NoValidPairing) as info:
        pair(t, 3)
    assert info.value.players == [1, 2, 3, 4, 5]
    assert info.value.reasons == [
        "the number of players is odd (5) and none of them may receive the PAB ([C2]: each already had a PAB "
        "or scored a win without playing)"
    ]
    assert any("give the pairing-allocated bye to one of them" in o for o in info.value.options)
    assert pairable(t, 3, "dutch-2026") is False  # the independent search agrees


def test_complete_pairing_search() -> None:
    """The independent search: a triangle has no perfect pairing, but one with a bye."""
    triangle = {frozenset(e) for e in [(1, 2), (2, 3), (1, 3)]}
    ok = lambda p, q: frozenset((p, q)) in triangle  # noqa: E731
    assert complete_pairing_exists([1, 2, 3], ok, lambda p: True) is True
    assert complete_pairing_exists([1, 2, 3], ok, lambda p: False) is False
    square = {frozenset(e) for e in [(1, 2), (3, 4), (1, 3)]}
    assert complete_pairing_exists([1, 2, 3, 4], lambda p, q: frozenset((p, q)) in square, lambda p: True) is True
    path = {frozenset(e) for e in [(1, 2), (1, 3), (1, 4)]}
    assert complete_pairing_exists([1, 2, 3, 4], lambda p, q: frozenset((p, q)) in path, lambda p: True) is False


def test_the_algebraic_test_agrees_with_the_search() -> None:
    """Past its step limit the exhaustive search hands over to Tutte's test."""
    import itertools
    import random

    rng = random.Random(5)
    for n in range(2, 10):
        for _ in range(20):
            edges = {frozenset(e) for e in itertools.combinations(range(n), 2) if rng.random() < 0.3}
            byes = {p for p in range(n) if rng.random() < 0.5}
            ok = lambda p, q: frozenset((p, q)) in edges  # noqa: E731
            exact = complete_pairing_exists(range(n), ok, byes.__contains__)
            assert complete_pairing_exists(range(n), ok, byes.__contains__, limit=0) == exact
