"""Check many files: in a local process pool, or on a Dask cluster (the optional extra
`[distributed]`).

On a cluster, one task per file.  The client reads each file and sends its bytes with the task, so
workers need the package (same version) but no shared file system; a worker runs
`check.check_data` on the bytes and sends the report back.  Reports stream back as they
complete (`on_done`, e.g. a progress bar) and are returned in the order of the paths,
exactly one per path -- the same list `check_files` returns, so the summary, JSON and
HTML report are the local ones.

Lost workers: when a worker dies, the scheduler gives its tasks to another worker
(Dask's own bookkeeping: up to `distributed.scheduler.allowed-failures` deaths per
task).  A task lost to the cluster all the same -- `KilledWorker` after repeated
deaths, a closed connection, a task the scheduler dropped -- is submitted again, up to
`retries` more times, under a new key; a file whose every try was lost gets an error
report (exit code 2).  Any other exception is raised by the check itself: it is that
file's error, the report the local pool gives for it (`task_failed`), never blamed on
the cluster nor tried again.  Each path's report is stored once, by its index,
whatever arrives twice.

Only a bounded number of tasks is in flight at a time (`window`), so ten thousand
files do not all sit in the scheduler's memory at once.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from concurrent.futures import CancelledError, ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from cpsat_pairing.version import __version__
from cpsat_pairing.apps.check import FileCheck, check_data, check_file
from cpsat_pairing.errors import ExitCode

# The optional extra, imported on first use: it costs a `check` on this machine's
# own cores about 0.4 s of start-up that it never needs.
_UNLOADED: Any = object()
_distributed: Any = _UNLOADED

INSTALL_HINT = "install the optional extra: pip install 'cpsat-pairing[distributed]'"
LOCAL = "local"  # --scheduler local: a LocalCluster on this machine


class DistributedUnavailable(RuntimeError):
    """`distributed` is not installed."""


def _module() -> Any:
    """`distributed`, or None where the extra is not installed."""
    global _distributed
    if _distributed is _UNLOADED:
        try:
            import distributed
        except ImportError:  # pragma: no cover - exercised when the extra is missing
            _distributed = None
        else:
            _distributed = distributed
    return _distributed


def available() -> bool:
    return _module() is not None


def _require() -> Any:
    d = _module()
    if d is None:
        raise DistributedUnavailable(f"checking on a Dask cluster needs the 'distributed' package: {INSTALL_HINT}")
    return d


def worker_version() -> str:
    """Runs on each worker: the package version there (fails where it is not installed)."""
    return __version__


def _check_file_task(args: tuple[str, str | None, str | None]) -> FileCheck:
    return check_file(*args)


def task_failed(path: str, edition: str | None, exc: BaseException) -> FileCheck:
    """The report of a file whose check raised (a bug, not bad input: `check_file`
    reports those itself), worded as `check.check_round` words a round's."""
    return FileCheck(path, edition, error=f"{path}: unexpected error: {type(exc).__name__}: {exc}",
                     exit_code=int(ExitCode.UNEXPECTED))


def check_files(
    paths: Sequence[str],
    edition: str | None = "dutch-2026",
    rounds: str | None = None,
    jobs: int = 1,
    on_done: Callable[[FileCheck], None] | None = None,
) -> list[FileCheck]:
    """Check many files, `jobs` at a time in a process pool (one file: `jobs` of its
    rounds at a time); reports in the given order."""
    tasks = [(str(p), edition, rounds) for p in paths]
    results: dict[int, FileCheck] = {}
    if jobs <= 1 or len(tasks) <= 1:
        for i, task in enumerate(tasks):
            try:
                results[i] = check_file(*task, jobs=jobs)  # a lone file: its rounds share the pool
            except Exception as exc:  # this file's error: the batch goes on
                results[i] = task_failed(task[0], edition, exc)
            if on_done:
                on_done(results[i])
    else:
        with ProcessPoolExecutor(min(jobs, len(tasks))) as pool:
            futures = {pool.submit(_check_file_task, task): i for i, task in enumerate(tasks)}
            for fut in as_completed(futures):
                try:
                    results[futures[fut]] = fut.result()
                except Exception as exc:  # this file's error: the batch goes on
                    results[futures[fut]] = task_failed(tasks[futures[fut]][0], edition, exc)
                if on_done:
                    on_done(results[futures[fut]])
    return [results[i] for i in range(len(tasks))]


# --- on a Dask cluster -------------------------------------------------------------------


def check_task(data: bytes | None, path: str, edition: str | None, rounds: str | None) -> FileCheck:
    """The task: one file's report (runs on a worker)."""
    return check_data(data, path, edition, rounds)


def _error_report(path: str, edition: str | None, message: str, code: int) -> FileCheck:
    return FileCheck(path, edition, error=message, exit_code=code)


def _read(path: str) -> bytes | dict[str, Any]:
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        return {"error": f"{path}: {exc.strerror or exc}", "exit_code": int(ExitCode.FILE_ACCESS)}


def connect(scheduler: str, workers: int = 2, timeout: str = "20s") -> tuple[Any, Any]:
    """(client, cluster) for `tcp://HOST:PORT`, or for "local": a LocalCluster of
    `workers` single-threaded worker processes (cluster None when remote)."""
    d = _require()
    if scheduler == LOCAL:
        cluster = d.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                 dashboard_address=":0")
        return d.Client(cluster), cluster
    return d.Client(scheduler, timeout=timeout), None


def _worker_loss(d: Any) -> tuple[type[BaseException], ...]:
    """The errors by which `distributed` says a task was lost, not that it failed: its
    workers died (`KilledWorker`), a connection closed under it, the scheduler dropped it
    (a cancelled future)."""
    return (d.KilledWorker, d.comm.CommClosedError, CancelledError)


def check_workers(client: Any) -> list[str]:
    """Warnings about the workers: none connected, or another package version.

    Raises RuntimeError when a worker cannot import the package at all.
    """
    try:
        versions = client.run(worker_version)
    except Exception as exc:
        raise RuntimeError(f"the Dask workers cannot run cpsat_pairing (is it installed on every worker?): "
                           f"{type(exc).__name__}: {exc}") from exc
    out = []
    if not versions:
        out.append("no Dask worker is connected yet; tasks wait for one")
    other = sorted({v for v in versions.values() if v != __version__})
    if other:
        out.append(f"workers run cpsat-pairing {', '.join(other)}, this client {__version__}")
    return out


def check_files_dask(
    paths: Sequence[str],
    client: Any,
    edition: str | None = "dutch-2026",
    rounds: str | None = None,
    on_done: Callable[[FileCheck], None] | None = None,
    retries: int = 2,
    window: int | None = None,
    task: Callable[..., FileCheck] = check_task,
) -> list[FileCheck]:
    """Check `paths` on the cluster behind `client`; reports in the order of `paths`."""
    d = _require()
    lost = _worker_loss(d)
    if window is None:
        threads = sum(client.nthreads().values()) or 1
        window = max(64, 4 * threads)
    run = uuid.uuid4().hex[:12]
    results: dict[int, FileCheck] = {}
    tries: dict[int, int] = {}
    pending = iter(range(len(paths)))
    futures: dict[Any, int] = {}
    ac = d.as_completed()

    def done(i: int, report: FileCheck) -> None:
        if i in results:
            return  # a report arrives once per path, whatever happens to the workers
        results[i] = report
        if on_done:
            on_done(report)

    def submit(i: int) -> None:
        data = _read(paths[i])
        if isinstance(data, dict):
            done(i, _error_report(str(paths[i]), edition, data["error"], data["exit_code"]))
            return
        tries[i] = tries.get(i, 0) + 1
        fut = client.submit(task, data, str(paths[i]), edition, rounds, key=f"check-{run}-{i}-{tries[i]}",
                            pure=False)
        futures[fut] = i
        ac.add(fut)

    def top_up() -> None:
        while len(futures) < window:
            i = next(pending, None)
            if i is None:
                return
            submit(i)

    top_up()
    while futures:
        fut = next(ac)
        i = futures.pop(fut)
        try:
            report = fut.result()
        except lost as exc:
            if tries[i] <= retries:
                submit(i)
            else:
                done(i, _error_report(str(paths[i]), edition,
                                      f"{paths[i]}: the cluster could not check it after {tries[i]} tries: "
                                      f"{type(exc).__name__}: {exc}", int(ExitCode.UNEXPECTED)))
        except Exception as exc:  # raised by the check itself, as in the local pool
            done(i, task_failed(str(paths[i]), edition, exc))
        else:
            done(i, report)
        fut.release()
        top_up()
    assert len(results) == len(paths)
    return [results[i] for i in range(len(paths))]
