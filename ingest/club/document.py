"""One document beside the warehouse, read whole and changed whole: a reader sees the
document before a change or after it, never half of one, and two writers at once never lose
each other's change.

On a folder, a change holds an flock of a lock file beside the document while it reads,
changes and writes it; it writes a new file (readable by this system account alone: it
holds password hashes), flushes it to disk and renames it over the old one. On S3 an object
is written whole; a change is a conditional put, made only if the object is still the one
read (or, for the first, if there is none yet), and is worked out again from what is there
now if another writer came first.
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from ingest.warehouse.location import Place, S3Path, refused, s3_client

T = TypeVar("T")
TRIES = 20  # conditional puts on S3 before a change gives up (each lost to another writer)


class Contended(RuntimeError):
    """Other writers changed the document every time this one tried."""


def read(path: Place) -> bytes | None:
    """The document as it is now; None where there is none."""
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


def change(path: Place, changed: Callable[[bytes | None], tuple[bytes, T]]) -> T:
    """Replace the document by `changed(what it holds now)`'s bytes, and return what else
    `changed` returned. An exception from `changed` leaves the document as it was."""
    if isinstance(path, S3Path):
        return _change_object(path, changed)
    return _change_file(path, changed)


def _change_file(path: Path, changed: Callable[[bytes | None], tuple[bytes, T]]) -> T:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_name(f".{path.name}.lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released as the file closes
        data, result = changed(read(path))
        scratch = path.with_name(f".{path.name}.new")
        with os.fdopen(os.open(scratch, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(scratch, path)
    return result


def _change_object(path: S3Path, changed: Callable[[bytes | None], tuple[bytes, T]]) -> T:
    client = _client()
    bucket, _, key = path.key.partition("/")
    for attempt in range(TRIES):
        try:
            found = client.get_object(Bucket=bucket, Key=key)
            before: bytes | None = found["Body"].read()
            condition = {"IfMatch": found["ETag"]}
        except client.exceptions.NoSuchKey:
            before, condition = None, {"IfNoneMatch": "*"}
        data, result = changed(before)
        try:
            client.put_object(Bucket=bucket, Key=key, Body=data, **condition)
        except Exception as error:
            if not refused(error):
                raise
            time.sleep(0.05 * (attempt + 1))  # another writer came first: read its change
            continue
        return result
    raise Contended(f"{path} was changed by others {TRIES} times while this change was made")


def _client() -> Any:
    client = s3_client()
    if client is None:  # pragma: no cover - a dependency of the s3 extra
        raise RuntimeError("a warehouse on S3 needs boto3: pip install 'squire[s3]'")
    return client
