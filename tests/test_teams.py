"""Team tournaments (`192 FIDE_TEAM_*`, `310` or TRF16's `013` team records, a `092` naming a team system)
are recognised: `info` says so, and every way in (`pair`, `check`, the service, the
other engines' command lines) refuses them with exit 3, since team Swiss pairing
(C.04.6) pairs teams, not players; `--edition` asks for the individual reading."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cpsat_pairing.formats import read_trf
from cpsat_pairing.interface.cli import app
from cpsat_pairing.interface.doors import main as door
from cpsat_pairing.interface.service import handle
from cpsat_pairing.testing.corpus import prepared_round

from helpers import CORPUS

SOURCE = CORPUS / "dutch-2026" / "dev" / "t000149.trf"  # 8 players
RECORDS = {
    "192": ("192 FIDE_TEAM_BAKU", "FIDE_TEAM_BAKU in its 192 record"),
    "092": ("092 Team Swiss", "Team Swiss in its 092 record"),
    "310": ("310   1 Ireland                          IRL     2100    3.0    6.0   1     1    2", "310 team records"),
    "013": ("013 Bray / Greystones                 1    2    3    4", "013 team records"),
}
runner = CliRunner()


def _team_file(tmp_path: Path, record: str) -> Path:
    lines = [line for line in SOURCE.read_text().splitlines() if line[:4] not in ("192 ", "092 ")]
    path = tmp_path / "team.trf"
    path.write_text("\n".join([*lines, record]) + "\n")
    return path


@pytest.mark.parametrize("code", sorted(RECORDS))
def test_team_tournament_recognised_and_refused(tmp_path: Path, code: str) -> None:
    record, named = RECORDS[code]
    path = _team_file(tmp_path, record)
    info = json.loads(runner.invoke(app, ["info", str(path), "--json"]).stdout)
    assert info["team_system"] == named and info["edition"] is None
    assert "team Swiss pairing (C.04.6) is not implemented" in info["edition_reason"]
    for args in (["pair", str(path), "--round", "2"], ["check", str(path)]):
        result = runner.invoke(app, args)
        assert result.exit_code == 3, args
        assert "a team tournament" in result.output and "C.04.6" in result.output
        assert "Traceback" not in result.output


def test_an_explicit_edition_reads_the_players_individually(tmp_path: Path) -> None:
    path = _team_file(tmp_path, RECORDS["192"][0])
    result = runner.invoke(app, ["check", str(path), "--edition", "dutch-2026", "--rounds", "1-2"])
    assert result.exit_code == 0 and "2/2 rounds match" in result.output
    assert "pairing its players individually by dutch-2026" in result.output


def test_service_and_doors_refuse_alike(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _team_file(tmp_path, RECORDS["192"][0])
    text = path.read_text()
    for op in ("pair", "check"):
        answer = handle({"op": op, "trf": text, "round": 2})
        error = answer.get("error") or answer.get("result", {}).get("error")
        assert error and "C.04.6" in str(error), (op, answer)
    assert handle({"op": "pair", "trf": text, "round": 2, "edition": "dutch-2026"})["ok"] is True
    next_round = tmp_path / "next.trf"
    next_round.write_text(prepared_round(read_trf(SOURCE), 3) + RECORDS["192"][0] + "\n")
    for argv, name in ((["--dutch", str(path), "-c"], "bbp"), (["--dutch", str(next_round), "-p"], "bbp"),
                       ([str(next_round), "-p"], "javafo"), ([str(path), "-c"], "javafo")):
        assert door(argv, name) == 3, argv
        assert "C.04.6" in capsys.readouterr().err
