"""Reading the fields of TRF records: fixed columns as the specifications define them,
with whitespace-separated tokens as the fallback for hand-edited files.

Every function raises `FieldError` (a reason and the column it points at); the reader
adds the file and line."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import TypeVar

from cpsat_pairing.formats.layout import MAX_ID, MAX_ROUNDS

class FieldError(Exception):
    """A short reason and the column it points at; the reader loop adds file and line."""

    def __init__(self, column: int, message: str) -> None:
        super().__init__(message)
        self.column = column
        self.message = message


def cols(line: str, first: int, last: int) -> str:
    """Columns first..last (1-based, inclusive), blank-padded when the line is short."""
    return line[first - 1 : last].ljust(last - first + 1)


def is_digits(text: str) -> bool:
    return text.isascii() and text.isdigit()


def int_at(text: str, column: int, what: str, limit: int | None = None) -> int:
    """A non-negative integer (surrounding blanks allowed), at most `limit`."""
    stripped = text.strip()
    if not is_digits(stripped):
        raise FieldError(column + lead(text), f"{what}: expected a number, found {stripped!r}")
    value = int(stripped)
    if limit is not None and value > limit:
        raise FieldError(column + lead(text), f"{what}: {value} is more than {limit}")
    return value


def lead(text: str) -> int:
    """Offset of the first non-blank character (where an error should point)."""
    return len(text) - len(text.lstrip()) if text.strip() else 0


def points_at(text: str, column: int, what: str) -> Fraction:
    """A decimal score such as `11.5`, `4.0`, `.5` or `-1`."""
    stripped = text.strip().replace(",", ".")
    body = stripped[1:] if stripped.startswith("-") else stripped
    digits = body.replace(".", "", 1)
    if not digits or not is_digits(digits):
        raise FieldError(column + lead(text), f"{what}: expected points like 11.5, found {stripped!r}")
    try:
        return Fraction(Decimal(stripped))
    except (InvalidOperation, ValueError) as exc:  # pragma: no cover - guarded above
        raise FieldError(column, f"{what}: bad number {stripped!r}") from exc


def tokens(line: str, start_col: int) -> list[tuple[int, str]]:
    """Whitespace-separated tokens from start_col on, each with its 1-based column."""
    out: list[tuple[int, str]] = []
    i = start_col - 1
    n = len(line)
    while i < n:
        if line[i].isspace():
            i += 1
            continue
        j = i
        while j < n and not line[j].isspace():
            j += 1
        out.append((i + 1, line[i:j]))
        i = j
    return out


T = TypeVar("T")


def fixed_or_tokens(fixed: Callable[[], T], tokens: Callable[[], T]) -> T:
    """Read a record by its columns; if that fails, by whitespace; report the column error."""
    try:
        return fixed()
    except FieldError as first:
        try:
            return tokens()
        except FieldError:
            raise first from None


# --- decoding ---------------------------------------------------------------------------


def decode(data: str | bytes) -> tuple[str, str]:
    """Text and the encoding used: UTF-8 (BOM allowed), else latin-1."""
    if isinstance(data, str):
        return data.removeprefix("\ufeff"), "text"
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        return data.decode("latin-1"), "latin-1"


def split_lines(text: str) -> list[str]:
    """Split on CRLF, CR or LF only (str.splitlines would also split on latin-1 NEL)."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


# --- record field readers (fixed columns, with whitespace fallbacks) --------------------


def pairs_162_fixed(line: str) -> list[tuple[int, str, Fraction]]:
    out = []
    col = 6
    while col <= len(line):
        symbol = cols(line, col, col)
        points = cols(line, col + 1, col + 4)
        gap = cols(line, col + 5, col + 8)
        if symbol.strip() or points.strip():
            if not symbol.strip():
                raise FieldError(col, "162: missing result symbol")
            out.append((col, symbol, points_at(points, col + 1, f"162 {symbol}")))
        if gap.strip():
            raise FieldError(col + 5 + lead(gap), "162: unexpected text between symbol/points pairs")
        col += 9
    if not out:
        raise FieldError(6, "162: expected result symbols with points")
    return out


def pairs_162_tokens(line: str) -> list[tuple[int, str, Fraction]]:
    toks = tokens(line, 4)
    out = []
    i = 0
    while i < len(toks):
        col, tok = toks[i]
        if len(tok) > 1:
            out.append((col, tok[0], points_at(tok[1:], col + 1, f"162 {tok[0]}")))
            i += 1
        elif i + 1 < len(toks):
            out.append((col, tok, points_at(toks[i + 1][1], toks[i + 1][0], f"162 {tok}")))
            i += 2
        else:
            raise FieldError(col, f"162: symbol {tok!r} without points")
    if not out:
        raise FieldError(6, "162: expected result symbols with points")
    return out


def fields_240_fixed(line: str) -> tuple[str, int, list[tuple[int, str]]]:
    kind = cols(line, 5, 5).upper()
    if kind not in ("F", "H", "Z") or cols(line, 6, 6).strip() or cols(line, 10, 10).strip():
        raise FieldError(5, f"240: expected bye type F, H or Z at column 5, found {kind!r}")
    rnd = int_at(cols(line, 7, 9), 7, "240 round", MAX_ROUNDS)
    return kind, rnd, id_columns(line, 11)


def fields_240_tokens(line: str) -> tuple[str, int, list[tuple[int, str]]]:
    toks = tokens(line, 4)
    if len(toks) < 3 or toks[0][1].upper() not in ("F", "H", "Z"):
        raise FieldError(5, "240: expected TYPE ROUND ID ...")
    return toks[0][1].upper(), int_at(toks[1][1], toks[1][0], "240 round", MAX_ROUNDS), toks[2:]


def id_columns(line: str, start: int) -> list[tuple[int, str]]:
    """4-column ids at start, start+5, ... separated by blanks."""
    out = []
    col = start
    while col <= len(line):
        text = cols(line, col, col + 3)
        sep = cols(line, col + 4, col + 4)
        if sep.strip():
            raise FieldError(col + 4, "ids must be 4 columns wide, one blank apart")
        if text.strip():
            out.append((col, text))
        col += 5
    return out


def fields_260_fixed(line: str) -> tuple[int, int, list[tuple[int, str]]]:
    if cols(line, 8, 8).strip() or cols(line, 12, 12).strip():
        raise FieldError(8, "260: expected rounds at columns 5-7 and 9-11")
    first = int_at(cols(line, 5, 7), 5, "260 first round", MAX_ROUNDS)
    last = int_at(cols(line, 9, 11), 9, "260 last round", MAX_ROUNDS)
    return first, last, id_columns(line, 13)


def fields_260_tokens(line: str) -> tuple[int, int, list[tuple[int, str]]]:
    toks = tokens(line, 4)
    if len(toks) < 4:
        raise FieldError(5, "260: expected FIRST-ROUND LAST-ROUND ID ID ...")
    return (int_at(toks[0][1], toks[0][0], "260 first round", MAX_ROUNDS),
            int_at(toks[1][1], toks[1][0], "260 last round", MAX_ROUNDS), toks[2:])


def fields_xxa_fixed(line: str) -> tuple[int, list[Fraction]]:
    if cols(line, 9, 9).strip():
        raise FieldError(9, "XXA: expected the player id at columns 5-8")
    pid = int_at(cols(line, 5, 8), 5, "XXA player id", MAX_ID)
    values = []
    col = 10
    while col <= len(line):
        text = cols(line, col, col + 3)
        if cols(line, col + 4, col + 4).strip():
            raise FieldError(col + 4, "XXA: values must be 4 columns wide, one blank apart")
        values.append(points_at(text, col, "XXA points") if text.strip() else Fraction(0))
        col += 5
    return pid, values


def fields_xxa_tokens(line: str) -> tuple[int, list[Fraction]]:
    toks = tokens(line, 4)
    if not toks:
        raise FieldError(5, "XXA: expected a player id")
    pid = int_at(toks[0][1], toks[0][0], "XXA player id", MAX_ID)
    return pid, [points_at(t, c, "XXA points") for c, t in toks[1:]]


def fields_250_fixed(line: str) -> tuple[Fraction, int, int, int, int]:
    for sep in (9, 14, 18, 22, 27):
        if cols(line, sep, sep).strip():
            raise FieldError(sep, "250: fields out of their columns")
    if len(line.rstrip()) > 31:
        raise FieldError(32, "250: unexpected text after the last player id")
    match_points = cols(line, 5, 8)
    game_points = cols(line, 10, 13)
    # Game points for individuals; a team file may give match points only.
    if game_points.strip():
        points = points_at(game_points, 10, "250 fictitious points")
    elif match_points.strip():
        points = points_at(match_points, 5, "250 fictitious match points")
    else:
        raise FieldError(10, "250: fictitious points missing")
    return (points,
            int_at(cols(line, 15, 17), 15, "250 first round", MAX_ROUNDS),
            int_at(cols(line, 19, 21), 19, "250 last round", MAX_ROUNDS),
            int_at(cols(line, 23, 26), 23, "250 first player", MAX_ID),
            int_at(cols(line, 28, 31), 28, "250 last player", MAX_ID))


def fields_250_tokens(line: str) -> tuple[Fraction, int, int, int, int]:
    toks = tokens(line, 4)
    if len(toks) == 6:
        toks = toks[1:]  # match points, then game points
    if len(toks) != 5:
        raise FieldError(5, "250: expected POINTS FIRST-ROUND LAST-ROUND FIRST-ID LAST-ID")
    (pc, pt), *rest = toks
    limits = (MAX_ROUNDS, MAX_ROUNDS, MAX_ID, MAX_ID)
    ints = [int_at(t, c, "250 field", limit) for (c, t), limit in zip(rest, limits, strict=True)]
    return points_at(pt, pc, "250 fictitious points"), ints[0], ints[1], ints[2], ints[3]
