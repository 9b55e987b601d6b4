"""`squire ingest`: logs on disk to committed warehouse batches, in parallel and resumable."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path

import pyarrow as pa
from deltalake.transaction import AddAction

from ingest.analyses import ratings
from ingest.analyses.review import refresh_models
from ingest.files.catalogues import Library, keep
from ingest.files.log_list import LogList
from ingest.files.read import find_logs
from ingest.pipeline.executor import INGEST_PRELOAD, Executor, chunked, make_executor, worker_count
from ingest.pipeline.rows import read_carried, replay_files
from ingest.warehouse import compact as compaction
from ingest.warehouse.compact import Compacted
from ingest.warehouse.location import Place, S3Path, storage_environment, storage_options
from ingest.warehouse.memory import return_freed
from ingest.warehouse.origin import INGEST, Origin
from ingest.warehouse.tables import Reject
from ingest.warehouse.warehouse import (
    DEFAULT_DB,
    Conflict,
    WarehouseBusy,
    Writer,
    open_reader,
    write_batch,
)
from replay.errors import ReplayError, internal, one_line


@dataclass
class Staged:
    """What a worker hands back: the files it wrote the batch into (not yet committed), its
    summaries, and what the batch holds."""

    files: dict[str, AddAction]
    summaries: dict[str, pa.Table]
    shas: dict[str, str]
    paths: dict[str, str]
    repeats: list[tuple[str, str, str]]
    rejects: list[Reject]
    logs: int


@dataclass(frozen=True)
class Task:
    """A chunk of logs for one worker; `names`: what to record a file under, where that is
    not its path (an upload's own file name)."""

    paths: list[str]
    db: Place
    stamp: datetime
    names: dict[str, str] = field(default_factory=dict)
    # the settings of a warehouse on S3, for a worker on a machine whose environment lacks them
    storage: dict[str, str] = field(default_factory=dict)
    # the logs as read where the ingest runs, for a worker that does not see its files (a
    # cluster's, with a warehouse on S3): by path, the bytes or why they could not be read
    carried: dict[str, bytes | ReplayError] | None = None


def stage(task: Task) -> list[Staged]:
    """Worker side: replay a chunk of logs and write its rows as files of the warehouse's
    tables, for the writer to commit.

    A log that fails is rejected on its own by the replay; should anything else fail for a
    chunk (a value that will not go into its column), the chunk is halved until the log it
    fails on is alone, and that log is rejected (INTERNAL): the others are still staged. A
    file system that cannot be written stops the ingest (OSError): no log is at fault."""
    try:
        return [_stage(task)]
    except OSError:
        raise
    except Exception as err:
        if len(task.paths) > 1:
            half = len(task.paths) // 2
            return [
                *stage(replace(task, paths=task.paths[:half])),
                *stage(replace(task, paths=task.paths[half:])),
            ]
        (path,) = task.paths
        failed = internal(one_line(task.names.get(path, path)), 1, err)
        empty = _stage(replace(task, paths=[]))
        empty.rejects.append(Reject(failed.path, failed.line, failed.rule, failed.message, ""))
        empty.logs = 1
        return [empty]


def _stage(task: Task) -> Staged:
    """The catalogues the chunk's matches were played with are kept in the warehouse before
    its files are written, so a committed match never lacks its catalogue."""
    if task.storage:
        storage_options(task.storage)
    batch = replay_files(task.paths, task.names, Library(task.db), task.carried)
    games = batch.tables["games"]
    batch.tables["games"] = games.append_column(
        "ingested_at", pa.array([task.stamp] * games.num_rows, pa.timestamp("us", tz="UTC"))
    )
    played_with = games.select(["game", "catalogue", "catalogue_version", "catalogue_sha256"])
    for game, name, version, sha256 in set(zip(*played_with.to_pydict().values())):
        if name is not None:
            keep(task.db, game, name, version, sha256)
    files, summed = write_batch(task.db, batch.tables)
    return Staged(files, summed, batch.shas, batch.paths, batch.repeats, batch.rejects, batch.logs)


@dataclass
class Summary:
    logs: int = 0
    ingested: int = 0
    present: int = 0
    conflicts: list[Conflict] = field(default_factory=list)
    rejects: list[Reject] = field(default_factory=list)
    seconds: float = 0.0
    compacted: Compacted | None = None  # what the ingest's own compaction did, if it ran

    @property
    def ok(self) -> bool:
        return not self.rejects and not self.conflicts

    def lines(self) -> list[str]:
        rate = self.logs / self.seconds if self.seconds else 0.0
        head = (
            f"{self.logs} logs in {self.seconds:.1f} s ({rate:,.0f} matches/s): "
            f"{self.ingested} ingested, {self.present} already present, "
            f"{len(self.conflicts)} conflicts, {len(self.rejects)} rejected"
        )
        out = [head]
        if self.compacted is not None:
            out.append(f"compacted: {self.compacted.line()}")
        out += [f"conflict: {c}" for c in self.conflicts]
        out += [f"rejected: {r}" for r in sorted(self.rejects, key=lambda r: (r.path, r.line))]
        return out


# Below this many logs an ingest with no --jobs stays in its own process: starting and
# stopping a pool of workers costs 1 to 3 s, about what one process takes to replay a
# thousand of the bundled samples (1,310 of them: 3.5-4.2 s alone, 3.1-3.2 s on two workers).
FEW_LOGS = 500


def ingest(
    targets: Sequence[str | Path],
    db: Place = DEFAULT_DB,
    jobs: int | None = None,
    cluster: str | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> Summary:
    """Replay every log under `targets` and commit the new matches; FileNotFoundError if a
    target matches nothing, WarehouseBusy if another ingest holds the warehouse."""
    started = time.perf_counter()
    # Handed over, not kept here: ingest_logs gives the paths up once they are staged.
    return ingest_logs(LogList(find_logs([str(t) for t in targets])), db, jobs, cluster,
                       on_progress, started)  # fmt: skip


def ingest_logs(
    logs: Sequence[str | Path],
    db: Place = DEFAULT_DB,
    jobs: int | None = None,
    cluster: str | None = None,
    on_progress: Callable[[int], None] | None = None,
    started: float | None = None,
    names: Mapping[str, str] | None = None,
    made: Origin | None = None,
) -> Summary:
    """`ingest` of log files already found (`find_logs`; many are best held in a LogList),
    without looking for them again; `started` (default: now) is when the ingest began, for
    the summary's rate; `names`, by path, what to record a file under instead of its path
    (an upload's file names); `made`, what its versions say made them (default: an ingest of
    these logs)."""
    started = time.perf_counter() if started is None else started
    paths = logs if isinstance(logs, LogList) else [str(p) for p in logs]
    del logs  # the paths are held by `paths` alone, given up once staged
    summary = Summary(logs=len(paths))
    if jobs is None and cluster is None and len(paths) < FEW_LOGS:
        jobs = 1  # this process alone: sooner done than a pool of workers is started
    stamp = datetime.now(UTC)
    made = Origin(INGEST, logs=len(paths)) if made is None else made
    writer = Writer(db, meanwhile=True, made=made)  # the workers start while its tables open
    try:
        executor = make_executor(jobs, cluster, INGEST_PRELOAD)
        try:
            # a cluster's workers need not see the logs, when they need not see the warehouse
            carry = cluster is not None and isinstance(writer.db, S3Path)
            _stage_and_commit(
                paths, names or {}, stamp, executor, writer, summary, on_progress, carry
            )
        finally:
            executor.close()  # the workers' memory is back before the ratings and the fit
        del paths  # so are the paths, which only staging needed
        derive(writer)
    finally:
        writer.close()
    summary.compacted = _compact_if_piled(writer.db)
    summary.seconds = time.perf_counter() - started
    return summary


def derive(writer: Writer) -> None:
    """What a run derives once its last batch is committed, still holding the warehouse: the
    ratings and the model's fit. Also when nothing was new, so that the matches of a run
    killed before this point get rated. The index of stored matches is given up first (at a
    million matches, memory the ratings' peak would otherwise stand on)."""
    writer.finish_commits()
    return_freed()
    ratings.migrate(writer.db)  # before the reader both share opens its views
    reader = open_reader(writer.db)
    try:
        ratings.refresh(writer.db, reader)
        return_freed()  # before the fit, not on top of it
        refresh_models(writer.db, reader)
    finally:
        reader.close()


def _stage_and_commit(
    paths: Sequence[str],
    names: Mapping[str, str],
    stamp: datetime,
    executor: Executor,
    writer: Writer,
    summary: Summary,
    on_progress: Callable[[int], None] | None,
    carry: bool = False,
) -> None:
    """The workers stage the logs a chunk at a time; what they write is committed as it
    comes, the batches of a few seconds together (`Writer.due`). A log counts as done once
    its batch is committed: an upload notes it then, and a kill before loses nothing it
    noted."""
    # Tasks are made as the workers take them: a million paths stand as Python strings only
    # a few chunks at a time.
    storage = storage_environment() if isinstance(writer.db, S3Path) else {}
    work = (
        Task(
            chunk,
            writer.db,
            stamp,
            {p: names[p] for p in chunk if p in names},
            storage,
            read_carried(chunk) if carry else None,  # read as the workers take them
        )
        for chunk in (list(paths[a:b]) for a, b in chunked(len(paths), worker_count(executor)))
    )
    taken = 0  # logs whose batch is taken but not yet committed
    for parts in executor.map_unordered(stage, work):
        for staged in parts:
            done = writer.commit(staged.files, staged.shas, staged.paths, staged.repeats,
                                 staged.rejects, stamp, staged.summaries)  # fmt: skip
            summary.ingested += done.ingested
            summary.present += done.present
            summary.conflicts += done.conflicts
            summary.rejects += done.rejects
            taken += staged.logs
        if writer.due() or (taken and not writer.pending):
            writer.flush()
            if on_progress:
                on_progress(taken)
            taken = 0
    writer.flush()
    if on_progress and taken:
        on_progress(taken)


def _compact_if_piled(db: Place) -> Compacted | None:
    """Every task writes a file of each table: once they pile up, merge them (unless another
    process holds the warehouse)."""
    if compaction.small_files(db) < compaction.PILE:
        return None
    try:
        return compaction.compact(db)
    except WarehouseBusy:
        return None
