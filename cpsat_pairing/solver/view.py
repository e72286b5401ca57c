"""What the solver's bracket mechanisms (bounds, class counts, repair proposals) read of
a bracket model.  Both bracket models (dutch/bracket.py, dutch/e2017/bracket.py)
provide it; the solver layer needs no more of the Dutch system than this."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Protocol

from ortools.sat.python import cp_model

from cpsat_pairing.domain.state import RoundState

if TYPE_CHECKING:
    from cpsat_pairing.solver.cpsat import Model
    from cpsat_pairing.solver.lex import LexSolver

Pair = tuple[int, int]


class FarGroupView(Protocol):
    """A near model's far pairs between two classes of players, as one count."""

    classes: tuple[int, int]  # the two classes (player_classes), the lower first
    var: cp_model.IntVar  # how many of those pairs are made
    count: int  # how many there are


class FarView(Protocol):
    """What a near model (dutch/near.py) keeps of its far pairs."""

    @property
    def cls(self) -> dict[int, int]:
        """Each modelled player's class (solver/bounds.player_classes)."""
        ...

    @property
    def groups(self) -> Sequence[FarGroupView]:
        ...

    @property
    def f(self) -> dict[int, cp_model.IntVar]:
        """A Boolean per player: paired by a far pair."""
        ...

    @property
    def sides(self) -> dict[int, tuple[tuple[int, int], int, int]]:
        """Once S1 and S2 are fixed: each count of far S1-S2 pairs of two classes, by
        index, with an S1 and an S2 player of them, the index of the two classes' far
        count, and its upper bound."""
        ...


class BracketView(Protocol):
    """A bracket's model: its players, its variables by pair and by player, its solver."""

    state: RoundState
    bracket: list[int]  # ranking order, MDPs first: BSN = index + 1
    residents: list[int]
    mdps: frozenset[int]
    in_bracket: frozenset[int]
    players: list[int]  # every player modelled pair by pair
    model: Model
    solver: LexSolver
    x: dict[Pair, cp_model.IntVar]  # a Boolean per compatible pair
    df: dict[int, cp_model.IntVar]  # a bracket player not paired inside the bracket
    u: dict[int, cp_model.IntVar]  # the player left unpaired (the PAB)

    @property
    def far(self) -> FarView | None:
        """A near model's far pairs, or None: every pair is modelled."""
        ...

    @property
    def adj_index(self) -> dict[int, list[tuple[int, int]]]:
        """Each player's neighbours with the proto index of their pair variable."""
        ...

    def pair_indices(self) -> Iterable[tuple[Pair, int]]:
        """Each pair of `x` with its variable's proto index."""
        ...

    def inside(self, p: int, q: int) -> bool:
        """A pair made inside the bracket."""
        ...

    def player_families(self) -> dict[str, dict[int, cp_model.IntVar]]:
        """A player's own variables by family: "df", "u", "exit" (and the aggregate
        model's "dn", "up", "w")."""
        ...


class RoundView(BracketView, Protocol):
    """A bracket model that also holds the rest of the round (the count model's view)."""

    next_group: list[int]
    pab_allowed: frozenset[int]
    exit: dict[int, cp_model.IntVar]  # a player paired further down (the lazy model)
    local: bool  # the bracket alone
    lower: list[int]

    def counters(self) -> list[cp_model.IntVar]:
        """Variables that count something other than a player (the aggregate model's
        pairs inside the next scoregroup)."""
        ...
