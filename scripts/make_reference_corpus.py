#!/usr/bin/env python3
"""A reference corpus from a reference engine's own random tournament generator.

    scripts/make_reference_corpus.py JAR OUT_DIR --count K [--first N] [--jobs J]
                                     [--java JAVA] [--pair-option OPT]... [--timeout S]
                                     [--verify check|pair]

JAR is a reference engine with the TRF(x) command line the 2013 corpus was made with
(JaVaFo 1.4: `-g -o FILE` draws a random tournament, its sizes and rounds its own;
`IN -p OUT` pairs the next round of IN); it stays outside the repository.  Each
tournament is kept only when the engine's pair mode reproduces every one of its
rounds from that round's history: rounds 1..R-1 exactly as the file wrote them (the
points field recounted), `0000 - -` (or `0000 - =`, a half-point bye) for the players
left out of round R, `XXR` the number of rounds played and `XXC` the initial colour
round 1 shows.  Reproduced means the same pairs, the same colours and the same
pairing-allocated bye.

Two ways to verify, the same test: `--verify check` (the default) runs the engine's
checker once per tournament (`FILE -c`: it re-pairs every round from the file's own
history in one JVM and prints `NAME: Round #k` per round, followed by the pairs it
would have made otherwise, or by which players had inverted colours, when it disagrees);
`--verify pair` runs the pair mode once per round on the prepared history (one JVM per
round, some twenty times slower).

Kept files are written to OUT_DIR as `jNNNNNN.trf` (N from --first on, the layout of
`corpus/dutch-2013/dev`), with `manifest.csv` (file, players, rounds, verified) and
`dropped.csv` (the generated tournaments that were not reproduced, and the first
round that was not).  Prints a summary line; exits 0.  Run it under `nice -n 19`.
"""

from __future__ import annotations

import argparse
import csv
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

JAVA_OPTIONS = ("-XX:+UseSerialGC",)  # one collector thread: the jobs share the cores
FIRST_BLOCK = 91  # 0-based column of round 1's block on a 001 line (TRF16: 92)
BLOCK = 10
POINTS = slice(80, 84)
WIN_CODES = frozenset("1+W")
DRAW_CODES = frozenset("=DH")


@dataclass(frozen=True)
class Block:
    """One round of one player as the file wrote it."""

    opponent: int
    colour: str
    result: str

    @property
    def text(self) -> str:
        return f"{self.opponent or '0000':>4} {self.colour} {self.result}"


def blocks(line: str) -> list[Block | None]:
    """The round blocks of a 001 line; None for a blank one."""
    out: list[Block | None] = []
    k = FIRST_BLOCK
    while k < len(line.rstrip()):
        raw = line[k : k + 8]
        if raw.strip():
            out.append(Block(int(raw[0:4]), raw[5], raw[7]))
        else:
            out.append(None)
        k += BLOCK
    return out


def points(played: list[Block | None]) -> Fraction:
    """Points scored in these rounds on 1 / 1/2 / 0 (the generator's scoring)."""
    return sum((Fraction(1) if b.result in WIN_CODES else Fraction(1, 2) if b.result in DRAW_CODES else Fraction(0)
                for b in played if b is not None), Fraction(0))


def rounds_played(players: dict[int, list[Block | None]]) -> int:
    return max((len(bs) for bs in players.values()), default=0)


def round_entry(bs: list[Block | None], rnd: int) -> Block | None:
    return bs[rnd - 1] if rnd <= len(bs) else None


def is_bye(b: Block | None) -> bool:
    """The pairing-allocated bye of that era's files: `0000 - +`."""
    return b is not None and b.opponent == 0 and b.result == "+"


def initial_colour(players: dict[int, list[Block | None]]) -> str:
    """Round 1's colour of the top board: that of the lowest-numbered player who played a
    game, flipped once for each lower-numbered player who had the bye (both engines'
    convention; the corpus README)."""
    flips = 0
    for pid in sorted(players):
        b = round_entry(players[pid], 1)
        if b is not None and b.opponent and b.colour in "wb":
            colour = b.colour if flips % 2 == 0 else "bw"["wb".index(b.colour)]
            return "white1" if colour == "w" else "black1"
        if is_bye(b):
            flips += 1
    return "white1"


def prepared(lines: list[str], players: dict[int, list[Block | None]], rnd: int, total: int, colour: str) -> str:
    """The file as it stood before round `rnd`, with the round's absences entered."""
    out = []
    for line in lines:
        if not line.startswith("001"):
            if line[:3] not in ("XXR", "XXC"):
                out.append(line.rstrip("\n"))
            continue
        pid = int(line[4:8])
        bs = players[pid]
        kept = [round_entry(bs, k) for k in range(1, rnd)]
        head = line[:FIRST_BLOCK].ljust(FIRST_BLOCK)
        head = head[: POINTS.start] + f"{float(points(kept)):4.1f}" + head[POINTS.stop :]
        texts = [b.text if b is not None else " " * 8 for b in kept]
        now = round_entry(bs, rnd)
        if now is None or now.opponent == 0 and not is_bye(now):
            texts.append("0000 - =" if now is not None and now.result in DRAW_CODES else "0000 - -")
        out.append((head + "  ".join(texts)).rstrip())
    out += [f"XXR {total}", f"XXC {colour}"]
    return "\n".join(out) + "\n"


def expected(players: dict[int, list[Block | None]], rnd: int) -> tuple[set[tuple[int, int]], int | None]:
    """Round `rnd` of the file: its pairs (white, black; a colourless pair in id order)
    and its bye."""
    pairs: set[tuple[int, int]] = set()
    bye = None
    for pid, bs in players.items():
        b = round_entry(bs, rnd)
        if b is None:
            continue
        if is_bye(b):
            bye = pid
        elif b.opponent and (b.colour == "w" or b.colour == "-" and pid < b.opponent):
            pairs.add((pid, b.opponent))
    return pairs, bye


def engine_round(jar: str, java: list[str], text: str, work: Path) -> tuple[set[tuple[int, int]], int | None] | str:
    """The engine's pairing of the prepared text, or why there is none."""
    src, dst = work / "in.trf", work / "out.txt"
    src.write_text(text, encoding="ascii")
    dst.unlink(missing_ok=True)
    proc = subprocess.run([*java, "-jar", jar, str(src), "-p", str(dst)],
                          capture_output=True, text=True, timeout=600)
    if not dst.exists():
        return f"no output (exit {proc.returncode}): {proc.stdout.strip()[:80]} {proc.stderr.strip()[:80]}"
    rows = dst.read_text().split("\n")
    pairs: set[tuple[int, int]] = set()
    bye = None
    for row in rows[1 : 1 + int(rows[0])]:
        w, b = (int(x) for x in row.split())
        if b == 0:
            bye = w
        else:
            pairs.add((w, b))
    return pairs, bye


def parse(text: str) -> tuple[list[str], dict[int, list[Block | None]]]:
    lines = text.splitlines()
    return lines, {int(line[4:8]): blocks(line) for line in lines if line.startswith("001")}


def verify_check(jar: str, java: list[str], text: str, work: Path) -> tuple[int, str]:
    """(rounds reproduced, "" or the first round that was not and how), by the engine's
    checker: a round is reproduced when its `NAME: Round #k` line is followed by
    nothing but blank lines."""
    _, players = parse(text)
    total = rounds_played(players)
    src = work / "check.trf"
    src.write_text(text, encoding="latin-1")
    proc = subprocess.run([*java, "-jar", jar, str(src), "-c"], capture_output=True, text=True, timeout=600)
    head = f"{src.stem}: Round #"
    seen: list[int] = []
    remarks: dict[int, list[str]] = {}
    for line in proc.stdout.splitlines():
        if line.startswith(head) and line[len(head):].strip().isdigit():
            seen.append(int(line[len(head):]))
            remarks[seen[-1]] = []
        elif line.strip():
            remarks.setdefault(seen[-1] if seen else 0, []).append(line.strip())
    if remarks.get(0) or proc.returncode != 0:
        return 0, f"checker exit {proc.returncode}: {' '.join(remarks.get(0, []))[:80]} {proc.stderr.strip()[:80]}"
    for rnd in range(1, total + 1):
        want = expected(players, rnd)
        if not want[0] and want[1] is None:
            continue  # nobody played this round
        if rnd not in remarks:
            return rnd - 1, f"round {rnd}: not checked"
        if remarks[rnd]:
            return rnd - 1, f"round {rnd}: " + " | ".join(remarks[rnd])[:160]
    return total, ""


def verify_pair(jar: str, java: list[str], text: str, work: Path) -> tuple[int, str]:
    """(rounds reproduced, "" or the first round that was not and how), by one pair-mode
    run per round."""
    lines, players = parse(text)
    total = rounds_played(players)
    colour = initial_colour(players)
    for rnd in range(1, total + 1):
        want = expected(players, rnd)
        if not want[0] and want[1] is None:
            continue  # nobody played this round
        got = engine_round(jar, java, prepared(lines, players, rnd, total, colour), work)
        if got != want:
            how = got if isinstance(got, str) else (
                f"engine-only {sorted(got[0] - want[0])} file-only {sorted(want[0] - got[0])} "
                f"bye {got[1]} vs {want[1]}")
            return rnd - 1, f"round {rnd}: {how}"
    return total, ""


VERIFY = {"check": verify_check, "pair": verify_pair}
Task = tuple[str, str, list[str], int, float, str]  # jar, java, JVM options, index, timeout, verify


def make_one(task: Task) -> tuple[int, str, int, int, str]:
    """Draw one tournament and verify it: (index, text, players, rounds, why dropped)."""
    jar, java, pair_options, index, timeout, how = task
    with tempfile.TemporaryDirectory(prefix="refcorpus-") as tmp:
        work = Path(tmp)
        gen = work / "gen.trf"
        try:
            subprocess.run([java, *JAVA_OPTIONS, "-jar", jar, "-g", "-o", str(gen)],
                           capture_output=True, text=True, timeout=timeout, check=False)
        except subprocess.TimeoutExpired:
            return index, "", 0, 0, f"the generator took more than {timeout:.0f}s"
        if not gen.exists():
            return index, "", 0, 0, "the generator wrote nothing"
        text = gen.read_text(encoding="latin-1")
        _, players = parse(text)
        done, why = VERIFY[how](jar, [java, *JAVA_OPTIONS, *pair_options], text, work)
        return index, text, len(players), rounds_played(players), why


def run(tasks: list[Task], jobs: int) -> Iterator[tuple[int, str, int, int, str]]:
    if jobs <= 1:
        yield from map(make_one, tasks)
        return
    with ProcessPoolExecutor(jobs) as pool:
        for fut in as_completed([pool.submit(make_one, task) for task in tasks]):
            yield fut.result()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("jar")
    ap.add_argument("out", type=Path)
    ap.add_argument("--count", "-k", type=int, required=True, help="tournaments to draw")
    ap.add_argument("--first", type=int, default=100001, help="number of the first file")
    ap.add_argument("--jobs", "-j", type=int, default=1)
    ap.add_argument("--java", default="java")
    ap.add_argument("--pair-option", action="append", default=[], metavar="OPTION",
                    help="a JVM option for the verifying runs (repeatable), e.g. -XX:TieredStopAtLevel=1 "
                         "or -XX:SharedArchiveFile=FILE: each is a short process")
    ap.add_argument("--timeout", type=float, default=120.0,
                    help="seconds the generator may take for one tournament (slower ones are dropped and counted)")
    ap.add_argument("--verify", choices=sorted(VERIFY), default="check",
                    help="check: the engine's checker, one JVM per tournament; pair: its pair mode, one per round")
    a = ap.parse_args()
    a.out.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    kept = dropped = rounds = 0
    new = not (a.out / "manifest.csv").exists()
    with open(a.out / "manifest.csv", "a", newline="") as mf, open(a.out / "dropped.csv", "a", newline="") as df:
        manifest, drops = csv.writer(mf), csv.writer(df)
        if new:
            manifest.writerow(["file", "players", "rounds"])
            drops.writerow(["draw", "players", "rounds", "why"])
        tasks = [(a.jar, a.java, a.pair_option, a.first + i, a.timeout, a.verify) for i in range(a.count)]
        for index, text, n, r, why in run(tasks, a.jobs):
            if why:
                dropped += 1
                drops.writerow([index, n, r, why])
                df.flush()
            else:
                kept += 1
                rounds += r
                name = f"j{index:06d}.trf"
                (a.out / name).write_text(text, encoding="latin-1")
                manifest.writerow([name, n, r])
                mf.flush()
            print(f"[{kept + dropped}/{a.count}] kept {kept}, dropped {dropped}", file=sys.stderr, flush=True)
    print(f"{kept} tournaments kept ({rounds} rounds), {dropped} dropped (not reproduced by the engine's "
          f"pair mode), wall {time.perf_counter() - t0:.0f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
