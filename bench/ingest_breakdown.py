"""Where a worker's ingest time goes, per match on one core: reading and hashing the files,
replaying them, building rows, converting rows to Arrow, writing the batch's files.

    python bench/ingest_breakdown.py [LOG_FOLDER]     (default: the Knight Academy samples)

Logs go through in batches of 500, as a worker takes them (at most 2,000 logs are read).
Each figure is the best of three runs.
"""

from __future__ import annotations

import hashlib
import sys
import tempfile
import time
from pathlib import Path

import pyarrow as pa
from timing import best_of  # bench/timing.py, beside this script

from ingest.files.catalogues import Library
from ingest.files.read import find_logs, read_log
from ingest.pipeline import rows
from ingest.warehouse.warehouse import all_schemas, write_batch
from replay.replayer import open_log, start, steps

HERE = Path(__file__).resolve().parent.parent
BATCH = 500  # the largest chunk the ingest hands a worker


def main() -> None:
    folder = sys.argv[1] if len(sys.argv) > 1 else str(HERE / "data" / "samples" / "knight-academy")
    paths = [str(p) for p in find_logs([folder])][:2000]
    n = len(paths)
    batches = [paths[i : i + BATCH] for i in range(0, n, BATCH)]
    datas = [read_log(p) for p in paths]

    def read_and_hash() -> None:
        for path in paths:
            hashlib.sha256(read_log(path)).hexdigest()

    def replay_only() -> None:
        for i, data in enumerate(datas):
            match = open_log(data, str(i), catalogues=Library())
            list(steps(match, start(match)))

    def rows_and_arrow() -> None:
        for batch in batches:
            rows.replay_files(batch)

    into = [0.0]
    original = rows._replay_into

    def timed(*args, **kwargs):  # type: ignore[no-untyped-def]
        began = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            into[0] += time.perf_counter() - began

    rows._replay_into = timed  # type: ignore[assignment]
    runs = []
    for _ in range(3):  # the fastest run, with the share of it spent building rows
        into[0] = 0.0
        began = time.perf_counter()
        rows_and_arrow()
        runs.append((time.perf_counter() - began, into[0]))
    whole, in_rows = min(runs)
    rows._replay_into = original  # type: ignore[assignment]
    built = [rows.replay_files(batch) for batch in batches]
    for batch in built:
        games = batch.tables["games"]
        batch.tables["games"] = games.append_column(
            "ingested_at", pa.array([None] * games.num_rows, pa.timestamp("us", tz="UTC"))
        )

    def write() -> None:
        with tempfile.TemporaryDirectory() as out:
            for table in all_schemas():
                (Path(out) / "tables" / table).mkdir(parents=True)
            for batch in built:
                write_batch(Path(out), batch.tables)

    read = best_of(read_and_hash, 3)
    replayed = best_of(replay_only, 3)
    written = best_of(write, 3)
    ms = 1000 / n
    print(f"{n} logs from {folder}, one core, ms per match:")
    print(f"  read and hash:            {read * ms:6.2f}")
    print(f"  replay:                   {replayed * ms:6.2f}")
    print(f"  build rows (with replay): {in_rows * ms:6.2f}")
    print(f"  to Arrow:                 {(whole - in_rows - read) * ms:6.2f}")
    print(f"  write the batch's files:  {written * ms:6.2f}")
    print(
        f"  a worker in all:          {(whole + written) * ms:6.2f}  "
        f"({n / (whole + written):,.0f} matches/s per core)"
    )


if __name__ == "__main__":
    main()
