"""Matches being recorded at the table (the Record page), kept in the warehouse's `drafts/`
folder after every entry, so a closed tab, a dropped phone or a restart of the server takes
up the match where it was.

A draft is the log as entered so far: its header line, then one event a line, the entries
after one a correction made illegal included (they wait there to be changed or removed).
Each save writes a whole new file and renames it over the old one, so a draft is never read
half-written. A recorded match that is saved leaves the drafts for the warehouse.
"""

from __future__ import annotations

import os
import re
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import msgspec

from ingest.warehouse.location import Place, place, spool

DRAFTS = "drafts"  # in the warehouse folder
SUFFIX = ".jsonl"
# A draft's name is its match's game_id, which the page makes: letters, digits and dashes,
# so no name can reach outside the folder.
_NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")


@dataclass(frozen=True)
class Draft:
    name: str
    game: str
    players: list[str]
    entries: int
    saved_at: datetime


class _Header(msgspec.Struct):
    game: str = ""
    players: list[str] = []


def new_name(short: str, now: datetime | None = None) -> str:
    """A fresh game_id for a match recorded at the table: the game's two letters, the day and
    time it started, and four random hex digits (two tables may start in the same minute)."""
    now = now or datetime.now(UTC)
    return f"{short}-{now:%Y%m%d-%H%M}-{secrets.token_hex(2)}"


def folder(db: Place) -> Path:
    return spool(place(db)) / DRAFTS


def checked(name: str) -> str:
    """`name`, where it is one a draft could have; ValueError otherwise."""
    if not _NAME.match(name):
        raise ValueError(f"not a draft's name: {name!r}")
    return name


def _path(db: Place, name: str) -> Path:
    return folder(db) / f"{checked(name)}{SUFFIX}"


def save(db: Place, name: str, log: bytes) -> None:
    """Keep the draft `name` as `log` (its header and entries), whole or not at all."""
    path = _path(db, name)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{name}.partial")
    with open(partial, "wb") as out:
        out.write(log)
        out.flush()
        os.fsync(out.fileno())
    os.replace(partial, path)


def load(db: Place, name: str) -> bytes | None:
    path = _path(db, name)
    return path.read_bytes() if path.is_file() else None


def remove(db: Place, name: str) -> None:
    _path(db, name).unlink(missing_ok=True)


def drafts(db: Place) -> list[Draft]:
    """The matches being recorded, the last saved first."""
    found = []
    root = folder(db)
    for path in root.glob(f"*{SUFFIX}") if root.is_dir() else []:
        name = path.name[: -len(SUFFIX)]
        if not _NAME.match(name):
            continue
        data = path.read_bytes()
        first, _, rest = data.partition(b"\n")
        try:
            header = msgspec.json.decode(first, type=_Header)
        except msgspec.DecodeError:
            continue
        found.append(
            Draft(
                name=name,
                game=header.game,
                players=header.players,
                entries=sum(1 for line in rest.splitlines() if line.strip()),
                saved_at=datetime.fromtimestamp(path.stat().st_mtime, UTC),
            )
        )
    return sorted(found, key=lambda d: d.saved_at, reverse=True)
