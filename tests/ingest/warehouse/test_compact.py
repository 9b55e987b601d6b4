"""`squire compact`: the same rows in fewer files, readers answering throughout, every version
within the retention still readable, and a kill at any moment losing nothing."""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ingest.cli import main
from ingest.pipeline.pipeline import ingest
from ingest.warehouse import compact as compaction
from ingest.warehouse import store
from ingest.warehouse.compact import compact
from ingest.warehouse.lock import hold
from ingest.warehouse.warehouse import SCHEMA, WarehouseBusy, Writer, all_schemas, open_reader

ROOT = Path(__file__).parents[3]
SAMPLES = ROOT / "data" / "samples"


def digest(db: Path, as_of: int | None = None) -> dict[str, tuple[int, int | None]]:
    """Each table's row count and an order-free hash of its rows."""
    con = open_reader(db, as_of)
    out = {}
    for table in SCHEMA:
        (row,) = con.execute(f"SELECT count(*), bit_xor(hash(x)) FROM {table} x").fetchall()
        out[table] = (row[0], row[1])
    con.close()
    return out


@pytest.fixture
def warehouse(sample_parts, tmp_path) -> Path:
    """The samples in many small files (conftest), a copy of its own."""
    db = tmp_path / "warehouse"
    shutil.copytree(sample_parts, db)
    return db


def files(db: Path, table: str = "games") -> int:
    """The data files of `table` in the warehouse's latest version."""
    return len(store.files(db, table, store.snapshot(db).pins[table]))


def answers(db: Path) -> dict[str, list[tuple]]:
    """Every summary summed by its keys: what the pages read."""
    from ingest.warehouse import summaries

    con = open_reader(db)
    out = {}
    for name in summaries.SUMMARIES:
        rows = summaries.added(con, name, f"summary_{name}").to_pylist()
        # a sum of shares (fractions) differs in its last digits with the order it is taken in
        rounded = [{k: round(v, 9) if isinstance(v, float) else v for k, v in r.items()}
                   for r in rows]  # fmt: skip
        out[name] = sorted(rounded, key=repr)
    con.close()
    return out


def test_compaction_keeps_every_row_in_fewer_files(warehouse, capsys):
    before, summed, count = digest(warehouse), answers(warehouse), files(warehouse)
    assert count > 8
    assert main(["compact", "--db", str(warehouse)]) == 0
    assert "merged into" in capsys.readouterr().out
    assert digest(warehouse) == before and answers(warehouse) == summed
    assert all(files(warehouse, t) == 1 for t in all_schemas() if t != "rejects")
    assert main(["compact", "--db", str(warehouse)]) == 0
    assert capsys.readouterr().out.strip() == "nothing to compact"


def test_a_reader_keeps_answering_and_a_version_stays_readable_for_the_retention(warehouse):
    held = open_reader(warehouse)
    rows = held.execute("SELECT count(*), count(DISTINCT game_id) FROM events").fetchall()
    version = store.snapshot(warehouse).version
    listed = len(list((warehouse / "tables" / "events").glob("*.parquet")))
    compact(warehouse)
    assert held.execute("SELECT count(*), count(DISTINCT game_id) FROM events").fetchall() == rows
    assert len(list((warehouse / "tables" / "events").glob("*.parquet"))) == listed + 1
    assert digest(warehouse, as_of=version) == digest(warehouse)  # the replaced files wait
    compact(warehouse, retain_hours=0)
    assert len(list((warehouse / "tables" / "events").glob("*.parquet"))) == 1
    fresh = open_reader(warehouse)
    assert fresh.execute("SELECT count(*), count(DISTINCT game_id) FROM events").fetchall() == rows


def test_an_ingest_and_a_compaction_take_turns(warehouse, tmp_path):
    with hold(warehouse), pytest.raises(WarehouseBusy):  # a compaction holds it
        Writer(warehouse)
    writer = Writer(warehouse)  # an ingest holds it
    try:
        with pytest.raises(WarehouseBusy):
            compact(warehouse)
    finally:
        writer.close()
    compact(warehouse)
    (merged,) = store.files(warehouse, "games", store.snapshot(warehouse).pins["games"])
    extra = tmp_path / "extra"
    shutil.copytree(ROOT / "tests" / "knight_academy" / "logs", extra)
    before = digest(warehouse)["games"][0]
    summary = ingest([extra], db=warehouse, jobs=1)
    assert summary.ingested > 0
    after = store.files(warehouse, "games", store.snapshot(warehouse).pins["games"])
    assert merged in after and len(after) > 1  # the merged file, and the new batches' beside
    assert digest(warehouse)["games"][0] == before + summary.ingested


def test_an_ingest_compacts_by_itself_once_small_files_pile_up(warehouse, monkeypatch, tmp_path):
    monkeypatch.setattr(compaction, "PILE", 4)
    before = digest(warehouse)
    extra = tmp_path / "extra"
    shutil.copytree(ROOT / "tests" / "heraldry" / "logs", extra)
    summary = ingest([extra], db=warehouse, jobs=1)
    assert summary.ingested == 2 and summary.compacted is not None
    assert files(warehouse) == 1
    assert digest(warehouse)["games"][0] == before["games"][0] + 2


def _compaction(db: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "ingest.cli", "compact", "--db", str(db), "--retain", "0"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def _kill_when(proc: subprocess.Popen[bytes], ready) -> bool:
    """Kill the process the moment `ready()` holds; whether it was still at work then."""
    deadline = time.monotonic() + 60
    while not ready() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.002)
    running = proc.poll() is None
    if running:
        os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    return running


def _commits(db: Path) -> int:
    return sum(1 for _ in (db / "tables").glob("*/_delta_log/*.json"))


def test_a_compaction_killed_at_any_moment_loses_nothing_and_the_next_one_finishes(warehouse):
    before = digest(warehouse)
    start = _commits(warehouse)
    moments = {
        "after a table's merge, before the pin": lambda: _commits(warehouse) > start,
        "after the pin": lambda: (
            store.snapshot(warehouse).version > 0
            and store.snapshot(warehouse).pins != store.snapshot(warehouse, 1).pins
            and _commits(warehouse) > start + len(all_schemas())
        ),
    }
    for moment, ready in moments.items():
        _kill_when(_compaction(warehouse), ready)
        assert digest(warehouse) == before, moment
        Writer(warehouse).close()  # the warehouse still takes an ingest (and settles)
        assert digest(warehouse) == before, moment
    rng = random.Random(7)
    for _ in range(4):  # and at moments nobody chose
        proc = _compaction(warehouse)
        time.sleep(rng.uniform(0.3, 2.0))
        _kill_when(proc, lambda: True)
        assert digest(warehouse) == before
    compact(warehouse, retain_hours=0)
    assert digest(warehouse) == before and files(warehouse, "events") == 1


def test_a_merged_file_gathers_its_rows_into_few_row_groups(warehouse, monkeypatch):
    import pyarrow.parquet as pq
    from deltalake import WriterProperties

    monkeypatch.setattr(compaction, "WRITER", WriterProperties(max_row_group_size=1000))
    compact(warehouse)
    (games,) = store.files(warehouse, "games", store.snapshot(warehouse).pins["games"])
    (events,) = store.files(warehouse, "events", store.snapshot(warehouse).pins["events"])
    games_meta, events_meta = pq.ParquetFile(games).metadata, pq.ParquetFile(events).metadata
    assert games_meta.num_row_groups == -(-games_meta.num_rows // 1000)
    assert all(events_meta.row_group(i).num_rows <= 1000 for i in range(events_meta.num_row_groups))


def test_after_an_ingest_and_a_compaction_this_process_sees_what_another_commits(tmp_path):
    """While it holds the warehouse, a writer's own `batches` tells this process's readers the
    latest version; once an ingest and its compaction give the warehouse up, a commit made
    by another process is the latest here too."""
    db = tmp_path / "warehouse"
    logs = sorted((SAMPLES / "heraldry").iterdir())
    first, second = tmp_path / "first", tmp_path / "second"
    for folder, chosen in ((first, logs[:5]), (second, logs[5:10])):
        folder.mkdir()
        for log in chosen:
            shutil.copy(log, folder / log.name)
    ingest([first], db=db, jobs=1)
    compact(db)
    seen = store.snapshot(db).version
    subprocess.run([sys.executable, "-m", "ingest.cli", "ingest", str(second), "--db", str(db)],
                   check=True, capture_output=True, cwd=ROOT)  # fmt: skip
    assert store.snapshot(db).version > seen
    assert open_reader(db).execute("SELECT count(*) FROM games").fetchone()[0] == 10
