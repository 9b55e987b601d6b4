"""What one visitor may take of the server, counted in the server's process: an hourly quota
of each kind of work, and the one slot the heavy jobs (move analysis, rescore, experiment)
share, with its queue.

Both are kept in memory, as a web server keeps its rate limits: a restart forgets them, and
takes nothing from anyone. The heavy slot is also the only one on its machine: a move
analysis still takes `moves.running`'s lock, which a `squire review` holds too.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager

HOUR = 3600.0  # seconds


class Quotas:
    """How many of a kind of work each visitor did in the last hour."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._done: dict[tuple[str, str], deque[float]] = {}
        self._lock = threading.Lock()
        self._clock = clock

    def take(self, key: str, kind: str, most: int) -> int | None:
        """Count one more of `kind` for `key` and return None, or return the seconds until
        one is free again when `most` were done in the last hour (nothing counted)."""
        now = self._clock()
        with self._lock:
            done = self._done.setdefault((key, kind), deque())
            while done and now - done[0] >= HOUR:
                done.popleft()
            if len(done) >= most:
                return int(HOUR - (now - done[0])) + 1
            done.append(now)
            return None

    def give_back(self, key: str, kind: str) -> None:
        """Uncount the last one: the work it was taken for was never started."""
        with self._lock:
            done = self._done.get((key, kind))
            if done:
                done.pop()


class Slot:
    """One job at a time, the others waiting in the order they asked."""

    def __init__(self) -> None:
        self._queue: list[int] = []  # tickets waiting or running, the running one first
        self._changed = threading.Condition()
        self._tickets = itertools.count()
        self.running: str | None = None  # whose job runs, as the queue says it

    @contextmanager
    def held(self, who: str, waiting: Callable[[int], None] | None = None) -> Iterator[None]:
        """Held while the job runs; `waiting(n)` is told, while it waits, how many jobs are
        ahead of it (it may raise to leave the queue: a reader who left the page)."""
        ticket = next(self._tickets)
        with self._changed:
            self._queue.append(ticket)
        try:
            with self._changed:
                while self._queue[0] != ticket:
                    if waiting is not None:
                        waiting(self._queue.index(ticket))
                    self._changed.wait(timeout=1.0)
                self.running = who
            yield
        finally:
            with self._changed:
                if self._queue[0] == ticket:
                    self.running = None
                self._queue.remove(ticket)
                self._changed.notify_all()

    def ahead(self) -> int:
        """How many jobs are running or waiting."""
        with self._changed:
            return len(self._queue)


QUOTAS = Quotas()
HEAVY = Slot()
