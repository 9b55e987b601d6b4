"""The audit log: who did what on the club's server, when and from where, beside the
warehouse, only ever added to. Nothing in the web side writes to it but `write`, and nothing
changes or removes an entry.

An entry is one JSON object: `at` (UTC), `who` (an account's name, `anonymous`, or
`cli:<system user>` for a command typed on the server's machine), `where` (the address it
came from, or `cli`), `action` (`users.add`, `signin`, …), `what` (what it named: an
account, a role, an upload, a match) and `refused` (why it was refused, or null).

On a folder the log is the file `club/audit.jsonl`, an entry a line, each written by one
`write` of a file opened to append, under an flock of it, so two writers at once never
interleave their lines.
On S3, where an object cannot be added to, each entry is an object of its own under
`club/audit/`, named by its time (to the microsecond) and a random suffix: S3 lists them in
the order they were written, and two writers never take the same name.
"""

from __future__ import annotations

import fcntl
import getpass
import os
import secrets
from collections.abc import Iterator, Mapping
from datetime import UTC, datetime
from typing import Any

import msgspec

from ingest.club import FOLDER
from ingest.warehouse.location import Place, S3Path, place, put_new, s3_client

LOG = "audit.jsonl"  # on a folder
ENTRIES = "audit"  # on S3: a prefix of an object an entry
LONGEST = 200  # characters of any one value: a refused name is not a way to fill the disk
_STAMP = "%Y%m%dT%H%M%S%fZ"


class Entry(msgspec.Struct, forbid_unknown_fields=False):
    at: datetime
    who: str
    where: str
    action: str
    what: dict[str, Any] = msgspec.field(default_factory=dict)
    refused: str | None = None


def cli_who() -> str:
    """Who a command typed on this machine is: its system user's name."""
    try:
        return f"cli:{getpass.getuser()}"
    except (KeyError, OSError):  # a container's user with no name
        return f"cli:{os.getuid()}"


def write(
    db: Place,
    who: str,
    where: str,
    action: str,
    what: Mapping[str, Any] | None = None,
    refused: str | None = None,
) -> Entry:
    """Add an entry to the warehouse's audit log, and return it."""
    entry = Entry(
        at=datetime.now(UTC),
        who=_short(who),
        where=_short(where),
        action=_short(action),
        what={_short(k): _kept(v) for k, v in (what or {}).items()},
        refused=None if refused is None else _short(refused),
    )
    line = msgspec.json.encode(entry) + b"\n"
    root = place(db) / FOLDER
    if isinstance(root, S3Path):
        name = f"{entry.at:{_STAMP}}-{secrets.token_hex(4)}.json"
        while not put_new(root / ENTRIES / name, line):  # pragma: no cover - 32 bits collided
            name = f"{entry.at:{_STAMP}}-{secrets.token_hex(4)}.json"
        return entry
    root.mkdir(parents=True, exist_ok=True)
    handle = os.open(root / LOG, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        # held while the end is looked at: another writer's line may be half-way in (a file's
        # size grows as a write goes on) and is not a crash's
        fcntl.flock(handle, fcntl.LOCK_EX)
        end = os.fstat(handle).st_size
        if end and os.pread(handle, 1, end - 1) != b"\n":
            line = b"\n" + line  # a line a crash cut short ends here, not in this entry
        # one write of the whole line: an append the system makes at the file's end whole
        if os.write(handle, line) != len(line):  # pragma: no cover - a full disk
            raise OSError(f"{root / LOG}: the audit entry was cut short")
    finally:
        os.close(handle)
    return entry


def entries(db: Place, since: datetime | None = None) -> Iterator[Entry]:
    """The log's entries in the order they were written, from `since` on where given. A line
    a crash cut short (a folder's, written as the machine lost power) is passed over."""
    root = place(db) / FOLDER
    if isinstance(root, S3Path):
        yield from _objects(root / ENTRIES, since)
        return
    try:
        with open(root / LOG, "rb") as log:
            for line in log:
                try:
                    entry = msgspec.json.decode(line, type=Entry)
                except msgspec.DecodeError:
                    continue
                if since is None or entry.at >= since:
                    yield entry
    except FileNotFoundError:
        return


def _objects(prefix: S3Path, since: datetime | None) -> Iterator[Entry]:
    client = s3_client()
    if client is None:  # pragma: no cover - a dependency of the s3 extra
        raise RuntimeError("a warehouse on S3 needs boto3: pip install 'squire[s3]'")
    bucket, _, folder = prefix.key.partition("/")
    listing: dict[str, Any] = {"Bucket": bucket, "Prefix": f"{folder}/"}
    if since is not None:  # names sort as times: S3 need not list what came before
        listing["StartAfter"] = f"{folder}/{since.astimezone(UTC):{_STAMP}}"
    for page in client.get_paginator("list_objects_v2").paginate(**listing):
        for listed in page.get("Contents", []):
            body = client.get_object(Bucket=bucket, Key=listed["Key"])["Body"].read()
            try:
                entry = msgspec.json.decode(body, type=Entry)
            except msgspec.DecodeError:
                continue
            if since is None or entry.at >= since:
                yield entry


def _short(text: str) -> str:
    return text if len(text) <= LONGEST else text[: LONGEST - 1] + "…"


def _kept(value: Any) -> Any:
    """A value of `what` as the log keeps it: text cut to LONGEST, numbers and flags as they
    are, a list as its first LONGEST values, anything else as its text."""
    if value is None or isinstance(value, bool | int | float):
        return value
    if isinstance(value, list | tuple):
        return [_kept(v) for v in value[:LONGEST]]
    return _short(value if isinstance(value, str) else str(value))
