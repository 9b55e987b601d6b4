"""Logs uploaded through the dashboards: checked against the upload's limits, then ingested
by a worker process of their own, so that nothing a stranger sends can take the dashboards
down with it.

The dashboard process writes the uploaded bytes to numbered files (an uploaded file's name is
never used as a path) in a folder of the warehouse's `uploads/`, with a manifest of the names
the user gave them, and holds a lock on it while `python -m ingest.pipeline.upload FOLDER --db W`
ingests them under those names, bounded in memory and time, and prints its summary as one
JSON object. The worker notes each file once its batch is committed.

A stop of the server is not a verdict on the files: the worker ends with the server (it
watches it, ingest.pipeline.lifeline), what it had committed stays, and the folder stays too, with
nothing rejected for the files it had not read. `stopped(W)` finds such uploads (their lock
is free), tells which of their files were not processed, and `resume` ingests them again.
"""

from __future__ import annotations

import argparse
import fcntl
import functools
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO

import msgspec

from ingest.club import gate, serving
from ingest.club.access import Who, done, require
from ingest.pipeline.lifeline import die_with
from ingest.warehouse.location import Place, place, spool
from ingest.warehouse.origin import RECORDING, UPLOAD, Origin
from ingest.warehouse.tables import Reject
from replay.errors import one_line
from replay.limits import MAX_LOG_BYTES, size_text

FILE_BYTES = MAX_LOG_BYTES  # per file as uploaded
# Streamlit's per-file limit (`server.maxUploadSize`) is in whole megabytes, and its page
# counts a megabyte as 10^6 bytes: the next one above FILE_BYTES lets every file of FILE_BYTES
# through, and Upload.refusal() holds a file to FILE_BYTES exactly.
STREAMLIT_MB = -(-FILE_BYTES // 10**6)
UPLOAD_BYTES = 64 * 2**20  # all the files of one upload together
UPLOAD_FILES = 100
WORKER_MEMORY = 512 * 2**20  # resident: a worker holding more is stopped
WORKER_SECONDS = 300
UPLOADS = "uploads"  # in the warehouse folder (ingest.warehouse.location.spool)
MANIFEST = "manifest.json"
PROCESSED = "processed"  # the numbered files whose batch is committed, one a line
LOCK = "LOCK"  # held while the upload is under way


class Entry(msgspec.Struct):
    file: str  # the numbered file in the upload's folder
    name: str  # what the user named it


class Manifest(msgspec.Struct):
    started_at: str
    files: list[Entry]
    # what its versions say made them: an upload, or a match saved on the Record page (an
    # upload stopped before squire kept this was an upload: the Record page's came later)
    made_by: str = UPLOAD


class Report(msgspec.Struct, kw_only=True):
    """What an upload came to; `error` when the worker itself could not finish."""

    logs: int = 0
    ingested: int = 0
    present: int = 0
    conflicts: list[tuple[str, str]] = []  # (name, game_id) stored from a different log
    rejects: list[Reject] = []
    error: str | None = None
    unprocessed: list[str] = []  # files neither stored nor rejected: to be sent again


@dataclass
class Upload:
    """The files of one upload, as (name the user gave it, size in bytes)."""

    files: list[tuple[str, int]] = field(default_factory=list)

    def refusal(self) -> str | None:
        """Why the upload as a whole is refused (too many files, too many bytes), or None."""
        total = sum(size for _, size in self.files)
        if len(self.files) > UPLOAD_FILES:
            return (
                f"{len(self.files)} files: an upload takes at most {UPLOAD_FILES}; "
                "upload fewer at a time, or use `squire ingest FOLDER`"
            )
        if total > UPLOAD_BYTES:
            return (
                f"{size_text(total)} in all: an upload takes at most "
                f"{size_text(UPLOAD_BYTES)}; upload fewer at a time, or use "
                "`squire ingest FOLDER`"
            )
        big = [name for name, size in self.files if size > FILE_BYTES]
        if big:
            return f"{one_line(big[0])}: a file may hold at most {size_text(FILE_BYTES)}"
        return None


def ingest_uploads(
    files: Iterable[tuple[str, IO[bytes]]], db: Place, who: Who, made_by: str = UPLOAD
) -> Report:
    """Write the uploaded files out under numbers and ingest them in a bounded worker;
    `made_by`: UPLOAD, or RECORDING for a match saved on the Record page. Denied unless
    `who` may (ingest.club.gate)."""
    if made_by not in (UPLOAD, RECORDING):
        raise ValueError(f"an upload is made by {UPLOAD} or {RECORDING}, not {made_by!r}")
    files = list(files)
    what = {"files": len(files), "names": ", ".join(name for name, _ in files[:5])}
    if made_by == UPLOAD:
        gate.upload(db, who, "upload", what)
    else:
        gate.recording(db, who, what)
    with _new_upload(db, [name for name, _ in files], made_by) as folder:
        for entry, (_, data) in zip(_manifest(folder).files, files):
            data.seek(0)
            # Whole or not at all: a file cut by a stop would be read as a broken log.
            part = folder / f"{entry.file}.part"
            with open(part, "wb") as out:
                shutil.copyfileobj(data, out)
            part.rename(folder / entry.file)
        return _run_worker(folder, db)


@dataclass
class Stopped:
    """An upload the server stopped before its worker finished."""

    folder: Path
    started_at: str
    names: list[str]  # every file of the upload, as the user named it
    unprocessed: list[str]  # those neither stored nor rejected


def stopped(db: Place) -> list[Stopped]:
    """The uploads of this warehouse that were cut short, oldest first. One whose files were
    all processed (the server stopped as it was ending) is simply let go."""
    root = spool(db) / UPLOADS
    found = []
    for folder in sorted(root.iterdir()) if root.is_dir() else []:
        with _held(folder) as free:
            if not free:
                continue  # under way in another session, or being written
            try:
                manifest = _manifest(folder)
            except FileNotFoundError:  # stopped before its manifest was written
                shutil.rmtree(folder, ignore_errors=True)
                continue
            left = _unprocessed(folder, manifest)
            if not left:
                shutil.rmtree(folder, ignore_errors=True)
                continue
            names = [entry.name for entry in manifest.files]
            found.append(Stopped(folder, manifest.started_at, names, left))
    return found


def resume(upload: Stopped, db: Place, who: Who) -> Report | None:
    """Ingest a stopped upload's files again, all of them so that its report is whole (those
    it had stored come back as already present); None if another session has taken it up.
    Denied unless `who` may (ingest.club.gate)."""
    gate.upload(
        db, who, "upload.resume", {"upload": upload.folder.name, "files": len(upload.names)}
    )
    with _held(upload.folder) as free:
        if not free or not (upload.folder / MANIFEST).exists():
            return None
        report = _run_worker(upload.folder, db)
        shutil.rmtree(upload.folder, ignore_errors=True)
        return report


def discard(upload: Stopped, db: Place, who: Who) -> None:
    """Let a stopped upload go: what it had stored stays, its other files are forgotten.
    Denied unless `who` is an admin."""
    what = {"upload": upload.folder.name, "unprocessed": len(upload.unprocessed)}
    require(db, who, "upload.let_go", what)
    done(db, who, "upload.let_go", what)
    with _held(upload.folder) as free:
        if free:
            shutil.rmtree(upload.folder, ignore_errors=True)


@contextmanager
def _new_upload(db: Place, names: list[str], made_by: str = UPLOAD) -> Iterator[Path]:
    """A folder for an upload, locked until it is done with and deleted then. It is made
    under a hidden name and renamed once locked and its manifest is written, so that no
    other session takes it for a stopped upload while it is being made."""
    root = spool(db) / UPLOADS
    root.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(UTC)
    name = f"{stamp:%Y%m%dT%H%M%S}-{uuid.uuid4().hex[:8]}"
    making = root / f".{name}"
    making.mkdir()
    with _held(making) as free:
        assert free  # nobody else knows the folder yet
        manifest = Manifest(
            started_at=stamp.isoformat(timespec="seconds"),
            # gzip is told by its bytes, not by its name
            files=[Entry(f"{i:04d}.jsonl", n) for i, n in enumerate(names)],
            made_by=made_by,
        )
        (making / MANIFEST).write_bytes(msgspec.json.encode(manifest))
        folder = making.rename(root / name)
        yield folder  # the server stopped in there: the folder stays, listed as stopped
        shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def _held(folder: Path) -> Iterator[bool]:
    """The upload's lock, if no one holds it (True), for as long as the block runs. An flock
    is let go when its holder ends however it ends, so a stopped server frees its uploads."""
    try:
        fd = os.open(folder / LOCK, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError:
        yield False
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        yield False
        return
    try:
        yield True
    finally:
        os.close(fd)


def _manifest(folder: Path) -> Manifest:
    return msgspec.json.decode((folder / MANIFEST).read_bytes(), type=Manifest)


def _unprocessed(folder: Path, manifest: Manifest) -> list[str]:
    """The names of the files whose batch the worker had not committed."""
    try:
        done = set((folder / PROCESSED).read_text().split())
    except FileNotFoundError:
        done = set()
    return [entry.name for entry in manifest.files if entry.file not in done]


def _run_worker(folder: Path, db: Place) -> Report:
    """The worker, watched from here: stopped if it holds more than WORKER_MEMORY resident
    or runs past WORKER_SECONDS. (An address-space limit would not do: pyarrow reserves a
    gigabyte and more of address space it never touches.) Its own session, so that a Ctrl-C
    at the server's terminal reaches the server alone: the worker ends when the server does."""
    command = [sys.executable, "-m", "ingest.pipeline.upload", str(folder), "--db", str(db),
               "--parent", str(os.getpid())]  # fmt: skip
    with _workers(), tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        worker = subprocess.Popen(
            command,
            stdout=out,
            stderr=err,
            cwd=Path(__file__).resolve().parents[2],
            start_new_session=True,
        )
        stopped = _watch(worker)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    left = _unprocessed(folder, _manifest(folder))
    if stopped:
        return Report(
            error=f"the ingest {stopped} and was stopped; what it had committed stays",
            unprocessed=left,
        )
    if worker.returncode != 0 or not stdout.strip():
        last = (stderr.decode(errors="replace").strip().splitlines() or ["no message"])[-1]
        return Report(
            error=f"the ingest stopped ({one_line(last)}); what it had committed stays",
            unprocessed=left,
        )
    return msgspec.json.decode(stdout.strip().splitlines()[-1], type=Report)


@functools.cache
def _workers() -> threading.BoundedSemaphore:
    """Held while a worker runs: at most the server's `upload_workers` at once, the others
    waiting their turn (each worker may take WORKER_MEMORY)."""
    return threading.BoundedSemaphore(serving.current().budgets.upload_workers)


def _watch(worker: subprocess.Popen[bytes]) -> str | None:
    """Wait for the worker; kill it and say why if it passes its memory or time."""
    deadline = time.monotonic() + WORKER_SECONDS
    while worker.poll() is None:
        if resident(worker.pid) > WORKER_MEMORY:
            worker.kill()
            worker.wait()
            return f"held more than {size_text(WORKER_MEMORY)}"
        if time.monotonic() > deadline:
            worker.kill()
            worker.wait()
            return f"took longer than {WORKER_SECONDS} s"
        time.sleep(0.02)
    return None


def resident(pid: int) -> int:
    """The resident bytes of a running process (0 once it has gone)."""
    try:
        with open(f"/proc/{pid}/statm", "rb") as f:
            return int(f.read().split()[1]) * resource.getpagesize()
    except (OSError, IndexError, ValueError):
        return 0


def main(argv: Sequence[str] | None = None) -> int:
    """The worker: ingest an upload's folder, print its Report as JSON."""
    parser = argparse.ArgumentParser(prog="python -m ingest.pipeline.upload")
    parser.add_argument("folder", type=Path)
    parser.add_argument("--db", type=place, required=True)
    parser.add_argument("--parent", type=int, help="end when this process ends")
    args = parser.parse_args(argv)
    if args.parent is not None:
        die_with(args.parent)

    from ingest.pipeline.pipeline import ingest_logs
    from ingest.warehouse.warehouse import WarehouseBusy

    folder: Path = args.folder
    manifest = _manifest(folder)
    entries = manifest.files
    # A file the server had no time to write is not processed: it is not this log's fault.
    paths = [str(folder / e.file) for e in entries if (folder / e.file).exists()]
    names = {str(folder / e.file): e.name for e in entries}
    done = os.open(folder / PROCESSED, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    committed = iter(paths)

    def note(count: int) -> None:
        # jobs=1 stages and commits the logs in the order given, so these are the next ones.
        os.write(done, "".join(f"{Path(next(committed)).name}\n" for _ in range(count)).encode())

    try:
        made = Origin(manifest.made_by, logs=len(entries))
        summary = ingest_logs(paths, db=args.db, jobs=1, names=names, on_progress=note, made=made)
    except WarehouseBusy as err:
        report = Report(logs=len(entries), error=str(err))
    else:
        report = Report(
            logs=len(entries),
            ingested=summary.ingested,
            present=summary.present,
            conflicts=[(c.path, c.game_id) for c in summary.conflicts],
            rejects=summary.rejects,
        )
    finally:
        os.close(done)
    report.unprocessed = _unprocessed(folder, manifest)
    sys.stdout.buffer.write(msgspec.json.encode(report) + b"\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
