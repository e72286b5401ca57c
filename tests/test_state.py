"""Definitions of Art. 1 on hand-made histories: colour preference, floats, PAB eligibility."""

from __future__ import annotations

from fractions import Fraction

import pytest

from cpsat_pairing.domain.state import Float, PrefKind, StateRules, build_state
from cpsat_pairing.domain.tournament import Colour, Outcome, Player, RoundEntry, Tournament

W, B = Colour.WHITE, Colour.BLACK


def game(opp: int, colour: Colour, result: str) -> RoundEntry:
    return RoundEntry(opp, colour, result)


def bye(code: str) -> RoundEntry:
    return RoundEntry(None, None, code)


def one_player(history: list[RoundEntry | None], total: int = 9) -> Tournament:
    """Player 1 with `history`; opponents 2.. exist with mirrored blocks."""
    mirror = {"1": "0", "0": "1", "=": "=", "+": "-", "-": "+"}
    players = [Player(1, "A", rounds=tuple(history))]
    for r, e in enumerate(history, start=1):
        rounds: list[RoundEntry | None] = [None] * len(history)
        if e is not None and e.opponent is not None:
            rounds[r - 1] = RoundEntry(1, e.colour.opposite if e.colour else None, mirror[e.result])
            players.append(Player(e.opponent, f"O{e.opponent}", rounds=tuple(rounds)))
    return Tournament(players=tuple(players), total_rounds=total)


def colours(seq: str) -> list[RoundEntry | None]:
    """'WB-W' → games with those colours ('-' a half-point bye); opponents 2, 3, ..."""
    out: list[RoundEntry | None] = []
    for i, c in enumerate(seq):
        out.append(bye("H") if c == "-" else game(i + 2, W if c == "W" else B, "="))
    return out


@pytest.mark.parametrize(
    "seq, kind, colour",
    [
        ("", PrefKind.NONE, None),  # 1.7.4 no game yet
        ("W", PrefKind.STRONG, B),  # CD = +1
        ("WB", PrefKind.MILD, W),  # CD = 0: alternate from the last game
        ("WW", PrefKind.ABSOLUTE, B),  # same colour twice running
        ("BWW", PrefKind.ABSOLUTE, B),  # last two the same
        ("WBWW", PrefKind.ABSOLUTE, B),  # CD = +2
        ("BWBW-", PrefKind.MILD, B),  # unplayed rounds do not count (BWBuW ≡ uBWBW)
        ("BW-W", PrefKind.ABSOLUTE, B),  # W, bye, W is a repetition once the bye is removed
        ("BBWW", PrefKind.ABSOLUTE, B),  # CD 0 but last two White
    ],
)
def test_colour_preference(seq: str, kind: PrefKind, colour: Colour | None) -> None:
    t = one_player(colours(seq))
    ps = build_state(t, len(seq) + 1).players[1]
    assert ps.pref_kind is kind
    assert ps.pref_colour == colour


def test_absolute_by_colour_difference_wins_over_repetition() -> None:
    """|CD| > 1 decides before the repetition rule: WWWBB has CD +1... WWWWBB has CD +2 → Black."""
    ps = build_state(one_player(colours("WWWWBB")), 7).players[1]
    assert ps.cd == 2
    assert ps.pref_colour is B


def _floats_2026_vs_2017(history: list[RoundEntry | None]) -> tuple[tuple[Float, ...], tuple[Float, ...]]:
    t = one_player(history)
    rnd = len(history) + 1
    new = build_state(t, rnd).players[1].floats
    old = build_state(t, rnd, StateRules(unplayed_downfloat="always", bye_rule="pab_or_forfeit_win")).players[1].floats
    return new, old


def test_unplayed_rounds_float_by_edition() -> None:
    """2026 Art. 1.4.3: PAB, HPB, forfeit win downfloat; ZPB and forfeit loss do not.
    2017 A.4.b: every unplayed round is a downfloat."""
    hist = [bye("U"), bye("H"), bye("Z"), game(5, W, "+"), game(6, B, "-")]
    new, old = _floats_2026_vs_2017(hist)
    assert new == (Float.DOWN, Float.DOWN, Float.NONE, Float.DOWN, Float.NONE)
    assert old == (Float.DOWN,) * 5


def test_played_game_floats_compare_scores_before_the_round() -> None:
    """1.4.2: the higher scorer downfloats, the lower upfloats; equal scores: no float."""
    a = Player(1, "A", rounds=(game(2, W, "1"), game(3, B, "1"), game(4, W, "0")))
    b = Player(2, "B", rounds=(game(1, B, "0"), None, None))
    c = Player(3, "C", rounds=(bye("U"), game(1, W, "0"), None))  # 1 point before round 2, like A
    d = Player(4, "D", rounds=(bye("U"), bye("U"), game(1, B, "1")))  # 2 points before round 3, like A
    st = build_state(Tournament(players=(a, b, c, d), total_rounds=5), 4)
    assert st.players[1].floats == (Float.NONE, Float.NONE, Float.NONE)
    t2 = Tournament(players=(a, b, c, Player(4, "D", rounds=(bye("Z"), bye("Z"), game(1, B, "1")))), total_rounds=5)
    assert build_state(t2, 4).players[1].floats == (Float.NONE, Float.NONE, Float.DOWN)
    assert build_state(t2, 4).players[4].floats == (Float.NONE, Float.NONE, Float.UP)


@pytest.mark.parametrize(
    "code, eligible_2026, eligible_2017",
    [("U", False, False), ("F", False, True), ("+", False, False), ("H", True, True), ("Z", True, True)],
)
def test_pab_eligibility(code: str, eligible_2026: bool, eligible_2017: bool) -> None:
    """[C2] 2026: no PAB after a win's points without playing; 2017 C.2: after a PAB or forfeit win."""
    entry = game(2, W, "+") if code == "+" else bye(code)
    t = one_player([entry])
    assert build_state(t, 2).players[1].pab_eligible is eligible_2026
    rules = StateRules(unplayed_downfloat="always", bye_rule="pab_or_forfeit_win")
    assert build_state(t, 2, rules).players[1].pab_eligible is eligible_2017


def test_topscorer_only_in_the_last_round() -> None:
    """1.8: more than half the maximum score, only when pairing the final round."""
    hist = [game(2, W, "1"), game(3, B, "1")]
    assert build_state(one_player(hist, total=3), 3).players[1].topscorer
    assert not build_state(one_player(hist, total=4), 3).players[1].topscorer
    assert build_state(one_player(hist, total=3), 3).players[1].score == Fraction(2)


def test_scores_in_point_units_under_any_scoring_and_acceleration() -> None:
    """The state sums scores as whole numbers of a common unit (tournament.point_units):
    with thirds, halves and whole points mixed, and acceleration in sixths, the scores,
    the pairing scores, the floats and the topscorer line are those of exact Fraction
    arithmetic."""
    from dataclasses import replace

    from cpsat_pairing.domain.tournament import Acceleration, Scoring, player_points, point_units

    scoring = Scoring(win=Fraction(3), draw=Fraction(1, 3), loss=Fraction(0), forfeit_win=Fraction(5, 2),
                      hpb=Fraction(1, 2))
    hist = [game(2, W, "1"), game(3, B, "="), bye("H"), game(4, W, "+"), game(5, B, "1")]
    t = replace(one_player(hist, total=6), scoring=scoring,
                acceleration=(Acceleration(1, (Fraction(1, 6),) * 6), Acceleration(3, (Fraction(7, 6),) * 6)))
    unit, units = point_units(scoring, (Fraction(1, 6), Fraction(7, 6)))
    assert unit == 6 and units[Outcome.DRAW] == 2 and units[Outcome.FORFEIT_WIN] == 15
    for rnd in range(1, 7):
        st = build_state(t, rnd)
        for p in t.players:
            before = sum((scoring.points(e.outcome) for e in p.rounds[: rnd - 1] if e is not None), Fraction(0))
            extra = next((a.points(rnd) for a in t.acceleration if a.player_id == p.id), Fraction(0))
            assert st.players[p.id].score == before
            assert st.players[p.id].pairing_score == before + extra
            assert player_points(p, scoring, upto=rnd - 1) == before
    # Round 2: player 1 (3 + 1/6) met 3 (0 + 7/6) in round 2 as the higher score: a downfloat.
    assert build_state(t, 3).players[1].floats[1] is Float.DOWN
    # The last round: 3 + 1/3 + 1/2 + 5/2 + 3 = 28/3 is more than half of 3 x 5 rounds;
    # his opponents are below it.
    last = build_state(t, 6)
    # In whole units (the brackets' comparisons): each the score times one factor.
    for units, score in ((last.pairing_units, "pairing_score"), (last.score_units, "score")):
        factors = {units[pid] / getattr(ps, score) for pid, ps in last.players.items() if getattr(ps, score)}
        assert len(factors) == 1 and all(isinstance(u, int) for u in units.values())
        assert all(units[pid] == 0 for pid, ps in last.players.items() if not getattr(ps, score))
    line = Fraction(3 * 5, 2)
    assert [(pid, last.players[pid].topscorer) for pid in sorted(last.players)] == [
        (pid, last.players[pid].score > line) for pid in sorted(last.players)]
    assert last.players[1].topscorer and not last.players[3].topscorer


@pytest.mark.parametrize("path", ["bugs/accel-far-389.trf", "realtrf/GrzegorzKi__CompetiChess/testTrfFile.txt"])
def test_ranking_order_is_pairing_score_then_tpn(path: str) -> None:
    """Art. 1.2 on accelerated files (pairing scores apart from scores, ties across
    levels of acceleration): `rank_key` compares small integers, and must order every
    player, present or not, as (pairing score descending, TPN ascending) does; the
    players to pair come in that order."""
    from pathlib import Path

    from cpsat_pairing.formats.trf_read import read_trf

    t = read_trf(Path(__file__).parent / "fixtures" / path)
    accelerated = 0
    for rnd in range(1, t.rounds_played + 2):
        st = build_state(t, rnd)
        expected = sorted(st.players, key=lambda pid: (-st.players[pid].pairing_score, pid))
        assert sorted(st.players, key=st.rank_key) == expected
        assert list(st.present) == [pid for pid in expected if pid not in st.absent]
        accelerated += any(ps.pairing_score != ps.score for ps in st.players.values())
    assert accelerated


@pytest.mark.parametrize("path", ["bugs/accel-far-389.trf", "realtrf/GrzegorzKi__CompetiChess/testTrfFile.txt"])
def test_scores_in_whole_units_order_and_tie_as_the_scores(path: str) -> None:
    """The brackets' criteria and the board order compare scores as integers
    (`pairing_units`, `score_units`): on accelerated files (quarter and half points
    apart from the scores) two players' units compare as their Fractions do."""
    from pathlib import Path

    from cpsat_pairing.formats.trf_read import read_trf

    t = read_trf(Path(__file__).parent / "fixtures" / path)
    for rnd in range(1, t.rounds_played + 2):
        st = build_state(t, rnd)
        for units, score in ((st.pairing_units, "pairing_score"), (st.score_units, "score")):
            assert set(units) == set(st.players)
            values = {pid: getattr(ps, score) for pid, ps in st.players.items()}
            for p in st.players:
                for q in st.players:
                    assert (units[p] < units[q], units[p] == units[q]) == (values[p] < values[q], values[p] == values[q])
