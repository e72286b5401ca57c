"""`explain --html`: a round as one self-contained page (inline CSS, no scripts, nothing
fetched): the brackets as bands with their S1 and S2, pairs, floaters, colours and
the bye, and every player's sentences a click away (anchors).

The page is a template (templates/explain.html.j2) filled with plain data; jinja2
escapes every value, names included."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from importlib import resources
from typing import Any

import jinja2

from cpsat_pairing.apps.explain import BracketExplanation, explain
from cpsat_pairing.apps.story import PlayerStory, stories
from cpsat_pairing.domain.state import RoundState, build_state
from cpsat_pairing.domain.tournament import Tournament
from cpsat_pairing.dutch.edition import as_edition
from cpsat_pairing.dutch.result import Pairing
from cpsat_pairing.formats import points_text
from cpsat_pairing.interface.views.check import rule_text, shown
from cpsat_pairing.interface.views.explain import compact_tiers
from cpsat_pairing.interface.views.story import Names, sentences
from cpsat_pairing.version import __version__

ABSENCE = {"H": "half-point bye", "=": "half-point bye", "F": "full-point bye", "+": "full-point bye",
           "U": "not paired", "Z": "absent", "-": "absent"}
"""Why a player is left out of a round, by the code his block holds for it."""


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    """The templates, autoescaped (every value is text, never markup)."""
    return jinja2.Environment(
        loader=jinja2.PackageLoader("cpsat_pairing.interface.views", "templates"),
        autoescape=jinja2.select_autoescape(default=True, default_for_string=True),
        trim_blocks=True, lstrip_blocks=True, undefined=jinja2.StrictUndefined,
    )


def css() -> str:
    return resources.files("cpsat_pairing.interface.views").joinpath("templates/page.css").read_text(encoding="utf-8")


def person(t: Tournament, st: RoundState | None, pid: int, mark: str = "", mdp: bool = False) -> dict[str, Any]:
    p = t.player(pid)
    score = points_text(st.players[pid].pairing_score) if st is not None and pid in st.players else ""
    return {"id": pid, "name": p.name, "rating": p.rating, "score": score, "mark": mark, "mdp": mdp}


def _bracket(t: Tournament, st: RoundState, br: BracketExplanation, p: Pairing, board_of: dict[frozenset[int], int],
             ed: Any) -> dict[str, Any]:
    mdps = set(br.mdps)
    down = set(br.downfloaters)
    up = {q for pq in br.pairs if set(pq) & mdps for q in pq if q not in mdps}

    def chip(pid: int) -> dict[str, Any]:
        return person(t, st, pid, "down" if pid in down else "up" if pid in up else "", pid in mdps)

    rule = {frozenset((b.white, b.black)): rule_text(b.colour_rule, ed) for b in p.boards}
    white = {frozenset((b.white, b.black)): b.white for b in p.boards}
    pairs = []
    for pq in br.pairs:
        key = frozenset(pq)
        w = white.get(key, pq[0])
        b = pq[1] if w == pq[0] else pq[0]
        pairs.append({"board": board_of.get(key, ""), "white": chip(w), "black": chip(b), "rule": rule.get(key, "")})
    pairs.sort(key=lambda x: x["board"] if isinstance(x["board"], int) else 10**6)
    kind = br.kind or ("homogeneous" if br.homogeneous else "heterogeneous")
    return {
        "score": points_text(br.score), "kind": kind, "residents": len(br.residents), "mdps": len(br.mdps),
        "s1": [chip(x) for x in br.s1], "s2": [chip(x) for x in br.s2],
        "remainder": None if br.remainder is None else ([chip(x) for x in br.remainder[0]],
                                                        [chip(x) for x in br.remainder[1]]),
        "pairs": pairs, "downfloaters": [chip(x) for x in br.downfloaters], "limbo": [chip(x) for x in br.limbo],
        "tiers": compact_tiers(br.tiers, ed),
    }


def absent_people(t: Tournament, st: RoundState | None, ids: Iterable[int], rnd: int) -> list[dict[str, Any]]:
    """The players left out of round `rnd`, each with why (his block's code)."""
    rows = []
    for pid in sorted(set(ids) & {pl.id for pl in t.players}):
        e = t.player(pid).entry(rnd)
        code = e.result if e is not None and e.result else "Z"
        rows.append({**person(t, st, pid), "why": ABSENCE.get(code, "absent")})
    return rows


def round_page(t: Tournament, p: Pairing, edition: str, chosen: frozenset[int] = frozenset()) -> str:
    """The page for round `p.round`; the players in `chosen` get the why-not analysis of
    the opponents tried before theirs (a solve per candidate), everyone else the rest."""
    ed = as_edition(edition)
    st = build_state(t, p.round, ed.state_rules)
    x = explain(t, p, ed)
    board_of = {frozenset((b.white, b.black)): i for i, b in enumerate(p.boards, start=1)}
    names = Names(t)
    told: list[PlayerStory] = stories(t, p.round, ed, p, candidates_for=chosen)
    in_round = [s for s in told if s.role.value != "absent"]
    ordered = sorted(in_round, key=lambda s: st.rank_key(s.player)) + [s for s in told if s.role.value == "absent"]
    absent = absent_people(t, None, st.absent, p.round)
    return environment().get_template("explain.html.j2").render(
        css=css(), round=p.round, name=t.name, edition_title=ed.title or ed.name, version=__version__,
        brackets=[_bracket(t, st, br, p, board_of, ed) for br in x.brackets],
        boards=p.boards, bye=None if p.bye is None else person(t, st, p.bye, "down"), absent=absent,
        stories=[{"id": s.player, "name": t.player(s.player).name, "sentences": sentences(s, names),
                  "checked": s.candidates_checked or s.opponent is None} for s in ordered],
    )


__all__ = ["css", "environment", "person", "round_page", "shown"]
