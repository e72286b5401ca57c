"""Compare our standings with another tie-break calculator's, file by file.

    python scripts/compare_tiebreaks.py --yardstick "CMD -i {file} -t {codes} -d C -r" \
        [--tiebreaks "BH/C1 BH SB ..."] [--rules 2024 --code-suffix /V2024] [--save DIR] FILE_OR_DIR ...

The yardstick is any program that prints, for the file `{file}` and the space-separated
codes `{codes}` (PTS first), a CSV table with a header line `Rank,StartNo,<codes>` and
one line per player.  Players the yardstick leaves tied after the whole list share a
rank there; we order them by pairing number (C.07 4.2: lots), which counts as agreeing
when our ranks fill the shared places.  `--rules` fixes the C.07 text on our side and `--code-suffix`
is appended to every code given to the yardstick (its way of saying the same).
Prints every disagreement (player, tie-break, its value, ours)
and a summary; `--save DIR` stores the yardstick's tables (one CSV per file) so that
the tests can compare against them without the yardstick.
"""

from __future__ import annotations

import argparse
import shlex
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from pathlib import Path

from cpsat_pairing.apps.standings import standings
from cpsat_pairing.formats import read_trf

# FB last: a calculator may carry fore-Buchholz's changed last round into the codes after it.
DEFAULT = "BH/C1 BH SB WIN WON BPG BWG REP PS ARO TPR PTP APRO APPO AOB BH/M1 SB/C1 KS DE FB"


def parse_table(text: str) -> tuple[list[str], dict[int, dict[str, str]]]:
    lines = [ln for ln in text.splitlines() if "," in ln]
    header = lines[0].split(",")
    rows = {}
    for ln in lines[1:]:
        cells = ln.split(",")
        if len(cells) != len(header) or not cells[1].strip().isdigit():
            continue
        rows[int(cells[1])] = dict(zip(header, cells))
    return header, rows


def same(theirs: str, ours: object) -> bool:
    """Equal to the precision the yardstick printed (it rounds averages)."""
    text = theirs.strip()
    if ours is None:
        return text in ("None", "-0", "")
    try:
        a, b = Fraction(text), Fraction(str(ours))
    except ValueError:
        return False
    decimals = len(text.split(".")[1]) if "." in text else 0
    return abs(a - b) <= Fraction(1, 2 * 10**decimals)


def compare(path: Path, table: str, codes: list[str], out: Counter[str], verbose: bool,
            rules: str | None = None) -> None:
    t = read_trf(path)
    s = standings(t, tiebreaks=" ".join(codes), rules=rules)
    _, rows = parse_table(table)
    for row in s.rows:
        theirs = rows.get(row.id)
        if theirs is None:
            continue
        out["values"] += len(codes)
        shared = sum(1 for r in rows.values() if r["Rank"] == theirs["Rank"])  # tied after the whole list
        if not int(theirs["Rank"]) <= row.rank < int(theirs["Rank"]) + shared:
            out["rank"] += 1
            if verbose:
                print(f"{path.name}: player {row.id}: rank {theirs['Rank']} (yardstick), {row.rank} (ours)")
        for code in codes:
            if code == "DE":
                continue
            ours = row.tiebreaks[code].value
            if not same(theirs[code], ours):
                out[code] += 1
                if verbose:
                    print(f"{path.name}: player {row.id}: {code} {theirs[code]} (yardstick), "
                          f"{'null' if ours is None else float(ours)} (ours)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--yardstick", help="command with {file} and {codes}")
    ap.add_argument("--tables", help="read stored tables from this folder instead of running a yardstick")
    ap.add_argument("--tiebreaks", default=DEFAULT)
    ap.add_argument("--save")
    ap.add_argument("-q", "--quiet", action="store_true")
    ap.add_argument("--rules", choices=("2024", "2026"))
    ap.add_argument("--code-suffix", default="")
    args = ap.parse_args()
    codes = args.tiebreaks.split()
    files = [f for p in map(Path, args.paths) for f in (sorted(p.glob("*.trf")) if p.is_dir() else [p])]
    out: Counter[str] = Counter()
    for f in files:
        if args.tables:
            table = (Path(args.tables) / (f.stem + ".csv")).read_text()
        else:
            asked = " ".join(["PTS", *(c + args.code_suffix for c in codes)])
            cmd = args.yardstick.format(file=shlex.quote(str(f)), codes=asked)
            table = subprocess.run(cmd, shell=True, capture_output=True, text=True, check=False).stdout
            if args.save:
                Path(args.save).mkdir(parents=True, exist_ok=True)
                (Path(args.save) / (f.stem + ".csv")).write_text(table)
        out["files"] += 1
        compare(f, table.replace(args.code_suffix, "") if args.code_suffix else table, codes, out,
                not args.quiet, args.rules)
    print(f"{out['files']} files, {out['values']} values; disagreements: "
          + ", ".join(f"{k} {v}" for k, v in sorted(out.items()) if k not in ("files", "values")) or "none")
    return 0 if all(v == 0 for k, v in out.items() if k not in ("files", "values")) else 1


if __name__ == "__main__":
    sys.exit(main())
