"""Tampered rounds: two opponents swapped, one board's colours swapped, the PAB moved.

Each mutation changes one round of a paired tournament and keeps the file consistent
(both sides of every game agree), so `check` must flag that round and no earlier one.
"""

from __future__ import annotations

import random
from dataclasses import replace

from cpsat_pairing.apps.check import file_round
from cpsat_pairing.domain.tournament import Colour, RoundEntry, Tournament
from cpsat_pairing.formats import parse_trf, write_trf

_COMPLEMENT = {"1": "0", "0": "1", "=": "=", "W": "L", "L": "W", "D": "D", "+": "-", "-": "+", "*": "*"}


def _set(t: Tournament, rnd: int, entries: dict[int, RoundEntry]) -> Tournament:
    """`t` with round `rnd` of some players replaced (TRF round trip keeps it honest)."""
    players = []
    for p in t.players:
        if p.id in entries:
            rounds = list(p.rounds) + [None] * max(0, rnd - len(p.rounds))
            rounds[rnd - 1] = entries[p.id]
            p = replace(p, rounds=tuple(rounds))
        players.append(p)
    return parse_trf(write_trf(replace(t, players=tuple(players)), t.dialect), source=f"{t.source} (mutated)")


def _vs(e: RoundEntry, opponent: int, colour: Colour | None, result: str) -> RoundEntry:
    return replace(e, opponent=opponent, colour=colour, result=result)


def swap_opponents(t: Tournament, rnd: int, i: int, j: int) -> Tournament:
    """Boards i and j of round `rnd` (file order) exchange their second players:
    a-b, c-d become a-d, c-b; a and c keep colour and result, d and b take the opposite."""
    pairs = file_round(t, rnd).pairs
    (a, b), (c, d) = pairs[i], pairs[j]
    ea, ec = t.player(a).entry(rnd), t.player(c).entry(rnd)
    assert ea is not None and ec is not None

    def opp(col: Colour | None) -> Colour | None:
        return None if col is None else col.opposite

    return _set(t, rnd, {
        a: _vs(ea, d, ea.colour, ea.result), d: _vs(ea, a, opp(ea.colour), _COMPLEMENT[ea.result]),
        c: _vs(ec, b, ec.colour, ec.result), b: _vs(ec, c, opp(ec.colour), _COMPLEMENT[ec.result]),
    })


def set_boards(t: Tournament, rnd: int, boards: list[tuple[int, int]], result: str = "=") -> Tournament:
    """Round `rnd` with these players paired on these boards (White first), each game
    with `result` for White (its complement for Black); the other boards as they were."""
    entries: dict[int, RoundEntry] = {}
    for w, b in boards:
        ew, eb = t.player(w).entry(rnd), t.player(b).entry(rnd)
        assert ew is not None and eb is not None
        entries[w] = _vs(ew, b, Colour.WHITE, result)
        entries[b] = _vs(eb, w, Colour.BLACK, _COMPLEMENT[result])
    return _set(t, rnd, entries)


def swap_colours(t: Tournament, rnd: int, i: int) -> Tournament:
    """Board i of round `rnd`: White and Black exchanged, results kept."""
    w, b = file_round(t, rnd).pairs[i]
    ew, eb = t.player(w).entry(rnd), t.player(b).entry(rnd)
    assert ew is not None and eb is not None
    return _set(t, rnd, {w: replace(ew, colour=Colour.BLACK), b: replace(eb, colour=Colour.WHITE)})


def move_bye(t: Tournament, rnd: int, i: int) -> Tournament:
    """The PAB of round `rnd` goes to a player of board i; the former PAB holder takes
    his place on the board (colour and result)."""
    fr = file_round(t, rnd)
    assert fr.bye is not None
    x, z = fr.pairs[i]
    ex, ez, ey = t.player(x).entry(rnd), t.player(z).entry(rnd), t.player(fr.bye).entry(rnd)
    assert ex is not None and ez is not None and ey is not None
    return _set(t, rnd, {x: ey, fr.bye: _vs(ex, z, ex.colour, ex.result), z: replace(ez, opponent=fr.bye)})


def _coloured(t: Tournament, rnd: int) -> list[int]:
    fr = file_round(t, rnd)
    return [i for i, pq in enumerate(fr.pairs) if frozenset(pq) not in fr.colourless]


def mutations(t: Tournament, rng: random.Random, rounds: list[int]) -> list[tuple[str, int, Tournament]]:
    """The three mutations of one file: (kind, mutated round, tournament)."""
    out = []
    swappable = [r for r in rounds if len(file_round(t, r).pairs) >= 2]
    if swappable:
        r = rng.choice(swappable)
        i, j = rng.sample(range(len(file_round(t, r).pairs)), 2)
        out.append(("swap opponents", r, swap_opponents(t, r, i, j)))
    colourable = [r for r in rounds if _coloured(t, r)]
    if colourable:
        r = rng.choice(colourable)
        out.append(("swap colours", r, swap_colours(t, r, rng.choice(_coloured(t, r)))))
    byes = [r for r in rounds if file_round(t, r).bye is not None and file_round(t, r).pairs]
    if byes:
        r = rng.choice(byes)
        out.append(("move bye", r, move_bye(t, r, rng.randrange(len(file_round(t, r).pairs)))))
    return out
