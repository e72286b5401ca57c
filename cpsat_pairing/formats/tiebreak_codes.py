"""Tie-break codes as TRF-2026 writes them (records `202` and `212`) and as people type
them: `BH/C1`, `BH-C1`, `bh/c1`, separated by commas or spaces.

A code is a base (C.07's acronym) and modifiers: `C<n>` cut the n least significant
values, `M<n>` median (cut n at each end), `L<limit>` Koya limit (`L+1` / `L-1` half
points above or below 50 %, `L+1.5` points, `L60` percent of the maximum), `P`
forfeits counted as played against the scheduled opponent, `F` (AOB) the opponents'
fore-Buchholz, `R` reversed order (RTNG, TPN), `U<rating>` the rating given to unrated
players (what the tournament's regulations published).
Every code is written back in one canonical spelling, `BASE/MOD/MOD`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from cpsat_pairing.errors import InputError

__all__ = ["BASES", "TEAM_BASES", "TieBreak", "parse_tiebreak", "parse_tiebreaks"]

# base code -> modifiers it takes
BASES: dict[str, str] = {
    "PTS": "", "TPN": "R", "RTNG": "UR", "STD": "",
    "DE": "P", "EDE": "P",
    "WIN": "", "WON": "", "BPG": "", "BWG": "", "GE": "", "REP": "",
    "PS": "C", "KS": "LP",
    "BH": "CMP", "FB": "CMP", "AOB": "CMPF", "SB": "CMP", "ESB": "CMP",
    "ARO": "CMU", "TPR": "U", "PTP": "U", "APRO": "U", "APPO": "U",
}
# Team tie-breaks (C.07 Art. 11-13): read so that a team file's 202 stays readable.
TEAM_BASES: dict[str, str] = {
    "MPTS": "", "GPTS": "", "MPVGP": "", "EDEC": "P", "EDET": "P", "EDEB": "P", "EDEBT": "P", "EDEBB": "P",
    "EMMSB": "CMP", "EMGSB": "CMP", "EGMSB": "CMP", "EGGSB": "CMP", "BC": "", "TBR": "", "BBE": "", "SSSC": "",
}
BASES.update(TEAM_BASES)

_TOKEN = re.compile(r"^([A-Z]+)(:(?:MP|GP|MM|MG|GM|GG))?((?:[/\-#!][A-Z][0-9.+\-]*)*)$")
_MODIFIER = re.compile(r"[/\-#!]([A-Z])([0-9.+\-]*)")
_SPLIT = re.compile(r"[^\s,;]+")


@dataclass(frozen=True, slots=True)
class TieBreak:
    """One tie-break of an ordered list, with its modifiers."""

    code: str  # canonical spelling, e.g. "BH/C1"
    base: str
    cut_low: int = 0
    cut_high: int = 0
    played: bool = False  # `P`: unplayed games counted as played
    limit_percent: Fraction = Fraction(50)  # `L`: Koya limit
    limit_offset: Fraction = Fraction(0)
    unrated: int | None = None  # `U`: the rating of unrated players
    reverse: bool = False  # `R`: lower ranks first (RTNG, TPN)
    fore: bool = False  # `F`: AOB of the opponents' fore-Buchholz


def parse_tiebreak(token: str) -> TieBreak | str:
    """The tie-break `token` names, or the reason it names none.  `OTHER_<name>` is a
    tie-break the tournament's regulations define (MTB26): read, never computed."""
    if re.fullmatch(r"OTHER_\w+", token, flags=re.IGNORECASE):
        return TieBreak(token.upper(), "OTHER")
    m = _TOKEN.match(token.upper())
    if m is None or m.group(1) not in BASES:
        return f"unknown tie-break code {token!r}"
    base, allowed = m.group(1), BASES[m.group(1)]
    cut_low = cut_high = 0
    played = reverse = fore = False
    percent, offset = Fraction(50), Fraction(0)
    unrated: int | None = None
    mods: list[str] = []
    for letter, arg in _MODIFIER.findall(m.group(3)):
        if letter not in allowed:
            return f"tie-break {token!r}: {base} takes no modifier {letter!r}"
        if letter in "CM":
            if not arg.isdigit():
                return f"tie-break {token!r}: {letter} needs a number of values to cut"
            cut_low = int(arg)
            cut_high = int(arg) if letter == "M" else 0
        elif letter in "PRF":
            if arg:
                return f"tie-break {token!r}: {letter} takes no argument"
            played, reverse, fore = played or letter == "P", reverse or letter == "R", fore or letter == "F"
        elif letter == "U":
            if not arg.isdigit():
                return f"tie-break {token!r}: U needs a rating"
            unrated = int(arg)
        elif letter == "L":
            parsed = _limit(arg)
            if parsed is None:
                return f"tie-break {token!r}: L needs a limit (L60, L+1, L-1, L+1.5)"
            percent, offset = parsed
        mods.append(letter + arg)
    code = "/".join([base + (m.group(2) or ""), *mods])
    return TieBreak(code, base, cut_low, cut_high, played, percent, offset, unrated, reverse, fore)


def _limit(arg: str) -> tuple[Fraction, Fraction] | None:
    if arg.isdigit():
        return Fraction(int(arg)), Fraction(0)
    if len(arg) >= 2 and arg[0] in "+-" and re.fullmatch(r"\d+(\.\d+)?", arg[1:]):
        sign = 1 if arg[0] == "+" else -1
        value = Fraction(arg[1:]) if "." in arg else Fraction(int(arg[1:]), 2)
        return Fraction(50), sign * value
    return None


def parse_tiebreaks(text: str, *, file: str = "--tiebreaks", line: int = 1, column: int = 1,
                    line_text: str | None = None) -> tuple[TieBreak, ...]:
    """An ordered list of tie-breaks; `column` is where `text` starts in its line.

    Raises:
        InputError: a code is unknown or malformed (naming it, with its column).
    """
    out: list[TieBreak] = []
    for m in _SPLIT.finditer(text):
        parsed = parse_tiebreak(m.group(0))
        if isinstance(parsed, str):
            raise InputError(parsed, file=file, line=line, column=column + m.start(), text=line_text)
        out.append(parsed)
    return tuple(out)
