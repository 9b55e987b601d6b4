"""A warehouse on S3 (`--db s3://BUCKET/PATH`), against a real S3-compatible server started
here (moto's, in this process): what it stores and answers is what a folder's does, every
command runs against it, its writer's lock holds and is taken over from a killed holder, and
an ingest killed on the way stores every match once."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest

from ingest.club.access import Who
from ingest.pipeline.pipeline import ingest
from ingest.warehouse import lock, store
from ingest.warehouse.warehouse import WarehouseBusy, Writer, open_reader, signature
from tests.s3 import KEYS, new_bucket

pytest.importorskip("moto.server")
boto3 = pytest.importorskip("boto3")

ROOT = Path(__file__).resolve().parents[3]
KA_LOGS = ROOT / "tests" / "knight_academy" / "logs"
TABLES = ("games", "seats", "events", "score_events", "track_moves", "rejects")


@pytest.fixture
def bucket(endpoint):
    return new_bucket()


@pytest.fixture(scope="module")
def ka_logs(tmp_path_factory):
    """Knight Academy's test matches, and a log broken at its second line."""
    folder = tmp_path_factory.mktemp("logs")
    for path in KA_LOGS.iterdir():
        (folder / path.name).write_bytes(path.read_bytes())
    first = next(p for p in sorted(KA_LOGS.iterdir()) if p.suffix == ".jsonl")
    header = first.read_text().splitlines()[0].replace('"game_id": "', '"game_id": "broken-', 1)
    (folder / "broken.jsonl").write_text(header + "\n{not json\n")
    return folder


@pytest.fixture(scope="module")
def filled(endpoint, ka_logs):
    """A warehouse on S3 that holds the Knight Academy matches, for the tests that only read
    it, and what their ingest counted."""
    db = new_bucket("filled")
    return db, ingest([ka_logs], db=db, jobs=1)


def _counts(db) -> dict[str, int]:
    con = db if isinstance(db, duckdb.DuckDBPyConnection) else open_reader(db)
    try:
        return {t: con.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in TABLES}
    finally:
        con.close()


def _answers(db) -> list[tuple]:
    """What the pages ask most: matches and points by game and source, from the summaries."""
    con = open_reader(db)
    try:
        return (
            con.execute(
                "SELECT game, sum(matches) FROM summary_matches GROUP BY game ORDER BY game"
            ).fetchall()
            + con.execute(
                "SELECT game_id, seat, score, rank FROM seats ORDER BY game_id, seat"
            ).fetchall()
        )
    finally:
        con.close()


def test_an_s3_warehouse_stores_and_answers_what_a_folder_does(filled, tmp_path, ka_logs):
    bucket, done = filled
    local = tmp_path / "warehouse"
    for summary in (done, ingest([ka_logs], db=local, jobs=1)):
        assert summary.ingested == len(list(KA_LOGS.glob("*.jsonl*")))
        assert [(Path(r.path).name, r.line, r.rule) for r in summary.rejects] == [
            ("broken.jsonl", 2, "LOG-1")
        ]
    assert _counts(bucket) == _counts(local)
    assert _answers(bucket) == _answers(local)
    # the ratings are a table of the warehouse too
    assert list((bucket / "tables" / "ratings" / "_delta_log").glob("*.json"))


def test_another_delta_reader_reads_the_same_tables(filled):
    import polars as pl

    bucket, done = filled
    options = {
        "AWS_ENDPOINT_URL": os.environ["AWS_ENDPOINT_URL"],
        "AWS_ALLOW_HTTP": "true",
        **KEYS,
    }
    games = pl.read_delta(str(bucket / "tables" / "games"), storage_options=options)
    assert games.height == done.ingested
    con = open_reader(bucket)
    stored = {row[0] for row in con.execute("SELECT game_id FROM games").fetchall()}
    con.close()
    assert set(games["game_id"]) == stored


def _squire(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ingest.cli", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
    )


def test_every_command_runs_against_s3_with_its_settings_given_as_storage_options(
    bucket, ka_logs, capsys
):
    from ingest.cli import main

    # a process whose environment lacks the server's address and TLS setting: given on the
    # command line alone
    env = {k: v for k, v in os.environ.items() if k not in ("AWS_ENDPOINT_URL", "AWS_ALLOW_HTTP")}
    env["PYTHONPATH"] = str(ROOT)
    options = ["--storage-option", f"AWS_ENDPOINT_URL={os.environ['AWS_ENDPOINT_URL']}",
               "--storage-option", "allow_http=true"]  # fmt: skip
    db = ["--db", str(bucket), *options]
    ran = _squire("ingest", str(ka_logs), "--jobs", "1", *db, env=env)
    assert ran.returncode == 1, ran.stderr  # the broken log is rejected
    stored = _counts(bucket)["games"]
    assert stored and f"{stored} ingested" in ran.stdout and "broken.jsonl:2: LOG-1" in ran.stderr

    def squire(*args: str) -> tuple[int, str]:  # the other commands, in this process
        status = main([*args, *db])
        return status, capsys.readouterr().out

    status, listed = squire("versions", "--json")
    versions = [json.loads(line) for line in listed.splitlines()]
    assert status == 0 and versions[-1]["matches"] == stored and "pins" in versions[-1]
    status, ratings = squire("ratings", "knight-academy")
    assert status == 0 and "Cid" in ratings
    status, rescored = squire("rescore", "knight-academy")
    assert status == 0 and "stored matches under no change" in rescored
    status, compacted = squire("compact")
    assert status == 0 and "merged" in compacted
    assert _counts(bucket)["games"] == stored  # compaction changes no row
    status, _ = squire("experiment", "knight-academy", "--a", "quest_prizes=[12,8,4]",
                       "--metric", "start_player_win_rate", "--max", "4", "--batch", "2",
                       "--players", "2", "--jobs", "1")  # fmt: skip
    assert status == 0
    con = open_reader(bucket)
    assert con.execute("SELECT count(*) FROM experiment_results").fetchone()[0] == 1
    assert con.execute("SELECT count(*) FROM games WHERE experiment IS NOT NULL").fetchone()[0]
    con.close()
    assert main(["versions", "--db", str(bucket / "nothing"), *options]) == 2
    assert "no warehouse" in capsys.readouterr().err


def test_the_writers_lock_holds_on_s3_and_a_stopped_holders_is_taken_over(bucket):
    writer = Writer(bucket)
    try:
        with pytest.raises(WarehouseBusy, match="being written by process"):
            Writer(bucket)
    finally:
        writer.close()
    Writer(bucket).close()  # given up: the next takes it
    client = boto3.client("s3")
    name, _, prefix = bucket.key.partition("/")

    def left(holder: dict[str, object]) -> None:
        client.put_object(Bucket=name, Key=f"{prefix}/{lock.NAME}", Body=json.dumps(holder))

    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)  # fmt: skip
    left({"host": lock.socket.gethostname(), "pid": int(gone.stdout), "at": time.time()})
    Writer(bucket).close()  # its holder no longer runs: taken over
    left({"host": "another-machine", "pid": 1, "at": time.time()})
    with pytest.raises(WarehouseBusy, match="another-machine"):
        Writer(bucket)
    left({"host": "another-machine", "pid": 1, "at": time.time() - lock.LEASE - 1})
    Writer(bucket).close()  # silent for longer than its lease: taken over


def test_an_ingest_killed_on_the_way_to_s3_stores_every_match_once_when_run_again(bucket, tmp_path):
    logs = tmp_path / "logs"
    logs.mkdir()
    sources = sorted((ROOT / "data" / "samples" / "knight-academy").glob("*.jsonl*"))[:24]
    for path in sources:
        (logs / path.name).write_bytes(path.read_bytes())
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen(
        [sys.executable, "-m", "ingest.cli", "ingest", str(logs), "--db", str(bucket),
         "--jobs", "1"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT,
    )  # fmt: skip
    deadline = time.monotonic() + 300
    while proc.poll() is None and time.monotonic() < deadline:
        if store.exists(bucket) and store.snapshot(bucket).version > 0:
            break
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    partway = _counts(bucket)["games"]
    seen, then = signature(bucket), store.snapshot(bucket).version
    again = ingest([logs], db=bucket, jobs=1)  # the killed run's lock is taken over
    assert again.present == partway and again.ingested == len(sources) - partway
    assert signature(bucket) != seen  # a page's cache sees the commits
    assert _counts(open_reader(bucket, as_of=then))["games"] == partway  # as it stood then
    con = open_reader(bucket)
    assert con.execute("SELECT count(*), count(DISTINCT game_id) FROM games").fetchone() == (
        len(sources),
        len(sources),
    )
    assert con.execute(
        "SELECT count(*) FROM games g WHERE event_count != "
        "(SELECT count(*) FROM events e WHERE e.game_id = g.game_id)"
    ).fetchone() == (0,)
    con.close()


def test_a_small_data_file_on_s3_is_read_once_whole_and_opened_never(filled, monkeypatch):
    from ingest.warehouse import location

    db, _ = filled
    reads: list[str] = []  # the tables' data files read, not the objects beside them
    get_whole = location.get_whole

    def counted(key: str) -> bytes:
        if location._unchanging(key):
            reads.append(key)
        return get_whole(key)

    monkeypatch.setattr(location, "get_whole", counted)
    location._reading.cache_clear()
    location._WHOLE.clear()
    con = open_reader(db)
    query = "SELECT * FROM seats ORDER BY game_id, player"
    first = con.execute(query).fetchall()
    kept = set(location._WHOLE)
    assert kept and sorted(reads) == sorted(kept)  # each of the table's files read once
    # read whole in one request: no handle opened, which would ask S3 for the size first
    assert location._reading.cache_info().misses == 0
    assert con.execute(query).fetchall() == first  # again: the same rows, from what was kept
    assert sorted(reads) == sorted(kept) and set(location._WHOLE) == kept
    con.close()
    location._WHOLE.clear()
    before = len(reads)
    con = open_reader(db)  # read from S3 again: the same rows
    assert con.execute(query).fetchall() == first and len(first) == _counts(db)["seats"]
    assert sorted(reads[before:]) == sorted(location._WHOLE)
    con.close()


@pytest.mark.parametrize("boto3", [True, False], ids=["boto3", "pyarrow"])
def test_an_object_on_s3_is_read_whole_and_a_missing_one_is_not_found(bucket, monkeypatch, boto3):
    from ingest.warehouse import location

    if not boto3:  # squire[s3] not installed: pyarrow reads it
        monkeypatch.setattr(location, "s3_client", lambda: None)
    (bucket / "note.txt").write_text("kept\n")
    assert (bucket / "note.txt").read_text() == "kept\n"
    with pytest.raises(FileNotFoundError, match=r"nothing\.txt"):
        (bucket / "nothing.txt").read_bytes()


def test_a_table_is_made_on_s3_once_with_its_first_commit_naming_where_it_is(bucket):
    """delta-rs' first commit, made aside and written by a conditional put: the table reads as
    one delta-rs made there, and making it again (another writer, a run killed after it)
    leaves the first as it was."""
    import pyarrow as pa
    from deltalake import DeltaTable

    schema = pa.schema([("game_id", pa.string()), ("points", pa.int64())])
    made = store.create(bucket, {"scores": schema})
    assert set(made) == {"scores", store.BATCHES}
    path = store.folder(bucket, "scores")
    log = (path / "_delta_log" / store.FIRST).read_text()
    first = [json.loads(line) for line in log.splitlines()]
    (info,) = [a["commitInfo"] for a in first if "commitInfo" in a]
    assert info["operationParameters"]["location"] == str(path)
    (meta,) = [a["metaData"] for a in first if "metaData" in a]
    assert meta["configuration"] == store.LOG
    table = DeltaTable(str(path))
    assert table.version() == 0 and table.schema().to_arrow() == schema
    assert table.metadata().id == meta["id"]
    assert store.create(bucket, {"scores": schema}) == {}  # there already: nothing made
    assert DeltaTable(str(path)).metadata().id == meta["id"]


def test_a_writer_opening_aside_says_what_stopped_it_at_its_first_commit(bucket, monkeypatch):
    def broken(*args, **kwargs):
        raise OSError("the tables could not be opened")

    monkeypatch.setattr(store, "Committer", broken)
    writer = Writer(bucket, meanwhile=True)  # back at once, the tables opening aside
    try:
        with pytest.raises(OSError, match="could not be opened"):
            writer.flush()
        with pytest.raises(OSError, match="could not be opened"):
            writer.commit({}, {}, {}, [], [], None, {})
    finally:
        writer.close()
    monkeypatch.undo()
    Writer(bucket).close()  # the lock was given up


def test_the_dashboards_read_a_warehouse_on_s3(filled, monkeypatch):
    from streamlit.testing.v1 import AppTest

    bucket, done = filled
    monkeypatch.setenv("SQUIRE_WAREHOUSE", str(bucket))
    at = AppTest.from_file(str(ROOT / "dashboards" / "app.py"), default_timeout=60)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    # the matches the engines replayed, as the ingest counted them
    assert [(m.label, m.value) for m in at.metric] == [
        ("Knight Academy", f"{done.ingested:,} matches")
    ]


def test_an_upload_to_a_warehouse_on_s3_is_spooled_on_this_machine(
    bucket, ka_logs, monkeypatch, tmp_path
):
    import io

    from ingest.pipeline import upload
    from ingest.warehouse import location

    monkeypatch.setattr(location, "SPOOL", tmp_path / "spool")
    good = next(p for p in sorted(ka_logs.iterdir()) if p.name.startswith("ka-"))
    sent = [(good.name, io.BytesIO(good.read_bytes())), ("broken.jsonl", io.BytesIO(b"{x\n"))]
    report = upload.ingest_uploads(sent, bucket, Who(None, "admin", "local"))
    assert (report.logs, report.ingested, report.error) == (2, 1, None)
    assert [(r.path, r.line, r.rule) for r in report.rejects] == [("broken.jsonl", 1, "LOG-1")]
    assert _counts(bucket)["games"] == 1 and _counts(bucket)["rejects"] == 1
    # the upload's files were worked on in this machine's spool, and are gone once stored
    assert (tmp_path / "spool" / bucket.key / upload.UPLOADS).is_dir()
    assert not list((tmp_path / "spool" / bucket.key / upload.UPLOADS).iterdir())
    assert not list(bucket.glob("uploads/*"))


def test_an_older_warehouse_on_s3_lists_its_versions_and_takes_what_made_the_next(
    bucket, monkeypatch, capsys
):
    """`batches` of an older squire lacks what made each version: a reader on S3, which opens
    no file to learn its columns, goes by the table's schema at the version it reads."""
    from tests.ingest.warehouse.test_origin import older_warehouse, read_as_an_older_squire_left_it

    then = older_warehouse(bucket, monkeypatch)
    read_as_an_older_squire_left_it(bucket, capsys, then)
