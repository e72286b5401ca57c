"""Scoring records: TRF-2026 `162`, JaVaFo `XXS`, bbpPairings `BB*`, read and written."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction

from cpsat_pairing.domain.tournament import Scoring
from cpsat_pairing.errors import LimitExceeded
from cpsat_pairing.formats.layout import Line, format_points

@dataclass
class ScoringBuilder:
    """Point values as the records set them, in file order (later records win).

    The three sources differ in what one symbol covers: 162 `W` and bbp `BBW` also set
    forfeit wins and full-point byes (and the PAB unless a `P`/`BBU` gave it); JaVaFo's
    `XXS W` sets WW, BW, FW and FPB but not PAB. `values` holds White's game points and
    `black` Black's (XXS BW/BD/BL); they must agree in the end.
    """

    values: dict[str, Fraction] = field(
        default_factory=lambda: {f.name: getattr(Scoring(), f.name) for f in dataclasses.fields(Scoring)}
    )
    black: dict[str, Fraction] = field(
        default_factory=lambda: {"win": Fraction(1), "draw": Fraction(1, 2), "loss": Fraction(0)}
    )
    pab_explicit: bool = False
    colour_line: int | None = None  # last XXS line that set one colour only

    def set(self, names: Iterable[str], value: Fraction) -> None:
        for name in names:
            self.values[name] = value
            if name in self.black:
                self.black[name] = value

    def set_win(self, value: Fraction, *, with_pab: bool) -> None:
        self.set(("win", "forfeit_win", "fpb"), value)
        if with_pab and not self.pab_explicit:
            self.values["pab"] = value

    def set_pab(self, value: Fraction) -> None:
        self.values["pab"] = value
        self.pab_explicit = True

    def build(self) -> Scoring:
        return Scoring(**self.values)


XXS_FIELDS: dict[str, tuple[str, ...]] = {
    "ZPB": ("zpb",), "HPB": ("hpb",), "FPB": ("fpb",), "PAB": ("pab",), "FW": ("forfeit_win",),
    "FL": ("forfeit_loss",), "W": ("win", "forfeit_win", "fpb"), "D": ("draw", "hpb"),
}
XXS_ONE_COLOUR = {"WW": ("values", "win"), "WD": ("values", "draw"), "WL": ("values", "loss"),
                   "BW": ("black", "win"), "BD": ("black", "draw"), "BL": ("black", "loss")}
BB_FIELDS = {"BBD": ("draw", "hpb"), "BBL": ("loss",), "BBZ": ("zpb",), "BBF": ("forfeit_loss",)}
FIELDS_162 = {"D": ("draw", "hpb"), "L": ("loss",), "A": ("zpb", "forfeit_loss"), "Z": ("zpb", "forfeit_loss")}


# --- writing ----------------------------------------------------------------------------


def fits_bb(s: Scoring) -> bool:
    return s.forfeit_win == s.win and s.fpb == s.win and s.hpb == s.draw


def fits_162(s: Scoring) -> bool:
    return s.forfeit_win == s.win and s.fpb == s.win and s.hpb == s.draw and s.zpb == s.forfeit_loss


def bb_lines(s: Scoring) -> list[str]:
    values = (("BBW", s.win), ("BBD", s.draw), ("BBL", s.loss), ("BBZ", s.zpb),
              ("BBF", s.forfeit_loss), ("BBU", s.pab))
    return [f"{code} {format_points(v):>4}" for code, v in values]


def xxs_line(s: Scoring) -> str:
    values = (("WW", s.win), ("BW", s.win), ("WD", s.draw), ("BD", s.draw), ("WL", s.loss),
              ("BL", s.loss), ("ZPB", s.zpb), ("HPB", s.hpb), ("FPB", s.fpb), ("PAB", s.pab),
              ("FW", s.forfeit_win), ("FL", s.forfeit_loss))
    return "XXS " + " ".join(f"{code}={format_points(v)}" for code, v in values)


def line_162(s: Scoring) -> str:
    line = Line("162")
    pairs = (("W", s.win), ("D", s.draw), ("L", s.loss), ("A", s.zpb), ("P", s.pab))
    for i, (symbol, value) in enumerate(pairs):
        text = format_points(value)
        if len(text) > 4:
            raise LimitExceeded(f"162: points {text} do not fit 4 columns")
        line.put(6 + 9 * i, symbol).put(7 + 9 * i, f"{text:>4}")
    return str(line)
