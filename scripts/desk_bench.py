#!/usr/bin/env python3
"""The desk's page against the service's answer for the same round, over HTTP.

    scripts/desk_bench.py [--players 100] [--rounds 9] [--round 5] [--seed 1] [--requests 30]

Generates a tournament (seeded), cuts it before round R, and starts one server (the
desk and the JSON service side by side, as `serve --http` serves them).  Then, in turn,
POSTs the round to the service (`/pair`, the TRF as the body) and uploads it to the desk
(`/desk/round`, a multipart form, as the browser sends it), `--requests` times each.
Prints the median and 90th percentile seconds of each and the desk's median extra time,
in wall-clock time and in CPU time (the server runs in this process: its CPU time is
the pairing's and the page's, whatever else the machine is doing).  Every desk page's
pairing sheet is checked against the service's pair list.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import threading
import time
import urllib.request
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import waitress  # noqa: E402

from cpsat_pairing.apps.generate import GenConfig, generate  # noqa: E402
from cpsat_pairing.interface.commands.serve import warm_up, wsgi_app  # noqa: E402
from cpsat_pairing.interface.desk.app import site  # noqa: E402
from cpsat_pairing.testing.corpus import prepared_round  # noqa: E402

SHEET_ROW = re.compile(r'<td class="num bd">\d+</td><td class="who"><a href="#p(\d+)">.*?'
                       r'<td class="who"><a href="#p(\d+)">')


def multipart(text: str) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"round.trf\"\r\n"
            f"Content-Type: text/plain\r\n\r\n{text}\r\n--{boundary}--\r\n").encode()
    return body, f"multipart/form-data; boundary={boundary}"


def timed(request: urllib.request.Request) -> tuple[float, float, bytes]:
    """Wall-clock seconds, CPU seconds of this process, the answer."""
    t0, c0 = time.perf_counter(), time.process_time()
    with urllib.request.urlopen(request) as reply:
        body = reply.read()
        status = reply.status
    if status != 200:
        raise SystemExit(f"{request.full_url}: status {status}")
    return time.perf_counter() - t0, time.process_time() - c0, body


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    for flag, default in (("players", 100), ("rounds", 9), ("round", 5), ("seed", 1), ("requests", 30)):
        ap.add_argument(f"--{flag}", type=int, default=default, dest="rnd" if flag == "round" else flag)
    a = ap.parse_args()

    t = generate(a.seed, GenConfig(players=(a.players, a.players), rounds=(a.rounds, a.rounds)))
    text = prepared_round(t, a.rnd)
    warm_up()
    server = waitress.create_server(site("127.0.0.1", None, wsgi_app), host="127.0.0.1", port=0, threads=4)
    threading.Thread(target=server.run, daemon=True).start()
    url = f"http://127.0.0.1:{server.effective_port}"
    body, content_type = multipart(text)
    service: list[float] = []
    desk: list[float] = []
    cpu_service: list[float] = []
    cpu_desk: list[float] = []
    # The server's thread is a daemon and ends with this process: closing its sockets
    # under its running loop would make that loop raise on the closed descriptors.
    for _ in range(a.requests):
        s, cs, answer = timed(urllib.request.Request(f"{url}/pair", data=text.encode()))
        d, cd, page = timed(urllib.request.Request(f"{url}/desk/round", data=body,
                                                   headers={"Content-Type": content_type}))
        service.append(s)
        desk.append(d)
        cpu_service.append(cs)
        cpu_desk.append(cd)
        pairs = [[int(x) for x in line.split()] for line in json.loads(answer)["result"]["pair_list"].splitlines()[1:]]
        sheet = [[int(w), int(b)] for w, b in SHEET_ROW.findall(page.decode())]
        if sheet != [p for p in pairs if p[1] != 0]:
            raise SystemExit("the desk's sheet is not the service's pairing")

    def line(name: str, xs: list[float]) -> str:
        q = statistics.quantiles(xs, n=10)[-1] if len(xs) > 1 else xs[0]
        return f"{name}: median {statistics.median(xs):.3f} s, p90 {q:.3f} s"

    print(f"{a.players} players, round {a.rnd}, {a.requests} requests each, in turn")
    print(line("service POST /pair", service))
    print(line("desk POST /desk/round", desk))
    extra = statistics.median(d - s for d, s in zip(desk, service, strict=True))
    print(f"desk minus service, median of the pairs: {extra * 1000:+.0f} ms")
    print(line("CPU, service", cpu_service))
    print(line("CPU, desk", cpu_desk))
    extra = statistics.median(d - s for d, s in zip(cpu_desk, cpu_service, strict=True))
    print(f"CPU, desk minus service, median of the pairs: {extra * 1000:+.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
