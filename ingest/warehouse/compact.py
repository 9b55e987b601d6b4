"""`squire compact`: the tables' many small files merged into few, the summaries summed by
their keys, and the files that no version within the retention reads deleted.

Every ingest task writes a file of each table (a few hundred matches), so a warehouse gains
hundreds of files per hundred thousand matches, and every reader opens every one of them.
Compaction is Delta's own:

1. `optimize` merges each table's small files (a commit that changes no row);
2. each summary is summed by its keys and written again whole (as small as one batch's);
3. a commit to `batches` pins the tables at their new versions: readers that open from then
   on read the merged files, and a reader of an earlier version still reads that version;
4. `vacuum` deletes the files no version committed within `retain` hours reads (what merges
   replaced, and files of ingests killed before they committed).

It holds the writer's lock: an ingest and a compaction do not commit at once (an ingest
started meanwhile is told the warehouse is busy; one that finds enough small files at its
end compacts by itself).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

import duckdb
from deltalake import DeltaTable, WriterProperties, write_deltalake

from ingest.warehouse import store, summaries
from ingest.warehouse.location import Place, S3Path, place, register_with
from ingest.warehouse.lock import hold
from ingest.warehouse.origin import COMPACTION, Origin
from ingest.warehouse.warehouse import RATINGS, all_schemas, summary_table

# An ingest compacts by itself at its end once `games` has this many files.
PILE = 64
# How long a version stays readable after a compaction replaced its files: a dashboard
# reopens at every commit, a report quoting a version (`--as-of`) needs it for longer.
RETAIN_HOURS = 7 * 24
# Rows of a merged file's row group: few groups to scan, each small enough that a look-up of
# one match by its game_id statistics reads little.
WRITER = WriterProperties(max_row_group_size=store.ROW_GROUP, compression="LZ4_RAW")


@dataclass
class Compacted:
    merged: int = 0  # files written by the merges
    replaced: int = 0  # files they replace
    summaries: int = 0  # summaries summed by their keys
    deleted: int = 0  # files vacuum deleted

    def line(self) -> str:
        done = []
        if self.merged:
            done.append(f"{self.replaced} files merged into {self.merged}")
        if self.summaries:
            done.append(f"{self.summaries} summaries summed by their keys")
        if self.deleted:
            done.append(f"{self.deleted} files no version in reach reads deleted")
        return "; ".join(done) or "nothing to compact"


def small_files(db: Place) -> int:
    """The files of `games` now: each an ingest task's, until a compaction merges them."""
    if not store.exists(db):
        return 0
    return len(DeltaTable(str(store.folder(db, "games"))).file_uris())


def compact(db: Place, retain_hours: float = RETAIN_HOURS) -> Compacted:
    """Compact the warehouse; WarehouseBusy while another process writes it."""
    from ingest.warehouse.convert import convert_locked

    db = place(db)
    out = Compacted()
    with hold(db):
        convert_locked(db)
        committer = store.Committer(db, all_schemas())
        committer.settle()
        names = {summary_table(n): n for n in summaries.SUMMARIES}
        for table, delta in committer.tables.items():
            if table in names:
                out.summaries += _sum(db, delta, names[table], committer.schemas[table])
            else:
                _merge(delta, out)
            delta.update_incremental()
        if out.merged or out.summaries:
            committer.pin("compaction", 0, 0, datetime.now(UTC), Origin(COMPACTION))
        deltas = [*committer.tables.values(), committer.batches]
        ratings = store.folder(db, RATINGS)
        if store.is_table(ratings):  # no batch pins it: merged and vacuumed alone
            rated = DeltaTable(str(ratings))
            _merge(rated, out)
            rated.update_incremental()
            deltas.append(rated)
        for delta in deltas:
            gone = delta.vacuum(retention_hours=int(retain_hours), dry_run=False,
                                enforce_retention_duration=False, full=True,
                                post_commithook_properties=store.HOOKS)  # fmt: skip
            out.deleted += len(gone)
            delta.cleanup_metadata()
    return out


def _merge(delta: DeltaTable, out: Compacted) -> None:
    """The table's small files merged (Delta's optimize), counted in `out`."""
    if len(delta.file_uris()) > 1:
        done = delta.optimize.compact(writer_properties=WRITER,
                                      post_commithook_properties=store.HOOKS)  # fmt: skip
        out.merged += int(done.get("numFilesAdded", 0))
        out.replaced += int(done.get("numFilesRemoved", 0))


def _sum(db: Place, delta: DeltaTable, name: str, schema: object) -> int:
    """A summary's rows summed by its keys and written again as one file; 1 if it was."""
    files = delta.file_uris()
    if len(files) <= 1:
        return 0
    con = duckdb.connect(config={"threads": 1})
    if isinstance(db, S3Path):
        register_with(con)
    try:
        listed = ", ".join("'" + f.replace("'", "''") + "'" for f in files)
        con.execute(f"CREATE VIEW stacked AS SELECT * FROM read_parquet([{listed}])")
        summed = summaries.added(con, name, "stacked")
    finally:
        con.close()
    write_deltalake(delta, summed.cast(schema), mode="overwrite",
                    post_commithook_properties=store.HOOKS)  # fmt: skip
    return 1
