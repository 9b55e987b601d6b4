"""`squire compact`: the same rows in fewer parts, readers answering throughout, ingests never
blocked, and a kill at any moment losing nothing."""

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
from ingest.warehouse.compact import compact, runs
from ingest.warehouse.warehouse import (
    SCHEMA,
    WarehouseBusy,
    Writer,
    open_reader,
    parts,
    sweep_replaced,
)

ROOT = Path(__file__).parents[3]
SAMPLES = ROOT / "data" / "samples"


def digest(db: Path) -> dict[str, tuple[int, int | None]]:
    """Each table's row count and an order-free hash of its rows."""
    con = open_reader(db)
    out = {}
    for table in SCHEMA:
        (row,) = con.execute(f"SELECT count(*), bit_xor(hash(x)) FROM {table} x").fetchall()
        out[table] = (row[0], row[1])
    con.close()
    return out


@pytest.fixture
def warehouse(sample_parts, tmp_path) -> Path:
    """The samples in many small parts (conftest), a copy of its own."""
    db = tmp_path / "warehouse"
    shutil.copytree(sample_parts, db)
    return db


def test_compaction_keeps_every_row_in_fewer_parts(warehouse, capsys):
    before, count = digest(warehouse), len(parts(warehouse))
    assert count > 8
    assert main(["compact", "--db", str(warehouse), "--target", "600"]) == 0
    assert "merged into" in capsys.readouterr().out
    after = parts(warehouse)
    assert len(after) < count / 2 and digest(warehouse) == before
    assert all(len(run) <= 1 for run in runs(warehouse, 600)), "a second compaction finds nothing"
    assert main(["compact", "--db", str(warehouse), "--target", "600"]) == 0
    assert capsys.readouterr().out.strip() == "nothing to compact"


def test_a_reader_that_opened_before_keeps_answering_until_the_grace_has_passed(warehouse):
    held = open_reader(warehouse)
    rows = held.execute("SELECT count(*), count(DISTINCT game_id) FROM events").fetchall()
    listed = len(list((warehouse / "parts").iterdir()))
    compact(warehouse, 600)
    assert held.execute("SELECT count(*), count(DISTINCT game_id) FROM events").fetchall() == rows
    assert len(list((warehouse / "parts").iterdir())) > listed  # the replaced ones wait
    sweep_replaced(warehouse)  # within the grace: nothing goes
    assert held.execute("SELECT count(*) FROM games").fetchall()[0][0] > 0
    sweep_replaced(warehouse, grace=0)
    assert sorted((warehouse / "parts").iterdir()) == parts(warehouse)
    fresh = open_reader(warehouse)
    assert fresh.execute("SELECT count(*), count(DISTINCT game_id) FROM events").fetchall() == rows


def test_an_ingest_is_not_blocked_by_a_compaction_and_numbers_its_parts_after_it(
    warehouse, tmp_path
):
    with compaction._lock(warehouse):  # a compaction holds the warehouse
        with pytest.raises(WarehouseBusy):
            compact(warehouse)
        Writer(warehouse).close()  # an ingest may start
    writer = Writer(warehouse)  # an ingest holds it: a compaction still runs
    try:
        compact(warehouse, 600)
    finally:
        writer.close()
    sweep_replaced(warehouse, grace=0)
    newest = parts(warehouse)[-1].name
    extra = tmp_path / "extra"
    shutil.copytree(ROOT / "tests" / "knight_academy" / "logs", extra)
    before = digest(warehouse)["games"][0]
    summary = ingest([extra], db=warehouse, jobs=1)
    assert summary.ingested > 0
    assert parts(warehouse)[-1].name > newest  # after the merged parts, not among them
    assert digest(warehouse)["games"][0] == before + summary.ingested


def test_an_ingest_compacts_by_itself_once_small_parts_pile_up(warehouse, monkeypatch, tmp_path):
    monkeypatch.setattr(compaction, "PILE", 4)
    monkeypatch.setattr(compaction, "TARGET", 600)
    before = digest(warehouse)
    count = len(parts(warehouse))
    extra = tmp_path / "extra"
    shutil.copytree(ROOT / "tests" / "heraldry" / "logs", extra)
    summary = ingest([extra], db=warehouse, jobs=1)
    assert summary.ingested == 2 and summary.compacted is not None
    assert len(parts(warehouse)) < count
    assert digest(warehouse)["games"][0] == before["games"][0] + 2


def _compaction(db: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "ingest.cli", "compact", "--db", str(db), "--target", "600"],
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


def test_a_compaction_killed_at_any_moment_loses_nothing_and_the_next_one_finishes(warehouse):
    before = digest(warehouse)
    folder = warehouse / "parts"
    moments = {
        "writing a merged part": lambda: any((warehouse / "compacting").glob("*/*.parquet")),
        "just after a merged part's commit": lambda: any(folder.glob("*/covers.json")),
    }
    for moment, ready in moments.items():
        assert _kill_when(_compaction(warehouse), ready), f"the kill came too late: {moment}"
        assert digest(warehouse) == before, moment
        Writer(warehouse).close()  # the warehouse still takes an ingest
    rng = random.Random(7)
    for _ in range(4):  # and at moments nobody chose
        proc = _compaction(warehouse)
        time.sleep(rng.uniform(0.3, 2.0))
        _kill_when(proc, lambda: True)
        assert digest(warehouse) == before
    compact(warehouse, 600)
    assert digest(warehouse) == before and not (warehouse / "compacting").exists()
    assert not runs(warehouse, 600)


def test_a_merged_part_gathers_its_rows_into_few_row_groups(warehouse, monkeypatch):
    import pyarrow.parquet as pq

    monkeypatch.setattr(compaction, "ROW_GROUP", 1000)
    compact(warehouse, target=10**9)
    (part,) = parts(warehouse)
    games = pq.ParquetFile(part / "games.parquet").metadata
    events = pq.ParquetFile(part / "events.parquet").metadata
    assert games.num_row_groups == -(-games.num_rows // 1000)  # not one per merged part
    assert all(events.row_group(i).num_rows <= 1000 for i in range(events.num_row_groups))
    assert events.num_row_groups == -(-events.num_rows // 1000)
