"""Real clients' files: each layout (testing/clients.py) is read, paired through the
command line that client runs, and gives the reference engine's pairing of the round it
was made from (the whole sample: scripts/clients.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cpsat_pairing.apps.checklist import checklist
from cpsat_pairing.formats import parse_trf, read_trf
from cpsat_pairing.formats.pair_list import read_pair_list
from cpsat_pairing.interface.cli import app, main
from cpsat_pairing.testing.clients import CLIENTS, swiss_manager
from cpsat_pairing.testing.corpus import recorded

CORPUS = Path(__file__).parent / "fixtures" / "corpus"
# (file, round): rounds with half-point byes and absences, and a round 1
CASES = [("dutch-2026/dev/t000182.trf", 1), ("dutch-2026/dev/t000182.trf", 2), ("dutch-2026/dev/t000182.trf", 5),
         ("dutch-2026/dev/t000051.trf", 4), ("dutch-2026/dev/t000104.trf", 3), ("dutch-2026/dev/t000104.trf", 9)]


def run_client(name: str, t_path: Path, rnd: int, folder: Path, capsys: pytest.CaptureFixture[str],
               monkeypatch: pytest.MonkeyPatch, year: int = 2026) -> tuple[list[tuple[int, int]], int | None, str]:
    client = CLIENTS[name]
    t = read_trf(t_path)
    source = folder / client.file_name
    source.write_bytes(client.write(t, rnd, year).encode())
    out = folder / "out.txt"
    monkeypatch.chdir(folder)
    with pytest.raises(SystemExit) as info:
        main(client.argv(str(source), str(out)))
    stdout, stderr = capsys.readouterr()
    assert info.value.code == 0, stderr
    pairs, bye = read_pair_list(stdout if client.pairs_on_stdout else out.read_text())
    return pairs, bye, stderr


@pytest.mark.parametrize("name", sorted(CLIENTS))
@pytest.mark.parametrize(("file", "rnd"), CASES, ids=[f"{Path(f).stem}-r{r}" for f, r in CASES])
def test_client_file_pairs_as_the_reference(name: str, file: str, rnd: int, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    pairs, bye, _ = run_client(name, CORPUS / file, rnd, tmp_path, capsys, monkeypatch)
    expected, expected_bye = recorded(read_trf(CORPUS / file), rnd)
    if name == "heltour" and rnd == 1:
        # heltour states no initial colour (its round 1 draws one): the pairs by ids only.
        assert {frozenset(pq) for pq in pairs} == {frozenset(pq) for pq in expected} and bye == expected_bye
    else:
        assert set(pairs) == expected and bye == expected_bye


def test_vega_file_of_a_2019_event_is_paired_by_the_2017_rules(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    file = CORPUS / "dutch-2017" / "dev-javafo" / "j000094.trf"
    for rnd in (3, 5):
        pairs, bye, stderr = run_client("vega", file, rnd, tmp_path, capsys, monkeypatch, year=2019)
        assert (set(pairs), bye) == recorded(read_trf(file), rnd)
        assert "pairing by dutch-2017" in stderr


def test_sharly_reads_the_checklist_it_asks_for(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Sharly Chess parses the checklist: the header row starts `ID\\t`, the rounds are
    the dashes of column 3 less one, the current opponent matches `(\\d+)([WB])`."""
    import re

    file, rnd = CORPUS / "dutch-2026" / "dev" / "t000182.trf", 5
    pairs, _, _ = run_client("sharly", file, rnd, tmp_path, capsys, monkeypatch)
    text = (tmp_path / "checklist-output.txt").read_text()
    rows = [line.split("\t") for line in text.splitlines() if line and not line.startswith("BBP Pairings")]
    header = next(r for r in rows if r[0] == "ID")
    assert header[2].count("-") - 1 == rnd - 1
    current = {int(r[0]): re.fullmatch(r"\((\d+)([WB])\)", r[7].strip()) for r in rows if r[0].strip().isdigit()}
    for white, black in pairs:
        assert current[white] and current[white].groups() == (str(black), "W")


def test_swiss_manager_export_checks_clean(tmp_path: Path) -> None:
    """A finished event exported by Swiss-Manager (no XXR, no XXC, dates DD.MM.YYYY):
    `check` reads the rules off the start date and the colour off round 1."""
    for folder, year in (("dutch-2026/dev/t000044.trf", 2026), ("dutch-2017/dev-javafo/j000095.trf", 2019),
                         ("dutch-2013/dev/j000047.trf", 2012)):
        t = read_trf(CORPUS / folder)
        path = tmp_path / "export.trf"
        path.write_text(swiss_manager(t, t.rounds_played + 1, year), newline="")
        result = CliRunner().invoke(app, ["check", str(path), "--format", "json"])
        data = json.loads(result.stdout)["files"][0]
        assert {r["verdict"] for r in data["rounds"]} == {"match"}, (folder, data["rounds"])
        assert data["edition"] == folder.split("/")[0]


def test_xxc_rank_pairs_by_position_in_the_file() -> None:
    """JaVaFo's `XXC rank`: the positional ids pair, the output names the file's ids."""
    import dataclasses
    import random

    from cpsat_pairing.dutch.rounds import pair
    from cpsat_pairing.formats import write_trf
    from cpsat_pairing.testing.corpus import prepared_round

    t = read_trf(CORPUS / "dutch-2026" / "dev" / "t000182.trf")
    prepared = parse_trf(prepared_round(t, 5))
    ids = [p.id for p in prepared.players]
    shuffled = random.Random(1).sample(ids, len(ids))
    new = dict(zip(ids, shuffled, strict=True))

    def renumber(e):  # type: ignore[no-untyped-def]
        return e if e is None or e.opponent is None else dataclasses.replace(e, opponent=new[e.opponent])

    players = tuple(dataclasses.replace(p, id=new[p.id], rounds=tuple(renumber(e) for e in p.rounds))
                    for p in prepared.players)
    text = write_trf(dataclasses.replace(prepared, players=players, rank_mode=True), "trf16")
    assert "XXC rank" in text
    result = pair(parse_trf(text))
    expected, bye = recorded(t, 5)
    assert set(result.as_pairs()) == {(new[a], new[b]) for a, b in expected}
    assert result.bye == (None if bye is None else new[bye])
    assert checklist(parse_trf(text), 5, result.as_pairs(), "dutch-2026")
