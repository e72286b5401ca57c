"""What every bracket model provides, whichever edition it belongs to.

The generation order (order.py) and the criteria shared between editions read a
bracket model through `PairModel`; the 2026/2013 pair model (bracket.py, with the
aggregate model in aggregate.py) and the 2017 model (e2017/bracket.py) both satisfy it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from functools import cached_property
from itertools import chain, compress, islice, repeat
from typing import TYPE_CHECKING, Protocol

from ortools.sat.python import cp_model

from cpsat_pairing.solver.lex import LexSolver
from cpsat_pairing.solver.terms import Term, make_term, new_booleans
from cpsat_pairing.records import TierKind
from cpsat_pairing.solver.view import BracketView

if TYPE_CHECKING:
    from cpsat_pairing.domain.compat import Compatibility
    from cpsat_pairing.solver.cpsat import Model
    from cpsat_pairing.dutch.near import FarPairs
    from cpsat_pairing.solver.bounds import CountBound

Pair = tuple[int, int]


class PairIndices:
    """Each player's neighbours with the proto index of their pair variable, read once:
    the searches and the proposals of a big bracket walk every player's pairs several
    times, and each read of an index crosses into C++."""

    adj: dict[int, list[tuple[int, cp_model.IntVar]]]
    x: dict[Pair, cp_model.IntVar]
    solver: LexSolver
    first_pair_index: int  # `make_pairs`: x's variables are consecutive from it, in x's order

    @cached_property
    def adj_index(self) -> dict[int, list[tuple[int, int]]]:
        return {p: [(q, v.index) for q, v in row] for p, row in self.adj.items()}

    def pair_indices(self) -> Iterable[tuple[Pair, int]]:
        """Each pair with its variable's index, counted from the first, not read back."""
        return zip(self.x, range(self.first_pair_index, self.first_pair_index + len(self.x)))

    def chosen_pairs(self) -> list[Pair]:
        """The incumbent's pairs, in x's order (read by the iterators' C loop: a big
        bracket has hundreds of thousands of pairs, and the generation order asks
        this again and again)."""
        first = self.first_pair_index
        return list(compress(self.x, map(self.solver.values.get, range(first, first + len(self.x)))))

    far: FarPairs | None = None  # a near model's far pairs (dutch/near.py)

    def term(
        self, criterion: str, detail: str, weighted: Iterable[tuple[int, cp_model.IntVar]], *,
        kind: TierKind = TierKind.QUALITY, one_hot: bool = False, subject: int | None = None,
    ) -> Term:
        """A term of this model (solver/terms.make_term); a near model's counts of far
        pairs in it are integers, whose upper bounds it records (Term.upper)."""
        t = make_term(criterion, detail, weighted, kind=kind, one_hot=one_hot, subject=subject)
        if self.far is not None and self.far.groups:
            upper = self.far.upper()
            t.upper = {i: upper[i] for i in t.indices if i in upper} or None
        return t


class PairModel(BracketView, Protocol):
    """A bracket model as the generation order and the criteria see it."""

    bsn: dict[int, int]  # Art. 4.1: bracket players numbered 1, 2, ... in ranking order
    score: dict[int, Fraction]  # pairing scores of the players modelled
    adj: dict[int, list[tuple[int, cp_model.IntVar]]]
    compatible: Compatibility
    # A bracket player floats (df[p]) exactly when none of these variables is true.
    df_rows: dict[int, list[int]]

    @property
    def far(self) -> FarPairs | None:
        """A near model's far pairs (dutch/near.py), or None."""
        ...

    @property
    def counts(self) -> CountBound:
        """The bracket's count model (solver/bounds.py)."""
        ...

    def term(
        self, criterion: str, detail: str, weighted: Iterable[tuple[int, cp_model.IntVar]], *,
        kind: TierKind = TierKind.QUALITY, one_hot: bool = False, subject: int | None = None,
    ) -> Term:
        ...

    def bracket_pairs(self) -> list[tuple[Pair, cp_model.IntVar]]:
        """The pairs made inside the bracket."""
        ...

    def chosen_pairs(self) -> list[Pair]:
        """The pairs of the incumbent."""
        ...

    def bracket_result(self) -> tuple[list[Pair], list[int]]:
        """The incumbent's pairs inside the bracket and its downfloaters."""
        ...

    def player_families(self) -> dict[str, dict[int, cp_model.IntVar]]:
        """A player's own variables by family (see `RoundView`)."""
        ...

    def counters(self) -> list[cp_model.IntVar]:
        """The aggregate model's pairs inside the next scoregroup, as a unary counter."""
        ...


def partners(pairs: Iterable[Pair]) -> dict[int, int]:
    """Each player's partner in a round-pairing (a given one, scored by `evaluate`)."""
    out: dict[int, int] = {}
    for a, b in pairs:
        out[a], out[b] = b, a
    return out


def odd_sets(players: Iterable[int], score: dict[int, Fraction], bracket: Iterable[int], whole: int,
             bracket_first: bool = False) -> list[tuple[list[int], frozenset[int]]]:
    """The sets an odd-set cut is made for: each score group, each prefix of the score
    groups (top down) and the bracket, those of odd size, once each, except the whole
    field (`whole` players, which a complete pairing may leave one short).  The order
    is the order the cuts are added in (`bracket_first` puts the bracket first); each
    set comes as its members in that order and as a set."""
    by_score: dict[Fraction, list[int]] = {}
    for p in players:
        by_score.setdefault(score[p], []).append(p)
    groups: list[list[int]] = [list(bracket)] if bracket_first else []
    prefix: list[int] = []
    for s in sorted(by_score, reverse=True):
        groups.append(by_score[s])
        prefix = prefix + by_score[s]
        groups.append(list(prefix))
    if not bracket_first:
        groups.append(list(bracket))
    out: list[tuple[list[int], frozenset[int]]] = []
    seen: set[frozenset[int]] = set()
    for g in groups:
        key = frozenset(g)
        if len(g) % 2 == 1 and key not in seen and len(g) != whole:
            seen.add(key)
            out.append((g, key))
    return out


PairVariables = tuple[
    dict[Pair, cp_model.IntVar], dict[int, list[tuple[int, cp_model.IntVar]]], dict[int, list[tuple[int, int]]], int
]


def make_pairs(model: Model, players: Sequence[int], rows: Iterable[tuple[int, list[int]]]) -> PairVariables:
    """x[p, q] for each p and each q of its row (q after p in ranking order), with the
    players' neighbour lists by variable and by index, and the first pair's index: each
    new variable takes the next proto index, so none is read back through C++."""
    rows = list(rows)
    index = first = len(model.proto.variables)
    made = iter(new_booleans(model, sum(len(row) for _, row in rows)))
    x: dict[Pair, cp_model.IntVar] = {}
    adj: dict[int, list[tuple[int, cp_model.IntVar]]] = {p: [] for p in players}
    adj_index: dict[int, list[tuple[int, int]]] = {p: [] for p in players}
    for p, row in rows:
        variables = list(islice(made, len(row)))
        indices = range(index, index + len(row))
        x.update(zip(zip(repeat(p), row), variables))
        adj[p] += zip(row, variables)
        adj_index[p] += zip(row, indices)
        for q, v, i in zip(row, variables, indices):
            adj[q].append((p, v))
            adj_index[q].append((p, i))
        index += len(row)
    assert index == len(model.proto.variables)
    return x, adj, adj_index, first


def window_restrictions(players: Sequence[int], score: dict[int, Fraction], mdps: frozenset[int],
                        pairs: Iterable[tuple[Pair, int]], windows: Sequence[int]) -> list[list[int]]:
    """The pair variables (by index) a big model's solve can first try without
    (LexSolver.optional), one list per window (`SolverSettings.windows`; `pairs`: each
    pair with its variable's index, `players` in ranking order).

    Within a scoregroup of g players the pairings the rules prefer join places i and
    i + g/2 (S1 with S2) and, after exchanges and transpositions, places near those;
    pairs farther than a window's places from both are rarely chosen, and a tier that
    needs one finds it in the wider window or the full model.  Pairs across scoregroups
    (MDPs, floaters) are always kept: there are few of them."""
    # Each player's scoregroup (-1 for an MDP) and place in it, in tables by player
    # number: the test runs over every pair variable at once (hundreds of thousands in
    # a big bracket), not pair by pair.  Numpy is imported here, for big models only
    # (solver/startup.py keeps it out of a small round's start-up).
    import numpy as np

    size = max(players, default=-1) + 1
    group = np.full(size, -1, dtype=np.int64)
    place = np.zeros(size, dtype=np.int64)
    group_of: dict[Fraction, int] = {}
    sizes: list[int] = []
    for p in players:
        g = group_of.setdefault(score[p], len(group_of))
        if g == len(sizes):
            sizes.append(0)
        group[p], place[p] = (-1 if p in mdps else g), sizes[g]
        sizes[g] += 1
    flat = np.fromiter(chain.from_iterable((p, q, i) for (p, q), i in pairs), dtype=np.int64)
    ps, qs, indices = flat.reshape(-1, 3).T
    gp = group[ps]
    same = (gp >= 0) & (gp == group[qs])
    ps, qs, indices, gp = ps[same], qs[same], indices[same], gp[same]
    d = np.abs(place[ps] - place[qs])
    half = np.array([n // 2 for n in sizes], dtype=np.int64)
    off = np.minimum(d, np.abs(d - half[gp]))
    out = [indices[off > window].tolist() for window in windows]
    return [level for level in out if level]
