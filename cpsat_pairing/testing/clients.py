"""Files as the programs that call a pairing engine write them, for the round to pair.

Each client is written from what its public sources (or, for closed programs, its manual
and its public exports) show: the records it writes, where it puts each field, how it
marks byes and the players left out of the round, its line endings, and the command
line it runs the engine with.  From a reference-paired tournament and a round R, each
writer gives the file that client would hand its engine before round R (rounds
1..R-1, the players left out of R marked its way); paired through that client's
command line, it must give round R of the reference file.

Player numbers stay the reference file's: some clients renumber players every round
(heltour by standings, lichess by rating), which changes the tournament, not the layout.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Callable
from dataclasses import dataclass

from cpsat_pairing.domain.tournament import Colour, Player, RoundEntry, Tournament, player_points
from cpsat_pairing.testing.corpus import as_replayed, is_left_out

# A block as the client writes it, from the reference block (None: no block).
Block = Callable[[RoundEntry | None], str]


@dataclass(frozen=True)
class Client:
    """One program that calls a pairing engine."""

    name: str
    file_name: str  # the engine input's name as the client makes it
    write: Callable[[Tournament, int, int], str]  # (tournament, round to pair, the year it started)
    # the engine's command line: (input, output) -> argv; output None means stdout
    argv: Callable[[str, str], list[str]]
    pairs_on_stdout: bool = False


def _points(p: Player, t: Tournament, upto: int) -> float:
    return float(player_points(p, t.scoring, upto))


def _rounds(t: Tournament, p: Player, rnd: int) -> list[RoundEntry | None]:
    return [p.entry(r) for r in range(1, rnd)]


def _place(width: int, *fields: tuple[int, str]) -> str:
    """A line with each text starting at its (1-based) column."""
    line = [" "] * width
    for col, text in fields:
        line[col - 1 : col - 1 + len(text)] = list(text)
    return "".join(line).rstrip()


def _colour(e: RoundEntry) -> str:
    return e.colour.value if e.colour is not None else "-"


def _left_out_code(t: Tournament, p: Player, rnd: int) -> str:
    """The reference file's reason for leaving `p` out of round `rnd`: H, F or Z."""
    e = p.entry(rnd)
    return e.result if e is not None and e.result in "HF" else "Z"


def _date(rnd: int, year: int) -> datetime.date:
    """A plausible date for round `rnd` (one a week), in `year`."""
    return datetime.date(year, 3, 14) + datetime.timedelta(days=7 * (rnd - 1))


# --- heltour (Lichess4545 leagues) -> JaVaFo ----------------------------------------------


def heltour(t: Tournament, rnd: int, year: int = 2026) -> str:
    """heltour's bare file: `XXR`, then `001` lines with only the id (columns 6-8) and the
    points (81-84); blocks `{opp:>6} {colour} {result}`; a game not played as `+`/`-`/`=`
    with its opponent; byes without opponent as `0000 - +` (the PAB included), `0000 - =`,
    `0000 - -`; a player left out of the round to pair gets `0000 - -`.  LF."""
    t = as_replayed(t)
    lines = [f"XXR {t.total_rounds}"]
    for p in sorted(t.players, key=lambda q: q.id):
        line = f"001  {p.id:>3}  {_points(p, t, rnd - 1):74.1f}     "
        for e in _rounds(t, p, rnd):
            if e is None:
                line += f"{'0000':>6} - -"
            elif e.opponent is None:
                code = {"U": "+", "F": "+", "H": "=", "Z": "-"}[e.result]
                line += f"{'0000':>6} - {code}"
            else:
                line += f"{e.opponent:>6} {_colour(e)} {e.result}"
        if is_left_out(t, p.id, rnd):
            line += f"{'0000':>6} - -"
        lines.append(line)
    return "\n".join(lines) + "\n"


# --- lichess (lila swiss) -> bbpPairings --------------------------------------------------


def lichess(t: Tournament, rnd: int, year: int = 2026) -> str:
    """lila's engine input: its header (012 ... 102, `042` as "May 10, 2020"), `XXR`,
    `XXC`; `001` lines in the database's order (not by id), the username from column 16;
    rounds without a game have no `0000` (`       U` PAB, `       H` a half point,
    `       -` absent); a player left out of the round to pair gets `0000   -`.  LF, no
    final newline."""
    t = as_replayed(t)
    start = _date(1, year)
    colour = "white1" if t.initial_colour is not Colour.BLACK else "black1"
    lines = [f"012 {t.name or 'Swiss'}", "022 https://lichess.org/swiss/abcdefgh", "032 Lichess",
             f"042 {start.strftime('%b')} {start.day}, {start.year}", "052 ", f"062 {len(t.players)}",
             "092 Individual: Swiss-System", "102 https://lichess.org/swiss", f"XXR {t.total_rounds}",
             f"XXC {colour}"]
    players = sorted(t.players, key=lambda q: q.id)
    random.Random(len(players) * 1000 + rnd).shuffle(players)  # Mongo's natural order
    for p in players:
        username = (p.name or f"player{p.id}").replace(" ", "").replace(",", "")[:20]
        fields = [(1, "001"), (5, f"{p.id:>4}"), (16, username), (49, f"{p.rating or 1500:>4}"),
                  (81, f"{_points(p, t, rnd - 1):>4.1f}")]
        for r, e in enumerate(_rounds(t, p, rnd), start=1):
            col = 92 + 10 * (r - 1)
            if e is None or e.opponent is None:
                code = "-" if e is None or e.result == "Z" else e.result
                fields.append((col + 7, code))
            else:
                fields += [(col, f"{e.opponent:>4}"), (col + 5, _colour(e)), (col + 7, e.result)]
        if is_left_out(t, p.id, rnd):
            col = 92 + 10 * (rnd - 1)
            fields += [(col, "0000"), (col + 7, "-")]
        lines.append(_place(92 + 10 * rnd, *fields))
    return "\n".join(lines)


# --- SwissSys -> bbpPairings (PrePair.trf) ------------------------------------------------


def _standard_001(p: Player, t: Tournament, rnd: int, block: Block, points: float,
                  title: str = "", birth: str = "") -> str:
    fields = [(1, "001"), (5, f"{p.id:>4}"), (10, p.sex or "m"), (11, f"{title:>3}"),
              (15, (p.name or f"Player {p.id}")[:33]), (49, f"{p.rating:>4}" if p.rating else ""),
              (54, (p.federation or "USA")[:3]), (58, f"{p.fide_id:>11}" if p.fide_id else ""),
              (70, birth or p.birth_date), (81, f"{points:>4.1f}"), (86, f"{p.id:>4}")]
    for r, e in enumerate(_rounds(t, p, rnd), start=1):
        fields.append((92 + 10 * (r - 1), block(e)))
    return _place(92 + 10 * rnd, *fields)


def _standard_block(e: RoundEntry | None) -> str:
    if e is None:
        return "0000 - Z"
    if e.opponent is None:
        return f"0000 - {e.result}"
    return f"{e.opponent:>4} {_colour(e)} {e.result}"


def swisssys(t: Tournament, rnd: int, year: int = 2026) -> str:
    """SwissSys's `PrePair.trf` as its manual describes it: the player records with
    names, ratings and results, `XXR`, `XXC`, `BBU` (the PAB's value), the excluded
    players marked in the round to pair (`0000 - Z`, the form bbpPairings documents).
    CRLF (a Windows program)."""
    t = as_replayed(t)
    colour = "white1" if t.initial_colour is not Colour.BLACK else "black1"
    lines = [f"012 {t.name or 'Club Swiss'}", f"062 {len(t.players)}", f"XXR {t.total_rounds}",
             f"XXC {colour}", f"BBU {float(t.scoring.pab):4.1f}"]
    for p in sorted(t.players, key=lambda q: q.id):
        line = _standard_001(p, t, rnd, _standard_block, _points(p, t, rnd - 1))
        if is_left_out(t, p.id, rnd):
            line = line.ljust(91 + 10 * (rnd - 1)) + f"0000 - {_left_out_code(t, p, rnd)}"
        lines.append(line)
    return "\r\n".join(lines) + "\r\n"


# --- Sharly Chess -> bbpPairings (TRF-2026) -----------------------------------------------


def sharly(t: Tournament, rnd: int, year: int = 2026) -> str:
    """Sharly Chess's TRF-2026: `###` rulers between sections, `132` dates up to the
    round before, `142`, `152`, `172`, `182`, `192`, `212`; `001` blocks only up to the
    round before; every pre-entered bye and absence as a `240` record, one per round
    and type for the rounds so far and the round to pair.  No XX records.  LF."""
    t = as_replayed(t)
    start = _date(1, year)
    dates = "  ".join(_date(r, year).strftime("%y/%m/%d") for r in range(1, rnd))
    lines = [f"012 {t.name or 'Club Open'}", f"042 {start:%Y/%m/%d}", f"062 {len(t.players)}", ""]
    if dates:
        lines += ["###" + " " * 88 + "RRRRRRR1", "132" + " " * 88 + dates]
    lines += [f"142 {t.total_rounds}", f"152 {'B' if t.initial_colour is Colour.BLACK else 'W'}", "172 FIDON",
              "182 Sharly Chess", "192 FIDE_DUTCH_2025", "212 PTS,BH", "",
              "### SSSS sTTT NNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNN RRRR FFF IIIIIIIIIII BBBB/BB/BB PPPP RRRR  1111 1 1"]
    byes: dict[tuple[str, int], list[int]] = {}
    for p in sorted(t.players, key=lambda q: q.id):
        lines.append(_standard_001(p, t, rnd, _standard_block, _points(p, t, rnd - 1), title="g" if p.id == 1 else ""))
        for r in range(1, rnd + 1):
            e = p.entry(r)
            if r == rnd and is_left_out(t, p.id, rnd):
                byes.setdefault((_left_out_code(t, p, rnd), r), []).append(p.id)
            elif r < rnd and e is not None and e.opponent is None and e.result in "HFZ":
                byes.setdefault((e.result, r), []).append(p.id)
    if byes:
        lines += ["", "### T RRR PPP1"]
        for (code, r), ids in sorted(byes.items(), key=lambda kv: (kv[0][1], kv[0][0])):
            lines.append(f"240 {code} {r:>3}" + "".join(f" {i:>4}" for i in ids))
    return "\n".join(lines) + "\n"


# --- Vega -> JaVaFo -----------------------------------------------------------------------


def vega(t: Tournament, rnd: int, year: int = 2026) -> str:
    """Vega's TRF(x) as its manual and its public export show it: the full header
    (`042` as DD/MM/YYYY, an empty `112`), `XXR`, `XXC rank` from round 2 (the colour
    before round 1); titles in capitals at columns 12-13, birth dates `01.01.1987`,
    a rating of 0 written `   0`; a player left out of the round to pair marked
    `0000 - -` (absent) or `0000 - =` (a half-point bye).  CRLF."""
    t = as_replayed(t)
    start = _date(1, year)
    lines = [f"012 {t.name or 'Vega tournament'}", "022 Melbourne", "032 AUS", f"042 {start:%d/%m/%Y}",
             f"052 {_date(t.total_rounds or 1, start.year):%d/%m/%Y}", f"062 {len(t.players)}",
             f"072 {sum(1 for p in t.players if p.rating)}", "082 0", "092 Individual: Swiss-System",
             "102 Arbiter", "112 ", "122 moves/time, increment", f"XXR {t.total_rounds}"]
    if rnd == 1:
        lines.append(f"XXC {'black1' if t.initial_colour is Colour.BLACK else 'white1'}")
    else:
        lines.append("XXC rank")

    def block(e: RoundEntry | None) -> str:
        if e is None or (e.opponent is None and e.result == "Z"):
            return "0000 - -"
        if e.opponent is None:
            return f"0000 - {'=' if e.result == 'H' else e.result}"
        return f"{e.opponent:>4} {_colour(e)} {e.result}"

    for p in sorted(t.players, key=lambda q: q.id):
        fields = [(1, "001"), (5, f"{p.id:>4}"), (10, p.sex or "m"), (12, "CM" if p.id == 1 else ""),
                  (15, (p.name or f"Player {p.id}")[:33]), (49, f"{p.rating:>4}"), (54, "AUS"),
                  (58, f"{p.fide_id or 0:>11}"), (70, "01.01.1987"), (81, f"{_points(p, t, rnd - 1):>4.1f}"),
                  (86, f"{p.id:>4}")]
        for r, e in enumerate(_rounds(t, p, rnd), start=1):
            fields.append((92 + 10 * (r - 1), block(e)))
        if is_left_out(t, p.id, rnd):
            fields.append((92 + 10 * (rnd - 1), "0000 - =" if _left_out_code(t, p, rnd) == "H" else "0000 - -"))
        lines.append(_place(92 + 10 * rnd, *fields) + " ")
    return "\r\n".join(lines) + "\r\n"


# --- Swiss-Manager's export (a finished or partial tournament, for `check`) ---------------


def swiss_manager(t: Tournament, rnd: int, year: int = 2026) -> str:
    """Swiss-Manager's TRF16 export (its FIDE rating report) of rounds 1..rnd-1: the
    header with `042` as DD.MM.YYYY and the `132` round dates, lower-case titles, the
    rank filled; no engine records (no XXR, no XXC): the rounds are the ones played."""
    t = as_replayed(t)
    start = _date(1, year)
    dates = "  ".join(_date(r, start.year).strftime("%y/%m/%d") for r in range(1, rnd))
    lines = [f"012 {t.name or 'Open'}", "022 Graz", "032 AUT", f"042 {start:%d.%m.%Y}",
             f"052 {_date(rnd - 1, start.year):%d.%m.%Y}", f"062 {len(t.players)}", "092 Individual: Swiss-System",
             "102 IA Arbiter", "132" + " " * 88 + dates]
    for p in sorted(t.players, key=lambda q: q.id):
        lines.append(_standard_001(p, t, rnd, _standard_block, _points(p, t, rnd - 1),
                                   title="g" if p.id == 1 else "", birth="1990/01/01"))
    return "\r\n".join(lines) + "\r\n"


CLIENTS: dict[str, Client] = {
    "heltour": Client("heltour", "tmpab12cd.trfx", heltour,
                      lambda src, out: [src, "-p", out, "-q", "10000"]),
    "lichess": Client("lichess", "lila-swiss-abcdefgh-5-bbp", lichess,
                      lambda src, out: ["--dutch", src, "-p"], pairs_on_stdout=True),
    "swisssys": Client("swisssys", "PrePair.trf", swisssys,
                       lambda src, out: ["--dutch", src, "-p"], pairs_on_stdout=True),
    "sharly": Client("sharly", "pairings-input.trfx", sharly,
                     lambda src, out: ["--dutch", src, "-p", out, "-l", "checklist-output.txt"]),
    "vega": Client("vega", "tournament.trfx", vega, lambda src, out: [src, "-p", out]),
}
