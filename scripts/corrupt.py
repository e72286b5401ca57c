"""Feed randomly corrupted TRF files to `cpsat-pairing info` and count the exit codes.

Usage: python scripts/corrupt.py [--runs 1000] [--seed 1] [FILE ...]
(default files: tests/fixtures/corpus/**/*.trf). A corrupted file must either read (exit
0) or be rejected as invalid input (exit 3) with a `FILE:LINE:COLUMN: message` line;
exit 2 (unexpected error) or a traceback is a bug. Exits 1 if any run hit one.

`corrupt(text, rng)` is also used by tests/test_corruption.py, driven by Hypothesis.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from a checkout

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


def _text(path: Path) -> str:
    data = path.read_bytes()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def main(argv: list[str]) -> int:
    from typer.testing import CliRunner

    from cpsat_pairing.interface.cli import app

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    files = args.files or sorted((ROOT / "tests" / "fixtures" / "corpus").rglob("*.trf"))
    texts = [(f, _text(f)) for f in files]
    rng = random.Random(args.seed)
    runner = CliRunner()
    codes: Counter[int] = Counter()
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        target = Path(tmp) / "corrupted.trf"
        for run in range(args.runs):
            source, text = rng.choice(texts)
            new, done = corrupt(text, rng)
            target.write_text(new, encoding="utf-8")
            result = runner.invoke(app, ["info", str(target)])
            codes[result.exit_code] += 1
            if result.exit_code not in (0, 3) or "Traceback" in result.output:
                bad += 1
                print(f"run {run}: exit {result.exit_code} from {source.name} after {done}")
                print("   ", (result.output.strip().splitlines() or [repr(result.exception)])[-1])
    summary = "  ".join(f"exit {code}: {n}" for code, n in sorted(codes.items()))
    print(f"runs {args.runs}  {summary}  bad {bad}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
