"""The 2013 edition's requirements (C.04.3.1, Istanbul 2012) as lexicographic tiers.

The legacy text is a procedure: pair with every requirement in force, and when no
candidate satisfies them, lower the requirements one step at a time (C.10 a-g), each
"only for the minimum number of pairs".  A requirement dropped later is more important
than one dropped earlier, so the outcome of the procedure is the candidate that is best
on these tiers, in this order (most important first):

    M1, P   pairs in the bracket (MDPs paired first, C.14 decreases M1 then P1)
    B.3     the score of the floaters (as few high-scoring floaters as possible)
    B.2     topscorer pairs with the same absolute colour preference   (dropped in C.10.g)
    A.7.d   odd rounds: strong preferences treated as absolute          (dropped in C.10.f)
    X       pairs not fulfilling all colour preferences                 (raised in C.10.e)
    Z       even rounds: pairs not fulfilling all strong preferences    (raised in C.10.e)
    B.5     downfloaters who downfloated in the previous round          (dropped in C.10.d)
    B.6     downfloaters who downfloated two rounds before              (dropped in C.10.c)
    B.5     upfloaters who upfloated in the previous round              (dropped in C.10.b)
    B.6     upfloaters who upfloated two rounds before                  (dropped in C.10.a)

and then the generation order (D.1-D.3, order.py).  In one shape of the penultimate
bracket (procedure.py, `_colours_with_lowest`) X and Z count the lowest bracket's pairs
too.  X starts at X1 and Z at Z1 (A.8):
those are lower bounds of the tiers, so minimising the count reaches the same pairing
as raising X from X1 one step at a time.

Colour preferences (A.7): in odd rounds a strong preference (only possible after an odd
number of unplayed rounds) is treated as absolute (A.7.d); in even rounds a mild
preference (again only after an odd number of unplayed rounds) is variable (A.7.e): it
counts for X as it is, but never for Z, since the player can take either colour.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

from ortools.sat.python import cp_model

from cpsat_pairing.domain.compat import Compatibility
from cpsat_pairing.domain.state import Float, PlayerState, PrefKind
from cpsat_pairing.domain.tournament import Colour
from cpsat_pairing.dutch.bracket import BracketModel, Pair
from cpsat_pairing.dutch.registry import criterion
from cpsat_pairing.formats.layout import points_text as points
from cpsat_pairing.solver.matching import max_matching
from cpsat_pairing.solver.terms import Term


def _levels(values: set[Fraction]) -> list[Fraction]:
    return sorted(values, reverse=True)


def _same_pref(a: PlayerState, b: PlayerState) -> bool:
    return a.pref_colour is not None and a.pref_colour == b.pref_colour


def _firm(a: PlayerState) -> bool:
    """A strong or absolute preference (never the variable/mild one)."""
    return a.pref_kind in (PrefKind.STRONG, PrefKind.ABSOLUTE)


@criterion("2013:M1")
def mdps_paired(bm: BracketModel) -> list[Term]:
    """C.14.b: M1, the number of MDPs paired, is decreased before P1."""
    if not bm.mdps:
        return []
    return [bm.term("M1", "MDPs not paired", ((1, bm.df[p]) for p in bm.bracket if p in bm.mdps))]


@criterion("2013:P")
def pairs(bm: BracketModel) -> list[Term]:
    """P: as many pairs as possible (P1 = P0, decreased only when nothing else works).

    The players paired inside the bracket come two by two, so an odd bracket leaves at
    least one unpaired: a bracket started paired inside but one (procedure.py) meets
    that bound, and P is fixed without a solve of the count model, which can take
    longer to prove it than the rest of the bracket's tiers together."""
    term = bm.term("P", "players not paired in the bracket", ((1, bm.df[p]) for p in bm.bracket))
    odd = len(bm.bracket) % 2
    term.least = lambda _: odd
    return [term]


@criterion("2013:B3")
def floater_scores(bm: BracketModel) -> list[Term]:
    """B.3 (and C.12 'same scores'): the floaters' scores, highest level first."""
    out = []
    for s in _levels({bm.score[p] for p in bm.bracket}):
        out.append(bm.term("B.3", f"floaters scoring {points(s)}", ((1, bm.df[p]) for p in bm.bracket if bm.score[p] == s)))
    return out


@criterion("2013:B3pairs")
def pair_score_differences(bm: BracketModel) -> list[Term]:
    """B.3: the score difference of two paired players as small as possible (matters in
    a bracket joined by C.13, where the residents have different scores, and for MDPs of
    different scores): the sum of the squared differences where the pairs can differ by
    more than one amount, else the number of pairs with that difference."""
    scores = sorted({bm.score[p] for p in bm.bracket})
    if len(scores) < 2:
        return []
    # Each score as its level's number: two integers compare where two Fractions
    # would subtract, once for each of a big bracket's pairs.
    level = {p: scores.index(bm.score[p]) for p in bm.bracket}
    by_sd: dict[Fraction, list[cp_model.IntVar]] = {}
    for (p, q), v in bm.bracket_pairs():
        a, b = level[p], level[q]
        if a != b:
            by_sd.setdefault(abs(scores[a] - scores[b]), []).append(v)
    if len(by_sd) > 1:
        return [_squared_differences(bm, by_sd)]
    return [bm.term("B.3", f"pairs with score difference {points(sd)}", ((1, v) for v in by_sd[sd]))
            for sd in _levels(set(by_sd))]


def _squared_differences(bm: BracketModel, by_sd: dict[Fraction, list[cp_model.IntVar]]) -> Term:
    """B.3's "as small as possible" over the bracket's pairs together, as the sum of their
    squared score differences: one tier, a tie left to the colour and float tiers and
    then the generation order.  The reference accepts a larger largest difference for a
    smaller sum of squares, and neither the plain sum nor the largest difference first
    reproduces it (docs/edition-2013.md, "Fifteenth pass").  In whole points squared
    times the scores' common denominator squared, so that the weights are integers."""
    unit = math.lcm(*(sd.denominator for sd in by_sd))
    return bm.term("B.3", "sum of squared score differences",
                   ((int(sd * unit) ** 2, v) for sd, vs in by_sd.items() for v in vs))


def penultimate(bm: BracketModel) -> bool:
    """Every player still to pair is in the bracket or the next scoregroup: the next
    scoregroup is the lowest bracket."""
    upper = bm.in_bracket | frozenset(bm.next_group)
    return all(p in upper for p in bm.remaining)


C13_BYE_NAME = "2013:C13bye"  # the criterion's name in the edition file


@criterion(C13_BYE_NAME)
def lowest_bye(bm: BracketModel) -> list[Term]:
    """C.13: the lowest bracket is paired with the bye on as low a score as it can
    have, backtracking into the penultimate bracket when that needs other floaters
    (C.13 goes back no further).

    Only in the penultimate and the lowest bracket: the bye's score, counted per
    score level from the highest.  (Within a level the bye is whoever the lowest
    bracket's own pairing leaves out, not the lowest-ranked player.)
    """
    if not bm.u or not penultimate(bm):
        return []
    levels = _levels({bm.score[p] for p in bm.u})
    return [
        bm.term("C.13", f"bye scoring {points(s)}", ((1, v) for p, v in bm.u.items() if bm.score[p] == s))
        for s in levels[:-1]
    ]


C12 = ("C.12", "floaters the next bracket can pair (backtracking)")
C12_NAME = "2013:C12"  # the criterion's name in the edition file

Options = dict[int, list[int | str]]  # a bracket player's possible partners below ("bye": the bye)


def backtracking_options(bm: BracketModel) -> Options | None:
    """C.12's question, player by player: whom of the next scoregroup (or the bye) each
    bracket player could meet if he floated; None when the tier is left out.

    In an odd round where nobody below the next scoregroup may have the bye, one
    floater who may have it needs no opponent (C.1: he is not incompatible).  When
    every bracket player has more compatible players in the next scoregroup than the
    bracket has players, every set of floaters can be matched: there is no tier."""
    return c12_options(bm.bracket, bm.next_group, bm.compatible, bm.remaining, bm.pab_allowed)


def c12_options(bracket: Sequence[int], next_group: Sequence[int], compatible: Compatibility,
                remaining: Sequence[int], pab_allowed: frozenset[int]) -> Options | None:
    """`backtracking_options` before any model of the bracket is made."""
    if not next_group:
        return None
    options: Options = {p: [q for q in next_group if compatible(p, q)] for p in bracket}
    upper = frozenset(bracket) | frozenset(next_group)
    if len(remaining) % 2 == 1 and not any(p in pab_allowed for p in remaining if p not in upper):
        for p in bracket:
            if p in pab_allowed:
                options[p].append("bye")
    if all(len(qs) >= len(bracket) for qs in options.values()):
        return None
    return options


def all_floaters_matched(options: Options, floaters: frozenset[int]) -> bool:
    """Can every one of `floaters` meet a different player of his options?  Then C.12
    is at its best: it counts at most the floaters, whose number P has fixed."""
    targets: dict[int | str, int] = {}
    adj: list[list[int]] = [[] for _ in floaters]
    for a, p in enumerate(floaters):
        for q in options[p]:
            b = targets.setdefault(q, len(floaters) + len(targets))
            adj[a].append(b)
    adj += [[] for _ in targets]
    for a, row in enumerate(adj[: len(floaters)]):
        for b in row:
            adj[b].append(a)
    mate = max_matching(adj)
    return all(m != -1 for m in mate[: len(floaters)])


def backtracking_term(bm: BracketModel, options: Options) -> Term:
    """C.12 in the model: an auxiliary matching `y` open to a bracket player only when
    he floats, as many of its pairs as possible."""
    m = bm.model
    y: list[cp_model.IntVar] = []
    per_resident: dict[int | str, list[cp_model.IntVar]] = {}  # the "bye" too
    for p, qs in options.items():
        mine = []
        for q in qs:
            v = m.new_bool_var(f"y_{p}_{q}")
            mine.append(v)
            per_resident.setdefault(q, []).append(v)
        if mine:
            m.add(sum(mine) <= bm.df[p])
        y += mine
    for vs in per_resident.values():
        m.add(sum(vs) <= 1)
    bm.solver.add_variables(y)
    return bm.term(*C12, ((-1, v) for v in y))


@criterion(C12_NAME)
def backtracking(bm: BracketModel) -> list[Term]:
    """C.12: when an MDP finds no opponent in the next bracket (C.1), the procedure
    goes back here for floaters of the same number and scores that let the next
    bracket pair its MDPs: as many of this bracket's floaters as possible paired with
    distinct players of the next scoregroup.

    Counted by B.1/B.2 only: whether the players further down can then be paired is
    C.13's business, later in the procedure.  The procedure decides it without the
    auxiliary matching when it can (procedure.py)."""
    options = backtracking_options(bm)
    return [] if options is None else [backtracking_term(bm, options)]


@criterion("2013:B2")
def topscorer_absolute(bm: BracketModel) -> list[Term]:
    """B.2 note: two players with the same absolute preference meet only for topscorers."""
    weighted = []
    for (p, q), v in bm.bracket_pairs():
        a, b = bm.state.players[p], bm.state.players[q]
        if _same_pref(a, b) and a.pref_kind is PrefKind.ABSOLUTE and b.pref_kind is PrefKind.ABSOLUTE:
            weighted.append((1, v))
    return [bm.term("B.2", "topscorer pairs with the same absolute preference (C.10.g)", weighted)]


@criterion("2013:A7d")
def strong_as_absolute(bm: BracketModel) -> list[Term]:
    """A.7.d: in odd rounds a strong preference is treated as absolute."""
    if bm.state.round % 2 == 0:
        return []
    weighted = []
    for (p, q), v in bm.bracket_pairs():
        a, b = bm.state.players[p], bm.state.players[q]
        if _same_pref(a, b) and _firm(a) and _firm(b) and PrefKind.STRONG in (a.pref_kind, b.pref_kind):
            weighted.append((1, v))
    return [bm.term("A.7.d", "strong preferences treated as absolute (C.10.f)", weighted)]


def _colour_pairs(bm: BracketModel) -> list[tuple[Pair, cp_model.IntVar]]:
    """The pairs X and Z count: the bracket's, and where C.13 weighs them
    (`BracketModel.colours_below`), the lowest bracket's too: then every pair of the
    model, which holds every remaining player."""
    return list(bm.x.items()) if bm.colours_below else bm.bracket_pairs()


def _where(bm: BracketModel) -> str:
    """The tier's article, and where it counts: `check` and `explain` name both."""
    return ", here and in the lowest bracket (C.10.e, C.13)" if bm.colours_below else " (C.10.e)"


@criterion("2013:X")
def colour_x(bm: BracketModel) -> list[Term]:
    """X: pairs that cannot fulfil both colour preferences."""
    weighted = []
    for (p, q), v in _colour_pairs(bm):
        if _same_pref(bm.state.players[p], bm.state.players[q]):
            weighted.append((1, v))
    term = bm.term("X", "pairs not fulfilling all colour preferences" + _where(bm), weighted)
    term.same_colour = True  # the pairs of 2026's [C12]: a near model's certificate reasons with them
    return [term]


@criterion("2013:Z")
def colour_z(bm: BracketModel) -> list[Term]:
    """Z (even rounds): pairs that cannot fulfil both strong preferences."""
    if bm.state.round % 2 == 1:
        return []
    weighted = []
    for (p, q), v in _colour_pairs(bm):
        a, b = bm.state.players[p], bm.state.players[q]
        if _same_pref(a, b) and _firm(a) and _firm(b):
            weighted.append((1, v))
    return [bm.term("Z", "pairs not fulfilling all strong colour preferences" + _where(bm), weighted)]


def variable(ps: PlayerState, rnd: int) -> bool:
    """A.7.e: in even rounds a mild preference (an odd number of unplayed rounds) is variable."""
    return rnd % 2 == 0 and ps.pref_kind is PrefKind.MILD


def x1_z1(players: list[PlayerState], rnd: int) -> tuple[int, int]:
    """A.8: X1 (and Z1, used in even rounds) of a bracket, from its players' preferences.

    W/B prefer White/Black, w/b (even rounds only) have a variable preference for
    White/Black, a have no preference (no game yet).
    """
    p0 = len(players) // 2
    W = B = w = b = a = 0
    for ps in players:
        if ps.pref_colour is None:
            a += 1
        elif variable(ps, rnd):
            if ps.pref_colour is Colour.WHITE:
                w += 1
            else:
                b += 1
        elif ps.pref_colour is Colour.WHITE:
            W += 1
        else:
            B += 1
    x1 = p0 - W - w - a if B + b > W + w else p0 - B - b - a
    z1 = p0 - W - b - w - a if B > W else p0 - B - b - w - a
    return max(0, x1), max(0, z1)


def floated_before(bm: BracketModel, ago: int) -> list[int]:
    """The players B.5 (`ago` 1) or B.6 (2) for downfloaters (C.3.e-f) counts when they
    move down: the bracket's own players who received a downfloat `ago` rounds before.

    A player moved down from a higher bracket already floats this round; his float was
    weighed there, where he was chosen to move.  Leaving him unpaired again (even in a
    bracket treated as homogeneous by A.3, or as the bye) adds no second downfloat, so
    only players of the bracket's own score count (as JaVaFo 1.4 reads it;
    docs/edition-2013.md names the replayed rounds that decided it)."""
    level = min(bm.score[p] for p in bm.bracket)
    return [p for p in bm.bracket if bm.score[p] == level and bm.state.players[p].float_in(ago) is Float.DOWN]


def downfloater_term(bm: BracketModel, ago: int, players: list[int]) -> Term:
    """B.5 (`ago` 1) or B.6 (2) for downfloaters counted over `players`."""
    name, detail = DOWNFLOATS[ago]
    return bm.term(name, detail, ((1, bm.df[p]) for p in players))


def _upfloaters(bm: BracketModel, ago: int, criterion: str, detail: str) -> list[Term]:
    """C.3.g-h set B.5/B.6 for upfloaters only in a heterogeneous bracket (not in one
    treated as homogeneous, A.3): the players paired with a higher-scored MDP.  In the
    bracket C.13 joins at the bottom, residents of several scores meet in its remainder
    too; those pairs are paired as homogeneous and weigh no upfloat (as JaVaFo 1.4
    reads it; docs/edition-2013.md, "Eighth pass")."""
    if not bm.mdps:
        return []
    weighted = []
    for (p, q), v in bm.mdp_pairs():
        if bm.score[p] == bm.score[q]:
            continue
        lo = q if bm.score[p] > bm.score[q] else p
        if bm.state.players[lo].float_in(ago) is Float.UP:
            weighted.append((1, v))
    return [bm.term(criterion, detail, weighted)]


DOWNFLOATS = {
    1: ("B.5", "downfloaters with a downfloat in the previous round (C.10.d)"),
    2: ("B.6", "downfloaters with a downfloat two rounds before (C.10.c)"),
}


@criterion("2013:B5down")
def b5_down(bm: BracketModel) -> list[Term]:
    return [downfloater_term(bm, 1, floated_before(bm, 1))]


@criterion("2013:B6down")
def b6_down(bm: BracketModel) -> list[Term]:
    return [downfloater_term(bm, 2, floated_before(bm, 2))]


@criterion("2013:B5up")
def b5_up(bm: BracketModel) -> list[Term]:
    return _upfloaters(bm, 1, "B.5", "upfloaters with an upfloat in the previous round (C.10.b)")


@criterion("2013:B6up")
def b6_up(bm: BracketModel) -> list[Term]:
    return _upfloaters(bm, 2, "B.6", "upfloaters with an upfloat two rounds before (C.10.a)")
