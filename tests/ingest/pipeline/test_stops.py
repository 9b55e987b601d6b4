"""A stop is not a verdict: a signal to the server during an upload rejects no good log and
leaves no worker behind, and kill -9 of any command's main process ends its workers too."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from ingest.club.access import Who
from ingest.pipeline import upload
from ingest.warehouse.warehouse import open_reader
from tests.support import free_port

ROOT = Path(__file__).resolve().parents[3]
SAMPLES = ROOT / "data" / "samples"


def _live() -> Iterator[tuple[int, str, list[str]]]:
    """Each live process: its pid, its command line, and the fields of its stat after the
    command's name."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                command = f.read().replace(b"\0", b" ").decode(errors="replace")
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z":
            yield int(entry), command, fields


def _processes(match: str) -> list[int]:
    """The pids of running processes whose command line holds `match`."""
    return [pid for pid, command, _ in _live() if match in command]


def _session(sid: int) -> list[int]:
    """The live processes of a session (a command started with start_new_session)."""
    return [pid for pid, _, fields in _live() if int(fields[3]) == sid]  # stat's 6th: session


def _gone_within(find, seconds: float) -> list[int]:
    deadline = time.monotonic() + seconds
    while (left := find()) and time.monotonic() < deadline:
        time.sleep(0.1)
    return left


# The server as Streamlit runs a page: the upload in a daemon thread, the main thread
# waiting on it; SIGTERM ends the process at once, SIGINT through KeyboardInterrupt.
SERVER = textwrap.dedent(
    """
    import io, sys, threading, time
    from pathlib import Path
    from ingest.club.access import Who
    from ingest.pipeline.upload import ingest_uploads
    db, paths = Path(sys.argv[1]), sys.argv[2:]
    files = [(Path(p).name, io.BytesIO(Path(p).read_bytes())) for p in paths]
    who = Who(None, "admin", "local")
    threading.Thread(target=ingest_uploads, args=(files, db, who), daemon=True).start()
    while True:
        time.sleep(1)
    """
)


def _good_logs(count: int) -> list[Path]:
    every = sorted(SAMPLES.glob("*/*.jsonl*"))
    return random.Random(count).sample(every, count)


def _stored(db: Path) -> set[str]:
    return {row[0] for row in open_reader(db).execute("SELECT game_id FROM games").fetchall()}


def _game_id(path: Path) -> str:
    return path.name.removesuffix(".gz").removesuffix(".jsonl")


@pytest.mark.parametrize(
    ("stop", "moment"),
    [(signal.SIGTERM, 0.0), (signal.SIGINT, 0.6), (signal.SIGTERM, 2.5)],
)
def test_a_server_stopped_during_an_upload_rejects_no_good_log_and_leaves_no_worker(
    tmp_path, stop, moment
):
    db = tmp_path / "wh"
    logs = _good_logs(40)
    server = subprocess.Popen(
        [sys.executable, "-c", SERVER, str(db), *map(str, logs)],
        cwd=ROOT,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while not _processes(f"ingest.pipeline.upload {db}"):
            assert server.poll() is None and time.monotonic() < deadline, "no worker started"
            time.sleep(0.05)
        time.sleep(moment)  # the worker starting, replaying, committing or rating
        server.send_signal(stop)
        server.wait(timeout=30)
    finally:
        server.kill()
    worker = f"ingest.pipeline.upload {db}"
    assert not _gone_within(lambda: _processes(worker), 5), "the worker stayed"

    stored = _stored(db)
    assert open_reader(db).execute("SELECT count(*) FROM rejects").fetchall() == [(0,)]
    everything = {_game_id(p) for p in logs}
    if stored == everything:  # the stop came after the last commit: nothing to do again
        assert moment > 0 and upload.stopped(db) == []
        return
    (cut_short,) = upload.stopped(db)
    assert cut_short.names == [p.name for p in logs]
    # Every file is stored or said to be unprocessed (a stop between a commit and its note
    # could only err the other way: a stored file said unprocessed, harmless to send again).
    unprocessed = {_game_id(p) for p in logs if p.name in cut_short.unprocessed}
    assert unprocessed | stored == everything
    again = upload.resume(cut_short, db, Who(None, "admin", "local"))
    assert again is not None and not again.rejects and not again.unprocessed
    assert again.ingested + again.present == len(logs) and again.present == len(stored)
    assert _stored(db) == everything
    assert upload.stopped(db) == [] and not any((db / upload.UPLOADS).iterdir())


def test_an_upload_under_way_is_not_listed_as_stopped(tmp_path):
    db = tmp_path / "wh"
    with upload._new_upload(db, ["a.jsonl"]) as folder:
        assert folder.exists() and upload.stopped(db) == []
    assert not folder.exists()


def test_a_file_the_server_had_no_time_to_write_is_not_processed_and_not_rejected(tmp_path):
    db = tmp_path / "wh"
    good = _good_logs(2)
    with pytest.raises(KeyboardInterrupt), upload._new_upload(db, [p.name for p in good]) as folder:
        (folder / "0000.jsonl").write_bytes(good[0].read_bytes())
        (folder / "0001.jsonl.part").write_bytes(good[1].read_bytes()[:100])
        raise KeyboardInterrupt  # the server stops while it writes the second file
    (cut_short,) = upload.stopped(db)
    assert cut_short.unprocessed == [p.name for p in good]
    report = upload.resume(cut_short, db, Who(None, "admin", "local"))
    assert report is not None and report.ingested == 1 and not report.rejects
    assert report.unprocessed == [good[1].name]  # to be sent again
    assert _stored(db) == {_game_id(good[0])}


def _command(name: str, tmp_path: Path) -> list[str]:
    db = str(tmp_path / "wh")
    return {
        "ingest": ["ingest", str(SAMPLES), "--db", db, "--jobs", "2"],
        "simulate": ["simulate", "knight-academy", "-n", "20000", "--out", str(tmp_path / "s")],
        "experiment": [
            *("experiment", "knight-academy", "--a", "quest_prizes=[12,8,4]"),
            *("--metric", "margin", "--db", db),
        ],
        "up": [
            "up",
            "--db",
            db,
            "--port",
            str(free_port()),
        ],  # stopped while it ingests, before serving
    }[name]


@pytest.mark.parametrize(
    ("command", "stop"),
    [
        ("ingest", signal.SIGKILL),
        ("simulate", signal.SIGKILL),
        ("experiment", signal.SIGKILL),
        ("up", signal.SIGKILL),
        ("up", signal.SIGTERM),
    ],
)
def test_the_workers_end_with_their_main_process_however_it_ends(tmp_path, command, stop):
    main = subprocess.Popen(
        [sys.executable, "-m", "ingest.cli", *_command(command, tmp_path)],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # its session holds every process it starts
    )
    try:
        deadline = time.monotonic() + 60
        # the main process, the fork server and two workers at work
        while len(_session(main.pid)) < 4:
            assert main.poll() is None and time.monotonic() < deadline, "no workers started"
            time.sleep(0.05)
        time.sleep(0.5)
        main.send_signal(stop)
        main.wait(timeout=30)
    finally:
        main.kill()
    left = _gone_within(lambda: _session(main.pid), 5)
    for pid in left:  # not to leave them to the rest of the suite
        os.kill(pid, signal.SIGKILL)
    assert not left, f"{len(left)} processes outlived {command}'s main process"
