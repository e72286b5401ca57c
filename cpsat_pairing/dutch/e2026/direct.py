"""A small 2026 bracket paired without a model: its candidates scored on the rules' tiers.

A bracket of a few players has few candidates (at most 105 pairings of eight players
who all meet).  Each is scored here on the 2026 quality tiers, [C6] to [C21], as the
bracket model's terms count them (dutch/e2026/criteria.py), with two tiers it cannot
know alone taken at their ceilings: [C8], what the following bracket can pair, and
[C4], that the rest of the round can be paired at all.  The best candidate by those
values, then by the generation order (Art. 4, as dutch/order.py fixes it), is the
rules' pairing if a complete round-pairing realises its ceilings: every other
candidate's true values are at or below its optimistic ones.  The completion is
searched with blossom matchings; when none is found (or the bracket is of a kind left
to the model: the last bracket, a PAB assignee of its own, more than `direct_brackets`
players) the model pairs the bracket, which is always exact.

Nothing here is a second opinion: the tiers recorded are the model's, tier for tier,
and `tests/test_direct.py` pairs every corpus sample both ways.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from cpsat_pairing.domain.state import Float, PlayerState, PrefKind
from cpsat_pairing.domain.tournament import Colour
from cpsat_pairing.dutch.e2026.candidates import CandidateSearch, OutOfBudget
from cpsat_pairing.dutch.loop import Bracket, RoundContext
from cpsat_pairing.dutch.result import Pair
from cpsat_pairing.formats.layout import points_text as points
from cpsat_pairing.records import STATS, Tier, TierKind
from cpsat_pairing.solver.matching import LazyAdjacency, greedy_mate, is_perfect, max_matching

QUALITY, ORDER = TierKind.QUALITY, TierKind.ORDER
# The quality criteria scored here, in the edition's order: another list is the model's.
CRITERIA = tuple(f"C{i}" for i in range(6, 22))
# Each tier's value as one digit of a mixed-radix integer: candidates compare as ints.
_RADIX = 1 << 8
# A colour preference as the search counts it (candidates.py): none, White, Black.
_WISH = {None: 0, Colour.WHITE: 1, Colour.BLACK: 2}


@dataclass
class DirectResult:
    """The bracket's pairs and downfloaters (as the model gives them), its tiers, and a
    complete round-pairing of the remaining players that contains its pairs."""

    pairs: list[Pair]
    downfloaters: list[int]
    tiers: list[Tier]
    full: list[Pair]


@dataclass
class _Spec:
    """One quality tier: its name, whether the model maximises it, and how a candidate
    scores on it: by the downfloaters (`floating`: the weight of each), by the pairs
    (`paired`: the weight of each pair), or by [C8]'s ceilings (`next_level`)."""

    criterion: str
    detail: str
    maximised: bool = False
    floating: dict[int, int] | None = None
    paired: dict[Pair, int] | None = None
    next_level: int | None = None  # [C8]: -1 the total, else the score level (units)


def pair_directly(rc: RoundContext, bracket: Bracket, limit: int) -> DirectResult | None:
    """The bracket's pairing by its candidates, or None where the model must pair it."""
    players = bracket.players
    if not 0 < len(players) <= limit or rc.forced is not None or tuple(rc.edition.quality) != CRITERIA:
        return None
    if not bracket.next_group and len(rc.remaining) != len(players):
        return None  # a bracket above players left out of the next scoregroup: no [C8]
    return _Bracket(rc, bracket).solve()


class _Bracket:
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

    # -- the tiers ---------------------------------------------------------------------

    def specs(self) -> list[_Spec] | None:
        """The quality tiers of the bracket's model, in order; None where [C9] may apply
        (its value needs the round's PAB, which the model decides)."""
        rc, ps, units = self.rc, self.ps, self.units
        players, mdps = self.players, self.mdps
        out: list[_Spec] = [_Spec("C6", "downfloaters", floating={p: 1 for p in players})]
        levels = sorted({units[p] for p in players}, reverse=True)
        for u in levels:
            out.append(_Spec("C7", f"downfloaters scoring {points(self.level_score[u])}",
                             floating={p: 1 for p in players if units[p] == u}))
        ns = frozenset(self.next_group)
        nb = rc.compatible.neighbours
        self.dn = [p for p in players if not nb(p).isdisjoint(ns)]
        w = [q for q in self.next_group if not nb(q).isdisjoint(ns)]
        self.nn_possible = len(w) // 2 > 0
        if self.next_group:
            keys = {units[p] for p in self.dn}
            if self.nn_possible:
                keys.add(units[self.next_group[0]])
            out.append(_Spec("C8", "next-bracket pairs", maximised=bool(self.dn) or self.nn_possible, next_level=-1))
            for u in sorted(keys, reverse=True):
                out.append(_Spec("C8", f"next-bracket pairs led by score {points(self.level_score[u])}",
                                 maximised=True, next_level=u))
        allowed = rc.pab_allowed
        if (len(rc.remaining) % 2 and rc.pab_score is not None and rc.pab_score >= ps[players[-1]].pairing_score
                and any(p in allowed for p in (*players, *self.next_group))):
            if self.next_group:
                return None  # whether a downfloater ends with the PAB is the round's to say
            # [C9] in the last bracket: its one downfloater has the PAB.
            out.append(_Spec("C9", "PAB assignee's unplayed games",
                             floating={p: ps[p].unplayed for p in players if p in allowed}))
        pairs = [(players[i], players[j]) for i, row in enumerate(self.rows) for j in row]
        self.pairs = pairs
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
        out.append(_Spec("C10", "topscorer |CD|>2", paired=c10))
        out.append(_Spec("C11", "topscorer same colour 3x", paired=c11))
        pref = {p: ps[p].pref_colour for p in players}
        out.append(_Spec("C12", "unmet colour preferences",
                         paired={(p, q): 1 for p, q in pairs if pref[p] is not None and pref[p] == pref[q]}))
        strong = {p: ps[p].pref_colour if ps[p].pref_kind in (PrefKind.STRONG, PrefKind.ABSOLUTE) else None
                  for p in players}
        absolute = {p: ps[p].pref_kind is PrefKind.ABSOLUTE for p in players}
        out.append(_Spec("C13", "unmet strong preferences",
                         paired={(p, q): 1 for p, q in pairs
                                 if strong[p] is not None and strong[p] == strong[q] and not (absolute[p] and absolute[q])}))
        mdp_pairs = [(p, q) for p, q in pairs if p in mdps or q in mdps]
        for ago, down, up in ((1, "C14", "C15"), (2, "C16", "C17")):
            out.append(_Spec(down, f"downfloaters with downfloat R-{ago}",
                             floating={p: 1 for p in self.residents if ps[p].float_in(ago) is Float.DOWN}))
            upfloated: dict[Pair, int] = {}
            for p, q in mdp_pairs:
                lo = q if units[p] > units[q] else p if units[q] > units[p] else None
                if lo is not None and ps[lo].float_in(ago) is Float.UP:
                    upfloated[p, q] = 1
            out.append(_Spec(up, f"MDP opponents with upfloat R-{ago}", paired=upfloated))
        for ago, down, up in ((1, "C18", "C19"), (2, "C20", "C21")):
            floated = [p for p in players if ps[p].float_in(ago) is Float.DOWN]
            for u in sorted({units[p] for p in floated}, reverse=True):
                out.append(_Spec(down, f"repeated downfloaters (R-{ago}) at score {points(self.level_score[u])}",
                                 floating={p: 1 for p in floated if units[p] == u}))
            by_level: dict[int, dict[Pair, int]] = {}
            for p, q in mdp_pairs:
                if units[p] == units[q]:
                    continue
                hi, lo = (p, q) if units[p] > units[q] else (q, p)
                if ps[lo].float_in(ago) is Float.UP:
                    by_level.setdefault(units[hi], {})[p, q] = 1
            for u in sorted(by_level, reverse=True):
                out.append(_Spec(up, f"MDP opponents with upfloat R-{ago} at MDP score {points(self.level_score[u])}",
                                 paired=by_level[u]))
        return out

    def next_ceilings(self, floaters: Sequence[int]) -> dict[int, int]:
        """[C8]'s counts at their ceilings for these downfloaters: the total (key -1),
        then each level highest first.  Every pair of the following bracket holds a
        next-scoregroup resident below; a downfloater leads at most one, and only one
        who may meet a resident; pairs of two residents need two who may meet."""
        units = self.units
        ng = len(self.next_group)
        dn = self.dn_set
        by_level: dict[int, int] = {}
        for p in floaters:
            if p in dn:
                by_level[units[p]] = by_level.get(units[p], 0) + 1
        d = len(floaters)
        total = min(ng, (d + ng) // 2, sum(by_level.values()) + (ng // 2 if self.nn_possible else 0))
        out = {-1: total}
        above = 0
        for u in self.c8_levels:
            if u == self.ng_level:
                out[u] = total - above
            else:
                out[u] = min(by_level.get(u, 0), ng - above, total - above)
            above += out[u]
        return out

    # -- candidates ----------------------------------------------------------------------

    def fewest_floaters(self) -> int:
        """The fewest players any pairing of the bracket leaves unpaired."""
        adj: list[list[int]] = [[] for _ in self.rows]
        for i, row in enumerate(self.rows):
            for j in row:
                adj[i].append(j)
                adj[j].append(i)
        return max_matching(adj).count(-1)

    def solve(self) -> DirectResult | None:
        specs = self.specs()
        if specs is None:
            return None
        units = self.units
        self.dn_set = frozenset(self.dn)
        self.ng_level = units[self.next_group[0]] if self.next_group and self.nn_possible else None
        self.c8_levels = [s.next_level for s in specs if s.next_level is not None and s.next_level != -1]
        n = len(self.players)
        d = self.fewest_floaters()
        if not self.next_group and d != n % 2:
            return None  # the last bracket leaves one player at most, with the PAB
        # Each candidate's tier values as one integer, most significant first (a [C8]
        # count negated, as the model minimises it: offset into the digit's range).
        k = len(specs)
        weight = [_RADIX ** (k - 1 - i) for i in range(k)]
        index = {p: i for i, p in enumerate(self.players)}
        pair_value: dict[tuple[int, int], int] = {}
        per_float = [0] * n
        c8_at: list[tuple[int, int]] = []
        for i, s in enumerate(specs):
            if s.paired:
                for (p, q), c in s.paired.items():
                    key = (index[p], index[q])
                    pair_value[key] = pair_value.get(key, 0) + c * weight[i]
            elif s.floating:
                for p, c in s.floating.items():
                    per_float[index[p]] += c * weight[i]
            elif s.next_level is not None:
                c8_at.append((s.next_level, weight[i]))
        players = self.players
        ceilings_of: dict[tuple[int, ...], dict[int, int]] = {}

        def float_value(D: tuple[int, ...]) -> int:
            value = sum(per_float[i] for i in D)
            if c8_at:
                ceilings = ceilings_of[D] = self.next_ceilings([players[i] for i in D])
                value += sum((_RADIX // 2 - ceilings[u]) * w for u, w in c8_at)
            return value

        last = not self.next_group
        c12 = next(i for i, s in enumerate(specs) if s.criterion == "C12")
        wants = [_WISH[self.ps[p].pref_colour] for p in players]
        search = CandidateSearch(self.rows, [p in self.mdps for p in players],
                                 [not last or p in self.rc.pab_allowed for p in players],
                                 pair_value, float_value, self.budget, wants, weight[c12])
        try:
            least = search.least_value(d, self.budget)
            found = None if least is None else search.first_in_order(d, least[1])
        except OutOfBudget:
            STATS["direct_declined"] += 1
            return None
        if found is None:
            return None
        edges, floating = found
        pairs = [(players[i], players[j]) for i, j in sorted(edges)]
        floaters = [players[i] for i in floating]
        ceilings = ceilings_of.get(tuple(floating), {}) if c8_at else {}
        full = self.completion(pairs, floaters, ceilings)
        if full is None:
            STATS["direct_declined"] += 1
            return None
        tiers = self.quality_tiers(specs, pairs, floaters, ceilings) + self.order_tiers(pairs, floaters)
        return DirectResult(pairs, floaters, tiers, full)

    def quality_tiers(self, specs: list[_Spec], pairs: list[Pair], floaters: list[int],
                      ceilings: dict[int, int]) -> list[Tier]:
        chosen = set(pairs)
        floating = set(floaters)
        out = []
        for s in specs:
            if s.next_level is not None:
                value = -ceilings[s.next_level]
            elif s.paired is not None:
                value = sum(c for pq, c in s.paired.items() if pq in chosen)
            else:
                assert s.floating is not None
                value = sum(c for p, c in s.floating.items() if p in floating)
            out.append(Tier.of(s.criterion, s.detail, value, QUALITY, s.maximised, None))
        return out

    # -- the generation order ------------------------------------------------------------

    def _order_parts(self, pairs: list[Pair], floaters: list[int]) -> tuple[
            list[int], list[tuple[int, int]], list[int], list[int], list[int], list[Pair]]:
        """The MDPs paired, their partners, and the remainder with its S1 and S2 of the
        first exchange (no exchange: its top players, one per pair) and its pairs."""
        mdps = [p for p in self.players if p in self.mdps]
        partner = {p: q for a, b in pairs for p, q in ((a, b), (b, a))}
        paired_mdps = [m for m in mdps if m in partner]
        mdp_partners = [(m, partner[m]) for m in paired_mdps]
        taken = {q for m, q in mdp_partners} | set(paired_mdps)
        remainder = [p for p in self.residents if p not in taken]
        rset = frozenset(remainder)
        rem_pairs = [(p, q) for p, q in pairs if p in rset and q in rset]
        n1 = len(rem_pairs)
        return paired_mdps, mdp_partners, remainder, remainder[:n1], remainder[n1:], rem_pairs

    @staticmethod
    def _exchange(remainder: list[int], s1_orig: list[int], s2_orig: list[int],
                  rem_pairs: list[Pair]) -> tuple[tuple[object, ...], list[int]]:
        """The S1 of the first exchange (4.3.2) that makes the remainder's pairs, with
        its key as the model's exchange tiers rank it.

        S1 holds one player of each pair.  The first two tiers (fewest moved, then the
        smallest BSN sum) are sums over the pairs, so each pair's choice is its own:
        the player of S1 if it has one, else the lower BSN -- the higher-ranked player
        every time, since S1 is the remainder's top.  The later tiers then have nothing
        left to choose."""
        bsn = {p: i + 1 for i, p in enumerate(remainder)}
        s1set = {p if bsn[p] < bsn[q] else q for p, q in rem_pairs}
        key = (-sum(1 for p in s1_orig if p in s1set), sum(bsn[p] for p in s1set),
               tuple(int(p in s1set) for p in reversed(s1_orig)), tuple(-int(q in s1set) for q in s2_orig))
        return key, [p for p in remainder if p in s1set]

    def order_tiers(self, pairs: list[Pair], floaters: list[int]) -> list[Tier]:
        """The generation order's tiers as dutch/order.py records them for this pairing."""
        paired_mdps, mdp_partners, remainder, s1_orig, s2_orig, rem_pairs = self._order_parts(pairs, floaters)
        out: list[Tier] = []
        bsn = self.bsn
        if paired_mdps:
            paired = set(paired_mdps)
            out += [Tier.of("MDP set", f"BSN {bsn[m]} in S1", int(m not in paired), ORDER, False, bsn[m])
                    for m in self.players if m in self.mdps]
            out += [Tier.of("MDP-pairing", f"partner of BSN {bsn[m]}", bsn[q], ORDER, False, bsn[m])
                    for m, q in mdp_partners]
        if not rem_pairs:
            return out
        _, s1 = self._exchange(remainder, s1_orig, s2_orig, rem_pairs)
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

    # -- the completion ------------------------------------------------------------------

    def witness_completion(self, pairs: list[Pair], floaters: list[int], ceilings: dict[int, int]) -> list[Pair] | None:
        """The round's witness (a complete round-pairing of the remaining players: the
        file's own where `check` gave it) when it makes this candidate and [C8]'s
        ceilings."""
        inside = set(self.players)
        mdps = self.mdps
        ns = frozenset(self.next_group)
        units = self.units
        chosen = {frozenset(pq) for pq in pairs}
        made = 0
        led: dict[int, int] = {}
        rest: list[Pair] = []
        for p, q in self.rc.witness:
            if p in inside and q in inside and not (p in mdps and q in mdps):
                if frozenset((p, q)) not in chosen:
                    return None
                made += 1
                continue
            rest.append((p, q))
            if p in ns and q in ns:
                level = units[p]
            elif p in ns and q in inside or q in ns and p in inside:
                level = units[q if p in ns else p]
            else:
                continue
            led[level] = led.get(level, 0) + 1
        if made != len(pairs) or sum(led.values()) != ceilings.get(-1, 0):
            return None
        if any(led.get(u, 0) != ceilings[u] for u in self.c8_levels):
            return None
        return list(pairs) + rest

    def completion(self, pairs: list[Pair], floaters: list[int], ceilings: dict[int, int]) -> list[Pair] | None:
        """A complete round-pairing of the remaining players with the bracket's `pairs`
        in which the following bracket makes [C8]'s ceilings, or None if none is found."""
        if not self.next_group:
            return list(pairs)  # the last bracket: its floater, if any, has the PAB
        from_witness = self.witness_completion(pairs, floaters, ceilings)
        if from_witness is not None:
            return from_witness
        units = self.units
        ng = self.next_group
        ok = self.ok
        # The downfloaters, highest level first, each to a resident of the next
        # scoregroup by an augmenting path (a matched downfloater stays matched).
        order = sorted(floaters, key=lambda p: -units[p])
        mate: dict[int, int] = {}
        for p in order:
            if p in self.dn_set:
                _augment(p, ng, ok, mate, set())
        led: dict[int, int] = {}
        for q, p in mate.items():
            led[units[p]] = led.get(units[p], 0) + 1
        for u in self.c8_levels:
            if u != self.ng_level and led.get(u, 0) != ceilings[u]:
                return None
        out = list(pairs)
        out += [(p, q) for q, p in mate.items()]
        free_ng = [q for q in ng if q not in mate]
        want = ceilings.get(-1, 0) - len(mate)
        # The residents left pair among themselves, `want` pairs: where that is all of
        # them but one, each in turn is the one who goes down (or has the PAB).
        leftovers: list[int | None] = [None]
        if want and want == len(free_ng) // 2 and len(free_ng) % 2:
            leftovers = list(reversed(free_ng))
        excluded = self.rc.compatible.excluded
        for out_of_ng in leftovers:
            group = [q for q in free_ng if q != out_of_ng]
            inner: list[Pair] = []
            if want:
                adj = LazyAdjacency(len(group), lambda i: [j for j, q in enumerate(group)
                                                           if j != i and q not in excluded(group[i])])
                m = max_matching(adj, greedy_mate(group, excluded))
                inner = [(group[i], group[j]) for i, j in enumerate(m) if i < j]
                if len(inner) < want:
                    continue
            done = {p for pq in out for p in pq} | {p for pq in inner[:want] for p in pq}
            rest = [p for p in self.rc.remaining if p not in done]
            tail = out + inner[:want]
            if _completes(rest, self.rc, tail):
                return tail
        return None


def _augment(p: int, group: list[int], ok: Callable[[int, int], bool], mate: dict[int, int], seen: set[int]) -> bool:
    """An augmenting path from `p` to a resident of `group` (`mate`: resident to his
    downfloater), flipped if found: the downfloaters matched before stay matched."""
    for q in group:
        if q in seen or not ok(p, q):
            continue
        seen.add(q)
        if q not in mate or _augment(mate[q], group, ok, mate, seen):
            mate[q] = p
            return True
    return False


def _completes(rest: list[int], rc: RoundContext, out: list[Pair]) -> bool:
    """Pair `rest` completely (the PAB, if one is left, to a player [C2] and [C5] allow),
    appending the pairs to `out`."""
    excluded = rc.compatible.excluded
    n = len(rest)
    dummy = n if n % 2 else -1

    def row(i: int) -> list[int]:
        if i == dummy:
            return [j for j, p in enumerate(rest) if p in rc.pab_allowed]
        far = excluded(rest[i])
        found = [j for j, q in enumerate(rest) if j != i and q not in far]
        if dummy >= 0 and rest[i] in rc.pab_allowed:
            found.append(dummy)
        return found

    adj = LazyAdjacency(n + (n % 2), row)
    perfect, mate = is_perfect(adj, greedy_mate(rest, excluded) + [-1] * (n % 2))
    if not perfect:
        return False
    out += [(p, rest[mate[i]]) for i, p in enumerate(rest) if i < mate[i] < n]
    return True


def _same_absolute(a: PlayerState, b: PlayerState) -> bool:
    return a.pref_kind is PrefKind.ABSOLUTE and b.pref_kind is PrefKind.ABSOLUTE and a.pref_colour == b.pref_colour


def _repeated(ps: PlayerState) -> object:
    cs = ps.colours
    return cs[-1] if len(cs) >= 2 and cs[-1] == cs[-2] else None
