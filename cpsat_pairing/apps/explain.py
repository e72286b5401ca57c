"""Explain a pairing from the solver's own trace: brackets, tiers, colour rules, why-not.

Nothing here re-implements a rule: every number comes from `Pairing.brackets` (what the
solver fixed, tier by tier) and `Board.colour_rule` (the Art. 5.2 rule the allocation
used).  The rules' vocabulary is derived from the trace as follows:

* M0 = number of MDPs entering the bracket; M1 = MDPs paired in it; Limbo = the MDPs
  not paired (they float on); MaxPairs = pairs made in the bracket (the optimum of
  [C6] with completion, i.e. the maximum the rules allow).
* 2013 (A.6, A.8): P0 = the bracket's players // 2, and X1 (Z1 in even rounds) from its
  players' colour preferences, as the text computes them before pairing the bracket;
  the X and Z tiers count what the pairing made, so X - X1 is how often C.10.e raised X.
* Heterogeneous bracket (M1 > 0): S1 = the paired MDPs, S2 = the residents; the
  residents not paired with an MDP form the remainder, itself split as below.
* Homogeneous bracket or remainder: S1 = the higher-ranked player of each pair made,
  S2 = the other players (ranking order, Art. 1.2: pairing score descending, then TPN).
  After exchanges this is the S1 the generation order ended on, not the initial one.
* 2013, no MDP paired (M1 = 0) and fewer than P0 pairs: where the generation order
  kept the top P0 residents in S1 (C.14.b2; a tier per S1 player names the S2 player
  against him), S1 = those residents and S2 = the others, paired or not.

`why_not(A, B)` forces A-B by forbidding A and B every other opponent in a copy of the
tournament, re-solves, scores that pairing on the original tiers and reports the first
criterion that gets worse.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum
from fractions import Fraction

from cpsat_pairing.apps.compare import (
    Difference,
    bracket_of,
    first_difference,
    relevant_tiers,
)
from cpsat_pairing.domain.state import RoundState, build_state
from cpsat_pairing.domain.tournament import ForbiddenPairs, Tournament
from cpsat_pairing.dutch.e2013.criteria import x1_z1
from cpsat_pairing.dutch.edition import Edition, as_edition
from cpsat_pairing.dutch.order import SLOT_DETAIL
from cpsat_pairing.dutch.result import BracketTrace, Pair, Pairing
from cpsat_pairing.dutch.rounds import evaluate, illegalities, pair
from cpsat_pairing.errors import NoValidPairing
from cpsat_pairing.records import Tier


def _ranked(st: RoundState, ids: list[int]) -> list[int]:
    return sorted(ids, key=st.rank_key)


def _slots(br: BracketTrace) -> int:
    """How many top residents the generation order kept in S1 with fewer pairs than
    that (the 2013 C.14.b2 case: one tier per S1 player), or 0."""
    return sum(1 for t in br.tiers if t.criterion == "transposition" and t.detail.startswith(SLOT_DETAIL))


def _split(st: RoundState, players: list[int], pairs: list[Pair]) -> tuple[list[int], list[int]]:
    """S1 = the higher-ranked player of each pair, S2 = everybody else (ranking order)."""
    s1 = [min(pq, key=st.rank_key) for pq in pairs]
    return _ranked(st, s1), _ranked(st, [p for p in players if p not in s1])


@dataclass(frozen=True)
class LegacyCounts:
    """2013 (A.6.b, A.8): what C.2 computes for a bracket before pairing it."""

    p0: int
    x1: int
    z1: int | None  # even rounds only


@dataclass(frozen=True)
class BracketExplanation:
    """One bracket in the rules' terms (see the module docstring for the derivation)."""

    score: Fraction
    residents: list[int]
    mdps: list[int]
    m1: list[int]  # the MDPs paired in the bracket
    limbo: list[int]
    pairs: list[Pair]
    downfloaters: list[int]
    s1: list[int]
    s2: list[int]
    remainder: tuple[list[int], list[int]] | None  # (S1, S2) of the remainder
    tiers: list[Tier]  # the tiers that are not 0
    kind: str = ""  # 2017 A.9: PPB or CLB
    legacy: LegacyCounts | None = None  # the 2013 edition only

    @property
    def homogeneous(self) -> bool:
        return not self.m1


def legacy_counts(st: RoundState, br: BracketTrace) -> LegacyCounts:
    """P0, X1 and (even rounds) Z1 of the bracket's players, residents and MDPs."""
    players = [st.players[p] for p in (*br.residents, *br.mdps)]
    x1, z1 = x1_z1(players, st.round)
    return LegacyCounts(len(players) // 2, x1, z1 if st.round % 2 == 0 else None)


def explain_bracket(st: RoundState, br: BracketTrace, legacy: bool = False) -> BracketExplanation:
    mdps = set(br.mdps)
    paired = {p for pq in br.pairs for p in pq}
    m1 = _ranked(st, [m for m in br.mdps if m in paired])
    limbo = _ranked(st, [m for m in br.mdps if m not in paired])
    remainder = None
    if m1:
        s1, s2 = m1, _ranked(st, br.residents)
        taken = {p for pq in br.pairs if set(pq) & mdps for p in pq}
        rest_pairs = [pq for pq in br.pairs if not set(pq) & mdps]
        rest = [p for p in br.residents if p not in taken]
        remainder = _split(st, rest, rest_pairs)
    elif slots := _slots(br):
        ranked = _ranked(st, br.residents)
        s1, s2 = ranked[:slots], ranked[slots:]
    else:
        s1, s2 = _split(st, br.residents, list(br.pairs))
    return BracketExplanation(
        br.score, _ranked(st, br.residents), _ranked(st, br.mdps), m1, limbo, list(br.pairs), list(br.downfloaters),
        s1, s2, remainder, [t for t in br.tiers if t.value], br.kind, legacy_counts(st, br) if legacy else None,
    )


@dataclass(frozen=True)
class RoundExplanation:
    """The whole round: the PAB score ([C5]), every bracket top-down, every board."""

    pairing: Pairing
    edition: Edition
    brackets: list[BracketExplanation]


def explain(t: Tournament, p: Pairing, edition: str | Edition | None = None) -> RoundExplanation:
    ed = as_edition(edition or p.edition)
    st = build_state(t, p.round, ed.state_rules)
    legacy = ed.procedure == "e2013"
    return RoundExplanation(p, ed, [explain_bracket(st, br, legacy) for br in p.brackets])


# --- why not A-B ------------------------------------------------------------------------


class WhyNotStatus(str, Enum):
    PAIRED = "paired"  # the rules pair them
    ABSENT = "absent"
    FORBIDDEN = "forbidden"  # an absolute criterion
    IMPOSSIBLE = "impossible"  # no complete round-pairing contains A-B
    WORSE = "worse"  # the best pairing with A-B loses on `difference`


@dataclass
class WhyNot:
    round: int
    a: int
    b: int
    edition: Edition
    status: WhyNotStatus = WhyNotStatus.PAIRED
    absent: list[int] = field(default_factory=list)
    illegalities: list[str] = field(default_factory=list)
    difference: Difference | None = None
    side_by_side: list[tuple[Tier, int, int]] = field(default_factory=list)  # (tier, rules, with A-B)
    rules_pairs: list[Pair] = field(default_factory=list)
    forced_pairs: list[Pair] = field(default_factory=list)


def _forbid_others(t: Tournament, rnd: int, a: int, b: int, present: list[int]) -> Tournament:
    """A copy where A and B may meet nobody but each other in round `rnd`."""
    extra = tuple(ForbiddenPairs((x, y), rnd, rnd) for x in (a, b) for y in present if y not in (a, b))
    return replace(t, forbidden=t.forbidden + extra)


def _has(p: Pairing, a: int, b: int) -> bool:
    return any({w, bl} == {a, b} for w, bl in p.as_pairs())


def why_not(
    t: Tournament, rnd: int, a: int, b: int, edition: str | Edition = "dutch-2026", ours: Pairing | None = None
) -> WhyNot:
    """Why the rules did not pair A with B in round `rnd` (`ours`: the rules' pairing of
    the round, when already made)."""
    ed = as_edition(edition)
    st = build_state(t, rnd, ed.state_rules)
    out = WhyNot(rnd, a, b, ed)
    missing = [x for x in (a, b) if x not in st.present]
    if missing:
        out.status, out.absent = WhyNotStatus.ABSENT, missing
        return out
    if ours is None:
        ours = pair(t, rnd, ed)
    out.rules_pairs = ours.as_pairs()
    if _has(ours, a, b):
        return out
    bad = illegalities(t, rnd, [(a, b)], None, ed)
    if bad:
        out.status, out.illegalities = WhyNotStatus.FORBIDDEN, bad
        return out
    forced = _best_with(t, rnd, a, b, ed, list(st.present))
    if forced is None:
        out.status = WhyNotStatus.IMPOSSIBLE
        return out
    out.status, out.forced_pairs = WhyNotStatus.WORSE, forced
    theirs = evaluate(t, rnd, forced, ed)
    out.difference = first_difference(ours, theirs)
    if out.difference is not None:
        found = bracket_of(out.difference, ours, theirs, same_players=False)
        if found is not None:
            out.side_by_side = relevant_tiers(out.difference, *found)
    return out


def _best_with(t: Tournament, rnd: int, a: int, b: int, ed: Edition, present: list[int]) -> list[Pair] | None:
    """The rules' pairing when A and B may meet nobody else.  Neither can take the PAB
    either: the other would be left without an opponent, so every valid round-pairing
    of the copy contains A-B, and the engine returns the best of them."""
    try:
        alt = pair(_forbid_others(t, rnd, a, b, present), rnd, ed)
    except NoValidPairing:
        return None
    return alt.as_pairs() if _has(alt, a, b) else None
