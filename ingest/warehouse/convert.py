"""A warehouse of Parquet parts (schema version 2 and before) turned into Delta tables, in
place, the first time it is opened (or by `squire migrate`).

The older format: `parts/<part>/<table>.parquet` with the part's summaries beside its rows,
a merged part naming the parts it replaces in `covers.json`. Every part in force becomes
part of a commit of the Delta tables (its rows conformed to today's schema, its summaries as
stored or derived from its rows), several parts a commit. Then every table's rows are
counted against the parts', and only if all agree is the schema version written and the
parts deleted. A conversion cut short leaves the parts as they were and Delta tables no
reader opens (`ensure_converted` refuses while another process converts, and the next
conversion starts again from the parts).
"""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
from deltalake import DeltaTable
from deltalake.transaction import AddAction

from ingest.warehouse import store, summaries
from ingest.warehouse.location import Place, S3Path
from ingest.warehouse.lock import WarehouseBusy, hold
from ingest.warehouse.origin import CONVERSION, Origin
from ingest.warehouse.tables import ORIGIN_SQL
from ingest.warehouse.warehouse import (
    SCHEMA,
    SCHEMA_VERSION,
    all_schemas,
    conform,
    summary_table,
)

COVERS = "covers.json"  # a merged part's list of the parts it replaces
LEFT = ("parts", "staging", "compacting", "COMPACT.LOCK")  # what the older format kept
# Parts committed together: fewer commits (two dozen tables' each), memory of one part.
PARTS_A_COMMIT = 64


def parts(db: Path) -> list[Path]:
    """The committed parts of an older warehouse, oldest first, less those a merged part
    replaces: each match is in exactly one of them."""
    folder = Path(db) / "parts"
    if not folder.exists():
        return []
    listed = sorted(p for p in folder.iterdir() if p.is_dir())
    covered: set[str] = set()
    for part in listed:
        if (part / COVERS).exists():
            covered.update(json.loads((part / COVERS).read_text()))
    return [p for p in listed if p.name not in covered]


def _version(db: Path) -> int | None:
    meta = Path(db) / "meta.json"
    if not meta.exists():
        return None
    return int(json.loads(meta.read_text()).get("schema_version", SCHEMA_VERSION))


def needed(db: Place) -> bool:
    """Whether `db` is a warehouse of parts not yet (or not wholly) turned into Delta (never
    one on S3: the parts needed a shared folder)."""
    if isinstance(db, S3Path):
        return False
    version = _version(db)
    return (Path(db) / "parts").is_dir() and (version is None or version < 3)


def ensure_converted(db: Place) -> None:
    """A reader's check: an older warehouse is converted now (taking the writer's lock);
    WarehouseBusy while another process writes it and it is not converted yet."""
    if not needed(db):
        return
    try:
        lock = hold(db)
    except WarehouseBusy:
        raise WarehouseBusy(
            f"{db} is being converted to Delta tables by another process: open it again "
            "once that is done"
        ) from None
    with lock:
        convert_locked(db)


def part_summaries(part: Path) -> dict[str, pa.Table]:
    """A part's summaries: as stored, or (a part from before summaries, or of an earlier
    version of them) from its rows."""
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


def _origins(games: pa.Table, seats: pa.Table) -> pa.Table:
    """`games.origin` where a part from before it lacks it: bots' matches are those whose
    every seat that can win was a bot's, as the older readers derived it."""
    if not games.num_rows or games["origin"].null_count == 0:
        return games
    con = duckdb.connect(config={"threads": 1})
    try:
        con.register("g", games)
        con.register("s", seats)
        origin = ORIGIN_SQL.format(games="g", seats="s")
        found = con.sql(f"SELECT * REPLACE ({origin} AS origin) FROM g").to_arrow_table()
    finally:
        con.close()
    return found.cast(SCHEMA["games"])


def _files_of(db: Path, part: Path) -> dict[str, AddAction]:
    out = {}
    rows = {
        t: conform(pq.read_table(part / f"{t}.parquet"), t)
        for t in SCHEMA
        if (part / f"{t}.parquet").exists()
    }
    if "games" in rows:
        rows["games"] = _origins(rows["games"], rows.get("seats", SCHEMA["seats"].empty_table()))
    for table, found in rows.items():
        if found.num_rows:
            out[table] = store.write_file(db, table, found)
    for name, rows in part_summaries(part).items():
        if rows.num_rows:
            out[summary_table(name)] = store.write_file(db, summary_table(name), rows)
    return out


def _rows(db: Path, table: str) -> int:
    delta = DeltaTable(str(store.folder(db, table)))
    return sum(pq.ParquetFile(f).metadata.num_rows for f in delta.file_uris())


def convert_locked(db: Place) -> int:
    """Convert `db` if it needs it, the caller holding its lock; the matches converted.
    RuntimeError (the parts kept, the Delta tables removed) if any table's rows do not
    count up to the parts'."""
    if isinstance(db, S3Path):
        return 0
    db = Path(db)
    if not needed(db):
        if (db / "parts").is_dir() and store.exists(db):  # converted, then cut short
            _sweep(db)
        return 0
    shutil.rmtree(db / store.TABLES, ignore_errors=True)  # a conversion cut short
    committer = store.Committer(db, all_schemas())
    found = parts(db)
    expected = {t: 0 for t in SCHEMA}
    matches = 0
    for start in range(0, len(found), PARTS_A_COMMIT):
        adds: dict[str, list[AddAction]] = {}
        count = rejected = 0
        for part in found[start : start + PARTS_A_COMMIT]:
            for table in SCHEMA:
                if (part / f"{table}.parquet").exists():
                    expected[table] += pq.ParquetFile(part / f"{table}.parquet").metadata.num_rows
            for table, action in _files_of(db, part).items():
                adds.setdefault(table, []).append(action)
            if (part / "games.parquet").exists():
                count += pq.ParquetFile(part / "games.parquet").metadata.num_rows
            if (part / "rejects.parquet").exists():
                rejected += pq.ParquetFile(part / "rejects.parquet").metadata.num_rows
        committer.commit(adds, "conversion", count, rejected, datetime.now(UTC), Origin(CONVERSION))
        matches += count
    wrong = {t: (_rows(db, t), n) for t, n in expected.items() if _rows(db, t) != n}
    if wrong:
        shutil.rmtree(db / store.TABLES, ignore_errors=True)
        told = "; ".join(f"{t}: {got} rows of {n}" for t, (got, n) in wrong.items())
        raise RuntimeError(f"{db}: converting its parts to Delta tables lost rows ({told}); "
                           "the parts are kept as they were")  # fmt: skip
    (db / "meta.json").write_text(json.dumps({"schema_version": SCHEMA_VERSION}) + "\n")
    _sweep(db)
    return matches


def _sweep(db: Path) -> None:
    for name in LEFT:
        path = db / name
        if path.is_dir():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)
