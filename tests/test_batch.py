"""check_files (the local pool): a file whose check raises is that file's error report,
and the other files are checked as usual."""

from __future__ import annotations

from pathlib import Path

import pytest

from cpsat_pairing import FileCheck
from cpsat_pairing.apps import batch
from cpsat_pairing.apps import generate as gen


def broken_check(victim: str):  # type: ignore[no-untyped-def]
    """`check_file`, except that it raises on `victim`, as a bug in the engine would."""
    usual = batch.check_file

    def check(path: str, *args, **kwargs) -> FileCheck:  # type: ignore[no-untyped-def]
        if path == victim:
            raise ValueError(f"a bug met in {Path(path).name}")
        return usual(path, *args, **kwargs)

    return check


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_check_that_raises_is_that_files_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, jobs: int) -> None:
    cfg = gen.GenConfig(players=(6, 8), rounds=(2, 2))
    files = []
    for seed in (1, 2, 3):
        path = tmp_path / gen.file_name(seed)
        path.write_text(gen.generate_trf(seed, cfg))
        files.append(str(path))
    monkeypatch.setattr(batch, "check_file", broken_check(files[1]))  # the pool's workers fork with it
    reports = batch.check_files(files, jobs=jobs)
    assert [r.file for r in reports] == files
    assert reports[1].error == f"{files[1]}: unexpected error: ValueError: a bug met in t000002.trf"
    assert reports[1].exit_code == 2 and not reports[1].rounds
    assert not reports[0].error and not reports[2].error and reports[0].rounds and reports[2].rounds
