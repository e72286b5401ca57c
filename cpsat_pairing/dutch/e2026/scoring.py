"""The 2026 tiers of a bracket's candidates, as the bracket's model counts them.

dutch/e2026/direct.py pairs a bracket by scoring its candidates; the tiers it records
must be the model's, tier for tier: the same quality terms (dutch/e2026/criteria.py),
present under the same conditions and named alike, and the generation order's tiers
as dutch/order.py records them for the pairing chosen.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

from cpsat_pairing.domain.state import Float, PlayerState, PrefKind
from cpsat_pairing.dutch.loop import Bracket, RoundContext
from cpsat_pairing.dutch.result import Pair
from cpsat_pairing.formats.layout import points_text as points
from cpsat_pairing.records import Tier, TierKind

QUALITY, ORDER = TierKind.QUALITY, TierKind.ORDER


@dataclass
class TierSpec:
    """One quality tier: its name, whether the model maximises it, and how a candidate
    scores on it: by the downfloaters (`floating`: the weight of each), by the pairs
    (`paired`: the weight of each pair), or by [C8]'s ceilings (`next_level`)."""

    criterion: str
    detail: str
    maximised: bool = False
    floating: dict[int, int] | None = None
    paired: dict[Pair, int] | None = None
    next_level: int | None = None  # [C8]: -1 the total, else the score level (units)
    # [C9] above the last bracket: its one downfloater's unplayed games if he ends with
    # the PAB (the round's to say), at least 0: scored 0, proven by the completion.
    pab_below: bool = False


class BracketFacts:
    """What the candidates of one bracket are scored on: its players (BSN order), who
    may meet whom, and who may reach the next scoregroup ([C8])."""

    def __init__(self, rc: RoundContext, bracket: Bracket) -> None:
        self.rc = rc
        self.budget = rc.settings.direct_budget
        st = rc.state
        self.ps: dict[int, PlayerState] = st.players
        self.units = st.pairing_units
        self.ok: Callable[[int, int], bool] = rc.compatible
        self.players = bracket.players
        self.mdps = frozenset(bracket.mdps)
        self.residents = [p for p in self.players if p not in self.mdps]
        self.next_group = bracket.next_group
        self.bsn = {p: i + 1 for i, p in enumerate(self.players)}
        self.level_score: dict[int, Fraction] = {self.units[p]: self.ps[p].pairing_score
                                                for p in (*self.players, *self.next_group)}
        n = len(self.players)
        mdps = self.mdps
        # The pairs a candidate may make: [C1]-[C3], never two MDPs (bracket_pairs).
        self.rows: list[list[int]] = [
            [j for j in range(i + 1, n)
             if not (self.players[i] in mdps and self.players[j] in mdps) and self.ok(self.players[i], self.players[j])]
            for i in range(n)
        ]
        ns = frozenset(self.next_group)
        nb = rc.compatible.neighbours
        # [C8]'s pairs as the aggregate model counts them: a bracket player who may meet
        # a next-scoregroup resident, and pairs of two residents who may meet.
        self.dn = [p for p in self.players if not nb(p).isdisjoint(ns)]
        self.dn_set = frozenset(self.dn)
        self.nn_possible = len([q for q in self.next_group if not nb(q).isdisjoint(ns)]) // 2 > 0
        self.ng_level = self.units[self.next_group[0]] if self.next_group and self.nn_possible else None
        self.pairs: list[Pair] = [(self.players[i], self.players[j]) for i, row in enumerate(self.rows) for j in row]

    @cached_property
    def witness_parts(self) -> tuple[list[tuple[int, int]], list[Pair]]:
        """The round's witness split once: its pairs that are the bracket's (by index,
        lower first; two MDPs' pair is not: both float), and the rest."""
        index = {p: i for i, p in enumerate(self.players)}
        mdps = self.mdps
        inside: list[tuple[int, int]] = []
        rest: list[Pair] = []
        for p, q in self.rc.witness:
            if p in index and q in index and not (p in mdps and q in mdps):
                inside.append((min(index[p], index[q]), max(index[p], index[q])))
            else:
                rest.append((p, q))
        return inside, rest


def tier_specs(br: BracketFacts) -> list[TierSpec]:
    """The quality tiers of the bracket's model, in order ([C9] where the model has
    it, which applies only with one downfloater)."""
    rc, ps, units = br.rc, br.ps, br.units
    players, mdps = br.players, br.mdps
    out: list[TierSpec] = [TierSpec("C6", "downfloaters", floating={p: 1 for p in players})]
    levels = sorted({units[p] for p in players}, reverse=True)
    for u in levels:
        out.append(TierSpec("C7", f"downfloaters scoring {points(br.level_score[u])}",
                            floating={p: 1 for p in players if units[p] == u}))
    if br.next_group:
        keys = {units[p] for p in br.dn}
        if br.nn_possible:
            keys.add(units[br.next_group[0]])
        out.append(TierSpec("C8", "next-bracket pairs", maximised=bool(br.dn) or br.nn_possible, next_level=-1))
        for u in sorted(keys, reverse=True):
            out.append(TierSpec("C8", f"next-bracket pairs led by score {points(br.level_score[u])}",
                                maximised=True, next_level=u))
    allowed = rc.pab_allowed
    if (len(rc.remaining) % 2 and rc.pab_score is not None and rc.pab_score >= ps[players[-1]].pairing_score
            and any(p in allowed for p in (*players, *br.next_group))):
        if br.next_group:
            out.append(TierSpec("C9", "PAB assignee's unplayed games", pab_below=True))
        else:  # the last bracket: its one downfloater has the PAB
            out.append(TierSpec("C9", "PAB assignee's unplayed games",
                                floating={p: ps[p].unplayed for p in players if p in allowed}))
    pairs = br.pairs
    same_absolute: list[Pair] = []
    if any(ps[p].topscorer for p in players):
        same_absolute = [(p, q) for p, q in pairs if _same_absolute(ps[p], ps[q])]
    c10: dict[Pair, int] = {}
    c11: dict[Pair, int] = {}
    for p, q in same_absolute:
        a, b = ps[p], ps[q]
        if abs(a.cd) > 1 and abs(b.cd) > 1:
            c10[p, q] = 1
        ra, rb = _repeated(a), _repeated(b)
        if abs(a.cd) == abs(b.cd):
            bad = ra is not None and ra == rb
        else:
            loser = a if abs(a.cd) < abs(b.cd) else b
            assert a.pref_colour is not None
            bad = _repeated(loser) == a.pref_colour.opposite
        if bad:
            c11[p, q] = 1
    out.append(TierSpec("C10", "topscorer |CD|>2", paired=c10))
    out.append(TierSpec("C11", "topscorer same colour 3x", paired=c11))
    pref = {p: ps[p].pref_colour for p in players}
    out.append(TierSpec("C12", "unmet colour preferences",
                        paired={(p, q): 1 for p, q in pairs if pref[p] is not None and pref[p] == pref[q]}))
    strong = {p: ps[p].pref_colour if ps[p].pref_kind in (PrefKind.STRONG, PrefKind.ABSOLUTE) else None
              for p in players}
    absolute = {p: ps[p].pref_kind is PrefKind.ABSOLUTE for p in players}
    out.append(TierSpec("C13", "unmet strong preferences",
                        paired={(p, q): 1 for p, q in pairs
                                if strong[p] is not None and strong[p] == strong[q] and not (absolute[p] and absolute[q])}))
    mdp_pairs = [(p, q) for p, q in pairs if p in mdps or q in mdps]
    for ago, down, up in ((1, "C14", "C15"), (2, "C16", "C17")):
        out.append(TierSpec(down, f"downfloaters with downfloat R-{ago}",
                            floating={p: 1 for p in br.residents if ps[p].float_in(ago) is Float.DOWN}))
        upfloated: dict[Pair, int] = {}
        for p, q in mdp_pairs:
            lo = q if units[p] > units[q] else p if units[q] > units[p] else None
            if lo is not None and ps[lo].float_in(ago) is Float.UP:
                upfloated[p, q] = 1
        out.append(TierSpec(up, f"MDP opponents with upfloat R-{ago}", paired=upfloated))
    for ago, down, up in ((1, "C18", "C19"), (2, "C20", "C21")):
        floated = [p for p in players if ps[p].float_in(ago) is Float.DOWN]
        for u in sorted({units[p] for p in floated}, reverse=True):
            out.append(TierSpec(down, f"repeated downfloaters (R-{ago}) at score {points(br.level_score[u])}",
                                floating={p: 1 for p in floated if units[p] == u}))
        by_level: dict[int, dict[Pair, int]] = {}
        for p, q in mdp_pairs:
            if units[p] == units[q]:
                continue
            hi, lo = (p, q) if units[p] > units[q] else (q, p)
            if ps[lo].float_in(ago) is Float.UP:
                by_level.setdefault(units[hi], {})[p, q] = 1
        for u in sorted(by_level, reverse=True):
            out.append(TierSpec(up, f"MDP opponents with upfloat R-{ago} at MDP score {points(br.level_score[u])}",
                                paired=by_level[u]))
    return out


def quality_tiers(specs: list[TierSpec], pairs: list[Pair], floaters: list[int],
                  next_counts: dict[int, int], pab_unplayed: int = 0) -> list[Tier]:
    """The quality tiers of a candidate: [C8] at `next_counts` and [C9] above the last
    bracket at `pab_unplayed`, each proven by a complete round-pairing (direct.py)."""
    chosen = set(pairs)
    floating = set(floaters)
    out = []
    for s in specs:
        if s.next_level is not None:
            value = -next_counts[s.next_level]
        elif s.pab_below:
            value = pab_unplayed
        elif s.paired is not None:
            value = sum(c for pq, c in s.paired.items() if pq in chosen)
        else:
            assert s.floating is not None
            value = sum(c for p, c in s.floating.items() if p in floating)
        out.append(Tier.of(s.criterion, s.detail, value, QUALITY, s.maximised, None))
    return out


def _order_parts(br: BracketFacts, pairs: list[Pair]) -> tuple[
        list[int], list[tuple[int, int]], list[int], list[int], list[int], list[Pair]]:
    """The MDPs paired, their partners, and the remainder with its S1 and S2 of the
    first exchange (no exchange: its top players, one per pair) and its pairs."""
    mdps = [p for p in br.players if p in br.mdps]
    partner = {p: q for a, b in pairs for p, q in ((a, b), (b, a))}
    paired_mdps = [m for m in mdps if m in partner]
    mdp_partners = [(m, partner[m]) for m in paired_mdps]
    taken = {q for m, q in mdp_partners} | set(paired_mdps)
    remainder = [p for p in br.residents if p not in taken]
    rset = frozenset(remainder)
    rem_pairs = [(p, q) for p, q in pairs if p in rset and q in rset]
    n1 = len(rem_pairs)
    return paired_mdps, mdp_partners, remainder, remainder[:n1], remainder[n1:], rem_pairs


def _first_s1(remainder: list[int], rem_pairs: list[Pair]) -> list[int]:
    """The S1 of the first exchange (4.3.2) that makes the remainder's pairs, in BSN
    order.

    S1 holds one player of each pair.  The first two tiers (fewest moved, then the
    smallest BSN sum) are sums over the pairs, so each pair's choice is its own:
    the player of S1 if it has one, else the lower BSN -- the higher-ranked player
    every time, since S1 is the remainder's top.  The later tiers then have nothing
    left to choose."""
    bsn = {p: i + 1 for i, p in enumerate(remainder)}
    s1set = {p if bsn[p] < bsn[q] else q for p, q in rem_pairs}
    return [p for p in remainder if p in s1set]


def order_tiers(br: BracketFacts, pairs: list[Pair]) -> list[Tier]:
    """The generation order's tiers as dutch/order.py records them for this pairing."""
    paired_mdps, mdp_partners, remainder, s1_orig, s2_orig, rem_pairs = _order_parts(br, pairs)
    out: list[Tier] = []
    bsn = br.bsn
    if paired_mdps:
        paired = set(paired_mdps)
        out += [Tier.of("MDP set", f"BSN {bsn[m]} in S1", int(m not in paired), ORDER, False, bsn[m])
                for m in br.players if m in br.mdps]
        out += [Tier.of("MDP-pairing", f"partner of BSN {bsn[m]}", bsn[q], ORDER, False, bsn[m])
                for m, q in mdp_partners]
    if not rem_pairs:
        return out
    s1 = _first_s1(remainder, rem_pairs)
    fresh = {p: i + 1 for i, p in enumerate(remainder)}
    in_s1 = set(s1)
    out.append(Tier.of("exchange", "players moved", -sum(1 for p in s1_orig if p in in_s1), ORDER, True, None))
    out.append(Tier.of("exchange", "BSN sum difference", sum(fresh[p] for p in s1), ORDER, False, None))
    out += [Tier.of("exchange", f"BSN {fresh[p]} stays in S1", int(p in in_s1), ORDER, False, fresh[p])
            for p in reversed(s1_orig)]
    out += [Tier.of("exchange", f"BSN {fresh[q]} moves to S1", -int(q in in_s1), ORDER, True, fresh[q])
            for q in s2_orig]
    partner = {p: q for a, b in rem_pairs for p, q in ((a, b), (b, a))}
    out += [Tier.of("transposition", f"partner of BSN {fresh[p]}", fresh[partner[p]], ORDER, False, fresh[p])
            for p in s1]
    return out


def _same_absolute(a: PlayerState, b: PlayerState) -> bool:
    return a.pref_kind is PrefKind.ABSOLUTE and b.pref_kind is PrefKind.ABSOLUTE and a.pref_colour == b.pref_colour


def _repeated(ps: PlayerState) -> object:
    cs = ps.colours
    return cs[-1] if len(cs) >= 2 and cs[-1] == cs[-2] else None
