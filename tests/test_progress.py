"""The progress line on stderr: the bracket and tier, with the seconds spent in them."""

from __future__ import annotations

import io
import sys

import pytest
from rich.console import Console

from cpsat_pairing.interface import progress
from cpsat_pairing.interface.progress import StatusLine


def test_the_clock_restarts_with_each_new_stage_and_runs_in_all() -> None:
    now = [100.0]
    line = StatusLine("pairing [big].trf", clock=lambda: now[0])
    line.set("bracket 1/3 (score 2, 40 players)")
    now[0] = 103.0
    assert str(line.__rich__()) == "pairing [big].trf: bracket 1/3 (score 2, 40 players) · 3 s here, 3 s in all"
    line.set("bracket 1/3 (score 2, 40 players) ▸ C13")
    now[0] = 110.0
    line.set("bracket 1/3 (score 2, 40 players) ▸ C13")  # the same stage again: its clock runs on
    assert str(line.__rich__()).endswith("▸ C13 · 7 s here, 10 s in all")


def test_a_terminal_sees_the_running_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    out = io.StringIO()
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(progress, "DELAY", 0.0)
    monkeypatch.setattr(progress, "Console", lambda stderr: Console(file=out, force_terminal=True, width=200))
    with progress.progress_on_stderr("pairing x.trf") as update:
        update("bracket 2/5 (score 1, 9 players) ▸ C6 downfloaters")
    assert "pairing x.trf: bracket 2/5 (score 1, 9 players) ▸ C6 downfloaters · 0 s here, 0 s in all" in out.getvalue()
