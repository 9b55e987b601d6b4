"""The warehouse: Delta Lake tables committed a batch at a time, read through DuckDB views.

DuckDB 2 lets one process hold a database file for writing and then no other process may
open it, not even to read; copying the whole file to a snapshot after each ingest costs time
in proportion to the warehouse (0.8 s per 2,000 matches, measured). So matches are stored as
Delta tables instead (ingest.warehouse.store), which DuckDB reads file by file:

    <warehouse>/tables/<table>/   a Delta table each (games, seats, events, …, rejects, the
                                  summaries), and `batches`, the commit point of them all
    <warehouse>/LOCK              held by the one process that writes
    <warehouse>/meta.json         the schema version
    <warehouse>/catalogues/       copies of the catalogues its matches were played with, when
                                  squire does not ship them (ingest.files.catalogues.keep)
    <warehouse>/experiments/      what each experiment measured and why it stopped (a file each)

Workers write a batch of whole matches as data files of every table but the summaries,
whose rows they hand to the writer; the writer sums the summaries of the batches it commits
together, writes each once, and commits them all. A reader sees all of a batch or none
(ingest.warehouse.store says how), whatever a kill left. Readers take a version of the
warehouse when they open and never lock anything, so an open dashboard never blocks an
ingest and an ingest never stops a dashboard from answering; any version read again reads
the same (`--as-of`).
"""

from __future__ import annotations

import functools
import json
import math
import os
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
from deltalake.transaction import AddAction

from ingest.warehouse import store, summaries
from ingest.warehouse.location import (
    Place,
    S3Path,
    arrow_path,
    place,
    register_with,
    write_whole,
)
from ingest.warehouse.lock import WarehouseBusy as WarehouseBusy
from ingest.warehouse.lock import hold
from ingest.warehouse.memory import return_freed
from ingest.warehouse.origin import INGEST, Origin
from ingest.warehouse.stored import Stored
from ingest.warehouse.tables import COLUMNS, TYPES, Reject
from replay.errors import one_line
from replay.registry import GAMES

SCHEMA_VERSION = 3  # 3: Delta tables (2: Parquet parts; ingest.warehouse.convert turns them)
VIEWS = Path(__file__).with_name("views.sql")
DEFAULT_DB: Place = place(
    os.environ.get("SQUIRE_WAREHOUSE", Path(__file__).resolve().parents[2] / "data" / "warehouse")
)
TABLES = (*COLUMNS, "rejects")
REJECT_COLUMNS = ("path", "line", "rule", "message", "log_sha256", "rejected_at")


@dataclass
class Conflict:
    path: str
    game_id: str

    def __str__(self) -> str:
        return (
            f"{one_line(self.path)}: game_id {self.game_id!r} is already stored from a different "
            "log; the stored match is kept"
        )


@dataclass
class Committed:
    ingested: int = 0
    present: int = 0
    conflicts: list[Conflict] = field(default_factory=list)
    rejects: list[Reject] = field(default_factory=list)


def schema() -> dict[str, pa.Schema]:
    """The Arrow schema of every table: what parts hold and what an empty warehouse shows."""
    out = {
        table: pa.schema([(name, TYPES.get(name, pa.string())) for name in names])
        for table, names in COLUMNS.items()
    }
    out["games"] = out["games"].append(pa.field("ingested_at", pa.timestamp("us", tz="UTC")))
    out["rejects"] = pa.schema(
        [(name, TYPES.get(name, pa.string())) for name in REJECT_COLUMNS if name != "rejected_at"]
    ).append(pa.field("rejected_at", pa.timestamp("us", tz="UTC")))
    return out


SCHEMA = schema()


def summary_table(name: str) -> str:
    """The Delta table of one of the summaries (ingest.warehouse.summaries)."""
    return f"summary_{name}"


def all_schemas() -> dict[str, pa.Schema]:
    """Every Delta table of the warehouse but `batches`: the rows' and the summaries'."""
    return {**SCHEMA, **{summary_table(n): t.schema for n, t in empty_summaries().items()}}


def exists(db: Place) -> bool:
    """Whether `db` is a warehouse (a first ingest makes one, empty or not), in either
    format: one of Parquet parts is turned into Delta tables when it is first opened."""
    return store.exists(db) or (place(db) / "parts").is_dir()


def signature(db: Place) -> str:
    """Changes whenever a commit of the warehouse is made (or `announce` is called): the
    modification time of `batches`' log, which every commit adds a file to (on S3, the
    object every commit writes again). A page asks for it at every query, so it lists
    nothing."""
    db = place(db)
    if isinstance(db, S3Path):
        try:
            return (db / store.CHANGED).read_text().strip()
        except FileNotFoundError:
            return "empty"
    try:
        log = (db / store.TABLES / store.BATCHES / "_delta_log").stat()
    except FileNotFoundError:
        return "empty"
    return f"{log.st_mtime_ns}:{log.st_nlink}"


def conform(rows: pa.Table, table: str) -> pa.Table:
    """Rows of an older part in the current schema: later columns as nulls of their type."""
    return _conformed(rows, SCHEMA[table])


def _conformed(rows: pa.Table, target: pa.Schema) -> pa.Table:
    columns = [
        rows[f.name].cast(f.type)
        if f.name in rows.column_names
        else pa.nulls(rows.num_rows, f.type)
        for f in target
    ]
    return pa.Table.from_arrays(columns, schema=target)


def open_reader(
    db: Place = DEFAULT_DB, as_of: int | datetime | None = None
) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB connection whose tables are views over the warehouse's latest
    version, or the one it stood at at `as_of` (a version, or a time).

    An empty or missing warehouse reads as empty tables. Reopen to see later ingests. One in
    the format of Parquet parts is turned into Delta tables first (ingest.warehouse.convert).
    """
    from ingest.warehouse.convert import ensure_converted

    db = place(db)
    ensure_converted(db)
    con = duckdb.connect()
    con.execute("SET TimeZone = 'UTC'")  # days are UTC days, as the summaries count them
    if isinstance(db, S3Path):
        register_with(con)
    snapshot = store.snapshot(db, as_of) if store.exists(db) else None
    for table, arrow_schema in all_schemas().items():
        files = [] if snapshot is None else store.files(db, table, snapshot.pins.get(table, 0))
        _view(con, table, files, arrow_schema)
    # the warehouse's versions up to the one read: what `squire versions` lists
    files = [] if snapshot is None else store.files(db, store.BATCHES, snapshot.version)
    # on S3, by its schema at that version: an older squire's lacks what made each version
    held = None
    if snapshot is not None and isinstance(db, S3Path):
        held = store.columns(db, store.BATCHES, snapshot.version)
    _view(con, "batches", files, store.BATCH_SCHEMA, held)
    con.execute("CREATE TABLE sources (game VARCHAR, source VARCHAR, position INTEGER)")
    con.executemany(
        "INSERT INTO sources VALUES (?, ?, ?)",
        [
            (name, source, i)
            for name, game in GAMES.items()
            for i, source in enumerate(game.sources)
        ],
    )
    earlier = snapshot is not None and snapshot.earlier
    rated = rating_files(db)
    stored_as = "_ratings_stored" if earlier else "ratings"
    if rated:
        listed = ", ".join("'" + str(f).replace("'", "''") + "'" for f in rated)
        con.execute(f"CREATE VIEW {stored_as} AS SELECT * FROM read_parquet([{listed}])")
    else:
        con.execute(NO_RATINGS.replace("ratings", stored_as, 1))
    if earlier:
        con.execute(RATINGS_UPTO)
        con.execute(RATINGS_AS_OF)
    records = [str(f) for f in experiment_files(db)]
    _view(con, "_experiment_records", records, EXPERIMENT_RESULTS)
    version = snapshot.version if earlier and snapshot is not None else None
    upto = "" if version is None else f"WHERE version <= {version}"
    con.execute(EXPERIMENT_RECORD.replace("{upto}", upto))
    con.execute(VIEWS.read_text())
    return con


# The ratings as they stood at an earlier version. A match's ratings follow from the matches
# played before it alone (ingest.analyses.ratings rates a game in played order), so where the
# matches the version rates are the first of the game's stored ones in that order, their rows
# are the ratings the version had. A game in which a match stored since was played before one
# of them is left out, as are the matches of a game not yet rated: a reader of the ratings
# rates such a game afresh from the version's matches (ingest.analyses.ratings.of_game, the
# leaderboards of the pages).
RATINGS_UPTO = """
CREATE TABLE _ratings_upto AS
WITH rated AS (
    SELECT DISTINCT game, game_id, played_at AS played FROM _ratings_stored
), held AS (  -- of them, the matches the version holds
    SELECT * FROM rated SEMI JOIN games USING (game_id)
), top AS (
    SELECT game, count(*) AS n, max(struct_pack(played := played, game_id := game_id)) AS last
    FROM held GROUP BY game
), upto AS (
    SELECT r.game, count(*) AS n FROM rated r JOIN top t USING (game)
    WHERE struct_pack(played := r.played, game_id := r.game_id) <= t.last GROUP BY r.game
)
SELECT t.game, t.last FROM top t JOIN upto u USING (game) WHERE t.n = u.n
"""
RATINGS_AS_OF = """
CREATE VIEW ratings AS
SELECT r.* FROM _ratings_stored r JOIN _ratings_upto u USING (game)
WHERE struct_pack(played := r.played_at, game_id := r.game_id) <= u.last
"""
# Each experiment's record as it stood at the version read: its last one at or before that
# version (an experiment's file keeps a record a batch). The latest version reads the last
# record of each, a record of an older squire's too, which says no version.
EXPERIMENT_RECORD = """
CREATE VIEW experiment_results AS
SELECT * FROM _experiment_records {upto}
QUALIFY row_number() OVER (PARTITION BY experiment ORDER BY recorded_at DESC) = 1
"""


def version_of(as_of: str | None) -> int | datetime | None:
    """`--as-of` as given (a version number, or an ISO time; a time without a zone is
    UTC) as `open_reader` takes it; ValueError for anything else."""
    if as_of is None or as_of == "":
        return None
    if as_of.isdigit():
        return int(as_of)
    try:
        when = datetime.fromisoformat(as_of)
    except ValueError:
        raise ValueError(
            f"--as-of takes a version (a whole number) or a time (2026-12-05T14:00), not {as_of!r}"
        ) from None
    return when if when.tzinfo else when.replace(tzinfo=UTC)


RATINGS = "ratings"  # the ratings' Delta table (ingest.analyses.ratings)


def rating_files(db: Place) -> list[Place]:
    """ingest.analyses.ratings' files: its table's, or those of an older squire, which kept
    each game's history in files of its own (`ratings/<game>/NNNNNN.parquet`, not the ones
    being written, whose names start with a dot) or all of it in one file, until the next
    ingest moves them into the table."""
    listed = store.latest_files(db, RATINGS)
    return older_rating_files(db) if listed is None else [place(f) for f in listed]


def older_rating_files(db: Place) -> list[Place]:
    """The ratings' files as an older squire kept them, beside the tables."""
    folder = place(db) / "ratings"
    found: list[Place] = sorted(
        f
        for f in (folder.glob("*/*.parquet") if folder.exists() else [])
        if not f.name.startswith(".") and not f.parent.name.startswith(".")
    )
    old = place(db) / "ratings.parquet"
    return [*found, old] if old.exists() else found


# What `squire experiment` knows of each experiment it runs (ingest.simulation.experiment):
# what it measured, A − B with its 95% interval, the matches played and why it stopped, which
# its matches alone do not tell. A file an experiment, `experiments/<id>.parquet`, written again
# after every batch with a record more: a run cut short ends with its last batch's, `stopped`
# NULL; a version of the warehouse reads the last record at or before it.
EXPERIMENTS = "experiments"
EXPERIMENT_RESULTS = pa.schema(
    [
        ("experiment", pa.string()),
        ("game", pa.string()),
        ("metric", pa.string()),
        ("a", pa.string()),  # each arm's changes, as JSON
        ("b", pa.string()),
        ("players", pa.int64()),
        ("bots", pa.string()),  # as given: comma-separated
        ("seed", pa.int64()),
        ("ruleset", pa.string()),
        ("variant", pa.string()),
        ("paired", pa.bool_()),
        ("precision", pa.float64()),  # the stopping rule: an interval narrower than this,
        ("most", pa.int64()),  # or this many matches an arm played
        ("matches", pa.int64()),  # an arm, played so far
        ("pairs_measured", pa.int64()),  # of them, the metric defined on both sides
        ("mean_a", pa.float64()),
        ("mean_b", pa.float64()),
        ("a_minus_b", pa.float64()),
        ("a_minus_b_low", pa.float64()),
        ("a_minus_b_high", pa.float64()),
        ("variance_saved", pa.float64()),
        ("stopped", pa.string()),  # `precision`, `max`; NULL: still running, or cut short
        ("recorded_at", pa.timestamp("us", tz="UTC")),
        # the warehouse's version with the matches the record counts (NULL: an older
        # squire's record, which kept only its last)
        ("version", pa.int64()),
    ]
)


def experiment_files(db: Place) -> list[Place]:
    """The experiments' records (not one being written, whose name starts with a dot)."""
    folder = place(db) / EXPERIMENTS
    if not folder.exists():
        return []
    return sorted(f for f in folder.glob("*.parquet") if not f.name.startswith("."))


def write_experiment(db: Place, row: dict[str, Any]) -> None:
    """An experiment's record after its latest batch, added to those before it in its file,
    the file written whole (the caller holds the lock): read at an earlier version of the
    warehouse, an experiment says what it had measured then."""
    path = place(db) / EXPERIMENTS / f"{row['experiment']}.parquet"
    latest = store.snapshot(db).version if store.exists(db) else None
    rows = pa.Table.from_pylist([{**row, "version": latest}], schema=EXPERIMENT_RESULTS)
    if path.exists():
        filesystem, where = arrow_path(path)
        before = pq.read_table(where, filesystem=filesystem)
        rows = pa.concat_tables([_conformed(before, EXPERIMENT_RESULTS), rows])
    sink = pa.BufferOutputStream()
    pq.write_table(rows, sink)
    write_whole(path, sink.getvalue().to_pybytes())
    announce(db)


def announce(db: Place) -> None:
    """Tell readers that something stored beside the tables changed (an experiment's record,
    the ratings): they key what they cache on `signature`, which a commit changes, and would
    not see it before the next commit otherwise."""
    db = place(db)
    if isinstance(db, S3Path):
        if store.exists(db):
            store.changed(db)
        return
    log = db / store.TABLES / store.BATCHES / "_delta_log"
    if log.exists():
        os.utime(log)


def _view(
    con: duckdb.DuckDBPyConnection,
    name: str,
    files: list[str],
    arrow_schema: pa.Schema,
    held: frozenset[str] | None = None,
) -> None:
    """A view of `files`, by column name: files of an older schema lack later columns, which
    read as NULL; where even the newest file lacks one, it is NULL of its type for all. No
    file: an empty table of the schema. `held`: the columns every file holds, where that is
    known without opening one."""
    remote = bool(files) and files[0].startswith("s3://")
    if not remote:  # a local file deleted since: not read
        files = [f for f in files if Path(f).exists()]
    if not files:  # a table of the database, not a registered frame: cursors see it too
        con.register("empty", pa.Table.from_batches([], schema=arrow_schema))
        con.execute(f"CREATE TABLE {name} AS SELECT * FROM empty")
        con.unregister("empty")
        return
    listed = ", ".join("'" + f.replace("'", "''") + "'" for f in files)
    newest = files[-1].replace("'", "''")
    # a folder's files may be older parts' (ingest.warehouse.convert), with fewer columns; a
    # warehouse on S3 never had any
    if held is not None:
        have = set(held)
    elif remote:
        have = {f.name for f in arrow_schema}
    else:
        have = {row[0] for row in con.execute(f"DESCRIBE SELECT * FROM '{newest}'").fetchall()}
    missing = [f for f in arrow_schema if f.name not in have]
    nulls = ""
    if missing:  # a table of the database, so that cursors see it too
        con.register("empty", pa.Table.from_batches([], schema=arrow_schema))
        con.execute(f"CREATE TABLE _schema_{name} AS SELECT * FROM empty")
        con.unregister("empty")
        nulls = "".join(f", (SELECT {f.name} FROM _schema_{name}) AS {f.name}" for f in missing)
    # Unifying the files' columns by name opens every file as the view is made: on S3, a
    # request or two each, in Python (seconds for a few hundred files). Files on S3 all hold
    # the schema's columns, so only the first is opened then.
    union = "" if remote else ", union_by_name = true"
    con.execute(f"CREATE VIEW {name} AS SELECT *{nulls} FROM read_parquet([{listed}]{union})")


@functools.cache
def empty_summaries() -> dict[str, pa.Table]:
    """Every summary of no matches: their schemas."""
    return summaries.summarise({t: SCHEMA[t].empty_table() for t in summaries.SOURCES})


NO_RATINGS = """CREATE TABLE ratings (game VARCHAR, game_id VARCHAR, played_at TIMESTAMPTZ,
name VARCHAR, kind VARCHAR, seats BIGINT, wins BIGINT, mu_before DOUBLE, sigma_before DOUBLE,
mu DOUBLE, sigma DOUBLE)"""


def write_batch(
    db: Place, tables: dict[str, pa.Table]
) -> tuple[dict[str, AddAction], dict[str, pa.Table]]:
    """Worker side: a batch's tables as data files of the warehouse's tables, not yet
    committed, and the batch's summaries (ingest.warehouse.summaries): what `Writer.commit`
    takes. The summaries are a few rows a batch, which the writer sums over the batches of a
    commit and writes once, rather than a dozen small files for every batch (each a request
    on S3, and a file every page reads)."""
    cast = {table: rows.cast(SCHEMA[table]) for table, rows in tables.items()}
    # One at a time, also on S3: written at once they went 4% faster there, and the workers'
    # peak memory grew by 90 MiB with two threads, by 300 with eight.
    files = {t: store.write_file(db, t, rows) for t, rows in cast.items() if rows.num_rows}
    return files, summaries.summarise(cast)


def _read_files(db: Place, table: str, version: int, columns: list[str]) -> Iterator[pa.Table]:
    """`table`'s rows at `version`, a file at a time."""
    for path in store.files(db, table, version):
        filesystem, where = arrow_path(place(path))
        yield pq.read_table(where, columns=columns, filesystem=filesystem)


# Batches that reach the writer within this many seconds of its last commit are committed
# with the next: a commit of the warehouse is two dozen commits of tables (about 10 ms each
# on a folder), which a batch every few tenths of a second would pay for again and again.
# On S3 each of those commits is eight requests (some 200 a commit of the warehouse, half a
# second or more), so batches are grouped for longer there. The first batch is committed as
# it comes, so readers (and an upload's progress) see the first matches at once, and a kill
# after that commit always finds an ingest under way. SQUIRE_COMMIT_SECONDS sets it for both.
GROUP = 2.0
GROUP_S3 = 6.0


def group_seconds(db: Place) -> float:
    """How long an ingest into `db` groups the batches that reach it before it commits."""
    told = os.environ.get("SQUIRE_COMMIT_SECONDS", "").strip()
    if told:
        try:
            seconds = float(told)
        except ValueError:
            seconds = math.nan
        if not 0 <= seconds < math.inf:
            raise ValueError(f"SQUIRE_COMMIT_SECONDS must be a number of seconds, 0 or more, "
                             f"not {told!r}")  # fmt: skip
        return seconds
    return GROUP_S3 if isinstance(place(db), S3Path) else GROUP


INGESTED = Origin(INGEST)  # what a writer's commits say made them, unless told


class Writer:
    """The one process that commits to a warehouse; creates it on first use."""

    def __init__(
        self, db: Place = DEFAULT_DB, meanwhile: bool = False, made: Origin = INGESTED
    ) -> None:
        """Hold the warehouse and open its tables. `meanwhile`: the caller goes on while the
        tables of a warehouse on S3 open (some hundred requests, a second or more), and its
        first commit waits for them; workers may write a batch's files before that, where a
        folder's tables would have to be there first. `made`: what each of its commits says
        made it (`squire versions`)."""
        self.db = place(db)
        self.made = made
        self._group = group_seconds(self.db)  # a wrong setting refused before the lock
        self._lock = hold(self.db)
        self._pending: dict[str, list[AddAction]] = {}
        self._pending_matches = 0
        self._pending_rejects: list[dict[str, Any]] = []
        self._pending_summaries: list[dict[str, pa.Table]] = []
        self._last = -math.inf  # nothing committed yet: the first batch is due at once
        self.finished = False
        self._opening: threading.Thread | None = None
        self._failed: BaseException | None = None
        try:
            self._check_version()
            if meanwhile and isinstance(self.db, S3Path):
                self._opening = threading.Thread(target=self._open_aside, daemon=True)
                self._opening.start()
            else:
                self._open()
        except BaseException:
            self.close()
            raise

    def _open(self) -> None:
        from ingest.warehouse.convert import convert_locked

        convert_locked(self.db)
        self.committer = store.Committer(self.db, all_schemas())
        # A kill between the tables' commits and the one that pins them leaves commits no
        # reader takes: undone before any pin could take them in.
        self.committer.settle()
        (self.db / "meta.json").write_text(json.dumps({"schema_version": SCHEMA_VERSION}) + "\n")
        pins = store.snapshot(self.db).pins
        self.known = Stored()
        self.known.load(
            zip(t["game_id"].to_pylist(), t["log_sha256"].to_pylist(), strict=True)
            for t in _read_files(self.db, "games", pins.get("games", 0), ["game_id", "log_sha256"])
        )
        self.rejected: set[tuple[str, str]] = set()
        for rej in _read_files(self.db, "rejects", pins.get("rejects", 0), ["path", "log_sha256"]):
            self.rejected.update(zip(rej["path"].to_pylist(), rej["log_sha256"].to_pylist()))
        return_freed()

    def _open_aside(self) -> None:
        try:
            self._open()
        except BaseException as err:  # raised where the caller next needs the tables
            self._failed = err

    def _ready(self) -> None:
        """Wait for the tables opening aside; raise what stopped them."""
        if self._opening is not None:
            self._opening.join()
            self._opening = None
        if self._failed is not None:
            raise self._failed

    def _check_version(self) -> None:
        meta = self.db / "meta.json"
        if meta.exists():
            found = json.loads(meta.read_text()).get("schema_version", SCHEMA_VERSION)
            if found > SCHEMA_VERSION:
                raise RuntimeError(
                    f"{self.db} has schema version {found}; this squire knows "
                    f"{SCHEMA_VERSION}: upgrade squire"
                )

    def commit(
        self,
        files: dict[str, AddAction],
        shas: dict[str, str],
        paths: dict[str, str],
        repeats: list[tuple[str, str, str]],
        rejects: list[Reject],
        stamp: Any,
        batch_summaries: dict[str, pa.Table],
    ) -> Committed:
        """Take a written batch (`write_batch`'s files and summaries): its new matches and
        new rejections go into the next commit (`flush`), the rest of its files are
        deleted."""
        if self.finished:
            raise RuntimeError("no batch can be committed after finish_commits()")
        self._ready()
        out = Committed()
        fresh = []
        for game_id, sha in shas.items():
            same = self.known.same(game_id, sha)
            if same is None:
                fresh.append(game_id)
            elif same:
                out.present += 1
            else:
                out.conflicts.append(Conflict(paths[game_id], game_id))
        for path, game_id, sha in repeats:
            same = self.known.same(game_id, sha)
            if same or (same is None and shas.get(game_id) == sha):
                out.present += 1
            else:
                out.conflicts.append(Conflict(path, game_id))
        new_rejects = [r for r in rejects if (r.path, r.log_sha256) not in self.rejected]
        out.rejects = list(rejects)
        if len(fresh) < len(shas):  # some were stored before: keep only the new ones
            files, batch_summaries = self._keep(files, fresh)
        for table, action in files.items():
            self._pending.setdefault(table, []).append(action)
        if fresh:
            self._pending_summaries.append(batch_summaries)
        self._pending_rejects += [
            {"path": r.path, "line": r.line, "rule": r.rule, "message": r.message,
             "log_sha256": r.log_sha256, "rejected_at": stamp}
            for r in new_rejects
        ]  # fmt: skip
        self._pending_matches += len(fresh)
        self.known.add((game_id, shas[game_id]) for game_id in fresh)
        self.rejected.update((r.path, r.log_sha256) for r in new_rejects)
        out.ingested = len(fresh)
        return out

    def _keep(
        self, files: dict[str, AddAction], fresh: list[str]
    ) -> tuple[dict[str, AddAction], dict[str, pa.Table]]:
        """A batch's files written again with the matches of `fresh` alone, and their
        summaries."""
        keep = pa.array(fresh, pa.string())
        kept = {}
        for table in COLUMNS:
            if table in files:
                filesystem, where = arrow_path(store.folder(self.db, table) / files[table].path)
                rows = pq.read_table(where, filesystem=filesystem)
                kept[table] = rows.filter(pc.is_in(rows["game_id"], value_set=keep))
            else:
                kept[table] = SCHEMA[table].empty_table()
        for table, action in files.items():
            store.discard(self.db, table, [action])
        return write_batch(self.db, kept) if fresh else ({}, {})

    @property
    def pending(self) -> bool:
        return bool(self._pending or self._pending_rejects)

    def due(self) -> bool:
        """Whether what was taken since the last commit should be committed now."""
        return self.pending and time.monotonic() - self._last >= self._group

    def flush(self) -> None:
        """Commit what was taken since the last commit: from now on readers see it."""
        self._ready()
        if self.pending:
            adds = dict(self._pending)
            if self._pending_summaries:
                adds.update(self._summaries_written())
            if self._pending_rejects:
                rows = pa.Table.from_pylist(self._pending_rejects, schema=SCHEMA["rejects"])
                adds["rejects"] = [store.write_file(self.db, "rejects", rows)]
            self.committer.commit(adds, "ingest", self._pending_matches,
                                  len(self._pending_rejects), datetime.now(UTC),
                                  self.made)  # fmt: skip
        self._pending, self._pending_matches, self._pending_rejects = {}, 0, []
        self._pending_summaries = []
        self._last = time.monotonic()

    def _summaries_written(self) -> dict[str, list[AddAction]]:
        """The summaries of the batches taken since the last commit, summed by their keys,
        as a data file of each summary's table."""
        summed = summaries.merged(self._pending_summaries)
        # One at a time, as a worker writes its files: eight at once on S3 took 110 MiB more
        # of this process while the workers ran, for a tenth of a second a commit.
        return {summary_table(name): [store.write_file(self.db, summary_table(name), rows)]
                for name, rows in summed.items() if rows.num_rows}  # fmt: skip

    def finish_commits(self) -> None:
        """No more batches come: what is pending is committed, and the index of stored
        matches and rejections is given up, for what the ingest derives afterwards while it
        still holds the lock."""
        self.flush()
        self.finished = True
        self.known = Stored()
        self.rejected = set()

    def close(self) -> None:
        """Give the warehouse up; what was taken and not committed is not stored (its files
        are deleted)."""
        if self._opening is not None:  # not given up under it
            self._opening.join()
            self._opening = None
        for table, actions in self._pending.items():
            store.discard(self.db, table, actions)
        self._pending, self._pending_summaries = {}, []
        self._lock.release()
