"""Pairs one round, bracket by bracket from the top scoregroup down (2026 Art. 1.9.2).

For each bracket a CP-SAT model over every player still to pair is solved tier by tier:
the edition's quality criteria, then the generation order.  The bracket's pairs are
then final, its downfloaters become the next bracket's MDPs, and the next bracket is
modelled over the players left.  [C5] (the lowest possible PAB score) is settled once
for the whole round before the first bracket, as the rules rank it above every quality
criterion.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable

from cpsat_pairing.dutch import e2026 as _criteria  # noqa: F401  (fills the registry)
from cpsat_pairing import errors
from cpsat_pairing.dutch.aggregate import AggregateBracketModel
from cpsat_pairing.dutch.bracket import BracketModel
from cpsat_pairing.domain.colours import allocate
from cpsat_pairing.domain.compat import Compatibility, absolute_colour_clash
from cpsat_pairing.dutch.e2026 import REGISTRY
from cpsat_pairing.dutch.edition import DEFAULT_EDITION, Edition, load_edition
from cpsat_pairing.solver.lex import STATS, InfeasibleError, SolveLimitError, Term
from cpsat_pairing.solver.matching import LazyAdjacency, is_perfect
from cpsat_pairing.dutch.order import generation_order
from cpsat_pairing.domain.state import RoundState, build_state
from cpsat_pairing.domain.tournament import Colour, Tournament
from cpsat_pairing.domain.unpairable import diagnose


class NoValidPairing(errors.NoValidPairing):
    """No round-pairing satisfies the absolute criteria (the arbiter decides, 1.9.3).

    `players` are those the arbiter should look at, `reasons` says why, a sentence each."""

    def __init__(self, message: str, players: list[int] | None = None, reasons: list[str] | None = None) -> None:
        self.players = players or []
        self.reasons = reasons or []
        if self.reasons:
            message += ": " + "; ".join(self.reasons)
        elif self.players:
            message += "; no compatible opponent for player(s) " + ", ".join(map(str, self.players))
        super().__init__(message)


def no_valid_pairing(st: RoundState, present: list[int], ok: Compatibility) -> NoValidPairing:
    """The error for a round without a complete round-pairing, with the players who
    cannot be paired and why (unpairable.py)."""
    found = diagnose(st, present, ok)
    return NoValidPairing(f"no valid pairing of round {st.round} exists (the arbiter decides, Art. 1.9.3)",
                          found.players, found.sentences())


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


def compatibility(st: RoundState, t: Tournament) -> Compatibility:
    """The absolute criteria as a pair predicate: [C1], [C3] and forbidden pairs."""
    return Compatibility(st, t)


def _pab_score(st: RoundState, present: list[int], ok: Compatibility, workers: int) -> tuple[Fraction | None, list[tuple[int, int]]]:
    """[C5]: the lowest score the PAB assignee can have in a complete round-pairing,
    and a complete round-pairing that achieves it (the first incumbent).

    A blossom matching answers "can everybody be paired, the PAB going to an eligible
    player scoring at most L?" for L rising from the lowest score; the first yes is
    the [C5] score.  Even fields get their complete round-pairing the same way.
    """
    # Each player's neighbours in `present` order (a scan with set lookups), listed only
    # for the players the matching's searches reach: the start below pairs nearly
    # everyone, and listing all rows cost 3 s at 5,000 players.
    def row(i: int) -> list[int]:
        if i == dummy:
            return []
        nb = ok.neighbours(present[i])
        return [j for j, q in enumerate(present) if q in nb]

    n = len(present)
    dummy = n
    index = {p: i for i, p in enumerate(present)}
    eligible = [p for p in present if st.players[p].pab_eligible]
    if n % 2 == 0:
        levels: list[Fraction | None] = [None]
    else:
        levels = sorted({st.players[p].pairing_score for p in eligible})  # type: ignore[assignment]
    adj = LazyAdjacency(n + n % 2, row)
    # Start: each player in turn with the next free player he may meet.
    mate = [-1] * len(adj)
    for i, p in enumerate(present):
        if mate[i] == -1:
            nb = ok.neighbours(p)
            j = next((j for j in range(i + 1, n) if mate[j] == -1 and present[j] in nb), None)
            if j is not None:
                mate[i], mate[j] = j, i
    for level in levels:
        if level is not None:
            for p in eligible:
                if st.players[p].pairing_score == level:
                    adj.add_edge(dummy, index[p])
        perfect, mate = is_perfect(adj, mate)
        if perfect:
            pairs = [(p, present[mate[i]]) for i, p in enumerate(present) if i < mate[i] < dummy]
            return level, pairs
    raise no_valid_pairing(st, present, ok)


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
    progress: Callable[[str], None] | None = None,
) -> Pairing:
    """Pair round `rnd` (default: the round after the last one played).

    With `forced` (a complete, legal round-pairing, e.g. another program's), the same
    brackets and tiers are evaluated on that pairing instead of optimised: the trace
    then holds its criteria values, comparable tier by tier with the engine's own.
    """
    ed = load_edition(edition) if isinstance(edition, str) else edition
    if ed.procedure == "2013":
        from cpsat_pairing.dutch.e2013.procedure import pair as pair_2013

        return pair_2013(t, rnd, ed, workers, forced)
    if rnd is None:
        rnd = t.rounds_played + 1
    if ed.completion == "ppb":
        # 2017: completion only in the penultimate pairing bracket (A.9), PSD tiers.
        from cpsat_pairing.dutch.e2017.procedure import pair2017

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
        # Each model relaxes the next one; the first whose optimum can be completed
        # into a whole round-pairing has found the rules' answer (see _MODELS).
        kinds = _MODELS if forced is None else _MODELS[1:]
        if not next_group:
            kinds = [k for k in kinds if k != "lazy"]  # no next scoregroup: aggregate = lazy
        full = None
        for kind in kinds:
            if progress is not None:
                head = f"bracket {i + 1}/{len(levels)} (score {level}, {len(bracket)} players)"
                progress(head)
                on_tier = lambda name, head=head: progress(f"{head} ▸ {name}")  # noqa: E731
            args = (ed, st, remaining, bracket, mdps, next_group, ok, eligible, workers, pab_score, witness, kind, forced)
            if kind == "exact":
                bm = _solve_bracket(*args, on_tier=on_tier if progress is not None else None)
                full = bm.complete()
                break
            try:
                bm = _solve_bracket(*args, on_tier=on_tier if progress is not None else None)
            except RELAXATION_FAILURES:
                # Only the exact model's answer may end the round: a relaxed model that
                # finds no solution (or none within its budget) says nothing about it.
                STATS["fallbacks"] += 1
                continue
            full = bm.complete()
            if full is not None:
                break
        assert full is not None, "the exact model always completes"
        pairs, floaters = bm.bracket_result()
        witness = [pq for pq in full if pq not in set(pairs)]
        traces.append(BracketTrace(level, residents, list(mdps), pairs, floaters, list(bm.solver.trace)))
        all_pairs += pairs
        paired = {p for pq in pairs for p in pq}
        remaining = [p for p in remaining if p not in paired]
        mdps = floaters
        if nxt is None and floaters:
            bye = floaters[0]
    boards = make_boards(t, st, all_pairs, ed)
    return Pairing(rnd, ed.name, boards, bye, sorted(st.absent), traces, pab_score)


# The models of one bracket, most relaxed first.  "aggregate" sees the next scoregroup
# as counts (aggregate.py); "lazy" models the bracket and the next scoregroup pair by
# pair and only asks that players paired further down have some lower partner; "exact"
# models every remaining player.  Relaxing only adds candidates, so a relaxed optimum
# that can be completed into a whole round-pairing is the exact optimum.
_MODELS = ["aggregate", "lazy", "exact"]

# What a relaxed or partial model may raise instead of answering; the engine then asks
# the next, more exact model (only the exact model's infeasibility is NoValidPairing).
RELAXATION_FAILURES = (NoValidPairing, InfeasibleError, SolveLimitError)


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
    kind: str,
    forced: list[tuple[int, int]] | None = None,
    on_tier: Callable[[str], None] | None = None,
) -> BracketModel:
    """Build one bracket's model of the given kind, then solve its quality tiers and
    generation order."""
    cls = AggregateBracketModel if kind == "aggregate" else BracketModel
    start = time.perf_counter()
    bm = cls(
        st, remaining, bracket, frozenset(mdps), next_group, ok, eligible, workers=workers, pab_score=pab_score,
        lazy=kind != "exact",
    )
    STATS["build_seconds"] += time.perf_counter() - start
    bm.solver.on_tier = on_tier
    if forced is not None:
        bm.force(forced)
    if not bm.start_from(witness):
        try:
            bm.solver.solve()
        except InfeasibleError:
            raise no_valid_pairing(st, remaining, ok) from None
    terms: list[Term] = []
    for name in ed.quality:
        terms += REGISTRY[name](bm)
    remainder_bsn = ed.order.get("remainder_bsn", "fresh")
    local = bm.local_vars()
    k = len(terms)
    while k and terms[k - 1].active is None and all(v.index in local for v in terms[k - 1].vars):
        k -= 1
    if forced is not None or bm.u or len(bm.x) < 2 * len(local):
        bm.solver.minimize(terms)
        _generation_order_keeping_below(bm, remainder_bsn, local)
        return bm
    bm.solver.minimize(terms[:k])
    if not _solve_locally(ed, bm, remainder_bsn):
        bm.solver.minimize(terms[k:])
        _generation_order_keeping_below(bm, remainder_bsn, local)
    return bm


def _generation_order_keeping_below(bm: BracketModel, remainder_bsn: str, local: frozenset[int]) -> None:
    """The generation order on the full model, the rest of the round kept close to
    where the quality tiers left it.

    The generation order only decides the bracket (its pairs and downfloaters); what
    CP-SAT picks below is arbitrary, and it is the next bracket's starting point.  The
    values from before (close to the last witness) make a much better start: with the
    same downfloaters they still fit and are put back; otherwise one feasibility solve
    with the bracket fixed, hinted with them, finds the nearest fit (measured on the
    500-player round: 0.6 s less in the next brackets' tiers for 3 such solves)."""
    before = dict(bm.solver.values)
    floaters = [before.get(bm.df[p].index, 0) for p in bm.bracket]
    generation_order(bm, remainder_bsn)
    after = bm.solver.values
    if [after.get(bm.df[p].index, 0) for p in bm.bracket] == floaters:
        for index, value in before.items():
            if index not in local and index in after:
                after[index] = value
        return
    fixed = [(index, after.get(index, 0)) for index in sorted(local)]
    hint = {i: (after.get(i, 0) if i in local else v) for i, v in before.items()}
    near = bm.solver.check_values(fixed, hint)
    if near is not None:
        bm.solver.values = {**after, **near}


class _TooManyCuts(Exception):
    """The local model kept proposing downfloaters the rest of the round cannot take."""


MAX_CUTS = 30


def _solve_locally(ed: Edition, bm: BracketModel, remainder_bsn: str) -> bool:
    """Solve the remaining tiers and the generation order on the bracket alone.

    Once the tiers that look beyond the bracket ([C8]: the next bracket) are fixed,
    every later tier and the generation order depend only on the pairs inside the
    bracket and on who floats down.  They are solved on a model of the bracket alone --
    a few thousand variables instead of tens of thousands -- and each solution's set of
    downfloaters is checked once against the full model (with the fixed tiers); a set
    that fails is cut off and the solve repeated.  The answer is the same: a candidate
    of the full model is a bracket candidate whose downfloaters pass the check.

    Returns False (nothing decided) if too many downfloater sets fail.
    """
    fixed = dict(bm.solver.trace)
    inner = BracketModel(
        bm.state, bm.remaining, bm.bracket, bm.mdps, bm.next_group, bm.compatible, bm.pab_allowed, workers=bm.workers,
        local=True,
    )
    terms: list[Term] = []
    for name in ed.quality:
        terms += REGISTRY[name](inner)
    for t in terms:
        if t.name in fixed and t.vars:
            inner.solver.fix(t, fixed[t.name])
    outer_df = {p: bm.df[p] for p in bm.bracket}
    checked: dict[frozenset[int], dict[int, int] | None] = {}
    cuts = 0

    def accept(values: dict[int, int]) -> bool:
        nonlocal cuts
        floaters = frozenset(p for p in bm.bracket if values.get(inner.df[p].index))
        if floaters not in checked:
            lits = [outer_df[p] if p in floaters else outer_df[p].Not() for p in bm.bracket]
            checked[floaters] = bm.solver.check(lits, _swap_floaters(bm, last[0], floaters, values))
        if checked[floaters] is not None:
            last[0] = floaters
            return True
        cuts += 1
        if cuts > MAX_CUTS:
            raise _TooManyCuts
        # Exactly this set is cut off: a superset is another candidate (the number of
        # downfloaters is fixed only once [C6] is).
        inner.model.add(
            sum(inner.df[p] for p in floaters) - sum(inner.df[p] for p in bm.bracket if p not in floaters)
            <= len(floaters) - 1
        )
        return False

    vals = bm.solver.values
    inner_values = {v.index: vals.get(bm.x[k].index, 0) for k, v in inner.x.items()}
    inner_values.update({inner.df[p].index: vals.get(bm.df[p].index, 0) for p in bm.bracket})
    inner.solver.values = inner_values
    start = frozenset(p for p in bm.bracket if vals.get(bm.df[p].index))
    checked[start] = dict(vals)
    last = [start]

    def _swap_floaters(
        bm: BracketModel, base: frozenset[int], floaters: frozenset[int], inside: dict[int, int]
    ) -> dict[int, int]:
        """A starting point for checking `floaters`: the pairs inside the bracket from the
        local solution, and below it the solution found for the `base` set, each new
        downfloater taking over the place of an old one of the same score ([C7] fixes
        how many float per score), so that it is usually a solution."""
        vals = dict(checked[base] or {})
        partner: dict[int, tuple[int, object]] = {}
        for (p, q), v in bm.x.items():
            if vals.get(v.index):
                partner[p], partner[q] = (q, v), (p, v)
        score = bm.score
        gone = sorted(base - floaters, key=bm.state.rank_key)
        new = sorted(floaters - base, key=bm.state.rank_key)
        for key, v in inner.x.items():
            vals[bm.x[key].index] = inside.get(v.index, 0)
        for p in new:
            q = next((q for q in gone if score[q] == score[p]), None)
            if q is None:
                continue
            gone.remove(q)
            for d in (bm.df, bm.exit):
                if q in d and p in d:
                    vals[d[p].index] = vals.get(d[q].index, 0)
            vals[bm.df[p].index], vals[bm.df[q].index] = 1, 0
            if q in bm.exit:
                vals[bm.exit[q].index] = 0
            if q in partner:
                n, v = partner[q]
                vals[v.index] = 0
                key = (p, n) if (p, n) in bm.x else (n, p)
                if key in bm.x and (n not in bm.in_bracket or n in floaters):
                    vals[bm.x[key].index] = 1
        return vals
    inner.solver.accept = accept
    inner.solver.on_tier = bm.solver.on_tier
    try:
        inner.solver.minimize([t for t in terms if t.name not in fixed])
        generation_order(inner, remainder_bsn)
    except (_TooManyCuts, InfeasibleError, SolveLimitError):
        # The bracket alone is a relaxation: its failure leaves the full model to decide.
        STATS["fallbacks"] += 1
        return False
    floaters = frozenset(p for p in bm.bracket if inner.solver.var_value(inner.df[p]))
    outer = dict(checked[floaters] or {})
    for key, v in inner.x.items():
        outer[bm.x[key].index] = inner.solver.var_value(v)
    for p in bm.bracket:
        outer[bm.df[p].index] = inner.solver.var_value(inner.df[p])
    bm.solver.values = outer
    bm.solver.trace += [entry for entry in inner.solver.trace if entry[0] not in fixed]
    bm.solver.solves += inner.solver.solves
    return True


def make_boards(
    t: Tournament, st: RoundState, pairs: list[tuple[int, int]], ed: Edition | None = None
) -> list[Board]:
    """Colours by Art. 5.2 and board order by C.04.2 Art. 3.6 (the same in every edition,
    except for the edition's `[colours]` data: which TPN parity takes the initial colour
    in a pair without preferences after round 1)."""
    initial = infer_initial_colour(t, st.round - 1)
    tpn = pairing_numbers(st)
    parity = 1
    if ed is not None and st.round > 1 and ed.colours.get("no_preference_after_round_1") == "even-tpn-initial":
        parity = 0
    boards = [Board(*allocate(st, p, q, initial, tpn, parity)) for p, q in pairs]
    boards.sort(key=lambda bd: _board_key(st, bd))
    return boards


def _board_key(st: RoundState, bd: Board) -> tuple:
    """Board order (C.04.2 Art. 3.6): the higher player's score, then the lower player's
    score (same as the sum), then the higher player's TPN; real scores, no acceleration."""
    a, b = st.players[bd.white], st.players[bd.black]
    hi, lo = (a, b) if (-a.score, a.id) < (-b.score, b.id) else (b, a)
    return (-hi.score, -lo.score, hi.id)
