"""Random tournament generator (RTG): complete Swiss tournaments paired by our engine.

A tournament is a pure function of its seed and the configuration: the same seed gives
the same bytes on every machine.  Everything random comes from one `random.Random`
(Mersenne Twister, whose integer output is specified and platform-independent) and is
drawn as integers only (`randrange`, `randint`); the one irrational quantity, the
expected score, is computed in software decimal arithmetic (`decimal`, not the C
library's `pow`) and rounded to parts per million before it is compared with a draw.
Nothing depends on `hash()`, set iteration order or float formatting.

What is drawn, in this order, for a tournament of seed S (attempt 0 seeds the generator
with S itself; see `generate` for retries):

- the number of players N and of rounds R from their ranges (R is at most N - 1),
- the rating band, then N ratings in it; players are numbered by rating (ties by
  drawing order), named "Player 0001", ..., with a federation, a birth date and
  a sex; the start date; the initial colour (`XXC white1|black1`, TRF-2026 `152`),
- the late entries (each player with probability `late_rate`: absent with `0000 - Z`
  for rounds 1..k-1, k uniform in 2..max(2, R // 2)) and the withdrawals (each other
  player with probability `withdraw_rate`: plays rounds 1..k, k uniform in 1..R-1,
  and his line stops there: blank blocks, as the corpus files and TRF do),
- then round by round: requested byes (each player present for that round with
  probability `bye_rate`: `H` 75 %, `Z` 20 %, `F` 5 %), entered as `0000 - H/Z/F`
  blocks *before* the round is paired, so the engine sees them as absences; the
  engine pairs the round; each game is forfeited with probability `forfeit_rate`
  (one side 80 % -- `+`/`-`, each side equally likely -- double forfeit `-`/`-` 20 %),
  the others get a result from the ratings.

Results (White rated Ra, Black rated Rb, draw rate d in [0, 1])::

    E      = 1 / (1 + 10 ** (-(Ra - Rb) / 400))   White's expected score
    P(=)   = d * 2 * min(E, 1 - E)                 draw
    P(1-0) = E - P(=) / 2                          White wins
    P(0-1) = 1 - E - P(=) / 2                      Black wins

so White's expected score is exactly E, every probability lies in [0, 1] for any d in
[0, 1], and between equal ratings the draw rate is d itself (it falls as the rating gap
grows, as it does over the board).  There is no White advantage.

The `stress` profile (`GenConfig.profile`) draws each tournament's own size and rates
from the seed, towards what real events do and the defaults rarely draw: tiny fields
(2-6 players) played until no round can be paired, many forfeits and double forfeits,
rounds in which many players ask for a bye, late entries arriving together, many
withdrawals, dense forbidden pairs (`XXP`), and Baku acceleration (`XXA`/`250`, FIDE
C.04.7: the first 2*ceil(N/4) players get 1 virtual point for the first half, rounded
up, of the accelerated rounds -- themselves the first half of the tournament, rounded
up -- and 0.5 for the rest of them).  With `until_unpairable` a round that has no
valid pairing ends the tournament (the arbiter would have to decide, 2026 Art. 1.9.3)
instead of drawing the whole tournament again.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import random
import re
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from decimal import ROUND_HALF_EVEN, Context, Decimal
from fractions import Fraction
from functools import lru_cache
from typing import Any

from cpsat_pairing.errors import ExitCode, NoValidPairing, PairingError
from cpsat_pairing.domain.tournament import Acceleration, Colour, ForbiddenPairs, Player, RoundEntry, Tournament
from cpsat_pairing.apps.standings import standings
from cpsat_pairing.formats import DIALECTS, append_round, write_trf

__all__ = ["GenConfig", "Generated", "GenerationFailed", "RoundFailed", "Unpairable", "baku_acceleration",
           "expected_score_ppm", "generate", "generate_trf", "parse_range", "play", "result_probabilities_ppm"]

PPM = 1_000_000
MAX_ATTEMPTS = 8
MAX_SEED = 2**63 - 1
FEDERATIONS = ("ARG", "AUT", "BRA", "CAN", "CHN", "CRO", "CZE", "DEN", "ENG", "ESP", "FRA", "GER", "GRE",
               "HUN", "IND", "ISR", "ITA", "NED", "NOR", "POL", "POR", "ROU", "SRB", "SUI", "SWE", "UKR", "USA")
BYE_CODES = (("H", 75), ("Z", 20), ("F", 5))  # requested byes, percent
BURST_BYE_PERCENT = 35  # in a round of many byes (`bye_burst_rate`), each player's chance
PROFILES = ("standard", "stress")
ACCELERATIONS = ("none", "baku")


class GenerationFailed(PairingError):
    """No complete tournament could be made from this seed (every attempt had a round
    without a valid pairing)."""

    exit_code = ExitCode.NO_PAIRING


@dataclass(frozen=True)
class GenConfig:
    """What to generate.  Ranges are inclusive; rates are probabilities in [0, 1]."""

    players: tuple[int, int] = (20, 150)
    rounds: tuple[int, int] = (5, 11)
    edition: str = "dutch-2026"
    draw_rate: float = 0.35
    forfeit_rate: float = 0.02
    bye_rate: float = 0.02
    late_rate: float = 0.04
    withdraw_rate: float = 0.03
    format: str = "trf16"
    lowest_rating: int = 1000
    highest_rating: int = 2800
    # Each tournament's size and rates drawn from the seed ("stress"), or these ("standard").
    profile: str = "standard"
    double_forfeit_rate: float = 0.2  # of the forfeited games, those lost by both players
    bye_burst_rate: float = 0.0  # that a round is one in which many players ask for a bye
    late_together: bool = False  # the late entries all arrive in the same round
    forbidden_rate: float = 0.0  # that a pair of players may not meet (XXP)
    acceleration: str = "none"  # "baku": Baku acceleration (C.04.7) as XXA / 250 records
    until_unpairable: bool = False  # a round without a valid pairing ends the tournament
    # A model tournament (JaVaFo's and bbpPairings' `MODEL -g`): its players (ids, names,
    # ratings, ...) and its number of rounds, instead of drawn ones; its rounds are not used.
    model: Tournament | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        for name in _RATES:
            value = getattr(self, name)
            if not 0 <= value <= 1:
                raise ValueError(f"{name.replace('_', '-')} must be between 0 and 1, got {value}")
        if self.profile not in PROFILES:
            raise ValueError(f"profile must be one of {', '.join(PROFILES)}, got {self.profile!r}")
        if self.acceleration not in ACCELERATIONS:
            raise ValueError(f"acceleration must be one of {', '.join(ACCELERATIONS)}, got {self.acceleration!r}")
        lo, hi = self.players
        if not 2 <= lo <= hi <= 9999:
            raise ValueError(f"players must be a range within 2-9999, got {lo}-{hi}")
        lo, hi = self.rounds
        if not 1 <= lo <= hi <= 99:
            raise ValueError(f"rounds must be a range within 1-99, got {lo}-{hi}")
        if self.format not in DIALECTS:
            raise ValueError(f"format must be one of {', '.join(DIALECTS)}, got {self.format!r}")
        if not 1 <= self.lowest_rating <= self.highest_rating <= 9999:
            raise ValueError("ratings must satisfy 1 <= lowest <= highest <= 9999")

    @property
    def ppm(self) -> dict[str, int]:
        """The rates in parts per million (the generator compares integers only)."""
        return {n: int((Decimal(repr(getattr(self, n))) * PPM).to_integral_value(ROUND_HALF_EVEN)) for n in _RATES}


_RATES = ("draw_rate", "forfeit_rate", "bye_rate", "late_rate", "withdraw_rate", "double_forfeit_rate",
          "bye_burst_rate", "forbidden_rate")


def _stress(rng: random.Random, cfg: GenConfig) -> GenConfig:
    """One stress tournament's own configuration, drawn from `rng` (integers only).

    A third of the fields are tiny (2-6 players) and play as many rounds as a field of
    that size can (each player meets each other once), ending where no valid pairing is
    left; the others have 7-60 players and 5-11 rounds.  Rates are drawn per tournament,
    each of the hard cases switched on in a good share of them."""

    def rate(lo_percent: int, hi_percent: int) -> float:
        return rng.randint(lo_percent * 10, hi_percent * 10) / 1000

    def some(percent: int) -> bool:
        return rng.randrange(100) < percent

    kind = rng.randrange(3)
    if kind == 0:
        n = rng.randint(2, 6)
        players, rounds = (n, n), (n - 1 + n % 2,) * 2
    else:
        n = rng.randint(7, 24) if kind == 1 else rng.randint(25, 60)
        players, rounds = (n, n), (5, 11)
    return dataclasses.replace(
        cfg,
        profile="standard",
        players=players,
        rounds=rounds,
        draw_rate=rate(10, 50),
        forfeit_rate=rate(5, 30) if some(70) else rate(0, 3),
        double_forfeit_rate=rate(20, 60),
        bye_rate=rate(2, 15) if some(60) else 0.0,
        bye_burst_rate=rate(10, 30) if some(40) else 0.0,
        late_rate=rate(10, 30) if some(40) else 0.0,
        late_together=some(60),
        withdraw_rate=rate(5, 20) if some(50) else 0.0,
        forbidden_rate=rate(3, 20) if some(35) else 0.0,
        acceleration="baku" if some(25) else "none",
        until_unpairable=True,
    )


def parse_range(text: str, what: str) -> tuple[int, int]:
    """'40' → (40, 40); '20-150' → (20, 150).  ValueError with a readable message."""
    m = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", text)
    if not m:
        raise ValueError(f"{what}: expected N or A-B, got {text!r}")
    lo = int(m.group(1))
    hi = int(m.group(2)) if m.group(2) else lo
    if hi < lo:
        raise ValueError(f"{what}: empty range {text!r}")
    return lo, hi


# --- results --------------------------------------------------------------------------

_CTX = Context(prec=30)


@lru_cache(maxsize=None)
def expected_score_ppm(diff: int) -> int:
    """E = 1 / (1 + 10^(-diff/400)) in parts per million, rounded half-even, computed in
    software decimal arithmetic so every platform gets the same integer."""
    power = _CTX.power(Decimal(10), _CTX.divide(Decimal(-diff), Decimal(400)))
    e = _CTX.divide(Decimal(1), _CTX.add(Decimal(1), power))
    return int((e * PPM).to_integral_value(ROUND_HALF_EVEN))


def result_probabilities_ppm(white: int, black: int, draw_ppm: int) -> tuple[int, int, int]:
    """(P(1-0), P(=), P(0-1)) in parts per million, summing to 10^6 (module docstring)."""
    e = expected_score_ppm(white - black)
    draw = draw_ppm * 2 * min(e, PPM - e) // PPM
    white_win = e - draw // 2
    return white_win, draw, PPM - white_win - draw


def draw_result(rng: random.Random, white: int, black: int, draw_ppm: int) -> tuple[str, str]:
    """The result codes (White's, Black's) of one game played over the board."""
    ww, dd, _ = result_probabilities_ppm(white, black, draw_ppm)
    u = rng.randrange(PPM)
    if u < ww:
        return "1", "0"
    if u < ww + dd:
        return "=", "="
    return "0", "1"


def _chance(rng: random.Random, ppm: int) -> bool:
    return rng.randrange(PPM) < ppm


def _pick(rng: random.Random, weighted: tuple[tuple[str, int], ...]) -> str:
    u = rng.randrange(sum(w for _, w in weighted))
    for code, w in weighted:
        if u < w:
            return code
        u -= w
    raise AssertionError("unreachable")


# --- the tournament -------------------------------------------------------------------


@dataclass
class _Plan:
    """Who is absent when, decided before the first round."""

    late_until: dict[int, int]  # id → first round played
    withdraw_after: dict[int, int]  # id → last round played


def _players(rng: random.Random, n: int, cfg: GenConfig) -> list[Player]:
    lowest, highest = cfg.lowest_rating, cfg.highest_rating
    if highest - lowest <= 200:
        lo, hi = lowest, highest
    else:  # a band at least 200 points wide somewhere in [lowest, highest]
        lo = rng.randint(lowest, highest - 200)
        hi = rng.randint(lo + 200, highest)
    drawn = []
    for i in range(n):
        rating = rng.randint(lo, hi)
        fed = FEDERATIONS[rng.randrange(len(FEDERATIONS))]
        born = _dt.date(1940, 1, 1) + _dt.timedelta(days=rng.randrange(365 * 70))
        sex = "w" if rng.randrange(100) < 15 else "m"
        drawn.append((rating, i, fed, born, sex))
    drawn.sort(key=lambda x: (-x[0], x[1]))
    return [
        Player(id=k, name=f"Player {k:04d}", rating=rating, sex=sex, federation=fed,
               birth_date=born.strftime("%Y/%m/%d"))
        for k, (rating, _, fed, born, sex) in enumerate(drawn, start=1)
    ]


def _plan(rng: random.Random, ids: list[int], rounds: int, cfg: GenConfig) -> _Plan:
    ppm = cfg.ppm
    late: dict[int, int] = {}
    withdraw: dict[int, int] = {}
    together = rng.randint(2, max(2, rounds // 2)) if cfg.late_together and rounds >= 2 else None
    for pid in ids:
        if rounds >= 2 and _chance(rng, ppm["late_rate"]):
            late[pid] = together or rng.randint(2, max(2, rounds // 2))
        elif rounds >= 2 and _chance(rng, ppm["withdraw_rate"]):
            withdraw[pid] = rng.randint(1, rounds - 1)
    return _Plan(late, withdraw)


def _forbidden(rng: random.Random, ids: list[int], cfg: GenConfig) -> tuple[ForbiddenPairs, ...]:
    """Each pair of players forbidden to meet with probability `forbidden_rate` (XXP)."""
    ppm = cfg.ppm["forbidden_rate"]
    if not ppm:
        return ()
    return tuple(ForbiddenPairs((a, b)) for i, a in enumerate(ids) for b in ids[i + 1 :] if _chance(rng, ppm))


def baku_acceleration(ids: list[int], rounds: int) -> tuple[Acceleration, ...]:
    """Baku acceleration (FIDE C.04.7) for players `ids` in pairing-number order.

    Group A is the first half of the players rounded up to an even number, 2*ceil(N/4);
    the accelerated rounds are the first half of the tournament, rounded up; group A has
    1 virtual point when the first half (rounded up) of them is paired, 0.5 for the rest."""
    group_a = 2 * -(-len(ids) // 4)
    accelerated = -(-rounds // 2)
    full = -(-accelerated // 2)
    points = tuple(Fraction(1) if r < full else Fraction(1, 2) for r in range(accelerated))
    return tuple(Acceleration(pid, points) for pid in ids[:group_a])


def _with_blocks(t: Tournament, rnd: int, blocks: dict[int, RoundEntry | None]) -> Tournament:
    """`t` with round `rnd`'s block of each player in `blocks` replaced (None: blank)."""
    players = []
    for p in t.players:
        if p.id in blocks:
            rounds = list(p.rounds) + [None] * max(0, rnd - len(p.rounds))
            rounds[rnd - 1] = blocks[p.id]
            while rounds and rounds[-1] is None:
                rounds.pop()
            p = dataclasses.replace(p, rounds=tuple(rounds))
        players.append(p)
    return dataclasses.replace(t, players=tuple(players))


def _play_round(rng: random.Random, t: Tournament, rnd: int, plan: _Plan, cfg: GenConfig) -> Tournament:
    """Enter round `rnd`'s absences, pair it with the engine, enter the results."""
    from cpsat_pairing.dutch.rounds import pair

    ppm = cfg.ppm
    ids = [p.id for p in t.players]
    withdrawn = [pid for pid in ids if pid in plan.withdraw_after and rnd > plan.withdraw_after[pid]]
    late = [pid for pid in ids if pid in plan.late_until and rnd < plan.late_until[pid]]
    out = set(withdrawn) | set(late)
    blocks: dict[int, RoundEntry | None] = {pid: RoundEntry(None, None, "Z") for pid in late}
    available = [pid for pid in ids if pid not in out]
    burst = bool(ppm["bye_burst_rate"]) and _chance(rng, ppm["bye_burst_rate"])  # no draw at rate 0
    for pid in available:
        if (rng.randrange(100) < BURST_BYE_PERCENT) if burst else _chance(rng, ppm["bye_rate"]):
            blocks[pid] = RoundEntry(None, None, _pick(rng, BYE_CODES))
    if len(available) - sum(1 for pid in available if pid in blocks) < 2:
        for pid in available:
            blocks.pop(pid, None)  # keep a round to pair: nobody's bye is granted
    t = _with_blocks(t, rnd, blocks)
    # Withdrawn players: absent for the engine (XXZ) while pairing, a blank block after.
    t = dataclasses.replace(t, absent_next=tuple(withdrawn))
    try:
        result = pair(t, rnd, cfg.edition)
    except NoValidPairing as exc:
        raise _Unpairable(Unpairable(rnd, t, exc)) from exc
    except Exception as exc:
        raise RoundFailed(rnd, t, exc) from exc
    t = append_round(t, result.as_pairs(), result.bye, rnd)
    t = dataclasses.replace(t, absent_next=())
    rating = {p.id: p.rating for p in t.players}
    # A withdrawn player's block is left blank, unless nobody was left to pair and a
    # round follows: a round is held without a game only where every player has a
    # block in it (Tournament.next_pairable_round); else the next round to pair would
    # be this one again.
    deserted = not available and t.total_rounds is not None and rnd < t.total_rounds
    final: dict[int, RoundEntry | None] = {pid: RoundEntry(None, None, "Z") if deserted else None
                                           for pid in withdrawn}
    for white, black in result.as_pairs():
        if _chance(rng, ppm["forfeit_rate"]):
            # Whole percents (one draw of 100): every standard-profile seed's bytes depend on
            # this draw.
            if rng.randrange(100) * (PPM // 100) < ppm["double_forfeit_rate"]:
                rw, rb = "-", "-"
            else:
                rw, rb = ("+", "-") if rng.randrange(2) == 0 else ("-", "+")
        else:
            rw, rb = draw_result(rng, rating[white], rating[black], ppm["draw_rate"])
        final[white] = RoundEntry(black, Colour.WHITE, rw)
        final[black] = RoundEntry(white, Colour.BLACK, rb)
    return _with_blocks(t, rnd, final)


@dataclass(frozen=True)
class Unpairable:
    """The round that ended a tournament generated `until_unpairable`: no valid pairing."""

    round: int
    tournament: Tournament  # as it was to be paired (that round's absences entered)
    error: PairingError  # the engine's NoValidPairing


class _Unpairable(Exception):
    def __init__(self, found: Unpairable) -> None:
        super().__init__(str(found.error))
        self.found = found


class RoundFailed(PairingError):
    """The engine failed on a round of a tournament being generated; `tournament` is
    that round's input (absences entered), to reproduce it."""

    def __init__(self, rnd: int, tournament: Tournament, error: Exception) -> None:
        super().__init__(f"round {rnd}: {type(error).__name__}: {error}")
        self.round = rnd
        self.tournament = tournament
        self.error = error


@dataclass(frozen=True)
class Generated:
    """A generated tournament, and the round without a valid pairing that ended it, if any."""

    tournament: Tournament
    unpairable: Unpairable | None = None


def _attempt(seed: int, attempt: int, cfg: GenConfig) -> Generated:
    rng = random.Random(seed + attempt * (MAX_SEED + 1))
    if cfg.profile == "stress":
        cfg = _stress(rng, cfg)
    if cfg.model is not None:
        players = [dataclasses.replace(p, rounds=(), declared_points=None, rank=None) for p in cfg.model.players]
        n = len(players)
        if cfg.model.total_rounds is not None:
            cfg = dataclasses.replace(cfg, rounds=(cfg.model.total_rounds,) * 2)
    else:
        n = rng.randint(*cfg.players)
    # Played to the end, a field of n can have n - 1 rounds (n when odd: one PAB each).
    most = n - 1 + n % 2 if cfg.until_unpairable else n - 1
    rounds = min(rng.randint(*cfg.rounds), max(1, most))
    if cfg.model is None:
        players = _players(rng, n, cfg)
    start = _dt.date(2026, 2, 1) + _dt.timedelta(days=rng.randrange(300))
    end = start + _dt.timedelta(days=rounds - 1)
    colour = Colour.WHITE if rng.randrange(2) == 0 else Colour.BLACK
    ids = [p.id for p in players]
    plan = _plan(rng, ids, rounds, cfg)
    forbidden = _forbidden(rng, ids, cfg)
    acceleration = baku_acceleration(ids, rounds) if cfg.acceleration == "baku" else ()
    header = (
        f"022 Random City {seed % 1000:03d}",
        f"032 {FEDERATIONS[seed % len(FEDERATIONS)]}",
        f"042 {start.strftime('%Y/%m/%d')}",
        f"052 {end.strftime('%Y/%m/%d')}",
        f"062 {n}",
        f"072 {n}",
        f"092 Individual: Swiss-System (Dutch), paired by cpsat-pairing {cfg.edition}",
        "102 Random Arbiter",
        "122 90'/40 moves + 30', 30\"/move",
    )
    t = Tournament(players=tuple(players), name=f"Random tournament {seed}", total_rounds=rounds,
                   initial_colour=colour, forbidden=forbidden, acceleration=acceleration, header_lines=header,
                   dialect=cfg.format)
    for rnd in range(1, rounds + 1):
        try:
            t = _play_round(rng, t, rnd, plan, cfg)
        except _Unpairable as stop:
            if not cfg.until_unpairable:
                raise stop.found.error from None
            return Generated(t, stop.found)
    return Generated(t)


def generate(seed: int, cfg: GenConfig = GenConfig()) -> Tournament:
    """The tournament of `seed` (0 <= seed < 2^63).

    Should a round have no valid pairing (possible with few players and many rounds),
    the whole tournament is drawn again from a generator seeded `seed + k * 2^63` for
    attempt k = 1, 2, ... (at most MAX_ATTEMPTS): still a function of the seed alone.
    With `until_unpairable` (the stress profile) that round ends the tournament instead.

    Raises:
        RoundFailed: the engine failed on a round (anything but "no valid pairing").
    """
    return play(seed, cfg).tournament


def play(seed: int, cfg: GenConfig = GenConfig()) -> Generated:
    """`generate`, telling also which round had no valid pairing, if one ended it."""
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"seed must be between 0 and {MAX_SEED}, got {seed}")
    last: Exception | None = None
    for attempt in range(MAX_ATTEMPTS):
        try:
            done = _attempt(seed, attempt, cfg)
        except NoValidPairing as exc:
            last = exc
            continue
        return dataclasses.replace(done, tournament=with_standings(done.tournament, cfg.format))
    raise GenerationFailed(f"seed {seed}: no complete tournament in {MAX_ATTEMPTS} attempts ({last})")


def with_standings(t: Tournament, dialect: str) -> Tournament:
    """The final ranks (86-89) by points and the default tie-breaks (C.07 names none), and in
    TRF-2026 the `202` record declaring them: a complete tournament file."""
    if t.rounds_played == 0:
        return t
    s = standings(t)
    rank = {row.id: row.rank for row in s.rows}
    players = tuple(dataclasses.replace(p, rank=rank[p.id]) for p in t.players)
    header = t.header_lines
    if dialect == "trf26":
        header = (*header, "202 " + " ".join(s.tiebreaks))
    return dataclasses.replace(t, players=players, header_lines=header, tiebreaks=s.tiebreaks if dialect == "trf26" else ())


def generate_trf(seed: int, cfg: GenConfig = GenConfig()) -> str:
    """The tournament of `seed` as TRF text (`cfg.format`), LF line ends."""
    return write_trf(generate(seed, cfg), cfg.format)


def summary(t: Tournament) -> dict[str, Any]:
    """Counts of what a generated tournament holds (for statistics and manifests)."""
    games = draws = forfeits = pab = 0
    byes = {"H": 0, "F": 0, "Z": 0}
    for p in t.players:
        for e in p.rounds:
            if e is None:
                continue
            if e.opponent is not None:
                if e.colour is Colour.WHITE:
                    if e.result in "+-":
                        forfeits += 1
                    else:
                        games += 1
                        draws += e.result == "="
            elif e.result == "U":
                pab += 1
            elif e.result in byes:
                byes[e.result] += 1
    return {"players": len(t.players), "rounds": t.total_rounds, "games": games, "draws": draws,
            "forfeits": forfeits, "pab": pab, "byes": byes}


# --- many at once -----------------------------------------------------------------------


def _one(args: tuple[int, GenConfig]) -> tuple[int, str | None, dict[str, Any]]:
    seed, cfg = args
    try:
        t = generate(seed, cfg)
    except GenerationFailed as exc:
        return seed, None, {"error": str(exc)}
    return seed, write_trf(t, cfg.format), summary(t)


def generate_many(
    seeds: list[int], cfg: GenConfig, jobs: int = 1, on_done: Any = None
) -> Iterator[tuple[int, str | None, dict[str, Any]]]:
    """(seed, TRF text, summary) for each seed, `jobs` at a time in a process pool, in
    completion order (each result is a function of its seed alone, so the order does
    not change any file).  A seed that cannot be generated gives (seed, None,
    {"error": message})."""
    tasks = [(s, cfg) for s in seeds]
    if jobs <= 1 or len(tasks) <= 1:
        for task in tasks:
            out = _one(task)
            if on_done:
                on_done(out)
            yield out
        return
    with ProcessPoolExecutor(min(jobs, len(tasks))) as pool:
        futures = [pool.submit(_one, task) for task in tasks]
        for fut in as_completed(futures):
            out = fut.result()
            if on_done:
                on_done(out)
            yield out


def file_name(seed: int) -> str:
    """The name of seed's file in an output directory."""
    return f"t{seed:06d}.trf"


MANIFEST_FIELDS = ("file", "seed", "players", "rounds", "games", "draws", "forfeits", "pab", "hpb", "fpb", "zpb")


def manifest_row(seed: int, s: dict[str, Any]) -> list[Any]:
    return [file_name(seed), seed, s["players"], s["rounds"], s["games"], s["draws"], s["forfeits"], s["pab"],
            s["byes"]["H"], s["byes"]["F"], s["byes"]["Z"]]


# --- bbpPairings' generator configuration -------------------------------------------------


def bbp_config(text: str, base: GenConfig = GenConfig()) -> GenConfig:
    """A GenConfig from bbpPairings' / JaVaFo's RTG configuration (`key=value` lines):
    PlayersNumber, RoundsNumber, DrawPercentage (0-100), ForfeitRate, RetiredRate,
    HalfPointByeRate (each "one in N": a game forfeited, a player retiring, a player
    taking a half-point bye in a round), HighestRating, LowestRating.  Unknown keys
    raise ValueError."""
    values: dict[str, str] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if "=" not in line:
            raise ValueError(f"line {number}: expected key=value, got {raw.strip()!r}")
        key, value = (x.strip() for x in line.split("=", 1))
        values[key] = value

    def num(key: str) -> int:
        try:
            return int(values[key])
        except ValueError:
            raise ValueError(f"{key}: expected a whole number, got {values[key]!r}") from None

    def one_in(key: str) -> float:
        n = num(key)
        if n < 1:
            raise ValueError(f"{key}: expected a number >= 1 (one in N), got {n}")
        return 1 / n

    known = {"PlayersNumber", "RoundsNumber", "DrawPercentage", "ForfeitRate", "RetiredRate", "HalfPointByeRate",
             "HighestRating", "LowestRating"}
    unknown = sorted(set(values) - known)
    if unknown:
        raise ValueError(f"unknown configuration key(s): {', '.join(unknown)}")
    changes: dict[str, Any] = {}
    if "PlayersNumber" in values:
        changes["players"] = (num("PlayersNumber"),) * 2
    if "RoundsNumber" in values:
        changes["rounds"] = (num("RoundsNumber"),) * 2
    if "DrawPercentage" in values:
        changes["draw_rate"] = num("DrawPercentage") / 100
    if "ForfeitRate" in values:
        changes["forfeit_rate"] = one_in("ForfeitRate")
    if "RetiredRate" in values:
        changes["withdraw_rate"] = one_in("RetiredRate")
    if "HalfPointByeRate" in values:
        changes["bye_rate"] = one_in("HalfPointByeRate")
    if "HighestRating" in values:
        changes["highest_rating"] = num("HighestRating")
    if "LowestRating" in values:
        changes["lowest_rating"] = num("LowestRating")
    return dataclasses.replace(base, **changes)
