#!/usr/bin/env python3
"""The warm service against a call per round: seconds per request and memory over many.

    scripts/serve_bench.py [--players 100] [--rounds 9] [--round R] [--seed 1]
                           [--requests 1000] [--cold 5] [--reference ENGINE]

Generates a tournament (seeded), cuts it before round R, and sends that round as the
same request `--requests` times to one `cpsat-pairing serve` over a pipe.  Prints the
median and 90th percentile seconds per request (the pipe's round trip included), the
server's resident memory after the first 10% of the requests and at the end, and the
median of `--cold` fresh command-line calls (`--dutch FILE -p`); with --reference, the
same for another engine's binary with that command line.  Every answer is checked
against the first.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cpsat_pairing.apps.generate import GenConfig, generate  # noqa: E402
from cpsat_pairing.testing.corpus import prepared_round  # noqa: E402


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def cold(argv: list[str], runs: int) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(argv, check=True, capture_output=True)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def add_round_arguments(ap: argparse.ArgumentParser) -> None:
    """The generated round's options (startup_bench.py times the same round)."""
    ap.add_argument("--players", type=int, default=100)
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--round", type=int, default=5, dest="rnd")
    ap.add_argument("--seed", type=int, default=1)


def bench_round(a: argparse.Namespace) -> str:
    """The round's file as a client hands it over: the seeded tournament cut before it."""
    t = generate(a.seed, GenConfig(players=(a.players, a.players), rounds=(a.rounds, a.rounds)))
    return prepared_round(t, a.rnd)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_round_arguments(ap)
    ap.add_argument("--requests", type=int, default=1000)
    ap.add_argument("--cold", type=int, default=5)
    ap.add_argument("--reference", help="another engine's binary, called as ENGINE --dutch FILE -p")
    a = ap.parse_args()

    text = bench_round(a)
    exe = str(Path(sys.executable).with_name("cpsat-pairing"))
    server = subprocess.Popen([exe, "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    assert server.stdin is not None and server.stdout is not None
    request = json.dumps({"trf": text}) + "\n"
    times: list[float] = []
    first: str | None = None
    early = 0.0
    for i in range(a.requests):
        t0 = time.perf_counter()
        server.stdin.write(request)
        server.stdin.flush()
        answer = json.loads(server.stdout.readline())
        times.append(time.perf_counter() - t0)
        if not answer["ok"]:
            print(f"request {i}: {answer['error']}", file=sys.stderr)
            return 1
        pairs = answer["result"]["pair_list"]
        if first is None:
            first = pairs
        elif pairs != first:
            print(f"request {i}: a different pairing", file=sys.stderr)
            return 1
        if i + 1 == max(1, a.requests // 10):
            early = rss_mib(server.pid)
    late = rss_mib(server.pid)
    server.stdin.close()
    server.wait()
    times.sort()
    print(f"{a.players} players, round {a.rnd}: {a.requests} requests to one `serve`: "
          f"median {statistics.median(times):.3f} s, p90 {times[int(0.9 * (len(times) - 1))]:.3f} s per request")
    print(f"server memory: {early:.0f} MiB after {max(1, a.requests // 10)} requests, {late:.0f} MiB after "
          f"{a.requests} ({late - early:+.0f} MiB)")
    if a.cold < 1:  # the service alone
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "round.trf"
        path.write_text(text)
        print(f"a fresh process per call (--dutch FILE -p), median of {a.cold}: "
              f"{cold([exe, '--dutch', str(path), '-p'], a.cold):.3f} s")
        if a.reference:
            print(f"reference engine, the same call: {cold([a.reference, '--dutch', str(path), '-p'], a.cold):.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
