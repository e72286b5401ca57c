"""The FIDE rating tables the rating-based tie-breaks use (FIDE Rating Regulations B.02,
Art. 8.1): (a) a fractional score p to a rating difference dp, (b) a rating difference
to the expected score of the higher-rated player."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from fractions import Fraction

# 8.1(a): dp for p = 0.50, 0.51, ..., 1.00 (p below 0.50: -dp(1 - p)).
_DP_UPPER_HALF = (
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133, 141, 149, 158, 166, 175,
    184, 193, 202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309, 322, 336, 351, 366, 383, 401, 422, 444,
    470, 501, 538, 589, 677, 800,
)
# 8.1(b): the largest rating difference giving the higher-rated player 0.50, 0.51, ...
_PD_LAST_DIFF = (
    3, 10, 17, 25, 32, 39, 46, 53, 61, 68, 76, 83, 91, 98, 106, 113, 121, 129, 137, 145, 153, 162, 170, 179,
    188, 197, 206, 215, 225, 235, 245, 256, 267, 278, 290, 302, 315, 328, 344, 357, 374, 391, 411, 432, 456,
    484, 517, 559, 619, 735,
)


def round_half_up(value: Fraction) -> int:
    """Ratings are whole numbers; halves go up (as the handbook's examples do)."""
    return int((value + Fraction(1, 2)) // 1)


def dp(percent: int) -> int:
    """Table 8.1(a): the rating difference for a score of `percent` % (0-100)."""
    return _DP_UPPER_HALF[percent - 50] if percent >= 50 else -_DP_UPPER_HALF[50 - percent]


def expected_hundredths(rating: int, opponent: int) -> int:
    """Table 8.1(b): `rating`'s expected score against `opponent`, in hundredths."""
    diff = min(abs(rating - opponent), 800)
    pd = 50 + bisect_left(_PD_LAST_DIFF, diff)
    return pd if rating >= opponent else 100 - pd


def average(values: Sequence[int]) -> int | None:
    return round_half_up(Fraction(sum(values), len(values))) if values else None


def performance(score: Fraction, ratings: Sequence[int]) -> int | None:
    """TPR: the opponents' average rating plus dp of the fractional score (rounded to
    whole percent)."""
    if not ratings:
        return None
    percent = round_half_up(score * 100 / len(ratings))
    aro = average(ratings)
    assert aro is not None
    return aro + dp(percent)


def perfect_performance(score: Fraction, ratings: Sequence[int]) -> int | None:
    """PTP: the lowest rating whose expected score against `ratings` reaches `score`
    (table 8.1b, differences beyond 800 counted as 800); a zero score is the lowest
    rating minus 800.  A full score is reached 736 points above the highest rating,
    where the table's expectation becomes 1.00."""
    if not ratings:
        return None
    if score <= 0:
        return min(ratings) - 800
    target = score * 100
    lo, hi = min(ratings) - 800, max(ratings) + 800  # expected(lo) < target <= expected(hi)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if sum(expected_hundredths(mid, r) for r in ratings) >= target:
            hi = mid
        else:
            lo = mid
    return hi
