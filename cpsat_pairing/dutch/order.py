"""The rules' generation order (2026 Art. 4) as the last tiers, making the optimum unique.

Among candidates equal on every criterion the rules take the one generated first.
Generation is nested: MDP set (4.4) ▸ S2 transposition (4.2) ▸ remainder exchange
(4.3) ▸ remainder transposition (4.2).  A pairing P is reachable from an exchange when
every pair of P has exactly one player in the exchanged S1; so instead of enumerating
candidates we add a Boolean `s[p]` ("p is in S1") and minimise, in order:
  1. the MDP set, lexicographically by BSN;
  2. the BSN of each MDP's partner, MDPs in BSN order (the transposition);
  3. the exchange: fewest players moved, smallest BSN-sum difference, highest BSN moved
     out of S1, lowest BSN moved into S1 (4.3.2);
  4. the BSN of each S1 player's partner, S1 in BSN order (the transposition).
"""

from __future__ import annotations

from ortools.sat.python import cp_model

from cpsat_pairing.dutch.model import PairModel
from cpsat_pairing.solver.counts import add_class_counts
from cpsat_pairing.records import InfeasibleError, Tier, TierKind, Uncertified
from cpsat_pairing.solver.repair import incumbent_pairs, pairs_away, split_witness
from cpsat_pairing.solver.search import Literal, first_candidate, first_in_order

ORDER = TierKind.ORDER
# The detail of a tier of `_fix_slots` (one per S1 player, S1 the top P0 residents).
SLOT_DETAIL = "S2 player against BSN"


def _fix_partners(
    bm: PairModel, s1: list[int], among: frozenset[int], bsn: dict[int, int], label: str, counted: bool = False
) -> None:
    """Art. 4.2: give S1[1], S1[2], ... in turn the lowest-BSN partner an optimal candidate allows.

    That is one tier per S1 player ("BSN of the partner of S1[i]"), minimised in order:
    the first transposition of S2 that is optimal on every criterion.  `counted`: the
    class counts of this S1 and S2 are in the model already.
    """
    s1set = frozenset(s1)
    s2 = sorted((q for q in among if q not in s1set), key=bsn.__getitem__)
    if bm.far is not None and label == "transposition":
        bm.far.split_by_sides(bm, s1, s2)  # every pair of the remainder joins S1 and S2
        counted = False  # the counts again, with the far pairs' counts by side in them
    # The tiers all at once: the candidates "S1[1] meets S2 player q", S1[1] first, q
    # by BSN, then S1[2]'s, ... tried true before false in that order; the first
    # solution of that search is the one the tiers in sequence would find, in one solve
    # instead of one per few S1 players.
    # A depth-first search can get lost in a big bracket, so it has a deterministic
    # work budget; past it, the tiers are solved one after another.  Either way the
    # answer is the same, on every machine.
    decisions = _decisions(bm, s1, s2, among, bsn)
    # After the decisions, the rest of the round: first who leaves the modelled part,
    # then the count of pairs inside the next scoregroup (aggregate model) from its
    # top, whose highest true Boolean makes the rest true.  With those settled,
    # propagation sets the next scoregroup's own Booleans, which one by one would each
    # be a decision (900 at 5,000 players).
    ahead = [*bm.player_families().get("exit", {}).values(), *reversed(bm.counters())]
    # The tiers restated over class counts let propagation refute most candidates
    # before the searches below try them (counts.py).  The greedy transposition needs
    # none: they are implied constraints, true of every solution, so its check gives
    # the same answer without them, and where it is the answer they are never used.
    if bm.far is not None and label != "transposition":
        if not counted:
            add_class_counts(bm, s1, s2)
        _fix_partners_one_by_one(bm, s1, among, bsn, label)
        return
    try:
        found: bool | None = _greedy_first(bm, s1, among, bsn)
        if not found:
            if not counted:
                add_class_counts(bm, s1, s2)
            found = first_in_order(bm.solver, decisions, budget=bm.solver.settings.fixed_search_budget, ahead=ahead)
    except Uncertified as failure:
        if bm.far is None or not failure.values:
            raise
        # A near model whose relaxation pairs these players by far pairs: made again
        # with their pairs between S1 and S2, it may pair them so.  Where they cannot
        # meet each other (the counts are by class), with their pairs to every player
        # of the other side.
        far = bm.far.paired_far(failure.values)
        ones = [p for p in far if p in s1set], [q for q in far if q not in s1set]
        pairs = [(p, q) for p in ones[0] for q in ones[1] if bm.compatible(p, q)]
        if not pairs:
            pairs = [(p, q) for p in s1 for q in s2 if (p in far or q in far) and (p, q) not in bm.x
                     and (q, p) not in bm.x and bm.compatible(p, q)]
        raise Uncertified(str(failure), pairs) from None
    if found is None:
        if bm.far is not None:
            raise Uncertified("the transposition's search used up its budget")
        _fix_partners_tier_by_tier(bm, s1, among, bsn, label)
        return
    if not found:
        raise InfeasibleError("the incumbent's own transposition was lost")
    skipped = bm.far.skipped(bm, s1, among, bsn) if bm.far is not None else []
    if skipped:
        # A near model with the far pairs of those S2 players to every S1 player can tell.
        late = sorted({q for _, q in skipped}, key=bsn.__getitem__)
        raise Uncertified("an S1 player may meet a lower S2 player by a far pair",
                          [(p, q) for q in late for p in s1 if bm.compatible(p, q)])
    for p in s1:
        for q, v in bm.adj[p]:
            if q in among and q not in s1set and bm.solver.var_value(v):
                # By its domain: a later walk (solver/search.py) reads the pairs
                # made from the domains.
                bm.solver.fix_domains([(v.index, 1)])
                bm.solver.record(Tier(label, f"partner of BSN {bsn[p]}", bsn[q], ORDER, subject=bsn[p]))


def _greedy_first(bm: PairModel, s1: list[int], among: frozenset[int], bsn: dict[int, int]) -> bool:
    """The first transposition without a search, where the greedy one is a solution:
    S1[1] with the lowest-BSN S2 player he may meet, S1[2] with the lowest left, ...
    Where it is not, the first candidate of a depth-first walk in the search's order
    that no fixed tier's sum rules out (solver/search.py), if the model takes it.

    The search's decisions ("S1[i] meets q", in order, true first) are the
    lexicographic maximum over the solutions of the fixed tiers.  The greedy choice is
    that maximum over a wider set (every choice in which each player meets at most one
    other), so when it is a solution it is the search's first; so is the walk's, which
    passes over only choices that no solution makes.  A choice is tried where it
    moves no player in or out of the bracket's pairs (the incumbent's pairs below and
    its floaters then still fit), or where those it moves out can meet each other
    (`_swapped`), and the model (not a near model's relaxation) checks it whole: the
    proposal evaluator answers, without CP-SAT where it can tell.  Kept, it is the new
    incumbent; else the search decides.

    A condition the model cannot state (`LexSolver.accept`: the bracket alone's check
    of its downfloaters against the round, dutch/alone.py) is asked of the proposal
    too, as of every solution; a choice is then tried only where it moves nobody.
    It keeps the incumbent's downfloaters, which have mostly passed that check
    already; a new set would more often be cut off, and each cut counts towards the
    bracket alone's limit, past which the full model decides."""
    solver = bm.solver
    settings = solver.settings
    if not settings.greedy_transposition or bm.far is not None or solver.partial:
        return False
    s1set = frozenset(s1)
    rows = [[(q, v.index) for q, v in sorted(((q, v) for q, v in bm.adj[p] if q in among and q not in s1set),
                                             key=lambda qv: bsn[qv[0]])] for p in s1]
    taken: set[int] = set()
    greedy: list[int | None] = []
    for row in rows:
        mate = next(((q, i) for q, i in row if q not in taken), None)
        greedy.append(None if mate is None else mate[1])
        if mate is not None:
            taken.add(mate[0])
    if _chosen_first(bm, s1, among, rows, greedy, "greedy"):
        return True
    if not settings.walk_transposition:
        return False
    known, derived, paired, closed, wanted = _floats(bm, s1, rows)
    walked = first_candidate(solver, rows, settings.walk_budget * (len(rows) + 1), known, derived, paired, closed,
                             wanted)
    return walked is not None and walked != greedy and _chosen_first(bm, s1, among, rows, walked, "walked")


def _floats(bm: PairModel, s1: list[int], rows: list[list[tuple[int, int]]]
            ) -> tuple[dict[int, int], dict[int, list[int]], set[int], set[int], set[int]]:
    """What every solution of `bm` says of the transposition's decisions (`rows`, S1
    in order), for the walk (solver/search.py):

    - the values every solution has: the fixed domains, and for a player paired for
      good (a variable of his df row fixed at 1) the rest of that row and his df at 0;
    - df[p] as 1 less the decisions of p, where every other variable of his df row is 0;
    - the S1 players (by row) who must then meet an S2 player (df[p] fixed at 0), and
      the S2 players whom some S1 player must then meet;
    - the decisions that are 0 (fixed, or of a player paired for good or whose df is
      fixed at 1)."""
    fixed = bm.solver.domains.for_good()
    for w, df_row in bm.df_rows.items():
        if any(fixed.get(i) == 1 for i in df_row):
            for i in [*df_row, bm.df[w].index]:
                fixed.setdefault(i, 0)
    of: dict[int, list[int]] = {}  # each player's decisions
    for p, row in zip(s1, rows):
        for q, i in row:
            of.setdefault(p, []).append(i)
            of.setdefault(q, []).append(i)
    derived: dict[int, list[int]] = {}
    paired: set[int] = set()
    closed = {i for row in rows for _, i in row if fixed.get(i) == 0}
    wanted: set[int] = set()
    s1_row = {p: r for r, p in enumerate(s1)}
    for z, mine in of.items():
        d, others = bm.df.get(z), bm.df_rows.get(z)
        if d is None or others is None:
            continue
        decisions = set(mine)
        if fixed.get(d.index) == 1:
            closed.update(i for i in others if i in decisions)
            continue
        if any(i not in decisions and fixed.get(i) != 0 for i in others):
            continue
        if d.index not in fixed:
            derived[d.index] = [i for i in others if i in decisions]
        elif fixed[d.index] == 0 and z in s1_row:
            paired.add(s1_row[z])
        elif fixed[d.index] == 0:
            wanted.add(z)
    return fixed, derived, paired, closed, wanted


def _chosen_first(bm: PairModel, s1: list[int], among: frozenset[int], rows: list[list[tuple[int, int]]],
                  choice: list[int | None], counter: str) -> bool:
    """Keep the transposition `choice` (per S1 player, the index of his decision made
    true, or None) as the incumbent if the model accepts it (`_greedy_first`)."""
    solver = bm.solver
    s1set = frozenset(s1)
    values = solver.values
    proposal = dict(values)
    before: set[tuple[int, int]] = set()
    made: set[tuple[int, int]] = set()
    ordered: list[tuple[int, int]] = []  # the chosen pairs, S1 in order
    for p, row, chosen in zip(s1, rows, choice):
        for q, i in row:
            if values.get(i):
                before.add((p, q))
            proposal[i] = 0
            if i == chosen:
                made.add((p, q))
                ordered.append((p, q))
        if chosen is not None:
            proposal[chosen] = 1
    if {x for pq in before for x in pq} != {x for pq in made for x in pq} and (
            solver.accept is not None or not _swapped(bm, s1, frozenset(q for q in among if q not in s1set),
                                                      ordered, proposal)):
        return False
    return solver.try_fix_domains([], [], proposal=proposal, search=False, counter=counter)


def _swapped(bm: PairModel, s1: list[int], s2: frozenset[int], greedy: list[tuple[int, int]],
             proposal: dict[int, int]) -> bool:
    """Complete `proposal` where the greedy S1-S2 pairs move players in or out of the
    S1-S2 pairs.  For each greedy pair p-q that the incumbent does not make, p's
    incumbent partner a is left without one: he meets q's incumbent partner, or, where
    q was not paired by a pair variable (a floater, a player paired into the next
    scoregroup or below, the PAB), he takes q's place there (their own variables,
    `player_families`, traded).  The same players are then paired by pair variables
    and the same places are filled, so the counts and the pairs below still fit.
    False (nothing changed) where that cannot be done: p himself unpaired, no such pair
    or variable, or S1-S2 pairs other than the greedy ones in the end.

    The greedy S1-S2 pairs are the search's first decisions wherever any solution has
    them (`_greedy_first`), whatever its other pairs: the completion only has to be a
    solution, and the evaluator checks it whole.  (Most often: the incumbent pairs an
    MDP with a later resident than the first he may meet.)"""
    x = bm.x

    def var(p: int, q: int) -> int | None:
        v = x.get((p, q))
        if v is None:
            v = x.get((q, p))
        return None if v is None else v.index

    made = bm.chosen_pairs()
    partner: dict[int, int] = {}
    for p, q in made:
        partner[p], partner[q] = q, p
    own: dict[int, int] = {}  # the players' own variables traded so far: index -> value
    families = list(bm.player_families().values())
    for p, q in greedy:
        a, b = partner.get(p), partner.get(q)
        if a == q:
            continue
        if a is None or a == b:
            return False
        if b is None:
            if not _trade(families, a, q, proposal, own):
                return False
            del partner[a]
            partner[p], partner[q] = q, p
            continue
        if var(a, b) is None:
            return False
        partner[p], partner[q], partner[a], partner[b] = q, p, b, a
    mate = dict(greedy)
    if any(mate.get(p) != (partner.get(p) if partner.get(p) in s2 else None) for p in s1):
        return False
    for pq in made:
        i = var(*pq)
        assert i is not None
        proposal[i] = 0
    for p, q in partner.items():
        i = var(p, q)
        assert i is not None
        proposal[i] = 1
    proposal.update(own)
    return True


def _trade(families: list[dict[int, cp_model.IntVar]], a: int, q: int, values: dict[int, int],
           own: dict[int, int]) -> bool:
    """Record in `own` a and q trading the values of their own variables (those of
    `own` first, then `values`); False where one has a variable the other lacks and
    its value is not 0."""
    for family in families:
        va, vq = family.get(a), family.get(q)
        ia = -1 if va is None else va.index
        iq = -1 if vq is None else vq.index
        xa = own.get(ia, values.get(ia, 0)) if va is not None else 0
        xq = own.get(iq, values.get(iq, 0)) if vq is not None else 0
        if (va is None and xq) or (vq is None and xa):
            return False
        if va is not None:
            own[ia] = xq
        if vq is not None:
            own[iq] = xa
    return True


def _decisions(bm: PairModel, s1: list[int], s2: list[int], among: frozenset[int],
               bsn: dict[int, int]) -> list[Literal]:
    """The transposition's decisions: for S1[1], S1[2], ... in turn, "meets S2 player
    q", q by BSN.

    A near model's search runs on its relaxation (dutch/near.py), where a player may
    also be paired by a far pair (f).  Its decisions say so where the full model's
    search would know it: before an S1 player's candidates, that he is paired by a near
    pair (so that they exclude each other as in the full model; only if none of them can
    be completed, the far pair); after the last S1 player who may meet an S2 player at
    all, that the S2 player was paired by a near pair (or floats).  Each only orders
    the solutions that pair the S1 players decided so far alike: the relaxation's first
    solution is still the first of every solution of the full model that it can be
    compared with (FarPairs.skipped says which it cannot).  Placed after the last S1
    player *near* him instead, the second would put "no far pair for him" before the
    partners of the S1 players after that one, who may still meet him by a far pair,
    and pass over a first solution that needs it."""
    far = bm.far.f if bm.far is not None else {}
    s1set = frozenset(s1)
    closing: dict[int, list[Literal]] = {}
    if far:
        ok = bm.compatible
        for q in s2:
            if q in far:
                last = next((j for j in range(len(s1) - 1, -1, -1) if ok(s1[j], q)), len(s1) - 1)
                closing.setdefault(last, []).append(far[q].Not())
    decisions: list[Literal] = []
    for j, p in enumerate(s1):
        if p in far:
            decisions.append(far[p].Not())
        decisions += [v for _, v in sorted((bsn[q], v) for q, v in bm.adj[p] if q in among and q not in s1set)]
        decisions += closing.get(j, [])
    return decisions


def _fix_partners_tier_by_tier(bm: PairModel, s1: list[int], among: frozenset[int], bsn: dict[int, int], label: str) -> None:
    """The S1 partner tiers solved in sequence.  Partners fixed for earlier S1 players are
    out of reach of later ones; leaving them out makes each tier's lower bound tight, so
    a tier the incumbent already meets costs no solve.  The solver packs consecutive
    tiers into one objective; after each solve the rest are tightened again."""
    s1set = frozenset(s1)
    taken: set[int] = set()
    i = 0
    while i < len(s1):
        terms = []
        for p in s1[i:]:
            weighted = [(bsn[q], v) for q, v in bm.adj[p] if q in among and q not in s1set and q not in taken]
            terms.append(bm.term(label, f"partner of BSN {bsn[p]}", weighted, kind=ORDER, one_hot=True, subject=bsn[p]))
        done = bm.solver.minimize_some(terms)
        for p in s1[i : i + done]:
            taken.update(q for q, v in bm.adj[p] if q in among and bm.solver.var_value(v))
        i += done


def _fix_partners_one_by_one(bm: PairModel, s1: list[int], among: frozenset[int], bsn: dict[int, int],
                             label: str) -> None:
    """A near model's MDP-pairing (dutch/near.py): each MDP's partners tried in BSN
    order, the first that a solution of the near pairs allows taken.

    A depth-first search re-pairs the rest of the bracket badly over the near pairs
    alone; here each question is a solve of its own.  A candidate is refuted by the
    count model (bounds.py: by its class pair, all of them at once) or, where the near
    pairs have no solution with it, by the relaxation (LexSolver.check_values); where
    neither can tell, Uncertified."""
    solver = bm.solver
    counts = bm.counts
    s1set = frozenset(s1)
    made: list[tuple[int, int]] = []
    closed = solver.zero_for_good()
    for p in s1:
        refuted: dict[object, bool] = {}
        taken = {q for pq in made for q in pq}
        for b, q, v in sorted((bsn[q], q, v) for q, v in bm.adj[p] if q in among and q not in s1set):
            if q in taken or v.index in closed:
                continue
            key = counts.group_of(p, q)
            if key not in refuted:
                refuted[key] = counts.refutes([*made, (p, q)], solver.fixed)
            if refuted[key]:
                continue
            answer = _near_check(bm, (v.index, 1), (p, q))
            if answer is None:
                continue
            solver.set_incumbent(answer)
            bm.model.add(v == 1)
            solver.record(Tier(label, f"partner of BSN {bsn[p]}", b, ORDER, subject=bsn[p]))
            made.append((p, q))
            break
        else:
            raise InfeasibleError("no partner for an MDP of the set chosen")


def _near_check(bm: PairModel, value: tuple[int, int], pair: tuple[int, int]) -> dict[int, int] | None:
    """A solution of a near model with `value` (index, value), or None; Uncertified if
    neither the near pairs nor the relaxation can tell (LexSolver.check_values).

    First with the incumbent's pairs kept where they are, but those of the players
    ranked near the two of `pair` and near their partners: the new pair displaces a few
    players, whom the near pairs around them usually take in."""
    solver = bm.solver
    place = {p: i for i, p in enumerate(bm.bracket)}
    chosen = incumbent_pairs(bm)
    partner = {p: q for a, b, _ in chosen for p, q in ((a, b), (b, a))}
    spots = [place[p] for p in pair if p in place] + [place[partner[p]] for p in pair if partner.get(p) in place]
    for width in (bm.solver.settings.near_window, 4 * bm.solver.settings.near_window):
        keep = [(i, 1) for i in pairs_away(bm, chosen, spots, width)]
        answer = solver.check_values([value, *keep], conclusive=False)
        if answer is not None:
            return answer
    return solver.check_values([value])


def _fix_slots(bm: PairModel, s1: list[int], s2: list[int], bsn: dict[int, int]) -> None:
    """Legacy D.1 when fewer than P0 pairs are made (2013: S1 keeps the top P0 players):
    the transposition of S2 puts one S2 player against each S1 player; a pair is an S1
    player with his S2 counterpart, an S1 player who floats faces an S2 player who floats
    too.  The first transposition is the lexicographic minimum of the counterparts."""
    model = bm.model
    inside = frozenset(s1) | frozenset(s2)
    a: dict[tuple[int, int], cp_model.IntVar] = {}
    for p in s1:
        row = []
        for q in s2:
            v = model.new_bool_var(f"slot_{p}_{q}")
            a[p, q] = v
            row.append(v)
            pq = (p, q) if (p, q) in bm.x else (q, p)
            if pq in bm.x:
                model.add(v == 1).only_enforce_if(bm.x[pq])
                model.add_bool_or([v.Not(), bm.x[pq], bm.df[p]])
            else:
                model.add_bool_or([v.Not(), bm.df[p]])
            model.add_bool_or([v.Not(), bm.df[p].Not(), bm.df[q]])
        model.add_exactly_one(row)
    for q in s2:
        model.add_at_most_one(a[p, q] for p in s1)
    # No exchange: every pair joins S1 and S2.
    s1set = frozenset(s1)
    for (p, q), v in bm.x.items():
        if p in inside and q in inside and (p in s1set) == (q in s1set):
            model.add(v == 0)
    # Incumbent: pairs on their slots, floaters of S1 on the floaters of S2 in order.
    chosen = {p: q for (x, y) in bm.chosen_pairs() if x in inside and y in inside for p, q in ((x, y), (y, x))}
    free2 = [q for q in s2 if q not in chosen]
    true = []
    for p in s1:
        slot = chosen.get(p)
        if slot is None and free2:
            slot = free2.pop(0)
        if slot is not None:
            true.append(a[p, slot])
    bm.solver.add_variables(a.values(), true)
    terms = [bm.term("transposition", f"{SLOT_DETAIL} {bsn[p]}", ((bsn[q], a[p, q]) for q in s2),
                     kind=ORDER, one_hot=True)
             for p in s1]
    bm.solver.minimize(terms)


def generation_order(bm: PairModel, s1_size: str = "pairs") -> None:
    """Fix the first-generated candidate among those optimal on every criterion.

    `s1_size` "p0" is the 2013 reading (C.14.b2): with M1 = 0 the bracket's residents
    are paired as a homogeneous bracket, and S1 keeps their top P0 when fewer pairs are
    made.  The MDPs, left unpaired, float on and hold no place in S1 or S2: with them
    there, an MDP at the top of S1 would face an S2 player and send him down too.
    """
    # Presolve slows these feasibility-like solves.  The incumbent's hint is followed
    # as elsewhere: the candidates checked here (the greedy MDP partners, no exchange)
    # usually differ from it in a few pairs, and CP-SAT repairs it faster than it
    # searches from scratch.
    with bm.solver.without_presolve():
        _generation_order(bm, s1_size)


def _generation_order(bm: PairModel, s1_size: str) -> None:
    solver = bm.solver
    model = bm.model
    residents = frozenset(bm.residents)
    mdps = [p for p in bm.bracket if p in bm.mdps]
    paired_mdps = [m for m in mdps if not solver.var_value(bm.df[m])]
    if paired_mdps:
        # 4.4.2: valid MDP sets by their smallest differing BSN.
        solver.minimize([bm.term("MDP set", f"BSN {bm.bsn[m]} in S1", [(1, bm.df[m])], kind=ORDER, subject=bm.bsn[m])
                         for m in mdps])
        s1 = [m for m in mdps if not solver.var_value(bm.df[m])]
        # 4.2 on S2 (all residents): partners of S1[1], S1[2], ... as low as possible.
        _fix_partners(bm, s1, residents, bm.bsn, "MDP-pairing")
        taken = {q for (p, q) in bm.chosen_pairs() for q in (p, q) if p in s1 or q in s1}
    else:
        taken = set()
    # C.14.b2: M1 = 0, the residents are paired as a homogeneous bracket.
    homogeneous = s1_size == "p0" and bool(mdps) and not paired_mdps
    remainder = [p for p in bm.residents if p not in taken]
    rset = frozenset(remainder)
    pairs = [(p, q) for (p, q) in bm.chosen_pairs() if p in rset and q in rset]
    n1 = len(pairs)
    if n1 == 0:
        return
    # The remainder is paired as a bracket of its own (Art. 3.3.3, 3.7.1), numbered
    # afresh: 1, 2, ... in ranking order.
    bsn = {p: i + 1 for i, p in enumerate(remainder)}
    if homogeneous and n1 < len(remainder) // 2:
        p0 = len(remainder) // 2
        s1_orig, s2_orig = remainder[:p0], remainder[p0:]
        # S1 keeps its P0 players whenever some optimal candidate pairs S1 with S2 only:
        # the incumbent's pairs say so, else one feasibility question (which fixes the
        # pairs inside S1 or inside S2 at 0 when the answer is yes).
        slots = all((p in s1_orig) != (q in s1_orig) for p, q in pairs) or solver.try_fix_domains(
            _same_side(bm, frozenset(s1_orig), rset), [])
        # Every candidate of that S1 comes before any that needs an exchange from it
        # (a tier, so that `check` compares a given pairing of either kind in order).
        solver.record(Tier("exchange", "needed from the top P0 residents in S1 (C.14.b2)", int(not slots), ORDER))
        if slots:
            _fix_slots(bm, s1_orig, s2_orig, bsn)
            return
    s1_orig, s2_orig = remainder[:n1], remainder[n1:]
    # No exchange at all is the first in the order of 4.3.2 whenever it is feasible.
    # It is asked without the S1 variables below: every S1 player paired inside the
    # bracket, no pair inside S1 or inside S2 -- domains fixed, nothing added (the
    # linking constraints of the S1 variables would cost more than the rest of the
    # bracket's generation order).  The tiers are those the terms below would give.
    no_exchange = [
        Tier("exchange", "players moved", -len(s1_orig), ORDER, maximised=True),
        Tier("exchange", "BSN sum difference", sum(bsn[p] for p in s1_orig), ORDER),
    ]
    no_exchange += [Tier("exchange", f"BSN {bsn[p]} stays in S1", 1, ORDER, subject=bsn[p]) for p in reversed(s1_orig)]
    no_exchange += [Tier("exchange", f"BSN {bsn[q]} moves to S1", 0, ORDER, maximised=True, subject=bsn[q])
                    for q in s2_orig]
    one_side_each = _one_side_each(bm, frozenset(s1_orig), rset)
    if bm.far is not None:
        # A near model (dutch/near.py): the first transposition without an exchange,
        # searched on the relaxation, also says whether there is one.  Where there is
        # none, the exchanges are the full model's to find.
        solver.fix_domains(one_side_each)
        for tier in no_exchange:
            solver.record(tier)
        try:
            _fix_partners(bm, s1_orig, rset, bsn, "transposition")
        except InfeasibleError:
            raise Uncertified("no candidate without an exchange: the exchanges need every pair") from None
        return
    witness = split_witness(bm, s1_orig, s2_orig)
    # A witness the model accepts answers the check without a search; the class counts
    # then come after it, over the pairs it leaves free (the same-side pairs are 0 for
    # good), a fraction of the terms.  A search gets them first: they are its arithmetic.
    if witness is not None and solver.try_fix_domains(one_side_each, no_exchange, witness, search=False):
        _fix_partners(bm, s1_orig, rset, bsn, "transposition")
        return
    add_class_counts(bm, s1_orig, s2_orig)  # for the check and the transposition after it
    if solver.try_fix_domains(one_side_each, no_exchange):
        _fix_partners(bm, s1_orig, rset, bsn, "transposition", counted=True)
        return
    s = {p: model.new_bool_var(f"s1_{p}") for p in remainder}
    # Incumbent value of the new variables: one player of each pair in S1 (the higher).
    solver.add_variables(s.values(), [s[p if bm.bsn[p] < bm.bsn[q] else q] for p, q in pairs])
    for (p, q), v in bm.x.items():
        if p in rset and q in rset:
            model.add(s[p] + s[q] == 1).only_enforce_if(v)
    for p in remainder:
        model.add(s[p] == 0).only_enforce_if(bm.df[p])
    model.add(sum(s.values()) == n1)
    terms = [
        bm.term("exchange", "players moved", ((-1, s[p]) for p in s1_orig), kind=ORDER),
        bm.term("exchange", "BSN sum difference", ((bsn[p], s[p]) for p in remainder), kind=ORDER),
    ]
    terms += [bm.term("exchange", f"BSN {bsn[p]} stays in S1", [(1, s[p])], kind=ORDER, subject=bsn[p])
              for p in reversed(s1_orig)]
    terms += [bm.term("exchange", f"BSN {bsn[q]} moves to S1", [(-1, s[q])], kind=ORDER, subject=bsn[q])
              for q in s2_orig]
    solver.minimize(terms)
    s1 = [p for p in remainder if solver.var_value(s[p])]
    _close_sides(bm, frozenset(s1), rset)
    _fix_partners(bm, s1, rset, bsn, "transposition")


def _one_side_each(bm: PairModel, s1: frozenset[int], remainder: frozenset[int]) -> list[tuple[int, int]]:
    """The candidate "S1 is `s1`" as fixed values: every S1 player paired inside the
    bracket, and no pair of the remainder inside S1 or inside S2."""
    return [(bm.df[p].index, 0) for p in s1] + _same_side(bm, s1, remainder)


def _same_side(bm: PairModel, s1: frozenset[int], remainder: frozenset[int]) -> list[tuple[int, int]]:
    """The remainder's pairs inside S1 or inside S2, each at 0."""
    return [(v.index, 0) for (p, q), v in bm.x.items() if p in remainder and q in remainder and (p in s1) == (q in s1)]


def _close_sides(bm: PairModel, s1: frozenset[int], remainder: frozenset[int]) -> None:
    """Once the exchange is fixed, no pair may lie inside S1 or inside S2: fixing those
    pairs' domains lets the solver drop them (and their side constraints) when it loads
    the model."""
    bm.solver.fix_domains(_same_side(bm, s1, remainder))
