"""The command line: output formats, exit codes, and that no traceback ever leaks."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cpsat_pairing import __version__

from cpsat_pairing.interface.commands import files

from cpsat_pairing import examples
from cpsat_pairing.interface.cli import app, main
from cpsat_pairing.formats import parse_trf

FIXTURES = Path(__file__).parent / "fixtures"
CORPUS_FILE = FIXTURES / "corpus/dutch-2026/dev/t000002.trf"
ROOT = Path(__file__).resolve().parents[1]

runner = CliRunner()

BAD_TRF = "012 Broken\n001    1      A" + " " * 66 + "1.0" + " " * 10 + "9 w 1\n"


def _no_traceback(result) -> None:  # type: ignore[no-untyped-def]
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


@pytest.fixture
def bad_file(tmp_path: Path) -> Path:
    path = tmp_path / "bad.trf"
    path.write_text(BAD_TRF)
    return path


def test_version() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.output.strip() == f"cpsat-pairing {__version__}"


def test_help_lists_commands_and_exit_codes() -> None:
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    for word in ("info", "convert", "Exit codes", "example"):
        assert word in result.output


def test_info_table() -> None:
    result = runner.invoke(app, ["info", str(CORPUS_FILE)])
    assert result.exit_code == 0, result.output
    for text in ("AutoTest late-entry driver", "rounds played", "trf16x", "white"):
        assert text in result.output


def test_info_example_from_any_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["info", "example", "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    counts = (summary["players"], summary["rounds_played"], summary["total_rounds"], summary["next_round"])
    assert counts == (14, 8, 9, 9)


def test_example_resource() -> None:
    assert examples.names() == ["example.trf"]
    assert examples.path().read_bytes() == examples.read_bytes()
    t = parse_trf(examples.read_bytes())
    assert t.rounds_played == 8 and t.total_rounds == 9 and t.warnings == ()


def test_info_json() -> None:
    result = runner.invoke(app, ["info", str(CORPUS_FILE), "--json", "--players"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["schema"] == 1 and data["dialect"] == "trf16x" and data["initial_colour"] == "white"
    assert data["scoring"]["win"] == 1 and data["scoring"]["draw"] == 0.5
    assert len(data["player_list"]) == 14


def test_info_shows_points_warnings() -> None:
    path = FIXTURES / "realtrf/irishchessunion__icu_tournament/bunratty_masters_2011.tab"
    result = runner.invoke(app, ["info", str(path), "--json"])
    assert result.exit_code == 0
    assert any("Points column says" in w for w in json.loads(result.stdout)["warnings"])
    table = runner.invoke(app, ["info", str(path), "--players"])
    assert table.exit_code == 0 and "warning:" in table.stdout


def test_convert_json_to_stdout() -> None:
    result = runner.invoke(app, ["convert", str(CORPUS_FILE), "--to", "json"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["players"][0]["rounds"][0] == {"opponent": 8, "colour": "white", "result": "1"}


@pytest.mark.parametrize("target", ["trf16", "trf26"])
def test_convert_trf_to_stdout(target: str) -> None:
    result = runner.invoke(app, ["convert", str(CORPUS_FILE), "--to", target])
    assert result.exit_code == 0
    again = parse_trf(result.stdout)
    assert again.dialect == ("trf26" if target == "trf26" else "trf16x")
    assert len(again.players) == 14 and again.total_rounds == 9


def test_convert_output_file(tmp_path: Path) -> None:
    out = tmp_path / "out.trf"
    result = runner.invoke(app, ["convert", str(CORPUS_FILE), "--to", "trf26", "--output", str(out)])
    assert result.exit_code == 0 and result.stdout == ""
    assert out.read_text().startswith("012 AutoTest")
    assert [p.name for p in tmp_path.iterdir()] == ["out.trf"]  # no temporary file left


def test_invalid_file_exit_3(bad_file: Path) -> None:
    for args in (["info", str(bad_file)], ["convert", str(bad_file), "--to", "json"]):
        result = runner.invoke(app, args)
        assert result.exit_code == 3
        assert result.stderr.strip() == f"{bad_file}:2:92: round 1: opponent 9 is not in the file"
        assert result.stdout == ""
        _no_traceback(result)


def test_error_does_not_touch_output(tmp_path: Path, bad_file: Path) -> None:
    out = tmp_path / "keep.trf"
    out.write_text("precious")
    result = runner.invoke(app, ["convert", str(bad_file), "--to", "trf16", "-o", str(out)])
    assert result.exit_code == 3 and out.read_text() == "precious"


def test_unwritable_output_exit_5(tmp_path: Path) -> None:
    out = tmp_path / "no/such/dir/out.trf"
    result = runner.invoke(app, ["convert", str(CORPUS_FILE), "--to", "trf26", "-o", str(out)])
    assert result.exit_code == 5 and "cannot write" in result.stderr
    _no_traceback(result)


def test_missing_file_exit_5(tmp_path: Path) -> None:
    result = runner.invoke(app, ["info", str(tmp_path / "missing.trf")])
    assert result.exit_code == 5
    assert "missing.trf" in result.stderr and len(result.stderr.strip().splitlines()) == 1
    _no_traceback(result)


def test_directory_exit_5(tmp_path: Path) -> None:
    assert runner.invoke(app, ["info", str(tmp_path)]).exit_code == 5


def test_warnings_go_to_stderr_on_convert() -> None:
    path = FIXTURES / "realtrf/irishchessunion__icu_tournament/bunratty_masters_2011.tab"
    result = runner.invoke(app, ["convert", str(path), "--to", "trf16"])
    assert result.exit_code == 0
    assert "warning:" in result.stderr and "warning:" not in result.stdout


def test_unexpected_error_exit_2(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(*args: object, **kwargs: object) -> str:
        raise RuntimeError("kaboom\nsecond line")

    monkeypatch.setattr(files, "write_trf", boom)
    result = runner.invoke(app, ["convert", str(CORPUS_FILE), "--to", "trf16"])
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        "cpsat-pairing: unexpected error: RuntimeError: kaboom (run with --debug for the traceback)"]
    _no_traceback(result)


def test_usage_error_maps_to_3(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["info", "--no-such-option"])
    assert info.value.code == 3
    assert "No such option" in capsys.readouterr().err
    with pytest.raises(SystemExit) as info:
        main(["convert", str(CORPUS_FILE)])  # --to is required
    assert info.value.code == 3
    assert "--to" in capsys.readouterr().err


def test_main_runs_commands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["info", str(CORPUS_FILE), "--json"])
    assert info.value.code == 0
    assert json.loads(capsys.readouterr().out)["players"] == 14
    with pytest.raises(SystemExit) as info:
        main(["info", "/no/such/file.trf"])
    assert info.value.code == 5


def test_python_dash_m(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "cpsat_pairing", "info", "example", "--json"],
        capture_output=True, text=True, cwd=tmp_path, env={"PYTHONPATH": str(ROOT), "PATH": ""},
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["players"] == 14


def test_edition_named_by_the_file_is_used_and_said(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`092 ... Dutch 2017 rules` selects dutch-2017 without --edition (note on stderr);
    a contradicting --edition wins with a warning; a named edition without a model falls
    back to the default with a warning."""
    src = (FIXTURES / "corpus/dutch-2017/dev-javafo/j000076.trf").read_text()
    path = tmp_path / "t.trf"
    path.write_text(src)
    cli_runner = CliRunner(mix_stderr=False) if "mix_stderr" in CliRunner.__init__.__code__.co_varnames else CliRunner()
    res = cli_runner.invoke(app, ["pair", str(path), "--round", "2", "-f", "json"])
    assert res.exit_code == 0 and json.loads(res.stdout)["edition"] == "dutch-2017"
    assert "dutch-2017" in res.stderr and "note" in res.stderr
    res = cli_runner.invoke(app, ["pair", str(path), "--round", "2", "-f", "json", "--edition", "dutch-2026"])
    assert res.exit_code == 0 and json.loads(res.stdout)["edition"] == "dutch-2026"
    assert "warning" in res.stderr
    path.write_text(src.replace("Swiss Dutch 2017 rules", "Swiss Dutch (Istanbul 2012 rules)"))
    res = cli_runner.invoke(app, ["pair", str(path), "--round", "2", "-f", "json"])
    assert res.exit_code == 0 and json.loads(res.stdout)["edition"] == "dutch-2013"
    assert "dutch-2013" in res.stderr and "note" in res.stderr
    # An edition the file names but this installation has no model of: the default, said loudly.
    from cpsat_pairing.dutch import edition as editions

    monkeypatch.setattr(editions, "available", lambda: ["dutch-2026", "dutch-2017"])
    res = cli_runner.invoke(app, ["pair", str(path), "--round", "2", "-f", "json"])
    assert res.exit_code == 0 and json.loads(res.stdout)["edition"] == "dutch-2026"
    assert "dutch-2013" in res.stderr and "warning" in res.stderr


@pytest.mark.parametrize("command", ["pair", "explain"])
def test_a_round_past_the_next_one_is_exit_3_naming_the_next(command: str, tmp_path: Path) -> None:
    out = tmp_path / "out.trf"
    out.write_text("kept")
    args = [command, str(FIXTURES / "doors" / "t000002_r1-6.trf"), "--round", "99"]
    result = runner.invoke(app, args + (["-f", "trf", "-o", str(out)] if command == "pair" else []))
    _no_traceback(result)
    assert result.exit_code == 3 and "next round that can be paired is 7" in result.output
    assert out.read_text() == "kept"


def test_check_help_names_the_distributed_extra() -> None:
    """Square brackets are rich markup: the extra's name must be escaped to show."""
    res = runner.invoke(app, ["check", "--help"], env={"COLUMNS": "200"})
    assert res.exit_code == 0
    assert "cpsat-pairing[distributed]" in res.output and "the [distributed] extra" in res.output
