"""Per-player state for pairing round R: the definitions of the rules (2026 Art. 1).

A `RoundState` is the tournament "as of" round R: rounds 1..R-1 are history; round R
only contributes who is absent.  Everything here is derived, never stored in the file:
score, colour history, colour difference and preference, float history, PAB
eligibility, topscorer status.  Editions that define a term differently (the 2017 float
rule for unplayed rounds, the 2013 bye rule) take a switch from the edition data.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field, replace
from enum import IntEnum
from fractions import Fraction
from functools import cached_property

from cpsat_pairing.domain.tournament import (
    ABSENCE_RESULTS, Colour, Outcome, RoundEntry, Tournament, point_units,
)


class PrefKind(IntEnum):
    """Strength of a colour preference (Art. 1.7); higher is stronger."""

    NONE = 0
    MILD = 1
    STRONG = 2
    ABSOLUTE = 3


class Float(IntEnum):
    NONE = 0
    DOWN = 1
    UP = 2


@dataclass(frozen=True, slots=True)
class StateRules:
    """The edition-dependent parts of the definitions."""

    # 2026 Art. 1.4.3: an unplayed round gives a downfloat only with PAB or more than a
    # loss's points; 2017 A.4.b: any unplayed round gives a downfloat.
    unplayed_downfloat: str = "points"  # "points" | "always"
    # Which earlier rounds make a player ineligible for the PAB.
    # "win_points": a PAB, or a win's points in one round without playing (2026 [C2]);
    # "pab_or_forfeit_win": a PAB or a forfeit win (2017 C.2; a full-point bye does not
    # count, as in the reference engines);
    # "any_points": any points without playing (2013 B.1.b).
    bye_rule: str = "win_points"


@dataclass(frozen=True, slots=True)
class PlayerState:
    """What the pairing rules need to know about one player before round R."""

    id: int
    score: Fraction  # points from rounds 1..R-1 (the real standings score)
    pairing_score: Fraction  # score plus acceleration points for round R
    rating: int
    colours: tuple[Colour, ...]  # colours of played games, oldest first
    opponents: frozenset[int]  # players met over the board (forfeits are not meetings)
    floats: tuple[Float, ...]  # float received in rounds 1..R-1 (index r-1)
    pab_eligible: bool
    unplayed: int  # rounds 1..R-1 without a game over the board
    topscorer: bool
    had_pab: bool
    # Derived from `colours` once: the criteria ask for them for every candidate pair.
    cd: int = field(init=False, compare=False)
    pref_kind: PrefKind = field(init=False, compare=False)
    pref_colour: Colour | None = field(init=False, compare=False)

    def __post_init__(self) -> None:
        cd = self._cd()
        object.__setattr__(self, "cd", cd)
        object.__setattr__(self, "pref_kind", self._pref_kind(cd))
        object.__setattr__(self, "pref_colour", self._pref_colour(cd))

    def _cd(self) -> int:
        """Colour difference (Art. 1.6): games with White minus games with Black."""
        white = self.colours.count(Colour.WHITE)
        return white - (len(self.colours) - white)

    def _pref_kind(self, cd: int) -> PrefKind:
        cs = self.colours
        if not cs:
            return PrefKind.NONE
        if cd > 1 or cd < -1 or (len(cs) >= 2 and cs[-1] == cs[-2]):
            return PrefKind.ABSOLUTE
        if cd != 0:
            return PrefKind.STRONG
        return PrefKind.MILD

    def _pref_colour(self, cd: int) -> Colour | None:
        """The preferred colour (Art. 1.7), or None when the player has no preference."""
        cs = self.colours
        if not cs:
            return None
        if cd < -1:
            return Colour.WHITE
        if cd > 1:
            return Colour.BLACK
        if len(cs) >= 2 and cs[-1] == cs[-2]:
            return cs[-1].opposite
        if cd < 0:
            return Colour.WHITE
        if cd > 0:
            return Colour.BLACK
        return cs[-1].opposite

    def float_in(self, rounds_ago: int) -> Float:
        """The float received `rounds_ago` rounds before the round being paired."""
        i = len(self.floats) - rounds_ago
        return self.floats[i] if i >= 0 else Float.NONE


@dataclass(frozen=True)
class RoundState:
    """The tournament as seen when pairing round `round`."""

    tournament: Tournament
    round: int
    players: dict[int, PlayerState]  # every player with a line, absent or not
    present: tuple[int, ...]  # ids to pair in round R, in ranking order (Art. 1.2)
    absent: frozenset[int]
    # Each player's pairing score and real score (no acceleration) as whole numbers of
    # the scoring's unit, as the state sums them: the brackets' criteria and the board
    # order group and compare scores many times over, and an integer hashes and
    # compares far faster than a Fraction.
    pairing_units: dict[int, int] = field(default_factory=dict, compare=False, repr=False)
    score_units: dict[int, int] = field(default_factory=dict, compare=False, repr=False)

    def rank_key(self, pid: int) -> tuple[int, int]:
        """Ranking order (Art. 1.2): pairing score descending, then TPN ascending."""
        return (self._score_level[pid], pid)

    @cached_property
    def _score_level(self) -> dict[int, int]:
        """Each player's pairing score as its place among the distinct scores, highest
        first: the same order as the scores, compared as small integers (every
        bracket and every board sorts by it)."""
        units = self.pairing_units
        level = {u: i for i, u in enumerate(sorted(set(units.values()), reverse=True))}
        return {pid: level[u] for pid, u in units.items()}

    @property
    def is_last_round(self) -> bool:
        total = self.tournament.total_rounds
        return total is not None and self.round >= total


def round_exists(t: Tournament, rnd: int) -> bool:
    """True when the file already holds pairings for round `rnd` (replay of that round)."""
    for p in t.players:
        e = p.entry(rnd)
        if e is not None and (e.opponent is not None or e.result == "U"):
            return True
    return False


def absent_players(t: Tournament, rnd: int) -> frozenset[int]:
    """Players not to be paired in round `rnd`.

    When the file already has round `rnd` (re-pairing it), everyone without a pairing
    there was absent; otherwise only pre-entered absences mark it: `0000 - H/F/Z`, the
    `0000 - -` / `0000 - =` / `0000 - +` some programs write, TRF-2026 `240`, JaVaFo `XXZ`.
    """
    out: set[int] = set()
    existing = round_exists(t, rnd)
    for p in t.players:
        e = p.entry(rnd)
        if existing:
            if e is None or (e.opponent is None and e.result != "U"):
                out.add(p.id)
        elif e is not None and e.opponent is None and e.result in ABSENCE_RESULTS:
            out.add(p.id)
    out.update(t.byes.get(rnd, {}).keys())
    if not existing:
        out.update(t.absent_next)
    return frozenset(out)


# The last few states built, by tournament object (held, so that its id is not reused),
# round and rules: checking a round builds the same state three times (the check, the
# absolute criteria, the pairing), each a pass over every player and round.
_RECENT: OrderedDict[tuple[int, int, StateRules], tuple[Tournament, RoundState]] = OrderedDict()
_RECENT_SIZE = 4


def build_state(t: Tournament, rnd: int, rules: StateRules = StateRules()) -> RoundState:
    """Derive every player's state before round `rnd` from rounds 1..rnd-1 (both are
    immutable: the same tournament object gives the same state, built once)."""
    key = (id(t), rnd, rules)
    hit = _RECENT.get(key)
    if hit is not None and hit[0] is t:
        _RECENT.move_to_end(key)
        return hit[1]
    state = _build_state(t, rnd, rules)
    _RECENT[key] = (t, state)
    while len(_RECENT) > _RECENT_SIZE:
        _RECENT.popitem(last=False)
    return state


def _build_state(t: Tournament, rnd: int, rules: StateRules) -> RoundState:
    sc = t.scoring
    ids = [p.id for p in t.players]
    # Every score here is in whole units of `unit` (integer sums and comparisons: a
    # check builds a state for every round, each a pass over every player and round).
    unit, units = point_units(sc, tuple(sorted({v for a in t.acceleration for v in a.points_by_round})))
    win, loss = units[Outcome.WIN], units[Outcome.LOSS]
    acc = {a.player_id: a for a in t.acceleration}
    # Each player's blocks of rounds 1..rnd-1 (None where the line has none), and his
    # pairing score before each round r (pairing[pid][r - 1]: accelerated for round r).
    blocks: dict[int, list[RoundEntry | None]] = {}
    pairing: dict[int, list[int]] = {}
    scores: dict[int, int] = {}
    for p in t.players:
        own = list(p.rounds[: rnd - 1])
        own += [None] * (rnd - 1 - len(own))
        blocks[p.id] = own
        before = [0]
        for e in own:
            before.append(before[-1] + (units[e.outcome] if e is not None else 0))
        scores[p.id] = before[-1]
        a = acc.get(p.id)
        pairing[p.id] = [s + int(a.points(r) * unit) for r, s in enumerate(before, 1)] if a else before

    max_pts = max(sc.win, sc.draw)
    topscorer_line = max_pts * (rnd - 1) * unit  # twice the line, in units
    last = t.total_rounds is not None and rnd >= t.total_rounds
    always_down = rules.unplayed_downfloat == "always"

    players: dict[int, PlayerState] = {}
    fractions: dict[int, Fraction] = {}  # each score (in units) made once: few are distinct

    def fraction(units: int) -> Fraction:
        made = fractions.get(units)
        if made is None:
            made = fractions[units] = Fraction(units, unit)
        return made

    for p in t.players:
        colours: list[Colour] = []
        opps: set[int] = set()
        floats: list[Float] = []
        had_pab = False
        won_without_playing = False
        points_without_playing = False
        forfeit_win = False
        unplayed = 0
        mine = pairing[p.id]
        for r, e in enumerate(blocks[p.id]):  # r: round - 1
            if e is not None and e.played:
                assert e.opponent is not None
                if e.colour is not None:
                    colours.append(e.colour)
                opps.add(e.opponent)
                theirs = pairing[e.opponent][r]
                floats.append(Float.DOWN if mine[r] > theirs else Float.UP if mine[r] < theirs else Float.NONE)
                continue
            unplayed += 1
            outcome = e.outcome if e is not None else Outcome.ZPB
            pts = units[outcome]
            if outcome is Outcome.PAB:
                had_pab = True
            if pts >= win and pts > 0:
                won_without_playing = True
            if pts > 0:
                points_without_playing = True
            if e is not None and e.result == "+":
                forfeit_win = True
            if always_down:
                floats.append(Float.DOWN)
            else:
                floats.append(Float.DOWN if (outcome is Outcome.PAB or pts > loss) else Float.NONE)
        if rules.bye_rule == "win_points":
            eligible = not had_pab and not won_without_playing
        elif rules.bye_rule == "pab_or_forfeit_win":
            eligible = not had_pab and not forfeit_win
        else:
            eligible = not had_pab and not points_without_playing
        score = scores[p.id]
        players[p.id] = PlayerState(
            id=p.id,
            score=fraction(score),
            pairing_score=fraction(mine[rnd - 1]),
            rating=p.rating,
            colours=tuple(colours),
            opponents=frozenset(opps),
            floats=tuple(floats),
            pab_eligible=eligible,
            unplayed=unplayed,
            topscorer=last and 2 * score > topscorer_line,
            had_pab=had_pab,
        )
    absent = absent_players(t, rnd)
    present = sorted((pid for pid in ids if pid not in absent), key=lambda i: (-pairing[i][rnd - 1], i))
    if rules.bye_rule == "any_points" and len(present) % 2 and not any(players[i].pab_eligible for i in present):
        # 2013 B.1.b with every player having had points without playing: no pairing
        # meets it, and the reference (JaVaFo 1.4) gives the bye as if none had
        # (docs/edition-2013.md, "Twenty-fifth pass").
        players.update({i: replace(players[i], pab_eligible=True) for i in present})
    return RoundState(t, rnd, players, tuple(present), absent,
                      pairing_units={pid: mine[rnd - 1] for pid, mine in pairing.items()}, score_units=scores)
