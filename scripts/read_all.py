"""Read every TRF under the given folders and round-trip it through both dialects.

Usage: python scripts/read_all.py [FOLDER ...]   (default: /work/shared/realtrf and
/work/shared/corpus). A file counts as a TRF when it has a `001 ` player record (ICU's
other tab files, engine outputs and checklists are skipped). Prints one line per failure
and a summary; exits 1 if any file fails.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

from cpsat_pairing.errors import PairingError
from cpsat_pairing.formats import parse_trf, read_trf, round_trip_view, write_trf

DEFAULT_FOLDERS = ("/work/shared/realtrf", "/work/shared/corpus")
SKIP_SUFFIXES = {".md", ".csv", ".json", ".pairs", ".expected", ".py"}


def looks_like_trf(path: Path) -> bool:
    """A `001 ` record at the start of some line (in any line-end convention)."""
    if path.suffix.lower() in SKIP_SUFFIXES or path.name.startswith(("LICEN", "COPYING")):
        return False
    data = path.read_bytes()
    return any(line.startswith(b"001 ") for line in data.replace(b"\r", b"\n").split(b"\n"))


def check(path: Path) -> str | None:
    """None when the file reads and round-trips in both dialects; else the reason."""
    try:
        t = read_trf(path)
        for dialect in ("trf16", "trf26"):
            again = parse_trf(write_trf(t, dialect), source=f"{path} ({dialect})")
            if round_trip_view(again, dialect) != round_trip_view(t, dialect):
                return f"{dialect} round trip differs"
    except PairingError as exc:
        return str(exc)
    return None


def main(argv: list[str]) -> int:
    folders = [Path(a) for a in argv] or [Path(f) for f in DEFAULT_FOLDERS]
    files = sorted(p for folder in folders for p in folder.rglob("*") if p.is_file() and looks_like_trf(p))
    start = time.perf_counter()
    failed = 0
    warned = 0
    for path in files:
        reason = check(path)
        if reason is not None:
            failed += 1
            print(f"FAIL {path}: {reason}")
        elif read_trf(path).warnings:
            warned += 1
    seconds = time.perf_counter() - start
    print(f"files {len(files)}  ok {len(files) - failed}  failed {failed}  "
          f"(with warnings {warned})  {seconds:.1f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
