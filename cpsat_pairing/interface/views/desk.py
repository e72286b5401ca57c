"""The arbiter's desk page as plain data: the tournament's summary, the round as a
pairing sheet (board, White, Black with ratings and scores; the bye; the absent), every
player's sentences, a why-not answer.  templates/desk.html.j2 renders it, escaping
every value; interface/desk/ serves it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cpsat_pairing.apps.standings import Standings
from cpsat_pairing.apps.story import stories
from cpsat_pairing.domain.state import build_state
from cpsat_pairing.domain.tournament import Tournament
from cpsat_pairing.dutch.edition import as_edition
from cpsat_pairing.dutch.result import Pairing
from cpsat_pairing.interface.views.check import rule_text
from cpsat_pairing.interface.views.round_page import absent_people, css, environment, person
from cpsat_pairing.interface.views.story import Names, sentences
from cpsat_pairing.version import __version__

EDITIONS = ("dutch-2026", "dutch-2017", "dutch-2013")


@dataclass
class Desk:
    """What the page shows; empty fields are sections not shown."""

    source: str = ""
    trf: str = ""  # the file's text, carried by the page's forms (the server keeps nothing)
    edition: str = ""  # the edition asked for ("" = the file's own)
    error: str = ""
    error_title: str = "This file cannot be read"
    info: dict[str, Any] | None = None
    round: int | None = None
    rounds: list[int] = field(default_factory=list)  # the rounds that can be (re-)paired
    notice: str = ""
    sheet: dict[str, Any] | None = None
    why_not: dict[str, Any] | None = None
    player: int | None = None  # the player told in full (the opponents tried first)
    standings: dict[str, Any] | None = None


def sheet(t: Tournament, p: Pairing, edition: str, told: frozenset[int] = frozenset()) -> dict[str, Any]:
    """The pairing sheet of `p` and every player's sentences (`told`: with the opponents
    the rules tried before his, a solve each)."""
    ed = as_edition(edition)
    st = build_state(t, p.round, ed.state_rules)
    boards = [{"board": i, "white": person(t, st, b.white), "black": person(t, st, b.black),
               "rule": rule_text(b.colour_rule, ed)} for i, b in enumerate(p.boards, start=1)]
    names = Names(t)
    ordered = sorted((s for s in stories(t, p.round, ed, p, candidates_for=told)),
                     key=lambda s: (s.role.value == "absent", st.rank_key(s.player) if s.player in st.players else ()))
    return {
        "round": p.round, "edition": ed.name, "edition_title": ed.title or ed.name, "boards": boards,
        "bye": None if p.bye is None else person(t, st, p.bye),
        "absent": absent_people(t, st, p.absent, p.round),
        "players": sorted(({"id": pl.id, "name": pl.name} for pl in t.players), key=lambda x: x["id"]),
        "stories": [{"id": s.player, "name": t.player(s.player).name,
                     "sentences": [(line, line.startswith("Not ")) for line in sentences(s, names)],  # "Not": a candidate
                     "full": s.player in told} for s in ordered],
    }


def standings_table(s: Standings) -> dict[str, Any]:
    """The standings after the last round with results: rank, number, name, points, tie-breaks."""
    from cpsat_pairing.interface.views.standings import source_text

    return {"round": s.round, "tiebreaks": list(s.tiebreaks), "source": source_text(s),
            "rules": f"C.07 text of {s.rules.value}: {s.rules_why}",
            "rows": [{"rank": r.rank, "id": r.id, "name": r.name, "points": r.points.text,
                      "tiebreaks": [r.tiebreaks[code].text for code in s.tiebreaks]} for r in s.rows]}


def render_desk(desk: Desk) -> str:
    """The desk page: the form alone, or with the tournament and its round."""
    return environment().get_template("desk.html.j2").render(d=desk, editions=EDITIONS, version=__version__)


def render_running(token: str, label: str, status: str, seconds: float) -> str:
    """The page shown while a long round is solved: it reloads itself, and has a cancel button."""
    return environment().get_template("desk_running.html.j2").render(
        token=token, label=label, status=status, seconds=f"{seconds:.0f}", version=__version__)


def desk_css() -> str:
    """The pages' style, then the desk's own (its forms, the sheet, print)."""
    from importlib import resources

    own = resources.files("cpsat_pairing.interface.views").joinpath("templates/desk.css").read_text(encoding="utf-8")
    return css() + "\n" + own
