"""Why a round has no valid pairing: the players who cannot be paired, and the reason.

The rules leave such a round to the arbiter (2026 Art. 1.9.3), who needs to know whom
to look at.  Two kinds of obstacle exist:

* a player with no compatible opponent at all (everybody present already met, or kept
  apart by [C3] or a forbidden pair) who may not take the PAB either ([C2], or the
  field is even);
* a group of players who can be paired only among themselves and with a few others
  (Tutte's condition): more groups with an odd number of players than those others
  can absorb.  The groups come from the Gallai-Edmonds decomposition of the
  compatibility graph: the players some maximum matching leaves unpaired, split into
  connected groups, and their neighbours outside.  In an odd field the PAB is one more
  vertex, joined to the players who may receive it, and is named as such.

An odd field in which nobody may receive the PAB ([C2]) is said as that, whatever
else stands in the way.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from cpsat_pairing.domain.compat import Compatibility, absolute_colour_clash
from cpsat_pairing.domain.state import RoundState
from cpsat_pairing.errors import NoValidPairing
from cpsat_pairing.solver.matching import max_matching

# Above this many players the group analysis (one matching per player) is skipped.
GROUP_ANALYSIS_UP_TO = 400
# The PAB as a member of a group (player ids start at 1).
PAB = 0


@dataclass(frozen=True)
class Isolated:
    """A player with no compatible opponent present, and why."""

    player: int
    met: tuple[int, ...]  # present players already met ([C1])
    colour_clash: tuple[int, ...]  # present players with the same absolute colour preference ([C3])
    forbidden: tuple[int, ...]  # present players he may not meet (forbidden pairs)
    pab_refused: str | None  # why he may not take the PAB instead, if the field is odd


@dataclass(frozen=True)
class OddGroups:
    """Groups of players who can meet only one another and `partners`; each group has
    an odd number of players, so each needs one of the partners: `len(groups)` groups,
    `len(partners)` partners."""

    groups: tuple[tuple[int, ...], ...]
    partners: tuple[int, ...]


@dataclass(frozen=True)
class Diagnosis:
    isolated: tuple[Isolated, ...]
    odd_groups: OddGroups | None
    no_pab: tuple[int, ...] = ()  # an odd field none of whom may receive the PAB

    @property
    def players(self) -> list[int]:
        """The players the arbiter should look at."""
        if self.isolated:
            return [i.player for i in self.isolated]
        if self.no_pab:
            return list(self.no_pab)
        if self.odd_groups is not None:
            return sorted(p for g in self.odd_groups.groups for p in g if p != PAB)
        return []

    def sentences(self, name: Name = str) -> list[str]:
        out = [_isolated_sentence(i, name) for i in self.isolated]
        if not self.isolated and self.no_pab:
            out.append(f"the number of players is odd ({len(self.no_pab)}) and none of them may receive the PAB "
                       "([C2]: each already had a PAB or scored a win without playing)")
        elif not self.isolated and self.odd_groups is not None:
            out.append(_groups_sentence(self.odd_groups, _or_pab(name)))
        return out

    def options(self, name: Name = str) -> list[str]:
        """What the arbiter could decide (the rules leave the round to him): each way of
        relaxing the obstacle found, as a sentence."""
        out = []
        offered: set[frozenset[int]] = set()

        def one_of(ids: tuple[int, ...]) -> str:
            return name(ids[0]) if len(ids) == 1 else f"one of {_names(ids, name, 'or')}"

        for i in self.isolated:
            who = name(i.player)
            met = tuple(q for q in i.met if frozenset((i.player, q)) not in offered)
            offered.update(frozenset((i.player, q)) for q in i.met)
            if met:
                out.append(f"allow {who} a rematch with {one_of(met)} (lifting [C1] for one pair)")
            if i.colour_clash:
                out.append(f"let {who} meet {one_of(i.colour_clash)} although both must have the same colour "
                           "(lifting [C3] for one pair)")
            if i.forbidden:
                out.append(f"lift the restriction that keeps {who} from {one_of(i.forbidden)}")
            if i.pab_refused and i.pab_refused.startswith("[C2]"):
                out.append(f"give {who} the pairing-allocated bye although [C2] excludes him")
            if not (i.met or i.colour_clash or i.forbidden):
                out.append(f"leave {who} out of the round (a bye decided by the arbiter, C.04.2)")
        if not self.isolated and self.no_pab:
            out.append("give the pairing-allocated bye to one of them although [C2] excludes him")
        elif not self.isolated and self.odd_groups is not None:
            g = self.odd_groups
            label = _or_pab(name)
            out.append("allow one rematch or colour clash between a player of "
                       + (" or ".join("{" + ", ".join(label(p) for p in grp) + "}" for grp in g.groups))
                       + " and a player outside that group")
        if out:
            out.append("or pair the round by hand and record the decision (C.04.2)")
        return out


Name = Callable[[int], str]


def _or_pab(name: Name) -> Name:
    """`name`, with the PAB's vertex called so."""
    return lambda p: "the PAB" if p == PAB else name(p)


def _names(ids: tuple[int, ...] | list[int], name: Name = str, last: str = "and") -> str:
    words = [name(i) for i in ids]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + f" {last} {words[-1]}"


def _isolated_sentence(i: Isolated, name: Name = str) -> str:
    parts = []
    if i.met:
        parts.append(f"already played {_names(i.met, name)}")
    if i.colour_clash:
        parts.append(f"has the same absolute colour preference as {_names(i.colour_clash, name)} ([C3])")
    if i.forbidden:
        parts.append(f"may not meet {_names(i.forbidden, name)} (forbidden pairs)")
    why = "; ".join(parts) if parts else "is the only player present"
    who = name(i.player)
    text = f"{'player ' if who == str(i.player) else ''}{who} has no possible opponent ({why})"
    if i.pab_refused:
        text += f" and may not receive the PAB ({i.pab_refused})"
    return text


def _groups_sentence(g: OddGroups, name: Name = str) -> str:
    need = len(g.groups) - len(g.partners)
    if all(len(grp) == 1 for grp in g.groups):
        players = _names([grp[0] for grp in g.groups], name)
        only = f"only with {_names(g.partners, name)}" if g.partners else "with nobody"
        return f"players {players} can each be paired {only}, so at least {need} of them cannot be paired"
    groups = " and ".join("{" + ", ".join(name(p) for p in grp) + "}" for grp in g.groups)
    others = f" or with {_names(g.partners, name)}" if g.partners else ""
    return (f"the groups of players {groups} can be paired only within themselves{others}; each group has an "
            f"odd number of players, so at least {need} of them cannot be paired")


def _pab_refused(st: RoundState, p: int, odd: bool) -> str | None:
    if not odd:
        return "the number of players is even"
    if not st.players[p].pab_eligible:
        return "[C2]: already had a PAB or scored a win without playing"
    return None


def diagnose(st: RoundState, present: list[int], ok: Compatibility) -> Diagnosis:
    """Why `present` has no complete round-pairing (assumed: it has none)."""
    odd = len(present) % 2 == 1
    pset = frozenset(present)
    isolated = []
    lone_byes = 0
    forbidden_of = ok.forbidden_opponents
    for p in present:
        if ok.neighbours(p) & pset:
            continue
        refused = _pab_refused(st, p, odd)
        if refused is None:
            lone_byes += 1  # may take the PAB: a problem only if another needs it too
        a = st.players[p]
        others = sorted(q for q in present if q != p)
        isolated.append(Isolated(
            p,
            met=tuple(q for q in others if q in a.opponents),
            colour_clash=tuple(q for q in others if q not in a.opponents and absolute_colour_clash(a, st.players[q])),
            forbidden=tuple(q for q in others if q in forbidden_of(p)),
            pab_refused=refused,
        ))
    if isolated and (lone_byes < len(isolated) or lone_byes > 1):
        return Diagnosis(tuple(sorted(isolated, key=lambda i: i.player)), None)
    if odd and not any(st.players[p].pab_eligible for p in present):
        return Diagnosis((), None, tuple(sorted(present)))
    return Diagnosis((), _odd_groups(st, present, ok) if len(present) <= GROUP_ANALYSIS_UP_TO else None)


def _odd_groups(st: RoundState, present: list[int], ok: Compatibility) -> OddGroups | None:
    """The Gallai-Edmonds obstacle of the compatibility graph (with the PAB as one more
    vertex when the field is odd)."""
    odd = len(present) % 2 == 1
    index = {p: i for i, p in enumerate(present)}
    n = len(present) + odd
    adj: list[list[int]] = [[] for _ in range(n)]
    for p in present:
        adj[index[p]] = [index[q] for q in ok.neighbours(p) if q in index]
    if odd:
        bye = n - 1
        for p in present:
            if st.players[p].pab_eligible:
                adj[index[p]].append(bye)
                adj[bye].append(index[p])
    size = sum(1 for v, m in enumerate(max_matching(adj)) if m > v)
    deficient = []
    for v in range(n):
        without = [[w for w in row if w != v] if u != v else [] for u, row in enumerate(adj)]
        if sum(1 for u, m in enumerate(max_matching(without)) if m > u) == size:
            deficient.append(v)  # some maximum matching leaves v unpaired
    d = set(deficient)
    partners = sorted({w for v in d for w in adj[v]} - d)
    groups: list[list[int]] = []
    seen: set[int] = set()
    for v in deficient:
        if v in seen:
            continue
        stack, comp = [v], []
        seen.add(v)
        while stack:
            u = stack.pop()
            comp.append(u)
            for w in adj[u]:
                if w in d and w not in seen:
                    seen.add(w)
                    stack.append(w)
        groups.append(comp)
    odd_groups = [g for g in groups if len(g) % 2 == 1]
    if len(odd_groups) <= len(partners):
        return None

    def ids(vs: list[int]) -> tuple[int, ...]:
        return tuple(sorted(present[v] if v < len(present) else PAB for v in vs))

    return OddGroups(tuple(ids(g) for g in odd_groups), ids(partners))


def no_valid_pairing(st: RoundState, present: list[int], ok: Compatibility) -> NoValidPairing:
    """The error for a round without a complete round-pairing: the players who cannot
    be paired and why."""
    found = diagnose(st, present, ok)

    def name(pid: int) -> str:
        p = st.tournament.player(pid)
        return f"{p.name} ({pid})" if p.name else str(pid)

    return NoValidPairing(f"no valid pairing of round {st.round} exists (the arbiter decides, Art. 1.9.3)",
                          found.players, found.sentences(), found.options(name), found.sentences(name))
