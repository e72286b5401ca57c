"""The stress self-test: generate tournaments of the stress profile and audit every round.

A stress tournament (generate.GenConfig(profile="stress")) is paired round by round by
the engine; here each round is audited afterwards:

* a round the engine paired must be legal ([C1]-[C3], forbidden pairs, [C2]) and
  complete (every present player paired but at most one, who gets the PAB);
* a round the engine found no valid pairing for must truly have none: an independent
  exhaustive search (`complete_pairing_exists`, a different algorithm from the engine's
  blossom matching and CP-SAT models) looks for a complete round-pairing on the same
  compatibility graph;
* any other failure of the engine is an error, and the round's input is kept.

The self-test cannot find a misread rule (the engine agrees with itself); the replays
of reference-paired corpora do that.  What it finds is rounds where the engine stops,
breaks an absolute criterion or wrongly gives up.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Callable, Iterable

from cpsat_pairing.apps import generate as gen
from cpsat_pairing.domain.compat import Compatibility
from cpsat_pairing.dutch.rounds import illegalities
from cpsat_pairing.apps.check import file_round
from cpsat_pairing.dutch.edition import load_edition
from cpsat_pairing.domain.state import build_state, round_exists
from cpsat_pairing.domain.tournament import Tournament
from cpsat_pairing.formats import write_trf

# Search steps after which the exhaustive search gives up and the algebraic test decides.
SEARCH_LIMIT = 200_000
# The algebraic test: a prime field and the number of random trials.
PRIME = (1 << 61) - 1
TRIALS = 8


class _Undecided(Exception):
    pass


def complete_pairing_exists(
    players: Iterable[int], ok: Callable[[int, int], bool], bye_allowed: Callable[[int], bool],
    limit: int = SEARCH_LIMIT,
) -> bool:
    """Does a complete round-pairing exist (2026 Art. 1.9.1)?  Everybody paired with a
    compatible opponent, but one player when their number is odd, who must be allowed
    the PAB.

    Two methods, neither the engine's: an exhaustive search (exact), and past `limit`
    steps Tutte's theorem -- a graph has a perfect matching if and only if its Tutte
    matrix is non-singular -- tested with random values in a prime field: a non-zero
    determinant proves a pairing exists; zero in every one of TRIALS trials leaves a
    chance below (n / 2^61)^TRIALS that one exists."""
    players = list(players)
    found = _search(players, ok, bye_allowed, limit)
    return found if found is not None else _tutte(players, ok, bye_allowed)


def _search(
    players: list[int], ok: Callable[[int, int], bool], bye_allowed: Callable[[int], bool], limit: int
) -> bool | None:
    """Exhaustive search: the player with the fewest free opponents first, each opponent
    in turn (or the PAB), failed sets of free players remembered; None past `limit`."""
    options = {p: frozenset(q for q in players if q != p and ok(p, q)) for p in players}
    failed: set[tuple[frozenset[int], bool]] = set()
    steps = 0

    def search(free: frozenset[int], bye_left: bool) -> bool:
        nonlocal steps
        if not free:
            return True
        if (free, bye_left) in failed:
            return False
        steps += 1
        if steps > limit:
            raise _Undecided
        p = min(free, key=lambda x: (len(options[x] & free), x))
        for q in sorted(options[p] & free):
            if search(free - {p, q}, bye_left):
                return True
        if bye_left and bye_allowed(p) and search(free - {p}, False):
            return True
        failed.add((free, bye_left))
        return False

    try:
        return search(frozenset(players), len(players) % 2 == 1)
    except _Undecided:
        return None


def _tutte(players: list[int], ok: Callable[[int, int], bool], bye_allowed: Callable[[int], bool]) -> bool:
    """Tutte's test (see `complete_pairing_exists`), the PAB as one more vertex when
    the field is odd; deterministic (a fixed seed)."""
    import random

    rng = random.Random(0)
    n = len(players)
    size = n + n % 2
    edges = [(i, j) for i in range(n) for j in range(i + 1, n) if ok(players[i], players[j])]
    if n % 2:
        edges += [(i, n) for i in range(n) if bye_allowed(players[i])]
    for _ in range(TRIALS):
        m = [[0] * size for _ in range(size)]
        for i, j in edges:
            x = rng.randrange(1, PRIME)
            m[i][j], m[j][i] = x, PRIME - x
        if _non_singular(m):
            return True
    return False


def _non_singular(m: list[list[int]]) -> bool:
    """Gaussian elimination modulo PRIME."""
    size = len(m)
    for col in range(size):
        pivot = next((r for r in range(col, size) if m[r][col]), None)
        if pivot is None:
            return False
        m[col], m[pivot] = m[pivot], m[col]
        inv = pow(m[col][col], PRIME - 2, PRIME)
        for r in range(col + 1, size):
            if m[r][col]:
                f = m[r][col] * inv % PRIME
                row, top = m[r], m[col]
                for c in range(col, size):
                    row[c] = (row[c] - f * top[c]) % PRIME
    return True


def pairable(t: Tournament, rnd: int, edition: str) -> bool:
    """`complete_pairing_exists` for round `rnd` of `t` under `edition`'s definitions."""
    ed = load_edition(edition)
    st = build_state(t, rnd, ed.state_rules)
    ok = Compatibility(st, t)
    return complete_pairing_exists(st.present, ok, lambda p: st.players[p].pab_eligible)


def round_problems(t: Tournament, rnd: int, edition: str) -> list[str]:
    """What is wrong with round `rnd` as paired in `t`: illegal pairs or a bye, players
    present but left out, more than one player unpaired."""
    ed = load_edition(edition)
    fr = file_round(t, rnd)
    out = illegalities(t, rnd, list(fr.pairs), fr.bye, ed)
    st = build_state(t, rnd, ed.state_rules)
    paired = {p for pq in fr.pairs for p in pq} | ({fr.bye} if fr.bye is not None else set())
    left = sorted(p for p in st.present if p not in paired)
    if left:
        out.append(f"present but not paired: {', '.join(map(str, left))}")
    if len(st.present) % 2 != (fr.bye is not None):
        out.append(f"{len(st.present)} players present, PAB {'given' if fr.bye is not None else 'missing'}")
    return out


@dataclass
class Audit:
    """One stress tournament's audit."""

    seed: int
    edition: str
    players: int = 0
    rounds: int = 0  # rounds the engine paired
    unpairable: int = 0  # rounds it found no valid pairing for (at most one: it ends the tournament)
    confirmed: int = 0  # ... of those, confirmed by the independent search
    unconfirmed: list[str] = field(default_factory=list)  # no valid pairing, but the independent check found one
    illegal: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    failed_input: str | None = None  # TRF of a round the engine failed on
    trf: str | None = None  # the tournament as generated

    @property
    def ok(self) -> bool:
        return not (self.unconfirmed or self.illegal or self.errors)


def audit(seed: int, edition: str, fmt: str = "trf16") -> Audit:
    """Generate stress tournament `seed` under `edition` and audit every round."""
    cfg = gen.GenConfig(profile="stress", edition=edition, format=fmt)
    out = Audit(seed, edition)
    try:
        made = gen.play(seed, cfg)
    except gen.RoundFailed as exc:
        out.errors.append(f"seed {seed} {exc}")
        out.failed_input = write_trf(exc.tournament, fmt)
        return out
    except Exception as exc:  # an error outside any round is an error too
        out.errors.append(f"seed {seed}: {type(exc).__name__}: {exc}")
        return out
    t = made.tournament
    out.players = len(t.players)
    out.trf = write_trf(t, fmt)
    last = max((len(p.rounds) for p in t.players), default=0)
    for rnd in range(1, last + 1):
        if not round_exists(t, rnd):
            continue
        out.rounds += 1
        out.illegal += [f"seed {seed} round {rnd}: {x}" for x in round_problems(t, rnd, edition)]
    if made.unpairable is not None:
        u = made.unpairable
        out.unpairable += 1
        if not pairable(u.tournament, u.round, edition):
            out.confirmed += 1
        else:
            out.unconfirmed.append(f"seed {seed} round {u.round}: no valid pairing, but a complete pairing exists")
            out.failed_input = write_trf(u.tournament, fmt)
    return out


def audit_task(args: tuple[int, str, str]) -> Audit:
    """`audit` for a process pool: (seed, edition, format)."""
    return audit(*args)


def without_text(a: Audit) -> Audit:
    """The audit without the generated file (what a summary needs)."""
    return dataclasses.replace(a, trf=None)
