"""The warehouse's tables as Delta Lake tables (delta-rs), and what keeps a batch whole
across them.

    <warehouse>/tables/<table>/    a Delta table each: games, seats, events, …, rejects, and
                                   the statistics' summaries (ingest.warehouse.summaries)
    <warehouse>/tables/batches/    a row for every commit of the warehouse (a batch of
                                   matches, a compaction, a conversion): the commit point
    <warehouse>/tables/ratings/    the ratings' history (ingest.analyses.ratings), derived
                                   from the batches after they are committed: not pinned

Delta commits one table at a time, and a batch of matches spans them all. So a batch's files
are committed to every other table first, and then a row to `batches`, whose commit carries
in its own metadata the version every table stood at with it (its pins). A reader takes a
version of `batches` (the latest, or one asked for) and reads each table at its pin: it sees
all of a batch or none of it, whatever an ingest is doing or a kill left behind, and a
version of the warehouse read again later reads the same. A table's commits past its pin
(an ingest killed between its tables) are undone by the next writer before it commits
anything (`Committer.settle`), so no pin ever takes them in.

Workers write a batch's data files straight into the tables' folders; a file no commit names
is not part of any table (a killed worker's), and `vacuum` deletes it later. Only the one
writer of the warehouse commits (ingest.warehouse.warehouse.Writer holds its lock).
"""

from __future__ import annotations

import functools
import json
import os
import re
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.fs as pafs
import pyarrow.parquet as pq
from deltalake import CommitProperties, DeltaTable, PostCommitHookProperties
from deltalake.transaction import AddAction

from ingest.warehouse.location import (
    SCHEME,
    Place,
    S3Path,
    arrow_path,
    place,
    put_new,
    told,
)
from ingest.warehouse.lock import holding
from ingest.warehouse.origin import Origin

T = TypeVar("T")
TABLES = "tables"
BATCHES = "batches"
FIRST = "00000000000000000000.json"  # a Delta table's first commit, in its _delta_log
# What a Delta table's log holds once it is a table: commits, checkpoints, and the pointer
# to the last checkpoint (a compaction removes the commits before it).
_LOGGED = re.compile(r"\d{20}\.(json|checkpoint(\.\d+\.\d+)?\.parquet)|_last_checkpoint")
PINS = "squire.pins"  # the key of a `batches` commit's metadata that holds the pins
BATCH_SCHEMA = pa.schema(
    [
        ("version", pa.int64()),  # the version of `batches` this row was committed as
        ("kind", pa.string()),  # ingest, compaction, conversion
        ("matches", pa.int64()),  # stored by this commit
        ("rejects", pa.int64()),
        ("committed_at", pa.timestamp("us", tz="UTC")),
        # what made it (ingest.warehouse.origin): NULL in the rows of an older squire
        ("made_by", pa.string()),
        ("logs", pa.int64()),
        ("experiment", pa.string()),
    ]
)
# On S3, where a prefix has no time of change, an object every commit writes again: what a
# reader checks for news at every query (ingest.warehouse.warehouse.signature).
CHANGED = "CHANGED"
# A checkpoint every ten commits (Delta's default is a hundred): a reader opening a table
# reads its last checkpoint and the commits since, each a request on S3, and an ingest
# commits every table every few seconds.
LOG = {"delta.checkpointInterval": "10"}
# Expired log entries are cleaned up by `squire compact`, not after every commit: a
# reader reading an older version needs them.
HOOKS = PostCommitHookProperties(create_checkpoint=True, cleanup_expired_logs=False)


# Tables of a warehouse on S3 worked on at once (made, opened, appended to).
COMMITTERS = 8


def folder(db: Place, table: str) -> Place:
    return place(db) / TABLES / table


def exists(db: Place) -> bool:
    """Whether `db` holds Delta tables (a first ingest makes them, empty or not)."""
    return is_table(folder(db, BATCHES))


def is_table(path: Place) -> bool:
    """Whether `path` is a Delta table: its log holds a commit or a checkpoint. On a folder,
    delta-rs makes the log's folder before it writes the first commit beside it and links
    it into place, so a kill on the way leaves a log with nothing in it (or the commit's
    scratch copy), which is not a table yet. On S3 a log exists with its first object,
    which a conditional put writes whole."""
    log = path / "_delta_log"
    if isinstance(log, S3Path):
        return log.is_dir()
    try:
        with os.scandir(log) as entries:
            return any(_LOGGED.fullmatch(e.name) for e in entries)
    except (FileNotFoundError, NotADirectoryError):
        return False


def create(db: Place, schemas: Mapping[str, pa.Schema]) -> dict[str, DeltaTable]:
    """Every table of `schemas` that is missing, empty, then `batches`: a warehouse exists
    once `batches` does, so a kill on the way leaves the rest to the next writer. The tables
    it made, open at their first version (on S3, opening one again is four requests)."""

    def make(table: str, schema: pa.Schema) -> tuple[str, DeltaTable | None]:
        path = folder(db, table)
        if isinstance(path, S3Path):
            return table, _made_on_s3(path, schema)
        if is_table(path):
            return table, None
        path.mkdir(parents=True, exist_ok=True)
        return table, DeltaTable.create(str(path), schema=schema, mode="ignore",
                                        configuration=LOG)  # fmt: skip

    made = dict(at_once(place(db), make, schemas.items()))
    made.update([make(BATCHES, BATCH_SCHEMA)])
    return {table: delta for table, delta in made.items() if delta is not None}


def _made_on_s3(path: S3Path, schema: pa.Schema) -> DeltaTable | None:
    """The empty table `path` on S3, unless it exists (None then). delta-rs makes a table on
    S3 in fourteen requests (it reads its first commit back three times); the same commit is
    made here by delta-rs in a scratch folder, then written as the table's first by a
    conditional put, which refuses it where a table is there already: five requests, the
    table opened included."""
    with tempfile.TemporaryDirectory() as scratch:
        DeltaTable.create(scratch, schema=schema, configuration=LOG)
        lines = (Path(scratch) / "_delta_log" / FIRST).read_bytes().splitlines()
    for i, line in enumerate(lines):  # the commit names the scratch folder as its table's
        action = json.loads(line)
        if "commitInfo" in action:
            action["commitInfo"].get("operationParameters", {})["location"] = str(path)
            lines[i] = json.dumps(action, separators=(",", ":")).encode()
    if not put_new(path / "_delta_log" / FIRST, b"\n".join(lines) + b"\n"):
        return None
    return DeltaTable(str(path))


def at_once(db: Place, work: Callable[..., T], items: Iterable[Any]) -> list[T]:
    """`work(*item)` for each of `items`; on S3 several at a time, where each table of the
    warehouse waits on a few requests, which delta-rs and pyarrow make without holding the
    interpreter (on a folder they are soon done, and threads would only cost the memory of
    their own allocations). Every item is worked on, then the first failure is raised."""
    items = list(items)
    if not isinstance(db, S3Path):
        return [work(*item) for item in items]
    with ThreadPoolExecutor(min(COMMITTERS, len(items) or 1)) as pool:
        done = [pool.submit(work, *item) for item in items]
    return [d.result() for d in done]


# Min/max statistics let a reader skip the files that cannot hold a match it looks up by
# game_id (the viewer); on other columns of the big tables they cost a fifth of the writing
# and no query filters on them.
STATISTICS: dict[str, bool | list[str]] = {"games": True, "seats": True, "rejects": True}
# Rows of a file's row group, where a file is written whole (a compaction's): few groups to
# scan, each small enough that a look-up of one match by its statistics reads little.
ROW_GROUP = 128 * 1024


def write_file(db: Place, table: str, rows: pa.Table) -> AddAction:
    """`rows` as a new data file of `table`, not yet committed: what a commit adds."""
    name = f"{uuid.uuid4().hex}.parquet"
    path = folder(db, table) / name
    filesystem, where = arrow_path(path)
    # the size as written, not asked of the file after: on S3 that is a request a file
    with (filesystem or pafs.LocalFileSystem()).open_output_stream(where) as out:
        pq.write_table(
            rows,
            out,
            compression="lz4",
            write_statistics=STATISTICS.get(table, ["game_id"]),
            row_group_size=ROW_GROUP,
        )
        size = out.tell()
    # What Delta readers skip files by: the row count, and game_id's bounds.
    stats: dict[str, object] = {"numRecords": rows.num_rows}
    if "game_id" in rows.column_names and rows.num_rows and not rows["game_id"].null_count:
        bounds = pc.min_max(rows["game_id"]).as_py()
        stats |= {"minValues": {"game_id": bounds["min"]}, "maxValues": {"game_id": bounds["max"]},
                  "nullCount": {"game_id": 0}}  # fmt: skip
    return AddAction(name, size, {}, time.time_ns() // 1_000_000, True, json.dumps(stats))


def discard(db: Place, table: str, actions: Sequence[AddAction]) -> None:
    """Files written for a commit that will not be made."""
    for action in actions:
        (folder(db, table) / action.path).unlink(missing_ok=True)


@dataclass(frozen=True)
class Snapshot:
    """A version of the warehouse: that of `batches`, and the version of each table it
    pins (none at all: nothing committed yet)."""

    version: int
    pins: dict[str, int]
    committed_at: datetime | None
    latest: int  # the warehouse's latest version when this one was read

    @property
    def earlier(self) -> bool:
        """Whether this is a version before the latest (what is stored beside the tables,
        the ratings and the experiments' records, then has to be read as it stood)."""
        return self.version < self.latest


def snapshot(db: Place, as_of: int | datetime | None = None) -> Snapshot:
    """The warehouse's latest version, or the one it stood at at `as_of` (a version of
    `batches`, or a time); ValueError for a version it never had."""
    latest = _latest(db)
    if as_of is None:
        version = latest
    elif isinstance(as_of, datetime):
        # By the times `batches` records, which `squire versions` lists: delta-rs goes by
        # its log files' times, a little later than those, and would take a time read off
        # that list for the version before.
        stamped = [(v, at) for v, at in _times(db, latest) if at <= as_of]
        if not stamped:
            raise ValueError(f"{db} has no version as early as {as_of:%Y-%m-%d %H:%M:%S %Z}")
        version = max(stamped)[0]
    else:
        if not 0 <= as_of <= latest:
            raise ValueError(f"{db} has versions 0 to {latest}, not {as_of}")
        version = as_of
    info = _commit_info(db, version)
    pins = json.loads(str(info.get(PINS, "{}")))
    stamp = info.get("timestamp")
    at = datetime.fromtimestamp(stamp / 1000, UTC) if isinstance(stamp, int) else None
    return Snapshot(version, {str(k): int(v) for k, v in pins.items()}, at, latest)


def _latest(db: Place) -> int:
    """The latest version of `batches`: the writer's own table's while it holds the
    warehouse (no other process commits meanwhile), else read afresh (on S3 that is two
    requests a commit since its last checkpoint, and two more)."""
    path = str(folder(db, BATCHES))
    with _READING:
        live = _LIVE.get(path) if holding(place(db)) else None
        if live is not None:
            return int(live.version())
    return int(DeltaTable(path).version())


def _times(db: Place, version: int) -> list[tuple[int, datetime]]:
    """Each version of the warehouse up to `version`, and when it was committed."""
    out: list[tuple[int, datetime]] = []
    for uri in files(db, BATCHES, version):
        filesystem, where = arrow_path(place(uri))
        rows = pq.read_table(where, columns=["version", "committed_at"], filesystem=filesystem)
        out += zip(rows["version"].to_pylist(), rows["committed_at"].to_pylist(), strict=True)
    return out


def _commit_info(db: Place, version: int) -> dict[str, object]:
    """The commitInfo of `batches`' commit `version` (read from its log: delta-rs' history
    lists the latest commits, whatever version a table was loaded at)."""
    entry = folder(db, BATCHES) / "_delta_log" / f"{version:020d}.json"
    for line in entry.read_text().splitlines():
        action = json.loads(line)
        if "commitInfo" in action:
            info: dict[str, object] = action["commitInfo"]
            return info
    return {}


def files(db: Place, table: str, version: int) -> list[str]:
    """The data files of `table` at `version`."""
    return list(_files_at(str(folder(db, table)), version))


# A reader opens every table at its pin, and a dashboard opens a reader at every commit: a
# table read before is brought forward from where it was (the commits since), not loaded
# again from its last checkpoint, and a version's files, which never change, are kept.
_READ: dict[str, DeltaTable] = {}
_READING = threading.Lock()


# The writer's own tables, at the version it last committed: a reader the writer opens (the
# ingest's, for the ratings and the fit) lists their files without loading them again.
_LIVE: dict[str, DeltaTable] = {}


@functools.lru_cache(maxsize=1024)
def _files_at(path: str, version: int) -> tuple[str, ...]:
    with _READING:
        table = _LIVE.get(path)
        if table is None or table.version() != version:
            table = _READ.get(path)
            if table is None or table.version() > version:
                table = _READ[path] = DeltaTable(path, version=version)
            elif table.version() < version:
                table.load_as_version(version)
        if path.startswith(SCHEME):  # what each file is, which DuckDB would ask S3 again
            added = pa.table(table.get_add_actions(flatten=False))
            told(
                path,
                added["path"].to_pylist(),
                added["size_bytes"].to_pylist(),
                added["modification_time"].to_pylist(),
            )
        return tuple(table.file_uris())


def columns(db: Place, table: str, version: int) -> frozenset[str]:
    """The columns of `table` at `version`, by its Delta schema: every data file it reads at
    that version holds them (the writer writes `batches` again whole where it adds columns,
    `Committer.pin`), so a reader on S3 need open none of them to know."""
    return _columns_at(str(folder(db, table)), version)


@functools.lru_cache(maxsize=1024)
def _columns_at(path: str, version: int) -> frozenset[str]:
    _files_at(path, version)  # loads the table at that version, which stays kept
    with _READING:
        live = _LIVE.get(path)
        table_at = live if live is not None and live.version() == version else _READ.get(path)
        if table_at is None or table_at.version() != version:
            table_at = DeltaTable(path, version=version)
        return frozenset(f.name for f in table_at.schema().fields)


def latest_files(db: Place, table: str) -> list[str] | None:
    """The data files of `table` at its latest version; None where it is not a Delta table
    (yet). For a table no batch pins (the ratings, written after the batches they rate)."""
    path = folder(db, table)
    if not is_table(path):
        return None
    # read afresh, not brought forward from a table kept: one small table, read at a
    # reader's opening, and one deleted and made again would not be brought forward
    return list(DeltaTable(str(path)).file_uris())


class Committer:
    """The writer's side: appends to every table, and the `batches` commit that pins them.
    Only one exists for a warehouse at a time (its writer's lock)."""

    def __init__(self, db: Place, schemas: Mapping[str, pa.Schema]) -> None:
        self.db = place(db)
        self.schemas = dict(schemas)
        made = create(self.db, self.schemas)

        def opened(table: str) -> DeltaTable:
            return made[table] if table in made else DeltaTable(str(folder(self.db, table)))

        self.tables = dict(zip(self.schemas, at_once(self.db, opened, [(t,) for t in schemas]),
                               strict=True))  # fmt: skip
        self.batches = opened(BATCHES)
        with _READING:
            _LIVE.clear()
            _LIVE.update({str(folder(self.db, t)): d for t, d in self.tables.items()})
            _LIVE[str(folder(self.db, BATCHES))] = self.batches

    def settle(self) -> list[str]:
        """Undo every table's commits past its pin (an ingest killed between its tables'
        commits and the one to `batches`): the tables restored."""
        pins = snapshot(self.db).pins
        undone = []
        for table, delta in self.tables.items():
            pin = pins.get(table, 0)
            if delta.version() > pin:
                delta.restore(pin)
                delta.update_incremental()
                undone.append(table)
        return undone

    def commit(
        self,
        adds: Mapping[str, Sequence[AddAction]],
        kind: str,
        matches: int,
        rejects: int,
        stamp: datetime,
        made: Origin,
    ) -> int:
        """The files of `adds` appended to their tables, then the row to `batches` that makes
        them part of the warehouse; the warehouse's new version."""

        def append(table: str) -> None:
            delta = self.tables[table]
            delta.create_write_transaction(list(adds[table]), mode="append",
                                           schema=self.schemas[table],
                                           post_commithook_properties=HOOKS)  # fmt: skip
            delta.update_incremental()

        # A failure leaves some tables past their pins, as a kill between them would: the
        # next writer settles them.
        at_once(self.db, append, [(t,) for t, actions in adds.items() if actions])
        return self.pin(kind, matches, rejects, stamp, made)

    def pin(self, kind: str, matches: int, rejects: int, stamp: datetime, made: Origin) -> int:
        """A row to `batches` pinning every table at its version now: the commit point."""
        version = self.batches.version() + 1
        row = pa.Table.from_pylist(
            [{"version": version, "kind": kind, "matches": matches, "rejects": rejects,
              "committed_at": stamp, **made.columns()}],
            schema=BATCH_SCHEMA,
        )  # fmt: skip
        # `batches` of an older squire lacks columns of today's: written again whole with
        # them, NULL in its rows, in the same commit as the new row (so that version is still
        # the row's). A version's files then all hold its schema's columns, which a reader
        # on S3 goes by (`columns`), and an older version still reads its own files.
        upgrade = set(BATCH_SCHEMA.names) - {f.name for f in self.batches.schema().fields}
        if upgrade:
            row = pa.concat_tables([*self._rows_before(), row])
        action = write_file(self.db, BATCHES, row)
        pins = {t: delta.version() for t, delta in self.tables.items()}
        self.batches.create_write_transaction(
            [action],
            mode="overwrite" if upgrade else "append",
            schema=BATCH_SCHEMA,
            commit_properties=CommitProperties(custom_metadata={PINS: json.dumps(pins)}),
            post_commithook_properties=HOOKS,
        )
        self.batches.update_incremental()
        if isinstance(self.db, S3Path):
            changed(self.db)
        return int(self.batches.version())

    def _rows_before(self) -> list[pa.Table]:
        """The rows `batches` holds now, each file's with the columns it lacks as NULL."""
        out = []
        for uri in self.batches.file_uris():
            filesystem, where = arrow_path(place(uri))
            rows = pq.read_table(where, filesystem=filesystem)
            held = [
                rows[f.name].cast(f.type)
                if f.name in rows.column_names
                else pa.nulls(rows.num_rows, f.type)
                for f in BATCH_SCHEMA
            ]
            out.append(pa.table(held, schema=BATCH_SCHEMA))
        return out


def changed(db: S3Path) -> None:
    """Tell the readers of a warehouse on S3 that it changed."""
    (db / CHANGED).write_text(f"{time.time_ns()}\n")
