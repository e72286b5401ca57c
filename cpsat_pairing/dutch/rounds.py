"""Pairing a round, scoring a given one, and what a given one breaks.

`pair` makes the rules' pairing of a round; `evaluate` scores a given complete
round-pairing (another program's, or one forced for "why not") on the very same
brackets and tiers, so that the two can be compared tier by tier.  Both go through the
one round loop (loop.py) with the edition's hooks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from cpsat_pairing.domain.compat import absolute_colour_clash
from cpsat_pairing.domain.state import build_state
from cpsat_pairing.domain.tournament import Tournament, by_position
from cpsat_pairing.dutch.edition import DEFAULT_EDITION, Edition, as_edition
from cpsat_pairing.dutch.loop import pair_round
from cpsat_pairing.dutch.result import Pair, Pairing
from cpsat_pairing.errors import InconsistentData, NotAPairing, RoundNotPairable
from cpsat_pairing.solver.settings import DEFAULT_SETTINGS, SolverSettings


def pair(
    t: Tournament,
    rnd: int | None = None,
    edition: str | Edition = DEFAULT_EDITION,
    settings: SolverSettings = DEFAULT_SETTINGS,
    progress: Callable[[str], None] | None = None,
    hint: Sequence[Pair] | None = None,
) -> Pairing:
    """Pair round `rnd` (default: the round after the last one played) by `edition`.

    `hint`: a pairing of that round believed to be good (another program's, to be
    checked).  Where it is complete and legal the solver starts from it: each tier is
    still proven, so the answer is the same with or without it, only sooner when the
    hint is right.  Ignored in rank mode.

    Raises:
        NoValidPairing: no complete round-pairing exists (the players and why).
        SolveLimitError: a solve was stopped before proving its answer.
        EditionError: no such edition.
        RoundNotPairable: `rnd` is below 1 or past the next round.
    """
    if rnd is None:
        rnd = t.rounds_played + 1
    elif not 1 <= rnd <= t.next_pairable_round:
        raise RoundNotPairable(rnd, t.next_pairable_round, t.source or "<string>")
    refuse_contradicted(t, rnd)
    if t.rank_mode:
        by_pos, ids = by_position(t)
        return pair_round(by_pos, rnd, as_edition(edition), settings, progress=progress).renumbered(ids)
    return pair_round(t, rnd, as_edition(edition), settings, progress=progress, hint=hint)


def evaluate(
    t: Tournament,
    rnd: int,
    pairs: Sequence[Pair],
    edition: str | Edition = DEFAULT_EDITION,
    settings: SolverSettings = DEFAULT_SETTINGS,
    against: Pairing | None = None,
) -> Pairing:
    """Score a given complete, legal round-pairing of round `rnd` on the edition's
    brackets and tiers (its trace is comparable tier by tier with `pair`'s).

    With `against`, the rules' pairing of the round (`pair`'s), only the brackets down
    to the first one where the two are not alike are scored: the first difference and
    its bracket are all a comparison reads, and the brackets below cost as much again.

    Raises:
        NotAPairing: `pairs` is not a complete, legal pairing of the round.
    """
    refuse_contradicted(t, rnd)
    refuse_not_a_pairing(t, rnd, pairs, as_edition(edition))
    if t.rank_mode:
        by_pos, ids = by_position(t)
        position = {pid: i for i, pid in ids.items()}
        forced = [(position[a], position[b]) for a, b in pairs]
        rules = None if against is None else against.renumbered(position)
        return pair_round(by_pos, rnd, as_edition(edition), settings, forced=forced, against=rules).renumbered(ids)
    return pair_round(t, rnd, as_edition(edition), settings, forced=list(pairs), against=against)


def refuse_contradicted(t: Tournament, rnd: int) -> None:
    """Refuse a round about which the file's records contradict each other (which of
    them is true is the arbiter's call, not the engine's).

    Raises:
        InconsistentData: the first contradiction, located; the others counted.
    """
    found = t.contradictions_in(rnd)
    if not found:
        return
    first = found[0]
    more = f" (and {len(found) - 1} more contradictions in round {rnd})" if len(found) > 1 else ""
    raise InconsistentData(first.message + more, file=t.source, line=first.line, column=first.column)


def refuse_not_a_pairing(t: Tournament, rnd: int, pairs: Sequence[Pair], ed: Edition) -> None:
    """Refuse to score what is not a complete, legal round-pairing: a bracket model
    fixed to it would ask for a pair it does not have (an incompatible pair, or two
    players it never pairs), or leave players nobody pairs.

    Raises:
        NotAPairing: the first thing wrong with it.
    """
    st = build_state(t, rnd, ed.state_rules)
    paired: set[int] = set()
    for pq in pairs:
        for p in pq:
            if p not in st.present:
                raise NotAPairing(f"round {rnd}: player {p} is not to be paired in this round")
            if p in paired:
                raise NotAPairing(f"round {rnd}: player {p} is paired twice")
            paired.add(p)
    left = sorted(p for p in st.present if p not in paired)
    if len(left) > 1:
        raise NotAPairing(f"round {rnd}: players {', '.join(map(str, left))} are left unpaired (one PAB at most)")
    bad = illegalities(t, rnd, pairs, left[0] if left else None, ed)
    if bad:
        raise NotAPairing(f"round {rnd}: " + "; ".join(bad))


def illegalities(
    t: Tournament, rnd: int, pairs: Sequence[Pair], bye: int | None, edition: str | Edition = DEFAULT_EDITION
) -> list[str]:
    """The absolute criteria a given round-pairing breaks ([C1]-[C3], forbidden pairs, [C2])."""
    ed = as_edition(edition)
    st = build_state(t, rnd, ed.state_rules)
    out = []
    forbidden = [fp.ids for fp in t.forbidden if fp.applies(rnd)]  # read once, not per pair
    for p, q in pairs:
        a, b = st.players[p], st.players[q]
        if q in a.opponents:
            out.append(f"[C1] {p} and {q} have already played each other")
        elif any(p in ids and q in ids for ids in forbidden):
            out.append(f"{p}-{q} is a forbidden pair")
        elif absolute_colour_clash(a, b):
            assert a.pref_colour is not None
            out.append(f"[C3] {p} and {q} both have an absolute preference for {a.pref_colour.name.lower()}")
    if bye is not None and not st.players[bye].pab_eligible:
        out.append(f"[C2] {bye} may not receive the PAB")
    return out
