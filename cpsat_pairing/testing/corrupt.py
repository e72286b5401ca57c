"""Randomly corrupted TRF text: changed characters, deleted parts of lines, swapped
digits, inserted garbage, lost, duplicated or truncated lines.  A corrupted file must
either read or be rejected with a located error (file, line, column), never crash."""

from __future__ import annotations

import random
from collections.abc import Callable

GARBAGE = ["x", "-", "+", "0", "9", " ", "  ", "\t", "é", "?", "=", "w", "b", "Z", "001 ", "\x00", "12.5", "XXR"]


def _player_lines(lines: list[str]) -> list[int]:
    return [i for i, line in enumerate(lines) if line.startswith("001")] or list(range(len(lines)))


def change_char(lines: list[str], rng: random.Random) -> str:
    i = rng.choice(_player_lines(lines))
    line = lines[i]
    if not line:
        return "noop"
    j = rng.randrange(len(line))
    new = rng.choice("0123456789 -+=wbWBDLHFUZ.x?é\t")
    lines[i] = line[:j] + new + line[j + 1 :]
    return f"line {i + 1} col {j + 1}: {line[j]!r} -> {new!r}"


def delete_part(lines: list[str], rng: random.Random) -> str:
    i = rng.randrange(len(lines))
    line = lines[i]
    if not line:
        return "noop"
    j = rng.randrange(len(line))
    k = rng.randint(j + 1, min(len(line), j + 12))
    lines[i] = line[:j] + line[k:]
    return f"line {i + 1}: deleted cols {j + 1}-{k}"


def swap_digits(lines: list[str], rng: random.Random) -> str:
    i = rng.choice(_player_lines(lines))
    line = lines[i]
    spots = [j for j in range(len(line) - 1) if line[j].isdigit() or line[j + 1].isdigit()]
    if not spots:
        return "noop"
    j = rng.choice(spots)
    lines[i] = line[:j] + line[j + 1] + line[j] + line[j + 2 :]
    return f"line {i + 1}: swapped cols {j + 1}-{j + 2}"


def insert_garbage(lines: list[str], rng: random.Random) -> str:
    i = rng.randrange(len(lines))
    line = lines[i]
    j = rng.randint(0, len(line))
    junk = rng.choice(GARBAGE)
    lines[i] = line[:j] + junk + line[j:]
    return f"line {i + 1} col {j + 1}: inserted {junk!r}"


def delete_line(lines: list[str], rng: random.Random) -> str:
    i = rng.randrange(len(lines))
    del lines[i]
    return f"deleted line {i + 1}"


def duplicate_line(lines: list[str], rng: random.Random) -> str:
    i = rng.randrange(len(lines))
    lines.insert(rng.randint(0, len(lines)), lines[i])
    return f"duplicated line {i + 1}"


def truncate_line(lines: list[str], rng: random.Random) -> str:
    i = rng.choice(_player_lines(lines))
    cut = rng.randint(0, len(lines[i]))
    lines[i] = lines[i][:cut]
    return f"line {i + 1}: cut at col {cut + 1}"


OPERATIONS: list[Callable[[list[str], random.Random], str]] = [
    change_char, delete_part, swap_digits, insert_garbage, delete_line, duplicate_line, truncate_line,
]


def corrupt(text: str, rng: random.Random, steps: int | None = None) -> tuple[str, list[str]]:
    """Apply 1-3 random corruptions; return the new text and what was done."""
    lines = text.splitlines() or [""]
    done = []
    for _ in range(steps or rng.randint(1, 3)):
        op = rng.choice(OPERATIONS)
        done.append(f"{op.__name__}: {op(lines, rng)}")
        if not lines:
            lines = [""]
    return "\n".join(lines) + "\n", done
