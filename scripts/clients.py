#!/usr/bin/env python3
"""Every round of a corpus as each client program would hand it to its engine.

    scripts/clients.py CORPUS_DIR_OR_FILES... [--clients heltour,lichess,...] [--year Y] [--jobs J] [--limit N]

For every file and every round R (from 2 for clients that state no initial colour),
the client's file for round R is written (cpsat_pairing/testing/clients.py), paired
through the client's command line, and compared with round R of the file.  --year is
the year the events are dated (it decides the rules where the file names none: 2026
for the 2026 corpus, 2019 for the 2017 one).  Prints the misses and one line per client.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cpsat_pairing.apps.check import file_round  # noqa: E402
from cpsat_pairing.domain.state import round_exists  # noqa: E402
from cpsat_pairing.formats import read_trf  # noqa: E402
from cpsat_pairing.formats.pair_list import read_pair_list  # noqa: E402
from cpsat_pairing.interface import doors  # noqa: E402
from cpsat_pairing.testing.clients import CLIENTS  # noqa: E402
from cpsat_pairing.testing.corpus import as_replayed, recorded  # noqa: E402


def one_file(task: tuple[str, list[str], int]) -> list[tuple[str, str, int, bool, str]]:
    path, names, year = task
    t = as_replayed(read_trf(path))
    last = max((len(p.rounds) for p in t.players), default=0)
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            client = CLIENTS[name]
            for rnd in range(1 if name != "heltour" else 2, last + 1):
                if not round_exists(t, rnd):
                    continue
                source = Path(tmp) / client.file_name
                source.write_bytes(client.write(t, rnd, year).encode())
                target = Path(tmp) / "out.txt"
                argv = client.argv(str(source), str(target))
                buffer, errors = io.StringIO(), io.StringIO()
                with contextlib.redirect_stdout(buffer), contextlib.redirect_stderr(errors):
                    code = doors.main(argv, doors.which_door(argv) or "bbp")
                if code != 0:
                    out.append((name, Path(path).name, rnd, False, f"exit {code}: {errors.getvalue().strip()[:200]}"))
                    continue
                pairs, bye = read_pair_list(buffer.getvalue() if client.pairs_on_stdout else target.read_text())
                expected, expected_bye = recorded(t, rnd)
                loose = file_round(t, rnd).colourless
                got = {(b, a) if (b, a) in expected and frozenset((a, b)) in loose else (a, b) for a, b in pairs}
                ok = got == expected and bye == expected_bye
                out.append((name, Path(path).name, rnd, ok, "" if ok else f"ours-only {sorted(got - expected)}"))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--clients", default=",".join(sorted(CLIENTS)))
    ap.add_argument("--year", type=int, default=2026)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--limit", type=int, default=0)
    a = ap.parse_args()
    names = a.clients.split(",")
    files: list[str] = []
    for p in a.paths:
        path = Path(p)
        files += sorted(str(f) for f in path.glob("*.trf")) if path.is_dir() else [str(path)]
    files = files[: a.limit or None]
    t0 = time.perf_counter()
    results: list[tuple[str, str, int, bool, str]] = []
    tasks = [(f, names, a.year) for f in files]
    if a.jobs > 1:
        with ProcessPoolExecutor(a.jobs) as pool:
            for res in pool.map(one_file, tasks):
                results += res
    else:
        for task in tasks:
            results += one_file(task)
    for name, file, rnd, ok, detail in results:
        if not ok:
            print(f"MISS {name} {file} round {rnd}: {detail}")
    for name in names:
        mine = [r for r in results if r[0] == name]
        exact = sum(1 for r in mine if r[3])
        print(f"{name}: {exact}/{len(mine)} rounds as the reference, {len(files)} files")
    print(f"wall {time.perf_counter() - t0:.0f}s")
    return 0 if all(r[3] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
