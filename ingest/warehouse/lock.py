"""The lock of the one process that writes a warehouse (an ingest, a compaction, a
conversion): `hold(db)`, as a context, or held until `release()`.

On a folder it is an flock of `<warehouse>/LOCK`, which the system gives up when the process
ends, however it ends. S3 has no such thing: the lock is the object `<warehouse>/LOCK`,
created only if it does not exist (a conditional put, which S3 makes atomic), naming its
holder, and written again every BEAT seconds while held. A lock whose holder has stopped
(on this machine, a process that no longer runs; anywhere, one silent for LEASE seconds) is
taken over, so a killed ingest never keeps the warehouse from the next.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import socket
import threading
import time
from pathlib import Path
from types import TracebackType
from typing import Any

from ingest.warehouse.location import Place, S3Path, refused, s3_client

NAME = "LOCK"
BEAT = 20.0  # seconds between a holder's writes of the lock on S3
LEASE = 120.0  # seconds of silence after which another process takes the lock over


class WarehouseBusy(RuntimeError):
    """Another process is writing this warehouse."""


# The warehouses whose lock this process holds now.
_HELD: set[Place] = set()


class Held:
    """A warehouse's lock, held by this process until `release()`."""

    def __init__(self, db: Place) -> None:
        self.db = db
        self._release = _flock(db) if isinstance(db, Path) else _lease(db)
        _HELD.add(db)

    def release(self) -> None:
        release, self._release = self._release, None
        if release is not None:
            _HELD.discard(self.db)
            release()

    def __enter__(self) -> Held:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.release()


def hold(db: Place) -> Held:
    """The warehouse's lock; WarehouseBusy if another process holds it."""
    return Held(db)


def holding(db: Place) -> bool:
    """Whether this process holds the warehouse's lock: no other process commits to it."""
    return db in _HELD


def _flock(db: Path) -> Any:
    db.mkdir(parents=True, exist_ok=True)
    handle = open(db / NAME, "w")  # noqa: SIM115 -- held until released
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        raise WarehouseBusy(f"{db} is being written by another process") from None

    def release() -> None:
        fcntl.flock(handle, fcntl.LOCK_UN)
        handle.close()

    return release


def _client() -> Any:
    client = s3_client()
    if client is None:  # pragma: no cover - a dependency of the s3 extra
        raise RuntimeError("a warehouse on S3 needs boto3 for its lock: pip install 'squire[s3]'")
    return client


def _holder() -> dict[str, Any]:
    return {"host": socket.gethostname(), "pid": os.getpid(), "at": time.time()}


def _stopped(holder: dict[str, Any]) -> bool:
    """Whether the process that wrote this lock has stopped holding it."""
    if time.time() - float(holder.get("at", 0)) > LEASE:
        return True
    if holder.get("host") == socket.gethostname():
        try:
            os.kill(int(holder["pid"]), 0)
        except ProcessLookupError:
            return True
        except (PermissionError, KeyError, ValueError):
            return False
    return False


def _lease(db: S3Path) -> Any:
    client = _client()
    bucket, _, prefix = db.key.partition("/")
    key = f"{prefix}/{NAME}" if prefix else NAME

    def put(**condition: str) -> str:
        body = json.dumps(_holder()).encode()
        return str(client.put_object(Bucket=bucket, Key=key, Body=body, **condition)["ETag"])

    for _attempt in range(2):
        try:
            etag = put(IfNoneMatch="*")
            break
        except Exception as error:
            if not refused(error):
                raise
        try:
            found = client.get_object(Bucket=bucket, Key=key)
            holder = json.loads(found["Body"].read())
        except client.exceptions.NoSuchKey:
            continue  # given up meanwhile: try again
        if not _stopped(holder):
            raise WarehouseBusy(
                f"{db} is being written by process {holder.get('pid')} on {holder.get('host')}"
            ) from None
        with contextlib.suppress(client.exceptions.NoSuchKey):
            client.delete_object(Bucket=bucket, Key=key, IfMatch=found["ETag"])
    else:
        raise WarehouseBusy(f"{db} is being written by another process")

    stop = threading.Event()
    state = {"etag": etag}

    def beat() -> None:
        while not stop.wait(BEAT):
            with contextlib.suppress(Exception):  # a lost beat: the next one tries again
                state["etag"] = put(IfMatch=state["etag"])

    beating = threading.Thread(target=beat, name="warehouse-lock", daemon=True)
    beating.start()

    def release() -> None:
        stop.set()
        beating.join()
        with contextlib.suppress(Exception):  # taken over meanwhile: not ours to delete
            client.delete_object(Bucket=bucket, Key=key, IfMatch=state["etag"])

    return release
