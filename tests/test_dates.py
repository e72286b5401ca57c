"""The edition a file's dates imply, and the initial colour a file's round 1 shows: an
arbiter checking an old event gets the rules of its day and no false alarms."""

from __future__ import annotations

import datetime
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cpsat_pairing.apps.check import check
from cpsat_pairing.dutch.edition import choose_edition, in_force, parse_date
from cpsat_pairing.formats import parse_trf
from cpsat_pairing.interface.cli import app

CORPUS = Path(__file__).parent / "fixtures" / "corpus"
JAVAFO_2017 = CORPUS / "dutch-2017" / "dev-javafo" / "j000094.trf"  # 2017 and 2026 rules differ on a round
JAVAFO_2013 = CORPUS / "dutch-2013" / "dev" / "j000017.trf"  # likewise 2013 and 2026; round 1 shows black1
runner = CliRunner()


@pytest.mark.parametrize(("text", "year_first", "dates"), [
    ("2018/05/12", False, {(2018, 5, 12)}),
    ("2018-05-12", False, {(2018, 5, 12)}),
    ("12.05.2018", False, {(2018, 5, 12), (2018, 12, 5)}),
    ("30/09/2011", False, {(2011, 9, 30)}),
    ("May 10, 2020", False, {(2020, 5, 10)}),
    ("10 May 2020", False, {(2020, 5, 10)}),
    ("18/05/12", True, {(2018, 5, 12)}),  # 132's YY/MM/DD
    ("11.09.26", False, {(2011, 9, 26), (2026, 9, 11), (2026, 11, 9)}),
    ("soon", False, set()),
])
def test_parse_date_reads_every_form_files_use(text: str, year_first: bool, dates: set[tuple[int, int, int]]) -> None:
    assert parse_date(text, year_first) == {datetime.date(*d) for d in dates}


@pytest.mark.parametrize(("day", "edition"), [
    ((2017, 6, 30), "dutch-2013"), ((2017, 7, 1), "dutch-2017"),
    ((2026, 1, 31), "dutch-2017"), ((2026, 2, 1), "dutch-2026"),
])
def test_in_force_at_the_boundaries(day: tuple[int, int, int], edition: str) -> None:
    assert in_force(datetime.date(*day)) == edition


def test_choose_edition_order_of_precedence() -> None:
    assert choose_edition("dutch-2013", None, None, "2018/05/12").name == "dutch-2013"
    assert choose_edition(None, "FIDE_DUTCH_2017", None, "2012/05/12").name == "dutch-2017"
    by_date = choose_edition(None, "Dutch (JaVaFo)", None, "2018/05/12")
    assert by_date.name == "dutch-2017" and "start date 2018/05/12 (042)" in by_date.reason and by_date.notes
    assert choose_edition(None, None, None, None, ("", "12/03/17")).name == "dutch-2013"  # 132, round 1 blank
    # an order that reads as two editions decides nothing: the next source, then the default
    assert choose_edition(None, None, None, "11.09.26").name == "dutch-2026"
    assert choose_edition(None, None, None, "11.09.26", ("11/09/26",)).name == "dutch-2013"
    assert choose_edition(None, None, None).reason.startswith("the default")


def _dated(source: Path, start: str, kind: str) -> str:
    """The corpus file as the event's own file: a start date and a 092 that names no edition."""
    lines = source.read_text().splitlines()
    return "\n".join([lines[0], f"042 {start}", f"092 {kind}", *lines[1:]]) + "\n"


@pytest.mark.parametrize(("source", "start", "edition"), [
    (JAVAFO_2017, "2018/05/12", "dutch-2017"),
    (JAVAFO_2013, "12.05.2012", "dutch-2013"),
])
def test_check_an_old_event_by_the_rules_of_its_day(tmp_path: Path, source: Path, start: str, edition: str) -> None:
    path = tmp_path / "event.trf"
    path.write_text(_dated(source, start, "Individual: Swiss-System Dutch (JaVaFo)"))
    result = runner.invoke(app, ["check", str(path), "--format", "json"])
    data = json.loads(result.stdout)["files"][0]
    assert result.exit_code == 0, result.output
    assert data["edition"] == edition and f"start date {start} (042)" in data["edition_reason"]
    assert {r["verdict"] for r in data["rounds"]} == {"match"}
    assert f"pairing by {edition}" in result.stderr
    # the same file by today's rules: the alarm the date prevents
    today = runner.invoke(app, ["check", str(path), "--format", "json", "--edition", "dutch-2026"])
    assert today.exit_code == 10


def test_pair_records_the_edition_and_the_reason(tmp_path: Path) -> None:
    t = parse_trf(JAVAFO_2017.read_text())
    path = tmp_path / "event.trf"
    text = _dated(JAVAFO_2017, "2018/05/12", "Swiss")
    keep = 4  # rounds 1-4 played: pair round 5
    lines = [line[: 91 + 10 * keep].rstrip() if line.startswith("001") else line for line in text.splitlines()]
    path.write_text("\n".join(lines) + f"\nXXR {t.rounds_played}\n")
    result = runner.invoke(app, ["pair", str(path), "--format", "json"])
    data = json.loads(result.stdout)
    assert result.exit_code == 0, result.output
    assert data["edition"] == "dutch-2017" and "2018/05/12" in data["edition_reason"]


def test_check_reads_round_1_colours_off_the_file() -> None:
    """A TRF16 file without XXC whose round 1 gave Black to the top board: round 1 checks
    as a match (with a note), as re-pairing it with black1 gives the file's colours."""
    t = parse_trf(JAVAFO_2013.read_text())
    assert t.initial_colour is None
    fc = check(t, "dutch-2013")
    assert fc.rounds[0].round == 1 and fc.rounds[0].verdict.value == "match"
    assert any("round 1 shows it: black (XXC black1)" in n for n in fc.notes)


def test_pair_round_1_says_what_it_assumes(tmp_path: Path) -> None:
    path = tmp_path / "r1.trf"
    path.write_text("012 x\n001    1      A                                 2000                             0.0\n"
                    "001    2      B                                 1900                             0.0\nXXR 3\n")
    result = runner.invoke(app, ["pair", str(path)])
    assert result.exit_code == 0 and "White assumed (XXC white1)" in result.stderr
