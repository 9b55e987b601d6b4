"""The warehouse: Parquet parts committed whole, read through DuckDB views.

DuckDB 2 lets one process hold a database file for writing and then no other process may
open it, not even to read; copying the whole file to a snapshot after each ingest costs time
in proportion to the warehouse (0.8 s per 2,000 matches, measured). So matches are stored as
Parquet parts instead, and DuckDB reads them:

    <warehouse>/parts/<part>/{games,seats,events,score_events,track_moves,rejects}.parquet
    <warehouse>/staging/      parts being written (never read)
    <warehouse>/compacting/   a merged part being written (ingest.warehouse.compact)
    <warehouse>/LOCK          held by the one ingest that writes
    <warehouse>/meta.json     the schema version
    <warehouse>/catalogues/   copies of the catalogues its matches were played with, when
                              squire does not ship them (ingest.files.catalogues.keep)
    <warehouse>/experiments/  what each experiment measured and why it stopped (a file each)

Workers write a batch of whole matches into a staging folder; the ingest commits it by
renaming the folder into `parts/`, which is atomic: a reader sees all of a batch or none,
and a killed ingest leaves only whole matches (its staging folders are swept by the next).
Readers list the committed parts when they open and never lock anything, so an open
dashboard never blocks an ingest and an ingest never stops a dashboard from answering.
"""

from __future__ import annotations

import fcntl
import functools
import json
import os
import shutil
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from ingest.warehouse import summaries
from ingest.warehouse.memory import return_freed
from ingest.warehouse.stored import Stored
from ingest.warehouse.tables import COLUMNS, ORIGIN_SQL, TYPES, Reject
from replay.errors import one_line
from replay.registry import GAMES

SCHEMA_VERSION = 2  # 2 adds resource_changes and pieces_removed; parts of 1 read as without
VIEWS = Path(__file__).with_name("views.sql")
DEFAULT_DB = Path(
    os.environ.get("SQUIRE_WAREHOUSE", Path(__file__).resolve().parents[2] / "data" / "warehouse")
)
TABLES = (*COLUMNS, "rejects")
REJECT_COLUMNS = ("path", "line", "rule", "message", "log_sha256", "rejected_at")


class WarehouseBusy(RuntimeError):
    """Another process is writing this warehouse."""


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


# A merged part (ingest.warehouse.compact) names the parts it replaces in this file of its own.
COVERS = "covers.json"
# A replaced part stays this long for the readers that listed it before it was replaced.
GRACE = 600.0


def parts(db: Path) -> list[Path]:
    """The committed parts, oldest first, less those a merged part replaces: each match is
    in exactly one of them, whatever a compaction is doing."""
    folder = Path(db) / "parts"
    if not folder.exists():
        return []
    listed = sorted(p for p in folder.iterdir() if p.is_dir())
    covered: set[str] = set()
    for part in listed:
        if (part / COVERS).exists():
            try:
                covered.update(json.loads((part / COVERS).read_text()))
            except FileNotFoundError:  # deleted since it was listed: replaced itself
                covered.add(part.name)
    return [p for p in listed if p.name not in covered]


def exists(db: Path) -> bool:
    """Whether `db` is a warehouse (a first ingest makes one, empty or not)."""
    return (Path(db) / "parts").is_dir()


def sequence_of(part: Path) -> int:
    """A part's place in commit order: the number its name starts with."""
    return int(part.name.split("-", 1)[0])


def sweep_replaced(db: Path, grace: float = GRACE) -> None:
    """Delete the parts a merged part replaced once it has been in force for `grace` seconds:
    until then a reader that listed them before the merge still finds every file it named."""
    folder = Path(db) / "parts"
    if not folder.exists():
        return
    now = time.time()
    for part in sorted(p for p in folder.iterdir() if p.is_dir()):
        covers = part / COVERS
        try:
            if now - covers.stat().st_mtime <= grace:
                continue
            names = json.loads(covers.read_text())
        except FileNotFoundError:
            continue
        for name in names:
            _delete(folder / name)


def _delete(part: Path) -> None:
    """A replaced part, and first whatever it replaced itself (a merge of merged parts): so
    that a kill on the way never leaves a part in force twice."""
    try:
        names = json.loads((part / COVERS).read_text())
    except FileNotFoundError:
        names = []
    for name in names:
        _delete(part.parent / name)
    shutil.rmtree(part, ignore_errors=True)


def conform(rows: pa.Table, table: str) -> pa.Table:
    """Rows of an older part in the current schema: later columns as nulls of their type."""
    target = SCHEMA[table]
    columns = [
        rows[f.name].cast(f.type)
        if f.name in rows.column_names
        else pa.nulls(rows.num_rows, f.type)
        for f in target
    ]
    return pa.Table.from_arrays(columns, schema=target)


def open_reader(db: Path = DEFAULT_DB) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB connection whose tables are views over the parts committed now.

    An empty or missing warehouse reads as empty tables. Reopen to see later ingests.
    """
    con = duckdb.connect()
    con.execute("SET TimeZone = 'UTC'")  # days are UTC days, as the summaries count them
    committed = parts(db)
    # Parts from before summaries (of this version) are summarised from their rows, at each
    # query; their matches say who played them only through their seats.
    legacy = [p for p in committed if summaries.missing(p)]
    for table, arrow_schema in SCHEMA.items():
        name = "games_stored" if table == "games" and legacy else table
        _view(con, name, [p / f"{table}.parquet" for p in committed], arrow_schema)
    if legacy:
        origin = ORIGIN_SQL.format(games="games_stored", seats="seats")
        con.execute(f"CREATE VIEW games AS SELECT * REPLACE ({origin} AS origin) FROM games_stored")
    for table in summaries.SOURCES if legacy else ():
        _view(con, f"legacy_{table}", [p / f"{table}.parquet" for p in legacy], SCHEMA[table])
    for name, rows in empty_summaries().items():
        files = [p / summaries.file_name(name) for p in committed if p not in legacy]
        stored = f"summary_{name}_stored" if legacy else f"summary_{name}"
        _view(con, stored, files, rows.schema)
        if legacy:
            derived = summaries.sql(name, {t: f"legacy_{t}" for t in summaries.SOURCES})
            con.execute(
                f"CREATE VIEW summary_{name} AS "
                f"SELECT * FROM {stored} UNION ALL BY NAME ({derived})"
            )
    con.execute("CREATE TABLE sources (game VARCHAR, source VARCHAR, position INTEGER)")
    con.executemany(
        "INSERT INTO sources VALUES (?, ?, ?)",
        [
            (name, source, i)
            for name, game in GAMES.items()
            for i, source in enumerate(game.sources)
        ],
    )
    rated = rating_files(db)
    if rated:
        listed = ", ".join("'" + str(f).replace("'", "''") + "'" for f in rated)
        con.execute(f"CREATE VIEW ratings AS SELECT * FROM read_parquet([{listed}])")
    else:
        con.execute(NO_RATINGS)
    _view(con, "experiment_results", experiment_files(db), EXPERIMENT_RESULTS)
    con.execute(VIEWS.read_text())
    return con


def rating_files(db: Path) -> list[Path]:
    """ingest.analyses.ratings' files: each game's history (not the ones being written, whose names
    start with a dot), or an older squire's single file."""
    folder = Path(db) / "ratings"
    found = sorted(
        f
        for f in (folder.glob("*/*.parquet") if folder.exists() else [])
        if not f.name.startswith(".") and not f.parent.name.startswith(".")
    )
    old = Path(db) / "ratings.parquet"
    return [*found, old] if old.exists() else found


# What `squire experiment` knows of each experiment it runs (ingest.simulation.experiment):
# what it measured, A − B with its 95% interval, the matches played and why it stopped, which
# its matches alone do not tell. A file an experiment, `experiments/<id>.parquet`, rewritten
# after every batch: a run cut short leaves its last batch's, `stopped` NULL.
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
    ]
)


def experiment_files(db: Path) -> list[Path]:
    """The experiments' records (not one being written, whose name starts with a dot)."""
    folder = Path(db) / EXPERIMENTS
    if not folder.exists():
        return []
    return sorted(f for f in folder.glob("*.parquet") if not f.name.startswith("."))


def write_experiment(db: Path, row: dict[str, Any]) -> None:
    """An experiment's record, in place of the one before (the caller holds the lock)."""
    folder = Path(db) / EXPERIMENTS
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{row['experiment']}.parquet"
    scratch = path.with_name(f".{path.name}")
    pq.write_table(pa.Table.from_pylist([row], schema=EXPERIMENT_RESULTS), scratch)
    os.replace(scratch, path)  # readers see the record whole or not at all
    announce(db)


def announce(db: Path) -> None:
    """Tell readers that something stored beside the parts changed (an experiment's record, the
    ratings): they key what they cache on the time of the parts' folder, which a commit sets
    (dashboards.data.signature), and would not see it before the next commit otherwise."""
    folder = Path(db) / "parts"
    if folder.exists():
        os.utime(folder)


def _view(
    con: duckdb.DuckDBPyConnection, name: str, paths: list[Path], arrow_schema: pa.Schema
) -> None:
    """A view of the files that exist among `paths`, by column name: parts of an older schema
    lack later columns, which read as NULL; where even the newest part lacks one, it is NULL
    of its type for all. No file: an empty table of the schema."""
    files = [str(p) for p in paths if p.exists()]
    if not files:  # a table of the database, not a registered frame: cursors see it too
        con.register("empty", pa.Table.from_batches([], schema=arrow_schema))
        con.execute(f"CREATE TABLE {name} AS SELECT * FROM empty")
        con.unregister("empty")
        return
    listed = ", ".join("'" + f.replace("'", "''") + "'" for f in files)
    newest = files[-1].replace("'", "''")
    have = {row[0] for row in con.execute(f"DESCRIBE SELECT * FROM '{newest}'").fetchall()}
    missing = [f for f in arrow_schema if f.name not in have]
    nulls = ""
    if missing:  # a table of the database, so that cursors see it too
        con.register("empty", pa.Table.from_batches([], schema=arrow_schema))
        con.execute(f"CREATE TABLE _schema_{name} AS SELECT * FROM empty")
        con.unregister("empty")
        nulls = "".join(f", (SELECT {f.name} FROM _schema_{name}) AS {f.name}" for f in missing)
    con.execute(
        f"CREATE VIEW {name} AS SELECT *{nulls} FROM read_parquet([{listed}], union_by_name = true)"
    )


@functools.cache
def empty_summaries() -> dict[str, pa.Table]:
    """Every summary of no matches: their schemas."""
    return summaries.summarise({t: SCHEMA[t].empty_table() for t in summaries.SOURCES})


NO_RATINGS = """CREATE TABLE ratings (game VARCHAR, game_id VARCHAR, played_at TIMESTAMPTZ,
name VARCHAR, kind VARCHAR, seats BIGINT, wins BIGINT, mu_before DOUBLE, sigma_before DOUBLE,
mu DOUBLE, sigma DOUBLE)"""


def staging_folder(db: Path) -> Path:
    folder = Path(db) / "staging" / uuid.uuid4().hex
    folder.mkdir(parents=True)
    return folder


# Min/max statistics let a reader skip the parts that cannot hold a match it looks up by
# game_id (the viewer); on other columns of the big tables they cost a fifth of the writing
# and no query filters on them.
STATISTICS: dict[str, bool | list[str]] = {"games": True, "seats": True, "rejects": True}


def write_table(rows: pa.Table, path: Path, table: str) -> None:
    pq.write_table(
        rows, path, compression="lz4", write_statistics=STATISTICS.get(table, ["game_id"])
    )


def write_part(folder: Path, tables: dict[str, pa.Table]) -> None:
    """A batch's tables and their summaries (ingest.warehouse.summaries)."""
    cast = {table: rows.cast(SCHEMA[table]) for table, rows in tables.items()}
    for table, rows in cast.items():
        write_table(rows, folder / f"{table}.parquet", table)
    summaries.write(folder, summaries.summarise(cast))


def part_summaries(part: Path) -> dict[str, pa.Table]:
    """A part's summaries: as stored, or (a part from before summaries) from its rows."""
    if not summaries.missing(part):
        return {n: pq.read_table(part / summaries.file_name(n)) for n in summaries.SUMMARIES}
    return summaries.summarise(
        {
            n: conform(pq.read_table(part / f"{n}.parquet"), n)
            if (part / f"{n}.parquet").exists()
            else SCHEMA[n].empty_table()
            for n in summaries.SOURCES
        }
    )


def _stored_pairs(committed: list[Path]) -> Iterator[Iterator[tuple[str, str]]]:
    """Each part's (game_id, log_sha256), a part at a time."""
    for part in committed:
        games = pq.read_table(part / "games.parquet", columns=["game_id", "log_sha256"])
        yield zip(games["game_id"].to_pylist(), games["log_sha256"].to_pylist(), strict=True)


class Writer:
    """The one process that commits parts to a warehouse; creates it on first use."""

    def __init__(self, db: Path = DEFAULT_DB) -> None:
        self.db = Path(db)
        (self.db / "parts").mkdir(parents=True, exist_ok=True)
        self._lock = open(self.db / "LOCK", "w")  # noqa: SIM115 -- held until close()
        try:
            fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self._lock.close()
            raise WarehouseBusy(f"{self.db} is being written by another ingest") from None
        self._check_version()
        # A killed ingest leaves staging folders: none of their matches were committed.
        shutil.rmtree(self.db / "staging", ignore_errors=True)
        committed = parts(self.db)
        self.finished = False
        self.known = Stored()
        self.known.load(_stored_pairs(committed))
        self.rejected: set[tuple[str, str]] = set()
        for part in committed:
            if (part / "rejects.parquet").exists():
                rej = pq.read_table(part / "rejects.parquet", columns=["path", "log_sha256"])
                self.rejected.update(zip(rej["path"].to_pylist(), rej["log_sha256"].to_pylist()))
        # the next part's number: after every part committed, merged or retired since
        numbers = [sequence_of(p) for p in (self.db / "parts").iterdir() if p.is_dir()]
        self.sequence = max(numbers, default=0)
        sweep_replaced(self.db)
        return_freed()

    def _check_version(self) -> None:
        meta = self.db / "meta.json"
        if meta.exists():
            found = json.loads(meta.read_text()).get("schema_version", SCHEMA_VERSION)
            if found > SCHEMA_VERSION:
                raise RuntimeError(
                    f"{self.db} has schema version {found}; this squire knows "
                    f"{SCHEMA_VERSION}: upgrade squire"
                )
            # Later versions migrate older parts here, before anything is written.
        meta.write_text(json.dumps({"schema_version": SCHEMA_VERSION}) + "\n")

    def commit(
        self,
        folder: Path,
        shas: dict[str, str],
        paths: dict[str, str],
        repeats: list[tuple[str, str, str]],
        rejects: list[Reject],
        stamp: Any,
    ) -> Committed:
        """Commit a staged batch: its new matches and new rejections, or nothing at all."""
        if self.finished:
            raise RuntimeError("no part can be committed after finish_commits()")
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
        if not fresh and not new_rejects:
            shutil.rmtree(folder, ignore_errors=True)
            return out
        if len(fresh) < len(shas):  # some were stored before: keep only the new ones
            keep = pa.array(fresh, pa.string())
            kept = {}
            for table in COLUMNS:
                part = folder / f"{table}.parquet"
                rows = pq.read_table(part)
                kept[table] = rows.filter(pc.is_in(rows["game_id"], value_set=keep))
                write_table(kept[table], part, table)
            summaries.write(folder, summaries.summarise(kept))
        if new_rejects:
            write_table(
                pa.table(
                    {
                        "path": [r.path for r in new_rejects],
                        "line": [r.line for r in new_rejects],
                        "rule": [r.rule for r in new_rejects],
                        "message": [r.message for r in new_rejects],
                        "log_sha256": [r.log_sha256 for r in new_rejects],
                        "rejected_at": [stamp] * len(new_rejects),
                    },
                    schema=SCHEMA["rejects"],
                ),
                folder / "rejects.parquet",
                "rejects",
            )
        self.sequence += 1
        os.replace(folder, self.db / "parts" / f"{self.sequence:06d}-{folder.name[:8]}")
        self.known.add((game_id, shas[game_id]) for game_id in fresh)
        self.rejected.update((r.path, r.log_sha256) for r in new_rejects)
        out.ingested = len(fresh)
        return out

    def finish_commits(self) -> None:
        """No more parts come: the index of stored matches and rejections is given up, for
        what the ingest derives afterwards while it still holds the lock."""
        self.finished = True
        self.known = Stored()
        self.rejected = set()

    def close(self) -> None:
        fcntl.flock(self._lock, fcntl.LOCK_UN)
        self._lock.close()
