"""The pair list that bbpPairings and JaVaFo write with `-p`: the number of lines, then
one `white black` line per board and `id 0` for the pairing-allocated bye."""

from __future__ import annotations

from collections.abc import Sequence


def write_pair_list(pairs: Sequence[tuple[int, int]], bye: int | None) -> str:
    lines = [f"{white} {black}" for white, black in pairs]
    if bye is not None:
        lines.append(f"{bye} 0")
    return "\n".join([str(len(lines)), *lines]) + "\n"


def read_pair_list(text: str) -> tuple[list[tuple[int, int]], int | None]:
    """The boards (white, black) and the bye of a pair list.

    Raises:
        ValueError: not a pair list (the count does not match, a line is not two ids).
    """
    rows = [line.split() for line in text.splitlines() if line.strip()]
    if not rows or len(rows[0]) != 1 or not rows[0][0].isdigit() or int(rows[0][0]) != len(rows) - 1:
        raise ValueError("a pair list starts with the number of lines that follow")
    pairs: list[tuple[int, int]] = []
    bye = None
    for row in rows[1:]:
        if len(row) != 2 or not all(x.isdigit() for x in row):
            raise ValueError(f"expected 'white black', found {' '.join(row)!r}")
        white, black = int(row[0]), int(row[1])
        if black == 0:
            bye = white
        else:
            pairs.append((white, black))
    return pairs, bye
