"""`check`: reference-paired files match round by round; tampered rounds are caught
at the right round with a reason; JSON and HTML reports are well-formed."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from html.parser import HTMLParser
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cpsat_pairing import Tier, TierKind, Verdict, load_edition, read_trf, write_trf
from cpsat_pairing.apps.check import file_round, parse_rounds
from cpsat_pairing.apps.compare import Difference, DifferenceKind
from cpsat_pairing.interface.views.check import describe
from cpsat_pairing.interface.cli import app, main
from cpsat_pairing.testing import mutate

from helpers import BUGS, CORPUS

DEV = CORPUS / "dutch-2026" / "dev"
SMALL = [DEV / f"{name}.trf" for name in ("t000149", "t000084", "t000044")]  # 8, 11, 15 players
WITH_BYES = DEV / "t000044.trf"
VERDICTS = [v.value for v in Verdict]

runner = CliRunner()


def _check_json(*args: str) -> tuple[int, dict]:
    result = runner.invoke(app, ["check", *args, "--format", "json"])
    assert "Traceback" not in result.output
    return result.exit_code, json.loads(result.stdout)


@pytest.mark.parametrize("path", SMALL, ids=lambda p: p.stem)
def test_reference_files_match_every_round(path: Path) -> None:
    code, data = _check_json(str(path))
    rounds = data["files"][0]["rounds"]
    assert code == 0 and data["exit_code"] == 0
    assert [r["verdict"] for r in rounds] == ["match"] * len(rounds) and len(rounds) >= 5


def test_table_output_and_summary_line() -> None:
    result = runner.invoke(app, ["check", str(SMALL[0])])
    assert result.exit_code == 0
    assert "7/7 rounds match; 1 file" in result.stdout


def test_bbp_checker_door(capsys: pytest.CaptureFixture[str]) -> None:
    """bbpPairings' `--dutch FILE -c`: one `NAME: Round #N` line per round, nothing else
    when every round matches."""
    with pytest.raises(SystemExit) as info:
        main(["--dutch", str(SMALL[0]), "-c"])
    lines = capsys.readouterr().out.splitlines()
    assert info.value.code == 0
    assert lines == [f"{SMALL[0].stem}: Round #{r}" for r in range(1, 8)] + [""]


def _mutated(tmp_path: Path, kind: str) -> tuple[Path, int]:
    """One tampered copy of WITH_BYES, and the round that was tampered with."""
    t = read_trf(WITH_BYES)
    rnd = 3
    if kind == "swap opponents":
        m = mutate.swap_opponents(t, rnd, 0, 1)
    elif kind == "swap colours":
        m = mutate.swap_colours(t, rnd, 1)
    else:
        rnd = next(r for r in range(2, 6) if file_round(t, r).bye is not None)
        m = mutate.move_bye(t, rnd, 0)
    path = tmp_path / f"{kind.replace(' ', '-')}.trf"
    path.write_text(write_trf(m, t.dialect))
    return path, rnd


@pytest.mark.parametrize("kind", ["swap opponents", "swap colours", "move bye"])
def test_mutated_round_is_flagged_with_a_reason(tmp_path: Path, kind: str) -> None:
    path, rnd = _mutated(tmp_path, kind)
    code, data = _check_json(str(path))
    assert code == 10
    by_round = {r["round"]: r for r in data["files"][0]["rounds"]}
    assert all(by_round[r]["verdict"] == "match" for r in by_round if r < rnd)
    flagged = by_round[rnd]
    assert flagged["verdict"] != "match" and flagged["summary"]
    if flagged["verdict"] == "illegal":
        assert flagged["illegalities"] and flagged["illegalities"][0].startswith("[C")
    elif flagged["verdict"] == "colours differ":
        assert kind == "swap colours"
        (board,) = flagged["boards"]["colours"]
        assert board["colour_rule"].startswith("5.2.") and board["white"] == board["file_black"]
    else:
        assert flagged["verdict"] == "pairs differ"
        assert flagged["difference"]["tier"] is not None or flagged["difference"]["kind"] == "composition"
        assert flagged["boards"]["rules_only"] or not flagged["boards"]["bye"]


def test_move_bye_names_c5(tmp_path: Path) -> None:
    """A PAB given to a player with a higher score than necessary loses on [C5]."""
    t = read_trf(WITH_BYES)
    path = tmp_path / "bye.trf"
    path.write_text(write_trf(mutate.move_bye(t, 4, 0), t.dialect))
    code, data = _check_json(str(path), "--rounds", "4")
    (r,) = data["files"][0]["rounds"]
    assert code == 10 and r["verdict"] == "pairs differ"
    assert r["difference"]["tier"] == "C5 PAB score" and r["difference"]["file"] > r["difference"]["rules"]
    assert r["summary"].startswith("[C5] PAB score — file ")


def test_json_structure(tmp_path: Path) -> None:
    path, _ = _mutated(tmp_path, "swap opponents")
    code, data = _check_json(str(SMALL[0]), str(path), "--rounds", "2-4")
    assert code == 10
    assert set(data) >= {"schema", "edition", "summary", "exit_code", "files"}
    assert data["summary"]["files"] == 2 and data["summary"]["rounds"] == 6
    for rep in data["files"]:
        assert isinstance(rep["file"], str) and rep["error"] is None
        assert [r["round"] for r in rep["rounds"]] == [2, 3, 4]
        for r in rep["rounds"]:
            assert isinstance(r["round"], int) and r["verdict"] in VERDICTS
            assert {"summary", "difference", "illegalities", "rules", "file", "boards"} <= set(r)
            assert all("colour_rule" in b for b in r["rules"]["boards"])


def test_jobs_and_progress(tmp_path: Path) -> None:
    path, _ = _mutated(tmp_path, "swap colours")
    result = runner.invoke(app, ["check", str(SMALL[0]), str(path), "--jobs", "2", "--rounds", "1-3"])
    assert result.exit_code == 10, result.output
    assert "summary" in result.stdout and "5/6 rounds match, 1 colours differ; 2 files" in result.stdout


def test_a_lone_file_has_its_rounds_checked_side_by_side(tmp_path: Path) -> None:
    """One file, two jobs: its rounds share the pool, and the report is the one-job
    report, round by round (verdicts, both pairings, the difference found)."""
    from cpsat_pairing.apps import check as check_app

    path, rnd = _mutated(tmp_path, "swap opponents")
    one = check_app.check_file(str(path), "dutch-2026", jobs=1)
    two = check_app.check_file(str(path), "dutch-2026", jobs=2)
    assert [r.round for r in two.rounds] == [r.round for r in one.rounds] and len(one.rounds) > 2
    for a, b in zip(one.rounds, two.rounds):
        assert (a.verdict, a.difference, a.file) == (b.verdict, b.difference, b.file), a.round
        assert a.rules is not None and b.rules is not None and a.rules.as_pairs() == b.rules.as_pairs()
    assert any(r.verdict.value != "match" for r in two.rounds if r.round == rnd)
    code, data = _check_json(str(path), "--jobs", "2")
    assert code == 10 and [r["round"] for r in data["files"][0]["rounds"]] == [r.round for r in one.rounds]


class StrictHTML(HTMLParser):
    """Well-formedness: every non-void element closed in order; collects sections and URLs."""

    VOID = {"meta", "br", "hr", "img", "link", "input", "col", "wbr", "area", "base", "source"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.sections: list[dict[str, str | None]] = []
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        self.urls += [v for k, v in attrs if k in ("href", "src") and v]
        if tag == "section":
            self.sections.append(a)
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"unexpected </{tag}> (open: {self.stack[-3:]})")
        else:
            self.stack.pop()


def test_html_report(tmp_path: Path) -> None:
    path, rnd = _mutated(tmp_path, "swap opponents")
    report = tmp_path / "report.html"
    result = runner.invoke(app, ["check", str(path), str(SMALL[0]), "--html", str(report)])
    assert result.exit_code == 10
    text = report.read_text(encoding="utf-8")
    parser = StrictHTML()
    parser.feed(text)
    parser.close()
    assert text.startswith("<!DOCTYPE html>")
    assert parser.errors == [] and parser.stack == []
    assert not re.search(r"https?://", text) and all(u.startswith("#") for u in parser.urls)
    rounds = [s for s in parser.sections if re.fullmatch(r"f\d+-r\d+", s.get("id") or "")]
    assert len(rounds) == 5 + 7 and len({s["id"] for s in rounds}) == len(rounds)
    assert 'class="pairdiff"' in text or 'class="coldiff"' in text
    # the strip of rounds links to every round, the deciding criterion is marked, players are named
    strip = [u for u in parser.urls if re.fullmatch(r"#f0-r\d+", u)]
    assert len(strip) == 5
    assert 'class="decides"' in text
    t = read_trf(path)
    assert all(p.name in text for p in t.players if p.name)


def test_errors_keep_their_exit_codes(tmp_path: Path) -> None:
    assert runner.invoke(app, ["check", str(tmp_path / "missing.trf")]).exit_code == 5
    bad = tmp_path / "bad.trf"
    bad.write_text("012 Broken\n001    1      A" + " " * 66 + "1.0" + " " * 10 + "9 w 1\n")
    result = runner.invoke(app, ["check", str(bad)])
    assert result.exit_code == 3 and "opponent 9" in result.stderr
    assert runner.invoke(app, ["check", str(SMALL[0]), "--edition", "dutch-1900"]).exit_code == 3
    assert runner.invoke(app, ["check", str(SMALL[0]), "--rounds", "5-2"]).exit_code == 3


def test_parse_rounds() -> None:
    keep = parse_rounds("2,4-5,9-")
    assert [r for r in range(1, 12) if keep(r)] == [2, 4, 5, 9, 10, 11]
    assert parse_rounds(None)(7)
    with pytest.raises(ValueError):
        parse_rounds("x")


def test_describe_says_which_side_is_better() -> None:
    ed = load_edition("dutch-2026")
    colours = Tier("C12", "unmet colour preferences", 2)
    worse = Difference(DifferenceKind.QUALITY, Fraction(3), colours, 2, 3, False)
    assert describe(worse, ed) == "bracket 3.0: [C12] unmet colour preferences — file 3, rules 2"
    better = Difference(DifferenceKind.QUALITY, Fraction(3), colours, 2, 1, True)
    assert "file's pairing is better" in describe(better, ed)
    partner = Tier("transposition", "partner of BSN 1", 5, TierKind.ORDER, subject=1)
    order = Difference(DifferenceKind.GENERATION, Fraction(3), partner, 5, 7, False)
    assert describe(order, ed) == ("bracket 3.0: same quality on every criterion; the rules' generation order picks "
                                   "ours first (Art. 4.2 transposition: partner of BSN 1 — file 7, rules 5)")
    assert describe(order, load_edition("dutch-2017")).endswith("(D.1 transposition: partner of BSN 1 — file 7, rules 5)")
    pairs = Difference(DifferenceKind.QUALITY, Fraction(3), Tier("C8", "next-bracket pairs", -3, maximised=True), -3, -2)
    assert describe(pairs, ed) == "bracket 3.0: [C8] next-bracket pairs — file 2, rules 3 (more is better)"


# --- files whose records contradict each other ------------------------------------------


def test_bye_record_against_a_game_is_its_own_verdict(tmp_path: Path) -> None:
    """A `240` bye for a round the player's line shows him playing: that round is
    "inconsistent file" with both records located; the other rounds are judged."""
    path = BUGS / "conflict-240-r1.trf"
    page = tmp_path / "r.html"
    assert runner.invoke(app, ["check", str(path), "--rounds", "1", "--html", str(page)]).exit_code == 3
    html = page.read_text()
    assert 'class="verdict v-inconsistent-file">inconsistent file' in html and "240 gives player 1 a bye" in html
    code, data = _check_json(str(path), "--rounds", "1-2")
    rounds = data["files"][0]["rounds"]
    assert code == 3 and [r["verdict"] for r in rounds] == ["inconsistent file", "match"]
    assert f"{path}:111:11: round 1: 240 gives player 1 a bye (H)" in rounds[0]["contradictions"]
    assert "line 2, column 92" in rounds[0]["summary"]
    result = runner.invoke(app, ["pair", str(path), "--round", "1"])
    assert result.exit_code == 3 and "Traceback" not in result.output
    assert "240 gives player 1 a bye (H)" in result.output
    info = runner.invoke(app, ["info", str(path)])
    assert f"{path}:111:11" in info.output.replace("\n", "")


def test_two_pabs_in_a_round_are_illegal() -> None:
    code, data = _check_json(str(BUGS / "two-byes-r6.trf"), "--rounds", "6")
    (r,) = data["files"][0]["rounds"]
    assert code == 10 and r["verdict"] == "illegal"
    assert "2 pairing-allocated byes in one round: players 6, 88" in r["illegalities"]


def test_one_sided_game_refuses_its_round_only(tmp_path: Path) -> None:
    """A game one side records and the other does not: that round inconsistent, the
    next one re-paired from the game the file agrees on."""
    t = read_trf(WITH_BYES)
    text = write_trf(t, "trf16").splitlines()
    i = next(i for i, line in enumerate(text) if line.startswith("001") and line[91:95].strip().isdigit())
    opponent = int(text[i][91:95])
    j = next(j for j, line in enumerate(text) if line.startswith("001") and int(line[4:8]) == opponent)
    text[j] = text[j][:91] + "0000 - Z" + text[j][99:]
    path = tmp_path / "one-sided.trf"
    path.write_text("\n".join(text) + "\n")
    code, data = _check_json(str(path), "--rounds", "1-2")
    verdicts = [r["verdict"] for r in data["files"][0]["rounds"]]
    assert code == 3 and verdicts[0] == "inconsistent file" and verdicts[1] != "error"
    assert "records no game ('0000 - Z')" in data["files"][0]["rounds"][0]["summary"]


@pytest.mark.parametrize("spec", ["99", "12-", "9,40"])
def test_rounds_the_file_does_not_hold_are_an_input_error_naming_those_it_does(spec: str) -> None:
    """Judging no round is not "0/0 rounds match": exit 3, and the rounds that can be checked."""
    held = max(len(p.rounds) for p in read_trf(SMALL[0]).players)
    assert held < 9
    result = runner.invoke(app, ["check", str(SMALL[0]), "--rounds", spec])
    assert result.exit_code == 3 and "Traceback" not in result.output
    assert f"holds no round {spec}: rounds 1-{held} can be checked" in result.output
    code, _ = _check_json(str(SMALL[0]), "--rounds", f"{held}-99")  # a range reaching past the file is fine
    assert code == 0
