#!/usr/bin/env python3
"""Throughput of `check` on a Dask LocalCluster against the local process pool.

    scripts/cluster_bench.py DIR_OR_FILES... [--workers 2] [--repeat 2]

Starts a LocalCluster of WORKERS single-threaded worker processes and warms it up
(cluster start-up is not part of a check against an existing cluster), then checks the
same files alternately on the pool (jobs = WORKERS) and on the cluster, REPEAT times
each, and prints files/s for both, their ratio and whether the reports agree.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cpsat_pairing.apps import batch as dist
from cpsat_pairing.apps.batch import check_files  # noqa: E402
from cpsat_pairing.apps.check import FileCheck, counts  # noqa: E402
from cpsat_pairing.interface.views.check import file_json  # noqa: E402


def _strip(reports: list[FileCheck]) -> list[dict]:
    """The reports as JSON, without timings."""
    data = [file_json(r) for r in reports]
    return [{**r, "rounds": [{k: v for k, v in x.items() if k != "seconds"} for x in r["rounds"]]} for r in data]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=2)
    a = ap.parse_args()
    files: list[str] = []
    for p in a.paths:
        path = Path(p)
        files += sorted(str(f) for f in path.glob("*.trf")) if path.is_dir() else [str(path)]
    client, cluster = dist.connect(dist.LOCAL, workers=a.workers)
    try:
        dist.check_workers(client)
        dist.check_files_dask(files[:2], client)  # warm-up: imports and the solver on every worker
        pool_t, dask_t = [], []
        agree = True
        for _ in range(a.repeat):
            t0 = time.perf_counter()
            local = check_files(files, jobs=a.workers)
            pool_t.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            remote = dist.check_files_dask(files, client)
            dask_t.append(time.perf_counter() - t0)
            agree = agree and _strip(local) == _strip(remote)
    finally:
        client.close()
        cluster.close()
    n = len(files)
    p, d = statistics.median(pool_t), statistics.median(dask_t)
    c = counts(local)
    print(f"{n} files, {c['rounds']} rounds ({c['match']} match); {a.workers} workers, {a.repeat} runs each")
    print(f"pool:         {p:7.1f} s  {n / p:6.2f} files/s   runs {', '.join(f'{x:.1f}' for x in pool_t)}")
    print(f"LocalCluster: {d:7.1f} s  {n / d:6.2f} files/s   runs {', '.join(f'{x:.1f}' for x in dask_t)}")
    print(f"cluster throughput / pool throughput = {p / d:.3f}; reports identical: {agree}")
    return 0 if agree else 1


if __name__ == "__main__":
    sys.exit(main())
