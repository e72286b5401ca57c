"""`explain` and `pair --explain`: brackets in the rules' terms from the solver's trace,
each board's Art. 5.2 rule, and --why-not A B."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from cpsat_pairing import WhyNot, explain, pair, read_trf, why_not
from cpsat_pairing.apps.explain import WhyNotStatus
from cpsat_pairing.interface.cli import app
from cpsat_pairing.interface.views.explain import why_not_reason

from helpers import CORPUS

FILE = CORPUS / "dutch-2026" / "dev" / "t000084.trf"  # 11 players, PAB every round
runner = CliRunner()


def _json(*args: str) -> dict:
    result = runner.invoke(app, [*args, "--format", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_explain_json_has_brackets_and_colour_rules() -> None:
    data = _json("explain", str(FILE), "--round", "4")
    assert data["round"] == 4 and data["bye"] == 10 and data["pab_score"] == "0.5"
    assert data["brackets"] and all(b["colour_rule"].startswith("5.2.") for b in data["boards"])
    paired = sum(br["MaxPairs"] for br in data["brackets"])
    assert paired == len(data["boards"]) == 5
    for br in data["brackets"]:
        assert br["M0"] == len(br["mdps"]) and br["M1"] + len(br["limbo"]) == br["M0"]
        assert not set(br["S1"]) & set(br["S2"])
        assert all(t["value"] != 0 for t in br["tiers"])
        if not br["homogeneous"]:  # S1 = the paired MDPs
            assert set(br["S1"]) <= set(br["mdps"]) and len(br["S1"]) == br["M1"]
        else:
            assert len(br["S1"]) == len(br["pairs"])


def test_explanation_comes_from_the_trace() -> None:
    t = read_trf(FILE)
    p = pair(t, 4)
    x = explain(t, p)
    for br, trace in zip(x.brackets, p.brackets):
        assert br.tiers == [tier for tier in trace.tiers if tier.value]
        assert br.downfloaters == trace.downfloaters


def test_explain_table() -> None:
    result = runner.invoke(app, ["explain", str(FILE), "-r", "4"])
    assert result.exit_code == 0
    for text in ("bracket 2.5", "M0 / MaxPairs / M1", "Limbo", "[C6] downfloaters", "5.2.1"):
        assert text in result.stdout


def test_pair_explain_json() -> None:
    """The explanation is of the round paired: its boards are the pairing's, board by
    board, and each bracket's pairs and solved tiers are those of the pairing's trace."""
    data = _json("pair", str(FILE), "--round", "4", "--explain")
    p = pair(read_trf(FILE), 4)
    x = data["explanation"]
    boards = [(b["white"], b["black"]) for b in x["boards"]]
    assert boards == [(b["white"]["id"], b["black"]["id"]) for b in data["boards"]] == p.as_pairs()
    assert x["bye"] == data["bye"]["id"] == p.bye == 10
    assert len(x["brackets"]) == len(p.brackets) > 1
    for br, trace in zip(x["brackets"], p.brackets, strict=True):
        assert sorted(map(sorted, br["pairs"])) == sorted(map(sorted, trace.pairs))
        assert [(tier["tier"], tier["value"]) for tier in br["tiers"]] == [
            (tier.name, tier.value) for tier in trace.tiers if tier.value]
    paired = sorted(sorted(pq) for br in x["brackets"] for pq in br["pairs"])
    assert paired == sorted(sorted(pq) for pq in p.as_pairs())


def test_why_not_names_the_first_worse_criterion() -> None:
    data = _json("explain", str(FILE), "--round", "4", "--why-not", "5", "9")
    assert data["status"] == "worse"
    assert data["difference"]["tier"].startswith("C") and data["difference"]["other"] > data["difference"]["rules"]
    assert [5, 9] in data["forced_pairs"] or [9, 5] in data["forced_pairs"]
    assert data["side_by_side"][0]["tier"].startswith("[C15]")


def test_why_not_absolute_criterion_and_already_paired() -> None:
    t = read_trf(FILE)
    forbidden: WhyNot = why_not(t, 4, 1, 11)
    assert forbidden.status is WhyNotStatus.FORBIDDEN and why_not_reason(forbidden).startswith("[C1] 1 and 11")
    assert why_not(t, 4, 1, 2).status is WhyNotStatus.PAIRED


def test_why_not_bad_player_is_invalid_input() -> None:
    result = runner.invoke(app, ["explain", str(FILE), "-r", "4", "--why-not", "5", "99"])
    assert result.exit_code == 3 and "no player 99" in result.stderr


def test_explain_2013_names_p0_x1_z1() -> None:
    """2013: each bracket's P0 (A.6.b) and X1/Z1 (A.8); X1 and Z1 are lower bounds of the
    X and Z tiers in a bracket that makes its P0 pairs; the later editions have none."""
    path = CORPUS / "dutch-2013" / "generated" / "j100009.trf"
    for rnd in (5, 6):
        data = _json("explain", str(path), "--round", str(rnd), "--edition", "dutch-2013")
        for br in data["brackets"]:
            assert br["P0"] == (len(br["residents"]) + len(br["mdps"])) // 2
            assert (br["Z1"] is None) == (rnd % 2 == 1)
            if br["MaxPairs"] == br["P0"]:
                tiers = {t["tier"].split()[0]: t["value"] for t in br["tiers"]}
                assert br["X1"] <= tiers.get("X", 0)
                assert br["Z1"] is None or br["Z1"] <= tiers.get("Z", 0)
        assert any(br["X1"] for br in data["brackets"])
    assert "P0" not in _json("explain", str(FILE), "--round", "4")["brackets"][0]
    table = runner.invoke(app, ["explain", str(path), "-r", "6", "-e", "dutch-2013"]).stdout
    assert "P0 / X1 / Z1 (A.6, A.8)" in table
