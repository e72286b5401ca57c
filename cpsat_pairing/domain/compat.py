"""Who may meet whom: the absolute criteria as a pair predicate and as neighbour sets.

[C1] (no rematch), [C3] (no two non-topscorers with the same absolute colour
preference) and the forbidden pairs are the same for every bracket of a round, so they
are computed once per round.  Neighbour sets let completion checks build their graphs
with set operations instead of a predicate call per pair, which matters at thousands
of players.
"""

from __future__ import annotations

from collections.abc import Iterator, Set
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


class Neighbours(Set[int]):
    """The players one player may meet: the round's pool less those he may not.

    Kept as the (short) exclusion list, not as a set of its own: late in a big Swiss
    nearly everybody may meet nearly everybody, and a set per player of all the others
    grows with the square of the field (about 3 GB at 9,999 players).  Set operations
    with smaller sets cost what they cost on a frozenset."""

    __slots__ = ("_pool", "_excluded")

    def __init__(self, pool: frozenset[int], excluded: frozenset[int]) -> None:
        self._pool = pool
        self._excluded = excluded

    def __contains__(self, q: object) -> bool:
        return q in self._pool and q not in self._excluded

    def __iter__(self) -> Iterator[int]:
        excluded = self._excluded
        return iter([q for q in self._pool if q not in excluded])

    def __len__(self) -> int:
        return len(self._pool) - len(self._excluded & self._pool)

    def __and__(self, other: Iterable[object]) -> frozenset[int]:
        pool, excluded = self._pool, self._excluded
        if isinstance(other, (set, frozenset)):
            return frozenset(other.intersection(pool).difference(excluded))
        return frozenset(q for q in other if q in pool and q not in excluded)

    __rand__ = __and__

    def isdisjoint(self, other: Iterable[object]) -> bool:
        pool, excluded = self._pool, self._excluded
        if isinstance(other, (set, frozenset)):
            # A member of `other` in the pool and not excluded says no, and one is
            # nearly always among the first few: the scan below stops there, where the
            # intersection would go through the whole of a big scoregroup.
            for tried, q in enumerate(other):
                if q in pool and q not in excluded:
                    return False
                if tried > len(excluded):
                    break
            else:
                return True
            return other.intersection(pool) <= excluded
        return not any(q in pool and q not in excluded for q in other)

    @property
    def excluded(self) -> frozenset[int]:
        """Who may not be met (the player himself included); pool members or not."""
        return self._excluded


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
        self._neighbours: dict[int, Neighbours] = {}

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

    def neighbours(self, p: int) -> Neighbours:
        got = self._neighbours.get(p)
        if got is None:
            got = Neighbours(self.pool, frozenset(self._excluded(p)))
            self._neighbours[p] = got
        return got

    def excluded(self, p: int) -> frozenset[int]:
        """Who p may not meet (himself included): for scans over players known to be
        in the pool, one set lookup each."""
        return self.neighbours(p).excluded

    def __call__(self, p: int, q: int) -> bool:
        return q in self.neighbours(p)
