"""How the 2013 edition pairs a round (C.04.3.1, Istanbul 2012 text; JaVaFo 1.4).

The legacy text is a procedure (C.1-C.14): pair the score brackets from the top down,
try transpositions and exchanges (D.1-D.3) under a set of requirements, and lower the
requirements in the order of C.10 when no candidate meets them.  We model the outcome of
that procedure, not its search: each bracket is the same CP-SAT model as for the later
editions (dutch/bracket.py), solved on the 2013 tiers (criteria.py) and then on the
generation order (dutch/order.py), which makes the first candidate the procedure would
accept the unique optimum.

What is specific to 2013 here:
* A.3: a heterogeneous bracket in which at least half of the players were moved down is
  treated as homogeneous (no MDP-pairing, S1 is the top half of the whole bracket);
* B.1.b: a player who scored without playing (a bye, a forfeit win) gets no bye
  (StateRules.bye_rule = "any_points");
* B.2 applies to everyone but topscorers, whose exception is a tier (C.10.g);
* the completion of the round (C.12 backtracking, C.13 on the lowest brackets) is kept
  as a condition on every bracket: a bracket is paired so that the players below can
  still be paired, which is what backtracking and merging the lowest brackets achieve
  (the aggregate model first, the next scoregroup as counts; the lazy model of the
  bracket and the next scoregroup pair by pair when the round cannot be completed
  after the aggregate's answer; the exact model of every player when it cannot be
  after the lazy one's);
* the bye is whoever the lowest bracket leaves unpaired (C.13), not a score fixed for
  the whole round first;
* C.12 is decided by a matching of the floaters into the next scoregroup where it
  can be (`_by_matching`), since its auxiliary matching in the model costs more
  than the rest of a big bracket's tiers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from cpsat_pairing.dutch.aggregate import AggregateBracketModel
from cpsat_pairing.dutch.alone import finish_alone, solve_alone
from cpsat_pairing.dutch.bracket import BracketModel
from cpsat_pairing.dutch.completion import complete_pairing
from cpsat_pairing.dutch.e2013 import next_pairs
from cpsat_pairing.dutch.e2013.criteria import (
    C12,
    C12_NAME,
    C13_BYE_NAME,
    DOWNFLOATS,
    Options,
    all_floaters_matched,
    backtracking_options,
    backtracking_term,
    c12_options,
    penultimate,
)
from cpsat_pairing.dutch.e2013.own_best import own_floaters_complete
from cpsat_pairing.dutch.loop import (
    Bracket,
    RoundContext,
    first_solution,
    residents_bracket,
)
from cpsat_pairing.dutch.model import partners
from cpsat_pairing.dutch.near import on_near_models
from cpsat_pairing.dutch.order import generation_order
from cpsat_pairing.dutch.registry import CRITERIA
from cpsat_pairing.dutch.result import BracketTrace, Pair
from cpsat_pairing.errors import NoValidPairing
from cpsat_pairing.records import InfeasibleError, STATS, Tier
from cpsat_pairing.solver.matching import max_matching
from cpsat_pairing.solver.settings import near_pays
from cpsat_pairing.solver.terms import Term


def treated_as_homogeneous(n_mdps: int, size: int) -> bool:
    """A.3: a heterogeneous bracket with at least half its players moved down."""
    return n_mdps > 0 and 2 * n_mdps >= size


def homogeneous_after_c1(rc: RoundContext, players: Sequence[int], mdps: Sequence[int]) -> bool:
    """A.3 counted after C.1: a player with no opponent in the bracket (B.1/B.2) is moved
    down before the bracket is paired, so neither he nor, if he is an MDP, his MDP place
    counts in "at least half of the players moved down" (docs/edition-2013.md, "Twelfth
    pass")."""
    alone = {p for p in players if not any(rc.compatible(p, q) for q in players if q != p)}
    moved = [p for p in mdps if p not in alone]
    return treated_as_homogeneous(len(moved), len(players) - len(alone))


def _solve(rc: RoundContext, players: list[int], mdps: list[int], next_group: list[int], kind: str,
           with_c12: bool = True, unset: frozenset[str] = frozenset()) -> BracketModel:
    """One bracket's model ("lazy": the bracket and the next scoregroup pair by pair;
    "exact": every remaining player), solved on the edition's tiers then the
    generation order ("aggregate": the bracket pair by pair, the next scoregroup as
    counts, dutch/aggregate.py).  A big bracket's aggregate model, and a big exact
    model of every remaining player (the whole of round 1, a bracket joined by C.13), is
    first the model of its near pairs (dutch/near.py), its answers certified; the model
    of every pair decides when they are not."""
    whole = kind == "aggregate" or (kind == "exact" and len(players) == len(rc.remaining))
    if (rc.forced is None and whole and near_pays(rc.settings, len(players) - len(mdps))
            and not _colours_with_lowest(rc, players, mdps, next_group)):
        found = on_near_models(
            rc.settings, len(players), [],
            lambda extra: _model(rc, players, mdps, next_group, "near", extra),
            lambda bm: _tiers(rc, bm, players, mdps, next_group, kind, unset=unset),
        )[1]
        if found is not None:
            return found
    return _tiers(rc, _model(rc, players, mdps, next_group, kind), players, mdps, next_group, kind, with_c12,
                  unset=unset)


def _tiers(rc: RoundContext, bm: BracketModel, players: list[int], mdps: list[int], next_group: list[int],
           kind: str, with_c12: bool = True, with_bye: bool = True,
           unset: frozenset[str] = frozenset()) -> BracketModel:
    """The edition's tiers then the generation order on the model `bm` (of that kind);
    without C.12 when `with_c12` is False, without C.13's bye tier when `with_bye` is,
    without the requirements `unset` (criteria names) that C.3 does not set."""
    names = tuple(n for n in rc.edition.quality if n not in unset)
    if not with_c12:
        names = tuple(n for n in names if n != C12_NAME)
    if not with_bye:
        names = tuple(n for n in names if n != C13_BYE_NAME)
    elif C13_BYE_NAME in names and with_c12 and rc.forced is None and bm.u and bm.next_group and penultimate(bm):
        # C.13 goes back into the penultimate bracket only when the lowest bracket cannot
        # be paired with at least one of its MDPs paired (C.13 first lowers M1, never to
        # 0): the penultimate bracket's first candidate without the bye tier stands
        # where it leaves the bye to a resident of the lowest bracket or to one floater
        # of several (docs/edition-2013.md, "Twenty-first pass").  Not while C.13
        # backtracks from below (no C.12 then).
        plain = _tiers(rc, _model(rc, players, mdps, next_group, kind), players, mdps, next_group, kind,
                       with_c12, with_bye=False, unset=unset)
        if _lowest_pairs_an_mdp(plain):
            _record_bye_tiers(plain)
            return plain
    cut = names.index(C12_NAME) if C12_NAME in names else len(names)
    before = _terms(bm, names[:cut])
    bm.solver.minimize(before)
    options = backtracking_options(bm) if C12_NAME in names else None
    # C.12's "P1 pairings here" (next_pairs.py): asked where the first candidate floats
    # players with whom the next bracket cannot make its P1 pairings.
    p1_test = with_c12 and bool(bm.next_group)

    def afresh() -> BracketModel:
        """A new model with the tiers before C.12 fixed (cuts and tiers stay in a model)."""
        new = _model(rc, players, mdps, next_group, kind)
        new.solver.minimize(_terms(new, names[:cut]))
        return new

    def c12_terms(bm: BracketModel) -> list[Term]:
        return [] if options is None else [backtracking_term(bm, options)]

    if options is not None and p1_test and kind != "exact" and rc.against is None:
        # C.12 goes back only from a next bracket that fails with the first candidate's
        # floaters (C.1, P1): where it does not, C.12's tier chooses nothing.  Not in the
        # model C.13's backtracking pairs, which holds the whole round.  A given pairing
        # is its own first candidate, but scored against the rules' pairing it follows
        # theirs (no C.12 tier in their trace where their first candidate stood:
        # `_repaired_by_the_rules`).
        if _first_stands_without_c12(rc, bm, before, names, cut):
            return bm
        bm = afresh()
    first: frozenset[int] | None = None
    if rc.settings.bracket_alone:
        decided = _by_matching(rc, bm, options, before, names[:cut], names[cut + 1 :])
        if decided and not (p1_test and next_pairs.may_gain(bm, bm.bracket_result()[1])):
            return bm
        if decided:
            first = frozenset(bm.bracket_result()[1])
        if decided is not None:  # it left its cuts and tiers in the model: start afresh
            bm = afresh()
    if first is None:
        bm.solver.minimize(c12_terms(bm) + _terms(bm, names[cut + 1 :]))
        if p1_test and next_pairs.floater_matters(bm):
            # "Its P1 pairings" are those the next bracket has with the first
            # candidate's floaters (next_pairs.py): that candidate first.
            generation_order(bm, rc.edition.s1_size)
            floaters = bm.bracket_result()[1]
            if not next_pairs.may_gain(bm, floaters):
                return bm
            first = frozenset(floaters)
            bm = afresh()
    if first is not None:
        # C.12's return to this bracket: one of its pairings whose floaters let the
        # next bracket make its P1 pairings, lowering the requirements C.10 lowers
        # (a-g: the float requirements, X/Z, A.7.d, B.2 for topscorers) for it as far
        # as needed (docs/edition-2013.md, "Sixteenth pass", "Twentieth pass",
        # "Twenty-second pass").
        k = _relaxed_from(names, cut)
        bm.solver.minimize(c12_terms(bm) + _terms(bm, names[cut + 1 : k]))
        next_pairs.keep_most_next_pairs(bm, first)
        # Then C.1 for each floater moved down into the bracket ("Twenty-third pass").
        next_pairs.keep_floaters_with_opponents(bm)
        bm.solver.minimize(_terms(bm, names[k:]))
    elif p1_test:
        next_pairs.keep_most_next_pairs(bm)
    generation_order(bm, rc.edition.s1_size)
    return bm


def _lowest_pairs_an_mdp(bm: BracketModel) -> bool:
    """The penultimate bracket's pairing leaves the bye of the lowest bracket (its model
    holds it whole) to nobody, to a resident of it, or to one of two or more floaters,
    the others paired there."""
    bye = next((p for p, u in bm.u.items() if bm.solver.var_value(u)), None)
    floaters = bm.bracket_result()[1]
    return bye is None or bye not in floaters or len(floaters) > 1


def _record_bye_tiers(bm: BracketModel) -> None:
    """The bye tier's values in the trace where the tier stands (after M1, P and B.3),
    so that the trace is the same whichever model answered."""
    trace = bm.solver.trace
    at = next((i for i, tier in enumerate(trace) if tier.criterion not in ("M1", "P", "B.3")), len(trace))
    trace[at:at] = [t.tier(bm.solver.value(t)) for t in CRITERIA[C13_BYE_NAME](bm)]


def _first_stands_without_c12(rc: RoundContext, bm: BracketModel, before: Sequence[Term], names: Sequence[str],
                              cut: int) -> bool:
    """The bracket's first candidate on every tier but C.12 (the tiers before it fixed in
    `bm`), left in `bm`: whether the next bracket can pair with its floaters as C.1 and
    P1 ask (`next_pairs.first_stands`).  The bracket alone decides it where it can, as
    with C.12 (`_by_matching`)."""
    later = names[cut + 1 :]
    if not (rc.settings.bracket_alone and _by_matching(rc, bm, None, before, names[:cut], later)):
        bm.solver.minimize(_terms(bm, later))
        generation_order(bm, rc.edition.s1_size)
    return next_pairs.first_stands(bm, bm.bracket_result()[1])


# The requirements C.12's return to a bracket may lower (C.10.a-g), from the first.
_RELAXED_FOR_C12 = frozenset({
    "2013:B2", "2013:A7d", "2013:X", "2013:Z", "2013:B5down", "2013:B6down", "2013:B5up", "2013:B6up",
})


def _relaxed_from(names: Sequence[str], cut: int) -> int:
    """The index in `names` of the first requirement C.12's return may lower."""
    return next((i for i in range(cut + 1, len(names)) if names[i] in _RELAXED_FOR_C12), len(names))


def _repaired_without_c12(rc: RoundContext, players: list[int], mdps: list[int], next_group: list[int],
                          unset: frozenset[str] = frozenset()) -> BracketModel | None:
    """C.13's backtracking into this bracket: its exact model (every player below paired)
    on every tier but C.12 -- C.13 asks for a pairing that lets the rest be paired, not
    for MDPs the next bracket can pair (no C.12 while already backtracking)."""
    try:
        return _tiers(rc, _model(rc, players, mdps, next_group, "exact"), players, mdps, next_group, "exact",
                      with_c12=False, unset=unset)
    except (NoValidPairing, InfeasibleError):
        return None


def _own_best(rc: RoundContext, players: list[int], mdps: list[int], next_group: list[int],
              start: Sequence[Pair], full: Sequence[Pair]) -> tuple[list[Pair], list[int]] | None:
    """The bracket's own best pairing, where the rest of the round cannot be paired after
    it; else None.

    The procedure pairs a bracket before it looks below it: B.1 and B.2 inside the
    bracket, and C.12's floaters judged by whom they may meet in the next scoregroup.
    Only when the players below cannot then be paired does C.13 backtrack into it (and
    re-pair it without C.12).  The bracket's models that hold the round below already
    pair it so that the round completes; this is the pairing they would have been
    backtracking from.  `start`: the pairs inside the bracket to start from; `full`: a
    complete pairing of the round, which most pairs below still fit."""
    if c12_options(players, next_group, rc.compatible, rc.remaining, rc.pab_allowed) is None:
        return None  # no C.12: the bracket's pairing already looked no further
    if own_floaters_complete(rc, players, mdps, full):
        return None
    alone = _model(rc, players, mdps, next_group, "alone")
    _start_inside(alone, start)
    try:
        bm = _tiers(rc, alone, players, mdps, next_group, "alone")
    except (NoValidPairing, InfeasibleError):
        return None
    pairs, floaters = bm.bracket_result()
    paired = {p for pq in pairs for p in pq}
    rest = [p for p in rc.remaining if p not in paired]
    if complete_pairing(rest, rc.compatible, rc.pab_allowed, full) is not None:
        return None
    return sorted(pairs), list(floaters)


def _start_inside(alone: BracketModel, pairs: Sequence[Pair]) -> None:
    """The bracket-alone model's incumbent: these pairs, the bracket's other players
    floating."""
    values = {v.index: 0 for v in [*alone.x.values(), *alone.df.values()]}
    paired: set[int] = set()
    for p, q in pairs:
        values[alone.x[(p, q) if (p, q) in alone.x else (q, p)].index] = 1
        paired |= {p, q}
    for p in alone.bracket:
        values[alone.df[p].index] = int(p not in paired)
    alone.solver.set_incumbent(values)


def _terms(bm: BracketModel, names: Sequence[str]) -> list[Term]:
    """The terms of these criteria, in order."""
    return [t for name in names for t in CRITERIA[name](bm)]


def _model(rc: RoundContext, players: list[int], mdps: list[int], next_group: list[int], kind: str,
           extra: Sequence[Pair] = ()) -> BracketModel:
    """The bracket's model of that kind, started from the witness; "near" is the
    aggregate model of the near pairs and of the witness's and `extra`'s pairs; "alone"
    the bracket's players only, each paired inside it or floating (`_own_best`)."""
    if kind == "alone":
        alone = BracketModel(rc.state, rc.remaining, players, frozenset(mdps), next_group, rc.compatible,
                             rc.pab_allowed, settings=rc.settings, local=True)
        _start_inside(alone, [(p, q) for p, q in rc.witness if p in alone.in_bracket and q in alone.in_bracket])
        return alone
    cls = AggregateBracketModel if kind in ("near", "aggregate") else BracketModel
    below = cls is BracketModel and _colours_with_lowest(rc, players, mdps, next_group)
    # Scoring a given pairing in the lowest bracket (every player left, nobody below:
    # no C.12, no C.13), whose players `force` fixes all: each makes his given pair only.
    lowest = rc.forced is not None and cls is BracketModel and not next_group and len(players) == len(rc.remaining)
    bm = cls(
        rc.state, rc.remaining, players, frozenset(mdps), next_group, rc.compatible, rc.pab_allowed,
        settings=rc.settings, lazy=kind != "exact", near=[*rc.witness, *extra] if kind == "near" else None,
        given=partners(rc.forced) if lowest and rc.forced is not None else None, colours_below=below,
    )
    first_solution(bm, rc)
    if rc.forced is None:
        _start_paired_inside(rc, bm)
    return bm


def _start_paired_inside(rc: RoundContext, bm: BracketModel) -> None:
    """Start from a solution that pairs the whole bracket inside, but one resident of
    its lowest score when it is odd, if a matching does so and the rest of the round
    can still be paired.

    M1, P and B.3 count the bracket players left unpaired: such a solution meets
    their lower bounds (nobody, or that one player), so they cost no search.  The
    witness the model starts from was made for the bracket above and floats players
    of this one at random."""
    players = bm.bracket
    values = bm.solver.values
    floating = [p for p in players if values.get(bm.df[p].index)]
    if len(floating) <= len(players) % 2:
        return
    lowest = min(bm.score[p] for p in players)
    # The odd one out: a resident of the lowest score, the lowest-ranked first.
    odd_ones: Sequence[int | None] = [None]
    if len(players) % 2:
        odd_ones = [p for p in reversed(players) if p not in bm.mdps and bm.score[p] == lowest][:_ODD_ONES_TRIED]
    adj_index = bm.adj_index
    for odd in odd_ones:
        inside = _perfect_inside([p for p in players if p != odd], adj_index, values)
        if inside is None:
            continue
        rest = [p for p in bm.remaining if p not in bm.in_bracket or p == odd]
        below = complete_pairing(rest, rc.compatible, rc.pab_allowed, rc.witness)
        if below is not None and bm.start_from(inside + below):
            return


_ODD_ONES_TRIED = 4  # a matching each; past a few, the solver's search is as quick


def _perfect_inside(players: list[int], adj_index: dict[int, list[tuple[int, int]]],
                    values: dict[int, int]) -> list[Pair] | None:
    """A perfect matching of `players` over their pairs, grown from the incumbent's."""
    index = {p: i for i, p in enumerate(players)}
    adj = [[index[q] for q, _ in adj_index[p] if q in index] for p in players]
    mate = [-1] * len(players)
    for p in players:  # the incumbent's pairs among them stay: augmenting paths only add
        for q, i in adj_index[p]:
            if values.get(i) and q in index:
                mate[index[p]] = index[q]
    mate = max_matching(adj, mate)
    if -1 in mate:
        return None
    return [(players[i], players[j]) for i, j in enumerate(mate) if i < j]


def _by_matching(rc: RoundContext, bm: BracketModel, options: Options | None, fixed: Sequence[Term],
                 before: Sequence[str], later: Sequence[str]) -> bool | None:
    """The tiers after C.12 and the generation order on the bracket alone, C.12
    decided without its auxiliary matching, when the floaters the earlier tiers left
    can all meet a different player below: C.12 counts at most the floaters, whose
    number P has fixed, so that is its optimum (with no `options`, there is no C.12).
    The later tiers then keep only candidates whose floaters can all be matched too
    (each other set is cut off, dutch/alone.py).

    None (nothing done) when the first set cannot be matched, or with no C.12 when
    the bracket-alone model fails or would not be much smaller; False when the cuts
    fail on the full model: then the model with the matching decides."""
    floaters = frozenset(p for p in bm.bracket if bm.solver.var_value(bm.df[p]))
    seen: dict[frozenset[int], bool] = {}

    def matched(fl: frozenset[int]) -> bool:
        if options is None:
            return True
        if fl not in seen:
            seen[fl] = all_floaters_matched(options, fl)
        return seen[fl]

    if not matched(floaters):
        return None
    # The tier as the model's term would record it (maximised: it has variables).
    c12 = None if options is None else Tier(*C12, -len(floaters), maximised=any(options.values()))
    if rc.forced is None and _alone(rc, bm, c12, fixed, before, later, matched):
        return True
    if c12 is None:
        return None
    bm.solver.record(c12)
    return finish_alone(bm, _terms(bm, later), lambda fl, _: matched(fl), s1_size=rc.edition.s1_size)


def _alone(rc: RoundContext, bm: BracketModel, c12: Tier | None, fixed: Sequence[Term], before: Sequence[str],
           later: Sequence[str], matched: Callable[[frozenset[int]], bool]) -> bool:
    """`later` and the generation order on a model of the bracket alone, each set of
    floaters checked against `bm` (which holds the completion) and by `matched`
    (C.12); the criteria `before` fixed as `bm` fixed their terms (`fixed`).  False
    (nothing decided) when the bracket is most of `bm`, or the bracket-alone model
    fails."""
    if bm.x_in_bracket or len(bm.x) < 2 * len(bm.local_vars()):
        return False  # no smaller: the aggregate model's pairs are the bracket's
    if bm.colours_below:
        return False  # X and Z count pairs below the bracket, which that model lacks
    inner = BracketModel(
        bm.state, bm.remaining, bm.bracket, bm.mdps, bm.next_group, bm.compatible, bm.pab_allowed,
        settings=bm.settings, local=True,
    )
    values = {(t.criterion, t.detail): bm.solver.value(t) for t in fixed}
    for t in _terms(inner, before):
        if t.vars:
            inner.solver.fix(t, values[t.criterion, t.detail])
    if c12 is not None:
        inner.solver.record(c12)
    skip = frozenset(tier.name for tier in bm.solver.trace)
    return solve_alone(bm, inner, _terms(inner, later), skip, (bm.exit,), s1_size=rc.edition.s1_size, also=matched)


def _nobody_paired(rc: RoundContext, players: list[int], mdps: list[int], next_group: list[int]) -> BracketModel:
    """The bracket's exact model with P at 0 (every player floats), on its tiers: its
    trace is that of the pairing made."""
    bm = _model(rc, players, mdps, next_group, "exact")
    bm.solver.fix(CRITERIA["2013:P"](bm)[0], len(players))
    return _tiers(rc, bm, players, mdps, next_group, "exact")


def _mdps_dropped(mdps: Sequence[int], first: Sequence[int], floaters: Sequence[int]) -> bool:
    """The bracket's best pairing with the rest of the round paired pairs none of its
    MDPs, and its best pairing on its own (whose floaters are `first`) paired some."""
    return any(p not in first for p in mdps) and all(p in floaters for p in mdps)


def _repaired_by_the_rules(rc: RoundContext, bracket: Bracket) -> bool:
    """Scoring a given pairing against the rules' pairing of the round: this bracket is
    the rules' and they paired it without C.12 (C.13 re-paired it, `_repaired_without_c12`).
    Whether C.13 re-pairs a bracket depends on the bracket, not on the pairing scored,
    so the given pairing is scored on the same tiers: else it would be compared on a
    C.12 tier the rules' pairing does not have."""
    known = rc.rules_trace(bracket) if rc.forced is not None else None
    return known is not None and bool(known.pairs) and not any(t.criterion == C12[0] for t in known.tiers)


# C.3.e-f: the requirements set for downfloaters when the bracket produces some.
_DOWNFLOAT_REQUIREMENTS = frozenset({"2013:B5down", "2013:B6down"})


def _short_after_restart(residents: Sequence[int], mdps: Sequence[int], pairs: Sequence[Pair],
                         floaters: Sequence[int]) -> bool:
    """The bracket was restarted as homogeneous with none of its MDPs paired (C.14.b.2:
    M1 = 0, P1 = P0 of its residents), and P1 was then lowered below P0."""
    return bool(mdps) and all(p in floaters for p in mdps) and len(pairs) < len(residents) // 2


def _downfloats_unset_by_the_rules(rc: RoundContext, bracket: Bracket, mdps: Sequence[int]) -> frozenset[str]:
    """Scoring a given pairing against the rules' pairing of the round: the rules
    paired this bracket without B.5/B.6 for downfloaters (`_short_after_restart` after
    C.13's backtracking), so the given pairing is scored without them too."""
    known = rc.rules_trace(bracket) if rc.forced is not None else None
    if known is None or not _short_after_restart(bracket.residents, mdps, known.pairs, known.downfloaters):
        return frozenset()
    asked = any((t.criterion, t.detail) in DOWNFLOATS.values() for t in known.tiers)
    return frozenset() if asked else _DOWNFLOAT_REQUIREMENTS


def _joined_by_the_rules(rc: RoundContext) -> bool:
    """Scoring a given pairing against the rules' pairing of the round: the rules
    joined the brackets below this one (C.13), so the given pairing is scored on the
    same brackets.  The joined bracket is the one after this bracket's trace whose
    residents come from more than one scoregroup."""
    i = len(rc.brackets) + 1
    if rc.against is None or i >= len(rc.against.brackets):
        return False
    return len({rc.score[p] for p in rc.against.brackets[i].residents}) > 1


def _colours_with_lowest(rc: RoundContext, players: Sequence[int], mdps: Sequence[int],
                         next_group: Sequence[int]) -> bool:
    """X and Z of this bracket count the lowest bracket's pairs too: in an even round,
    in the penultimate bracket, heterogeneous (not treated as homogeneous by A.3), whose
    MDPs are two or more residents of the bracket just above that it left unpaired after
    pairing others there (C.14.a lowered its P1).  The jar then pays a colour preference
    here to spare the lowest bracket a Z pair; in no wider shape does it
    (docs/edition-2013.md, "Twenty-fifth pass")."""
    if rc.state.round % 2 or len(mdps) < 2 or treated_as_homogeneous(len(mdps), len(players)):
        return False
    if not next_group or not rc.brackets or not _holds_the_rest(rc, players, next_group):
        return False
    above = rc.brackets[-1]
    residents = frozenset(above.residents)
    paired_there = any(p in residents and q in residents for p, q in above.pairs)
    return paired_there and frozenset(mdps) == {p for p in above.downfloaters if p in residents}


def _penultimate(rc: RoundContext, bracket: Bracket) -> bool:
    """Every player still to pair is in this bracket or the next scoregroup."""
    return _holds_the_rest(rc, bracket.players, bracket.next_group)


def _holds_the_rest(rc: RoundContext, players: Sequence[int], next_group: Sequence[int]) -> bool:
    """These players and the next scoregroup are every player still to pair."""
    upper = frozenset(players) | frozenset(next_group)
    return all(p in upper for p in rc.remaining)


def _nobody_paired_tiers(bm: BracketModel, mdps: Sequence[int]) -> list[Tier]:
    """M1 and P of a bracket that pairs nobody: every MDP and every player unpaired."""
    m1 = [t.tier(len(mdps)) for t in CRITERIA["2013:M1"](bm)]
    return m1 + [t.tier(len(bm.bracket)) for t in CRITERIA["2013:P"](bm)]


def _pairable(bm: BracketModel, among: Sequence[int] | None = None) -> bool:
    """Some pair of the bracket meets B.1/B.2: P0 > 0 before any backtracking.  With
    `among` (its MDPs), some pair that includes one of them: paired on its own, the
    bracket then pairs an MDP (M1 is its first tier) and so reaches its remainder."""
    some = None if among is None else frozenset(among)
    return any(bm.inside(p, q) and (some is None or p in some or q in some) for p, q in bm.x)


def _join(rc: RoundContext, players: Sequence[int]) -> BracketModel:
    """C.13: the lowest bracket made of `players` (its S1, the MDPs) and every player
    below them, paired; treated as homogeneous when they are at least half of it (A.3)."""
    merged = sorted(rc.remaining, key=rc.state.rank_key)
    s1 = sorted(players, key=rc.state.rank_key)
    return _solve(rc, merged, [] if treated_as_homogeneous(len(s1), len(merged)) else s1, [], "exact")


def _joined_completely(rc: RoundContext, players: Sequence[int]) -> BracketModel | None:
    """The lowest bracket that C.13 makes by joining `players` to every player below,
    where it pairs them all but the bye; else None (joining them would not let the
    lowest bracket be paired, which is what C.13 joins brackets for)."""
    try:
        bm = _join(rc, players)
    except (NoValidPairing, InfeasibleError):
        return None
    return bm if len(bm.bracket_result()[1]) <= len(rc.remaining) % 2 else None


class Procedure2013:
    """The 2013 round (see the module docstring)."""

    def start(self, rc: RoundContext) -> None:
        st = rc.state
        present = list(st.present)
        # A first witness, so that the top bracket's model starts from a solution (a
        # feasibility solve of a big bracket costs more than its tiers).  None: the
        # first bracket's model proves it and says why.
        rc.witness = list(rc.forced) if rc.forced is not None else []
        rc.pab_allowed = frozenset(p for p in present if st.players[p].pab_eligible)
        if rc.forced is None:
            rc.witness = complete_pairing(present, rc.compatible, rc.pab_allowed) or []

    def next_bracket(self, rc: RoundContext) -> Bracket | None:
        return residents_bracket(rc)

    def pair_bracket(self, rc: RoundContext, bracket: Bracket) -> None:
        rc.tell(bracket.head(len(rc.scoregroups)))
        players = bracket.players
        last = rc.next_group >= len(rc.scoregroups)
        model_mdps = [] if homogeneous_after_c1(rc, players, bracket.mdps) else bracket.mdps
        unconstrained: tuple[list[Pair], list[int]] | None = None
        full: list[Pair] | None = None
        # The aggregate model relaxes the lazy one (the next scoregroup as counts): its
        # answer is the lazy model's when the round can be completed after it;
        # otherwise the lazy model decides.
        with_c12 = not _repaired_by_the_rules(rc, bracket)
        unset = _downfloats_unset_by_the_rules(rc, bracket, model_mdps)
        # Not where X and Z count the lowest bracket's pairs: the aggregate model has counts.
        aggregate = rc.forced is None and not _colours_with_lowest(rc, players, model_mdps, bracket.next_group)
        for kind in ("aggregate", "lazy") if aggregate else ("lazy",):
            unconstrained = None
            try:
                bm = _solve(rc, players, model_mdps, bracket.next_group, kind, with_c12, unset)
                pairs, floaters = bm.bracket_result()
                unconstrained = (sorted(pairs), list(floaters))
                full = bm.complete()
            except (NoValidPairing, InfeasibleError):
                # The lazy model relaxes completion: with no solution it leaves the exact
                # model to prove that none exists.  (It is not a relaxation of the exact
                # model's tiers -- C.12 looks at the next bracket only -- so a solve limit
                # in it is not handed over: that would change the answer.)
                STATS["fallbacks"] += 1
                continue
            if full is not None:
                break
        if rc.forced is None and not last and unconstrained is not None and not _penultimate(rc, bracket):
            # The penultimate bracket's model holds the lowest bracket whole: its own
            # best pairing is the one its model already makes (the fifth pass).
            own = _own_best(rc, players, model_mdps, bracket.next_group, unconstrained[0], full or rc.witness)
            if own is not None and (set(own[0]), set(own[1])) != (set(unconstrained[0]), set(unconstrained[1])):
                unconstrained, full = own, None  # C.13 backtracks into this bracket (below)
        backtracked = False
        joined: BracketModel | None = None  # the lowest bracket that joining makes, where known
        if full is None:
            # The players below cannot be paired after this bracket's best pairing:
            # C.13 backtracks into this bracket (the penultimate one).
            bm = _solve(rc, players, model_mdps, bracket.next_group, "exact")
            pairs, floaters = bm.bracket_result()
            changed = unconstrained is not None and (sorted(pairs), floaters) != unconstrained
            repaired = False
            if changed and not last and rc.forced is None and backtracking_options(bm) is not None:
                # The bracket's own best pairing cannot be kept: C.13 re-pairs it, and
                # C.12 does not backtrack while C.13 already is (no C.12 tier).
                alt = _repaired_without_c12(rc, players, model_mdps, bracket.next_group)
                if alt is not None:
                    a_pairs, a_floaters = alt.bracket_result()
                    if (sorted(a_pairs), sorted(a_floaters)) != (sorted(pairs), sorted(floaters)):
                        bm, pairs, floaters, repaired = alt, a_pairs, a_floaters, True
            if rc.forced is None and _short_after_restart(bracket.residents, model_mdps, pairs, floaters):
                # C.14.b.2 restarted the bracket as homogeneous, P1 = P0 of its residents,
                # who then produce no downfloater; C.13's backtracking lowered P1 from
                # there, and B.5/B.6 for downfloaters, which C.3.e-f sets only for a
                # bracket that produces downfloaters, are not set again
                # (docs/edition-2013.md, "Twenty-fourth pass").
                if repaired:
                    redone = _repaired_without_c12(rc, players, model_mdps, bracket.next_group,
                                                   _DOWNFLOAT_REQUIREMENTS)
                else:
                    redone = _solve(rc, players, model_mdps, bracket.next_group, "exact",
                                    unset=_DOWNFLOAT_REQUIREMENTS)
                if redone is not None:
                    bm = redone
                    pairs, floaters = bm.bracket_result()
            full = bm.complete()
            assert full is not None
            backtracked = unconstrained is not None and (sorted(pairs), floaters) != unconstrained
            if backtracked and unconstrained is not None and _mdps_dropped(model_mdps, unconstrained[1], floaters):
                # C.13 going back into a bracket whose MDP-pairing was reached (C.14.b.1)
                # lowers M1 but never to 0 (no homogeneous restart, C.14.b.2): when only
                # a pairing of none of its MDPs lets the rest be paired, P reaches 0 and
                # C.13 joins the brackets.
                try:
                    nobody = _nobody_paired(rc, players, model_mdps, bracket.next_group)
                except (NoValidPairing, InfeasibleError):
                    nobody = None
                if nobody is not None:
                    bm = nobody
                    pairs, floaters = bm.bracket_result()
                elif not last and _pairable(bm):
                    # Its players cannot all float down one by one, but C.13 can join
                    # them to the lowest bracket as its S1, where they may meet.
                    joined = _joined_completely(rc, players)
                    if joined is not None:
                        pairs, floaters = [], list(players)
        floated_whole = (
            bool(model_mdps) and not backtracked and not last and all(p in floaters for p in model_mdps)
            and _pairable(bm, model_mdps)
        )
        if floated_whole and not _penultimate(rc, bracket):
            # A bracket higher up is the penultimate one once the brackets between it and
            # the lowest have joined it (their P reached 0): so is this one, where the
            # bracket C.13 would make of it and every player below pairs them all.
            joined = _joined_completely(rc, players)
            floated_whole = joined is not None
        if floated_whole:
            # The penultimate bracket: its model holds the lowest bracket whole, so its
            # answer is already the one C.13's backtracking reaches.  Paired on its own
            # first (the procedure's first attempt) it pairs an MDP and so reaches its
            # remainder; when only a pairing of none of its MDPs lets the lowest bracket
            # be paired, M1 is not lowered (C.14.b.1), P1 is, down to 0, and C.13 joins
            # the two brackets (below).
            pairs, floaters = [], list(players)
        witness = [pq for pq in full if pq not in set(pairs)]
        merge: list[int] | None = None
        score = rc.score
        if not last and not pairs and _pairable(bm):
            # C.13: backtracking brought P down to 0 here: this bracket joins the ones
            # below as the S1 of the new lowest bracket.
            merge = list(players)
        elif ((backtracked if rc.forced is None else _joined_by_the_rules(rc)) and not last
              and any(score[p] < rc.scoregroups[rc.next_group] for p in rc.remaining)):
            # This bracket was re-paired so that the lowest one could be paired: by
            # then every bracket below had been joined into it (C.13); this
            # bracket's floaters are its MDPs.
            merge = list(floaters)
        # Joined whole by C.13: M1 and P however it was reached, as a given pairing's scoring.
        tiers = _nobody_paired_tiers(bm, model_mdps) if not pairs and merge == players else list(bm.solver.trace)
        rc.record(BracketTrace(bracket.score, bracket.residents, bracket.mdps, pairs, floaters, tiers), witness)
        if merge is None or rc.parted():  # parted: the joined bracket is below the first difference
            return
        merged = sorted(rc.remaining, key=rc.state.rank_key)
        s1 = sorted(merge, key=rc.state.rank_key)
        bm = joined if joined is not None and merge == list(players) else _join(rc, merge)
        pairs, floaters = bm.bracket_result()
        below = [p for p in merged if p not in merge]
        rc.record(BracketTrace(score[below[-1]] if below else bracket.score, below, s1, pairs, floaters,
                               list(bm.solver.trace)))
        rc.done = True
