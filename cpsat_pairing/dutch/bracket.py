"""The CP-SAT model of one bracket (2026 Art. 3), over every player still to pair.

Variables: `x[p, q]` for each compatible pair of remaining players (absolute criteria
[C1]-[C3] and forbidden pairs decide which pairs exist at all), `u[p]` when p is left
unpaired (receives the PAB), `df[p]` when a bracket player is not paired inside the
bracket (a downfloater).  Pairs among lower players are in the model only as a witness
that the rest of the round can still be completed ([C4]); their choice is revisited
when their own bracket is paired.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from functools import cached_property
from fractions import Fraction
from typing import Iterable, Iterator, Mapping, Sequence, TypeVar

from ortools.sat.python import cp_model

from cpsat_pairing.domain.compat import Compatibility
from cpsat_pairing.domain.state import RoundState
from cpsat_pairing.dutch.model import PairIndices, make_pairs, odd_sets, window_restrictions
from cpsat_pairing.solver.bounds import CountBound
from cpsat_pairing.solver.cpsat import Model
from cpsat_pairing.solver.lex import LexSolver
from cpsat_pairing.solver.repair import repair, settled_pairs
from cpsat_pairing.solver.settings import DEFAULT_SETTINGS, SolverSettings
from cpsat_pairing.solver.terms import add_linear, add_sum

T = TypeVar("T")  # what travels with each pair through `_inside`

Pair = tuple[int, int]


@dataclass
class BracketModel(PairIndices):
    """Model and variables for pairing one bracket; `solver` holds the incumbent.

    `players` are the players modelled pair by pair: all remaining players (the exact
    model), or only the bracket and the next scoregroup (the lazy model), where a player
    paired further down is an `exit` and completion is checked afterwards.
    """

    state: RoundState
    remaining: list[int]  # every player still to pair, ranking order
    bracket: list[int]  # bracket players in ranking order (MDPs first): BSN = index + 1
    mdps: frozenset[int]
    next_group: list[int]  # residents of the following scoregroup (for [C8])
    compatible: Compatibility
    pab_allowed: frozenset[int]  # who may be left unpaired ([C2] and the fixed [C5])
    settings: SolverSettings = DEFAULT_SETTINGS
    pab_score: Fraction | None = None  # the [C5] score fixed for the round
    lazy: bool = False
    # The bracket alone: only pairs inside the bracket, every other player a downfloater.
    # Used for the tiers that depend on nothing else (see `local_vars`).
    local: bool = False
    # 2013 (e2013/procedure.py, `_colours_with_lowest`): X and Z count the pairs of the
    # lowest bracket too, which this model (lazy or exact, never local) holds.
    colours_below: bool = False
    model: Model = field(default_factory=Model)
    x: dict[Pair, cp_model.IntVar] = field(default_factory=dict)
    u: dict[int, cp_model.IntVar] = field(default_factory=dict)
    exit: dict[int, cp_model.IntVar] = field(default_factory=dict)
    df: dict[int, cp_model.IntVar] = field(default_factory=dict)
    # The other variables of each df[p]'s constraint: p floats exactly when none is true.
    df_rows: dict[int, list[int]] = field(default_factory=dict)
    adj: dict[int, list[tuple[int, cp_model.IntVar]]] = field(default_factory=dict)
    # The complete round-pairing the model started from (`start_from`): partner by player.
    witness: dict[int, int] = field(default_factory=dict)
    # A near model (dutch/near.py; the aggregate model only): the pairs of the witness
    # it will start from, which it makes beside its near pairs.  None: every pair.
    near: Sequence[Pair] | None = None
    # Scoring a given pairing (`force`, which fixes every player of the model): each
    # player's partner in it, the only pair of his the model then needs (`_rows`).
    given: Mapping[int, int] | None = None

    def _setup(self) -> None:
        """What every kind of bracket model knows before its variables exist."""
        self.bsn = {p: i + 1 for i, p in enumerate(self.bracket)}
        self.mdps = frozenset(self.mdps)
        self.in_bracket = frozenset(self.bracket)
        self.residents = [p for p in self.bracket if p not in self.mdps]
        self.score = {p: self.state.players[p].pairing_score for p in self.remaining}
        self.units = self.state.pairing_units  # the same scores as integers, to group and compare by
        self._bracket_pairs: list[tuple[Pair, cp_model.IntVar]] | None = None
        # Every pair variable joins two bracket players (the local and aggregate models).
        self.x_in_bracket = self.local
        self._mdp_pairs: list[tuple[Pair, cp_model.IntVar]] | None = None
        self.far = None  # a near model's far pairs (dutch/near.py)

    def __post_init__(self) -> None:
        self._setup()
        if self.local:
            self.players = list(self.bracket)
        elif self.lazy:
            upper = self.in_bracket | frozenset(self.next_group)
            self.players = [p for p in self.remaining if p in upper]
        else:
            self.players = list(self.remaining)
        pset = frozenset(self.players)
        self.lower = [p for p in self.remaining if p not in pset]
        m = self.model
        self._make_pairs(self._rows(self.players, self.local))
        if self.local:
            for p in self.bracket:
                d = m.new_bool_var(f"df_{p}")
                self.df[p] = d
                terms = [i for _, i in self.adj_index[p]]
                self.df_rows[p] = terms
                terms = [*terms, d.index]
                add_linear(m, terms, [1] * len(terms), 1)
            self.solver = LexSolver(m, list(self.x.values()) + list(self.df.values()), self.settings)
            self._restrict()
            return
        odd = len(self.remaining) % 2
        lower_set = frozenset(self.lower)
        adj = self.adj_index  # constraints by index: the modelling layer crosses into C++ per term
        for p in self.players:
            terms = [i for _, i in adj[p]]
            if self.lower and not self.compatible.neighbours(p).isdisjoint(lower_set):
                e = m.new_bool_var(f"exit_{p}")
                self.exit[p] = e
                terms.append(e.index)
            if odd and p in self.pab_allowed:
                up = m.new_bool_var(f"u_{p}")
                self.u[p] = up
                terms.append(up.index)
            add_linear(m, terms, [1] * len(terms), 1)
        if odd and not self.lower:
            m.add(sum(self.u.values()) == 1)
        elif odd:
            m.add(sum(self.u.values()) <= 1)
        if self.exit:
            m.add(sum(self.exit.values()) <= len(self.lower))
        for p in self.bracket:
            d = m.new_bool_var(f"df_{p}")
            self.df[p] = d
            terms = [i for q, i in adj[p] if self.inside(p, q)]
            self.df_rows[p] = terms
            terms = [*terms, d.index]
            add_linear(m, terms, [1] * len(terms), 1)
        self.add_parity_cuts()
        all_vars = list(self.x.values()) + list(self.u.values()) + list(self.exit.values()) + list(self.df.values())
        self.solver = LexSolver(m, all_vars, self.settings)
        self._restrict()

    def _rows(self, players: list[int], local: bool) -> Iterator[tuple[int, list[int]]]:
        """Each of `players` with the later ones (ranking order) he may meet; with
        `local`, only pairs inside the bracket."""
        ex, inside = self.compatible.excluded, self.inside
        given = self.given
        position = {p: i for i, p in enumerate(players)} if given is not None else {}
        for i, p in enumerate(players):
            far = ex(p)
            if given is not None:  # every other pair of his is 0 once forced: no variable
                q = given.get(p, p)
                yield p, [q] if position.get(q, -1) > i and q not in far else []
                continue
            yield p, [q for q in players[i + 1 :] if q not in far and (not local or inside(p, q))]

    def _make_pairs(self, rows: Iterable[tuple[int, list[int]]]) -> None:
        """The pair variables for `rows` (each player with the later ones he may meet),
        with their neighbour lists (dutch.model.make_pairs)."""
        assert not self.x
        self.x, self.adj, self.adj_index, self.first_pair_index = make_pairs(self.model, self.players, rows)

    def _restrict(self) -> None:
        """Give a big model's solver its restriction and the count model's bound (a
        near model: the bound, which its certificates need; a model too small for a
        restriction but with `bound_from` pairs: the bound, which a search on
        propagation alone then often reaches, LexSolver._reaching_run).  Any other
        model gets the bracket's re-pairing alone, tried against the tiers' own
        bounds (`SolverSettings.small_repair`)."""
        optional = self.optional_pairs()
        me = weakref.proxy(self)  # see `counts`
        if optional or self.far is not None or len(self.x) >= self.settings.bound_from:
            width = self.settings.near_window
            self.solver.use_restrictions(
                optional, lambda chunk, fixed: me.counts.minimum(chunk, fixed), lambda chunk, target: repair(me, chunk, target),
                (lambda chunk: settled_pairs(me, chunk, width)) if self.far is not None else None,
            )
        elif self.settings.small_repair:
            self.solver.use_restrictions([], None, lambda chunk, target: repair(me, chunk, target, with_mdps=True))

    def player_families(self) -> dict[str, dict[int, cp_model.IntVar]]:
        return {"df": self.df, "u": self.u, "exit": self.exit}

    def counters(self) -> list[cp_model.IntVar]:
        return []

    def portable(self, values: dict[int, int]) -> dict[tuple[str, int, int], int]:
        """A solution (`values`, by index) named by what its variables stand for: a pair
        ("x", p, q), a player's own variable (family, p, 0), a counter ("v", place, 0).
        Another model of the same bracket reads it back (`from_portable`)."""
        out: dict[tuple[str, int, int], int] = {}
        for (p, q), i in self.pair_indices():
            if values.get(i):
                out["x", p, q] = 1
        for name, family in self.player_families().items():
            for p, v in family.items():
                if values.get(v.index):
                    out[name, p, 0] = values[v.index]
        for k, v in enumerate(self.counters()):
            out["v", k, 0] = values.get(v.index, 0)
        return out

    def from_portable(self, named: dict[tuple[str, int, int], int]) -> dict[int, int] | None:
        """`portable`'s solution as this model's values (by index; every other variable
        0), or None if this model has no variable for one of its non-zero parts."""
        families = self.player_families()
        counters = dict(enumerate(self.counters()))
        out: dict[int, int] = {}
        for (kind, a, b), value in named.items():
            if kind == "x":
                v = self.x.get((a, b))
            elif kind == "v":
                v = counters.get(a)
            else:
                v = families.get(kind, {}).get(a)
            if v is None:
                if value:
                    return None
                continue
            out[v.index] = value
        return out

    @cached_property
    def level_score(self) -> dict[int, Fraction]:
        """Each score level (`units`, an integer) as the score it is: the criteria group
        by level and label their tiers, and [C8] keys its counts, by the score."""
        units, score = self.units, self.score
        return {units[p]: s for p, s in score.items()}

    @cached_property
    def counts(self) -> CountBound:
        """The bracket's count model (bounds.py), built on first use: most tiers never need it.

        It and the solver's callbacks see the model through a weak proxy: a reference
        cycle would keep a finished bracket's model, hundreds of MB at thousands of
        players, alive until a full garbage collection, after the next one is built."""
        return CountBound(weakref.proxy(self))

    def optional_pairs(self) -> list[list[int]]:
        """Pairs of a big model that a solve can first try without (LexSolver.optional;
        dutch.model.window_restrictions), for models of at least
        `SolverSettings.sparse_from` pair variables (not a near model: its pairs are
        near ones already)."""
        if len(self.x) < self.settings.sparse_from or self.far is not None:
            return []
        return window_restrictions(self.players, self.score, self.mdps, self.pair_indices(), self.settings.windows)

    def local_vars(self) -> frozenset[int]:
        """Indices of the variables that describe the bracket alone: its inside pairs and
        its downfloaters.  A tier over these only can be solved on the `local` model."""
        pairs = frozenset(i for _, i in self._inside(self.pair_indices()))
        return pairs | frozenset(v.index for v in self.df.values())

    def add_parity_cuts(self) -> None:
        """Odd-set cuts: an odd set of players, none unpaired, sends a pair out.

        They strengthen the matching relaxation (CP-SAT's LP sees fractional odd cycles
        otherwise); they cut off no integer solution.
        """
        for members, key in odd_sets(self.players, self.score, self.bracket, len(self.remaining)):
            leaving = self._leaving(members, key)
            if leaving:
                # By index and sorted, as the modelling layer writes `sum(...) >= 1`.
                add_sum(self.model, sorted(leaving), 1)
            else:
                self.model.add(False)  # no way out of an odd set: no pairing at all

    def _leaving(self, members: list[int], g: frozenset[int]) -> list[int]:
        """Indices of the variables that pair a member of the set g with someone
        outside it (or leave him unpaired)."""
        adj = self.adj_index
        out = [i for p in members for q, i in adj[p] if q not in g]
        for d in (self.exit, self.u):
            out += [d[p].index for p in members if p in d]
        if self.far is not None and not all(p in g for p in self.far.f):
            out += [self.far.f[p].index for p in members if p in self.far.f]  # a far partner may be outside
        return out

    def complete(self) -> list[Pair] | None:
        """A complete round-pairing extending the incumbent, or None if none exists.

        Exits must find partners among the lower players, who pair among themselves; at
        most one player stays unpaired, and only one allowed the PAB ([C2], [C5]).
        """
        chosen = self.chosen_pairs()
        if not self.lazy:
            return chosen
        below = self.complete_below()
        return None if below is None else chosen + below

    def complete_below(self) -> list[Pair] | None:
        """Partners below for the exits, the lower players paired among themselves.

        A maximum matching over the exits and the lower players, started from the
        witness (`start_from`): most of its pairs still fit, so only a few players need
        an augmenting path, and only the players those searches reach have their
        neighbours listed."""
        exits = [p for p, v in self.exit.items() if self.solver.var_value(v)]
        unpaired_above = any(self.solver.var_value(v) for v in self.u.values())
        verts = exits + self.lower
        index = {p: i for i, p in enumerate(verts)}
        lower_set = frozenset(self.lower)
        vert_set = frozenset(verts)
        excluded = self.compatible.excluded
        n_exits = len(exits)
        dummy = len(verts) if len(verts) % 2 else -1
        if dummy >= 0 and unpaired_above:
            return None

        def row(i: int) -> list[int]:
            if i == dummy:
                return [index[q] for q in self.lower if q in self.pab_allowed]
            p = verts[i]
            if i < n_exits:  # an exit meets a lower player
                return [index[q] for q in sorted(lower_set - excluded(p), key=index.__getitem__)]
            out = [index[q] for q in sorted(vert_set - excluded(p), key=index.__getitem__)]
            if dummy >= 0 and p in self.pab_allowed:
                out.append(dummy)
            return out

        size = len(verts) + (dummy >= 0)
        mate = [-1] * size
        for p, q in self.witness.items():
            i, j = index.get(p), index.get(q)
            if i is not None and j is not None and (i >= n_exits or j >= n_exits):
                mate[i], mate[j] = j, i
        if dummy >= 0:
            free = [i for i in range(n_exits, len(verts)) if mate[i] == -1 and verts[i] in self.pab_allowed]
            if free:
                mate[free[0]], mate[dummy] = dummy, free[0]
        from cpsat_pairing.solver.matching import LazyAdjacency, is_perfect

        ok, mate = is_perfect(LazyAdjacency(size, row), mate)
        if not ok:
            return None
        return [(p, verts[mate[i]]) for i, p in enumerate(verts) if i < mate[i] < len(verts)]

    # -- expressions --------------------------------------------------------------

    def pairs_within(self, a: Iterable[int], b: Iterable[int] | None = None) -> list[cp_model.IntVar]:
        """Pair variables with one end in `a` and the other in `b` (or both in `a`)."""
        aset = frozenset(a)
        bset = aset if b is None else frozenset(b)
        out = []
        for (p, q), v in self.x.items():
            if (p in aset and q in bset) or (b is not None and q in aset and p in bset):
                out.append(v)
        return out

    def inside(self, p: int, q: int) -> bool:
        """A pair made inside the bracket: both in it, and not two MDPs (Art. 3.2:
        MDPs in S1 meet residents in S2; two MDPs never form a pair of the bracket)."""
        return p in self.in_bracket and q in self.in_bracket and not (p in self.mdps and q in self.mdps)

    def bracket_pairs(self) -> list[tuple[Pair, cp_model.IntVar]]:
        """The pairs made inside the bracket; in a near model also each count of far
        pairs, as a pair of two players of its classes (dutch/near.py)."""
        if self._bracket_pairs is None:
            self._bracket_pairs = self._inside(self.x.items())
            if self.far is not None:
                self._bracket_pairs += self.far.pseudo_pairs()
        return self._bracket_pairs

    def _inside(self, pairs: Iterable[tuple[Pair, T]]) -> list[tuple[Pair, T]]:
        """The pairs (each with its variable or index) that `inside` accepts, without a
        call per pair (millions at 5,000 players): where every pair variable joins two
        bracket players (`x_in_bracket`), only two MDPs are left out."""
        inb, mdps = self.in_bracket, self.mdps
        if not self.x_in_bracket:
            return [(k, v) for k, v in pairs if k[0] in inb and k[1] in inb and not (k[0] in mdps and k[1] in mdps)]
        if len(mdps) < 2:
            return list(pairs)
        return [(k, v) for k, v in pairs if not (k[0] in mdps and k[1] in mdps)]

    def mdp_pairs(self) -> list[tuple[Pair, cp_model.IntVar]]:
        """The bracket's pairs with an MDP: the only ones whose players' scores differ,
        but in the 2013 bracket C.13 joins at the bottom (residents of several scores)."""
        if self._mdp_pairs is None:
            mdps = self.mdps
            self._mdp_pairs = [(k, v) for k, v in self.bracket_pairs() if k[0] in mdps or k[1] in mdps]
        return self._mdp_pairs

    def next_bracket_pairs(self) -> dict[Fraction, list[cp_model.IntVar]]:
        """[C8]: Booleans counting the next bracket's pairs (those with a next-scoregroup
        resident as the lower player), by the score of the higher player."""
        ns = frozenset(self.next_group)
        nb = self.in_bracket | ns
        units = self.units
        by_level: dict[int, list[cp_model.IntVar]] = {}
        for (p, q), v in self.x.items():
            if p in nb and q in nb and (p in ns or q in ns):
                by_level.setdefault(max(units[p], units[q]), []).append(v)
        return {self.level_score[level]: vs for level, vs in by_level.items()}

    # -- reading the incumbent ---------------------------------------------------

    def _partners(self, pairs: Iterable[Pair]) -> dict[int, int] | None:
        """The partner of each player in `pairs`, if they form a complete round-pairing
        of the remaining players ([C2]: the one left unpaired, if any, may get the
        PAB); else None."""
        partner: dict[int, int] = {}
        for p, q in pairs:
            partner[p], partner[q] = q, p
        if sorted(partner) != sorted(partner.values()) or not set(partner) <= set(self.remaining):
            return None
        unmatched = [p for p in self.remaining if p not in partner]
        if len(unmatched) != len(self.remaining) % 2 or any(p not in self.pab_allowed for p in unmatched):
            return None
        return partner

    def start_from(self, pairs: Iterable[Pair]) -> bool:
        """Take a complete round-pairing of the remaining players as the incumbent, and
        keep it as the `witness`.

        The previous bracket's solution, less the pairs it fixed, is such a pairing: no
        feasibility solve is needed.  Returns False when `pairs` does not fit the model.
        """
        partner = self._partners(pairs)
        if partner is None:
            return False
        self.witness = partner
        values = self._values_of(partner)
        if values is None:
            return False
        self.solver.set_incumbent(values)
        return True

    def values_of(self, pairs: Iterable[Pair]) -> dict[int, int] | None:
        """The model's values of a complete round-pairing of the remaining players, or
        None when `pairs` is not one or the model cannot hold it."""
        partner = self._partners(pairs)
        return None if partner is None else self._values_of(partner)

    def _values_of(self, partner: dict[int, int]) -> dict[int, int] | None:
        """`values_of` by each player's partner."""
        pset = frozenset(self.players)
        vals = dict.fromkeys(self.solver.all_indices(), 0)
        chosen = set()
        for p in self.players:
            q = partner.get(p)
            if q is None:
                if p not in self.u:
                    return None
                vals[self.u[p].index] = 1
            elif q in pset:
                key = (p, q) if (p, q) in self.x else (q, p)
                if key not in self.x:
                    return None
                chosen.add(key)
            else:
                if p not in self.exit:
                    return None
                vals[self.exit[p].index] = 1
        for key in chosen:
            vals[self.x[key].index] = 1
        paired_inside = {p for key in chosen if self.inside(*key) for p in key}
        for p, v in self.df.items():
            vals[v.index] = int(p not in paired_inside)
        return vals

    def force(self, pairs: Iterable[Pair]) -> None:
        """Fix the model to a given complete round-pairing (to score it on every tier)."""
        pset = frozenset(self.players)
        partner: dict[int, int] = {}
        for a, b in pairs:
            partner[a], partner[b] = b, a
        m = self.model
        for p in self.players:
            q = partner.get(p)
            if q is None:
                m.add(self.u[p] == 1)
            elif q in pset:
                m.add(self.x[(p, q) if (p, q) in self.x else (q, p)] == 1)
            else:
                m.add(self.exit[p] == 1)
        self.solver.fix_domains(self._forced_values(partner))
        self.solver.read_fixed_tiers = True

    def _forced_values(self, partner: Mapping[int, int]) -> Iterator[tuple[int, int]]:
        """What `force` fixes, as the values of the model's Booleans (index, value): each
        player's pair (or PAB, or exit) at 1 and his others at 0, and whether he floats.
        By their domains, a tier over them reads its value off them without a solve
        (LexSolver.read_fixed_tiers)."""
        pset = frozenset(self.players)
        for (p, r), v in self.x.items():
            yield v.index, int(partner.get(p) == r)
        for p in self.players:
            q = partner.get(p)
            if p in self.u:
                yield self.u[p].index, int(q is None)
            if p in self.exit:
                yield self.exit[p].index, int(q is not None and q not in pset)
            if p in self.df:
                yield self.df[p].index, int(not (q is not None and q in pset and self.inside(p, q)))

    def bracket_result(self) -> tuple[list[Pair], list[int]]:
        """Pairs made inside the bracket, and the downfloaters (ranking order)."""
        inside = self.inside
        pairs = [(p, q) for p, q in self.chosen_pairs() if inside(p, q)]
        floaters = [p for p in self.bracket if self.solver.var_value(self.df[p])]
        return pairs, floaters
