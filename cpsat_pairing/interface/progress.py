"""Progress of a long pairing on stderr: which bracket, which tier.

Silent for the first second (most rounds are done by then) and when stderr is not a
terminal, so scripts and pipes see nothing.
"""

from __future__ import annotations

import sys
import time
from contextlib import contextmanager
from typing import Callable, Iterator

from rich.console import Console

DELAY = 1.0


@contextmanager
def progress_on_stderr(label: str) -> Iterator[Callable[[str], None]]:
    """Yield a callback taking a status text; shown once the work has taken a second."""
    if not sys.stderr.isatty():
        yield lambda text: None
        return
    start = time.monotonic()
    status = None
    console = Console(stderr=True)

    def update(text: str) -> None:
        nonlocal status
        if status is None:
            if time.monotonic() - start < DELAY:
                return
            status = console.status(f"{label}: {text}")
            status.start()
        else:
            status.update(f"{label}: {text}")

    try:
        yield update
    finally:
        if status is not None:
            status.stop()
