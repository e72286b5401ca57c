"""Pairs one round, bracket by bracket from the top scoregroup down (2026 Art. 1.9.2).

For each bracket a CP-SAT model over every player still to pair is solved tier by tier:
the edition's quality criteria, then the generation order.  The bracket's pairs are
then final, its downfloaters become the next bracket's MDPs, and the next bracket is
modelled over the players left.  [C5] (the lowest possible PAB score) is settled once
for the whole round before the first bracket, as the rules rank it above every quality
criterion.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from . import criteria as _criteria  # noqa: F401  (fills the registry)
from . import errors
from .bracket import BracketModel
from .colours import allocate
from .criteria import REGISTRY
from .editions import DEFAULT_EDITION, Edition, load_edition
from .lex import InfeasibleError, Term
from .order import generation_order
from .state import PlayerState, PrefKind, RoundState, build_state
from .tournament import Colour, Tournament


class NoValidPairing(errors.NoValidPairing):
    """No round-pairing satisfies the absolute criteria (the arbiter decides, 1.9.3)."""

    def __init__(self, message: str, players: list[int] | None = None) -> None:
        self.players = players or []
        if self.players:
            message += "; no compatible opponent for player(s) " + ", ".join(map(str, self.players))
        super().__init__(message)


@dataclass(frozen=True)
class Board:
    white: int
    black: int
    colour_rule: str


@dataclass
class BracketTrace:
    """What the solver did in one bracket: who was in it and the value of every tier."""

    score: Fraction
    residents: list[int]
    mdps: list[int]
    pairs: list[tuple[int, int]]
    downfloaters: list[int]
    tiers: list[tuple[str, int]] = field(default_factory=list)
    kind: str = ""  # 2017 editions: "PPB" or "CLB" (A.9) for the collapsed last brackets


@dataclass
class Pairing:
    round: int
    edition: str
    boards: list[Board]
    bye: int | None
    absent: list[int]
    brackets: list[BracketTrace] = field(default_factory=list)
    pab_score: Fraction | None = None

    def as_pairs(self) -> list[tuple[int, int]]:
        return [(b.white, b.black) for b in self.boards]


def _participated(e) -> bool:
    """Took part in the pairing of that round: had an opponent, the PAB or a forfeit win."""
    return e is not None and (e.opponent is not None or e.result in "U+")


def infer_initial_colour(t: Tournament, upto: int | None = None) -> Colour:
    """The initial colour (Art. 5.1): `XXC`/`152`, else read off the first coloured round.

    In the earliest round where anybody has a colour, walk the players in TPN order
    counting those who had taken part by then; the first with a colour decides: his
    colour if an even number of such players precede him, else the other one (the
    convention of the reference engines).
    """
    if t.initial_colour is not None:
        return t.initial_colour
    last = upto if upto is not None else max((len(p.rounds) for p in t.players), default=0)
    for r in range(1, last + 1):
        if not any((e := p.entry(r)) is not None and e.colour is not None for p in t.players):
            continue
        count = 0
        for p in sorted(t.players, key=lambda p: p.id):
            if not any(_participated(p.entry(k)) for k in range(1, r + 1)):
                continue
            e = p.entry(r)
            if e is not None and e.colour is not None:
                return e.colour if count % 2 == 0 else e.colour.opposite
            count += 1
    return Colour.WHITE


def pairing_numbers(st: RoundState) -> dict[int, int]:
    """TPNs for Art. 5.2.5: players who never took part and are absent now do not count."""
    t = st.tournament
    out: dict[int, int] = {}
    n = 0
    for p in sorted(t.players, key=lambda p: p.id):
        took_part = any(_participated(p.entry(k)) for k in range(1, st.round))
        if took_part or p.id not in st.absent:
            n += 1
            out[p.id] = n
    return out


def absolute_colour_clash(a: PlayerState, b: PlayerState) -> bool:
    """[C3]: two non-topscorers with the same absolute colour preference may not meet."""
    return (
        not a.topscorer
        and not b.topscorer
        and a.pref_kind is PrefKind.ABSOLUTE
        and b.pref_kind is PrefKind.ABSOLUTE
        and a.pref_colour == b.pref_colour
    )


def compatibility(st: RoundState, t: Tournament):
    """The absolute criteria as a pair predicate: [C1], [C3] and forbidden pairs."""
    forbidden: set[frozenset[int]] = set()
    for fp in t.forbidden:
        if fp.applies(st.round):
            ids = fp.ids
            for i, a in enumerate(ids):
                for b in ids[i + 1 :]:
                    forbidden.add(frozenset((a, b)))
    players = st.players

    def ok(p: int, q: int) -> bool:
        a, b = players[p], players[q]
        if q in a.opponents or p in b.opponents:
            return False
        if forbidden and frozenset((p, q)) in forbidden:
            return False
        return not absolute_colour_clash(a, b)

    return ok


def _pab_score(st: RoundState, present: list[int], ok, workers: int) -> tuple[Fraction | None, list[tuple[int, int]]]:
    """[C5]: the lowest score the PAB assignee can have in a complete round-pairing,
    and a complete round-pairing that achieves it (the first incumbent)."""
    if len(present) % 2 == 0:
        return None, []
    eligible = frozenset(p for p in present if st.players[p].pab_eligible)
    bm = BracketModel(st, present, [], frozenset(), [], ok, eligible, workers=workers)
    try:
        bm.solver.solve()
    except InfeasibleError:
        raise NoValidPairing("no complete round-pairing exists", _unpairable(st, present, ok, eligible))
    levels = sorted({st.players[p].pairing_score for p in eligible})
    rank = {s: i for i, s in enumerate(levels)}
    bm.solver.minimize([Term("C5 PAB score", [rank[st.players[p].pairing_score] for p in bm.u], list(bm.u.values()))])
    (who,) = [p for p, v in bm.u.items() if bm.solver.var_value(v)]
    return st.players[who].pairing_score, bm.chosen_pairs()


def _unpairable(st: RoundState, present: list[int], ok, eligible: frozenset[int]) -> list[int]:
    """Players with no compatible opponent at all (the usual reason nothing works)."""
    out = []
    for p in present:
        if not any(ok(p, q) for q in present if q != p) and not (len(present) % 2 and p in eligible):
            out.append(p)
    return out


def illegalities(
    t: Tournament, rnd: int, pairs: list[tuple[int, int]], bye: int | None, edition: str | Edition = DEFAULT_EDITION
) -> list[str]:
    """The absolute criteria a given round-pairing breaks ([C1]-[C3], forbidden pairs, [C2])."""
    ed = load_edition(edition) if isinstance(edition, str) else edition
    st = build_state(t, rnd, ed.state_rules)
    out = []
    for p, q in pairs:
        a, b = st.players[p], st.players[q]
        if q in a.opponents:
            out.append(f"[C1] {p} and {q} have already played each other")
        elif any(fp.applies(rnd) and p in fp.ids and q in fp.ids for fp in t.forbidden):
            out.append(f"{p}-{q} is a forbidden pair")
        elif absolute_colour_clash(a, b):
            assert a.pref_colour is not None
            out.append(f"[C3] {p} and {q} both have an absolute preference for {a.pref_colour.name.lower()}")
    if bye is not None and not st.players[bye].pab_eligible:
        out.append(f"[C2] {bye} may not receive the PAB")
    return out


def pair(
    t: Tournament,
    rnd: int | None = None,
    edition: str | Edition = DEFAULT_EDITION,
    workers: int = 1,
    forced: list[tuple[int, int]] | None = None,
) -> Pairing:
    """Pair round `rnd` (default: the round after the last one played).

    With `forced` (a complete, legal round-pairing, e.g. another program's), the same
    brackets and tiers are evaluated on that pairing instead of optimised: the trace
    then holds its criteria values, comparable tier by tier with the engine's own.
    """
    ed = load_edition(edition) if isinstance(edition, str) else edition
    if rnd is None:
        rnd = t.rounds_played + 1
    if ed.completion == "ppb":
        # 2017: completion only in the penultimate pairing bracket (A.9), PSD tiers.
        from .engine2017 import pair2017

        return pair2017(t, rnd, ed, workers, forced)
    st = build_state(t, rnd, ed.state_rules)
    present = list(st.present)
    ok = compatibility(st, t)
    if forced is None:
        pab_score, witness = _pab_score(st, present, ok, workers)
    else:
        paired = {p for pq in forced for p in pq}
        left = [p for p in present if p not in paired]
        pab_score = st.players[left[0]].pairing_score if left else None
        witness = list(forced)
    eligible = frozenset(
        p for p in present if st.players[p].pab_eligible and (pab_score is None or st.players[p].pairing_score <= pab_score)
    )
    score = {p: st.players[p].pairing_score for p in present}
    levels = sorted({score[p] for p in present}, reverse=True)
    remaining = list(present)
    mdps: list[int] = []
    all_pairs: list[tuple[int, int]] = []
    traces: list[BracketTrace] = []
    bye: int | None = None
    for i, level in enumerate(levels):
        residents = [p for p in remaining if score[p] == level and p not in mdps]
        bracket = sorted(mdps + residents, key=st.rank_key)
        nxt = levels[i + 1] if i + 1 < len(levels) else None
        next_group = [p for p in remaining if nxt is not None and score[p] == nxt]
        bm = _solve_bracket(
            ed, st, remaining, bracket, mdps, next_group, ok, eligible, workers, pab_score, witness, lazy=True, forced=forced
        )
        pairs, floaters = bm.bracket_result()
        full = bm.complete()
        if full is None:
            # The lazy model's optimum cannot be completed: solve this bracket exactly.
            bm = _solve_bracket(
                ed, st, remaining, bracket, mdps, next_group, ok, eligible, workers, pab_score, witness, lazy=False,
                forced=forced,
            )
            pairs, floaters = bm.bracket_result()
            full = bm.complete()
            assert full is not None
        witness = [pq for pq in full if pq not in set(pairs)]
        traces.append(BracketTrace(level, residents, list(mdps), pairs, floaters, list(bm.solver.trace)))
        all_pairs += pairs
        paired = {p for pq in pairs for p in pq}
        remaining = [p for p in remaining if p not in paired]
        mdps = floaters
        if nxt is None and floaters:
            bye = floaters[0]
    initial = infer_initial_colour(t, rnd - 1)
    tpn = pairing_numbers(st)
    boards = []
    for p, q in all_pairs:
        w, b, rule = allocate(st, p, q, initial, tpn)
        boards.append(Board(w, b, rule))
    boards.sort(key=lambda bd: _board_key(st, bd))
    return Pairing(rnd, ed.name, boards, bye, sorted(st.absent), traces, pab_score)


def _solve_bracket(
    ed: Edition,
    st: RoundState,
    remaining: list[int],
    bracket: list[int],
    mdps: list[int],
    next_group: list[int],
    ok,
    eligible: frozenset[int],
    workers: int,
    pab_score: Fraction | None,
    witness: list[tuple[int, int]],
    lazy: bool,
    forced: list[tuple[int, int]] | None = None,
) -> BracketModel:
    """Build one bracket's model, then solve its quality tiers and generation order.

    The lazy model relaxes completion to "exits have some lower partner"; its optimum is
    the exact one whenever it can be completed, because relaxing only adds candidates.
    """
    bm = BracketModel(
        st, remaining, bracket, frozenset(mdps), next_group, ok, eligible, workers=workers, pab_score=pab_score, lazy=lazy
    )
    if forced is not None:
        bm.force(forced)
    if not bm.start_from(witness):
        try:
            bm.solver.solve()
        except InfeasibleError:
            raise NoValidPairing("no complete round-pairing exists", _unpairable(st, remaining, ok, eligible))
    terms: list[Term] = []
    for name in ed.quality:
        terms += REGISTRY[name](bm)
    bm.solver.minimize(terms)
    generation_order(bm, ed.order.get("remainder_bsn", "fresh"))
    return bm


def _board_key(st: RoundState, bd: Board) -> tuple:
    """Board order (C.04.2 Art. 3.6): the higher player's score, then the lower player's
    score (same as the sum), then the higher player's TPN; real scores, no acceleration."""
    a, b = st.players[bd.white], st.players[bd.black]
    hi, lo = (a, b) if (-a.score, a.id) < (-b.score, b.id) else (b, a)
    return (-hi.score, -lo.score, hi.id)
