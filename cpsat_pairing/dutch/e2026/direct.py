"""A 2026 bracket paired without a model: its candidates scored on the rules' tiers.

Each candidate is scored on the 2026 quality tiers, [C6] to [C21], as the bracket
model's terms count them (dutch/e2026/criteria.py), with what the bracket alone cannot
know taken at its best: [C8], what the following bracket can pair, at its ceilings,
and [C4], that the rest of the round can be paired at all.  The best candidate by those
values, then by the generation order (Art. 4, as dutch/order.py fixes it; the search is
candidates.py's), is the rules' pairing if a complete round-pairing makes its ceilings:
every other candidate's true values are at or below its optimistic ones.  That
round-pairing is the witness or one built with blossom matchings ([C9] above the last
bracket is taken at 0 too: that round-pairing must pair the one downfloater); when there
is none, or when the search runs out of steps, the model pairs the bracket
(modelled.py), which is always exact.  Brackets of more than `SolverSettings.direct_brackets` players go to the model
at once.

Nothing here is a second opinion: the tiers recorded are the model's, tier for tier,
and `tests/test_direct.py` pairs corpus and stress samples both ways.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from cpsat_pairing.domain.tournament import Colour
from cpsat_pairing.dutch.e2026.candidates import CandidateSearch, OutOfBudget
from cpsat_pairing.dutch.e2026.next_bracket import completion, next_ceilings
from cpsat_pairing.dutch.e2026.scoring import BracketFacts, order_tiers, quality_tiers, tier_specs
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
    """Score the bracket's candidates (candidates.py) and prove the best (next_bracket.py)."""
    specs = tier_specs(br)
    c8_levels = [s.next_level for s in specs if s.next_level is not None and s.next_level != -1]
    n = len(br.players)
    d = _fewest_floaters(br)
    if not br.next_group and d != n % 2:
        return None  # the last bracket leaves one player at most, with the PAB
    if d != 1:
        specs = [s for s in specs if not s.pab_below]  # [C9] applies with one downfloater only
    # Each tier's value is a digit of one integer, most significant first, so that
    # candidates compare as integers: the base exceeds any count the bracket and the
    # next scoregroup can make ([C8]'s, offset by `top` to stay positive) and any
    # PAB assignee's unplayed games ([C9]).
    top = n + len(br.next_group)
    radix = 2 * top + 2 + max(br.ps[p].unplayed for p in br.players)
    k = len(specs)
    weight = [radix ** (k - 1 - i) for i in range(k)]
    index = {p: i for i, p in enumerate(br.players)}
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
    players = br.players
    ceilings_of: dict[tuple[int, ...], dict[int, int]] = {}

    def float_value(D: tuple[int, ...]) -> int:
        value = sum(per_float[i] for i in D)
        if c8_at:
            ceilings = ceilings_of[D] = next_ceilings(br, c8_levels, [players[i] for i in D])
            value += sum((top - ceilings[u]) * w for u, w in c8_at)
        return value

    last = not br.next_group
    c12 = next(i for i, s in enumerate(specs) if s.criterion == "C12")
    wants = [_WISH[br.ps[p].pref_colour] for p in players]
    search = CandidateSearch(br.rows, [p in br.mdps for p in players],
                             [not last or p in br.rc.pab_allowed for p in players],
                             pair_value, float_value, br.budget, wants, weight[c12])
    try:
        least = search.least_value(d, _witness_value(br, d, pair_value, float_value))
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
    full = completion(br, pairs, floaters, ceilings)
    if full is not None and any(s.pab_below for s in specs) and br.ps[floaters[0]].unplayed:
        # [C9] is 0 only if the downfloater need not end with the PAB: the completion
        # must pair him.
        if not any(floaters[0] in pq for pq in full):
            full = None
    if full is None:
        STATS["direct_declined"] += 1
        return None
    tiers = quality_tiers(specs, pairs, floaters, ceilings) + order_tiers(br, pairs)
    return DirectResult(pairs, floaters, tiers, full)


def _fewest_floaters(br: BracketFacts) -> int:
    """The fewest players any pairing of the bracket leaves unpaired."""
    adj: list[list[int]] = [[] for _ in br.rows]
    for i, row in enumerate(br.rows):
        for j in row:
            adj[i].append(j)
            adj[j].append(i)
    return max_matching(adj).count(-1)


def _witness_value(br: BracketFacts, d: int, pair_value: dict[tuple[int, int], int],
                   float_value: Callable[[tuple[int, ...]], int]) -> int | None:
    """The value of the candidate the round's witness makes in the bracket (the file's
    own pairing under `check`, most often the answer), if it is one: a bound that cuts
    the least value's search from its start."""
    edges = br.witness_parts[0]
    paired = {i for e in edges for i in e}
    floating = tuple(i for i in range(len(br.players)) if i not in paired)
    if len(floating) != d or (not br.next_group and not all(br.players[i] in br.rc.pab_allowed for i in floating)):
        return None
    return float_value(floating) + sum(pair_value.get(e, 0) for e in edges)
