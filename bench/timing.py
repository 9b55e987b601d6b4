"""Timing shared by the bench scripts."""

from __future__ import annotations

import time
from collections.abc import Callable


def best_of(run: Callable[[], None], times: int = 3) -> float:
    """Seconds of the fastest of a few runs: the machine's noise only ever slows a run."""
    seconds = []
    for _ in range(times):
        started = time.perf_counter()
        run()
        seconds.append(time.perf_counter() - started)
    return min(seconds)
