"""`standings`: the ranking after a round, and the rows it returns."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cpsat_pairing.apps.standings.ranking import rank
from cpsat_pairing.apps.standings.record import Rules, build_record, choose_rules, last_complete_round
from cpsat_pairing.apps.standings.tiebreaks import TIEBREAKS, Context, Value
from cpsat_pairing.domain.tournament import Tournament
from cpsat_pairing.errors import InputError
from cpsat_pairing.formats.tiebreak_codes import TEAM_BASES, TieBreak, parse_tiebreak, parse_tiebreaks

__all__ = ["DEFAULT_TIEBREAKS", "Row", "Standings", "standings"]

# When a file declares none: C.07 (2024, 2026) names no default list (2.1, 4.1.1 leave
# it to the regulations and the Chief Arbiter); this is the usual list of an individual
# Swiss, none of it rating-based.
DEFAULT_TIEBREAKS = "BH/C1 BH SB DE WIN"


@dataclass(frozen=True)
class Row:
    id: int
    name: str
    rank: int
    points: Value
    tiebreaks: dict[str, Value]


@dataclass(frozen=True)
class Standings:
    round: int
    rules: Rules
    rules_why: str
    tiebreaks: tuple[str, ...]
    source: str  # where the list came from: "asked", "file 202", "file 212", "default"
    rows: tuple[Row, ...]

    def row(self, pid: int) -> Row:
        return next(r for r in self.rows if r.id == pid)


def _chosen(t: Tournament, tiebreaks: str | Sequence[str] | None) -> tuple[tuple[TieBreak, ...], str]:
    if tiebreaks is not None:
        text = tiebreaks if isinstance(tiebreaks, str) else " ".join(tiebreaks)
        return parse_tiebreaks(text), "asked"
    if t.tiebreaks:
        return tuple(_known(c) for c in t.tiebreaks), "file 202"
    if t.standings_order:
        codes = [c for c in t.standings_order if _known(c).base != "PTS"]
        return tuple(_known(c) for c in codes), "file 212"
    return parse_tiebreaks(DEFAULT_TIEBREAKS), "default"


def _known(code: str) -> TieBreak:
    tb = parse_tiebreak(code)
    assert not isinstance(tb, str), tb  # the reader validated the file's codes
    return tb


def _values(ctx: Context, tb: TieBreak, t: Tournament) -> dict[int, Value]:
    if tb.base in TIEBREAKS:
        return TIEBREAKS[tb.base](ctx, tb)
    if tb.base in TEAM_BASES:
        return {p.id: Value(None, note="a team tie-break: undefined for individual players") for p in t.players}
    if tb.base == "OTHER":
        return {p.id: Value(None, note="defined by the tournament's regulations, not by C.07") for p in t.players}
    return {}  # DE and EDE: values set while ranking


def standings(t: Tournament, round: int | None = None, tiebreaks: str | Sequence[str] | None = None,
              rules: str | None = None) -> Standings:
    """The standings after `round`.

    Raises:
        InputError: a tie-break code is unknown (named, with its column).
        InputError: `round` is outside the rounds played, or `rules` is not 2024/2026.
    """
    last = last_complete_round(t)
    rnd = last if round is None else round
    if not 0 <= rnd <= max(last, t.rounds_played):
        raise InputError(f"--round {rnd}: the file has rounds 1 to {t.rounds_played}", file=t.source or "<string>")
    if rules is not None and rules not in ("2024", "2026"):
        raise InputError(f"--tiebreak-rules {rules!r}: expected 2024 or 2026", file=t.source or "<string>")
    chosen, source = _chosen(t, tiebreaks)
    which, why = choose_rules(t, rules)
    ctx = Context(build_record(t, rnd), which)
    points = TIEBREAKS["PTS"](ctx, _known("PTS"))
    values = [(tb, _values(ctx, tb, t)) for tb in chosen]
    order = rank(ctx, [(_known("PTS"), points), *values], [p.id for p in t.players])
    rows = tuple(
        Row(pid, t.player(pid).name, i, points[pid], {tb.code: v[pid] for tb, v in values})
        for i, pid in enumerate(order, start=1)
    )
    return Standings(rnd, which, why, tuple(tb.code for tb in chosen), source, rows)
