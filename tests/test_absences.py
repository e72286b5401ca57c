"""Players left out of the round to pair, marked in that round's columns the way client
programs write it, in every notation: the round is the one to pair, those players are
absent (with their byes as written), and the pairing is the reference engine's."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cpsat_pairing.domain.state import absent_players
from cpsat_pairing.formats import parse_trf, read_trf
from cpsat_pairing.formats.pair_list import read_pair_list
from cpsat_pairing.interface.cli import app, main
from cpsat_pairing.testing.corpus import (
    NOTATIONS,
    is_left_out,
    prepared_round,
    recorded,
    replay_prepared,
)

CORPUS = Path(__file__).parent / "fixtures" / "corpus"
# files with half-point byes and absences in several rounds
FILES = [("dutch-2026", CORPUS / "dutch-2026" / "dev" / f) for f in ("t000051.trf", "t000104.trf", "t000182.trf")]
FILES += [("dutch-2017", CORPUS / "dutch-2017" / "dev-javafo" / "j000076.trf")]
runner = CliRunner()


@pytest.mark.parametrize("notation", sorted(NOTATIONS))
@pytest.mark.parametrize(("edition", "path"), FILES, ids=[p.name for _, p in FILES])
def test_every_round_with_players_left_out_pairs_as_the_reference(notation: str, edition: str, path: Path) -> None:
    results = replay_prepared(read_trf(path), edition, notation, path.name)
    assert len(results) >= 3
    assert [r.detail for r in results if not r.exact] == []


# Other spellings seen in real files: no colour (`0000   -`), no opponent (`       - Z`).
SPELLINGS = {
    "blank colour": (r"0000 - ([-=+ZHF])", r"0000   \1"),
    "blank opponent": (r"0000 - ([-=+ZHF])", r"     - \1"),
}


@pytest.mark.parametrize("spelling", sorted(SPELLINGS))
def test_other_spellings_of_the_same_blocks(spelling: str) -> None:
    edition, path = FILES[2]
    t = read_trf(path)
    pattern, repl = SPELLINGS[spelling]
    for rnd in (2, 5):
        text = re.sub(pattern, repl, prepared_round(t, rnd, "symbols"))
        prepared = parse_trf(text)
        assert prepared.rounds_played == rnd - 1
        left_out = {p.id for p in t.players if is_left_out(t, p.id, rnd)}
        assert absent_players(prepared, rnd) == frozenset(left_out)


def test_info_names_the_round_to_pair_and_who_is_left_out(tmp_path: Path) -> None:
    _, path = FILES[2]
    t = read_trf(path)
    target = tmp_path / "round5.trf"
    target.write_text(prepared_round(t, 5, "symbols"))
    result = runner.invoke(app, ["info", str(target), "--json"])
    data = json.loads(result.stdout)
    left_out = {p.id: p.entry(5) for p in t.players if is_left_out(t, p.id, 5)}
    assert data["rounds_played"] == 4 and data["next_round"] == 5
    assert set(data["pre_entered_next"]) == {str(pid) for pid in left_out}
    table = runner.invoke(app, ["info", str(target)])
    assert "left out of round 5" in table.stdout and "next round" in table.stdout


@pytest.mark.parametrize("door", ["bbp", "javafo"])
def test_a_heltour_file_through_its_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], door: str) -> None:
    """heltour's call (`INPUT -p OUTPUT -q 10000`) and bbpPairings' on a file that marks
    the players left out with `0000 - -`: the round after the last played is paired."""
    edition, path = FILES[2]
    t = read_trf(path)
    rnd = 5
    source = tmp_path / "in.trfx"
    source.write_text(prepared_round(t, rnd, "symbols"))
    out = tmp_path / "in.trfx.out.txt"
    argv = [str(source), "-p", str(out), "-q", "10000"] if door == "javafo" else ["--dutch", str(source), "-p", str(out)]
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 0, capsys.readouterr().err
    pairs, bye = read_pair_list(out.read_text())
    expected, expected_bye = recorded(t, rnd)
    assert set(pairs) == expected and bye == expected_bye
