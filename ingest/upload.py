"""Logs uploaded through the dashboards: checked against the upload's limits, then ingested
by a worker process of their own, so that nothing a stranger sends can take the dashboards
down with it.

The dashboard process only writes the uploaded bytes to numbered files in a temporary
folder (an uploaded file's name is never used as a path) with a manifest of the names the
user gave them; `python -m ingest.upload FOLDER --db W` ingests them under those names,
bounded in memory and time, and prints its summary as one JSON object.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

import msgspec

from ingest.rows import Reject
from replay.errors import one_line
from replay.limits import MAX_LOG_BYTES, size_text

FILE_MB = MAX_LOG_BYTES // 2**20  # per file as uploaded: Streamlit's server.maxUploadSize
UPLOAD_BYTES = 64 * 2**20  # all the files of one upload together
UPLOAD_FILES = 100
WORKER_MEMORY = 512 * 2**20  # resident: a worker holding more is stopped
WORKER_SECONDS = 300
MANIFEST = "manifest.json"


class Report(msgspec.Struct, kw_only=True):
    """What an upload came to; `error` when the worker itself could not finish."""

    logs: int = 0
    ingested: int = 0
    present: int = 0
    conflicts: list[tuple[str, str]] = []  # (name, game_id) stored from a different log
    rejects: list[Reject] = []
    error: str | None = None


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
        big = [name for name, size in self.files if size > FILE_MB * 2**20]
        if big:
            return f"{one_line(big[0])}: a file may hold at most {size_text(FILE_MB * 2**20)}"
        return None


def ingest_uploads(files: Iterable[tuple[str, IO[bytes]]], db: Path) -> Report:
    """Write the uploaded files out under numbers and ingest them in a bounded worker."""
    with tempfile.TemporaryDirectory(prefix="squire-upload-") as folder:
        manifest = []
        for index, (name, data) in enumerate(files):
            stored = f"{index:04d}.jsonl"  # gzip is told by its bytes, not by its name
            data.seek(0)
            with open(Path(folder) / stored, "wb") as out:
                shutil.copyfileobj(data, out)
            manifest.append({"file": stored, "name": name})
        (Path(folder) / MANIFEST).write_text(json.dumps(manifest, ensure_ascii=False))
        return _run_worker(Path(folder), db)


def _run_worker(folder: Path, db: Path) -> Report:
    """The worker, watched from here: stopped if it holds more than WORKER_MEMORY resident
    or runs past WORKER_SECONDS. (An address-space limit would not do: pyarrow reserves a
    gigabyte and more of address space it never touches.)"""
    command = [sys.executable, "-m", "ingest.upload", str(folder), "--db", str(db)]
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        worker = subprocess.Popen(
            command, stdout=out, stderr=err, cwd=Path(__file__).resolve().parents[1]
        )
        stopped = _watch(worker)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    if stopped:
        return Report(error=f"the ingest {stopped} and was stopped; what it had committed stays")
    if worker.returncode != 0 or not stdout.strip():
        last = (stderr.decode(errors="replace").strip().splitlines() or ["no message"])[-1]
        return Report(error=f"the ingest stopped ({one_line(last)}); what it had committed stays")
    return msgspec.json.decode(stdout.strip().splitlines()[-1], type=Report)


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
    from ingest.pipeline import ingest_logs
    from ingest.warehouse import WarehouseBusy

    parser = argparse.ArgumentParser(prog="python -m ingest.upload")
    parser.add_argument("folder", type=Path)
    parser.add_argument("--db", type=Path, required=True)
    args = parser.parse_args(argv)
    manifest = json.loads((args.folder / MANIFEST).read_text())
    names = {str(args.folder / entry["file"]): entry["name"] for entry in manifest}
    try:
        summary = ingest_logs(list(names), db=args.db, jobs=1, names=names)
    except WarehouseBusy as err:
        report = Report(logs=len(names), error=str(err))
    else:
        report = Report(
            logs=summary.logs,
            ingested=summary.ingested,
            present=summary.present,
            conflicts=[(c.path, c.game_id) for c in summary.conflicts],
            rejects=summary.rejects,
        )
    sys.stdout.buffer.write(msgspec.json.encode(report) + b"\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
