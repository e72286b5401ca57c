"""`check` on a Dask cluster: the same reports as the local pool, no file lost to a
killed worker.  Needs the [distributed] extra (installed by `.ci/run` and the README's
test command)."""

from __future__ import annotations

import functools
import json
import os
import signal
import sys
import uuid
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

# A plain `pip install '.[test]'` has no Dask: skip this file rather than fail collecting it.
dask = pytest.importorskip("dask")
distributed = pytest.importorskip("distributed")
cloudpickle = pytest.importorskip("cloudpickle")

from distributed import Client, LocalCluster
from typer.testing import CliRunner

from cpsat_pairing import FileCheck
from cpsat_pairing.apps import batch as dist
from cpsat_pairing.apps import generate as gen
from cpsat_pairing.apps.batch import check_files
from cpsat_pairing.apps.check import counts
from cpsat_pairing.interface.views.check import file_json
from cpsat_pairing.interface.cli import app

N_FILES = 20


def _comparable(reports: list[FileCheck] | list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Reports (or their JSON) without timings."""
    data = [rep if isinstance(rep, dict) else file_json(rep) for rep in reports]
    return [{**rep, "rounds": [{k: v for k, v in r.items() if k != "seconds"} for r in rep["rounds"]]}
            for rep in data]


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    folder = tmp_path_factory.mktemp("gen")
    cfg = gen.GenConfig(players=(8, 12), rounds=(3, 4), bye_rate=0.05, forfeit_rate=0.05)
    paths = []
    for seed in range(1, N_FILES + 1):
        path = folder / gen.file_name(seed)
        path.write_text(gen.generate_trf(seed, cfg))
        paths.append(str(path))
    return paths


@pytest.fixture(scope="module")
def local_reports(files: list[str]) -> list[FileCheck]:
    return check_files(files, jobs=2)


@pytest.fixture(scope="module")
def cluster():  # type: ignore[no-untyped-def]
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as c:
        yield c


def test_localcluster_gives_the_local_pool_reports_and_determinism(files: list[str], local_reports: list[FileCheck],
                                                                   cluster: LocalCluster) -> None:
    """The cluster's reports are the local pool's.  The files were paired by this engine,
    so every round matching shows determinism across processes, not exactness (that is
    test_generate.py's sample checked by the reference)."""
    streamed: list[str] = []
    with Client(cluster) as client:
        assert dist.check_workers(client) == []
        reports = dist.check_files_dask(files, client, on_done=lambda rep: streamed.append(rep.file))
    assert sorted(streamed) == sorted(files)  # each streamed back once
    assert [r.file for r in reports] == files
    assert counts(reports) == counts(local_reports)
    assert counts(reports)["match"] == counts(reports)["rounds"] > 0
    assert _comparable(reports) == _comparable(local_reports)


def test_cli_scheduler_address_writes_the_same_summary_json_and_html(
    files: list[str], tmp_path: Path, cluster: LocalCluster
) -> None:
    runner = CliRunner()
    folder = str(Path(files[0]).parent)
    local = runner.invoke(app, ["check", folder, "--jobs", "2", "-f", "json", "--html", str(tmp_path / "l.html")])
    remote = runner.invoke(app, ["check", folder, "--scheduler", cluster.scheduler_address, "-f", "json",
                                 "--html", str(tmp_path / "r.html")])
    assert local.exit_code == remote.exit_code == 0, remote.output
    a, b = json.loads(local.stdout), json.loads(remote.stdout)
    assert a["summary"] == b["summary"] and a["summary"]["files"] == N_FILES
    assert _comparable(a["files"]) == _comparable(b["files"])
    assert (tmp_path / "r.html").stat().st_size > 0


def test_missing_files_are_reported_once(files: list[str], cluster: LocalCluster) -> None:
    with Client(cluster) as client:
        reports = dist.check_files_dask([files[0], "/nonexistent/x.trf"], client)
    assert reports[1].error and reports[1].exit_code == 5 and not reports[0].error


# --- a worker killed mid-run -------------------------------------------------------------


def _kill_once_then_check(marker: Path, victim: str, data: bytes | None, path: str, edition: str,
                          rounds: str | None) -> FileCheck:
    """The check task, except that the victim file's first try kills its own worker
    process (SIGKILL: no clean-up, as when a machine disappears); the marker file makes
    it happen once."""
    if path == victim:
        try:
            fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            pass
        else:
            os.close(fd)
            os.kill(os.getpid(), signal.SIGKILL)
    return dist.check_task(data, path, edition, rounds)


cloudpickle.register_pickle_by_value(sys.modules[__name__])  # workers cannot import tests/


@pytest.mark.parametrize("allowed_failures", [3, 0])
def test_a_killed_worker_loses_no_file(files: list[str], local_reports: list[FileCheck], tmp_path: Path,
                                       allowed_failures: int) -> None:
    """allowed-failures 3 (Dask's default): the scheduler moves the task to another
    worker by itself; 0: the task fails with KilledWorker and check_files_dask submits
    it again.  Either way every file is counted exactly once."""
    marker = tmp_path / "killed"
    task = functools.partial(_kill_once_then_check, marker, files[7])  # mid-run, not the first task
    with dask.config.set({"distributed.scheduler.allowed-failures": allowed_failures}):
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
            with Client(cluster) as client:
                reports = dist.check_files_dask(files, client, task=task)
    assert marker.exists()  # a worker did die
    assert [r.file for r in reports] == files
    assert counts(reports) == counts(local_reports)
    assert _comparable(reports) == _comparable(local_reports)


def _raise_on(victim: str, error: Exception, tries: Path, data: bytes | None, path: str, edition: str,
              rounds: str | None) -> FileCheck:
    """The check task, except that the victim file's check raises `error`; each try on it
    leaves a file in `tries`."""
    if path == victim:
        (tries / uuid.uuid4().hex).touch()
        raise error
    return dist.check_task(data, path, edition, rounds)


def test_an_error_of_the_check_is_that_files_error_as_in_the_local_pool(
    files: list[str], tmp_path: Path, cluster: LocalCluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bug in the engine is reported as the local pool reports it, tried once, and not
    blamed on the cluster."""
    error = ValueError("a bug met in round 2")
    task = functools.partial(_raise_on, files[3], error, tmp_path)
    with Client(cluster) as client:
        reports = dist.check_files_dask(files[:5], client, task=task)
    assert len(list(tmp_path.iterdir())) == 1  # not tried again

    def usual_check(path: str, *args: Any, **kwargs: Any) -> FileCheck:
        if path == files[3]:
            raise error
        return dist.check_data(None, path, *args, **kwargs)

    monkeypatch.setattr(dist, "check_file", usual_check)
    local = check_files(files[:5], jobs=1)
    assert reports[3].error == local[3].error == f"{files[3]}: unexpected error: ValueError: a bug met in round 2"
    assert reports[3].exit_code == local[3].exit_code == 2
    assert _comparable(reports) == _comparable(local)


def test_a_task_lost_on_every_try_is_blamed_on_the_cluster(files: list[str], tmp_path: Path,
                                                           cluster: LocalCluster) -> None:
    """A worker-loss error is tried again (`retries` more times), then reported as the
    cluster's failure."""
    lost = distributed.KilledWorker("check", SimpleNamespace(address="tcp://gone"), 0)
    task = functools.partial(_raise_on, files[2], lost, tmp_path)
    with Client(cluster) as client:
        reports = dist.check_files_dask(files[:4], client, task=task, retries=2)
    assert len(list(tmp_path.iterdir())) == 3
    assert reports[2].exit_code == 2 and reports[2].error is not None
    assert reports[2].error.startswith(f"{files[2]}: the cluster could not check it after 3 tries: KilledWorker")
    assert not any(r.error for i, r in enumerate(reports) if i != 2)


def test_scheduler_without_the_extra_is_a_clear_error(files: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dist, "_distributed", None)
    result = CliRunner().invoke(app, ["check", *files[:2], "--scheduler", "tcp://127.0.0.1:8786"])
    assert result.exit_code == 3 and "pip install 'cpsat-pairing[distributed]'" in result.output
    assert "Traceback" not in result.output
