"""The `001` player record: identity, points and the round blocks from column 92."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from cpsat_pairing.domain.tournament import PENDING_RESULT, Colour, Player, RoundEntry
from cpsat_pairing.formats.fields import FieldError, cols, int_at, points_at
from cpsat_pairing.formats.layout import (
    BIRTH_COLS, FEDERATION_COLS, FIDE_ID_COLS, ID_COLS, NAME_COLS, POINTS_COLS, RANK_COLS, RATING_COLS,
    RESULT_CODES, SEX_COLS, TITLE_COLS, block_col,
)

Warn = Callable[[int, int, str], None]  # (line, column, message)


def parse_player(line: str, number: int, warn: Warn) -> Player:
    """The record on line `number`; `warn` is told of what is ignored."""
    pid = int_at(cols(line, *ID_COLS), ID_COLS[0], "starting rank")
    if pid < 1:
        raise FieldError(ID_COLS[0], "starting rank must be at least 1")
    rating_text = cols(line, *RATING_COLS)
    points_text = cols(line, *POINTS_COLS)
    rank_text = cols(line, *RANK_COLS)
    return Player(
        id=pid,
        name=cols(line, *NAME_COLS).strip(),
        rating=int_at(rating_text, RATING_COLS[0], "rating") if rating_text.strip() else 0,
        sex=cols(line, *SEX_COLS).strip(),
        title=cols(line, *TITLE_COLS).strip(),
        federation=cols(line, *FEDERATION_COLS).strip(),
        fide_id=cols(line, *FIDE_ID_COLS).strip(),
        birth_date=cols(line, *BIRTH_COLS).strip(),
        declared_points=points_at(points_text, POINTS_COLS[0], "points") if points_text.strip() else None,
        rank=int_at(rank_text, RANK_COLS[0], "rank") if rank_text.strip() else None,
        rounds=parse_blocks(line, pid, number, warn),
    )


def _raw_blocks(line: str) -> Iterator[tuple[int, int, str]]:
    """(round, column, text) of each round block: from column 92, 10 columns each."""
    rnd = 1
    while block_col(rnd) <= len(line):
        col = block_col(rnd)
        yield rnd, col, cols(line, col, col + 9)
        rnd += 1


def parse_blocks(line: str, pid: int, number: int, warn: Warn) -> tuple[RoundEntry | None, ...]:
    """Round blocks from column 92, 10 columns each; trailing absent rounds dropped."""
    blocks = [parse_block(block, col, pid, rnd, number, warn) if block.strip() else None
              for rnd, col, block in _raw_blocks(line)]
    while blocks and blocks[-1] is None:
        blocks.pop()
    return tuple(blocks)


def writes_bye_code(line: str) -> bool:
    """Does the player line write a bye code (`0000 - U/F/H`) in some round?  A
    half-point bye written as a draw (`0000 - =`) is the older way and does not count
    (trf_read._legacy_pab)."""
    return any(len(block) > 7 and not block[:4].strip("0 ") and block[7].upper() in "UFH"
               for _, _, block in _raw_blocks(line))


def parse_block(block: str, col: int, pid: int, rnd: int, number: int, warn: Warn) -> RoundEntry:
    for offset in (4, 6, 8, 9):
        if block[offset] != " ":
            raise FieldError(col + offset, f"round {rnd}: unexpected {block[offset]!r}; a round block "
                              "is `OOOO C R` (opponent, colour, result) in 10 columns")
    opp_text = block[:4]
    opponent: int | None = None
    if opp_text.strip() and opp_text.strip().strip("0"):
        opponent = int_at(opp_text, col, f"round {rnd} opponent")
    elif opp_text.strip():
        int_at(opp_text, col, f"round {rnd} opponent")  # zeros only: reject e.g. "0 0"
    if opponent == pid:
        raise FieldError(col, f"round {rnd}: player {pid} cannot be their own opponent")
    colour = parse_colour(block[5], col + 5, rnd)
    result = parse_result(block[7], col + 7, rnd, opponent)
    if opponent is None and colour is not None:
        warn(number, col + 5, f"round {rnd}: colour {block[5]!r} without an opponent ignored")
        colour = None
    return RoundEntry(opponent, colour, result)


def parse_colour(char: str, col: int, rnd: int) -> Colour | None:
    low = char.lower()
    if low == "w":
        return Colour.WHITE
    if low == "b":
        return Colour.BLACK
    if char in "- ":
        return None
    raise FieldError(col, f"round {rnd}: colour must be w, b or -, found {char!r}")


def parse_result(char: str, col: int, rnd: int, opponent: int | None) -> str:
    if char == " ":
        return PENDING_RESULT if opponent is not None else "Z"
    code = char.upper()
    if len(code) != 1 or code not in RESULT_CODES:
        raise FieldError(col, f"round {rnd}: unknown result code {char!r} (expected one of + - W D L 1 0 = H F U Z)")
    if opponent is None and code in "=D":
        return "H"  # `0000 - =`: a half-point bye written as a draw (ICU files)
    return code
