"""A big bracket's near pairs one by one, its far pairs as counts per class pair.

A bracket of n residents has n(n-1)/2 pairs, but the rules' pairing joins each S1
player with an S2 player near his natural partner (Art. 3.3.1), or near the partner he
would have if S1's and S2's colour preferences were matched in order: the transposition
(Art. 4.2) drifts to where the colours fit.  The near model makes those pairs (and
every pair with an MDP, and the pairs of the witness the bracket starts from) and
counts the others: for two classes of residents a and b (players alike in everything a
criterion reads, solver/bounds.player_classes), one integer F[a, b] up to the number of
their compatible far pairs, and for each resident a Boolean f[p], "paired by a far
pair", with the sum of f over a class equal to its far pairs.  The criteria see each
F[a, b] as one pair of two players of those classes: a far pair weighs what its classes
weigh, and F weighs it once per pair.

One Boolean, `relax`, switches the far part on.  At 0 (every solve) the model is the
near pairs alone: its solutions are solutions of the full model.  Free, the model is a
relaxation of the full model: every full pairing is one of its solutions, its far pairs
counted by class.  What the near pairs alone find is the answer once a certificate says
so (LexSolver in partial mode, solver/partial.py):

- a tier's optimum: it reaches a lower bound of the full model (the count model, or
  the relaxation's own optimum);
- a "no" to a feasibility question: the relaxation says no too;
- the first transposition (order.py): the fixed search runs on the relaxation, whose
  refutations hold for the full model; its first solution is the full model's first
  when it uses no far pair and, for each S1 player, every S2 player of lower BSN left
  free by the S1 players before him is near him or cannot meet him (`skipped`).

Without a certificate the near model raises `Uncertified` and a model of every pair
decides (dutch/e2026/procedure.py).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

from ortools.sat.python import cp_model

from cpsat_pairing.domain.state import PlayerState, PrefKind
from cpsat_pairing.domain.tournament import Colour
from cpsat_pairing.solver.bounds import player_classes
from cpsat_pairing.solver.cpsat import INT_MIN
from cpsat_pairing.records import STATS, Uncertified
from cpsat_pairing.solver.settings import SolverSettings
from cpsat_pairing.solver.terms import add_linear, add_weighted
from cpsat_pairing.dutch.model import PairModel
from cpsat_pairing.solver.view import RoundView

Pair = tuple[int, int]
M = TypeVar("M", bound="NearModel")


def near_partners(residents: Sequence[int], players: dict[int, PlayerState], window: int,
                  compatible: Callable[[int, int], bool]) -> dict[int, set[int]]:
    """For each resident (ranking order), the residents after him whose pair is near:
    within `window` places of each other (S1 with S1, S2 with S2: exchanges), of the
    natural partner (S1 place i with S2 place i), or of the partner the transposition
    gives him where only the colours count (`colour_partners`)."""
    n = len(residents)
    half = n // 2
    out: dict[int, set[int]] = {p: set() for p in residents}
    for i, p in enumerate(residents):
        out[p].update(residents[i + 1 : min(n, i + window + 1)])
        out[p].update(residents[max(i + 1, i + half - window) : min(n, i + half + window + 1)])
    place = {p: i for i, p in enumerate(residents)}
    for p, q in colour_partners(residents[:half], residents[half:], players, compatible).items():
        j = place[q]
        for r in residents[max(0, j - window) : j + window + 1]:
            if place[r] > place[p]:
                out[p].add(r)
            elif place[r] < place[p]:
                out[r].add(p)
    return out


def colour_partners(s1: Sequence[int], s2: Sequence[int], players: dict[int, PlayerState],
                    compatible: Callable[[int, int], bool]) -> dict[int, int]:
    """The transposition (Art. 4.2) as it would be if only the colour preferences
    counted: each S1 player in turn takes the first S2 player he may meet after whom the
    fewest same-preference pairs the colours force are still within what they force at
    the start.  The pairing's transposition drifts from the natural one as this one
    does: the first players of a colour spend what the counts allow, the later ones
    take the other colour wherever it is."""
    colour = {p: players[p].pref_colour for p in (*s1, *s2)}
    left = [Counter(colour[p] for p in s1), Counter(colour[q] for q in s2)]
    budget = _forced_same(left)
    free = list(s2)
    out: dict[int, int] = {}
    for p in s1:
        c = colour[p]
        left[0][c] -= 1
        for q in free:
            cost = int(c is not None and colour[q] == c)
            if cost > budget or not compatible(p, q):
                continue
            left[1][colour[q]] -= 1
            if _forced_same(left) <= budget - cost:
                out[p] = q
                free.remove(q)
                budget -= cost
                break
            left[1][colour[q]] += 1
    return out


def _forced_same(left: Sequence[Counter[Colour | None]]) -> int:
    """How many same-preference pairs any pairing of these S1 and S2 players (counts by
    preferred colour, None for no preference) must make, by the counts alone."""
    s1, s2 = left
    a = next((c for c in (*s1, *s2) if c is not None), None)
    if a is None:
        return 0
    b = a.opposite
    return max(0, max(0, s1[a] - s2[b]) + max(0, s1[b] - s2[a]) - s2[None])


class NearModel(PairModel, RoundView, Protocol):
    """A bracket model that can be a near model: the 2026 aggregate model and the 2017
    bracket alone."""


def near_rows(bm: NearModel, window: int, extra: Iterable[Pair], mdps_meet: bool = True) -> list[tuple[int, list[int]]]:
    """The rows of a near model over `bm.bracket` (ranking order): each player with the
    later players he may meet by a near pair, every pair with an MDP (of two MDPs only
    if `mdps_meet`: in a 2017 bracket they never meet), and the pairs of `extra` (the
    witness) inside the bracket."""
    bracket = bm.bracket
    pos = {p: i for i, p in enumerate(bracket)}
    residents = [p for p in bracket if p not in bm.mdps]
    near = near_partners(residents, bm.state.players, window, bm.compatible)
    for a, b in extra:
        if a in pos and b in pos and a not in bm.mdps and b not in bm.mdps:
            p, q = (a, b) if pos[a] < pos[b] else (b, a)
            near[p].add(q)
    excluded = bm.compatible.excluded
    rows = []
    for i, p in enumerate(bracket):
        far = excluded(p)
        if p in bm.mdps:
            rows.append((p, [q for q in bracket[i + 1 :] if q not in far and (mdps_meet or q not in bm.mdps)]))
        else:
            rows.append((p, sorted((q for q in near[p] if q not in far), key=pos.__getitem__)))
    return rows


@dataclass
class FarGroup:
    """The far pairs between two classes of residents, counted by one integer."""

    classes: tuple[int, int]  # lower first
    var: cp_model.IntVar
    count: int  # the compatible pairs between the classes that the model does not make
    rep: Pair  # two residents of the classes: what a criterion weighs the pairs by


def _clash(a: PlayerState, b: PlayerState) -> bool:
    """[C3] between two classes (Compatibility: no two non-topscorers with the same
    absolute colour preference meet): every pair of them, or none."""
    return (not a.topscorer and not b.topscorer and a.pref_kind is PrefKind.ABSOLUTE
            and b.pref_kind is PrefKind.ABSOLUTE and a.pref_colour == b.pref_colour)


@dataclass
class FarPairs:
    """A near model's far pairs (see the module docstring) and its certificates."""

    cls: dict[int, int]
    groups: list[FarGroup]
    f: dict[int, cp_model.IntVar]
    relax: cp_model.IntVar
    # Once S1 and S2 are fixed (`split_by_sides`): the counts of far S1-S2 pairs by
    # class in S1 and class in S2, by index, each with an S1 and an S2 player of those
    # classes, the index of the two classes' far count, and its upper bound.
    sides: dict[int, tuple[Pair, int, int]] = field(default_factory=dict)

    @classmethod
    def build(cls, bm: NearModel) -> FarPairs:
        """The far part of `bm`, whose near pairs (`bm.x`) are made: its variables and
        the constraints between them (each player's own rows, which f joins, are the
        model's)."""
        classes = player_classes(bm)
        residents = [p for p in bm.bracket if p not in bm.mdps]
        members: dict[int, list[int]] = {}
        for p in residents:
            members.setdefault(classes[p], []).append(p)
        model = bm.model
        groups: list[FarGroup] = []
        for (a, b), count in far_counts(bm, {p: classes[p] for p in residents}, residents).items():
            if count > 0:
                ma, mb = members[a], members[b]
                rep = (ma[0], ma[1]) if a == b else (ma[0], mb[0])
                groups.append(FarGroup((a, b), model.new_int_var(0, count, ""), count, rep))
        used = {c for g in groups for c in g.classes}
        f = {p: model.new_bool_var("") for p in residents if classes[p] in used}
        relax = model.new_bool_var("relax")
        # Each class: its players paired by far pairs are the ends of its far pairs.
        ends: dict[int, dict[int, int]] = {}
        for g in groups:
            for c in g.classes:
                row = ends.setdefault(c, {})
                row[g.var.index] = row.get(g.var.index, 0) - 1
        for c, row in ends.items():
            add_linear(model, [f[p].index for p in members[c]] + list(row), [1] * len(members[c]) + list(row.values()), 0)
        if f:  # no far pair unless `relax`
            add_weighted(model, [v.index for v in f.values()] + [relax.index], [1] * len(f) + [-len(f)], INT_MIN, 0)
        return cls(classes, groups, f, relax)

    def variables(self) -> list[cp_model.IntVar]:
        return [self.relax, *self.f.values(), *(g.var for g in self.groups)]

    def upper(self) -> dict[int, int]:
        """The far counts' upper bounds, by index (Term.upper)."""
        return {g.var.index: g.count for g in self.groups}

    def pseudo_pairs(self) -> list[tuple[Pair, cp_model.IntVar]]:
        """Each far count as one pair of two of its players, for the criteria."""
        return [(g.rep, g.var) for g in self.groups]

    def uses(self, values: dict[int, int]) -> bool:
        """Whether a solution makes a far pair."""
        return any(values.get(v.index, 0) for v in self.f.values())

    def paired_far(self, values: dict[int, int]) -> list[int]:
        """The players a solution of the relaxation (`values`) pairs by far pairs."""
        return [p for p, v in self.f.items() if values.get(v.index, 0)]

    def wanted(self, bm: PairModel, values: dict[int, int]) -> list[Pair]:
        """The far pairs a solution of the relaxation (`values`) may stand for: every
        compatible pair of two of its players paired by far pairs (f = 1) whose classes
        it counts.  A near model made again with them can pair those players so."""
        counted = {g.classes for g in self.groups if values.get(g.var.index, 0)}
        far = self.paired_far(values)
        x = bm.x
        out: list[Pair] = []
        for i, p in enumerate(far):
            for q in far[i + 1:]:
                a, b = self.cls[p], self.cls[q]
                if ((a, b) if a <= b else (b, a)) in counted and (p, q) not in x and (q, p) not in x \
                        and bm.compatible(p, q):
                    out.append((p, q))
        return out

    def split_by_sides(self, bm: PairModel, s1: Sequence[int], s2: Sequence[int]) -> None:
        """Once S1 and S2 are fixed for good every pair of the remainder joins them:
        count the far pairs by class in S1 and class in S2, so that the relaxation
        pairs no two far players of one side."""
        label: dict[int, tuple[int, int]] = {}
        for side, group in ((0, s1), (1, s2)):
            for p in group:
                if p in self.f:
                    label[p] = (side, self.cls[p])
        model = bm.model
        by_label: dict[tuple[int, int], list[int]] = {}
        for p, lab in label.items():
            by_label.setdefault(lab, []).append(p)
        total = {g.classes: g.var.index for g in self.groups}
        made: dict[tuple[int, int], cp_model.IntVar] = {}
        for (la, lb), count in far_counts(bm, label, list(label)).items():
            if la[0] == 0 and lb[0] == 1 and count > 0:
                a, b = la[1], lb[1]
                v = made[a, b] = model.new_int_var(0, count, "")
                rep = (by_label[la][0], by_label[lb][0])
                self.sides[v.index] = (rep, total[(a, b) if a <= b else (b, a)], count)
        for g in self.groups:
            a, b = g.classes
            parts = [made[k].index for k in dict.fromkeys([(a, b), (b, a)]) if k in made]
            add_linear(model, [g.var.index, *parts], [1] + [-1] * len(parts), 0)
        for (side, c), ps in by_label.items():
            parts = [v.index for k, v in made.items() if k[side] == c]
            add_linear(model, [self.f[p].index for p in ps] + parts, [1] * len(ps) + [-1] * len(parts), 0)
        # A far player on neither side (paired with an MDP, or floating) makes no far
        # pair; nor does one with no far partner on the other side (the counts are by
        # class: they would let him meet a player of a partner class he cannot meet).
        others = (frozenset(s2), frozenset(s1))
        for p, v in self.f.items():
            if p not in label or not self._has_far_partner(bm, p, others[label[p][0]]):
                add_linear(model, [v.index], [1], 0)
        bm.solver.add_variables(made.values())

    @staticmethod
    def _has_far_partner(bm: PairModel, p: int, among: frozenset[int]) -> bool:
        """Whether `p` may meet a player of `among` by a pair the model does not make
        (most players may: the scan stops at the first)."""
        x, ok = bm.x, bm.compatible
        return any((p, q) not in x and (q, p) not in x and ok(p, q) for q in among)

    def skipped(self, bm: PairModel, s1: Sequence[int], among: frozenset[int], bsn: dict[int, int]) -> list[Pair]:
        """Each S1 player with the S2 players of lower BSN than his partner, left free by
        the S1 players before him, whom he may meet but not by a near pair: the one
        thing that keeps the relaxation's first transposition from being the full
        model's (module docstring).  Empty when there is none.

        A far candidate is no such thing when the colours alone rule it out: with
        [C12] fixed, the same-preference pairs left to make from this S1 player on are
        those the first solution makes, and every S1 player after him is paired in S2
        (the exchange is fixed), which forces a number of them by the counts of
        preferences left (`_forced_same`, a lower bound)."""
        s1set = frozenset(s1)
        partner: dict[int, int] = {}
        for p, q in bm.chosen_pairs():
            partner[p], partner[q] = q, p
        free = sorted((q for q in among if q not in s1set), key=bsn.__getitem__)
        x = bm.x
        ok = bm.compatible
        colour = {p: bm.state.players[p].pref_colour for p in (*s1, *free)}

        def same(p: int, q: int | None) -> int:
            return int(q is not None and colour[p] is not None and colour[p] == colour[q])

        # The colours' arithmetic, where [C12] is fixed: the same-preference pairs the
        # first solution makes from each S1 player on are what is left of it then.
        counted = any(term.same_colour for term, _ in bm.solver.fixed)
        left = [Counter(colour[p] for p in s1), Counter(colour[q] for q in free)]
        budget = sum(same(p, partner.get(p)) for p in s1)
        out: list[Pair] = []
        for p in s1:
            r = partner.get(p)
            left[0][colour[p]] -= 1
            if r is None or r not in among:
                continue
            top = bsn[r]
            for q in free:
                if bsn[q] >= top:
                    break
                if (p, q) in x or (q, p) in x or not ok(p, q):
                    continue
                if counted:
                    left[1][colour[q]] -= 1
                    refuted = _forced_same(left) + same(p, q) > budget
                    left[1][colour[q]] += 1
                    if refuted:
                        continue  # no solution takes q here: the colours would overrun [C12]
                out.append((p, q))
            free.remove(r)
            left[1][colour[r]] -= 1
            budget -= same(p, r)
        return out


L = TypeVar("L", bound=Hashable)


def far_counts(bm: PairModel, label: dict[int, L], players: Sequence[int]) -> dict[tuple[L, L], int]:
    """For each two labels of `players` (residents; a label is a class, or a side and a
    class), the compatible pairs between them that the model does not make: all their
    pairs, less those [C3] keeps apart (whole classes), those excluded otherwise (met
    before, forbidden: a few per player) and the near pairs made.  Counted without
    listing the pairs.  A pair exists, as in the full model, when the player ranked
    higher may meet the other (Compatibility.excluded)."""
    st = bm.state.players
    size: dict[L, int] = {}
    first: dict[L, int] = {}
    for p in players:
        size[label[p]] = size.get(label[p], 0) + 1
        first.setdefault(label[p], p)
    keys = list(size)
    counts: dict[tuple[L, L], int] = {}
    for i, a in enumerate(keys):
        for b in keys[i:]:
            if not _clash(st[first[a]], st[first[b]]):
                counts[_key(a, b)] = size[a] * (size[a] - 1) // 2 if a == b else size[a] * size[b]
    pos = {p: i for i, p in enumerate(bm.bracket)}
    excluded = bm.compatible.excluded
    forbidden = bm.compatible.forbidden_opponents
    for p in players:
        far = excluded(p)
        for q in set(st[p].opponents) | forbidden(p):
            if q in label and pos[q] > pos[p] and q in far:
                key = _key(label[p], label[q])
                if key in counts:
                    counts[key] -= 1
    for p in players:
        for q, _ in bm.adj[p]:
            if q in label and pos[q] > pos[p]:
                counts[_key(label[p], label[q])] -= 1
    assert all(c >= 0 for c in counts.values()), "far pairs counted below zero"
    return counts


def _key(a: L, b: L) -> tuple[L, L]:
    return (a, b) if a <= b else (b, a)  # type: ignore[operator]


def on_near_models(settings: SolverSettings, size: int, extra: list[Pair], make: Callable[[list[Pair]], M],
                   solve: Callable[[M], M | None]) -> tuple[bool, M | None]:
    """`solve` on a near model of a bracket of `size` players (`make`, with the pairs
    `extra` beside its near ones), made again with the far pairs a failed certificate
    names, at most `SolverSettings.near_extensions` times and while they are at most
    `near_extension_share` of the bracket's pairs.  (True, its answer) once a near
    model is certified; (False, None) when none is: then the model of every pair
    decides."""
    most = settings.near_extension_share * size * (size - 1) / 2
    for attempt in range(settings.near_extensions + 1):
        inner = make(extra)
        try:
            found = solve(inner)
        except Uncertified as failure:
            STATS["uncertified"] += 1
            pairs = failure.pairs or (inner.far.wanted(inner, failure.values) if inner.far else [])
            if not pairs or len(extra) + len(pairs) > most or attempt == settings.near_extensions:
                break
            STATS["extended"] += 1
            extra = [*extra, *pairs]
            continue
        STATS["near"] += found is not None
        return True, found
    STATS["fallbacks"] += 1
    return False, None
