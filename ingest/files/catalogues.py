"""Finding a game's component catalogues on disk: the ones squire ships under
`data/catalogues/<game>/`, then the copies a warehouse keeps of the catalogues its matches
were played with, then the folders named in `SQUIRE_CATALOGUES` (separated by
`os.pathsep`), where players keep catalogues of their own.

A catalogue is known by the (name, version) it declares, whatever its file is called. A
published pair never changes, so a shipped catalogue is always found first: a user's file
claiming the same pair with other contents is listed as not used, never used.
"""

from __future__ import annotations

import functools
import hashlib
import os
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ingest.files.read import read_small, reason
from ingest.warehouse.location import Place, S3Path, listed, place
from replay.catalogues import CatalogueError, Uses
from replay.registry import GAMES

SHIPPED = Path(__file__).resolve().parents[2] / "data" / "catalogues"
MAX_CATALOGUE_BYTES = 2**20  # the shipped ones are 6 and 16 KB


def catalogue_bytes(path: Place | str) -> bytes:
    """A catalogue file's bytes; CatalogueError for one that is not a regular file (a FIFO is
    never waited on), cannot be read, or is larger than MAX_CATALOGUE_BYTES."""
    if isinstance(path, S3Path):  # one a warehouse on S3 keeps
        try:
            if path.stat().st_size > MAX_CATALOGUE_BYTES:
                raise CatalogueError(str(path), f"larger than {MAX_CATALOGUE_BYTES:,} bytes")
            return path.read_bytes()
        except OSError as err:
            raise CatalogueError(str(path), reason(err)) from None
    try:
        return read_small(path, MAX_CATALOGUE_BYTES)
    except OSError as err:
        raise CatalogueError(str(path), reason(err)) from None
    except ValueError as err:
        raise CatalogueError(str(path), str(err)) from None


# The games that read a catalogue, each with how its files are read (its record's `Uses`).
READERS: dict[str, Uses] = {
    name: game.catalogue for name, game in GAMES.items() if game.catalogue is not None
}
# The games that read a catalogue, and how each parses and checks one (its standard ruleset).
PARSERS: dict[str, Callable[[bytes, str], Any]] = {g: r.checked for g, r in READERS.items()}


@dataclass(frozen=True)
class Found:
    game: str
    name: str
    version: str
    sha256: str
    path: Place
    origin: str  # shipped | kept (by a warehouse) | yours

    @property
    def shipped(self) -> bool:
        return self.origin == "shipped"


KEPT = "catalogues"  # <warehouse>/catalogues/<game>/<sha256>.toml: the copies a warehouse keeps


def folders(game: str, warehouse: Place | None = None) -> list[tuple[Place, str]]:
    """Where catalogues of `game` are looked for, in order, and what each folder is: the
    shipped ones, those the warehouse keeps (so that its matches replay wherever it is
    opened), then the folders of SQUIRE_CATALOGUES."""
    extra: list[Place] = [
        Path(p) / game if (Path(p) / game).is_dir() else Path(p)
        for p in os.environ.get("SQUIRE_CATALOGUES", "").split(os.pathsep)
        if p
    ]
    kept: list[tuple[Place, str]] = []
    if warehouse is not None:
        where = warehouse if isinstance(warehouse, S3Path) else Path(warehouse).resolve()
        kept.append((where / KEPT / game, "kept"))
    return [(SHIPPED / game, "shipped"), *kept, *((folder, "yours") for folder in extra)]


def scan(game: str, warehouse: Place | None = None) -> Iterator[Found | CatalogueError]:
    """Every catalogue file found for `game`, or the error that keeps one from being read."""
    for folder, origin in folders(game, warehouse):
        if not folder.is_dir():
            continue
        for path in listed(folder, "*.toml"):
            try:
                data = catalogue_bytes(path)
                name, version = READERS[game].pair(data, str(path))
            except CatalogueError as err:
                yield err
                continue
            yield Found(game, name, version, hashlib.sha256(data).hexdigest(), path, origin)


def available(game: str, warehouse: Place | None = None) -> dict[tuple[str, str], Found]:
    """(name, version) → the file that provides it; the first found wins (shipped first)."""
    out: dict[tuple[str, str], Found] = {}
    for found in scan(game, warehouse):
        if isinstance(found, Found):
            out.setdefault((found.name, found.version), found)
    return out


def _find(
    game: str, name: str, version: str, sha256: str | None, known: dict[tuple[str, str], Found]
) -> Found:
    found = known.get((name, version))
    if found is None:
        listed = ", ".join(f"{n} {v}" for n, v in sorted(known)) or "none"
        raise CatalogueError(
            "catalogue",
            f"no {game} catalogue {name!r} version {version!r} "
            f"(known: {listed}; SQUIRE_CATALOGUES names folders of your own)",
        )
    if sha256 is not None and sha256 != found.sha256:
        raise CatalogueError(
            "catalogue",
            f"{name} {version} at {found.path} has sha256 "
            f"{found.sha256}, not the {sha256} the log was played with",
        )
    return found


def load(
    game: str,
    name: str,
    version: str,
    parse: Callable[[bytes, str], Any],
    sha256: str | None = None,
) -> Any:
    """The catalogue (name, version) of `game`, parsed; CatalogueError naming what is wrong:
    unknown, a different file than the `sha256` a log recorded, or a failed check."""
    found = _find(game, name, version, sha256, available(game))
    return parse(catalogue_bytes(found.path), str(found.path))


@functools.lru_cache(maxsize=16)
def _decoded(game: str, path: Place, sha256: str) -> Any:
    return READERS[game].decoded(catalogue_bytes(path), str(path))


@functools.lru_cache(maxsize=8)
def _found(
    game: str, folders_setting: str, warehouse: Place | None
) -> dict[tuple[str, str], Found]:
    return available(game, warehouse)


@dataclass(frozen=True)
class Library:
    """The catalogues found on disk for the engines (replay.catalogues.Catalogues): shipped,
    kept by `warehouse`, then in SQUIRE_CATALOGUES. Folders are scanned and files decoded
    once per process: an ingest of many matches asks for the same catalogue every time."""

    warehouse: Place | None = None

    def known(self, game: str) -> dict[tuple[str, str], Found]:
        return _found(game, os.environ.get("SQUIRE_CATALOGUES", ""), self.warehouse)

    def find(self, game: str, name: str, version: str) -> Any:
        """The catalogue (name, version), decoded; its checks against a match's ruleset, and
        against the sha256 its log names, are the engine's."""
        found = _find(game, name, version, None, self.known(game))
        return _decoded(game, found.path, found.sha256)


def keep(db: Place, game: str, name: str, version: str, sha256: str) -> None:
    """Copy the catalogue a stored match was played with into the warehouse `db`, unless
    squire ships it or the warehouse has it already. Written under a temporary name first,
    so a reader never finds half a file (on S3, an object is written whole)."""
    folder = place(db) / KEPT / game
    if (folder / f"{sha256}.toml").exists():
        return
    found = _find(game, name, version, sha256, Library(db).known(game))
    if found.shipped:
        return
    if isinstance(folder, S3Path):
        (folder / f"{sha256}.toml").write_bytes(catalogue_bytes(found.path))
        return
    folder.mkdir(parents=True, exist_ok=True)
    partial = folder / f".{uuid.uuid4().hex}.partial"
    partial.write_bytes(catalogue_bytes(found.path))
    os.replace(partial, folder / f"{sha256}.toml")


def describe(found: Found | CatalogueError, check: Callable[[bytes, str], Any]) -> str:
    """One line for `squire catalogues`: the pair, its file and whether it passes its checks."""
    if isinstance(found, CatalogueError):
        return f"unreadable  {found}"
    try:
        check(catalogue_bytes(found.path), str(found.path))
        status = "ok"
    except CatalogueError as err:
        status = f"rejected: {err}"
    return (
        f"{found.name} {found.version}  [{found.origin}]  {found.path}  "
        f"sha256 {found.sha256[:12]}…  {status}"
    )
