"""One function per tie-break of C.07 (Play-off and Tie-Break Regulations), named by its
code.  Each returns every player's value with what made it up: the rounds and
opponents that counted (`parts`) and the rounds a modifier cut.

The docstrings paraphrase the articles (numbers as in the texts of 2024 and 2026);
where the two texts differ the function says so and takes `ctx.rules`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from cpsat_pairing.apps.standings.ratings import average, perfect_performance, performance
from cpsat_pairing.apps.standings.record import Kind, Record, RoundFact, Rules
from cpsat_pairing.formats.tiebreak_codes import TieBreak

__all__ = ["TIEBREAKS", "Context", "Item", "Part", "Value", "cut"]

Number = Fraction | int


@dataclass(frozen=True, slots=True)
class Part:
    """One round's share of a value: the opponent (None for a bye or absence), what it
    was worth, and why."""

    round: int
    opponent: int | None
    value: Number | None
    why: str


@dataclass(frozen=True, slots=True)
class Value:
    """A tie-break value and what made it up.  `raw` holds the parts of the big
    families as (round, opponent, units, why), turned into `parts` only when read:
    standings of thousands of players need the values, an explanation the parts."""

    value: Number | None
    given: tuple[Part, ...] = ()
    cut: tuple[int, ...] = ()  # rounds a cut or median removed, in the order removed
    note: str = ""
    raw: tuple[tuple[Any, ...], ...] = ()  # see `parts`
    unit: Fraction = Fraction(1)
    key: int | None = None  # the value in units of `unit`, when known

    @property
    def order(self) -> Number | None:
        """What ranking compares: the value, as whole units where they are at hand
        (comparing integers is much faster than comparing fractions)."""
        return self.value if self.key is None else self.key

    @property
    def text(self) -> str:
        """As people read it: 4, 12.5, 13.625, 2150; "-" when undefined."""
        x = self.value
        if x is None:
            return "-"
        if isinstance(x, int) or x.denominator == 1:
            return str(int(x))
        exact = f"{float(x):.6f}".rstrip("0")
        return exact if Fraction(exact) == x else f"{float(x):.3f}"

    @property
    def parts(self) -> tuple[Part, ...]:
        if self.raw:
            # (round, opponent, units, why), or a Buchholz-family Item (round, opponent,
            # score, units, VUR, reason)
            rows = ((e[0], e[1], e[3], e[5]) if len(e) == 6 else e for e in self.raw)
            return tuple(Part(r, o, units * self.unit, why if isinstance(why, str) else _reason_text(why))
                         for r, o, units, why in rows)
        return self.given


@dataclass
class Context:
    """What the tie-breaks share: the record, the text in force, and caches."""

    record: Record
    rules: Rules
    cache: dict[str, object] = field(default_factory=dict)

    def fraction(self, units: int) -> Fraction:
        return Fraction(units, self.record.scale)


Result = dict[int, Value]


# -- Art. 16: unplayed rounds in the Buchholz family ---------------------------------------


def _adjusted_scores(ctx: Context, fore: bool) -> dict[int, int]:
    """A participant's score as his opponents' Buchholz counts it (16.3): his points,
    except that the unplayed rounds after the last round he was present in (he withdrew
    or left) count as draws.  For fore-Buchholz (8.2) a game of the last round counts
    as a draw, and so a player paired in it was present to the end."""
    key = f"adjusted:{fore}"
    if key in ctx.cache:
        return ctx.cache[key]  # type: ignore[return-value]
    rec = ctx.record
    out: dict[int, int] = {}
    for pid, facts in rec.facts.items():
        fore_here = fore and _fore_applies(rec, facts)
        # for fore-Buchholz a player paired in the last round was present in it
        last_present = rec.rounds if fore_here else max((f.round for f in facts if not f.vur), default=0)
        total = 0
        for f in facts:
            if fore_here and f.round == rec.rounds:
                total += rec.draw
            elif f.round <= last_present or f.opponent is not None:
                total += f.points
            else:
                total += rec.draw
        out[pid] = total
    ctx.cache[key] = out
    return out


def _fore_applies(rec: Record, facts: tuple[RoundFact, ...]) -> bool:
    """Fore-Buchholz changes a player's last round only when the standings are those of
    the tournament's last round and he was paired in it."""
    last = max(rec.t.total_rounds or 0, rec.rounds)
    return rec.rounds == last and bool(facts) and facts[-1].opponent is not None


# An item of the Buchholz family: (round, opponent, score, value, vur, why) -- score the
# opponent's (or dummy's) score in units, value what the item adds (the score for BH,
# score x points for SB, in units^2), why a reason for _reason_text.
Item = tuple[int, int | None, int, int, bool, tuple[int, str, int | None, int, int | None, bool, int]]
_OPPONENT, _DUMMY, _CAPPED_FORFEIT, _CAPPED_BYE = range(4)


def _reason_text(why: tuple[int, str, int | None, int, int | None, bool, int]) -> str:
    """Why a Buchholz-family item is worth what it is, told only when asked for."""
    code, kind, opponent, score, points, vur, scale = why
    kind = Kind(kind).value
    text = {
        _OPPONENT: f"{kind}: opponent {opponent}'s score",
        _DUMMY: f"{kind}: dummy opponent with the player's own score (16.4)",
        _CAPPED_FORFEIT: f"{kind}: no more than opponent {opponent}'s score (2026, 16.4.1)",
        _CAPPED_BYE: f"{kind}: no more than half a point a round (2026, 16.4.2)",
    }[code]
    if vur:
        text += "; voluntarily unplayed (VUR)"
    if points is not None:
        text += f" ({Value(Fraction(score, scale)).text}) x points scored ({Value(Fraction(points, scale)).text})"
    return text


def _buchholz_items(ctx: Context, tb: TieBreak, fore: bool, sb: bool) -> dict[int, list[Item]]:
    """Every player's items, shared by the codes that differ only in their cut."""
    key = f"items:{fore}:{sb}:{tb.played}"
    if key in ctx.cache:
        return ctx.cache[key]  # type: ignore[return-value]
    rec = ctx.record
    adjusted = _adjusted_scores(ctx, fore)
    cap_2026 = ctx.rules is Rules.Y2026
    half_of_rounds = rec.draw * rec.rounds
    last, scale, draw, played_too = rec.rounds, rec.scale, rec.draw, tb.played
    out: dict[int, list[Item]] = {}
    for pid, facts in rec.facts.items():
        own = rec.total[pid]
        fore_here = fore and _fore_applies(rec, facts)
        if fore_here:
            own += draw - facts[-1].points
        items: list[Item] = []
        for f in facts:
            opponent = f.opponent
            if opponent is not None and (f.played or played_too or (fore_here and f.round == last)):
                score, vur, code = adjusted[opponent], False, _OPPONENT
            else:
                score, vur, code = own, f.vur, _DUMMY
                if cap_2026:
                    if opponent is not None and adjusted[opponent] < score:
                        score, code = adjusted[opponent], _CAPPED_FORFEIT
                    elif opponent is None and half_of_rounds < score:
                        score, code = half_of_rounds, _CAPPED_BYE
            if sb:
                points = draw if fore_here and f.round == last else f.points
                items.append((f.round, opponent, score, score * points, vur,
                              (code, f.kind, opponent, score, points, vur, scale)))
            else:
                items.append((f.round, opponent, score, score, vur, (code, f.kind, opponent, score, None, vur, scale)))
        out[pid] = items
    ctx.cache[key] = out
    return out


def cut(items: list[Item], low: int, high: int, rounds: int) -> tuple[list[Item], list[int]]:
    """Cut-n and Median-n (14.1-14.4): drop the n least significant values (the lowest
    opponent's score), and for a median then the n most significant.  With voluntarily
    unplayed rounds the lowest VUR contribution is cut instead, as long as it is not
    below the least significant value (16.5.1; for SB 16.5.2: the higher of the two),
    once per cut.  The 2024 and 2026 texts word 16.5 alike."""
    low = min(low, rounds)
    high = min(high, rounds - low)
    if not low and not high:
        return items, []
    kept = list(items)
    removed: list[int] = []
    for _ in range(low):
        if not kept:
            break
        least = min(kept, key=lambda i: (i[2], i[3], i[0]))
        vurs = [i for i in kept if i[4]]
        vur = min(vurs, key=lambda i: (i[3], i[2], i[0])) if vurs else None
        drop = vur if vur is not None and vur[3] >= least[3] else least
        kept.remove(drop)
        removed.append(drop[0])
    for _ in range(high):
        if not kept:
            break
        drop = max(kept, key=lambda i: (i[2], i[3], -i[0]))
        kept.remove(drop)
        removed.append(drop[0])
    return kept, removed


def _buchholz_family(ctx: Context, tb: TieBreak, fore: bool, sb: bool) -> Result:
    rec = ctx.record
    unit = Fraction(1, rec.scale * rec.scale) if sb else Fraction(1, rec.scale)
    out: Result = {}
    for pid, items in _buchholz_items(ctx, tb, fore, sb).items():
        kept, removed = cut(items, tb.cut_low, tb.cut_high, rec.rounds)
        total = sum(i[3] for i in kept)
        out[pid] = Value(total * unit, cut=tuple(removed), raw=tuple(items), unit=unit, key=total)
    return out


def bh(ctx: Context, tb: TieBreak) -> Result:
    """BH, Buchholz (8.1): the sum of the scores of the participant's opponents; each
    unplayed round of the participant is a game against a dummy opponent (16.4); with
    C/M modifiers the least (and most) significant values are cut (14)."""
    return _buchholz_family(ctx, tb, fore=False, sb=False)


def fb(ctx: Context, tb: TieBreak) -> Result:
    """FB, Fore-Buchholz (8.3): Buchholz computed as if every game of the last round had
    been drawn."""
    return _buchholz_family(ctx, tb, fore=True, sb=False)


def sb(ctx: Context, tb: TieBreak) -> Result:
    """SB, Sonneborn-Berger (9.1): the sum, over the rounds, of each opponent's score
    multiplied by the points the participant scored against him; unplayed rounds as in
    the Buchholz family (16.4)."""
    return _buchholz_family(ctx, tb, fore=False, sb=True)


def esb(ctx: Context, tb: TieBreak) -> Result:
    """ESB, Extended Sonneborn-Berger (13.x, team tie-breaks): match points times game
    points; for an individual tournament the two scores are one, and ESB is SB."""
    return sb(ctx, tb)


def aob(ctx: Context, tb: TieBreak) -> Result:
    """AOB, Average of Opponents' Buchholz (8.2): the mean of the Buchholz (with the
    code's cut modifiers; with F the fore-Buchholz) of the opponents the participant
    played over the board."""
    base = fb(ctx, tb) if tb.fore else bh(ctx, tb)
    rec = ctx.record
    out: Result = {}
    for pid, facts in rec.facts.items():
        parts = [Part(f.round, f.opponent, base[f.opponent].value, f"opponent {f.opponent}'s Buchholz")
                 for f in facts if f.played and f.opponent is not None]
        values = [p.value for p in parts if p.value is not None]
        out[pid] = Value(Fraction(sum(values)) / len(values) if values else None, tuple(parts))
    return out


# -- Art. 7: counting rounds --------------------------------------------------------------


def _count(ctx: Context, test: Callable[[RoundFact], bool], why: str) -> Result:
    out: Result = {}
    for pid, facts in ctx.record.facts.items():
        raw = tuple((f.round, f.opponent, 1, why) for f in facts if test(f))
        out[pid] = Value(len(raw), raw=raw, key=len(raw))
    return out


def win(ctx: Context, tb: TieBreak) -> Result:
    """WIN, Number of Wins (7.1): rounds in which the participant scored, with or without
    playing, the points of a win."""
    w = ctx.record.win
    return _count(ctx, lambda f: f.points == w, "scored a win's points")


def won(ctx: Context, tb: TieBreak) -> Result:
    """WON, Number of Games Won (7.2): games won over the board."""
    w = ctx.record.win
    return _count(ctx, lambda f: f.played and f.points == w, "won over the board")


def bpg(ctx: Context, tb: TieBreak) -> Result:
    """BPG, Number of Games Played with Black (7.3); unplayed games do not count."""
    return _count(ctx, lambda f: f.played and f.colour is not None and f.colour.value == "b", "played with black")


def bwg(ctx: Context, tb: TieBreak) -> Result:
    """BWG, Number of Games Won with Black (7.4), over the board."""
    w = ctx.record.win
    return _count(ctx, lambda f: f.played and f.points == w and f.colour is not None and f.colour.value == "b",
                  "won with black")


def rep(ctx: Context, tb: TieBreak) -> Result:
    """REP (GE in the 2024 text), Rounds one Elected to Play (7.6): the rounds that are
    not voluntarily unplayed (16.2): games, forfeit wins, pairing-allocated and
    full-point byes."""
    return _count(ctx, lambda f: not f.vur, "not a voluntarily unplayed round")


ge = rep


def ps(ctx: Context, tb: TieBreak) -> Result:
    """PS, Progressive Score (7.5): the sum of the participant's running scores after
    each round; C<n> leaves out the first n rounds."""
    rec = ctx.record
    out: Result = {}
    for pid, facts in rec.facts.items():
        running = total = 0
        parts = []
        for f in facts:
            running += f.points
            counted = f.round > tb.cut_low
            parts.append(Part(f.round, f.opponent, ctx.fraction(running),
                              "score after the round" + ("" if counted else ", cut")))
            if counted:
                total += running
        out[pid] = Value(ctx.fraction(total), tuple(parts), tuple(range(1, min(tb.cut_low, rec.rounds) + 1)))
    return out


def ks(ctx: Context, tb: TieBreak) -> Result:
    """KS, Koya System (9.2): the points scored against opponents who scored at least
    half the maximum (the limit moved by an L modifier)."""
    rec = ctx.record
    limit = tb.limit_percent / 100 * rec.win * rec.rounds + tb.limit_offset * rec.scale
    out: Result = {}
    for pid, facts in rec.facts.items():
        parts, cut = [], []
        for f in facts:
            if f.opponent is None:
                continue
            if rec.total[f.opponent] >= limit:
                parts.append(Part(f.round, f.opponent, ctx.fraction(f.points), "opponent reached the limit"))
            else:
                cut.append(f.round)
        out[pid] = Value(sum((p.value for p in parts if p.value is not None), Fraction(0)), tuple(parts),
                         tuple(cut))
    return out


def pts(ctx: Context, tb: TieBreak) -> Result:
    """PTS, the points (Art. 4): the primary score."""
    rec = ctx.record
    unit = Fraction(1, rec.scale)
    return {pid: Value(ctx.fraction(rec.total[pid]), raw=tuple((f.round, f.opponent, f.points, f.kind.value)
                                                                for f in facts), unit=unit, key=rec.total[pid])
            for pid, facts in rec.facts.items()}


def tpn(ctx: Context, tb: TieBreak) -> Result:
    """TPN, the tournament pairing number (7.8, 2026 text): the lower ranks first, with
    R the higher."""
    return {pid: Value(pid) for pid in ctx.record.facts}


def std(ctx: Context, tb: TieBreak) -> Result:
    """STD, Standard Points (7.7, 2026 text): each round scored 1, 1/2 or 0 as it scored
    more than, as much as or less than a draw (the scoring system's points aside)."""
    rec = ctx.record
    out: Result = {}
    for pid, facts in rec.facts.items():
        raw = tuple((f.round, f.opponent, 2 if f.points > rec.draw else 1 if f.points == rec.draw else 0,
                     "standard points of the round") for f in facts)
        total = sum(r[2] for r in raw)
        out[pid] = Value(Fraction(total, 2), raw=raw, unit=Fraction(1, 2), key=total)
    return out


# -- Art. 10: ratings ----------------------------------------------------------------------


def _rating_of(ctx: Context, tb: TieBreak, pid: int) -> int | None:
    rating = ctx.record.t.player(pid).rating
    return rating if rating > 0 else tb.unrated


def _all_rated(ctx: Context, tb: TieBreak) -> bool:
    """Without a rating for the unrated published (U), a tournament with an unrated
    participant leaves the rating-based tie-breaks undefined (Art. 10)."""
    return tb.unrated is not None or all(p.rating > 0 for p in ctx.record.t.players)


_UNDEFINED = "undefined: an unrated participant and no rating for the unrated given (U)"


def rtng(ctx: Context, tb: TieBreak) -> Result:
    """RTNG, the participant's rating (10.6, 2026 text); with R the lower first."""
    ok = _all_rated(ctx, tb)
    return {pid: Value(_rating_of(ctx, tb, pid) if ok else None, note="" if ok else _UNDEFINED)
            for pid in ctx.record.facts}


def _opponents(ctx: Context, tb: TieBreak, pid: int) -> list[tuple[RoundFact, int]]:
    """The rated opponents of the games played (unplayed games do not count, 10.1)."""
    out = []
    for f in ctx.record.facts[pid]:
        if f.played and f.opponent is not None:
            r = _rating_of(ctx, tb, f.opponent)
            if r is not None:
                out.append((f, r))
    return out


def _game_score(ctx: Context, f: RoundFact) -> Fraction:
    """A game's result as the rating rules count it: 1, 1/2 or 0."""
    rec = ctx.record
    return Fraction(1) if f.points >= rec.win else Fraction(1, 2) if f.points >= rec.draw and f.points > 0 else Fraction(0)


def aro(ctx: Context, tb: TieBreak) -> Result:
    """ARO, Average Rating of Opponents (10.1): the mean rating of the opponents played,
    rounded to a whole number; C/M cut the lowest (and highest) rated."""
    ok = _all_rated(ctx, tb)
    out: Result = {}
    for pid in ctx.record.facts:
        games = _opponents(ctx, tb, pid)
        parts = tuple(Part(f.round, f.opponent, r, "opponent's rating") for f, r in games)
        if not ok:
            out[pid] = Value(None, parts, note=_UNDEFINED)
            continue
        ranked = sorted(games, key=lambda g: (g[1], g[0].round))
        low = min(tb.cut_low, len(ranked))
        high = min(tb.cut_high, len(ranked) - low)
        cut = [g[0].round for g in ranked[:low]] + [g[0].round for g in ranked[len(ranked) - high:]]
        kept = ranked[low:len(ranked) - high]
        out[pid] = Value(average([r for _, r in kept]), parts, tuple(cut))
    return out


def _performances(ctx: Context, tb: TieBreak, perfect: bool) -> Result:
    key = f"perf:{perfect}:{tb.unrated}"
    if key in ctx.cache:
        return ctx.cache[key]  # type: ignore[return-value]
    ok = _all_rated(ctx, tb)
    out: Result = {}
    for pid in ctx.record.facts:
        games = _opponents(ctx, tb, pid)
        score = sum((_game_score(ctx, f) for f, _ in games), Fraction(0))
        ratings = [r for _, r in games]
        parts = tuple(Part(f.round, f.opponent, r, f"opponent's rating, scored {_game_score(ctx, f)}")
                      for f, r in games)
        fn = perfect_performance if perfect else performance
        out[pid] = Value(fn(score, ratings) if ok else None, parts, note="" if ok else _UNDEFINED)
    ctx.cache[key] = out
    return out


def tpr(ctx: Context, tb: TieBreak) -> Result:
    """TPR, Tournament Performance Rating (10.2): ARO plus dp of the fractional score
    (FIDE rating table 8.1a), over the games played."""
    return _performances(ctx, tb, perfect=False)


def ptp(ctx: Context, tb: TieBreak) -> Result:
    """PTP, Perfect Tournament Performance (10.3): the lowest rating whose expected score
    (table 8.1b) against the opponents played reaches the participant's score."""
    return _performances(ctx, tb, perfect=True)


def _average_of_opponents(ctx: Context, tb: TieBreak, base: Result, what: str) -> Result:
    out: Result = {}
    for pid, facts in ctx.record.facts.items():
        parts = tuple(Part(f.round, f.opponent, base[f.opponent].value, f"opponent {f.opponent}'s {what}")
                      for f in facts if f.played and f.opponent is not None)
        values = [int(p.value) for p in parts if p.value is not None]
        undefined = not _all_rated(ctx, tb)
        out[pid] = Value(None if undefined else average(values), parts, note=_UNDEFINED if undefined else "")
    return out


def apro(ctx: Context, tb: TieBreak) -> Result:
    """APRO, Average Performance Rating of Opponents (10.4): the mean of the opponents'
    TPR, rounded."""
    return _average_of_opponents(ctx, tb, tpr(ctx, tb), "TPR")


def appo(ctx: Context, tb: TieBreak) -> Result:
    """APPO, Average Perfect Performance of Opponents (10.5): the mean of the opponents'
    PTP, rounded."""
    return _average_of_opponents(ctx, tb, ptp(ctx, tb), "PTP")


TIEBREAKS: dict[str, Callable[[Context, TieBreak], Result]] = {
    "PTS": pts, "TPN": tpn, "RTNG": rtng, "WIN": win, "WON": won, "BPG": bpg, "BWG": bwg, "GE": ge, "REP": rep,
    "PS": ps, "KS": ks, "STD": std, "BH": bh, "FB": fb, "AOB": aob, "SB": sb, "ESB": esb, "ARO": aro, "TPR": tpr, "PTP": ptp,
    "APRO": apro, "APPO": appo,
}
