"""Progress of a long pairing on stderr: which bracket, which tier, and for how long.

Silent for the first second (most rounds are done by then) and when stderr is not a
terminal, so scripts and pipes see nothing.  The seconds spent in the current bracket
and tier, and in all, are re-read at every refresh: a tier that runs for minutes shows
its clock running, so an arbiter sees a solver at work, and a profiler where it works.
"""

from __future__ import annotations

import sys
import time
from contextlib import contextmanager
from typing import Callable, Iterator

from rich.console import Console
from rich.text import Text

DELAY = 1.0


class StatusLine:
    """The status text, with the seconds since it last changed and since the start."""

    def __init__(self, label: str, clock: Callable[[], float] = time.monotonic) -> None:
        self.label, self.clock = label, clock
        self.start = self.since = clock()
        self.text = ""

    def set(self, text: str) -> None:
        if text != self.text:
            self.text, self.since = text, self.clock()

    def __rich__(self) -> Text:
        # Text, not a string: a file name or a label is never read as markup.
        now = self.clock()
        return Text(f"{self.label}: {self.text} · {now - self.since:.0f} s here, {now - self.start:.0f} s in all")


@contextmanager
def progress_on_stderr(label: str) -> Iterator[Callable[[str], None]]:
    """Yield a callback taking a status text; shown once the work has taken a second."""
    if not sys.stderr.isatty():
        yield lambda text: None
        return
    line = StatusLine(label)
    status = None
    console = Console(stderr=True)

    def update(text: str) -> None:
        nonlocal status
        line.set(text)
        if status is None:
            if line.clock() - line.start < DELAY:
                return
            status = console.status(line)
            status.start()

    try:
        yield update
    finally:
        if status is not None:
            status.stop()
