"""TRF reading and writing: every fixture file, then one test per quirk or record."""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from pathlib import Path

import pytest

from cpsat_pairing.errors import FileAccessError, InconsistentData, InputError
from cpsat_pairing.domain.tournament import PENDING_RESULT, Colour, Contradiction, ForbiddenPairs, Outcome, RoundEntry, Scoring
from cpsat_pairing.domain.tournament import player_points
from cpsat_pairing.formats import append_round, format_points, parse_trf, read_trf, round_trip_view, write_trf

FIXTURES = Path(__file__).parent / "fixtures"
SKIP = {".md"}


def _is_trf(path: Path) -> bool:
    if path.suffix in SKIP or path.name.startswith(("LICEN", "COPYING")):
        return False
    return any(line.startswith(b"001 ") for line in path.read_bytes().replace(b"\r", b"\n").split(b"\n"))


FIXTURE_FILES = sorted(p for p in FIXTURES.rglob("*") if p.is_file() and _is_trf(p))


def _id(path: Path) -> str:
    return str(path.relative_to(FIXTURES))


# --- helpers to build small files -------------------------------------------------------


def player(pid: int, name: str = "", points: str = "", *blocks: str, rating: str = "") -> str:
    """A 001 line; each block is the 8 columns `OOOO C R` of one round."""
    line = f"001 {pid:>4}      {name:<33} {rating:>4}" + " " * 28 + f"{points:>4}" + " " * 5
    return line + "".join(f"  {b}" for b in blocks)


def trf(*lines: str) -> str:
    return "\n".join(("012 Test", *lines)) + "\n"


TWO_GAMES = trf(
    player(1, "Alpha", "1.5", "   2 w 1", "   3 b ="),
    player(2, "Beta", "0.0", "   1 b 0", "0000 - Z"),
    player(3, "Gamma", "1.5", "0000 - U", "   1 w ="),
)


# --- every fixture ----------------------------------------------------------------------


def test_fixtures_found() -> None:
    assert len([p for p in FIXTURE_FILES if "realtrf" in p.parts]) >= 25
    assert len([p for p in FIXTURE_FILES if "corpus" in p.parts]) >= 12


@pytest.mark.parametrize("path", FIXTURE_FILES, ids=_id)
def test_fixture_reads(path: Path) -> None:
    t = read_trf(path)
    assert t.players
    assert t.rounds_played >= 1 or path.name.startswith(("kilbunny", "intermediate"))


@pytest.mark.parametrize("dialect", ["trf16", "trf26"])
@pytest.mark.parametrize("path", FIXTURE_FILES, ids=_id)
def test_fixture_round_trip(path: Path, dialect: str) -> None:
    t = read_trf(path)
    text = write_trf(t, dialect)
    again = parse_trf(text, source="out")
    assert round_trip_view(again, dialect) == round_trip_view(t, dialect)
    # the written Points agree with the results, so re-reading warns about nothing
    assert not [w for w in again.warnings if "Points column" in w]
    assert write_trf(again, dialect) == text  # writing is a fixed point


def test_fixture_round_trip_is_exact_for_corpus() -> None:
    for path in (p for p in FIXTURE_FILES if "corpus" in p.parts):
        t = read_trf(path)
        for dialect in ("trf16", "trf26"):
            again = parse_trf(write_trf(t, dialect))
            assert dataclasses.replace(again, source=t.source, dialect=t.dialect) == t, path


# --- line ends and encodings ------------------------------------------------------------


@pytest.mark.parametrize("eol", ["\n", "\r\n", "\r"])
def test_line_ends(eol: str) -> None:
    t = parse_trf(TWO_GAMES.replace("\n", eol).encode())
    assert t == parse_trf(TWO_GAMES)


def test_mixed_line_ends() -> None:
    text = TWO_GAMES.replace("\n", "\r\n", 2).replace("\n", "\r", 1)
    assert parse_trf(text).players == parse_trf(TWO_GAMES).players


def test_bom() -> None:
    t = parse_trf(b"\xef\xbb\xbf" + TWO_GAMES.encode())
    assert t.name == "Test"
    assert t.header_lines == ()


def test_latin1_names() -> None:
    text = trf(player(1, "Müller, Jürgen", "0.0"), player(2, "Ó Briain, Seán", "0.0"))
    t = parse_trf(text.encode("latin-1"), source="x.trf")
    assert [p.name for p in t.players] == ["Müller, Jürgen", "Ó Briain, Seán"]
    assert any("latin-1" in w for w in t.warnings)


def test_utf8_names_keep_columns() -> None:
    text = trf(player(1, "Ψαριανός, Εμμανουήλ", "1.0", "   2 w 1", rating="1442"),
               player(2, "Ωμέγα", "0.0", "   1 b 0"))
    t = parse_trf(text.encode("utf-8"))
    assert t.players[0].rating == 1442 and t.players[0].name.startswith("Ψαρ")
    assert parse_trf(write_trf(t)) == t


def test_latin1_fixture() -> None:
    t = read_trf(FIXTURES / "realtrf/irishchessunion__icu_tournament/latin-1.tab")
    assert t.players[1].name == "Örr,Mârk"


# --- player lines -----------------------------------------------------------------------


def test_player_fields() -> None:
    line = ("001   12 m GM Carlsen, Magnus                   2830 NOR     1503014 1990/11/30  6.5    1"
            "     3 w 1")
    t = parse_trf(trf(line, player(3, "X", "0.0", "  12 b 0")))
    p = t.player(12)
    assert (p.sex, p.title, p.name, p.rating, p.federation, p.fide_id, p.birth_date) == (
        "m", "GM", "Carlsen, Magnus", 2830, "NOR", "1503014", "1990/11/30")
    assert p.declared_points == Fraction(13, 2) and p.rank == 1
    assert p.rounds == (RoundEntry(3, Colour.WHITE, "1"),)


def test_blank_rating_and_points() -> None:
    t = parse_trf(trf(player(1, "A"), player(2, "B")))
    assert t.players[0].rating == 0 and t.players[0].declared_points is None


def test_bye_with_blank_opponent() -> None:
    t = parse_trf(trf(player(1, "A", "1.0", "       H", "     -  ", "       U")))
    assert t.players[0].rounds == (
        RoundEntry(None, None, "H"), RoundEntry(None, None, "Z"), RoundEntry(None, None, "U"))


def test_half_point_bye_written_as_draw() -> None:
    t = parse_trf(trf(player(1, "A", "0.5", "0000 - =")))
    assert t.players[0].rounds[0] == RoundEntry(None, None, "H")


def test_result_codes_case_insensitive() -> None:
    t = parse_trf(trf(player(1, "A", "1.0", "   2 W w"), player(2, "B", "0.0", "   1 b l")))
    assert t.players[0].rounds[0] == RoundEntry(2, Colour.WHITE, "W")
    assert t.players[1].rounds[0].result == "L"


def test_withdrawn_line_stops_early() -> None:
    t = parse_trf(trf(
        player(1, "A", "1.0", "   2 w 1", "   3 b 0"),
        player(2, "B", "0.0", "   1 b 0"),  # withdrew after round 1
        player(3, "C", "1.0", "0000 - Z", "   1 w 1"),
    ))
    b = t.player(2)
    assert len(b.rounds) == 1 and b.entry(2) is None and b.entry(5) is None
    assert t.rounds_played == 2


def test_blank_block_in_the_middle_is_absent() -> None:
    t = parse_trf(trf(player(1, "A", "1.0", "0000 - U", "        ", "0000 - Z")))
    assert t.players[0].rounds == (RoundEntry(None, None, "U"), None, RoundEntry(None, None, "Z"))


def test_pending_result() -> None:
    t = parse_trf(trf(player(1, "A", "0.0", "   2 w  "), player(2, "B", "0.0", "   1 b")))
    e = t.players[0].rounds[0]
    assert e.result == PENDING_RESULT and e.outcome is Outcome.UNKNOWN and not e.played
    assert t.players[1].rounds[0].result == PENDING_RESULT
    assert player_points(t.players[0], t.scoring) == 0
    assert "   2 w" in write_trf(t) and "   2 w  " not in write_trf(t).replace("   2 w\n", "")
    assert parse_trf(write_trf(t)) == t


def test_points_mismatch_is_a_warning() -> None:
    t = parse_trf(trf(player(1, "A", "3.0", "   2 w 1"), player(2, "B", "0.0", "   1 b 0")), "f.trf")
    assert len(t.warnings) == 1
    assert t.warnings[0].startswith("f.trf:2:81: player 1: Points column says 3.0, the results give 1.0")
    assert " 1.0" in write_trf(t).splitlines()[1][80:84]


@pytest.mark.parametrize("points, agrees", [
    ("1.5", True),  # every block: the win and the pre-entered half-point bye
    ("1.0", True),  # the rounds played so far
    ("2.0", True),  # so far, with round 2's acceleration (1.0)
    ("2.5", True),  # every block, with round 2's acceleration
    ("0.5", False),
    ("1.2", False),  # no whole number of half points
])
def test_points_column_agrees_with_any_of_the_sums_programs_write(points: str, agrees: bool) -> None:
    """Programs write the total, the total before the appended round not played yet,
    either with the next round's acceleration; anything else is a warning."""
    t = parse_trf(trf(player(1, "A", points, "   2 w 1", "0000 - H"), player(2, "B", "0.0", "   1 b 0"),
                      "XXA    1  0.0  1.0"))
    assert t.rounds_played == 1
    assert any("Points column says" in w for w in t.warnings) is not agrees


def test_points_may_include_a_pre_entered_bye() -> None:
    t = parse_trf(trf(player(1, "A", "1.5", "   2 w 1", "0000 - H"), player(2, "B", "0.0", "   1 b 0")))
    assert t.warnings == ()


# --- records ----------------------------------------------------------------------------


def test_header_records_kept_verbatim() -> None:
    text = "\n".join([
        "### a comment", "012 Name  ", "022 City", "092 Individual: Swiss-System",
        "012345678901234567890", "DDD SSSS sTTT", "132" + " " * 88 + "24/01/01",
        player(1, "A", "0.0"), "013 Team A                          1", "XYZ unknown",
    ])
    t = parse_trf(text)
    assert t.name == "Name"
    assert t.edition_hint == "Individual: Swiss-System"
    assert t.header_lines == ("### a comment", "022 City", "092 Individual: Swiss-System",
                              "012345678901234567890", "DDD SSSS sTTT", "132" + " " * 88 + "24/01/01",
                              "013 Team A                          1", "XYZ unknown")
    assert parse_trf(write_trf(t)).header_lines == t.header_lines


def test_javafo_records() -> None:
    t = parse_trf(trf(
        player(1, "A", "1.0", "   2 w 1"), player(2, "B", "0.0", "   1 b 0"), player(3, "C", "1.0", "0000 - U"),
        "XXR 7", "XXC rank black1", "XXP 1 3", "XXP 2 3", "XXZ 3", "XXZ 2",
        "XXA    1  1.0  1.0  0.5", "XXA 2 0.5",
    ))
    assert t.dialect == "trf16x"
    assert (t.total_rounds, t.initial_colour, t.rank_mode) == (7, Colour.BLACK, True)
    assert t.forbidden == (ForbiddenPairs((1, 3)), ForbiddenPairs((2, 3)))
    assert t.absent_next == (3, 2)
    assert [(a.player_id, a.points_by_round) for a in t.acceleration] == [
        (1, (Fraction(1), Fraction(1), Fraction(1, 2))), (2, (Fraction(1, 2),))]
    assert t.acceleration[0].points(3) == Fraction(1, 2) and t.acceleration[0].points(4) == 0


def test_xxs_scoring() -> None:
    t = parse_trf(trf(player(1, "A", "3.0", "   2 w 1"), player(2, "B", "0.0", "   1 b 0"),
                      "XXS W=3 D=1", "XXS PAB=2 ZPB=.5"))
    s = t.scoring
    assert (s.win, s.forfeit_win, s.fpb, s.draw, s.hpb, s.pab, s.zpb, s.loss) == (3, 3, 3, 1, 1, 2, Fraction(1, 2), 0)
    assert t.warnings == ()


def test_xxs_white_and_black_must_agree() -> None:
    text = trf(player(1, "A", "0.0"), "XXS WW=3 BW=2")
    with pytest.raises(InputError, match="colour"):
        parse_trf(text)
    assert parse_trf(trf(player(1, "A", "0.0"), "XXS WW=3 BW=3")).scoring.win == 3


def test_bbp_scoring() -> None:
    t = parse_trf(trf(player(1, "A", "0.0"), "BBW 3.0", "BBD  1.0", "BBF 0.0", "BBZ 1.0"))
    s = t.scoring
    assert (s.win, s.pab, s.forfeit_win, s.fpb, s.draw, s.hpb, s.zpb) == (3, 3, 3, 3, 1, 1, 1)
    t = parse_trf(trf(player(1, "A", "0.0"), "BBU  0.5", "BBW 3.0"))
    assert (t.scoring.win, t.scoring.pab) == (3, Fraction(1, 2))  # an explicit PAB stays


def test_162_scoring() -> None:
    t = parse_trf(trf(player(1, "A", "0.0"), "162  W 3.0    D 1.0    L 0.0    A 0.0    P 1.0    X 1.0"))
    s = t.scoring
    assert (s.win, s.draw, s.loss, s.zpb, s.forfeit_loss, s.pab, s.hpb, s.fpb) == (3, 1, 0, 0, 0, 1, 1, 3)
    assert t.dialect == "trf26"
    # Tornello writes Z for A; whitespace-separated pairs are accepted too
    t = parse_trf(trf(player(1, "A", "0.0"), "162 W 2 D 1 Z 0.5"))
    assert (t.scoring.win, t.scoring.zpb, t.scoring.pab) == (2, Fraction(1, 2), 2)


def test_bad_162_symbol() -> None:
    with pytest.raises(InputError) as info:
        parse_trf(trf(player(1, "A", "0.0"), "162  Q 3.0"), "f")
    assert (info.value.line, info.value.column) == (3, 6)


def test_trf26_records() -> None:
    t = parse_trf(trf(
        "142 9", "152 B", "192 FIDE_DUTCH_2026",
        *(player(i, f"P{i}", "0.0") for i in range(1, 9)),
        "240 H   3    2    5", "240 F 003  007", "240 Z 4 8",
        "250      1.0   1   2    1    4", "250 00.0 02.0 001 001 0005 0005",
        "260   1   9    1    2", "260 002 004  003  006  008",
    ))
    assert (t.dialect, t.total_rounds, t.initial_colour) == ("trf26", 9, Colour.BLACK)
    assert t.edition_hint == "FIDE_DUTCH_2026"
    assert t.byes == {3: {2: "H", 5: "H", 7: "F"}, 4: {8: "Z"}}
    assert [(a.player_id, a.points_by_round) for a in t.acceleration] == [
        (pid, (Fraction(1), Fraction(1))) for pid in range(1, 5)] + [(5, (Fraction(2),))]
    assert t.forbidden == (ForbiddenPairs((1, 2), 1, 9), ForbiddenPairs((3, 6, 8), 2, 4))
    assert [t.forbidden[1].applies(r) for r in (1, 2, 4, 5)] == [False, True, True, False]
    assert parse_trf(write_trf(t, "trf26")) == dataclasses.replace(t, source="<string>")


def test_trf16_enters_byes_as_blocks() -> None:
    t = parse_trf(trf(player(1, "A", "1.0", "   2 w 1"), player(2, "B", "0.0", "   1 b 0"), "240 H 2 1"))
    again = parse_trf(write_trf(t, "trf16"))
    assert again.byes == {}
    assert again.player(1).entry(2) == RoundEntry(None, None, "H")
    assert again.player(1).declared_points == Fraction(3, 2)


def test_dialects() -> None:
    assert parse_trf(trf(player(1, "A"))).dialect == "trf16"
    assert parse_trf(trf(player(1, "A"), "XXR 5")).dialect == "trf16x"
    assert parse_trf(trf(player(1, "A"), "BBU 0.5")).dialect == "trf16x"
    assert parse_trf(trf(player(1, "A"), "XXR 5", "142 5")).dialect == "trf26"


def test_edition_hint_prefers_192() -> None:
    t = parse_trf(trf("092 Swiss Dutch", "192 FIDE_DUTCH_2017", player(1, "A")))
    assert t.edition_hint == "FIDE_DUTCH_2017"


# --- errors -----------------------------------------------------------------------------


def _error(text: str) -> InputError:
    with pytest.raises(InputError) as info:
        parse_trf(text, "f.trf")
    return info.value


def test_error_format() -> None:
    e = InputError("bad thing", file="a.trf", line=3, column=17)
    assert str(e) == "a.trf:3:17: bad thing"
    assert isinstance(e, ValueError) and e.exit_code == 3


def test_duplicate_start_rank() -> None:
    e = _error(trf(player(1, "A"), player(1, "B")))
    assert isinstance(e, InconsistentData)
    assert (e.line, e.column) == (3, 5) and "duplicate starting rank 1 (first on line 2)" in e.message


def test_unknown_opponent() -> None:
    e = _error(trf(player(1, "A", "1.0", "0000 - U", "   9 w 1")))
    assert (e.line, e.column) == (2, 102) and "opponent 9 is not in the file" in e.message


def _contradiction(text: str, rnd: int = 1) -> Contradiction:
    """The file reads, its one contradiction about round `rnd` among its warnings."""
    t = parse_trf(text, "f.trf")
    assert len(t.contradictions) == 1 and t.contradictions[0].round == rnd
    c = t.contradictions[0]
    assert c.located("f.trf") in t.warnings
    return c


def test_one_sided_pairing() -> None:
    c = _contradiction(trf(player(1, "A", "1.0", "   2 w 1"), player(2, "B", "0.0", "0000 - Z")))
    assert (c.line, c.column) == (2, 92) and "2's round 1 (line 3, column 92) records no game ('0000 - Z')" in c.message
    text = trf(player(1, "A", "1.0", "   2 w 1"), player(2, "B", "0.0", "   3 b 0"), player(3, "C", "0.0", "   2 w 1"))
    c = _contradiction(text)
    assert "records a game against 3" in c.message
    # the one-sided block is dropped: the other rounds see the game 2-3 once
    assert parse_trf(text).player(1).entry(1) is None


def test_same_colours() -> None:
    c = _contradiction(trf(player(1, "A", "1.0", "   2 w 1"), player(2, "B", "0.0", "   1 w 0")))
    assert (c.line, c.column) == (2, 97) and "both have colour 'w'" in c.message


def test_results_not_complementary() -> None:
    c = _contradiction(trf(player(1, "A", "1.0", "   2 w 1"), player(2, "B", "1.0", "   1 b 1")))
    assert (c.line, c.column) == (2, 99) and "does not match" in c.message


def test_bye_record_against_a_game() -> None:
    c = _contradiction(trf(player(1, "A", "1.0", "   2 w 1", "   2 b 1"), player(2, "B", "0.0", "   1 b 0", "   1 w 0"),
                           "240 H   2    1"), rnd=2)
    assert (c.line, c.column) == (4, 11)
    assert "240 gives player 1 a bye (H), but his line (line 2, column 102) records a game against 2" in c.message
    # a bye for a round not paired yet contradicts nothing
    assert not parse_trf(trf(player(1, "A", "1.0", "   2 w 1"), player(2, "B", "0.0", "   1 b 0"),
                             "240 H   2    1")).contradictions


def test_acceleration_outside_the_file_warned() -> None:
    t = parse_trf(trf(player(1, "A", "0.0"), player(2, "B", "0.0"), "XXR 3", "XXA    7  1.0",
                      "250  1.0  1  5    1    2"), "f.trf")
    assert any("XXA: player 7 is not in the file" in w for w in t.warnings)
    assert any("acceleration for rounds 1-5, but the tournament has 3 rounds" in w for w in t.warnings)


def test_forfeits_and_double_forfeits_accepted() -> None:
    t = parse_trf(trf(player(1, "A", "1.0", "   2 w +", "   2 b -"), player(2, "B", "0.0", "   1 b -", "   1 w -")))
    assert [e.played for e in t.player(1).rounds] == [False, False]


def test_unknown_result_code() -> None:
    e = _error(trf(player(1, "A", "1.0", "0000 - Q")))
    assert (e.line, e.column) == (2, 99) and "unknown result code 'Q'" in e.message


def test_bad_colour() -> None:
    e = _error(trf(player(1, "A", "1.0", "   2 x 1"), player(2, "B", "0.0", "   1 b 0")))
    assert (e.line, e.column) == (2, 97)


def test_non_numeric_fields() -> None:
    e = _error(trf(player(1, "A", rating="ab")))
    assert (e.line, e.column) == (2, 51) and e.message.startswith("rating")
    e = _error(trf(player(1, "A", "x.5")))
    assert (e.line, e.column) == (2, 82) and e.message.startswith("points")  # where the x is
    e = _error(trf("001   1x"))
    assert e.column == 7 and e.message.startswith("starting rank")
    e = _error(trf(player(1, "A", "0.0", "  1b w 1")))
    assert e.column == 94


def test_bad_engine_records() -> None:
    assert (_error(trf(player(1, "A"), "XXR five")).line, _error(trf(player(1, "A"), "XXR five")).column) == (3, 5)
    e = _error(trf(player(1, "A"), "XXR 5", "142 6"))
    assert isinstance(e, InconsistentData) and e.line == 4
    e = _error(trf(player(1, "A"), "XXP 1 7"))
    assert (e.line, e.column) == (3, 7) and "player 7 is not in the file" in e.message
    e = _error(trf(player(1, "A"), "240 Q   1    1"))
    assert e.column == 5
    e = _error(trf(player(1, "A"), "XXC white1", "152 B"))
    assert isinstance(e, InconsistentData)


def test_no_players() -> None:
    e = _error("012 Just a header\n022 Nowhere\n")
    assert "no player records" in e.message and e.line >= 1


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(FileAccessError) as info:
        read_trf(tmp_path / "nope.trf")
    assert info.value.exit_code == 5 and "nope.trf" in str(info.value)


# --- writing ----------------------------------------------------------------------------


def test_write_layout() -> None:
    t = parse_trf(TWO_GAMES)
    lines = write_trf(t).splitlines()
    assert lines[0] == "012 Test"
    assert lines[1][:8] == "001    1" and lines[1][80:84] == " 1.5"
    assert lines[1][91:] == "   2 w 1     3 b ="
    assert lines[3][91:] == "0000 - U     1 w ="


def test_write_recomputes_points_under_the_scoring() -> None:
    text = trf(player(1, "A", "0.0", "   2 w 1", "0000 - U"), player(2, "B", "0.0", "   1 b 0"), "BBW 3.0", "BBD 1.0")
    lines = write_trf(parse_trf(text)).splitlines()
    assert lines[1][80:84] == " 6.0"


def test_write_scoring_records() -> None:
    s = Scoring(win=Fraction(3), draw=Fraction(1), forfeit_win=Fraction(3), pab=Fraction(1), hpb=Fraction(1),
                fpb=Fraction(3))
    t = dataclasses.replace(parse_trf(trf(player(1, "A"))), scoring=s)
    text16 = write_trf(t, "trf16")
    assert "BBW  3.0" in text16 and "BBU  1.0" in text16 and "XXS WW=3.0" in text16
    assert "162  W 3.0    D 1.0    L 0.0    A 0.0    P 1.0" in write_trf(t, "trf26")
    assert parse_trf(text16).scoring == s and parse_trf(write_trf(t, "trf26")).scoring == s
    odd = dataclasses.replace(s, forfeit_win=Fraction(2))  # not expressible by BB* or 162
    for dialect in ("trf16", "trf26"):
        assert parse_trf(write_trf(dataclasses.replace(t, scoring=odd), dialect)).scoring == odd


def test_write_default_scoring_has_no_records() -> None:
    text = write_trf(parse_trf(TWO_GAMES), "trf26")
    assert "162" not in text and "XXS" not in text and "BB" not in text


@pytest.mark.parametrize("value,text", [(Fraction(23, 2), "11.5"), (Fraction(4), "4.0"), (Fraction(1, 4), "0.25")])
def test_format_points(value: Fraction, text: str) -> None:
    assert format_points(value) == text


def test_write_rejects_unknown_dialect() -> None:
    with pytest.raises(ValueError):
        write_trf(parse_trf(TWO_GAMES), "trf99")


# --- appending a round ------------------------------------------------------------------


def _example_like() -> str:
    return trf(
        player(1, "A", "1.0", "   2 w 1"),
        player(2, "B", "0.0", "   1 b 0"),
        player(3, "C", "1.0", "   4 w 1"),
        player(4, "D", "0.0", "   3 b 0"),
        player(5, "E", "1.0", "0000 - U", "0000 - H"),  # pre-entered half-point bye for round 2
        player(6, "F", "0.0", "0000 - Z"),
        "XXR 3", "XXZ 6", "240 F 2 4",
    )


def test_append_round() -> None:
    t = parse_trf(_example_like())
    t2 = append_round(t, [(2, 1)], bye=3, rnd=2)
    assert t2.player(2).entry(2) == RoundEntry(1, Colour.WHITE, PENDING_RESULT)
    assert t2.player(1).entry(2) == RoundEntry(2, Colour.BLACK, PENDING_RESULT)
    assert t2.player(3).entry(2) == RoundEntry(None, None, "U")
    assert t2.player(4).entry(2) == RoundEntry(None, None, "F")  # the requested bye (240)
    assert t2.player(5).entry(2) == RoundEntry(None, None, "H")  # pre-entered, kept
    assert t2.player(6).entry(2) == RoundEntry(None, None, "Z")  # XXZ
    assert t2.byes == {} and t2.absent_next == ()
    assert t2.rounds_played == 2
    text = write_trf(t2)
    line2 = text.splitlines()[2]
    assert line2[101:] == "   1 w" and line2[80:84] == " 0.0"
    assert text.splitlines()[3][80:84] == " 2.0"  # the PAB scores at once
    assert round_trip_view(parse_trf(text)) == round_trip_view(t2)


def test_append_round_errors() -> None:
    t = parse_trf(_example_like())
    with pytest.raises(ValueError, match="paired twice"):
        append_round(t, [(1, 2), (2, 3)], None, 2)
    with pytest.raises(ValueError, match="not in the tournament"):
        append_round(t, [(1, 9)], None, 2)
    with pytest.raises(ValueError, match="already has"):
        append_round(t, [(5, 1)], None, 2)


def test_a_block_read_by_its_text_alone_is_read_as_in_full() -> None:
    """The cached reading of a well-formed round block (`_well_formed`) gives what the
    full reading gives, and leaves to it every block that raises or warns: on every
    block of the fixtures and on random ones of the characters that matter."""
    import random

    from cpsat_pairing.formats import players
    from cpsat_pairing.formats.fields import FieldError

    blocks = {line[c - 1 : c + 9] for path in FIXTURE_FILES
              for line in path.read_text(encoding="latin-1").splitlines() if line.startswith("001")
              for c in range(92, len(line) + 1, 10)}
    rnd = random.Random(7)
    chars = " 0123456789wWbB-=+DLHFUZXxß.Ｗ"
    opponents = ["    ", "0000", "  00", "   1", "  51", "0051", " 5 1", "0 0 ", "x  1", "   ", ""]
    for _ in range(20000):  # `OOOO C R  `, each part often right, sometimes not
        parts = [rnd.choice(opponents), rnd.choice("  x"), rnd.choice(chars), rnd.choice("  -"), rnd.choice(chars),
                 rnd.choice(["  ", "  ", " ", "", " 1", "x "])]
        blocks.add("".join(parts)[: rnd.choice([10, 10, 10, 8, 6, 3])])
    fast = 0
    for block in sorted(b for b in blocks if b.strip()):
        for pid in (1, 51):
            warned: list[tuple[int, int, str]] = []
            try:
                full = players.parse_block(block.ljust(10), 92, pid, 1, 1, lambda *a: warned.append(a))
            except FieldError:
                full = None
            entry = players._well_formed(block)
            if entry is not None and entry.opponent != pid:
                fast += 1
                assert (entry, warned) == (full, []), block
            else:
                assert full is None or warned or (entry is not None and entry.opponent == pid), block
    assert fast > 1000
