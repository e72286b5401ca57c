"""The layout of TRF records: the columns of the `001` player line, limits and codes
(TRF16, C.04 Annex-2; unchanged in TRF-2026), and how points are written."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from functools import lru_cache

from cpsat_pairing.domain.tournament import PENDING_RESULT
from cpsat_pairing.errors import LimitExceeded

DIALECTS = ("trf16", "trf26")

ID_COLS = (5, 8)
SEX_COLS = (10, 10)
TITLE_COLS = (11, 13)
NAME_COLS = (15, 47)
RATING_COLS = (49, 52)
FEDERATION_COLS = (54, 56)
FIDE_ID_COLS = (58, 68)
BIRTH_COLS = (70, 79)
POINTS_COLS = (81, 84)
RANK_COLS = (86, 89)
ROUND1_COL = 92  # round r: opponent 92+10(r-1) .. +3, colour +5, result +7
ROUND_STRIDE = 10
MAX_ROUNDS = 999  # round numbers have 3 columns in 240/250/260
MAX_ID = 9999  # starting ranks have 4 columns

RESULT_CODES = frozenset("+-WDL10=HFUZ")
# Result pairs that two opponents may record for one scheduled game.
COMPLEMENTARY = frozenset(
    {("1", "0"), ("0", "1"), ("=", "="), ("W", "L"), ("L", "W"), ("D", "D"),
     ("+", "-"), ("-", "+"), ("-", "-"), (PENDING_RESULT, PENDING_RESULT)}
)
TRF26_CODES = frozenset({"142", "152", "162", "192", "202", "212", "240", "250", "260"})
TRF16X_CODES = frozenset(
    {"XXR", "XXC", "XXS", "XXA", "XXP", "XXZ", "BBW", "BBD", "BBL", "BBZ", "BBF", "BBU"}
)



def block_col(rnd: int) -> int:
    """Column of round `rnd`'s opponent field."""
    return ROUND1_COL + ROUND_STRIDE * (rnd - 1)


@lru_cache(maxsize=256)
def points_text(value: Fraction) -> str:
    """Points as people read them: `4`, `5.5`, `0.25` (never `11/2`).  Cached: every
    bracket labels its tiers by score, and a tournament has few distinct scores."""
    text = format_points(value)
    return text[:-2] if text.endswith(".0") else text


def format_points(value: Fraction) -> str:
    """Points as TRF writes them: `11.5`, `4.0`, `0.25` (at least one decimal, exact)."""
    if value.denominator == 1:
        return f"{value.numerator}.0"
    text = f"{Decimal(value.numerator) / Decimal(value.denominator):f}"
    if Fraction(Decimal(text)) != value:
        raise LimitExceeded(f"points {value} cannot be written as a decimal number")
    return text


class Line:
    """A record being laid out by columns."""

    def __init__(self, code: str) -> None:
        self.chars: list[str] = list(code)

    def put(self, column: int, text: str) -> Line:
        end = column - 1 + len(text)
        if len(self.chars) < end:
            self.chars.extend(" " * (end - len(self.chars)))
        self.chars[column - 1 : end] = list(text)
        return self

    def __str__(self) -> str:
        return "".join(self.chars).rstrip()
