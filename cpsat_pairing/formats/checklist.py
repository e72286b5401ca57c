"""Checklists: the per-player summary of a round that the reference engines write with
`-l`, in bbpPairings' layout (which Sharly Chess parses) and in JaVaFo's.

Both are tab-separated tables, every cell right-aligned to its column's widest entry and
followed by a tab, with a blank line between scoregroups.  The writers take the rows as
plain data (`ChecklistRow`); apps/checklist.py computes them from a round's state.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True)
class ChecklistRow:
    """One player of the round, as a checklist shows him."""

    id: int
    score: Fraction  # the pairing score (with acceleration)
    colours: str  # "W"/"B" per game played, oldest first
    preference: str  # "W", "B" or "" (none)
    strength: str  # "absolute", "strong", "mild" or "none"
    colour_difference: int
    repeated: bool  # the last two games with the same colour
    pab_allowed: bool  # [C2]
    floats: tuple[str, str]  # the float of the last round and of the one before: "U", "D" or ""
    current: tuple[int | str, str] | None  # this round's opponent and colour ("W"/"B"); None: the PAB; ("", ""): none
    opponents: tuple[int | None, ...]  # per round played so far: the opponent over the board, or None


def _table(header: list[str], rows: list[list[str]], groups: list[bool]) -> str:
    """Cells right-aligned to their column, each followed by a tab; a blank line before
    the first row and before each row that starts a scoregroup."""
    widths = [max(len(cell) for cell in column) for column in zip(header, *rows)]

    def line(cells: list[str]) -> str:
        return "".join(f"{cell:>{w}}\t" for cell, w in zip(cells, widths))

    out = ["", line(header)]
    for row, starts_group in zip(rows, groups):
        if starts_group:
            out.append("")
        out.append(line(row))
    return "\n".join(out)


def _points(x: Fraction) -> str:
    return f"{float(x):.1f}"


def _groups(rows: Sequence[ChecklistRow]) -> list[bool]:
    return [i == 0 or rows[i - 1].score != r.score for i, r in enumerate(rows)]


def bbp_checklist(rows: Sequence[ChecklistRow], played: int, banner: str, float_names: tuple[str, str]) -> str:
    """bbpPairings' Dutch checklist: ID, Pts, the colour history (its header a dash per
    round played and one more), Pref, C2 (PAB allowed), the float columns (bbpPairings 6
    names them C14/C16, 5 C12/C14), Cur (this round's opponent and colour, `(bye)`),
    an empty column, then each round's opponent (blank when no game was played); the
    banner last, without a newline (none: "")."""
    header = ["ID", "Pts", "-" * (played + 1), "Pref", "C2", *float_names, "Cur", "",
              *(f"R{r}" for r in range(1, played + 1))]
    body = []
    for r in rows:
        pref = "A " if not r.preference else (
            f"{r.preference} " if r.strength == "absolute" else
            f"({r.preference})" if r.strength == "strong" else f"{r.preference.lower()} ")
        cur = "(bye)" if r.current is None else f"({r.current[0]}{r.current[1]})" if r.current[0] != "" else ""
        body.append([str(r.id), _points(r.score), r.colours, pref, "Y" if r.pab_allowed else "N",
                     r.floats[0] or " ", r.floats[1] or " ", cur, "",
                     *("" if o is None else str(o) for o in r.opponents)])
    return _table(header, body, _groups(rows)) + "\n\n\n" + banner


def javafo_preference(r: ChecklistRow) -> str:
    """JaVaFo's preference codes: WWW (absolute, colour difference beyond 1 and the same
    colour twice), WW (difference beyond 1), W1 (the same colour twice, difference 1), W
    (twice, difference 0), (W) strong, (w) mild, A none; B for Black alike."""
    c = r.preference
    if not c:
        return "A"
    if r.strength == "absolute":
        if abs(r.colour_difference) > 1:
            return c * 3 if r.repeated else c * 2
        return f"{c}1" if abs(r.colour_difference) == 1 else c
    return f"({c})" if r.strength == "strong" else f"({c.lower()})"


def javafo_checklist(rows: Sequence[ChecklistRow], games: int) -> str:
    """JaVaFo's check-list as its manual shows it: ID, Pts, the colour history (a column
    one wider than the games played), Pref, the floats of the last two rounds (▲ up,
    ▼ down), Cur (`(pab)` for the bye), then the opponents of the last `games` games
    played (G-n ... G-1); `[X]` in the first of those columns marks a player who may not
    receive the PAB (before the opponent, when he has played every round).  The manual's
    sample starts with the header line."""
    header = ["ID", "Pts", " " + "-" * games, "Pref", "-1R", "-2R", "Cur", *(f"G-{g}" for g in range(games, 0, -1))]
    arrow = {"U": " ▲ ", "D": " ▼ ", "": ""}
    body = []
    for r in rows:
        last = [o for o in r.opponents if o is not None][-games:] if games else []
        cells = [""] * (games - len(last)) + [str(o) for o in last]
        if not r.pab_allowed and games:
            cells[0] = "[X]" + cells[0]
        cur = "(pab)" if r.current is None else f"({r.current[0]}{r.current[1]})" if r.current[0] != "" else ""
        body.append([str(r.id), _points(r.score), r.colours, javafo_preference(r), arrow[r.floats[0]],
                     arrow[r.floats[1]], cur, *cells])
    return _table(header, body, _groups(rows)).removeprefix("\n") + "\n"
