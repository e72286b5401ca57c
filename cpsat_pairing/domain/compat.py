"""Who may meet whom: the absolute criteria as a pair predicate and as neighbour sets.

[C1] (no rematch), [C3] (no two non-topscorers with the same absolute colour
preference) and the forbidden pairs are the same for every bracket of a round, so they
are computed once per round.  Neighbour sets let completion checks build their graphs
with set operations instead of a predicate call per pair, which matters at thousands
of players.
"""

from __future__ import annotations

from typing import Callable, Iterable

from cpsat_pairing.domain.state import PlayerState, PrefKind, RoundState
from cpsat_pairing.domain.tournament import Colour, Tournament

Clash = Callable[[PlayerState, PlayerState], bool]


def absolute_colour_clash(a: PlayerState, b: PlayerState) -> bool:
    """[C3]: two non-topscorers with the same absolute colour preference may not meet."""
    return (
        not a.topscorer
        and not b.topscorer
        and a.pref_kind is PrefKind.ABSOLUTE
        and b.pref_kind is PrefKind.ABSOLUTE
        and a.pref_colour == b.pref_colour
    )


class Compatibility:
    """`ok(p, q)`: may p and q be paired in this round?  `neighbours(p)`: all such q."""

    def __init__(self, st: RoundState, t: Tournament, players: Iterable[int] | None = None) -> None:
        self.players = st.players
        self.pool = frozenset(st.present if players is None else players)
        self._forbidden: dict[int, set[int]] = {}
        for fp in t.forbidden:
            if fp.applies(st.round):
                for a in fp.ids:
                    self._forbidden.setdefault(a, set()).update(b for b in fp.ids if b != a)
        # Non-topscorers with an absolute preference, by colour: [C3] keeps each group apart.
        self._clash_group: dict[Colour, frozenset[int]] = {}
        for c in Colour:
            self._clash_group[c] = frozenset(
                p
                for p in self.pool
                if not self.players[p].topscorer
                and self.players[p].pref_kind is PrefKind.ABSOLUTE
                and self.players[p].pref_colour == c
            )
        self._neighbours: dict[int, frozenset[int]] = {}

    def _excluded(self, p: int) -> set[int]:
        a = self.players[p]
        out = set(a.opponents)
        out.add(p)
        out |= self._forbidden.get(p, set())
        if a.pref_colour is not None and p in self._clash_group[a.pref_colour]:
            out |= self._clash_group[a.pref_colour]
        return out

    def forbidden_opponents(self, p: int) -> frozenset[int]:
        """The players p may not meet in this round by a forbidden pair."""
        return frozenset(self._forbidden.get(p, ()))

    def neighbours(self, p: int) -> frozenset[int]:
        got = self._neighbours.get(p)
        if got is None:
            got = self.pool - self._excluded(p)
            self._neighbours[p] = got
        return got

    def __call__(self, p: int, q: int) -> bool:
        return q in self.neighbours(p)
