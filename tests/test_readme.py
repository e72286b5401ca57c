"""The README's examples run as written: the command lines of the other engines, the
service (JSON lines and HTTP), and the Python API."""

from __future__ import annotations

import re
import shlex
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from cpsat_pairing import examples

README = Path(__file__).resolve().parents[1] / "README.md"
DOORS = Path(__file__).parent / "fixtures" / "doors"
TEXT = README.read_text(encoding="utf-8")
PYTHON_BLOCKS = re.findall(r"```python\n(.*?)```", TEXT, re.S)
SHELL = re.findall(r"```sh\n(.*?)```", TEXT, re.S)
EXE = str(Path(sys.executable).with_name("cpsat-pairing"))
# The README's shell examples call the console script that `pip install .` puts beside
# this Python; without it (the package only on the path) they cannot run as written.
needs_console_script = pytest.mark.skipif(
    not Path(EXE).is_file(), reason=f"the console script is not installed beside this Python ({EXE}): pip install ."
)


def block_with(blocks: list[str], marker: str) -> str:
    (found,) = [b for b in blocks if marker in b]
    return found


@needs_console_script
def test_readme_other_engines_command_lines(tmp_path: Path) -> None:
    shutil.copy(DOORS / "t000002_r1-6.trf", tmp_path / "round.trf")
    expected = (DOORS / "t000002_r7.pairs").read_text()
    commands = [line.split("#")[0].strip() for line in block_with(SHELL, "--dutch round.trf -p").splitlines()]
    assert len(commands) == 3
    for command in commands:
        argv = shlex.split(command)
        assert argv[0] == "cpsat-pairing"
        proc = subprocess.run([EXE, *argv[1:]], cwd=tmp_path, capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
        if "-p" in argv:
            assert (tmp_path / "pairs.txt").read_text() == expected
            (tmp_path / "pairs.txt").unlink()
        else:
            assert proc.stdout.splitlines()[0] == "round: Round #1"
    assert (tmp_path / "round.list").read_text().startswith("\nID\tPts\t")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@needs_console_script
def test_readme_service_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("waitress")
    code = block_with(PYTHON_BLOCKS, '"serve"')
    shutil.copy(DOORS / "t000002_r1-6.trf", tmp_path / "round.trf")
    port = _free_port()
    server = subprocess.Popen([EXE, "serve", "--http", str(port)], stderr=subprocess.PIPE, text=True)
    try:
        assert server.stderr is not None
        assert "serving on" in server.stderr.readline()  # after the warm-up
        monkeypatch.chdir(tmp_path)
        monkeypatch.setenv("PATH", str(Path(EXE).parent), prepend=":")
        exec(compile(code.replace("127.0.0.1:8787", f"127.0.0.1:{port}"), str(README), "exec"), {})
    finally:
        server.terminate()
        server.wait(timeout=30)
        if server.stderr is not None:
            server.stderr.close()
    out = capsys.readouterr().out
    expected = (DOORS / "t000002_r7.pairs").read_text()
    assert out.count(expected) == 2 and " - " in out


def test_readme_python_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    code = block_with(PYTHON_BLOCKS, "cp.read_trf")
    shutil.copy(examples.path(), tmp_path / "tournament.trf")
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {}
    exec(compile(code, str(README), "exec"), namespace)
    out = capsys.readouterr().out
    assert "bye:" in out and len(out.splitlines()) >= 7  # the boards, then the bye
    # Every round of the example agrees with the reference engine (its check finds no
    # discrepancy), so the check must report them all as matching.
    assert namespace["report"].exit_code == 0, namespace["report"]
    assert namespace["same"] == namespace["p"]  # the hint changes nothing but the time

