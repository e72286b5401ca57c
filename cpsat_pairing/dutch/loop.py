"""The one round loop: brackets from the top scoregroup down (2026 Art. 1.9.2).

Every edition pairs a round the same way: something is settled for the whole round
first (2026: the [C5] PAB score; 2017: that a complete round-pairing exists), then
brackets are formed and paired one after another, each bracket's downfloaters moving
down as the next one's MDPs, until nobody is left but the PAB assignee.  What differs
is which players form the next bracket (2017 A.9: the penultimate and the collapsed
last bracket; 2013 C.13: the brackets joined at the bottom) and how one bracket is
solved.  An edition says that through its `Procedure`, the hooks this loop calls.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING, Protocol

from cpsat_pairing.domain.compat import Compatibility
from cpsat_pairing.domain.state import RoundState, build_state
from cpsat_pairing.domain.tournament import Tournament
from cpsat_pairing.dutch.boards import make_boards
from cpsat_pairing.dutch.edition import Edition
from cpsat_pairing.dutch.result import BracketTrace, Pair, Pairing, alike
from cpsat_pairing.formats.layout import points_text as points
from cpsat_pairing.records import STATS, InfeasibleError
from cpsat_pairing.solver.settings import SolverSettings

if TYPE_CHECKING:  # a round paired without models never imports them (or OR-Tools)
    from cpsat_pairing.dutch.bracket import BracketModel


@dataclass
class RoundContext:
    """A round being paired: the state of the players, what is settled so far, and
    what its brackets share."""

    tournament: Tournament
    state: RoundState
    edition: Edition
    settings: SolverSettings
    compatible: Compatibility
    # `evaluate`: the given complete round-pairing, scored instead of optimised.
    forced: list[Pair] | None = None
    # `evaluate` against the rules' pairing of the round: scored down to the first
    # bracket where the two are not alike only (`parted`).
    against: Pairing | None = None
    progress: Callable[[str], None] | None = None
    remaining: list[int] = field(default_factory=list)  # not yet paired, ranking order
    mdps: list[int] = field(default_factory=list)  # the last bracket's downfloaters
    pairs: list[Pair] = field(default_factory=list)
    brackets: list[BracketTrace] = field(default_factory=list)
    pab_score: Fraction | None = None  # 2026 [C5]: fixed for the round first
    pab_allowed: frozenset[int] = frozenset()  # who may be left unpaired
    witness: list[Pair] = field(default_factory=list)  # a complete pairing of `remaining`
    scoregroups: list[Fraction] = field(default_factory=list)  # pairing scores, highest first
    next_group: int = 0  # index into `scoregroups` of the next bracket's residents
    # The brackets below were joined into one (2017 A.9: the collapsed last bracket).
    collapsed: bool = False
    done: bool = False  # the procedure has paired everybody (2013 C.13: the joined lowest bracket)

    @cached_property
    def score(self) -> dict[int, Fraction]:
        """Pairing scores of the players to pair."""
        return {p: self.state.players[p].pairing_score for p in self.state.present}

    @cached_property
    def group(self) -> dict[int, int]:
        """Each player's scoregroup as its index in `scoregroups` (set once, before the
        first bracket): the brackets then compare small integers, not Fractions."""
        units = self.state.pairing_units
        present = self.state.present
        index = {u: k for k, u in enumerate(sorted({units[p] for p in present}, reverse=True))}
        assert len(index) == len(self.scoregroups)
        return {p: index[units[p]] for p in present}

    def record(self, trace: BracketTrace, witness: list[Pair] | None = None) -> None:
        """A bracket is paired: its pairs are final, its downfloaters move down."""
        self.brackets.append(trace)
        self.pairs += trace.pairs
        paired = {p for pq in trace.pairs for p in pq}
        self.remaining = [p for p in self.remaining if p not in paired]
        self.mdps = list(trace.downfloaters)
        if witness is not None:
            self.witness = witness

    def parted(self) -> bool:
        """Scoring against the rules' pairing, a bracket scored so far is not alike the
        rules' (result.alike): where the two first differ is found, and the brackets
        below cannot move it."""
        if self.against is None:
            return False
        return not all(alike(a, b) for a, b in zip(self.against.brackets, self.brackets))

    def rules_trace(self, bracket: Bracket) -> BracketTrace | None:
        """The rules' trace of this bracket, when scoring against them: every bracket
        above was alike (else the loop has stopped), so the same players remain and this
        bracket is the rules' when it holds the same residents and MDPs."""
        i = len(self.brackets)
        if self.against is None or i >= len(self.against.brackets):
            return None
        tr = self.against.brackets[i]
        same = tr.score == bracket.score and set(tr.residents) == set(bracket.residents)
        return tr if same and set(tr.mdps) == set(bracket.mdps) else None

    def tell(self, text: str) -> None:
        if self.progress is not None:
            self.progress(text)


@dataclass(frozen=True)
class Bracket:
    """The players of one bracket (Art. 1.3.2): the residents of a scoregroup and the
    MDPs the bracket above left unpaired, and those the model looks at below it."""

    score: Fraction  # the residents' pairing score
    residents: list[int]
    mdps: list[int]
    players: list[int]  # MDPs and residents in ranking order: BSN = index + 1
    next_group: list[int]  # the next scoregroup's residents (the look-ahead of [C8], C.7)
    number: int  # 1, 2, ... from the top (progress)
    kind: str = ""  # 2017 A.9: "CLB" for the collapsed last bracket

    def head(self, count: int) -> str:
        return f"bracket {self.number}/{count} (score {points(self.score)}, {len(self.players)} players)"


class Procedure(Protocol):
    """How an edition pairs a round: the hooks of the round loop."""

    def start(self, rc: RoundContext) -> None:
        """Settle what holds for the whole round before the first bracket."""
        ...

    def next_bracket(self, rc: RoundContext) -> Bracket | None:
        """The next bracket, or None when nobody is left to pair."""
        ...

    def pair_bracket(self, rc: RoundContext, bracket: Bracket) -> None:
        """Pair the bracket and `record` it (a procedure that joins the brackets below
        into it records each and sets `done`)."""
        ...


def residents_bracket(rc: RoundContext) -> Bracket | None:
    """The next bracket of the loop's own scoregroups: the residents of the next
    scoregroup still unpaired and the MDPs (2026 and 2013)."""
    i = rc.next_group
    if i >= len(rc.scoregroups):
        return None
    rc.next_group += 1
    level = rc.scoregroups[i]
    group = rc.group
    mdps = rc.mdps
    taken = frozenset(mdps)
    residents = [p for p in rc.remaining if group[p] == i and p not in taken]
    players = sorted(mdps + residents, key=rc.state.rank_key)
    next_group = [p for p in rc.remaining if group[p] == i + 1]
    return Bracket(level, residents, list(mdps), players, next_group, i + 1)


def pair_round(
    t: Tournament,
    rnd: int,
    ed: Edition,
    settings: SolverSettings,
    forced: list[Pair] | None = None,
    progress: Callable[[str], None] | None = None,
    against: Pairing | None = None,
    hint: Sequence[Pair] | None = None,
) -> Pairing:
    """Pair round `rnd` under `ed` (or, with `forced`, score that round-pairing; with
    `against` too, only down to the first bracket not alike the rules' pairing
    `against`: then the brackets are a prefix and the PAB is not known).  `hint`: a
    complete pairing of the round to start from where it is one (`check` gives the
    file's own); it changes how soon each tier is proven, never the answer."""
    st = build_state(t, rnd, ed.state_rules)
    rc = RoundContext(t, st, ed, settings, Compatibility(st, t), forced, against if forced is not None else None,
                      progress, remaining=list(st.present))
    rc.scoregroups = sorted({st.players[p].pairing_score for p in st.present}, reverse=True)
    hooks: Procedure = ed.hooks
    hooks.start(rc)
    if hint is not None and forced is None and rc.witness and _completes_round(rc, hint):
        # The models start from it; every tier is still proven, so the answer is the
        # same, but where the hint is the rules' pairing most tiers meet their bounds.
        rc.witness = list(hint)
        STATS["hinted"] += 1
    with _collected_by_bracket():
        while not rc.done and (bracket := hooks.next_bracket(rc)) is not None:
            hooks.pair_bracket(rc, bracket)
            if gc.get_count()[0] >= _YOUNG_OBJECTS:
                gc.collect(1)
            if rc.parted():
                rc.mdps = []
                break
    bye = rc.mdps[0] if rc.mdps else None
    boards = make_boards(t, st, rc.pairs, ed)
    return Pairing(rnd, ed.name, boards, bye, sorted(st.absent), rc.brackets, rc.pab_score)


def _completes_round(rc: RoundContext, hint: Sequence[Pair]) -> bool:
    """Is `hint` a witness for the round loop: every pair allowed ([C1]-[C3], B.1-B.2),
    every present player in one pair but at most one, who may have the PAB."""
    seen: set[int] = set()
    present = set(rc.state.present)
    for p, q in hint:
        if p in seen or q in seen or p not in present or q not in present or not rc.compatible(p, q):
            return False
        seen.update((p, q))
    left = present - seen
    return len(left) <= 1 and left <= rc.pab_allowed


# Young objects (net container allocations since the last collection) past which the
# loop above collects after a bracket.  A big bracket leaves far more; a small one about
# a hundred, so collecting after each small bracket paid a collection for nothing.
_YOUNG_OBJECTS = 20_000


@contextmanager
def _collected_by_bracket() -> Iterator[None]:
    """Python's cyclic garbage collection off while the brackets are paired, the young
    objects collected after a bracket that left many (the loop above).  A big bracket's
    models are millions of objects; the automatic full collections traverse all of them
    again and again (5,000 players: 2.7 s in 20,000 collections), and raising the
    thresholds does not spare the full ones.  The state is restored, whatever the
    caller had."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def first_solution(bm: BracketModel, rc: RoundContext) -> None:
    """A bracket model's first incumbent: the pairs `rc` forces (scoring a given
    pairing), then the witness when it fits, else a solve; none at all means the round
    has no valid pairing, which is said with who and why."""
    if rc.forced is not None:
        bm.force(rc.forced)
    if not bm.start_from(rc.witness):
        try:
            bm.solver.solve()
        except InfeasibleError:
            from cpsat_pairing.dutch.unpairable import no_valid_pairing  # a round without a pairing only

            raise no_valid_pairing(rc.state, rc.remaining, rc.compatible) from None
