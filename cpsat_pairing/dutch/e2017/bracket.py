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

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable, Iterable

from ortools.sat.python import cp_model

from cpsat_pairing.domain.state import RoundState
from cpsat_pairing.dutch.model import PairIndices, odd_sets
from cpsat_pairing.solver.lex import LexSolver
from cpsat_pairing.solver.settings import DEFAULT_SETTINGS, SolverSettings

Pair = tuple[int, int]


@dataclass
class BracketModel2017(PairIndices):
    state: RoundState
    bracket: list[int]  # MDPs then residents, ranking order: BSN = index + 1
    mdps: frozenset[int]
    lower: list[int]  # the following scoregroup (normal) or every player below (special)
    compatible: Callable[[int, int], bool]
    pab_allowed: frozenset[int]  # [C.2]: who may be left unpaired in a special bracket
    special: bool  # last bracket, PPB or CLB: the round must be completed here
    final: bool = False  # normal bracket whose following scoregroup is the last one
    odd: bool = False  # an odd number of players is left to pair (a PAB is due)
    soft_completion: bool = False  # completion as the first tier instead of a constraint
    settings: SolverSettings = DEFAULT_SETTINGS
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
        self.players = list(self.bracket) + list(self.lower)
        # Position in the model (the order of the rules' ranking): the earlier of two
        # players is the "higher" one of their pair.
        self.pos = {p: i for i, p in enumerate(self.players)}
        self.score = {p: self.state.players[p].pairing_score for p in self.players}
        # A.8: the downfloaters' artificial score difference is measured from one point
        # below the lowest score in the model (the reference engines' reading: the next
        # scoregroup in a normal bracket, the lowest remaining score in a special one).
        self.min_score = min(self.score.values())
        m = self.model
        for p in self.players:
            self.adj[p] = []
        for i, p in enumerate(self.players):
            for q in self.players[i + 1 :]:
                if p in self.mdps and q in self.mdps:
                    continue
                if self.compatible(p, q):
                    v = m.new_bool_var(f"x_{p}_{q}")
                    self.x[(p, q)] = v
                    self.adj[p].append((q, v))
                    self.adj[q].append((p, v))
        if self.special and not self.soft_completion:
            for p in self.players:
                terms = [v for _, v in self.adj[p]]
                if self.odd and p in self.pab_allowed:
                    up = m.new_bool_var(f"u_{p}")
                    self.u[p] = up
                    terms.append(up)
                m.add(sum(terms) == 1)
            if self.odd:
                m.add(sum(self.u.values()) == 1)
            self._parity_cuts()
        else:
            for p in self.players:
                if self.adj[p]:
                    m.add(sum(v for _, v in self.adj[p]) <= 1)
        for p in self.bracket:
            d = m.new_bool_var(f"df_{p}")
            self.df[p] = d
            m.add(sum(v for q, v in self.adj[p] if q in self.in_bracket) + d == 1)
        all_vars = list(self.x.values()) + list(self.u.values()) + list(self.df.values())
        self.solver = LexSolver(m, all_vars, self.settings)

    def _parity_cuts(self) -> None:
        """Odd-set cuts for the complete matching (each score group, each prefix, the
        bracket): an odd set with nobody unpaired sends a pair out.  They remove no
        integer solution; they keep CP-SAT's LP away from fractional odd cycles."""
        for members, key in odd_sets(self.players, self.score, self.bracket, len(self.players), bracket_first=True):
            out = [v for p in members for q, v in self.adj[p] if q not in key]
            out += [self.u[p] for p in members if p in self.u]
            self.model.add(sum(out) >= 1)

    # -- expressions --------------------------------------------------------------

    def inside(self, p: int, q: int) -> bool:
        return p in self.in_bracket and q in self.in_bracket

    def bracket_pairs(self) -> list[tuple[Pair, cp_model.IntVar]]:
        """Pairs made inside the bracket (with h the higher-ranked player)."""
        return [((p, q), v) for (p, q), v in self.x.items() if p in self.in_bracket and q in self.in_bracket]

    def sd_floater(self, p: int) -> Fraction:
        """A.8: the score difference of a downfloater (score - (lowest score - 1))."""
        return self.score[p] - self.min_score + 1

    # -- the incumbent --------------------------------------------------------------

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
                        key = (p, q) if (p, q) in self.x else (q, p)
                        m.add(self.x[key] == 1)

    def chosen_pairs(self) -> list[Pair]:
        return [k for k, v in self.x.items() if self.solver.var_value(v)]

    def bracket_result(self) -> tuple[list[Pair], list[int]]:
        """Pairs made inside the bracket, and the downfloaters (ranking order)."""
        pairs = [k for k, v in self.bracket_pairs() if self.solver.var_value(v)]
        floaters = [p for p in self.bracket if self.solver.var_value(self.df[p])]
        return pairs, floaters
