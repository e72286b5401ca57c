"""The package is typed: mypy (strict, as configured in pyproject.toml) finds nothing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_mypy_is_clean() -> None:
    pytest.importorskip("mypy")
    result = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert (ROOT / "cpsat_pairing" / "py.typed").is_file()
