"""The CP-SAT model of one bracket under the 2017 rules (C.04.3 2017, Sections A-C).

Unlike the 2026 model, completion ([C.4]) is not a constraint of every bracket:

* a *normal* bracket is modelled with the following scoregroup only, and every player
  of the model may stay unpaired (the following scoregroup's pairs are there only to
  measure [C.7], the look-ahead to the next bracket);
* a *special* bracket (the last bracket, the penultimate pairing bracket and the
  collapsed last bracket, A.9) is modelled with every remaining player and must
  complete the round: everybody paired but at most one player, who must be allowed the
  PAB ([C.2], [C.4]).

Variables: `x[p, q]` for each compatible pair (two MDPs never meet in a bracket: the
pair would have been made in the bracket they came from), `u[p]` for the PAB of a
special bracket, `df[p]` when a bracket player is not paired inside the bracket.  It
is a `dutch.model.PairModel`, as the 2026 model is: the generation order and the
colour criteria read both the same way.
"""

from __future__ import annotations

import math
import weakref
from dataclasses import dataclass, field
from functools import cached_property
from fractions import Fraction
from typing import Callable, Iterable, Iterator, Mapping, Sequence

from ortools.sat.python import cp_model

from cpsat_pairing.domain.compat import Compatibility
from cpsat_pairing.domain.state import RoundState
from cpsat_pairing.dutch.model import PairIndices, make_pairs, odd_sets, window_restrictions
from cpsat_pairing.dutch.near import FarPairs, near_rows
from cpsat_pairing.errors import NotAPairing
from cpsat_pairing.solver.bounds import CountBound
from cpsat_pairing.solver.cpsat import Model
from cpsat_pairing.solver.lex import LexSolver
from cpsat_pairing.solver.matching import max_matching
from cpsat_pairing.solver.repair import repair, settled_pairs
from cpsat_pairing.solver.settings import DEFAULT_SETTINGS, SolverSettings
from cpsat_pairing.solver.terms import add_sum

Pair = tuple[int, int]


def given_rows(rows: list[tuple[int, list[int]]], bm: BracketModel2017, given: Mapping[int, int]
               ) -> list[tuple[int, list[int]]]:
    """`rows` without the pairs that cannot change a model fixed to a given pairing
    (`force`): the same solutions on the bracket's variables and the same value on
    every tier, from a model built and loaded in time linear in the players instead of
    quadratic (a far pairing of a big round forced onto the model of every pair).

    A bracket player keeps only his partner when they pair in the bracket: `force` sets
    his other pairs to 0.  A downfloater of a normal bracket keeps his pairs below, and
    the players below keep theirs, where [C.7] is the model's to choose -- unless the
    given pairing itself reaches [C.7]'s bounds (e2017/lookahead.py: every downfloater
    paired in the next bracket, and (k + |next|) // 2 pairs there), when no choice below
    scores better and every player keeps only his partner.  A special bracket has no
    [C.7], and the given pairing completes the round."""
    inside, mdps = bm.in_bracket, bm.mdps

    def inside_pair(p: int) -> bool:
        q = given.get(p)
        return q is not None and q in inside and not (p in mdps and q in mdps)

    below = frozenset(bm.players) - inside
    floaters = [p for p in bm.bracket if not inside_pair(p)]
    nxt = frozenset(floaters) | frozenset(bm.next_group)
    reached = bm.special or (
        all(given.get(p) in below for p in floaters)
        and sum(1 for p in nxt if given.get(p, -1) in nxt) // 2 == len(nxt) // 2
    )
    out = []
    for p, row in rows:
        if p in inside:
            q = given.get(p)
            keep = inside_pair(p) or reached
            out.append((p, [r for r in row if r == q] if keep else [r for r in row if r not in inside]))
        elif reached:
            out.append((p, [r for r in row if r == given.get(p)]))
        else:
            out.append((p, row))
    return out


def compatible_rows(players: list[int], mdps: frozenset[int], compatible: Compatibility) -> list[tuple[int, list[int]]]:
    """Each player (ranking order) with the later ones he may meet in a 2017 bracket
    model: every compatible pair but those of two MDPs (theirs would have been made in
    the bracket they came from)."""
    ex = compatible.excluded
    rows = []
    for i, p in enumerate(players):
        far, both = ex(p), p in mdps
        rows.append((p, [q for q in players[i + 1 :] if q not in far and not (both and q in mdps)]))
    return rows


@dataclass
class BracketModel2017(PairIndices):
    state: RoundState
    bracket: list[int]  # MDPs then residents, ranking order: BSN = index + 1
    mdps: frozenset[int]
    lower: list[int]  # the following scoregroup (normal) or every player below (special)
    compatible: Compatibility
    pab_allowed: frozenset[int]  # [C.2]: who may be left unpaired in a special bracket
    special: bool  # last bracket, PPB or CLB: the round must be completed here
    final: bool = False  # normal bracket whose following scoregroup is the last one
    odd: bool = False  # an odd number of players is left to pair (a PAB is due)
    soft_completion: bool = False  # completion as the first tier instead of a constraint
    # The lowest score the downfloaters' SDs are measured from (A.8), when not this
    # model's own: the bracket-alone model measures them as its full model does.
    sd_base: Fraction | None = None
    settings: SolverSettings = DEFAULT_SETTINGS
    model: Model = field(default_factory=Model)
    x: dict[Pair, cp_model.IntVar] = field(default_factory=dict)
    u: dict[int, cp_model.IntVar] = field(default_factory=dict)
    df: dict[int, cp_model.IntVar] = field(default_factory=dict)
    df_rows: dict[int, list[int]] = field(default_factory=dict)  # as in dutch/bracket.py
    adj: dict[int, list[tuple[int, cp_model.IntVar]]] = field(default_factory=dict)
    exit: dict[int, cp_model.IntVar] = field(default_factory=dict)  # none: the 2026 lazy model's
    # A near model of a bracket with nobody below it in the model (dutch/near.py): the
    # bracket alone, or the last bracket or the CLB, which complete the round.  The
    # pairs of the matching it starts from, which it makes beside its near pairs.
    # None: every pair.
    near: Sequence[Pair] | None = None
    # Scoring a given pairing (`force`): each player's partner in it; the model then
    # holds only the pairs `force` leaves open (given_rows).
    given: Mapping[int, int] | None = None
    # The bracket alone (dutch/alone.py): a normal bracket without the players below.
    local: bool = field(init=False, default=False)
    next_group: list[int] = field(init=False, default_factory=list)

    def __post_init__(self) -> None:
        self.bsn = {p: i + 1 for i, p in enumerate(self.bracket)}
        self.local = not self.special and not self.lower
        assert self.near is None or not self.lower, "a near model holds the bracket alone"
        self.next_group = [] if self.special else list(self.lower)
        self.mdps = frozenset(self.mdps)
        self.in_bracket = frozenset(self.bracket)
        self.residents = [p for p in self.bracket if p not in self.mdps]
        self.players = list(self.bracket) + list(self.lower)
        # Position in the model (the order of the rules' ranking): the earlier of two
        # players is the "higher" one of their pair.
        self.pos = {p: i for i, p in enumerate(self.players)}
        self.score = {p: self.state.players[p].pairing_score for p in self.players}
        # A.8: the downfloaters' artificial score difference is measured from one point
        # below the lowest score in the model (the reference engines' reading: the next
        # scoregroup in a normal bracket, the lowest remaining score in a special one).
        self.min_score = self.sd_base if self.sd_base is not None else min(self.score.values())
        # Scores in whole units of the smallest fraction they use (half points, as a
        # rule): the criteria group pairs by SD, and integers hash fast.
        self.unit = math.lcm(*(x.denominator for x in [*self.score.values(), self.min_score]))
        self.points = {p: int(x * self.unit) for p, x in self.score.items()}
        base = int(self.min_score * self.unit) - self.unit
        self.sd = {p: self.points[p] - base for p in self.bracket}
        m = self.model
        self._make_pairs()
        adj = self.adj_index  # constraints by index: the modelling layer crosses into C++ per term
        far = self.far.f if self.far is not None else {}
        if self.special and not self.soft_completion:
            for p in self.players:
                terms = [i for _, i in adj[p]]
                if p in far:
                    terms.append(far[p].index)  # paired by a far pair
                if self.odd and p in self.pab_allowed:
                    up = m.new_bool_var(f"u_{p}")
                    self.u[p] = up
                    terms.append(up.index)
                if terms:
                    add_sum(m, terms, 1, 1)
                else:
                    m.add(sum(terms) == 1)  # nobody to meet: the constant constraint the model states
            if self.odd:
                m.add(sum(self.u.values()) == 1)
            self._parity_cuts()
        else:
            for p in self.players:
                if adj[p]:
                    add_sum(m, [i for _, i in adj[p]], hi=1)
        in_bracket = self.in_bracket
        for p in self.bracket:
            d = m.new_bool_var(f"df_{p}")
            self.df[p] = d
            row = [i for q, i in adj[p] if q in in_bracket]
            if p in far:
                row.append(far[p].index)  # a far pair is made inside the bracket
            self.df_rows[p] = row
            add_sum(m, [*row, d.index], 1, 1)
        all_vars = list(self.x.values()) + list(self.u.values()) + list(self.df.values())
        if self.far is not None:
            all_vars += self.far.variables()
        self.solver = LexSolver(m, all_vars, self.settings)
        if self.far is not None:
            self.solver.use_relaxation(self.far.relax.index, [v.index for v in self.far.f.values()], propagate_first=True)
            me = weakref.proxy(self)  # see `counts`
            width = self.settings.near_window
            self.solver.use_restrictions(
                [], lambda chunk, fixed: me.counts.minimum(chunk, fixed),
                lambda chunk, target: repair(me, chunk, target, trade=False),
                lambda chunk: settled_pairs(me, chunk, width),
            )
            return
        # A big model: each tier first restricted to the pairs near the natural partners,
        # and the residents re-paired by a matching (solver/repair.py).  The count
        # model's bounds hold where its constraints are the model's, summed by class:
        # the bracket alone (each player paired inside or a downfloater), used at any
        # size; and a bracket that completes the round (each player paired once or given
        # the PAB, each bracket player inside or a downfloater), from `bound_from`
        # pairs, as in the 2026 models (smaller solves do not pay for the count model).
        # A normal bracket with the players below leaves players unpaired, which the
        # count model does not state.
        optional = []
        if len(self.x) >= self.settings.sparse_from:
            optional = window_restrictions(self.players, self.score, self.mdps, self.pair_indices(),
                                           self.settings.windows)
        completing = self.special and not self.soft_completion
        counted = self.local or (completing and (bool(optional) or len(self.x) >= self.settings.bound_from))
        if optional or counted:
            me = weakref.proxy(self)  # see `counts`
            bound = (lambda chunk, fixed: me.counts.minimum(chunk, fixed)) if counted else None
            # No trading of floats (repair.py): here a float is any player not paired in
            # the bracket, and a trade that reaches a colour tier's bound can leave the
            # next tier far harder to prove (`gen2000` 2017: [C.11] 1.5 s -> 89 s).
            self.solver.use_restrictions(optional, bound, lambda chunk, target: repair(me, chunk, target, trade=False))

    def _make_pairs(self) -> None:
        """x[p, q] for each compatible pair (two MDPs never meet), with the neighbour
        lists (dutch.model.make_pairs); a near model makes its near pairs and counts
        the others (dutch/near.py)."""
        if self.near is not None:
            rows = near_rows(self, self.settings.near_window, self.near, mdps_meet=False)
        else:
            rows = compatible_rows(self.players, self.mdps, self.compatible)
            if self.given is not None:
                rows = given_rows(rows, self, self.given)
        self.x, self.adj, self.adj_index, self.first_pair_index = make_pairs(self.model, self.players, rows)
        if self.near is not None:
            self.far = FarPairs.build(self)

    @cached_property
    def counts(self) -> CountBound:
        """The model's count model (solver/bounds.py), built on first use;
        it sees the model through a weak proxy, as in the 2026 model."""
        return CountBound(weakref.proxy(self))

    def player_families(self) -> dict[str, dict[int, cp_model.IntVar]]:
        return {"df": self.df, "u": self.u}

    def counters(self) -> list[cp_model.IntVar]:
        return []

    def _parity_cuts(self) -> None:
        """Odd-set cuts for the complete matching (each score group, each prefix, the
        bracket): an odd set with nobody unpaired sends a pair out.  They remove no
        integer solution; they keep CP-SAT's LP away from fractional odd cycles."""
        adj = self.adj_index
        far = self.far.f if self.far is not None else {}
        for members, key in odd_sets(self.players, self.score, self.bracket, len(self.players), bracket_first=True):
            out = [i for p in members for q, i in adj[p] if q not in key]
            out += [self.u[p].index for p in members if p in self.u]
            out += [far[p].index for p in members if p in far]  # a far partner may be outside
            if out:
                add_sum(self.model, out, lo=1)
            else:
                self.model.add(sum(out) >= 1)  # an odd set with no way out: the model states it

    # -- expressions --------------------------------------------------------------

    def inside(self, p: int, q: int) -> bool:
        return p in self.in_bracket and q in self.in_bracket

    def bracket_pairs(self) -> list[tuple[Pair, cp_model.IntVar]]:
        """Pairs made inside the bracket (with h the higher-ranked player)."""
        return list(self._bracket_pairs)

    @cached_property
    def _bracket_pairs(self) -> list[tuple[Pair, cp_model.IntVar]]:
        """In a near model also each count of far pairs, as a pair of two players of
        its classes (dutch/near.py)."""
        inside = self.in_bracket
        out = [((p, q), v) for (p, q), v in self.x.items() if p in inside and q in inside]
        if self.far is not None:
            out += self.far.pseudo_pairs()
        return out

    def sd_floater(self, p: int) -> int:
        """A.8: the score difference of a downfloater (score - (lowest score - 1)), in `unit`s."""
        return self.sd[p]

    def sd_pair(self, p: int, q: int) -> int:
        """A.8: the score difference of a pair, in `unit`s."""
        return abs(self.points[p] - self.points[q])

    # -- the incumbent --------------------------------------------------------------

    def _matching(self, players: list[int], allowed: Callable[[int, int], bool]) -> list[Pair]:
        """A maximum matching (Edmonds) of `players` over the model's pairs that
        `allowed` lets in; a player listed earlier is kept matched over later ones
        where the augmenting paths allow it."""
        index = {p: i for i, p in enumerate(players)}
        adj: list[list[int]] = [[] for _ in players]
        for i, p in enumerate(players):
            for q, _ in self.adj[p]:
                j = index.get(q)
                if j is not None and allowed(p, q):
                    adj[i].append(j)
        mate = max_matching(adj)
        return [(p, players[j]) for i, p in enumerate(players) if (j := mate[i]) > i]

    def _key(self, p: int, q: int) -> Pair:
        return (p, q) if (p, q) in self.x else (q, p)

    @cached_property
    def inside_matching(self) -> list[Pair]:
        """A maximum matching of the pairs inside the bracket."""
        return self._matching(self.bracket, self.inside)

    def fewest_downfloaters(self) -> int:
        """[C.5]'s bound: no candidate pairs more bracket players than a maximum
        matching of the bracket's own pairs does."""
        return len(self.bracket) - 2 * len(self.inside_matching)

    def start_inside(self) -> None:
        """The incumbent of a normal bracket: a maximum matching inside the bracket,
        nobody paired below; a solution that meets [C.5]'s bound."""
        values = {v.index: 0 for v in self.solver.all_vars}
        paired: set[int] = set()
        for p, q in self.inside_matching:
            values[self.x[self._key(p, q)].index] = 1
            paired.update((p, q))
        for p in self.bracket:
            values[self.df[p].index] = int(p not in paired)
        self.solver.set_incumbent(values)

    def start_complete(self) -> bool:
        """The incumbent of a special bracket: a complete round-pairing of the model's
        players by a maximum matching (the PAB as a partner that only players allowed
        it may take); False if there is none (then CP-SAT decides)."""
        players = list(self.players)
        index = {p: i for i, p in enumerate(players)}
        adj: list[list[int]] = [[index[q] for q, _ in self.adj[p]] for p in players]
        dummy = len(players)
        if self.odd:
            adj.append([index[p] for p in self.u])
            for p in self.u:
                adj[index[p]].append(dummy)
        mate = max_matching(adj)
        if -1 in mate:
            return False
        values = {v.index: 0 for v in self.solver.all_vars}
        for i, p in enumerate(players):
            j = mate[i]
            if j == dummy:
                values[self.u[p].index] = 1
            elif j > i:
                values[self.x[self._key(p, players[j])].index] = 1
        for p in self.bracket:
            values[self.df[p].index] = int(not any(values[v.index] for q, v in self.adj[p] if q in self.in_bracket))
        self.solver.set_incumbent(values)
        return True

    def pair_below(self) -> None:
        """Extend the incumbent of a normal bracket below: its downfloaters (the highest
        SDs first) and the following scoregroup paired by a maximum matching, the start
        of [C.7]'s tiers.  Two downfloaters of the bracket cannot meet there (their pair
        is a pair inside the bracket)."""
        values = dict(self.solver.values)
        floaters = sorted((p for p in self.bracket if values.get(self.df[p].index)),
                          key=lambda p: (-self.sd_floater(p), self.pos[p]))
        for (p, q), v in self.x.items():
            if not self.inside(p, q):
                values[v.index] = 0
        for p, q in self._matching(floaters + list(self.lower), lambda p, q: not self.inside(p, q)):
            values[self.x[self._key(p, q)].index] = 1
        self.solver.set_incumbent(values)


    def force(self, pairs: Iterable[Pair]) -> None:
        """Fix the bracket players to a given round-pairing (to score it on every tier)."""
        partner: dict[int, int] = {}
        for a, b in pairs:
            partner[a], partner[b] = b, a
        m = self.model
        for p in self.bracket:
            q = partner.get(p)
            if q is not None and q in self.in_bracket and not (p in self.mdps and q in self.mdps):
                m.add(self.x[(p, q) if (p, q) in self.x else (q, p)] == 1)
            else:
                m.add(self.df[p] == 1)
                if self.special:
                    if q is None:
                        m.add(self.u[p] == 1)
                    else:
                        m.add(self._given_pair(p, q) == 1)
        self.solver.fix_domains(self._forced_values(partner))
        self.solver.read_fixed_tiers = True

    def _given_pair(self, p: int, q: int) -> cp_model.IntVar:
        """The variable of a pair the given round-pairing makes in this special
        bracket, which completes the round.

        Raises:
            NotAPairing: the model has no such pair: two MDPs (a pair of theirs is
                made in the bracket they come from), or players who may not meet."""
        var = self.x.get((p, q)) if (p, q) in self.x else self.x.get((q, p))
        if var is None:
            why = "two MDPs of the bracket" if p in self.mdps and q in self.mdps else "not a pair of the bracket"
            raise NotAPairing(f"the given pairing pairs {p} with {q}: {why}")
        return var

    def _forced_values(self, partner: Mapping[int, int]) -> Iterator[tuple[int, int]]:
        """What `force` fixes, as the values of the model's Booleans (index, value): a
        bracket player paired inside has that pair and no other; a downfloater none
        inside, and in a special bracket his pair below (or the PAB) and no other.  By
        their domains, a tier over the bracket's own pairs and downfloaters reads its
        value off them (LexSolver.read_fixed_tiers): only [C.7]'s choice below is solved."""
        for p in self.bracket:
            q = partner.get(p)
            paired_inside = q is not None and q in self.in_bracket and not (p in self.mdps and q in self.mdps)
            yield self.df[p].index, int(not paired_inside)
            if paired_inside or self.special:
                for r, v in self.adj[p]:
                    yield v.index, int(r == q)
                if p in self.u:
                    yield self.u[p].index, int(q is None)
            else:
                for r, v in self.adj[p]:
                    if r in self.in_bracket:
                        yield v.index, 0

    def bracket_result(self) -> tuple[list[Pair], list[int]]:
        """Pairs made inside the bracket, and the downfloaters (ranking order)."""
        values, inside = self.solver.values, self.in_bracket
        pairs = [(p, q) for (p, q), i in self.pair_indices() if values.get(i) and p in inside and q in inside]
        floaters = [p for p in self.bracket if self.solver.var_value(self.df[p])]
        return pairs, floaters
