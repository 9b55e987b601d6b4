"""Every version of the warehouse says what made it (ingest.warehouse.origin): an ingest of so
many logs, an upload, a match recorded at the table, an experiment's batch, a compaction, a
conversion; and a warehouse written before squire kept it still lists, its versions saying
that it was not recorded."""

from __future__ import annotations

import io
import json
from pathlib import Path

import msgspec
import pyarrow as pa
import pytest

from ingest.cli import main
from ingest.club.access import Who
from ingest.pipeline import upload
from ingest.pipeline.pipeline import ingest
from ingest.pipeline.upload import ingest_uploads
from ingest.warehouse import store
from ingest.warehouse.location import spool
from ingest.warehouse.origin import RECORDING, Origin
from ingest.warehouse.warehouse import open_reader
from tests.ingest.warehouse.older import as_parts

ROOT = Path(__file__).resolve().parents[3]
KA_LOGS = ROOT / "tests" / "knight_academy" / "logs"
HERALDRY_LOGS = ROOT / "tests" / "heraldry" / "logs"
PALADINS_LOGS = ROOT / "tests" / "paladins" / "logs"
# `batches` as squire wrote it before it kept what made each version
OLDER_BATCHES = pa.schema(list(store.BATCH_SCHEMA)[:5])
MADE = ("made_by", "logs", "experiment")


def listed(db, capsys) -> list[dict]:
    """`squire versions --json` of `db`."""
    capsys.readouterr()
    assert main(["versions", "--db", str(db), "--json"]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def made(versions: list[dict]) -> list[tuple]:
    return [tuple(v[k] for k in MADE) for v in versions]


def test_each_writer_says_what_made_its_versions(tmp_path, capsys):
    db = tmp_path / "wh"
    ka = sorted(KA_LOGS.glob("*.jsonl"))
    assert main(["ingest", str(KA_LOGS), "--db", str(db), "--jobs", "1"]) == 0
    ingested = listed(db, capsys)
    assert ingested and made(ingested) == [("ingest", len(ka), None)] * len(ingested)

    files = sorted(HERALDRY_LOGS.glob("*.jsonl"))
    report = ingest_uploads(
        [(f.name, io.BytesIO(f.read_bytes())) for f in files], db, Who(None, "admin", "local")
    )
    assert report.ingested == len(files) and report.error is None
    uploaded = listed(db, capsys)[len(ingested) :]
    assert uploaded and made(uploaded) == [("upload", len(files), None)] * len(uploaded)

    log = sorted(PALADINS_LOGS.glob("*.jsonl"))[0]
    report = ingest_uploads(
        [("pa-recorded.jsonl", io.BytesIO(log.read_bytes()))],
        db,
        Who(None, "admin", "local"),
        RECORDING,
    )
    assert report.ingested == 1
    assert made(listed(db, capsys)[len(ingested) + len(uploaded) :]) == [("recording", 1, None)]

    before = len(listed(db, capsys))
    args = [
        *("experiment", "knight-academy", "--metric", "margin", "--bots", "greedy,random"),
        *("--a", "quest_prizes=[30,20,10]", "--max", "8", "--batch", "4", "--players", "2"),
        *("--jobs", "1", "--db", str(db)),
    ]
    assert main(args) == 0
    (experiment,) = {
        row[0] for row in open_reader(db).execute("SELECT experiment FROM games").fetchall()
    } - {None}
    batches = listed(db, capsys)[before:]
    assert len(batches) > 1 and made(batches) == [("experiment", None, experiment)] * len(batches)

    assert main(["compact", "--db", str(db)]) == 0
    assert made(listed(db, capsys)[-1:]) == [("compaction", None, None)]

    # and the list in words says the same, a line a version
    assert main(["versions", "--db", str(db)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[-2:] == ["made", "by"]
    told = [line.split(maxsplit=6)[-1] for line in lines[1:]]
    assert told == [
        *[f"ingest of {len(ka)} logs"] * len(ingested),
        *[f"upload of {len(files)} files"] * len(uploaded),
        "a match recorded at the table",
        *[f"experiment {experiment}"] * len(batches),
        "compaction",
    ]


def test_an_upload_stopped_and_taken_up_again_says_what_made_it(tmp_path, capsys):
    """A recording cut short by a stop of the server is still a recording once resumed."""
    db = tmp_path / "wh"
    log = sorted(PALADINS_LOGS.glob("*.jsonl"))[0]
    folder = spool(db) / upload.UPLOADS / "20261207T120000-0badf00d"
    folder.mkdir(parents=True)
    (folder / "0000.jsonl").write_bytes(log.read_bytes())
    manifest = upload.Manifest(
        "2026-12-07T12:00:00+00:00", [upload.Entry("0000.jsonl", "recorded.jsonl")], RECORDING
    )
    (folder / upload.MANIFEST).write_bytes(msgspec.json.encode(manifest))
    (stopped,) = upload.stopped(db)
    report = upload.resume(stopped, db, Who(None, "admin", "local"))
    assert report is not None and report.ingested == 1
    assert made(listed(db, capsys)) == [("recording", 1, None)]
    # a manifest of an older squire names no maker: it was an upload
    older = msgspec.json.decode(b'{"started_at": "2026-12-07T12:00:00", "files": []}',
                                type=upload.Manifest)  # fmt: skip
    assert older.made_by == "upload"


def test_a_version_made_by_nothing_it_knows_is_refused():
    with pytest.raises(ValueError, match="made by one of"):
        Origin("import")
    with pytest.raises(ValueError, match="an upload is made by"):
        ingest_uploads([], Path("unused"), Who(None, "admin", "local"), "experiment")


def test_a_conversion_says_so(sample_parts, tmp_path, capsys):
    db = tmp_path / "old"
    as_parts(sample_parts, db)
    assert main(["migrate", "--db", str(db)]) == 0
    versions = listed(db, capsys)
    assert versions and made(versions) == [("conversion", None, None)] * len(versions)


def older_warehouse(db, monkeypatch) -> int:
    """`db` as a squire before this one wrote it: `batches` without what made each version.
    The version it stands at."""
    with monkeypatch.context() as patch:
        patch.setattr(store, "BATCH_SCHEMA", OLDER_BATCHES)
        ingest([KA_LOGS], db=db, jobs=1)
    return store.snapshot(db).version


def read_as_an_older_squire_left_it(db, capsys, then: int) -> None:
    """What an older warehouse lists, before and after a writer of today's commits to it."""
    versions = listed(db, capsys)
    assert [v["version"] for v in versions] == list(range(1, then + 1))
    assert made(versions) == [(None, None, None)] * then
    assert main(["versions", "--db", str(db)]) == 0
    assert capsys.readouterr().out.count("not recorded (an older squire)") == then
    ingest([HERALDRY_LOGS], db=db, jobs=1)
    versions = listed(db, capsys)
    assert made(versions[:then]) == [(None, None, None)] * then  # not made up
    logs = len(list(HERALDRY_LOGS.glob("*.jsonl")))
    assert made(versions[then:]) == [("ingest", logs, None)] * (len(versions) - then)
    assert [v["version"] for v in versions] == list(range(1, len(versions) + 1))
    # the version before still reads as it stood, its matches and its rows of `batches`
    earlier = open_reader(db, then)
    assert earlier.execute("SELECT count(*), min(game) FROM games").fetchall() == [
        (len(list(KA_LOGS.glob("*.jsonl"))), "knight-academy")
    ]
    assert earlier.execute("SELECT count(*), count(made_by) FROM batches").fetchall() == [(then, 0)]
    earlier.close()


def test_a_warehouse_of_an_older_squire_lists_its_versions_as_not_recorded(
    tmp_path, monkeypatch, capsys
):
    db = tmp_path / "wh"
    then = older_warehouse(db, monkeypatch)
    read_as_an_older_squire_left_it(db, capsys, then)
    # another Delta reader sees the columns too, NULL in the older rows
    import polars as pl

    rows = pl.read_delta(str(db / "tables" / "batches")).sort("version")
    assert rows["made_by"].to_list()[:then] == [None] * then
    assert set(rows["made_by"].to_list()[then:]) == {"ingest"}
