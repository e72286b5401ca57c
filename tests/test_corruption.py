"""Corrupted files are either read or rejected with a located InputError, never a crash.

The corruptions (changed characters, deleted parts of lines, swapped digits, inserted
garbage, lost or duplicated lines) come from cpsat_pairing.testing.corrupt, driven here by
Hypothesis so that a failure shrinks to a small reproducer.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from cpsat_pairing import InputError, parse_trf
from cpsat_pairing.interface.cli import app
from cpsat_pairing.testing.corrupt import corrupt

from helpers import FIXTURES

SOURCES = [
    *sorted((FIXTURES / "corpus").rglob("*.trf")),
    FIXTURES / "realtrf/irishchessunion__icu_tournament/valid.tab",
    FIXTURES / "realtrf/BieremaBoyzProgramming__bbpPairings/dutch_2025_C5.input",
    FIXTURES / "realtrf/GrzegorzKi__CompetiChess/testTrfFile.txt",
]
TEXTS = [p.read_bytes().decode("utf-8-sig") for p in SOURCES]
EXTRA = "\n".join([
    "142 9", "152 W", "162  W 1.0    D 0.5    L 0.0    A 0.0    P 1.0",
    "240 H   7    1    2", "250      1.0   1   2    1    4", "260   1   9    1    2",
    "XXP 1 3", "XXZ 4", "XXS W=1 D=0.5", "BBU 1.0",
])
TEXTS.append(TEXTS[0].rstrip("\n") + "\n" + EXTRA + "\n")  # records that only TRF26/engines use


def test_sources_are_valid() -> None:
    for text in TEXTS:
        parse_trf(text)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(source=st.sampled_from(TEXTS), rng=st.randoms(use_true_random=False))
def test_corrupted_text_reads_or_raises_located_error(source: str, rng: random.Random) -> None:
    text, _ = corrupt(source, rng)
    try:
        parse_trf(text, source="c.trf")
    except InputError as exc:
        assert exc.line >= 1 and exc.column >= 1
        assert exc.line <= len(text.splitlines()) + 1
        assert str(exc).startswith(f"c.trf:{exc.line}:{exc.column}: ")


@pytest.fixture(scope="module")
def work_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("corrupt")


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(source=st.sampled_from(TEXTS), rng=st.randoms(use_true_random=False))
def test_corrupted_file_through_cli_exits_0_or_3(work_dir: Path, source: str, rng: random.Random) -> None:
    text, done = corrupt(source, rng)
    path = work_dir / "c.trf"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(app, ["info", str(path)])
    assert result.exit_code in (0, 3), (done, result.output)
    assert "Traceback" not in result.output
    if result.exit_code == 3:
        line = result.stderr.strip()
        assert line.startswith(f"{path}:") and len(line.splitlines()) == 1
