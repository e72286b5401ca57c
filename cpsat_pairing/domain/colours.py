"""Colour allocation for one pair (2026 Art. 5.2; 2017 and 2013 E.1-E.5).

Applied after the pairing is fixed: colours never change who plays whom.  The rule
that decided is returned too, so explanations can name it.
"""

from __future__ import annotations

from enum import Enum

from cpsat_pairing.domain.state import PlayerState, PrefKind, RoundState
from cpsat_pairing.domain.tournament import Colour


class ColourRule(Enum):
    """The step of Art. 5.2 that gave the colours (2017 and 2013: E.1-E.5, the same
    steps in the same order), and what it says in this case."""

    BOTH = ("5.2.1", "both preferences granted")
    ONLY_HIGHER = ("5.2.2", "only the higher-ranked player has a preference")
    ONLY_LOWER = ("5.2.2", "only the lower-ranked player has a preference")
    STRONGER = ("5.2.2", "stronger preference granted")
    WIDER_CD = ("5.2.2", "wider colour difference granted")
    ALTERNATION = ("5.2.3", "alternation from the latest differing round")
    HIGHER_RANKED = ("5.2.4", "higher-ranked player's preference granted")
    TPN_PARITY = ("5.2.5", "TPN parity of the higher-ranked player and the initial colour")

    @property
    def article(self) -> str:
        """The 2026 article ("5.2.1" ... "5.2.5"); an edition names it its own way."""
        return self.value[0]

    @property
    def text(self) -> str:
        return self.value[1]


def higher_ranked(st: RoundState, p: int, q: int) -> tuple[int, int]:
    """(higher, lower) in the ranking order of Art. 1.2."""
    return (p, q) if st.rank_key(p) < st.rank_key(q) else (q, p)


def _last_difference(a: PlayerState, b: PlayerState) -> Colour | None:
    """a's colour in the latest round where a and b had different colours.

    Histories are aligned at their ends: unplayed rounds count as if played first
    (C.04.2 Art. 3.4), so the i-th last game of one meets the i-th last of the other.
    """
    ca, cb = a.colours, b.colours
    for i in range(1, min(len(ca), len(cb)) + 1):
        if ca[-i] != cb[-i]:
            return ca[-i]
    return None


def allocate(
    st: RoundState, p: int, q: int, initial: Colour, tpn: dict[int, int] | None = None,
    initial_parity: int = 1, wider_cd: bool = True,
) -> tuple[int, int, ColourRule]:
    """Return (white, black, rule) for the pair p-q.

    When neither player has a colour preference, the higher-ranked player gets the
    initial colour if his TPN has `initial_parity` (1: odd, as Art. 5.2.5 and 2017 E.5
    say; the 2013 edition's reference engine uses 0 after round 1, where its text is
    silent).  `wider_cd`: two absolute preferences for the same colour go to the wider
    colour difference (Art. 5.2.2, 2017 E.2); without it (the 2013 text's E.2) the
    alternation of E.3 decides.
    """
    hi, lo = higher_ranked(st, p, q)
    a, b = st.players[hi], st.players[lo]
    ca, cb = a.pref_colour, b.pref_colour

    def give(player: int, colour: Colour, rule: ColourRule) -> tuple[int, int, ColourRule]:
        other = lo if player == hi else hi
        return (player, other, rule) if colour is Colour.WHITE else (other, player, rule)

    if ca is not None and cb is not None and ca != cb:
        return give(hi, ca, ColourRule.BOTH)
    if ca is not None and cb is None:
        return give(hi, ca, ColourRule.ONLY_HIGHER)
    if cb is not None and ca is None:
        return give(lo, cb, ColourRule.ONLY_LOWER)
    if ca is not None and cb is not None:
        ka, kb = a.pref_kind, b.pref_kind
        if ka != kb:
            winner, colour = (hi, ca) if ka > kb else (lo, cb)
            return give(winner, colour, ColourRule.STRONGER)
        if wider_cd and ka is PrefKind.ABSOLUTE and abs(a.cd) != abs(b.cd):
            winner, colour = (hi, ca) if abs(a.cd) > abs(b.cd) else (lo, cb)
            return give(winner, colour, ColourRule.WIDER_CD)
        last = _last_difference(a, b)
        if last is not None:
            return give(hi, last.opposite, ColourRule.ALTERNATION)
        return give(hi, ca, ColourRule.HIGHER_RANKED)
    number = tpn.get(hi, hi) if tpn else hi
    colour = initial if number % 2 == initial_parity else initial.opposite
    return give(hi, colour, ColourRule.TPN_PARITY)
