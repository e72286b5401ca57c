"""Wrong programs: the round-pairings other programs get wrong, made from any paired
tournament, and each judged by `check` as a user would judge that program's file.

For a round R of a file, each mistake is a complete round-pairing of R's players made
from rounds 1..R-1 the way a faulty program makes it:

- far pairing: the ranking's first against its last, second against second-last, ...
- by rating: the field folded by rating (top half against bottom half), scores ignored
- no acceleration: the rules' pairing of the file without its acceleration records
- forbidden pairs ignored: the rules' pairing without the file's forbidden pairs
- PAB again: the PAB given to a player who already had one, in place of the rules' holder
- colours swapped: the rules' pairs with every board's colours reversed
- other edition: the rules' pairing under another edition of the Dutch rules
- no previous results: the rules' pairing with round R-1's games all counted as draws
  (the results not entered yet)

Each is written into the file as its round R (rounds after R dropped, the players left
out of R kept out) and read back, so that `check` judges exactly what a program's file
would hold.  A mistake that gives the rules' own pairing is no mistake and is skipped.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass

from cpsat_pairing.apps.check import RoundCheck, Verdict, check_round, file_round
from cpsat_pairing.domain.state import build_state
from cpsat_pairing.domain.tournament import Colour, RoundEntry, Tournament
from cpsat_pairing.dutch.edition import as_edition
from cpsat_pairing.dutch.result import Pair, Pairing
from cpsat_pairing.dutch.rounds import pair
from cpsat_pairing.errors import PairingError
from cpsat_pairing.formats import parse_trf, write_trf

KINDS = ("far pairing", "by rating", "no acceleration", "forbidden pairs ignored", "PAB again",
         "colours swapped", "other edition", "no previous results")


@dataclass(frozen=True)
class RoundPairing:
    """A complete round-pairing as a program writes it: (White, Black) boards and the PAB."""

    boards: tuple[Pair, ...]
    bye: int | None

    @staticmethod
    def of(p: Pairing) -> RoundPairing:
        return RoundPairing(tuple(p.as_pairs()), p.bye)


def _players(t: Tournament, rnd: int) -> list[int]:
    """The players the file pairs in round `rnd` (boards and PAB), in the rules' ranking
    order (pairing score, then TPN)."""
    fr = file_round(t, rnd)
    ids = {p for pq in fr.pairs for p in pq} | set(fr.byes)
    st = build_state(t, rnd, as_edition("dutch-2026").state_rules)
    return sorted(ids, key=st.rank_key)


def _fold(order: list[int], top_white: bool = True) -> RoundPairing:
    """Pair a list's halves (i with i + n/2), the higher-listed White on odd boards;
    an odd player out, the last, gets the PAB."""
    bye = order[-1] if len(order) % 2 else None
    rest = order[:-1] if bye is not None else order
    half = len(rest) // 2
    boards = []
    for i in range(half):
        a, b = rest[i], rest[half + i]
        boards.append((a, b) if (i % 2 == 0) == top_white else (b, a))
    return RoundPairing(tuple(boards), bye)


def far_pairing(t: Tournament, rnd: int, edition: str) -> RoundPairing | None:
    order = _players(t, rnd)
    bye = order.pop() if len(order) % 2 else None
    n = len(order)
    boards = [(order[i], order[n - 1 - i]) if i % 2 == 0 else (order[n - 1 - i], order[i]) for i in range(n // 2)]
    return RoundPairing(tuple(boards), bye)


def by_rating(t: Tournament, rnd: int, edition: str) -> RoundPairing | None:
    return _fold(sorted(_players(t, rnd), key=lambda p: (-t.player(p).rating, p)))


def _rules(t: Tournament, rnd: int, edition: str) -> RoundPairing:
    return RoundPairing.of(pair(t, rnd, edition))


def no_acceleration(t: Tournament, rnd: int, edition: str) -> RoundPairing | None:
    if not any(a.points(rnd) for a in t.acceleration):
        return None
    return _rules(dataclasses.replace(t, acceleration=()), rnd, edition)


def forbidden_ignored(t: Tournament, rnd: int, edition: str) -> RoundPairing | None:
    if not any(fp.applies(rnd) for fp in t.forbidden):
        return None
    return _rules(dataclasses.replace(t, forbidden=()), rnd, edition)


def pab_again(t: Tournament, rnd: int, edition: str) -> RoundPairing | None:
    """The rules' pairing, with its PAB moved to a player who already had one (who
    gives his board to the rules' PAB holder)."""
    rules = _rules(t, rnd, edition)
    if rules.bye is None:
        return None
    st = build_state(t, rnd, as_edition(edition).state_rules)
    again = [p for pq in rules.boards for p in pq if not st.players[p].pab_eligible]
    if not again:
        return None
    x = again[0]
    boards = tuple(tuple(rules.bye if p == x else p for p in pq) for pq in rules.boards)
    return RoundPairing(tuple((w, b) for w, b in boards), x)


def colours_swapped(t: Tournament, rnd: int, edition: str) -> RoundPairing | None:
    rules = _rules(t, rnd, edition)
    return RoundPairing(tuple((b, w) for w, b in rules.boards), rules.bye)


def other_edition(t: Tournament, rnd: int, edition: str) -> RoundPairing | None:
    return _rules(t, rnd, "dutch-2017" if edition == "dutch-2026" else "dutch-2026")


def no_previous_results(t: Tournament, rnd: int, edition: str) -> RoundPairing | None:
    """Round R paired before round R-1's results were entered: its games known, each
    counted as a draw (every player's score moves alike, the order of round R-1's)."""
    if rnd < 2:
        return None
    players = []
    for p in t.players:
        e = p.entry(rnd - 1)
        if e is not None and e.played:
            rounds = list(p.rounds)
            rounds[rnd - 2] = dataclasses.replace(e, result="=")
            p = dataclasses.replace(p, rounds=tuple(rounds))
        players.append(p)
    return _rules(dataclasses.replace(t, players=tuple(players)), rnd, edition)


MISTAKES: dict[str, Callable[[Tournament, int, str], RoundPairing | None]] = dict(zip(KINDS, (
    far_pairing, by_rating, no_acceleration, forbidden_ignored, pab_again, colours_swapped, other_edition,
    no_previous_results), strict=True))


def with_round(t: Tournament, rnd: int, rp: RoundPairing) -> Tournament:
    """The file up to round `rnd`, its round `rnd` as `rp` (White wins each game; the
    players the file left out of the round stay out), read back from its text."""
    placed: dict[int, RoundEntry] = {}
    for w, b in rp.boards:
        placed[w] = RoundEntry(b, Colour.WHITE, "1")
        placed[b] = RoundEntry(w, Colour.BLACK, "0")
    if rp.bye is not None:
        placed[rp.bye] = RoundEntry(None, None, "U")
    players = []
    for p in t.players:
        rounds = list(p.rounds[: rnd - 1]) + [None] * max(0, rnd - 1 - len(p.rounds))
        e = p.entry(rnd)
        rounds.append(placed.get(p.id, e if e is not None and e.opponent is None and e.result != "U" else None))
        players.append(dataclasses.replace(p, rounds=tuple(rounds)))
    byes = {r: m for r, m in t.byes.items() if r <= rnd}
    cut = dataclasses.replace(t, players=tuple(players), byes=byes)
    return parse_trf(write_trf(cut, t.dialect), source=f"{t.source} (round {rnd})")


@dataclass
class Judged:
    """One wrong round as `check` judged it, beside the rules' pairing of that round."""

    file: str
    round: int
    kind: str
    verdict: Verdict
    summary: str
    # Processor seconds (every thread's), not wall time: the ratio then holds on a
    # machine other jobs share.
    seconds: float  # checking the wrong round
    right_seconds: float  # checking the rules' pairing of the same round

    @property
    def ratio(self) -> float:
        return self.seconds / max(self.right_seconds, 1e-3)


def judge_round(t: Tournament, rnd: int, edition: str, kinds: tuple[str, ...] = KINDS,
                summary: Callable[[RoundCheck], str] = lambda r: r.error or "") -> list[Judged]:
    """Every mistake of `kinds` made in round `rnd`, each checked; the rules' own
    pairing checked too, for the time ratio.  A mistake that fails to be made (the
    engine cannot pair the changed file) is reported as the verdict "error" with why."""
    rules = _rules(t, rnd, edition)
    right = with_round(t, rnd, rules)
    t0 = time.process_time()
    check_round(right, rnd, edition)
    right_seconds = time.process_time() - t0
    out = []
    for kind in kinds:
        try:
            wrong = MISTAKES[kind](t, rnd, edition)
        except PairingError as exc:  # this mistake cannot be made here (e.g. no valid pairing)
            out.append(Judged(t.source, rnd, kind, Verdict.ERROR, f"not made: {exc}", 0.0, right_seconds))
            continue
        if wrong is None or _same(wrong, rules):
            continue
        w = with_round(t, rnd, wrong)
        t0 = time.process_time()
        res = check_round(w, rnd, edition)
        out.append(Judged(t.source, rnd, kind, res.verdict, summary(res), time.process_time() - t0, right_seconds))
    return out


def _same(a: RoundPairing, b: RoundPairing) -> bool:
    return set(a.boards) == set(b.boards) and a.bye == b.bye
