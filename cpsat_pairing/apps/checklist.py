"""A round's checklist (the reference engines' `-l`): every player to pair, with what the
rules know of him and whom he meets."""

from __future__ import annotations

from collections.abc import Sequence

from cpsat_pairing.domain.state import Float, PrefKind, RoundState, build_state
from cpsat_pairing.domain.tournament import Colour, Tournament
from cpsat_pairing.dutch.edition import Edition, as_edition
from cpsat_pairing.dutch.result import Pair
from cpsat_pairing.formats.checklist import (
    ChecklistRow,
    bbp_checklist,
    javafo_checklist,
)
from cpsat_pairing.version import __version__

BANNER = f"cpsat-pairing {__version__} (FIDE Dutch system on OR-Tools CP-SAT)"
_FLOAT = {Float.UP: "U", Float.DOWN: "D", Float.NONE: ""}
_STRENGTH = {PrefKind.ABSOLUTE: "absolute", PrefKind.STRONG: "strong", PrefKind.MILD: "mild", PrefKind.NONE: "none"}


def checklist_rows(t: Tournament, rnd: int, pairs: Sequence[Pair] | None, ed: Edition) -> list[ChecklistRow]:
    """The players to pair in round `rnd`, in pairing order (Art. 1.2), with their
    opponents in `pairs` (white, black); None: no valid pairing (no opponents shown)."""
    st: RoundState = build_state(t, rnd, ed.state_rules)
    played = rnd - 1
    current: dict[int, tuple[int, str]] = {}
    for white, black in pairs or ():
        current[white], current[black] = (black, "W"), (white, "B")
    rows = []
    for pid in sorted(st.present, key=st.rank_key):
        ps = st.players[pid]
        player = t.player(pid)
        opponents = []
        for r in range(1, played + 1):
            e = player.entry(r)
            opponents.append(e.opponent if e is not None and e.played else None)
        cs = ps.colours
        rows.append(ChecklistRow(
            id=pid, score=ps.pairing_score, colours="".join("W" if c is Colour.WHITE else "B" for c in cs),
            preference="" if ps.pref_colour is None else ("W" if ps.pref_colour is Colour.WHITE else "B"),
            strength=_STRENGTH[ps.pref_kind], colour_difference=ps.cd, repeated=len(cs) >= 2 and cs[-1] == cs[-2],
            pab_allowed=ps.pab_eligible,
            floats=(_FLOAT[ps.float_in(1)] if played else "", _FLOAT[ps.float_in(2)] if played > 1 else ""),
            current=current.get(pid) if pairs is not None else ("", ""), opponents=tuple(opponents),
        ))
    return rows


def checklist(
    t: Tournament, rnd: int, pairs: Sequence[Pair] | None, edition: str | Edition, style: str = "bbp"
) -> str:
    """Round `rnd`'s checklist text, its pairing `pairs` (None: no valid pairing):
    "bbp" (bbpPairings' layout; its float columns named as the edition's criteria:
    C14/C16 in 2026, C12/C14 before) or "javafo"."""
    ed = as_edition(edition)
    rows = checklist_rows(t, rnd, pairs, ed)
    if style == "javafo":
        return javafo_checklist(rows, max((len(r.opponents) - r.opponents.count(None) for r in rows), default=0))
    names = ("C14", "C16") if ed.procedure == "e2026" else ("C12", "C14")
    # bbpPairings signs a checklist with its banner only when the round was paired
    return bbp_checklist(rows, rnd - 1, BANNER if pairs is not None else "", names)
