"""The `001` player record: identity, points and the round blocks from column 92."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from fractions import Fraction
from functools import lru_cache

from cpsat_pairing.domain.tournament import PENDING_RESULT, Colour, Player, RoundEntry
from cpsat_pairing.formats.fields import FieldError, int_at, points_at
from cpsat_pairing.formats.layout import (
    BIRTH_COLS, FEDERATION_COLS, FIDE_ID_COLS, ID_COLS, NAME_COLS, POINTS_COLS, RANK_COLS, RATING_COLS,
    RESULT_CODES, ROUND1_COL, ROUND_STRIDE, SEX_COLS, TITLE_COLS, block_col,
)

Warn = Callable[[int, int, str], None]  # (line, column, message)


def parse_player(line: str, number: int, warn: Warn) -> Player:
    """The record on line `number`; `warn` is told of what is ignored."""
    # The identity columns, blank-padded once for all their fields.
    head = line[: RANK_COLS[1]].ljust(RANK_COLS[1])
    pid = int_at(head[ID_COLS[0] - 1 : ID_COLS[1]], ID_COLS[0], "starting rank")
    if pid < 1:
        raise FieldError(ID_COLS[0], "starting rank must be at least 1")
    rating_text = head[RATING_COLS[0] - 1 : RATING_COLS[1]]
    points_text = head[POINTS_COLS[0] - 1 : POINTS_COLS[1]]
    rank_text = head[RANK_COLS[0] - 1 : RANK_COLS[1]]
    return Player(
        id=pid,
        name=head[NAME_COLS[0] - 1 : NAME_COLS[1]].strip(),
        rating=int_at(rating_text, RATING_COLS[0], "rating") if rating_text.strip() else 0,
        sex=head[SEX_COLS[0] - 1 : SEX_COLS[1]].strip(),
        title=head[TITLE_COLS[0] - 1 : TITLE_COLS[1]].strip(),
        federation=head[FEDERATION_COLS[0] - 1 : FEDERATION_COLS[1]].strip(),
        fide_id=head[FIDE_ID_COLS[0] - 1 : FIDE_ID_COLS[1]].strip(),
        birth_date=head[BIRTH_COLS[0] - 1 : BIRTH_COLS[1]].strip(),
        declared_points=_points(points_text) if points_text.strip() else None,
        rank=int_at(rank_text, RANK_COLS[0], "rank") if rank_text.strip() else None,
        rounds=parse_blocks(line, pid, number, warn),
    )


def _raw_blocks(line: str) -> Iterator[str]:
    """The text of each round block: from column 92, 10 columns each."""
    for col in range(ROUND1_COL, len(line) + 1, ROUND_STRIDE):
        yield line[col - 1 : col + ROUND_STRIDE - 1].ljust(ROUND_STRIDE)


@lru_cache(maxsize=1024)
def _points(text: str) -> Fraction:
    """The Points column's value (`points_at`), by its text: a file has few distinct
    scores, and a decimal's conversion to a Fraction costs more than a line's fields."""
    return points_at(text, POINTS_COLS[0], "points")


def parse_blocks(line: str, pid: int, number: int, warn: Warn) -> tuple[RoundEntry | None, ...]:
    """Round blocks from column 92, 10 columns each; trailing absent rounds dropped.

    A well-formed block is read by its text alone (`_well_formed`, cached: a file's
    blocks repeat across its lines and its rounds); the rest, which raise or warn,
    through `parse_block`."""
    blocks: list[RoundEntry | None] = []
    for rnd, block in enumerate(_raw_blocks(line), start=1):
        entry = None
        if block.strip():
            entry = _well_formed(block)
            if entry is None or entry.opponent == pid:
                entry = parse_block(block, block_col(rnd), pid, rnd, number, warn)
        blocks.append(entry)
    while blocks and blocks[-1] is None:
        blocks.pop()
    return tuple(blocks)


_COLOURS = {"w": Colour.WHITE, "W": Colour.WHITE, "b": Colour.BLACK, "B": Colour.BLACK, "-": None, " ": None}


@lru_cache(maxsize=4096)
def _well_formed(block: str) -> RoundEntry | None:
    """The entry of a block that `parse_block` reads without an error or a warning,
    else None (that block goes to `parse_block`, which says what is wrong).  It does
    not depend on the player: `parse_block` also rejects the player's own number as
    his opponent, which the caller checks."""
    block = block.ljust(ROUND_STRIDE)
    if block[4] != " " or block[6] != " " or block[8] != " " or block[9] != " ":
        return None
    opp_text = block[:4].strip()
    if opp_text and not (opp_text.isascii() and opp_text.isdigit()):
        return None
    opponent = int(opp_text) if opp_text.strip("0") else None
    char = block[5]
    if char not in _COLOURS:
        return None
    colour = _COLOURS[char]
    if opponent is None and colour is not None:
        return None  # the colour is ignored, with a warning
    code = block[7]
    if code == " ":
        result = PENDING_RESULT if opponent is not None else "Z"
    else:
        code = code.upper()
        if len(code) != 1 or code not in RESULT_CODES:
            return None
        result = "H" if opponent is None and code in "=D" else code
    return RoundEntry(opponent, colour, result)


def writes_bye_code(line: str) -> bool:
    """Does the player line write a bye code (`0000 - U/F/H`) in some round?  A
    half-point bye written as a draw (`0000 - =`) is the older way and does not count
    (trf_read._legacy_pab)."""
    return any(len(block) > 7 and not block[:4].strip("0 ") and block[7].upper() in "UFH"
               for block in _raw_blocks(line))


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
