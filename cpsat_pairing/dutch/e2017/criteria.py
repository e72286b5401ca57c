"""Quality criteria of the 2017 rules (C.04.3 2017, Section C) as lexicographic terms.

Each function returns the terms of one criterion over a `BracketModel2017`, highest
priority first; `models/dutch-2017.toml` lists them by their 2017 names.

Score differences (A.8): a pair's SD is the difference of its players' scores; a
downfloater's SD is his score minus (the lowest score of the model - 1 point).  A list
of SDs sorted from the highest down and compared lexicographically is the same order as
comparing, from the highest SD value down, how many SDs have that value (the lists of
two candidates are equally long once [C.5] has fixed the number of pairs): that is how
every SD criterion is written below, one term per SD value.
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable
from fractions import Fraction

from ortools.sat.python import cp_model

from cpsat_pairing.domain.state import Float
from cpsat_pairing.dutch.e2017.bracket import BracketModel2017
from cpsat_pairing.dutch.e2026 import criteria as c2026
from cpsat_pairing.dutch.registry import criterion
from cpsat_pairing.formats.layout import points_text as points
from cpsat_pairing.solver.lex import LexSolver
from cpsat_pairing.solver.terms import Term


def _by_value(
    bm: BracketModel2017, criterion: str, detail: str, items: list[tuple[int, int, cp_model.IntVar]], sign: int = 1
) -> list[Term]:
    """One term per SD value (in the model's `unit`s), highest first: sum of coef * var
    over the items of that value."""
    levels: dict[int, list[tuple[int, cp_model.IntVar]]] = {}
    for value, coef, var in items:
        levels.setdefault(value, []).append((sign * coef, var))
    return [bm.term(criterion, f"{detail} {points(Fraction(v, bm.unit))}", levels[v]) for v in sorted(levels, reverse=True)]


def _renamed(terms: list[Term], criterion: str) -> list[Term]:
    """A 2026 criterion's terms under the 2017 name of the same criterion."""
    for t in terms:
        t.criterion = criterion
    return terms


def _per_player(fn: Callable[[BracketModel2017], list[Term]]) -> Callable[[BracketModel2017], list[Term]]:
    """A criterion whose terms weigh a pair of two residents by what each of them
    brings (`Term.per_player`): every criterion but the colour ones."""

    @functools.wraps(fn)
    def marked(bm: BracketModel2017) -> list[Term]:
        terms = fn(bm)
        for t in terms:
            t.per_player = True
        return terms

    return marked


@criterion("C.4")
@_per_player
def completion(bm: BracketModel2017) -> list[Term]:
    """[C.4] (special brackets) complete the round: most pairs, and the one player left
    unpaired allowed the PAB ([C.2]).  A constraint of the model whenever the complete
    round-pairing exists in it; a tier only in the rare bracket where it does not."""
    if not bm.special or not bm.soft_completion:
        return []
    inel = {p: int(p not in bm.pab_allowed) for p in bm.players}
    return [bm.term("C.4", "completion", ((-(1 + inel[p] + inel[q]), v) for (p, q), v in bm.x.items()))]


@criterion("C.5")
@_per_player
def most_pairs(bm: BracketModel2017) -> list[Term]:
    """[C.5] maximise the number of pairs (minimise the bracket's downfloaters)."""
    term = bm.term("C.5", "downfloaters", ((1, bm.df[p]) for p in bm.bracket))
    me = weakref.proxy(bm)  # a bound kept by the solver must not keep the model alive
    term.least = lambda _: me.fewest_downfloaters()
    return [term]


@criterion("C.6")
@_per_player
def psd(bm: BracketModel2017) -> list[Term]:
    """[C.6] minimise the PSD (A.8): the SDs of the pairs and of the downfloaters."""
    items: list[tuple[int, int, cp_model.IntVar]] = []
    for (p, q), v in bm.bracket_pairs():
        items.append((bm.sd_pair(p, q), 1, v))
    for p in bm.bracket:
        items.append((bm.sd_floater(p), 1, bm.df[p]))
    terms = _by_value(bm, "C.6", "PSD: SDs of", items)
    # Every pair and every downfloater has one SD: once [C.5] has fixed the k
    # downfloaters, there are (bracket - k) / 2 pairs and k downfloaters.  With the
    # counts above an SD fixed, the count at it is at least what is left over once the
    # values below it have taken all they can: every pair, if some pair has a lower SD,
    # and the downfloaters whose SD is lower (at most k).
    levels = sorted({sd for sd, _, _ in items}, reverse=True)
    pair_sds = [bm.sd_pair(p, q) for (p, q), _ in bm.bracket_pairs()]
    lowest_pair = min(pair_sds) if pair_sds else None
    floater_sds = sorted(bm.sd_floater(p) for p in bm.bracket)
    for i, (value, term) in enumerate(zip(levels, terms)):
        term.least = functools.partial(_psd_least, weakref.proxy(bm), terms[:i], value, lowest_pair, floater_sds)
    return terms


def _psd_least(bm: BracketModel2017, higher: list[Term], value: int, lowest_pair: int | None,
               floater_sds: list[int], solver: LexSolver) -> int:
    """[C.6]'s bound at one SD (see `psd`)."""
    k = sum(solver.var_value(bm.df[p]) for p in bm.bracket)
    pairs = (len(bm.bracket) - k) // 2
    below = (pairs if lowest_pair is not None and lowest_pair < value else 0)
    below += min(k, sum(1 for sd in floater_sds if sd < value))
    return max(0, pairs + k - sum(solver.value(t) for t in higher) - below)


@criterion("C.7")
@_per_player
def next_bracket(bm: BracketModel2017) -> list[Term]:
    """[C.7] (not in the PPB nor the CLB) choose the downfloaters so that the following
    bracket has the most pairs, then the smallest PSD.

    The following bracket is this bracket's downfloaters plus the next scoregroup.  Its
    pairs are the model's pairs not made inside this bracket.  When it is the last
    bracket, its pairing completes the round: every pair of the model counts, and so does
    each player not allowed the PAB that gets paired.  Its PSD is, from the highest SD
    down, the number of this bracket's players (whose SDs are the highest there) left
    without a partner in the model.
    """
    if bm.special:
        return []
    if bm.final:
        inel = {p: int(p not in bm.pab_allowed) for p in bm.players}
        pairs = bm.term("C.7", "next-bracket pairs (round completion)",
            ((-(1 + inel[p] + inel[q]), v) for (p, q), v in bm.x.items()),
        )
    else:
        pairs = bm.term("C.7", "next-bracket pairs", ((-1, v) for (p, q), v in bm.x.items() if not bm.inside(p, q)))
    me = weakref.proxy(bm)
    pairs.least = lambda solver: -_most_pairs_below(me, solver)
    items: list[tuple[int, int, cp_model.IntVar]] = []
    for (p, q), v in bm.x.items():
        for r in (p, q):
            if r in bm.in_bracket:
                items.append((bm.sd_floater(r), 1, v))
    psd = _by_value(bm, "C.7", "next-bracket PSD: paired downfloaters with SD", items, sign=-1)
    # At best every bracket player of an SD is paired.
    with_sd: dict[int, int] = {}
    for r in bm.bracket:
        if bm.adj[r]:
            with_sd[bm.sd_floater(r)] = with_sd.get(bm.sd_floater(r), 0) + 1
    for value, term in zip(sorted({sd for sd, _, _ in items}, reverse=True), psd):
        term.least = lambda _, n=-with_sd[value]: n
    return [pairs] + psd


def _most_pairs_below(bm: BracketModel2017, solver: LexSolver) -> int:
    """[C.7]'s bound on the next bracket's pairs once [C.5] has fixed the number of
    downfloaters k: at most (k + |next scoregroup|) // 2 pairs; when it completes the
    round, the bracket's own pairs too, and at best every player not allowed the PAB
    paired."""
    k = sum(solver.var_value(bm.df[p]) for p in bm.bracket)
    below = (k + len(bm.lower)) // 2
    if not bm.final:
        return below
    inel = sum(1 for p in bm.players if p not in bm.pab_allowed)
    return (len(bm.bracket) - k) // 2 + below + inel


@criterion("C.8")
def topscorer_cd(bm: BracketModel2017) -> list[Term]:
    """[C.8] minimise topscorers (or opponents) getting a colour difference beyond ±2."""
    return _renamed(c2026.topscorer_colour_difference(bm), "C.8")


@criterion("C.9")
def topscorer_three(bm: BracketModel2017) -> list[Term]:
    """[C.9] minimise topscorers (or opponents) getting the same colour three times running."""
    return _renamed(c2026.topscorer_three_in_a_row(bm), "C.9")


@criterion("C.10")
def colour_preferences(bm: BracketModel2017) -> list[Term]:
    """[C.10] minimise players who do not get their colour preference."""
    return _renamed(c2026.colour_preferences(bm), "C.10")


@criterion("C.11")
def strong_preferences(bm: BracketModel2017) -> list[Term]:
    """[C.11] minimise players who do not get their strong colour preference."""
    return _renamed(c2026.strong_colour_preferences(bm), "C.11")


def _floated(bm: BracketModel2017, ago: int, how: Float) -> frozenset[int]:
    """The bracket players who got that float `ago` rounds before (a pair's criteria
    look only at those: the loops below skip every other pair)."""
    return frozenset(p for p in bm.bracket if bm.state.players[p].float_in(ago) is how)


# In the loops below a pair (h, lo) of `bracket_pairs` has h first in the ranking
# order (its variables are made in that order): h is its higher player.


def _same_downfloat(bm: BracketModel2017, ago: int, criterion: str, detail: str) -> list[Term]:
    """Players who would get a downfloat again, `ago` rounds on.

    MDPs downfloat whatever happens (they came down), so only the residents are
    counted: maximise the residents with that downfloat who are paired in the bracket.
    A resident is the lower player of his pair, or its higher player on equal scores.
    """
    down, points = _floated(bm, ago, Float.DOWN), bm.points
    weighted = []
    for (h, lo), v in bm.bracket_pairs():
        if h in down or lo in down:
            c = int(lo in down) + int(h in down and points[h] <= points[lo])
            weighted.append((-c, v))
    return [bm.term(criterion, detail, weighted)]


def _same_upfloat(bm: BracketModel2017, ago: int, criterion: str, detail: str) -> list[Term]:
    """Residents paired with an MDP (an upfloat) who got an upfloat `ago` rounds before."""
    up, points = _floated(bm, ago, Float.UP), bm.points
    weighted = [(1, v) for (h, lo), v in bm.bracket_pairs() if lo in up and points[h] > points[lo]]
    return [bm.term(criterion, detail, weighted)]


def _same_downfloat_sd(bm: BracketModel2017, ago: int, criterion: str, detail: str) -> list[Term]:
    """SDs of players getting the same downfloat as `ago` rounds before: a downfloater's
    own SD, or the SD of the pair of an MDP who is paired in the bracket."""
    down, points = _floated(bm, ago, Float.DOWN), bm.points
    items: list[tuple[int, int, cp_model.IntVar]] = [(bm.sd_floater(p), 1, bm.df[p]) for p in bm.bracket if p in down]
    for (h, lo), v in bm.bracket_pairs():
        if h in down and points[h] > points[lo]:
            items.append((bm.sd_pair(h, lo), 1, v))
    return _by_value(bm, criterion, detail, items)


def _same_upfloat_sd(bm: BracketModel2017, ago: int, criterion: str, detail: str) -> list[Term]:
    """SDs of the pairs whose lower player gets the same upfloat as `ago` rounds before."""
    up, points = _floated(bm, ago, Float.UP), bm.points
    items: list[tuple[int, int, cp_model.IntVar]] = [
        (bm.sd_pair(h, lo), 1, v) for (h, lo), v in bm.bracket_pairs() if lo in up and points[h] > points[lo]
    ]
    return _by_value(bm, criterion, detail, items)


@criterion("C.12")
@_per_player
def same_downfloat_1(bm: BracketModel2017) -> list[Term]:
    """[C.12] minimise players receiving the same downfloat as the previous round."""
    return _same_downfloat(bm, 1, "C.12", "paired residents with a downfloat in R-1")


@criterion("C.13")
@_per_player
def same_upfloat_1(bm: BracketModel2017) -> list[Term]:
    """[C.13] minimise players receiving the same upfloat as the previous round."""
    return _same_upfloat(bm, 1, "C.13", "upfloaters with an upfloat in R-1")


@criterion("C.14")
@_per_player
def same_downfloat_2(bm: BracketModel2017) -> list[Term]:
    """[C.14] as [C.12], two rounds before."""
    return _same_downfloat(bm, 2, "C.14", "paired residents with a downfloat in R-2")


@criterion("C.15")
@_per_player
def same_upfloat_2(bm: BracketModel2017) -> list[Term]:
    """[C.15] as [C.13], two rounds before."""
    return _same_upfloat(bm, 2, "C.15", "upfloaters with an upfloat in R-2")


@criterion("C.16")
@_per_player
def same_downfloat_sd_1(bm: BracketModel2017) -> list[Term]:
    """[C.16] minimise the SDs of players receiving the same downfloat as the previous round."""
    return _same_downfloat_sd(bm, 1, "C.16", "repeated downfloats (R-1) with SD")


@criterion("C.17")
@_per_player
def same_upfloat_sd_1(bm: BracketModel2017) -> list[Term]:
    """[C.17] minimise the SDs of players receiving the same upfloat as the previous round."""
    return _same_upfloat_sd(bm, 1, "C.17", "repeated upfloats (R-1) with SD")


@criterion("C.18")
@_per_player
def same_downfloat_sd_2(bm: BracketModel2017) -> list[Term]:
    """[C.18] as [C.16], two rounds before."""
    return _same_downfloat_sd(bm, 2, "C.18", "repeated downfloats (R-2) with SD")


@criterion("C.19")
@_per_player
def same_upfloat_sd_2(bm: BracketModel2017) -> list[Term]:
    """[C.19] as [C.17], two rounds before."""
    return _same_upfloat_sd(bm, 2, "C.19", "repeated upfloats (R-2) with SD")
