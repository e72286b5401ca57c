"""Quality criteria of the 2026 rules (Art. 2.4) as lexicographic terms.

Each criterion is a small function returning the terms it contributes over a bracket
model, highest priority first, registered under the name `models/dutch-2026.toml`
lists it by.  The colour criteria are written over `PairModel` (any edition's model):
the 2017 edition uses them as C.8-C.11.  A term's `least` is a bound the rules prove
for it once the tiers before it are fixed: an incumbent that meets it is optimal, and
the tier is fixed without a solve (tests/test_shortcuts.py pairs with and without).
A bound reaches its term and the model by weak reference: the term holds the bound,
and a strong one back would leave every term of every bracket in a reference cycle,
freed only by the garbage collector's passes.
"""

from __future__ import annotations

import functools
import weakref
from fractions import Fraction
from typing import TYPE_CHECKING

from cpsat_pairing.domain.state import Float, PlayerState, PrefKind
from cpsat_pairing.domain.tournament import Colour
from cpsat_pairing.dutch.registry import criterion
from cpsat_pairing.formats.layout import points_text as points
from cpsat_pairing.solver.matching import LazyAdjacency, greedy_mate, max_matching

if TYPE_CHECKING:  # the criteria are registered without OR-Tools; their models import it
    from ortools.sat.python import cp_model

    from cpsat_pairing.dutch.bracket import BracketModel
    from cpsat_pairing.dutch.model import PairModel
    from cpsat_pairing.solver.lex import LexSolver
    from cpsat_pairing.solver.terms import Term


def _levels(values: set[Fraction]) -> list[Fraction]:
    return sorted(values, reverse=True)


@criterion("C6")
def fewest_downfloaters(bm: BracketModel) -> list[Term]:
    """[C6] minimise the number of downfloaters (maximise pairs in the bracket).

    The players paired inside the bracket come two by two, and only pairs [C1]-[C3]
    allow: at least as many float as a maximum matching of the bracket's players leaves
    out (`_unmatched`), one of an odd bracket at the least.  An incumbent at that
    count is optimal without a solve.  Not on a near model, whose far pairs are counts
    (dutch/near.py).
    """
    term = bm.term("C6", "downfloaters", ((1, bm.df[p]) for p in bm.bracket))
    if bm.far is None:
        term.least = functools.partial(_unmatched, weakref.proxy(bm), weakref.proxy(term), {})
    return [term]


def _unmatched(bm: BracketModel, term: Term, known: dict[str, int], solver: LexSolver) -> int:
    """The bracket's players a maximum matching of it leaves out (by parity first: the
    incumbent at that count needs no matching); computed once, in `known`.  The rows of
    the compatibility graph are listed as the search from the greedy start reaches them."""
    odd = len(bm.bracket) % 2
    if solver.value(term) == odd:
        return odd
    if "unmatched" not in known:
        players, excluded = bm.bracket, bm.compatible.excluded
        adj = LazyAdjacency(len(players), lambda i: [j for j, q in enumerate(players) if q not in excluded(players[i])])
        known["unmatched"] = max_matching(adj, greedy_mate(players, excluded)).count(-1)
    return known["unmatched"]


@criterion("C7")
def downfloater_scores(bm: BracketModel) -> list[Term]:
    """[C7] minimise downfloater scores taken in descending order.

    With the number of downfloaters fixed by [C6], comparing the sorted score lists is
    comparing the count at the highest score level first, then the next, ...  Each
    level's count is at least what [C6] and the levels above leave for it beyond the
    players below it (`_floated_at_least`): at the lowest level that is all of it, so
    the last tier is settled without a solve.
    """
    by_level = _by_level(bm, bm.bracket)
    levels = sorted(by_level, reverse=True)
    out = [bm.term("C7", f"downfloaters scoring {points(bm.level_score[u])}", ((1, bm.df[p]) for p in by_level[u]))
           for u in levels]
    if bm.far is None:
        below = len(bm.bracket)
        for i, term in enumerate(out):
            below -= len(by_level[levels[i]])
            term.least = functools.partial(_floated_at_least, weakref.proxy(term), out[:i], below)
    return out


def _by_level(bm: BracketModel, players: list[int]) -> dict[int, list[int]]:
    """`players` by their score (in whole units), each level's in their order."""
    units = bm.units
    out: dict[int, list[int]] = {}
    for p in players:
        out.setdefault(units[p], []).append(p)
    return out


def _fixed(solver: LexSolver, terms: list[Term]) -> list[int] | None:
    """The values at which `terms` are fixed, or None if one is not fixed yet (a term
    packed into the same solve as the one asking)."""
    values = [solver.fixed_value(t) for t in terms]
    return [v for v in values if v is not None] if None not in values else None


def _settled(solver: LexSolver, criterion: str, detail: str) -> int | None:
    """The value at which the bracket's tier `criterion` `detail` was fixed, or None
    before it is fixed."""
    return next((t.value for t in solver.trace if t.criterion == criterion and t.detail == detail), None)


def _downfloaters(solver: LexSolver) -> int | None:
    """The number of downfloaters [C6] fixed, or None before it is fixed."""
    return _settled(solver, "C6", "downfloaters")


def _floated_at_least(term: Term, above: list[Term], below: int, solver: LexSolver) -> int:
    """A [C7] level's least count: the downfloaters [C6] fixed, less those the levels
    above hold, less the players below it, who can take the rest (the term's own floor
    until [C6] and the levels above are fixed)."""
    d, fixed = _downfloaters(solver), _fixed(solver, above)
    if d is None or fixed is None:
        return term.bounds()[0]
    return max(0, d - sum(fixed) - below)


@criterion("C8")
def next_bracket(bm: BracketModel) -> list[Term]:
    """[C8] choose downfloaters so the following bracket best meets [C6] and [C7].

    The following bracket is this bracket's downfloaters plus the next scoregroup.  Its
    pairs are those whose lower player is a next-scoregroup resident; as for [C6]/[C7],
    maximise their number, then their number per score level of the higher player,
    highest level first.

    Each count has a ceiling the incumbent often reaches, which settles the tier without
    a solve (`_next_pairs_at_most`): every pair holds a resident of the next scoregroup
    and two of the following bracket's players; a level above the next scoregroup's
    leads pairs with its own downfloaters only, each once, and the lowest level holds
    what the total and the levels above leave.
    """
    if not bm.next_group:
        return []
    by_level = bm.next_bracket_pairs()
    out = [bm.term("C8", "next-bracket pairs", ((-1, v) for vs in by_level.values() for v in vs))]
    levels = _levels(set(by_level))
    for s in levels:
        out.append(bm.term("C8", f"next-bracket pairs led by score {points(s)}", ((-1, v) for v in by_level[s])))
    if bm.far is None:
        ng = len(bm.next_group)
        for i, term in enumerate(out):
            at_level = f"downfloaters scoring {points(levels[i - 1])}" if 0 < i < len(out) - 1 else None
            term.least = functools.partial(_next_pairs_at_most, weakref.proxy(term), ng, at_level, out[:i])
    return out


def _next_pairs_at_most(term: Term, ng: int, at_level: str | None, before: list[Term], solver: LexSolver) -> int:
    """Minus a ceiling on a [C8] count, given the tiers `before` it: the total (none
    before) is at most the next scoregroup's residents and half the following bracket;
    a level of downfloaters (`at_level`: its [C7] tier) at most its downfloaters, the
    residents the levels above left and what the total left; the last level exactly
    what the total and the levels above leave.  The term's own floor until [C6], [C7]
    and the tiers before it are fixed."""
    d, fixed = _downfloaters(solver), _fixed(solver, before)
    if d is None or fixed is None:
        return term.bounds()[0]
    if not before:
        return -min(ng, (d + ng) // 2)
    total, *above = (-v for v in fixed)
    if at_level is None:
        return -(total - sum(above))
    floated = _settled(solver, "C7", at_level)
    if floated is None:
        return term.bounds()[0]
    return -min(floated, ng - sum(above), total - sum(above))


@criterion("C9")
def pab_unplayed(bm: BracketModel) -> list[Term]:
    """[C9] minimise the unplayed games of the PAB assignee.

    Only in the bracket that holds the PAB assignee and floats nobody else (Art. 2.4.4
    note): the condition is checked on the [C6] optimum, which precedes this tier.
    Where only the bracket's players may have the PAB, an incumbent giving it to one
    with the fewest unplayed games among them is optimal without a solve.
    """
    if not bm.u or bm.pab_score is None or bm.pab_score < bm.score[bm.bracket[-1]]:
        return []
    term = bm.term("C9", "PAB assignee's unplayed games",
        ((bm.state.players[p].unplayed, bm.u[p]) for p in bm.bracket if p in bm.u),
    )
    df = list(bm.df.values())
    term.active = lambda solver: sum(solver.var_value(v) for v in df) == 1
    if bm.far is None and not bm.lower and all(p in bm.in_bracket for p in bm.u):
        # Every player is modelled and only the bracket's may have the PAB: one of them
        # has it, so it costs at least the fewest unplayed games among them.
        fewest = min(bm.state.players[p].unplayed for p in bm.u)
        term.least = lambda _: fewest
    return [term]


def _same_absolute(a: PlayerState, b: PlayerState) -> bool:
    return a.pref_kind is PrefKind.ABSOLUTE and b.pref_kind is PrefKind.ABSOLUTE and a.pref_colour == b.pref_colour


def _repeated(ps: PlayerState) -> Colour | None:
    """The colour of the last two games when they were the same."""
    cs = ps.colours
    return cs[-1] if len(cs) >= 2 and cs[-1] == cs[-2] else None


@criterion("C10")
def topscorer_colour_difference(bm: PairModel) -> list[Term]:
    """[C10] minimise topscorers (or opponents) whose colour difference goes beyond ±2.

    Two players with the same absolute preference can meet only when one is a
    topscorer ([C3]); when both have |CD| > 1, one of them ends beyond ±2.
    """
    weighted = []
    for (p, q), v in _same_absolute_pairs(bm):
        a, b = bm.state.players[p], bm.state.players[q]
        if abs(a.cd) > 1 and abs(b.cd) > 1:
            weighted.append((1, v))
    return [bm.term("C10", "topscorer |CD|>2", weighted)]


def _same_absolute_pairs(bm: PairModel) -> list[tuple[tuple[int, int], cp_model.IntVar]]:
    """The bracket's pairs of two players with the same absolute preference.  [C3]
    allows them only with a topscorer: without one in the bracket there are none (and
    the millions of pairs of a big bracket need no look)."""
    players = bm.state.players
    if not any(players[p].topscorer for p in bm.bracket):
        return []
    return [(k, v) for k, v in bm.bracket_pairs() if _same_absolute(players[k[0]], players[k[1]])]


@criterion("C11")
def topscorer_three_in_a_row(bm: PairModel) -> list[Term]:
    """[C11] minimise topscorers (or opponents) getting the same colour three times running.

    The player denied his absolute preference is the one with the smaller |CD|
    (Art. 5.2.2); with equal |CD| either may be, and a violation is certain only when
    both have just had the same colour twice.
    """
    weighted = []
    for (p, q), v in _same_absolute_pairs(bm):
        a, b = bm.state.players[p], bm.state.players[q]
        assert a.pref_colour is not None
        ra, rb = _repeated(a), _repeated(b)
        if abs(a.cd) == abs(b.cd):
            bad = ra is not None and ra == rb
        else:
            loser = a if abs(a.cd) < abs(b.cd) else b
            bad = _repeated(loser) == a.pref_colour.opposite
        if bad:
            weighted.append((1, v))
    return [bm.term("C11", "topscorer same colour 3x", weighted)]


@criterion("C12")
def colour_preferences(bm: PairModel) -> list[Term]:
    """[C12] minimise players who do not get their colour preference."""
    pref = {p: bm.state.players[p].pref_colour for p in bm.bracket}
    weighted = [(1, v) for (p, q), v in bm.bracket_pairs() if pref[p] is not None and pref[p] == pref[q]]
    term = bm.term("C12", "unmet colour preferences", weighted)
    term.same_colour = True
    if bm.far is None:
        wants = [sum(1 for c in pref.values() if c is colour) for colour in (Colour.WHITE, Colour.BLACK)]
        term.least = functools.partial(_unmet_at_least, weakref.proxy(term), len(bm.bracket), wants)
    return [term]


def _unmet_at_least(term: Term, n: int, wants: list[int], solver: LexSolver) -> int:
    """[C12]'s least once [C6] fixed the number of downfloaters (the term's own floor
    before, or in an edition without [C6])."""
    d = _downfloaters(solver)
    return term.bounds()[0] if d is None else fewest_same_preference(n, wants, d)


def fewest_same_preference(n: int, wants: list[int], floaters: int) -> int:
    """The fewest pairs of two players wanting the same colour when `floaters` of `n`
    players float and the rest pair, `wants[c]` of them wanting colour c, whoever may
    meet whom: of the k pairs' players at least max(w - floaters, 2k - (n - w)) want
    c, and at most 2k - w of them meet someone who does not."""
    k = (n - floaters) // 2
    return sum(max(0, max(w - floaters, 2 * k - (n - w)) - k) for w in wants)


@criterion("C13")
def strong_colour_preferences(bm: PairModel) -> list[Term]:
    """[C13] minimise players who do not get their strong colour preference."""
    # A pair counts when both strongly prefer the same colour and not both absolutely:
    # by player, the preferred colour if strong or absolute (else None) and whether absolute.
    players = bm.state.players
    strong = {
        p: (players[p].pref_colour if players[p].pref_kind in (PrefKind.STRONG, PrefKind.ABSOLUTE) else None)
        for p in bm.bracket
    }
    absolute = {p: players[p].pref_kind is PrefKind.ABSOLUTE for p in bm.bracket}
    weighted = [
        (1, v)
        for (p, q), v in bm.bracket_pairs()
        if strong[p] is not None and strong[p] == strong[q] and not (absolute[p] and absolute[q])
    ]
    return [bm.term("C13", "unmet strong preferences", weighted)]


def _resident_downfloaters(bm: BracketModel, ago: int, criterion: str, detail: str) -> list[Term]:
    """The residents who float again after a downfloat `ago` rounds back: at least as
    many as float beyond those without one, once [C7] fixed how many residents float
    (`_floated_again`)."""
    weighted = []
    for p in bm.residents:
        if bm.state.players[p].float_in(ago) is Float.DOWN:
            weighted.append((1, bm.df[p]))
    term = bm.term(criterion, detail, weighted)
    if bm.far is None and weighted and bm.residents:
        level = f"downfloaters scoring {points(bm.score[bm.residents[0]])}"
        term.least = functools.partial(_floated_again, weakref.proxy(term), level, len(bm.residents) - len(weighted))
    return [term]


def _floated_again(term: Term, level: str, fresh: int, solver: LexSolver) -> int:
    """The residents [C7] floats (its tier at the residents' score) beyond the `fresh`
    ones, who have no such downfloat; the term's own floor before [C7] is fixed."""
    floated = _settled(solver, "C7", level)
    return term.bounds()[0] if floated is None else max(0, floated - fresh)


def _upfloaters(bm: BracketModel, ago: int, criterion: str, detail: str) -> list[Term]:
    weighted = []
    units = bm.units
    for (p, q), v in bm.mdp_pairs():
        lo = q if units[p] > units[q] else p if units[q] > units[p] else None
        if lo is not None and bm.state.players[lo].float_in(ago) is Float.UP:
            weighted.append((1, v))
    return [bm.term(criterion, detail, weighted)]


@criterion("C14")
def repeated_downfloat_1(bm: BracketModel) -> list[Term]:
    """[C14] minimise resident downfloaters who downfloated in the previous round."""
    return _resident_downfloaters(bm, 1, "C14", "downfloaters with downfloat R-1")


@criterion("C15")
def repeated_upfloat_1(bm: BracketModel) -> list[Term]:
    """[C15] minimise MDP opponents who upfloated in the previous round."""
    return _upfloaters(bm, 1, "C15", "MDP opponents with upfloat R-1")


@criterion("C16")
def repeated_downfloat_2(bm: BracketModel) -> list[Term]:
    """[C16] as [C14], for a downfloat two rounds before."""
    return _resident_downfloaters(bm, 2, "C16", "downfloaters with downfloat R-2")


@criterion("C17")
def repeated_upfloat_2(bm: BracketModel) -> list[Term]:
    """[C17] as [C15], for an upfloat two rounds before."""
    return _upfloaters(bm, 2, "C17", "MDP opponents with upfloat R-2")


def _repeated_floaters_by_level(bm: BracketModel, ago: int, criterion: str, detail: str) -> list[Term]:
    """Per score level, highest first: bracket players with a downfloat `ago` rounds
    back who float again (an MDP's repeated float weighs more than any resident's)."""
    players = bm.state.players
    by_level = _by_level(bm, [p for p in bm.bracket if players[p].float_in(ago) is Float.DOWN])
    return [bm.term(criterion, f"{detail} at score {points(bm.level_score[u])}", ((1, bm.df[p]) for p in by_level[u]))
            for u in sorted(by_level, reverse=True)]


def _upfloat_pairs_by_level(bm: BracketModel, ago: int, criterion: str, detail: str) -> list[Term]:
    """Per MDP score level, highest first (the larger score difference first): pairs
    whose resident upfloated `ago` rounds back."""
    units = bm.units
    by_level: dict[int, list[cp_model.IntVar]] = {}
    for (p, q), v in bm.mdp_pairs():
        if units[p] == units[q]:
            continue
        hi, lo = (p, q) if units[p] > units[q] else (q, p)
        if bm.state.players[lo].float_in(ago) is Float.UP:
            by_level.setdefault(units[hi], []).append(v)
    return [bm.term(criterion, f"{detail} at MDP score {points(bm.level_score[u])}", ((1, v) for v in by_level[u]))
            for u in sorted(by_level, reverse=True)]


@criterion("C18")
def repeated_downfloat_sd_1(bm: BracketModel) -> list[Term]:
    """[C18] minimise score differences of MDPs who downfloated in the previous round."""
    return _repeated_floaters_by_level(bm, 1, "C18", "repeated downfloaters (R-1)")


@criterion("C19")
def repeated_upfloat_sd_1(bm: BracketModel) -> list[Term]:
    """[C19] minimise score differences of MDP opponents who upfloated in the previous round."""
    return _upfloat_pairs_by_level(bm, 1, "C19", "MDP opponents with upfloat R-1")


@criterion("C20")
def repeated_downfloat_sd_2(bm: BracketModel) -> list[Term]:
    """[C20] as [C18], two rounds before."""
    return _repeated_floaters_by_level(bm, 2, "C20", "repeated downfloaters (R-2)")


@criterion("C21")
def repeated_upfloat_sd_2(bm: BracketModel) -> list[Term]:
    """[C21] as [C19], two rounds before."""
    return _upfloat_pairs_by_level(bm, 2, "C21", "MDP opponents with upfloat R-2")
