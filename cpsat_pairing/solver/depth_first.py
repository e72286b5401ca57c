"""The fixed search's first candidate found in Python, where the fixed tiers' sums
alone decide the order.

The fixed search (search.py) takes its decisions in rows: "S1[1] meets q" for each q
in turn, then S1[2]'s, ..., each tried true before false; its answer is the
lexicographic maximum of the decisions over the solutions of the fixed tiers.  Walked
depth first in that order, the rows give the candidates in the same order.  A branch
is cut only where no solution can lie below it: a player meets at most one other, and
each fixed tier is a sum that must equal its value, which a branch whose decided part
plus the least (or most) the rest can bring misses.  The first candidate that passes
is therefore the search's answer whenever the model accepts it; where the model
rejects it (a constraint that is not a fixed tier), or the walk is longer than its
budget, nothing is concluded and CP-SAT's search decides, as before.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from cpsat_pairing.solver.lex import LexSolver

# One row's options: (the other player, the decision's variable index), in order.
Row = Sequence[tuple[int, int]]


class _Sum:
    """A fixed tier's sum split into the decisions' part and the rest's range."""

    __slots__ = ("coef", "low", "high", "value")

    def __init__(self, coef: dict[int, int], low: int, high: int, value: int) -> None:
        self.coef = coef
        self.low = low
        self.high = high
        self.value = value


def fixed_for_good(lex: LexSolver) -> dict[int, int]:
    """The Booleans fixed by their domains, but those of the restriction (which the
    fixed search lifts)."""
    restriction = lex.domains.restriction
    return {i: v for i, v in lex.domains.fixed.items() if i not in restriction}


def _sums(lex: LexSolver, decided: frozenset[int], fixed: dict[int, int], derived: dict[int, list[int]]) -> list[_Sum]:
    """The fixed tiers that weigh a decision: their coefficients on the decisions, and
    the least and most the other variables can add (fixed ones their value, one that
    is 1 less some decisions (`derived`) as that, Booleans 0 or 1, a bounded integer 0
    to its bound)."""
    out = []
    for term, value in lex.fixed:
        coef: dict[int, int] = {}
        low = high = 0
        upper = term.upper or {}
        for c, i in zip(term.coefs, term.indices):
            if i in decided:
                coef[i] = coef.get(i, 0) + c
                continue
            minus = derived.get(i)
            if minus is not None:
                low += c
                high += c
                for j in minus:
                    coef[j] = coef.get(j, 0) - c
                continue
            v = fixed.get(i)
            if v is not None:
                low += c * v
                high += c * v
                continue
            top = upper.get(i, 1)
            low += min(0, c * top)
            high += max(0, c * top)
        if coef:
            out.append(_Sum(coef, low, high, value))
    return out


def first_candidate(lex: LexSolver, rows: Sequence[Row], budget: int, known: dict[int, int] | None = None,
                    derived: dict[int, list[int]] | None = None, paired: Collection[int] = (),
                    closed: Collection[int] = (), wanted: Collection[int] = ()) -> list[int | None] | None:
    """The first choice, row by row in order (an option, else none), of which no fixed
    tier's sum rules out every completion; each player chosen at most once, a decision
    fixed to 0 (or `closed`: 0 in every solution) never chosen, one fixed to 1 always,
    one of each row in `paired`, and each player of `wanted` chosen by some row.
    `known`: the values every solution has (by index; default: the fixed domains but
    the restriction's); `derived`: variables that are 1 less the sum of some decisions
    in every solution.  Returns the chosen variable index per row (None: the row's decisions
    all false), or None after `budget` branches or where there is no such choice."""
    fixed = known if known is not None else fixed_for_good(lex)
    decided = frozenset(i for row in rows for _, i in row)
    sums = _sums(lex, decided, fixed, derived or {})
    n = len(rows)
    options: list[list[tuple[int, int]]] = []
    for r, row in enumerate(rows):
        forced = [(q, i) for q, i in row if fixed.get(i) == 1]
        free = [(q, i) for q, i in row if fixed.get(i) != 0 and i not in closed]
        # (-1, -1): none of the row's decisions true, tried last; not where one is fixed.
        options.append(forced if forced else free if r in paired else [*free, (-1, -1)])
    # What the rows from r on can still add to each sum: suffix totals of each row's
    # least and most.
    lows = [[0] * (n + 1) for _ in sums]
    highs = [[0] * (n + 1) for _ in sums]
    for k, s in enumerate(sums):
        coef = s.coef
        for r in range(n - 1, -1, -1):
            gains = [coef.get(i, 0) for _, i in options[r]]
            lows[k][r] = lows[k][r + 1] + min(gains)
            highs[k][r] = highs[k][r + 1] + max(gains)
    partial = [0] * len(sums)
    # The last row that can still choose each wanted player.
    last = {q: max((r for r, row in enumerate(options) if any(o == q for o, _ in row)), default=-1) for q in wanted}

    def fits(r: int) -> bool:
        """Can the rows from `r` on still meet every sum, and choose every wanted
        player not chosen yet?"""
        if any(last[q] < r and q not in taken for q in wanted):
            return False
        return all(s.low + lows[k][r] <= s.value - partial[k] <= s.high + highs[k][r] for k, s in enumerate(sums))

    def add(i: int, sign: int) -> None:
        for k, s in enumerate(sums):
            partial[k] += sign * s.coef.get(i, 0)

    chosen: list[tuple[int, int]] = [(-1, -1)] * n
    tried = [0] * n  # the next option of each row
    taken: set[int] = set()
    if not fits(0):
        return None
    r = 0
    while r < n:
        row = options[r]
        while tried[r] < len(row):
            q, i = row[tried[r]]
            tried[r] += 1
            if q in taken:
                continue
            budget -= 1
            if budget < 0:
                return None
            add(i, 1)
            if q >= 0:
                taken.add(q)
            if fits(r + 1):
                chosen[r] = (q, i)
                r += 1
                if r < n:
                    tried[r] = 0
                break
            add(i, -1)
            taken.discard(q)
        else:
            r -= 1  # every option of row r failed: back to the row before
            if r < 0:
                return None
            q, i = chosen[r]
            add(i, -1)
            taken.discard(q)
    return [i if i >= 0 else None for _, i in chosen]
