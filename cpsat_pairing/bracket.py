"""The CP-SAT model of one bracket (2026 Art. 3), over every player still to pair.

Variables: `x[p, q]` for each compatible pair of remaining players (absolute criteria
[C1]-[C3] and forbidden pairs decide which pairs exist at all), `u[p]` when p is left
unpaired (receives the PAB), `df[p]` when a bracket player is not paired inside the
bracket (a downfloater).  Pairs among lower players are in the model only as a witness
that the rest of the round can still be completed ([C4]); their choice is revisited
when their own bracket is paired.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable, Iterable

from ortools.sat.python import cp_model

from .lex import LexSolver, Term
from .state import RoundState

Pair = tuple[int, int]


@dataclass
class BracketModel:
    """Model and variables for pairing one bracket; `solver` holds the incumbent."""

    state: RoundState
    remaining: list[int]  # every player still to pair, ranking order
    bracket: list[int]  # bracket players in ranking order (MDPs first): BSN = index + 1
    mdps: frozenset[int]
    next_group: list[int]  # residents of the following scoregroup (for [C8])
    compatible: Callable[[int, int], bool]
    pab_allowed: frozenset[int]  # who may be left unpaired ([C2] and the fixed [C5])
    workers: int = 1
    pab_score: Fraction | None = None  # the [C5] score fixed for the round
    model: cp_model.CpModel = field(default_factory=cp_model.CpModel)
    x: dict[Pair, cp_model.IntVar] = field(default_factory=dict)
    u: dict[int, cp_model.IntVar] = field(default_factory=dict)
    df: dict[int, cp_model.IntVar] = field(default_factory=dict)
    adj: dict[int, list[tuple[int, cp_model.IntVar]]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.bsn = {p: i + 1 for i, p in enumerate(self.bracket)}
        self.mdps = frozenset(self.mdps)
        self.in_bracket = frozenset(self.bracket)
        self.residents = [p for p in self.bracket if p not in self.mdps]
        self.score = {p: self.state.players[p].pairing_score for p in self.remaining}
        m = self.model
        rem = self.remaining
        for p in rem:
            self.adj[p] = []
        for i, p in enumerate(rem):
            for q in rem[i + 1 :]:
                if self.compatible(p, q):
                    v = m.new_bool_var(f"x_{p}_{q}")
                    self.x[(p, q)] = v
                    self.adj[p].append((q, v))
                    self.adj[q].append((p, v))
        odd = len(rem) % 2
        unpaired: list[cp_model.IntVar] = []
        for p in rem:
            if odd and p in self.pab_allowed:
                up = m.new_bool_var(f"u_{p}")
                self.u[p] = up
                unpaired.append(up)
                m.add(sum(v for _, v in self.adj[p]) + up == 1)
            else:
                m.add(sum(v for _, v in self.adj[p]) == 1)
        if odd:
            m.add(sum(unpaired) == 1)
        for p in self.bracket:
            d = m.new_bool_var(f"df_{p}")
            self.df[p] = d
            m.add(sum(v for q, v in self.adj[p] if self.inside(p, q)) + d == 1)
        self.add_parity_cuts()
        all_vars = list(self.x.values()) + list(self.u.values()) + list(self.df.values())
        self.solver = LexSolver(m, all_vars, workers=self.workers)

    def add_parity_cuts(self) -> None:
        """Odd-set cuts: an odd set of players with no unpaired one sends a pair out.

        They strengthen the matching relaxation (CP-SAT's LP sees fractional odd cycles
        otherwise); they cut off no integer solution.
        """
        rem = self.remaining
        groups: list[list[int]] = []
        by_score: dict[Fraction, list[int]] = {}
        for p in rem:
            by_score.setdefault(self.score[p], []).append(p)
        prefix: list[int] = []
        for s in sorted(by_score, reverse=True):
            groups.append(by_score[s])
            prefix = prefix + by_score[s]
            groups.append(list(prefix))
        groups.append(list(self.bracket))
        seen: set[frozenset[int]] = set()
        for g in groups:
            key = frozenset(g)
            if len(g) % 2 == 0 or key in seen or len(g) == len(rem):
                continue
            seen.add(key)
            out = [v for p in g for q, v in self.adj[p] if q not in key]
            unp = [self.u[p] for p in g if p in self.u]
            self.model.add(sum(out) + sum(unp) >= 1)

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
        return [((p, q), v) for (p, q), v in self.x.items() if self.inside(p, q)]

    def term(self, name: str, weighted: Iterable[tuple[int, cp_model.IntVar]], one_hot: bool = False) -> Term:
        coefs: list[int] = []
        vs: list[cp_model.IntVar] = []
        for c, v in weighted:
            if c:
                coefs.append(c)
                vs.append(v)
        return Term(name, coefs, vs, one_hot)

    # -- reading the incumbent ---------------------------------------------------

    def start_from(self, pairs: Iterable[Pair]) -> bool:
        """Take a complete matching of the remaining players as the incumbent.

        The previous bracket's solution, less the pairs it fixed, is such a matching: no
        feasibility solve is needed.  Returns False when `pairs` does not fit.
        """
        chosen = set()
        for p, q in pairs:
            key = (p, q) if (p, q) in self.x else (q, p)
            if key not in self.x:
                return False
            chosen.add(key)
        matched = {p for pq in chosen for p in pq}
        unmatched = [p for p in self.remaining if p not in matched]
        if len(unmatched) != len(self.remaining) % 2 or any(p not in self.u for p in unmatched):
            return False
        vals = self.solver.values
        vals.clear()
        for key, v in self.x.items():
            vals[v.index] = int(key in chosen)
        for p, v in self.u.items():
            vals[v.index] = int(p in unmatched)
        for p, v in self.df.items():
            vals[v.index] = int(not any(self.inside(*key) and p in key for key in chosen))
        return True

    def chosen_pairs(self) -> list[Pair]:
        return [k for k, v in self.x.items() if self.solver.var_value(v)]

    def bracket_result(self) -> tuple[list[Pair], list[int]]:
        """Pairs made inside the bracket, and the downfloaters (ranking order)."""
        pairs = [k for k, v in self.bracket_pairs() if self.solver.var_value(v)]
        floaters = [p for p in self.bracket if self.solver.var_value(self.df[p])]
        return pairs, floaters
