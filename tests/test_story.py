"""A player's pairing told in sentences: every kind of sentence on a case checked by
hand against the file, and every sentence consistent with the pairing it tells."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cpsat_pairing.apps.story import Role, Ruled, story
from cpsat_pairing.domain.state import build_state
from cpsat_pairing.domain.tournament import Colour, Tournament
from cpsat_pairing.dutch.rounds import pair
from cpsat_pairing.formats import read_trf
from cpsat_pairing.interface.cli import app
from cpsat_pairing.interface.views.story import Names, sentences, story_json
from cpsat_pairing.testing.corpus import as_replayed

FIXTURES = Path(__file__).parent / "fixtures"
DEV = FIXTURES / "corpus" / "dutch-2026" / "dev"
R7 = FIXTURES / "doors" / "t000002_r1-6.trf"  # round 7 to pair
ABSENT = FIXTURES / "doors" / "abs_Z.trf"  # the same, player 5 absent (0000 - Z)
runner = CliRunner()


def told(t: Tournament, rnd: int, pid: int, edition: str = "dutch-2026") -> list[str]:
    return sentences(story(t, rnd, pid, edition), Names(t))


def opponents(t: Tournament, pid: int, before: int) -> set[int]:
    return {e.opponent for e in t.player(pid).rounds[: before - 1] if e is not None and e.played and e.opponent}


def test_floats_down_through_limbo_and_an_opponent_already_met() -> None:
    """Round 7 of t000002: player 3 (6 points) is alone at the top, is not paired in the
    bracket of 4 either, and is paired as an MDP at 3.5; the first S2 player of that
    bracket, 5, he met in round 6 (the file says so)."""
    t = read_trf(R7)
    s = story(t, 7, 3, "dutch-2026")
    assert [(float(p.score), p.as_mdp, p.paired) for p in s.passages] == [(6, False, False), (4, True, False),
                                                                           (3.5, True, True)]
    assert s.role is Role.MDP and s.float == "down" and s.opponent == 9 and s.half == "S1"
    assert 5 in opponents(t, 3, 7)
    assert s.candidates[0].player == 5 and s.candidates[0].ruled is Ruled.ABSOLUTE
    text = told(t, 7, 3)
    assert text[0] == "Test0003 Player0003 (3, rating 2502) starts round 7 with 6 points; that is his score group."
    assert text[1] == "His own bracket, 6 (he is alone in it), does not pair him: he floats down."
    assert text[2] == ("In the bracket of 4 (3 players, 1 pair: 1 left over) he is an MDP that is not paired "
                       "(Limbo): he moves down again.")
    assert text[3] == "He is paired in the bracket of 3.5 as an MDP (moved down from 6), in S1."
    assert text[4].startswith("He plays Test0009 Player0009 (9, rating 2145, 3.5 points). That is a downfloat")
    assert "  Not Test0005 Player0005 (5): [C1] 3 and 5 have already played each other." in text
    assert text[-1].startswith("He has White (he prefers White mildly")


def test_upfloat_and_the_colour_rule() -> None:
    """Player 1 (3 points) meets the MDP 7 (3.5): an upfloat; 7's absolute preference
    for Black decides (Art. 5.2.2), though 1 prefers Black mildly."""
    t = read_trf(R7)
    st = build_state(t, 7)
    assert st.players[7].pref_colour is Colour.BLACK and st.players[1].pref_colour is Colour.BLACK
    text = told(t, 7, 1)
    assert "That is an upfloat for him: his opponent has more points." in text[2]
    assert text[-1] == ("He has White (he prefers Black mildly, Test0007 Player0007 (7) prefers Black absolutely): "
                        "Art. 5.2.2, stronger preference granted.")


def test_absent_and_the_pab() -> None:
    """With player 5 absent (0000 - Z), player 13, the lowest-ranked of the lowest score
    group, who never had a PAB or an unplayed win, gets the PAB."""
    t = read_trf(ABSENT)
    assert told(t, 7, 5) == ["Test0005 Player0005 (5, rating 2462) is not paired in round 7: absent (zero points), "
                             "as the file enters it."]
    assert all(e is None or e.result not in "UF+" for e in t.player(13).rounds[:6])
    s = story(t, 7, 13, "dutch-2026")
    assert s.bye and s.float == "down" and s.opponent is None
    text = told(t, 7, 13)
    assert "The bracket of 1.5 leaves him unpaired: he is the player left over for the PAB." in text
    assert text[-1].startswith("He receives the pairing-allocated bye: he may ([C2]")
    assert "1.5 ([C5])" in text[-1]


def test_colour_clash_and_the_pab_score_rule_candidates_out() -> None:
    """t000051 round 6: 5 and 7 must both have Black (two Whites more than Blacks, or
    White in the last two games: [C3] forbids them); for 11, pairing 10 would push the
    PAB onto a player with 2 points instead of 1.5 ([C5])."""
    t = as_replayed(read_trf(DEV / "t000051.trf"))
    for pid in (5, 7):
        cs = [e.colour for e in t.player(pid).rounds[:5] if e is not None and e.played]
        difference = cs.count(Colour.WHITE) - cs.count(Colour.BLACK)
        assert difference > 1 or cs[-2:] == [Colour.WHITE, Colour.WHITE]
    assert "  Not Test0007 Player0007 (7): [C3] 5 and 7 both have an absolute preference for black." in told(t, 6, 5)
    text = told(t, 6, 11)
    assert ("  Not Test0010 Player0010 (10): the PAB would then go to a player with more points ([C5]: 2 instead "
            "of 1.5).") in text


def test_worse_on_a_criterion_and_later_in_the_order() -> None:
    """t000002 round 2, player 2 (1 point): 5 is as good, but comes later in the
    transposition order; 6 costs two more unmet colour preferences ([C12])."""
    t = as_replayed(read_trf(DEV / "t000002.trf"))
    text = told(t, 2, 2)
    assert any(line.startswith("  Not Test0005 Player0005 (5): as good on every criterion, but the rules' order "
                               "reaches the pairing with Test0007 Player0007 (7) first") for line in text)
    assert ("  Not Test0006 Player0006 (6): the round would be worse in the bracket of 1 on [C12] unmet colour "
            "preferences: 3 instead of 1.") in text


def test_first_opponent_tried() -> None:
    """The bracket of 4 in round 7 holds the MDP 3 and the residents 2 and 4; 3 is not
    paired there, and 2 (S1) meets 4, the only S2 player, whom he has not met."""
    t = read_trf(R7)
    assert 4 not in opponents(t, 2, 7)
    s = story(t, 7, 2, "dutch-2026")
    assert s.half == "S1" and s.opponent == 4 and s.candidates == [] and s.candidates_checked
    text = sentences(s, Names(t))
    assert "He is paired in the bracket of 4 as a resident, in S1." in text
    assert "Test0004 Player0004 (4) is the first opponent the rules' order tries for him." in text


@pytest.mark.parametrize(("path", "rnd", "edition"), [
    (R7, 7, "dutch-2026"), (DEV / "t000051.trf", 6, "dutch-2026"),
    (FIXTURES / "corpus" / "dutch-2017" / "dev-javafo" / "j000094.trf", 5, "dutch-2017"),
    (FIXTURES / "corpus" / "dutch-2013" / "dev" / "j000047.trf", 4, "dutch-2013"),
])
def test_every_sentence_agrees_with_the_pairing(path: Path, rnd: int, edition: str) -> None:
    """For every player: the opponent and the colour the sentences name are the pairing's."""
    t = as_replayed(read_trf(path))
    p = pair(t, rnd, edition)
    names = Names(t)
    colour = {b.white: "White" for b in p.boards} | {b.black: "Black" for b in p.boards}
    partner = {b.white: b.black for b in p.boards} | {b.black: b.white for b in p.boards}
    for pl in t.players:
        s = story(t, rnd, pl.id, edition, p, candidates=False)
        text = "\n".join(sentences(s, names))
        if pl.id in partner:
            (plays,) = re.findall(r"He plays .*? \((\d+)[,)]", text)
            assert int(plays) == partner[pl.id]
            assert re.search(rf"He has {colour[pl.id]} \(", text)
            if edition != "dutch-2026":
                assert "E." in text.split("He has")[1]  # the edition's own numbering
        elif p.bye == pl.id:
            assert "pairing-allocated bye" in text
        else:
            assert "is not paired in round" in text


def test_explain_player_command_by_number_and_name(tmp_path: Path) -> None:
    result = runner.invoke(app, ["explain", str(R7), "--player", "3", "--player", "test0013"])
    assert result.exit_code == 0, result.output
    assert "He plays Test0009 Player0009 (9" in result.stdout and "Test0013 Player0013 (13" in result.stdout
    data = json.loads(runner.invoke(app, ["explain", str(R7), "-p", "3", "--format", "json"]).stdout)
    (me,) = data["players"]
    assert me["player"]["id"] == 3 and me["opponent"]["id"] == 9 and me["colour"] == "white"
    assert me["float"] == "down" and me["role"] == "MDP"
    assert [b["score"] for b in me["brackets"]] == ["6", "4", "3.5"]
    assert me["candidates"][0] == {"player": 5, "name": "Test0005 Player0005", "ruled_out": "absolute",
                                   "sentence": "Not Test0005 Player0005 (5): [C1] 3 and 5 have already played "
                                               "each other.",
                                   "absolute": ["[C1] 3 and 5 have already played each other"]}
    assert me["sentences"] == told(read_trf(R7), 7, 3)
    bad = runner.invoke(app, ["explain", str(R7), "--player", "Test"])
    assert bad.exit_code == 3 and "names 14 players" in bad.stderr
    assert runner.invoke(app, ["explain", str(R7), "--player", "99"]).exit_code == 3


def test_explain_html_page(tmp_path: Path) -> None:
    """Self-contained, every player linked to his sentences, names escaped."""
    from html.parser import HTMLParser

    t = read_trf(R7)
    page = tmp_path / "r7.html"
    result = runner.invoke(app, ["explain", str(R7), "--html", str(page), "-p", "3"])
    assert result.exit_code == 0, result.output
    text = page.read_text()
    ids: set[str] = set()
    links: list[str] = []

    class Collect(HTMLParser):
        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            a = dict(attrs)
            if a.get("id"):
                ids.add(a["id"] or "")
            if tag == "a" and a.get("href"):
                links.append(a["href"] or "")

    Collect().feed(text)
    assert not re.search(r"https?://|<script|<link", text)
    assert all(link.startswith("#") and link[1:] in ids for link in links)
    assert {f"p{p.id}" for p in t.players} <= ids
    assert "Not Test0005 Player0005 (5): [C1] 3 and 5 have already played each other." in text
    assert "▼" in text and "S1" in text and "S2" in text
    evil = tmp_path / "evil.trf"
    evil.write_text(R7.read_text().replace("Test0003 Player0003", "<b>Evil</b> & Co".ljust(19)))
    assert runner.invoke(app, ["explain", str(evil), "--html", str(page)]).exit_code == 0
    assert "<b>Evil</b>" not in page.read_text() and "&lt;b&gt;Evil&lt;/b&gt; &amp; Co" in page.read_text()


def test_story_json_carries_the_facts() -> None:
    t = read_trf(ABSENT)
    data = story_json(story(t, 7, 13, "dutch-2026"), Names(t))
    assert data["bye"] is True and data["pab_score"] == "1.5" and data["opponent"] is None
    assert data["sentences"][-1].startswith("He receives the pairing-allocated bye")


def test_no_valid_pairing_told_for_the_arbiter() -> None:
    result = runner.invoke(app, ["pair", str(FIXTURES / "doors" / "nopairing.trf")])
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert lines[0] == "No valid pairing of round 2 exists (the arbiter decides, Art. 1.9.3)."
    assert "  - Test0001 Player0001 (1) has no possible opponent (already played Test0002 Player0002 (2)) and " \
           "may not receive the PAB (the number of players is even)." in lines
    assert "The arbiter could, for example:" in lines
    assert "  - allow Test0001 Player0001 (1) a rematch with Test0002 Player0002 (2) (lifting [C1] for one pair)." \
        in lines


def test_a_pair_that_leaves_the_round_unpairable() -> None:
    """A stress tournament (generate --profile stress --seed 25), round 4: with 7-2, the
    rest is 3, 4, 5, 6, and 4 has met 3 (round 3) and 6 (round 2) and may not meet 5
    (XXP 4 5): no complete pairing contains 7-2."""
    t = as_replayed(read_trf(FIXTURES / "story" / "impossible.trf"))
    assert {3, 6} <= opponents(t, 4, 4) and any(set(f.ids) == {4, 5} for f in t.forbidden)
    s = story(t, 4, 7, "dutch-2026")
    assert [(c.player, c.ruled) for c in s.candidates] == [(2, Ruled.IMPOSSIBLE)]
    assert ("  Not Player 0002 (2): no complete pairing of the round pairs them together; the rest of the round "
            "could not then be paired ([C4]).") in sentences(s, Names(t))


def test_the_2013_text_in_its_own_terms() -> None:
    """2013 (j000047 round 4): the bracket's counters of C.2 (P0, M0, X1; Z1 in an even
    round) and the colour rule as E.x."""
    t = as_replayed(read_trf(FIXTURES / "corpus" / "dutch-2013" / "dev" / "j000047.trf"))
    text = told(t, 4, 3, "dutch-2013")
    assert "He is paired in the bracket of 2 as a resident, in S2 (P0 = 2, M0 = 1, X1 = 1, Z1 = 0)." in text
    assert text[-1].endswith("E.2, stronger preference granted.")


def test_the_2013_counters_are_the_text_s_not_the_pairing_s() -> None:
    """2013 (j000034 round 7): the bracket of 2.5 holds six residents and two MDPs, so
    C.2 sets P0 = 8 // 2 = 4 (A.6.b); the pairing makes three pairs, and the sentence
    says so apart from P0 (C.10 relaxed P by one), not P0 = 3."""
    t = as_replayed(read_trf(FIXTURES / "corpus" / "dutch-2013" / "dev" / "j000034.trf"))
    p = pair(t, 7, "dutch-2013")
    bracket = next(b for b in p.brackets if any(15 in pq for pq in b.pairs))
    assert (len(bracket.residents), len(bracket.mdps), len(bracket.pairs)) == (6, 2, 3)
    text = sentences(story(t, 7, 15, "dutch-2013", pairing=p, candidates=False), Names(t))
    assert any("(P0 = 4, M0 = 2, X1 = 0; paired with P = 3)." in line for line in text)


def test_acceleration_is_told() -> None:
    from cpsat_pairing.apps.generate import GenConfig, generate

    t = generate(3, GenConfig(players=(16, 16), rounds=(5, 5), acceleration="baku"))
    top = next(a for a in t.acceleration if a.points(2))
    line = told(as_replayed(t), 2, top.player_id)[0]
    assert f"with {top.points(2).numerator if top.points(2).denominator == 1 else float(top.points(2))} " \
           "acceleration point" in line


def test_candidate_sentence_when_the_brackets_above_would_change() -> None:
    """No corpus round shows it (none in dutch-2026/dev's small files, none in 400 stress
    tournaments): forcing the pair changes who forms the brackets above."""
    from fractions import Fraction

    from cpsat_pairing.apps.compare import Composition, Difference, DifferenceKind
    from cpsat_pairing.apps.story import Candidate
    from cpsat_pairing.interface.views.story import candidate_sentence

    t = read_trf(R7)
    s = story(t, 7, 3, "dutch-2026", candidates=False)
    d = Difference(DifferenceKind.COMPOSITION, Fraction(4), None, Composition(Fraction(4), (2, 4), (3,)),
                   Composition(Fraction(4), (2, 4), ()))
    assert candidate_sentence(s, Candidate(7, Ruled.WORSE, difference=d), Names(t)) == (
        "Not Test0007 Player0007 (7): the brackets above would have to change (other players moving down).")
