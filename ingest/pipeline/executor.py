"""One interface for parallel work: in this process, local processes, or a Dask cluster.

Work is handed out in chunks (hundreds of matches per task), since a task costs far more
to schedule than a match costs to replay; results come back as each chunk finishes.
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from multiprocessing import forkserver
from typing import Any, Protocol, TypeVar

from ingest.pipeline.lifeline import die_with

T = TypeVar("T")
R = TypeVar("R")


class Executor(Protocol):
    def map_unordered(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[R]: ...

    def close(self) -> None: ...


class InProcess:
    """jobs=1: no other process at all (also what tests and a debugger want)."""

    def map_unordered(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
        for item in items:
            yield fn(item)

    def close(self) -> None:
        pass


# What the fork server imports once for all the workers it forks: the engines and ingest.
PRELOAD = ("ingest.pipeline.pipeline", "ingest.simulation.simulate")
# Workers that build Arrow tables need pandas too: pyarrow imports it the first time it
# converts a Python list (to tell whether it was given pandas objects), 0.44 s in every
# worker otherwise (measured). Simulation never does, and would only wait for it.
INGEST_PRELOAD = (*PRELOAD, "pandas")
# A move analysis's workers: the engines and the analysis, and not polars, which they import
# themselves to score cut playouts: polars imported before a fork leaves the worker's
# thread pool stuck at its first query (measured: a worker never returned).
ANALYSIS_PRELOAD = ("ingest.analyses.moves",)


def start_early(
    jobs: int | None = None, cluster: str | None = None, preload: Sequence[str] = PRELOAD
) -> None:
    """Start the local workers' fork server now, so that it imports the engines (most of a
    second) while this process imports its own and finds the logs, not after."""
    if cluster or (jobs or os.cpu_count() or 1) == 1:
        return
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(list(preload))
    forkserver.ensure_running()


class LocalProcesses:
    def __init__(self, jobs: int, preload: Sequence[str] = PRELOAD) -> None:
        # forkserver: workers start clean, whatever threads the parent runs (progress bars),
        # forked from a server that has imported the engines once.
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(list(preload))
        self.pool = ProcessPoolExecutor(
            max_workers=jobs, mp_context=context, initializer=die_with, initargs=(os.getpid(),)
        )
        self.jobs = jobs

    def map_unordered(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
        # Keep a bounded number of tasks in flight so memory stays flat however many items.
        pending: set[Future[R]] = set()
        queue = iter(items)
        limit = 2 * self.jobs
        for item in queue:
            pending.add(self.pool.submit(fn, item))
            if len(pending) >= limit:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    yield future.result()
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()

    def close(self) -> None:
        self.pool.shutdown(cancel_futures=True)
        # The fork server keeps the engines' imports, 150 MB, for workers no longer wanted
        # while the ingest rates and fits; a later pool starts it again. Python stops it so
        # only in its own tests: without that method it stays, as before.
        stop = getattr(getattr(forkserver, "_forkserver", None), "_stop", None)
        if callable(stop):
            stop()


class DaskCluster:
    """The same work on an existing Dask distributed cluster (`tcp://host:port`)."""

    def __init__(self, address: str) -> None:
        from distributed import Client  # imported only when a cluster is asked for

        self.client = Client(address)

    def map_unordered(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
        # Tasks are sent as the workers take them, two a worker ahead, as local processes
        # are handed theirs: an ingest into S3 carries its logs' bytes in its tasks, and all
        # of them sent at once were every log in this process's memory (and one graph the
        # scheduler warned of, 16 MiB for the 1,310 sample logs).
        from distributed import as_completed

        queue = iter(items)
        ahead = 2 * max(1, len(self.client.scheduler_info().get("workers", {})))
        running = as_completed(
            [self.client.submit(fn, item, pure=False) for item in itertools.islice(queue, ahead)]
        )
        for future in running:
            for item in itertools.islice(queue, 1):
                running.add(self.client.submit(fn, item, pure=False))
            yield future.result()

    def close(self) -> None:
        self.client.close()


def make_executor(
    jobs: int | None = None, cluster: str | None = None, preload: Sequence[str] = PRELOAD
) -> Executor:
    """A Dask cluster when an address is given, else `jobs` local processes (default: all
    cores) forked from a server that has imported `preload`, or this process alone for
    jobs=1."""
    if cluster:
        return DaskCluster(cluster)
    jobs = jobs or os.cpu_count() or 1
    return InProcess() if jobs == 1 else LocalProcesses(jobs, preload)


def chunked(count: int, jobs: int, largest: int = 500) -> list[tuple[int, int]]:
    """(start, stop) ranges covering 0..count: a few per worker, none above `largest`; with
    several workers the last round of chunks is cut in four, so none waits long for the
    last one to end."""
    jobs = max(1, jobs)
    size = max(1, min(largest, -(-count // (4 * jobs))))
    tail_start = max(0, count - jobs * size) if jobs > 1 else count
    tail_size = max(1, size // 4)
    return [(start, min(start + size, tail_start)) for start in range(0, tail_start, size)] + [
        (start, min(start + tail_size, count)) for start in range(tail_start, count, tail_size)
    ]


def worker_count(executor: Executor) -> int:
    if isinstance(executor, LocalProcesses):
        return executor.jobs
    if isinstance(executor, DaskCluster):
        workers: dict[str, Any] = executor.client.scheduler_info().get("workers", {})
        return max(1, len(workers))
    return 1
