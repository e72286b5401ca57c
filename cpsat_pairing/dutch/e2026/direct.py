"""A 2026 bracket paired without a model: its candidates scored on the rules' tiers.

Each candidate is scored on the 2026 quality tiers, [C6] to [C21], as the bracket
model's terms count them (dutch/e2026/criteria.py), with what the bracket alone cannot
know taken at its best: [C8], what the following bracket can pair, at its ceilings,
[C9] above the last bracket at 0, and [C4], that the rest of the round can be paired at
all.  The best candidate by those values, then by the generation order (Art. 4, as
dutch/order.py fixes it; the search is candidates.py's), is the rules' pairing if a
complete round-pairing makes its values: every other candidate's true values are at
or below its optimistic ones.  That round-pairing is the witness or one built with
blossom matchings (next_bracket.py).  Where none is found, the downfloater sets that
reach the least value are scored exactly (next_bracket.exact_next), the search run
again, until the best is exact; [C4] may then float more players than the bracket
alone must.  Past a fixed step budget, or for a bracket of more than
`SolverSettings.direct_brackets` players, the model pairs the bracket (modelled.py),
which is always exact.

Nothing here is a second opinion: the tiers recorded are the model's, tier for tier,
and `tests/test_direct.py` pairs corpus and stress samples both ways.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from cpsat_pairing.domain.tournament import Colour
from cpsat_pairing.dutch.e2026.candidates import CandidateSearch, OutOfBudget
from cpsat_pairing.dutch.e2026.next_bracket import NextValue, completion, exact_next, next_ceilings
from cpsat_pairing.dutch.e2026.scoring import BracketFacts, TierSpec, order_tiers, quality_tiers, tier_specs
from cpsat_pairing.dutch.loop import Bracket, RoundContext
from cpsat_pairing.dutch.result import Pair
from cpsat_pairing.records import STATS, Tier
from cpsat_pairing.solver.matching import max_matching

# The quality criteria scored here, in the edition's order: another list is the model's.
CRITERIA = tuple(f"C{i}" for i in range(6, 22))
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


def pair_directly(rc: RoundContext, bracket: Bracket, limit: int) -> DirectResult | None:
    """The bracket's pairing by its candidates, or None where the model must pair it."""
    players = bracket.players
    if not 0 < len(players) <= limit or rc.forced is not None or tuple(rc.edition.quality) != CRITERIA:
        return None
    if not bracket.next_group and len(rc.remaining) != len(players):
        return None  # a bracket above players left out of the next scoregroup: no [C8]
    return _solve(BracketFacts(rc, bracket))


def _solve(br: BracketFacts) -> DirectResult | None:
    """Score the bracket's candidates (candidates.py) with [C8] at its ceilings and
    prove the best (next_bracket.py); where that fails, score them exactly."""
    all_specs = tier_specs(br)
    c8_levels = [s.next_level for s in all_specs if s.next_level is not None and s.next_level != -1]
    n = len(br.players)
    d = _fewest_floaters(br)
    if not br.next_group and d != n % 2:
        return None  # the last bracket leaves one player at most, with the PAB
    sc = _Scoring(br, all_specs, c8_levels, d)
    search = sc.search(br.budget)
    try:
        least = search.least_value(d, _witness_value(br, d, sc.pair_value, sc.float_value))
        found = None if least is None else search.first_in_order(d, least[1])
    except OutOfBudget:
        return _declined()
    if found is None:
        return None
    edges, floating = found
    players = br.players
    pairs = [(players[i], players[j]) for i, j in sorted(edges)]
    floaters = [players[i] for i in floating]
    ceilings = sc.ceilings_of.get(tuple(floating), {}) if sc.c8_at else {}
    full = completion(br, pairs, floaters, ceilings)
    if full is not None and any(s.pab_below for s in sc.specs) and br.ps[floaters[0]].unplayed:
        # [C9] is 0 only if the downfloater need not end with the PAB: the completion
        # must pair him.
        if not any(floaters[0] in pq for pq in full):
            full = None
    if full is None:
        return _solve_exactly(br, all_specs, c8_levels, d, sc) if br.next_group else _declined()
    tiers = quality_tiers(sc.specs, pairs, floaters, ceilings) + order_tiers(br, pairs)
    return DirectResult(pairs, floaters, tiers, full)


def _declined() -> DirectResult | None:
    """Leave the bracket to the model."""
    STATS["direct_declined"] += 1
    return None


def _solve_exactly(br: BracketFacts, all_specs: list[TierSpec], c8_levels: list[int], d: int,
                   scored: _Scoring) -> DirectResult | None:
    """The bracket's candidates with each downfloater set's exact [C8] and [C9]
    (next_bracket.exact_next), computed for the sets that reach the least value until
    every such set is exact: the others' values, at their ceilings, are only better
    than their own.  [C4] may float more players than the bracket alone must: a
    downfloater set no round-pairing completes is no candidate, and with none left the
    next number of downfloaters is tried.  `scored`: the values with `d` downfloaters
    the ceilings' search used (their ceilings already computed)."""
    n = len(br.players)
    players = br.players
    spent = [0]

    def step(cost: int) -> None:
        spent[0] += cost
        if spent[0] > br.budget:
            raise OutOfBudget

    try:
        for floating in range(d, n + 1, 2):
            sc = scored if floating == d else _Scoring(br, all_specs, c8_levels, floating)
            search = sc.search(br.budget - spent[0])
            while True:
                least = search.least_value(floating, _witness_value(br, floating, sc.pair_value, sc.float_value))
                if least is None:
                    break
                pending = [D for D in least[1] if D not in sc.exact]
                if not pending:
                    found = search.first_in_order(floating, least[1])
                    if found is None:
                        return _declined()
                    edges, chosen = found
                    pairs = [(players[i], players[j]) for i, j in sorted(edges)]
                    floaters = [players[i] for i in chosen]
                    value = sc.exact[tuple(chosen)]
                    assert value is not None
                    STATS["direct_exact"] += 1
                    tiers = (quality_tiers(sc.specs, pairs, floaters, value.counts, value.pab_unplayed)
                             + order_tiers(br, pairs))
                    return DirectResult(pairs, floaters, tiers, pairs + value.rest)
                for D in pending:
                    sc.exact[D] = exact_next(br, c8_levels, [players[i] for i in D], sc.pab_player(D), step)
            step(search.steps)  # the next number of downfloaters searches on what is left
    except OutOfBudget:
        pass
    return _declined()


class _Scoring:
    """The candidates' values with `d` downfloaters: each tier a digit of one integer,
    most significant first, so that candidates compare as integers.  The base exceeds
    any count the bracket and the next scoregroup can make ([C8]'s, offset by `top` to
    stay positive) and any PAB assignee's unplayed games ([C9]).  A downfloater set's
    [C8] is at its ceilings and [C9] at 0, or exact where `exact` holds it (None: no
    round-pairing completes it)."""

    def __init__(self, br: BracketFacts, specs: list[TierSpec], c8_levels: list[int], d: int) -> None:
        self.br = br
        if d != 1:
            specs = [s for s in specs if not s.pab_below]  # [C9] applies with one downfloater only
        self.specs = specs
        self.c8_levels = c8_levels
        n = len(br.players)
        self.top = n + len(br.next_group)
        radix = 2 * self.top + 2 + max(br.ps[p].unplayed for p in br.players)
        k = len(specs)
        self.weight = weight = [radix ** (k - 1 - i) for i in range(k)]
        index = {p: i for i, p in enumerate(br.players)}
        self.pair_value: dict[tuple[int, int], int] = {}
        self.per_float = [0] * n
        self.c8_at: list[tuple[int, int]] = []
        self.c9_weight = 0
        for i, s in enumerate(specs):
            if s.paired:
                for (p, q), c in s.paired.items():
                    key = (index[p], index[q])
                    self.pair_value[key] = self.pair_value.get(key, 0) + c * weight[i]
            elif s.floating:
                for p, c in s.floating.items():
                    self.per_float[index[p]] += c * weight[i]
            elif s.next_level is not None:
                self.c8_at.append((s.next_level, weight[i]))
            elif s.pab_below:
                self.c9_weight = weight[i]
        self.ceilings_of: dict[tuple[int, ...], dict[int, int]] = {}
        self.exact: dict[tuple[int, ...], NextValue | None] = {}

    def float_value(self, D: tuple[int, ...]) -> int | None:
        """What the downfloaters D (indices) weigh; None if no round-pairing has them."""
        value = sum(self.per_float[i] for i in D)
        if D in self.exact:
            got = self.exact[D]
            if got is None:
                return None
            counts, c9 = got.counts, got.pab_unplayed
        elif not self.c8_at:
            return value
        else:
            known = self.ceilings_of.get(D)
            if known is None:
                known = self.ceilings_of[D] = next_ceilings(self.br, self.c8_levels, [self.br.players[i] for i in D])
            counts = known
            c9 = 0
        return value + sum((self.top - counts[u]) * w for u, w in self.c8_at) + c9 * self.c9_weight

    def pab_player(self, D: tuple[int, ...]) -> int | None:
        """The one downfloater whose unplayed games [C9] counts, if it does."""
        if not self.c9_weight:
            return None
        p = self.br.players[D[0]]
        return p if self.br.ps[p].unplayed else None

    def search(self, budget: int) -> CandidateSearch:
        """The search over these values, stopping past `budget` steps."""
        br = self.br
        players = br.players
        last = not br.next_group
        c12 = next(i for i, s in enumerate(self.specs) if s.criterion == "C12")
        wants = [_WISH[br.ps[p].pref_colour] for p in players]
        return CandidateSearch(br.rows, [p in br.mdps for p in players],
                               [not last or p in br.rc.pab_allowed for p in players],
                               self.pair_value, self.float_value, budget, wants, self.weight[c12])


def _fewest_floaters(br: BracketFacts) -> int:
    """The fewest players any pairing of the bracket leaves unpaired."""
    adj: list[list[int]] = [[] for _ in br.rows]
    for i, row in enumerate(br.rows):
        for j in row:
            adj[i].append(j)
            adj[j].append(i)
    return max_matching(adj).count(-1)


def _witness_value(br: BracketFacts, d: int, pair_value: dict[tuple[int, int], int],
                   float_value: Callable[[tuple[int, ...]], int | None]) -> int | None:
    """The value of the candidate the round's witness makes in the bracket (the file's
    own pairing under `check`, most often the answer), if it is one: a bound that cuts
    the least value's search from its start."""
    edges = br.witness_parts[0]
    paired = {i for e in edges for i in e}
    floating = tuple(i for i in range(len(br.players)) if i not in paired)
    if len(floating) != d or (not br.next_group and not all(br.players[i] in br.rc.pab_allowed for i in floating)):
        return None
    own = float_value(floating)
    return None if own is None else own + sum(pair_value.get(e, 0) for e in edges)
