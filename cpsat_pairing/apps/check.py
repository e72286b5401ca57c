"""Check a paired tournament against the rules: re-pair every round and compare.

For each round R the file holds, R is paired from rounds 1..R-1 (absences of R kept)
and compared with the file's round R.  When they differ, the file's pairing is scored
on the very same brackets and tiers (`evaluate`), so the report can name the first
criterion where the two differ (compare.py) -- the reason one pairing beats the other.

Verdicts per round: match, colours differ (same pairs), pairs differ, illegal (the file
breaks an absolute criterion), no valid pairing (the engine finds none), inconsistent
file (the file's records contradict each other about the round, e.g. a `240` bye and a
game: nothing to judge), and error (the engine failed, e.g. a solver limit).  Everything here is data; the interface renders it
(tables, JSON, the HTML report).
"""

from __future__ import annotations

import dataclasses
import re
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

from cpsat_pairing.apps.compare import (
    Difference,
    DifferenceKind,
    bracket_of,
    first_difference,
    relevant_tiers,
)
from cpsat_pairing.domain.colours import ColourRule
from cpsat_pairing.domain.state import RoundState, build_state, round_exists
from cpsat_pairing.domain.tournament import Colour, Tournament
from cpsat_pairing.dutch.boards import (
    board_key,
    infer_initial_colour,
    initial_colour_note,
)
from cpsat_pairing.dutch.edition import Edition, as_edition, edition_for
from cpsat_pairing.dutch.result import Pair, Pairing
from cpsat_pairing.dutch.rounds import evaluate, illegalities, pair
from cpsat_pairing.errors import ExitCode, NoValidPairing, PairingError, RoundsNotInFile
from cpsat_pairing.formats import parse_trf, read_trf
from cpsat_pairing.records import Tier

if TYPE_CHECKING:
    from cpsat_pairing.apps.standings_check import StandingsCheck

# `check` exits 10 when a round is not the rules' pairing (bbpPairings' checker uses 1
# for that, which we keep for "no valid pairing" of `pair`).
EXIT_DIFFERS = 10


class Verdict(str, Enum):
    MATCH = "match"
    COLOURS_DIFFER = "colours differ"
    PAIRS_DIFFER = "pairs differ"
    ILLEGAL = "illegal"
    NO_VALID_PAIRING = "no valid pairing"
    INCONSISTENT = "inconsistent file"
    ERROR = "error"


# --- the file's round -------------------------------------------------------------------


@dataclass(frozen=True)
class FileRound:
    """One round as recorded: pairs (white, black), the PAB, and the pairs without colours.

    A pair with no colour recorded on either side is stored as (lower id, higher id)
    and compared by ids only; forfeited games (+/-) are pairings like any other.
    """

    pairs: tuple[Pair, ...]
    bye: int | None
    colourless: frozenset[frozenset[int]]
    byes: tuple[int, ...] = ()  # every player with the PAB (more than one: illegal)


def file_round(t: Tournament, rnd: int) -> FileRound:
    """Read round `rnd` off the player lines (colour w → (player, opponent); PAB = U)."""
    oriented: dict[frozenset[int], Pair] = {}
    seen: set[frozenset[int]] = set()
    byes: list[int] = []
    for p in t.players:
        e = p.entry(rnd)
        if e is None:
            continue
        if e.result == "U" and e.opponent is None:
            byes.append(p.id)
            continue
        if e.opponent is None:
            continue
        key = frozenset((p.id, e.opponent))
        seen.add(key)
        if e.colour is Colour.WHITE:
            oriented[key] = (p.id, e.opponent)
        elif e.colour is Colour.BLACK:
            oriented[key] = (e.opponent, p.id)
    colourless = frozenset(k for k in seen if k not in oriented)
    pairs: list[Pair] = list(oriented.values()) + [(min(k), max(k)) for k in colourless]
    return FileRound(tuple(sorted(pairs, key=min)), byes[-1] if byes else None, colourless, tuple(byes))


def board_order(st: RoundState, pairs: Iterable[Pair]) -> list[Pair]:
    """Pairs in board order (C.04.2 Art. 3.6)."""
    return sorted(pairs, key=lambda pq: board_key(st, pq))


# --- one round --------------------------------------------------------------------------


@dataclass(frozen=True)
class ColourDifference:
    """A pair both sides make, with other colours: the rules' board and the file's White."""

    board: int
    white: int
    black: int
    rule: ColourRule
    file_white: int
    file_black: int


@dataclass(frozen=True)
class BoardComparison:
    rules_only: tuple[Pair, ...]
    file_only: tuple[Pair, ...]
    colours: tuple[ColourDifference, ...]
    same_bye: bool

    @property
    def same_pairs(self) -> bool:
        return not self.rules_only and not self.file_only and self.same_bye


def compare_boards(ours: Pairing, fr: FileRound) -> BoardComparison:
    """Which pairs only one side has, and which common pairs got other colours."""
    mine = {frozenset((b.white, b.black)): b for b in ours.boards}
    theirs = {frozenset(pq): pq for pq in fr.pairs}
    colours = []
    for i, b in enumerate(ours.boards, start=1):
        key = frozenset((b.white, b.black))
        pq = theirs.get(key)
        if pq is not None and key not in fr.colourless and pq != (b.white, b.black):
            colours.append(ColourDifference(i, b.white, b.black, b.colour_rule, pq[0], pq[1]))
    return BoardComparison(
        tuple((b.white, b.black) for k, b in mine.items() if k not in theirs),
        tuple(pq for k, pq in theirs.items() if k not in mine),
        tuple(colours),
        ours.bye == fr.bye,
    )


@dataclass
class RoundCheck:
    """One round's verdict, with what it rests on."""

    round: int
    verdict: Verdict
    edition: Edition
    file: FileRound | None = None
    file_boards: list[Pair] = field(default_factory=list)  # the file's pairs in board order
    rules: Pairing | None = None  # the rules' pairing (None: no valid pairing, or an error)
    boards: BoardComparison | None = None
    difference: Difference | None = None  # PAIRS_DIFFER, NO_VALID_PAIRING
    side_by_side: list[tuple[Tier, int, int]] = field(default_factory=list)  # (tier, rules, file)
    illegalities: list[str] = field(default_factory=list)
    error: str | None = None  # ERROR: what went wrong; NO_VALID_PAIRING: the engine's reasons
    exit_code: int = 0
    seconds: float = 0.0
    scores: dict[int, Fraction] = field(default_factory=dict)  # every present player's score before the round


def check_round(t: Tournament, rnd: int, edition: str | Edition) -> RoundCheck:
    """Pair round `rnd` from rounds 1..rnd-1 and compare it with the file's round."""
    ed = as_edition(edition)
    t0 = time.perf_counter()
    res = RoundCheck(rnd, Verdict.ERROR, ed)
    found = t.contradictions_in(rnd)
    if found:
        res.verdict, res.exit_code = Verdict.INCONSISTENT, int(ExitCode.INVALID_INPUT)
        res.error = "; ".join(c.located(t.source) for c in found)
        return res
    try:
        fr = file_round(t, rnd)
        st = build_state(t, rnd, ed.state_rules)
        res.scores = {pid: st.players[pid].score for pid in st.present}
        res.file, res.file_boards = fr, board_order(st, fr.pairs)
        _check_round(t, rnd, ed, fr, res)
    except PairingError as exc:
        res.verdict, res.error, res.exit_code = Verdict.ERROR, str(exc), int(exc.exit_code)
    except Exception as exc:  # a check reports every round, it does not stop at one
        res.verdict, res.error = Verdict.ERROR, f"unexpected error: {type(exc).__name__}: {exc}"
        res.exit_code = int(ExitCode.UNEXPECTED)
    res.seconds = round(time.perf_counter() - t0, 3)
    return res


def _check_round(t: Tournament, rnd: int, ed: Edition, fr: FileRound, res: RoundCheck) -> None:
    res.illegalities = illegalities(t, rnd, list(fr.pairs), fr.bye, ed)
    if len(fr.byes) > 1:  # a round has one PAB at most (C.04.1 c)
        res.illegalities.append(f"{len(fr.byes)} pairing-allocated byes in one round: players "
                                + ", ".join(map(str, fr.byes)))
    try:
        res.rules = pair(t, rnd, ed, hint=None if res.illegalities else list(fr.pairs))
    except NoValidPairing as exc:
        if not res.illegalities:
            res.verdict, res.error = Verdict.NO_VALID_PAIRING, str(exc)
            res.difference = Difference(DifferenceKind.NO_VALID_PAIRING, players=tuple(exc.players))
            return
    if res.rules is not None:
        res.boards = compare_boards(res.rules, fr)
    if res.illegalities:
        res.verdict = Verdict.ILLEGAL
        return
    assert res.rules is not None and res.boards is not None
    if res.boards.same_pairs:
        res.verdict = Verdict.COLOURS_DIFFER if res.boards.colours else Verdict.MATCH
        return
    res.verdict = Verdict.PAIRS_DIFFER
    res.difference, res.side_by_side = _score_file(t, rnd, ed, res.rules, fr)


def _score_file(
    t: Tournament, rnd: int, ed: Edition, ours: Pairing, fr: FileRound
) -> tuple[Difference | None, list[tuple[Tier, int, int]]]:
    """The file's pairing on the same tiers: its first difference and, for that bracket,
    every tier that differs (tier, rules, file)."""
    try:
        theirs = evaluate(t, rnd, list(fr.pairs), ed, against=ours)
    except (PairingError, AssertionError, RuntimeError) as exc:
        return Difference(DifferenceKind.UNSCORED, reason=f"the file's pairing could not be scored: {exc}"), []
    diff = first_difference(ours, theirs)
    side: list[tuple[Tier, int, int]] = []
    if diff is not None:
        found = bracket_of(diff, ours, theirs)
        if found is not None:
            side = relevant_tiers(diff, *found)
    return diff, side


# --- files ------------------------------------------------------------------------------


def parse_rounds(spec: str | None) -> Callable[[int], bool]:
    """'3-7', '2,4,6-', '-5' → a predicate on round numbers (None: every round)."""
    if not spec:
        return lambda r: True
    ranges: list[tuple[int, int]] = []
    for part in spec.split(","):
        part = part.strip()
        m = re.fullmatch(r"(\d*)\s*-\s*(\d*)|(\d+)", part)
        if not m or part == "-":
            raise ValueError(f"bad round range {part!r} (expected e.g. 3, 3-7, 5- or -4)")
        if m.group(3):
            lo = hi = int(m.group(3))
        else:
            lo = int(m.group(1)) if m.group(1) else 1
            hi = int(m.group(2)) if m.group(2) else 10**9
        if lo < 1 or hi < lo:
            raise ValueError(f"bad round range {part!r}")
        ranges.append((lo, hi))
    return lambda r: any(lo <= r <= hi for lo, hi in ranges)


def with_rounds_in_file(t: Tournament, last: int) -> Tournament:
    """Checking a finished file that does not state its number of rounds (no `XXR`/`142`,
    e.g. JaVaFo's): the rounds it holds are all the rounds (as bbpPairings' `-c` reads it),
    so the last of them is the last round (topscorers, C.04.1 / [C3])."""
    if t.total_rounds is None and last:
        return dataclasses.replace(t, total_rounds=last)
    return t


def rounds_to_check(t: Tournament, last: int, rounds: str | None) -> list[int]:
    """The rounds `rounds` selects among those the file holds.

    Raises:
        RoundsNotInFile: `rounds` selects none of them."""
    wanted = parse_rounds(rounds)
    held = [r for r in range(1, last + 1) if round_exists(t, r)]
    todo = [r for r in held if wanted(r)]
    if rounds and not todo:
        raise RoundsNotInFile(rounds, held, t.source or "<string>")
    return todo


def check_tournament(t: Tournament, edition: str | Edition = "dutch-2026", rounds: str | None = None,
                     jobs: int = 1) -> list[RoundCheck]:
    """Every round the file holds (within `rounds`), in order; `jobs` rounds at a time
    in a process pool.

    Each round is paired from the file's own earlier rounds, never from the engine's,
    so the rounds are independent: checking them side by side gives the same report."""
    ed = as_edition(edition)
    last = max((len(p.rounds) for p in t.players), default=0)
    t = with_rounds_in_file(t, last)
    todo = rounds_to_check(t, last, rounds)
    if jobs <= 1 or len(todo) <= 1:
        return [check_round(t, r, ed) for r in todo]
    # In round order: the first rounds have the biggest scoregroups (round 1 is one
    # bracket of everybody), so the longest tasks start first and the workers finish
    # together.
    with ProcessPoolExecutor(min(jobs, len(todo))) as pool:
        futures = [pool.submit(check_round, t, r, ed) for r in todo]
        return [f.result() for f in futures]


@dataclass
class FileCheck:
    """One file's check: its rounds, or why it could not be checked."""

    file: str
    edition: str | None
    rounds: list[RoundCheck] = field(default_factory=list)
    edition_reason: str = ""
    error: str | None = None
    exit_code: int = 0
    notes: list[str] = field(default_factory=list)
    name: str = ""
    players: int = 0
    warnings: list[str] = field(default_factory=list)
    roster: dict[int, tuple[str, int]] = field(default_factory=dict)  # id -> (name, rating), for people to read
    standings: StandingsCheck | None = None  # points and ranks recomputed (apps.standings_check)

    def count(self, verdict: Verdict) -> int:
        return sum(1 for r in self.rounds if r.verdict is verdict)


def check(
    source: str | Path | Tournament, edition: str | None = None, rounds: str | None = None, jobs: int = 1
) -> FileCheck:
    """Check every round of a paired tournament (a file, or one already read).

    `edition` None: the edition the file names, else the default (`notes` say which);
    `rounds` e.g. "3-7" or "2,5,8-" (default: all); `jobs` rounds checked at a time
    (processes)."""
    if not isinstance(source, Tournament):
        return check_file(str(source), edition, rounds, jobs)
    out = FileCheck(source.source or "<tournament>", edition, name=source.name, players=len(source.players),
                    warnings=list(source.warnings), roster={p.id: (p.name, p.rating) for p in source.players})
    try:
        choice = edition_for(source, edition)
    except PairingError as exc:  # a team tournament: not these rules
        out.error, out.exit_code = str(exc), int(exc.exit_code)
        return out
    out.edition, out.edition_reason, out.notes = choice.name, choice.reason, list(choice.notes)
    out.rounds = _check_rounds(source, choice.name, rounds, out, jobs)
    out.standings = _standings(source)
    out.exit_code = exit_code([out])
    return out


def _check_rounds(t: Tournament, edition: str, rounds: str | None, out: FileCheck, jobs: int = 1) -> list[RoundCheck]:
    """`check_tournament`, with the initial colour read off the file's rounds when it
    states none (as both reference engines read it), and a note saying so."""
    note = initial_colour_note(t)
    if note is not None and t.rounds_played:
        out.notes.append(f"{out.file}: {note}")
        t = dataclasses.replace(t, initial_colour=infer_initial_colour(t))
    try:
        return check_tournament(t, edition, rounds, jobs)
    except RoundsNotInFile as exc:  # the file's error, as a file that cannot be read
        out.error, out.exit_code = str(exc), int(exc.exit_code)
        return []


def check_file(path: str, edition: str | None = "dutch-2026", rounds: str | None = None, jobs: int = 1) -> FileCheck:
    """One file's report; errors reading it are reported, not raised (a batch goes on).

    `edition` None: the edition the file names, else the default (`notes` say which);
    `jobs` rounds checked at a time."""
    return check_data(None, path, edition, rounds, jobs)


def check_data(
    data: bytes | None, path: str, edition: str | None = "dutch-2026", rounds: str | None = None, jobs: int = 1
) -> FileCheck:
    """`check_file` on the file's bytes when they were read elsewhere (a cluster worker
    gets the bytes, not the path); `data=None` reads `path` here."""
    out = FileCheck(str(path), edition)
    try:
        t = read_trf(path) if data is None else parse_trf(data, source=str(path))
    except PairingError as exc:
        out.error, out.exit_code = str(exc), int(exc.exit_code)
        return out
    except OSError as exc:
        out.error, out.exit_code = f"{path}: {exc.strerror or exc}", int(ExitCode.FILE_ACCESS)
        return out
    try:
        choice = edition_for(t, edition)
    except PairingError as exc:  # a team tournament: not these rules
        out.error, out.exit_code = str(exc), int(exc.exit_code)
        return out
    out.edition, out.edition_reason = choice.name, choice.reason
    out.notes = [f"{path}: {n}" for n in choice.notes]
    out.name, out.players, out.warnings = t.name, len(t.players), list(t.warnings)
    out.roster = {p.id: (p.name, p.rating) for p in t.players}
    out.rounds = _check_rounds(t, choice.name, rounds, out, jobs)
    out.standings = _standings(t)
    out.exit_code = exit_code([out])
    return out


def _standings(t: Tournament) -> StandingsCheck | None:
    """The file's points and ranks recomputed (imported here: only a check needs it)."""
    from cpsat_pairing.apps.standings_check import check_standings

    return check_standings(t)


def counts(reports: Iterable[FileCheck]) -> dict[str, int]:
    """Rounds per verdict over all files, plus files that could not be read."""
    reports = list(reports)
    out = {v.value: 0 for v in Verdict}
    for rep in reports:
        for r in rep.rounds:
            out[r.verdict.value] += 1
    out["rounds"] = sum(len(rep.rounds) for rep in reports)
    out["files"] = len(reports)
    out["unreadable files"] = sum(1 for rep in reports if rep.error)
    return out


def exit_code(reports: Iterable[FileCheck]) -> int:
    """0 all rounds match; an error's own code (3 input, 5 file access, ...) when a file
    or a round could not be checked; 3 when a round's records contradict; else 10 when a round differs, is illegal or has no
    valid pairing."""
    reports = list(reports)
    for rep in reports:
        if rep.error:
            return rep.exit_code
        for r in rep.rounds:
            if r.verdict is Verdict.ERROR:
                return r.exit_code or int(ExitCode.UNEXPECTED)
    if any(r.verdict is Verdict.INCONSISTENT for rep in reports for r in rep.rounds):
        return int(ExitCode.INVALID_INPUT)
    if any(r.verdict is not Verdict.MATCH for rep in reports for r in rep.rounds):
        return EXIT_DIFFERS
    if any(rep.standings is not None and rep.standings.differences for rep in reports):
        return EXIT_DIFFERS
    return int(ExitCode.OK)

