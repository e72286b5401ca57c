"""bbpPairings' and JaVaFo's command lines: a program that calls either engine gets the
same files, the same stdout and the same exit codes from this one.

The expected outputs in fixtures/doors were written by bbpPairings (6.0.0 for the 2026
rules, 5.0.1 for the 2017 rules) on the same inputs; its banner line is the only part
of a checklist compared loosely (it names the program)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cpsat_pairing.apps.checklist import checklist
from cpsat_pairing.formats import read_trf
from cpsat_pairing.formats.pair_list import read_pair_list
from cpsat_pairing.interface.cli import main
from cpsat_pairing.interface.doors import BANNER, which_door

DOORS = Path(__file__).parent / "fixtures" / "doors"
CORPUS = Path(__file__).parent / "fixtures" / "corpus"


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as info:
        main(argv)
    out, err = capsys.readouterr()
    return int(info.value.code or 0), out, err


def without_banner(text: str) -> str:
    """A checklist without its last line, the program's banner."""
    body, _, last = text.rpartition("\n")
    assert last.startswith(("BBP Pairings", "cpsat-pairing")), last
    return body


@pytest.fixture
def inputs(tmp_path: Path) -> Path:
    """The fixtures copied to a directory of their own (outputs land next to the input)."""
    folder = tmp_path / "in"
    shutil.copytree(DOORS, folder)
    return folder


@pytest.mark.parametrize(("argv", "door"), [
    (["--dutch", "x.trf", "-p"], "bbp"),
    (["-r", "--dutch", "x.trf", "-c"], "bbp"),
    (["x.trf", "-p", "out", "-q", "10000"], "javafo"),
    (["-g", "-o", "x.trf"], "javafo"),
    (["-r"], "javafo"),
    (["pair", "x.trf"], None),
    (["check", "x.trf", "--json"], None),
])
def test_which_door(argv: list[str], door: str | None) -> None:
    assert which_door(argv) == door


# --- bbpPairings --------------------------------------------------------------------------


def test_bbp_pairs_to_stdout_as_bbp_does(inputs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["--dutch", str(inputs / "t000002_r1-6.trf"), "-p"], capsys)
    assert code == 0 and out == (DOORS / "t000002_r7.pairs").read_text()


def test_bbp_bare_output_and_checklist_names_go_next_to_the_input(
    inputs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    elsewhere = tmp_path / "cwd"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    code, out, _ = run(["--dutch", str(inputs / "t000002_r1-6.trf"), "-p", "out.pairs", "-l", "my.list"], capsys)
    assert code == 0 and out == "" and not list(elsewhere.iterdir())
    assert (inputs / "out.pairs").read_text() == (DOORS / "t000002_r7.pairs").read_text()
    assert without_banner((inputs / "my.list").read_text()) == without_banner((DOORS / "t000002_r7.list").read_text())


def test_bbp_default_checklist_name_and_an_output_path_with_a_directory(
    inputs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, _ = run(["--dutch", str(inputs / "t000002_r1-6.trf"), "-p", "./here.pairs", "-l"], capsys)
    assert code == 0 and (tmp_path / "here.pairs").exists()
    assert (inputs / "t000002_r1-6.list").exists()


def test_bbp_banner_comes_first_with_r(inputs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["-r", "--dutch", str(inputs / "t000002_r1-6.trf"), "-p"], capsys)
    first, _, rest = out.partition("\n")
    assert code == 0 and first == BANNER and rest == (DOORS / "t000002_r7.pairs").read_text()
    assert run(["-r"], capsys)[:2] == (0, BANNER + "\n")


def test_bbp_absent_player_pre_entered(inputs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["--dutch", str(inputs / "abs_Z.trf"), "-p", "-l"], capsys)
    assert code == 0 and out == (DOORS / "abs_Z_r7.pairs").read_text()
    assert without_banner((inputs / "abs_Z.list").read_text()) == without_banner((DOORS / "abs_Z_r7.list").read_text())


def test_bbp_checker_prints_the_rules_pairs_beside_the_files(inputs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["--dutch", str(inputs / "t000002_swapped_r7.trf"), "-c"], capsys)
    assert code == 0 and out == (DOORS / "t000002_swapped_r7.check.txt").read_text()


def test_bbp_checker_checklist_has_one_table_per_round(inputs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, _ = run(["--dutch", str(inputs / "t000002_swapped_r7.trf"), "-c", "-l", "c.list"], capsys)
    text = (inputs / "c.list").read_text()
    assert code == 0 and [line for line in text.splitlines() if line.startswith("Round #")] == [
        f"Round #{r}" for r in range(1, 10)
    ]


def test_bbp_no_valid_pairing_exits_1_and_still_writes_the_checklist(
    inputs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(["--dutch", str(inputs / "nopairing.trf"), "-p", "-l"], capsys)
    assert code == 1 and out == ""
    assert err.startswith(f"Error while pairing {inputs / 'nopairing.trf'}: No valid pairing exists: ")
    # written with its table only, as bbpPairings leaves it when the round cannot be paired
    assert (inputs / "nopairing.list").read_text() == (DOORS / "nopairing.list").read_text()


@pytest.mark.parametrize(("make", "argv_tail", "code", "message"), [
    (None, ["-p"], 5, "Error reading file "),
    ("001    1      A                                 2000                             1.0    1 w 1\n", ["-p"], 3,
     "Error parsing file "),
    ("001    1      A                                 2000                             0.0\n", ["-p"], 3,
     "The total number of rounds in the tournament must be specified."),
    ("XXR 5\n", ["-p", "/no/such/dir/out"], 5, "The output file (/no/such/dir/out) could not be opened."),
    ("XXR 5\n", ["-x"], 3, "Usage:"),
    ("XXR 5\n", ["-p", "a", "b"], 3, "Usage:"),
])
def test_bbp_errors_and_exit_codes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], make: str | None, argv_tail: list[str], code: int, message: str
) -> None:
    path = tmp_path / "in.trf"
    if make is not None:
        text = make if make.startswith("001") else (DOORS / "t000002_r1-6.trf").read_text() + make
        if make.startswith("XXR"):
            text = (DOORS / "t000002_r1-6.trf").read_text()
        path.write_text(text)
    got, out, err = run(["--dutch", str(path), *argv_tail], capsys)
    assert got == code and message in err and "Traceback" not in err
    assert not (tmp_path / "a").exists()


def test_bbp_generator_with_a_checklist_per_round(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "rtg.cfg"
    config.write_text("PlayersNumber=13\nRoundsNumber=5\n")
    code, _, _ = run(["--dutch", "-g", str(config), "-o", "gen.trf", "-s", "7", "-l"], capsys)
    t = read_trf(tmp_path / "gen.trf")
    text = (tmp_path / "gen.list").read_text()
    assert code == 0 and len(t.players) == 13 and t.rounds_played == 5
    assert [line for line in text.splitlines() if line.startswith("Round #")] == [f"Round #{r}." for r in range(1, 6)]


def test_bbp_5_checklist_for_the_2017_rules() -> None:
    """Under the 2017 rules bbpPairings 5 names the float columns C12 and C14."""
    t = read_trf(DOORS / "t000044_2017_r1-3.trf")
    pairs, bye = read_pair_list((DOORS / "t000044_2017_r4.pairs").read_text())
    text = checklist(t, 4, pairs, "dutch-2017")
    assert without_banner(text) == without_banner((DOORS / "t000044_2017_r4.list").read_text())


# --- JaVaFo -------------------------------------------------------------------------------


def test_javafo_command_line_as_heltour_calls_it(inputs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`ENGINE INPUT -p OUTPUT -q 10000` (and the retry with -w): the search options are
    accepted and change nothing."""
    source = inputs / "t000002_r1-6.trf"
    expected = (DOORS / "t000002_r7.pairs").read_text()
    for extra in (["-q", "10000"], ["-w"], []):
        out_file = inputs / "out.txt"
        code, out, _ = run([str(source), "-p", str(out_file), *extra], capsys)
        assert code == 0 and out == "" and out_file.read_text() == expected
        out_file.unlink()


def test_javafo_pairs_to_stdout_and_writes_its_checklist(inputs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run([str(inputs / "t000002_r1-6.trf"), "-p", "-l"], capsys)
    lines = (inputs / "t000002_r1-6.list").read_text().splitlines()
    assert code == 0 and out == (DOORS / "t000002_r7.pairs").read_text()
    header = lines[0].split("\t")
    assert header[:4] == ["ID", "Pts", " " + "-" * 6, "Pref"] and header[-2] == "G-1"
    assert any("(9W)" in line for line in lines)


def test_javafo_checker_one_round(inputs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run([str(inputs / "t000002_swapped_r7.trf"), "-c", "7"], capsys)
    assert code == 0 and out.splitlines()[0] == "t000002_swapped_r7: Round #7"
    assert "Checker pairings" in out and "Round #6" not in out


@pytest.mark.parametrize("rnd", ["0", "10", "99"])
def test_javafo_checker_refuses_a_round_the_file_does_not_hold(
    inputs: Path, rnd: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run([str(inputs / "t000002_swapped_r7.trf"), "-c", rnd], capsys)
    assert code == 3 and out == "" and "can be checked are 1-9" in err


def test_javafo_generator_takes_a_seed_in_place_of_the_config(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first = tmp_path / "a.trf"
    second = tmp_path / "b.trf"
    assert run(["-g", "18980522", "-o", str(first)], capsys)[0] == 0
    assert run(["-g", "-o", str(second), "-s", "18980522"], capsys)[0] == 0
    assert first.read_text() == second.read_text()


def test_javafo_model_file_and_baku(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    model = sorted((CORPUS / "dutch-2026").rglob("*.trf"))[0]
    out = tmp_path / "gen.trf"
    code, _, err = run([str(model), "-g", "-b", "-o", str(out), "-s", "3"], capsys)
    t, m = read_trf(out), read_trf(model)
    assert code == 0, err
    assert len(t.players) == len(m.players) and t.acceleration


def test_javafo_usage_errors_exit_3(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["x.trf", "-p", "-q"], capsys)
    assert code == 3 and "-q takes a number" in err and "Usage" in err
