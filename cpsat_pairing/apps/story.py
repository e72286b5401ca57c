"""One player's pairing in a round, as facts a sentence can be made of.

The question players and arbiters ask of a pairing is about one player: why this
opponent, this colour, this float, this bye.  Everything here is read off the solved
round (`Pairing.brackets`, `Board.colour_rule`) and the round's state; the opponents
the rules' order would have tried first are each answered by `why_not`, which forces
the pair, re-solves and names the first criterion that gets worse (or the absolute
criterion that forbids it), so no reason is guessed.

The candidates: in the bracket where he was paired, the players of the other half
(S2 for a player of S1, S1 for one of S2; the bracket's final S1/S2, or its remainder's)
ranked above his opponent, and the one he would meet in the natural pairing S1[i]-S2[i];
at most `limit` of them, in ranking order.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction

from cpsat_pairing.apps.compare import Difference
from cpsat_pairing.apps.explain import (
    BracketExplanation,
    LegacyCounts,
    RoundExplanation,
    WhyNotStatus,
    explain,
    why_not,
)
from cpsat_pairing.domain.colours import ColourRule
from cpsat_pairing.domain.state import PrefKind, RoundState, build_state
from cpsat_pairing.domain.tournament import Colour, Tournament
from cpsat_pairing.dutch.edition import Edition, as_edition
from cpsat_pairing.dutch.result import Pairing
from cpsat_pairing.records import Tier


class Role(str, Enum):
    RESIDENT = "resident"  # paired in his own score group
    MDP = "MDP"  # moved down from a higher score group and paired below it
    ABSENT = "absent"


class Ruled(str, Enum):
    """Why a candidate was not his opponent."""

    ABSOLUTE = "absolute"  # an absolute criterion forbids the pair ([C1] met, [C3] colours, forbidden)
    IMPOSSIBLE = "impossible"  # no complete pairing of the round contains the pair
    WORSE = "worse"  # the best pairing with the pair is worse on a criterion or later in the order
    ABSENT = "absent"


@dataclass(frozen=True)
class Candidate:
    """An opponent the rules' order puts before the one he got, and what rules it out."""

    player: int
    ruled: Ruled
    illegalities: tuple[str, ...] = ()  # ABSOLUTE: the rules' own words
    difference: Difference | None = None  # WORSE: the first criterion that gets worse


@dataclass(frozen=True)
class Passage:
    """A bracket he went through: its score and what happened to him there."""

    score: Fraction
    as_mdp: bool
    paired: bool  # False: he was left unpaired and moved down (or got the PAB)
    mdps: int = 0  # M0: the MDPs that entered the bracket
    pairs: int = 0  # the pairs made in it
    players: int = 0  # residents and MDPs
    floating: int = 0  # the players it leaves unpaired (they move down, or one takes the PAB)
    tiers: tuple[Tier, ...] = ()  # its non-zero tiers
    legacy: LegacyCounts | None = None  # 2013: P0, X1, Z1 as C.2 computes them before pairing


@dataclass
class PlayerStory:
    """Player `player` in round `round`, by edition `edition`."""

    player: int
    round: int
    edition: Edition
    role: Role
    score: Fraction = Fraction(0)
    pairing_score: Fraction = Fraction(0)
    absence: str | None = None  # the code he was left out with (H, F, Z, ...)
    passages: list[Passage] = field(default_factory=list)
    half: str | None = None  # "S1" or "S2" in the bracket where he was paired
    opponent: int | None = None
    opponent_score: Fraction | None = None
    colour: Colour | None = None
    colour_rule: ColourRule | None = None
    preference: tuple[Colour | None, PrefKind] = (None, PrefKind.NONE)
    opponent_preference: tuple[Colour | None, PrefKind] = (None, PrefKind.NONE)
    float: str | None = None  # "down" or "up" this round, None when he meets his own score
    bye: bool = False
    pab_score: Fraction | None = None
    pab_eligible: bool = True
    bracket_tiers: list[Tier] = field(default_factory=list)  # the non-zero tiers of his bracket
    candidates: list[Candidate] = field(default_factory=list)
    candidates_checked: bool = False


def _where(x: RoundExplanation, pid: int) -> list[tuple[BracketExplanation, bool]]:
    """The brackets he was in, top down, and whether as an MDP."""
    out = []
    for br in x.brackets:
        if pid in br.residents:
            out.append((br, False))
        elif pid in br.mdps:
            out.append((br, True))
    return out


def _halves(br: BracketExplanation, pid: int) -> tuple[str, list[int]] | None:
    """Which half of the bracket (or of its remainder) he is in, and the other half."""
    for s1, s2 in ((br.s1, br.s2), br.remainder or ([], [])):
        if pid in s1:
            return "S1", s2
        if pid in s2:
            return "S2", s1
    return None


def story(
    t: Tournament, rnd: int, pid: int, edition: str | Edition, pairing: Pairing | None = None,
    candidates: bool = True, limit: int = 6,
) -> PlayerStory:
    """Player `pid`'s round `rnd`; `pairing` is the rules' pairing of that round when
    already made; `candidates` False skips the why-not solves (one per candidate)."""
    from cpsat_pairing.dutch.rounds import pair

    ed = as_edition(edition)
    p = pairing if pairing is not None else pair(t, rnd, ed)
    st: RoundState = build_state(t, rnd, ed.state_rules)
    return _story(t, rnd, pid, ed, p, st, explain(t, p, ed) if pid in st.present else None, candidates, limit)


def _story(t: Tournament, rnd: int, pid: int, ed: Edition, p: Pairing, st: RoundState,
           x: RoundExplanation | None, candidates: bool, limit: int) -> PlayerStory:
    """`story` on the round's state and explanation, made once for every player's story."""
    if pid not in st.present or x is None:
        e = t.player(pid).entry(rnd)
        return PlayerStory(pid, rnd, ed, Role.ABSENT, absence=e.result if e is not None else "Z")
    ps = st.players[pid]
    out = PlayerStory(pid, rnd, ed, Role.RESIDENT, ps.score, ps.pairing_score,
                      preference=(ps.pref_colour, ps.pref_kind), pab_eligible=ps.pab_eligible)
    where = _where(x, pid)
    paired_in: BracketExplanation | None = None
    for br, as_mdp in where:
        paired = any(pid in pq for pq in br.pairs)
        size = len(br.residents) + len(br.mdps)
        out.passages.append(Passage(br.score, as_mdp, paired, len(br.mdps), len(br.pairs), size,
                                    size - 2 * len(br.pairs), tuple(br.tiers), br.legacy))
        if paired:
            paired_in = br
            out.role = Role.MDP if as_mdp else Role.RESIDENT
    if paired_in is not None:
        out.bracket_tiers = list(paired_in.tiers)
    elif where:
        out.bracket_tiers = list(where[-1][0].tiers)
        out.role = Role.MDP if where[-1][1] else Role.RESIDENT
    board = next((b for b in p.boards if pid in (b.white, b.black)), None)
    if board is not None:
        out.opponent = board.black if board.white == pid else board.white
        out.colour = Colour.WHITE if board.white == pid else Colour.BLACK
        out.colour_rule = board.colour_rule
        opp = st.players[out.opponent]
        out.opponent_score = opp.pairing_score
        out.opponent_preference = (opp.pref_colour, opp.pref_kind)
        if out.opponent_score < ps.pairing_score:
            out.float = "down"
        elif out.opponent_score > ps.pairing_score:
            out.float = "up"
    elif p.bye == pid:
        out.bye, out.float, out.pab_score = True, "down", p.pab_score
    if paired_in is not None and out.opponent is not None:
        halves = _halves(paired_in, pid)
        if halves is not None:
            out.half, other = halves
            out.candidates_checked = candidates
            if candidates:
                out.candidates = _candidates(t, rnd, pid, out.opponent, other, halves, paired_in, st, ed, p, limit)
    return out


def _candidates(
    t: Tournament, rnd: int, pid: int, opponent: int, other: list[int], halves: tuple[str, list[int]],
    br: BracketExplanation, st: RoundState, ed: Edition, p: Pairing, limit: int,
) -> list[Candidate]:
    ranked = sorted(other, key=st.rank_key)
    wanted = [c for c in ranked if st.rank_key(c) < st.rank_key(opponent)]
    mine = br.s1 if halves[0] == "S1" else br.s2
    if br.remainder is not None and pid not in mine:
        mine = br.remainder[0] if halves[0] == "S1" else br.remainder[1]
    ordered_mine = sorted(mine, key=st.rank_key)
    natural_index = ordered_mine.index(pid) if pid in ordered_mine else None
    if natural_index is not None and natural_index < len(ranked):
        natural = ranked[natural_index]
        if natural != opponent and natural not in wanted:
            wanted.append(natural)
    wanted = sorted(wanted, key=st.rank_key)[:limit]
    out = []
    for c in wanted:
        w = why_not(t, rnd, pid, c, ed, ours=p)
        if w.status is WhyNotStatus.FORBIDDEN:
            out.append(Candidate(c, Ruled.ABSOLUTE, tuple(w.illegalities)))
        elif w.status is WhyNotStatus.IMPOSSIBLE:
            out.append(Candidate(c, Ruled.IMPOSSIBLE))
        elif w.status is WhyNotStatus.WORSE:
            out.append(Candidate(c, Ruled.WORSE, difference=w.difference))
        elif w.status is WhyNotStatus.ABSENT:
            out.append(Candidate(c, Ruled.ABSENT))
    return out


def stories(t: Tournament, rnd: int, edition: str | Edition, pairing: Pairing | None = None,
            players: list[int] | None = None, candidates_for: frozenset[int] = frozenset()) -> list[PlayerStory]:
    """Every player's story (or those in `players`), the candidate analysis only for
    `candidates_for` (it costs a solve per candidate)."""
    from cpsat_pairing.dutch.rounds import pair

    ed = as_edition(edition)
    p = pairing if pairing is not None else pair(t, rnd, ed)
    ids = players if players is not None else [pl.id for pl in t.players]
    st = build_state(t, rnd, ed.state_rules)
    x = explain(t, p, ed)
    return [_story(t, rnd, pid, ed, p, st, x, pid in candidates_for, 6) for pid in ids]
