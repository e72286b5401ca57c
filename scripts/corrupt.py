"""Feed randomly corrupted TRF files to `cpsat-pairing info` and count the exit codes.

Usage: python scripts/corrupt.py [--runs 1000] [--seed 1] [FILE ...]
(default files: tests/fixtures/corpus/**/*.trf). A corrupted file must either read (exit
0) or be rejected as invalid input (exit 3) with a `FILE:LINE:COLUMN: message` line;
exit 2 (unexpected error) or a traceback is a bug. Exits 1 if any run hit one.

The corruptions are `cpsat_pairing.testing.corrupt` (also used by the tests, driven by
Hypothesis).
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from a checkout

from cpsat_pairing.testing.corrupt import corrupt  # noqa: E402

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
