"""`squire compact`: many small parts merged into a few large ones, while dashboards read and
ingests commit.

Every ingest task commits a part of its own (a few hundred matches), so a warehouse grows by
hundreds of parts per hundred thousand matches, and every reader opens every part's files.
Compaction merges runs of small parts, oldest first, into parts of up to `target` matches:

1. It writes the merged part under `compacting/`, which no reader lists and no ingest sweeps,
   one input part at a time (memory stays that of one part).
2. It names the parts it replaces in the merged part's `covers.json` and renames the part
   into `parts/`. That rename is the commit: from then on, readers skip every part it covers,
   so they see each match exactly once, before and after.
3. The replaced parts stay where they are for `GRACE` seconds, so a reader that listed them
   before the commit still finds every file it named; a later compaction or ingest deletes
   them after that.

It takes a lock of its own (`COMPACT.LOCK`), never the ingest's: an ingest may start and
commit while it runs. A kill at any moment leaves either the old parts or the merged one in
force, and the leftovers are swept by the next compaction.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from ingest.warehouse import summaries
from ingest.warehouse.warehouse import (
    COVERS,
    SCHEMA,
    STATISTICS,
    WarehouseBusy,
    conform,
    part_summaries,
    parts,
    sequence_of,
    sweep_replaced,
)

# A merged part holds up to this many matches: few enough files for a reader, parts small
# enough that merging one costs little memory.
TARGET = 50_000
# Parts below this share of the target are small: worth merging.
SMALL = 0.5
# An ingest compacts by itself once this many small parts have piled up.
PILE = 64
# Rows of a merged part's row group: few groups to scan, each small enough that a look-up of
# one match by its game_id statistics reads little.
ROW_GROUP = 128 * 1024


@dataclass
class Compacted:
    merged: int = 0  # parts written
    replaced: int = 0  # parts they replace
    matches: int = 0
    summarised: int = 0  # parts from before summaries that were given theirs

    def line(self) -> str:
        done = []
        if self.merged:
            done.append(
                f"{self.replaced} parts merged into {self.merged} ({self.matches:,} matches); "
                "the replaced parts are deleted once no reader can still be using them"
            )
        if self.summarised:
            done.append(f"{self.summarised} older parts given their summaries")
        return "; ".join(done) or "nothing to compact"


@contextmanager
def _lock(db: Path) -> Iterator[None]:
    with open(db / "COMPACT.LOCK", "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise WarehouseBusy(f"{db} is being compacted by another process") from None
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _matches(part: Path) -> int:
    return int(pq.ParquetFile(part / "games.parquet").metadata.num_rows)


def runs(db: Path, target: int = TARGET) -> list[list[Path]]:
    """Runs of consecutive small parts to merge, each of up to `target` matches (a run of
    one part is left alone)."""
    out: list[list[Path]] = []
    run: list[Path] = []
    size = 0
    for part in parts(db):
        count = _matches(part)
        if count >= SMALL * target or size + count > target:
            if len(run) > 1:
                out.append(run)
            run, size = [], 0
            if count >= SMALL * target:
                continue
        run.append(part)
        size += count
    if len(run) > 1:
        out.append(run)
    return out


def small_parts(db: Path, target: int = TARGET) -> int:
    return sum(len(run) for run in runs(db, target))


def _merge(run: list[Path], folder: Path) -> int:
    """Write the run's tables into `folder`, one part at a time; its match count."""
    for table in SCHEMA:
        sources = [p / f"{table}.parquet" for p in run if (p / f"{table}.parquet").exists()]
        if not sources:
            continue
        statistics = STATISTICS.get(table, ["game_id"])
        with pq.ParquetWriter(
            folder / f"{table}.parquet",
            SCHEMA[table],
            compression="lz4",
            write_statistics=statistics,
        ) as writer:
            # Rows gathered into row groups of ROW_GROUP rows: a row group per input part
            # (500 rows of `games`) made every scan of a million matches pay for 2,000 groups.
            pending = SCHEMA[table].empty_table()
            for source in sources:
                pending = pa.concat_tables([pending, conform(pq.read_table(source), table)])
                whole = pending.num_rows - pending.num_rows % ROW_GROUP
                if whole:
                    writer.write_table(pending.slice(0, whole), row_group_size=ROW_GROUP)
                    pending = pending.slice(whole)
            if pending.num_rows:
                writer.write_table(pending, row_group_size=ROW_GROUP)
    # The merged part's summaries are the sums of its parts' (summaries are small).
    summaries.write(folder, summaries.merged([part_summaries(p) for p in run]))
    return int(pq.ParquetFile(folder / "games.parquet").metadata.num_rows)


def compact(db: Path, target: int = TARGET) -> Compacted:
    """Merge the warehouse's small parts; WarehouseBusy if another compaction runs."""
    db = Path(db)
    out = Compacted()
    if not (db / "parts").exists():
        return out
    with _lock(db):
        shutil.rmtree(db / "compacting", ignore_errors=True)  # a killed compaction's
        sweep_replaced(db)
        for run in runs(db, target):
            folder = db / "compacting" / uuid.uuid4().hex
            folder.mkdir(parents=True)
            matches = _merge(run, folder)
            (folder / COVERS).write_text(json.dumps([p.name for p in run]) + "\n")
            name = f"{sequence_of(run[-1]):06d}-c{folder.name[:7]}"
            os.replace(folder, db / "parts" / name)  # the commit
            out.merged += 1
            out.replaced += len(run)
            out.matches += matches
        for part in parts(db):  # parts from before summaries, too large to merge
            if summaries.missing(part):
                summaries.write(part, part_summaries(part))
                out.summarised += 1
        shutil.rmtree(db / "compacting", ignore_errors=True)
    return out
