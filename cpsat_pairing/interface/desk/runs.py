"""A round solved off the request: the request waits a moment (most rounds are done by
then); a longer one answers with a page that shows the progress and can cancel it.

One run at a time (the engine is not shared between threads).  A run's answer is kept
until it is collected once, then dropped; a cancelled run stops at its next progress
report (between brackets and tiers)."""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Generic, TypeVar

T = TypeVar("T")
Progress = Callable[[str], None]


class Cancelled(Exception):
    """The person at the desk cancelled the run."""


@dataclass
class Run(Generic[T]):
    token: str
    label: str
    future: Future[T]
    started: float = field(default_factory=time.monotonic)
    status: str = ""
    cancelled: threading.Event = field(default_factory=threading.Event)

    def report(self, text: str) -> None:
        if self.cancelled.is_set():
            raise Cancelled(self.label)
        self.status = text

    @property
    def seconds(self) -> float:
        return time.monotonic() - self.started


class Runs(Generic[T]):
    """The runs under way or answered but not yet collected."""

    KEEP = 600.0  # seconds an answer nobody collects is kept

    def __init__(self) -> None:
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="desk-run")
        self._runs: dict[str, Run[T]] = {}
        self._lock = threading.Lock()

    def start(self, label: str, work: Callable[[Progress], T]) -> Run[T]:
        run: Run[T] = Run(secrets.token_urlsafe(16), label, Future())

        def job() -> T:
            run.report("started")
            return work(run.report)

        with self._lock:
            self._forget_old()
            run.future = self._pool.submit(job)
            self._runs[run.token] = run
        return run

    def get(self, token: str) -> Run[T] | None:
        with self._lock:
            return self._runs.get(token)

    def collect(self, token: str) -> Run[T] | None:
        """The run, forgotten here (its answer is given once)."""
        with self._lock:
            return self._runs.pop(token, None)

    def cancel(self, token: str) -> bool:
        run = self.collect(token)
        if run is None:
            return False
        run.cancelled.set()
        run.future.cancel()
        return True

    def _forget_old(self) -> None:
        for token, run in list(self._runs.items()):
            if run.future.done() and run.seconds > self.KEEP:
                del self._runs[token]
