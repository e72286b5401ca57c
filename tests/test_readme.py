"""The README's Python example runs as written, on the bundled example tournament."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from cpsat_pairing import examples

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_python_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    (code,) = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    shutil.copy(examples.path(), tmp_path / "tournament.trf")
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {}
    exec(compile(code, str(README), "exec"), namespace)
    out = capsys.readouterr().out
    assert "bye:" in out and len(out.splitlines()) >= 7  # the boards, then the bye
    assert namespace["report"].exit_code in (0, 10)  # type: ignore[attr-defined]
