"""Quality criteria as lexicographic terms over a `BracketModel` (2026 Art. 2.4).

Each criterion is a small function returning the terms it contributes, highest
priority first.  An edition (models/*.toml) lists which criteria apply and in which
order; the engine asks this registry for them by name.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Callable

from .bracket import BracketModel
from .colours import allocate
from .lex import Term
from .state import Float, PlayerState, PrefKind
from .tournament import Colour

Criterion = Callable[[BracketModel], list[Term]]
REGISTRY: dict[str, Criterion] = {}


def criterion(name: str) -> Callable[[Criterion], Criterion]:
    def deco(fn: Criterion) -> Criterion:
        REGISTRY[name] = fn
        return fn

    return deco


def _levels(values: set[Fraction]) -> list[Fraction]:
    return sorted(values, reverse=True)


@criterion("C6")
def fewest_downfloaters(bm: BracketModel) -> list[Term]:
    """[C6] minimise the number of downfloaters (maximise pairs in the bracket)."""
    return [bm.term("C6 downfloaters", ((1, bm.df[p]) for p in bm.bracket))]


@criterion("C7")
def downfloater_scores(bm: BracketModel) -> list[Term]:
    """[C7] minimise downfloater scores taken in descending order.

    With the number of downfloaters fixed by [C6], comparing the sorted score lists is
    comparing the count at the highest score level first, then the next, ...
    """
    out = []
    for s in _levels({bm.score[p] for p in bm.bracket}):
        out.append(bm.term(f"C7 downfloaters scoring {s}", ((1, bm.df[p]) for p in bm.bracket if bm.score[p] == s)))
    return out


@criterion("C8")
def next_bracket(bm: BracketModel) -> list[Term]:
    """[C8] choose downfloaters so the following bracket best meets [C6] and [C7].

    The following bracket is this bracket's downfloaters plus the next scoregroup; a
    downfloater paired there pairs with a next-scoregroup resident (two downfloaters of
    this bracket cannot meet: [C6] would have paired them here).
    """
    nxt = bm.next_group
    if not nxt:
        return []
    ns = frozenset(nxt)
    nb = bm.in_bracket | ns
    pairs = [v for (p, q), v in bm.x.items() if (p in ns or q in ns) and p in nb and q in nb]
    out = [bm.term("C8 next-bracket pairs", ((-1, v) for v in pairs))]
    members = list(bm.bracket) + list(nxt)
    for s in _levels({bm.score[p] for p in members}):
        weighted = []
        for p in members:
            if bm.score[p] != s:
                continue
            # p is a downfloater of the next bracket unless paired inside bracket ∪ next.
            for q, v in bm.adj[p]:
                if q in nb:
                    weighted.append((-1, v))
        out.append(bm.term(f"C8 next-bracket downfloaters scoring {s}", weighted))
    return out


@criterion("C9")
def pab_unplayed(bm: BracketModel) -> list[Term]:
    """[C9] minimise the unplayed games of the PAB assignee (only in the bracket it leaves)."""
    lower = [p for p in bm.remaining if p not in bm.in_bracket]
    if lower or not bm.u:
        return []
    return [bm.term("C9 PAB unplayed games", ((bm.state.players[p].unplayed, bm.u[p]) for p in bm.bracket if p in bm.u))]


def _colour_violations(bm: BracketModel, name: str, bad: Callable[[PlayerState, Colour], bool]) -> list[Term]:
    """Count, per pair involving a topscorer, the players Art. 5 would give a bad colour."""
    weighted = []
    for (p, q), v in bm.bracket_pairs():
        a, b = bm.state.players[p], bm.state.players[q]
        if not (a.topscorer or b.topscorer):
            continue
        white, black, _ = allocate(bm.state, p, q, Colour.WHITE)
        n = int(bad(bm.state.players[white], Colour.WHITE)) + int(bad(bm.state.players[black], Colour.BLACK))
        if n:
            weighted.append((n, v))
    return [bm.term(name, weighted)]


@criterion("C10")
def topscorer_colour_difference(bm: BracketModel) -> list[Term]:
    """[C10] minimise topscorers (or opponents) whose colour difference goes beyond ±2."""

    def bad(ps: PlayerState, gets: Colour) -> bool:
        return abs(ps.cd + (1 if gets is Colour.WHITE else -1)) > 2

    return _colour_violations(bm, "C10 topscorer |CD|>2", bad)


@criterion("C11")
def topscorer_three_in_a_row(bm: BracketModel) -> list[Term]:
    """[C11] minimise topscorers (or opponents) getting the same colour three times running."""

    def bad(ps: PlayerState, gets: Colour) -> bool:
        cs = ps.colours
        return len(cs) >= 2 and cs[-1] == cs[-2] == gets

    return _colour_violations(bm, "C11 topscorer same colour 3x", bad)


@criterion("C12")
def colour_preferences(bm: BracketModel) -> list[Term]:
    """[C12] minimise players who do not get their colour preference."""
    weighted = []
    for (p, q), v in bm.bracket_pairs():
        a, b = bm.state.players[p], bm.state.players[q]
        if a.pref_colour is not None and a.pref_colour == b.pref_colour:
            weighted.append((1, v))
    return [bm.term("C12 unmet colour preferences", weighted)]


@criterion("C13")
def strong_colour_preferences(bm: BracketModel) -> list[Term]:
    """[C13] minimise players who do not get their strong colour preference."""
    weighted = []
    for (p, q), v in bm.bracket_pairs():
        a, b = bm.state.players[p], bm.state.players[q]
        if a.pref_colour is None or a.pref_colour != b.pref_colour:
            continue
        strong = {PrefKind.STRONG, PrefKind.ABSOLUTE}
        if a.pref_kind in strong and b.pref_kind in strong and not (
            a.pref_kind is PrefKind.ABSOLUTE and b.pref_kind is PrefKind.ABSOLUTE
        ):
            weighted.append((1, v))
    return [bm.term("C13 unmet strong preferences", weighted)]


def _resident_downfloaters(bm: BracketModel, ago: int, name: str) -> list[Term]:
    weighted = []
    for p in bm.residents:
        if bm.state.players[p].float_in(ago) is Float.DOWN:
            weighted.append((1, bm.df[p]))
    return [bm.term(name, weighted)]


def _upfloaters(bm: BracketModel, ago: int, name: str) -> list[Term]:
    weighted = []
    for (p, q), v in bm.bracket_pairs():
        lo = q if bm.score[p] > bm.score[q] else p if bm.score[q] > bm.score[p] else None
        if lo is not None and bm.state.players[lo].float_in(ago) is Float.UP:
            weighted.append((1, v))
    return [bm.term(name, weighted)]


@criterion("C14")
def repeated_downfloat_1(bm: BracketModel) -> list[Term]:
    """[C14] minimise resident downfloaters who downfloated in the previous round."""
    return _resident_downfloaters(bm, 1, "C14 downfloaters with downfloat R-1")


@criterion("C15")
def repeated_upfloat_1(bm: BracketModel) -> list[Term]:
    """[C15] minimise MDP opponents who upfloated in the previous round."""
    return _upfloaters(bm, 1, "C15 MDP opponents with upfloat R-1")


@criterion("C16")
def repeated_downfloat_2(bm: BracketModel) -> list[Term]:
    """[C16] as [C14], for a downfloat two rounds before."""
    return _resident_downfloaters(bm, 2, "C16 downfloaters with downfloat R-2")


@criterion("C17")
def repeated_upfloat_2(bm: BracketModel) -> list[Term]:
    """[C17] as [C15], for an upfloat two rounds before."""
    return _upfloaters(bm, 2, "C17 MDP opponents with upfloat R-2")


def _float_score_differences(bm: BracketModel, ago: int, kind: Float, name: str) -> list[Term]:
    """Score differences, in descending order, of pairs whose floater repeats `kind`."""
    by_level: dict[Fraction, list] = {}
    for (p, q), v in bm.bracket_pairs():
        if bm.score[p] == bm.score[q]:
            continue
        hi, lo = (p, q) if bm.score[p] > bm.score[q] else (q, p)
        who = hi if kind is Float.DOWN else lo
        if bm.state.players[who].float_in(ago) is kind:
            by_level.setdefault(bm.score[hi] - bm.score[lo], []).append(v)
    return [bm.term(f"{name} at {d}", ((1, v) for v in by_level[d])) for d in _levels(set(by_level))]


@criterion("C18")
def repeated_downfloat_sd_1(bm: BracketModel) -> list[Term]:
    """[C18] minimise score differences of MDPs who downfloated in the previous round."""
    return _float_score_differences(bm, 1, Float.DOWN, "C18 SD of MDPs with downfloat R-1")


@criterion("C19")
def repeated_upfloat_sd_1(bm: BracketModel) -> list[Term]:
    """[C19] minimise score differences of MDP opponents who upfloated in the previous round."""
    return _float_score_differences(bm, 1, Float.UP, "C19 SD of MDP opponents with upfloat R-1")


@criterion("C20")
def repeated_downfloat_sd_2(bm: BracketModel) -> list[Term]:
    """[C20] as [C18], two rounds before."""
    return _float_score_differences(bm, 2, Float.DOWN, "C20 SD of MDPs with downfloat R-2")


@criterion("C21")
def repeated_upfloat_sd_2(bm: BracketModel) -> list[Term]:
    """[C21] as [C19], two rounds before."""
    return _float_score_differences(bm, 2, Float.UP, "C21 SD of MDP opponents with upfloat R-2")
