"""A catalogue's names in another language, kept beside it in a `names/` folder.

A catalogue's file is known by the SHA-256 every match played with it records, so a published
one never changes, not even to carry a translation: its names in another language are a file
of their own, which no replay reads. One file gives one language of one catalogue:

    catalogue = "albus-sample"
    version = "1"
    lang = "zh"

    [homework]           # a table a kind of component, as the catalogue's entries are kinds
    I20 = "金色宝珠"

They are looked for in the `names/` folder of each place catalogues are (`folders`): squire's
own first, then the warehouse's, then SQUIRE_CATALOGUES; the first file found for a
(catalogue, version, language) is the one used, as for catalogues. A file that does not decode
is not used: the components keep the names their catalogue gives them.
"""

from __future__ import annotations

import functools
import os
import tomllib

import msgspec

from ingest.files.catalogues import catalogue_bytes, folders
from ingest.warehouse.location import Place, listed
from replay.catalogues import CatalogueError

NAMES = "names"  # <catalogue folder>/names/*.toml


class _File(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    catalogue: str
    version: str
    lang: str


Names = dict[str, dict[str, str]]  # kind → id → name


def decode(data: bytes) -> tuple[tuple[str, str, str], Names]:
    """The (catalogue, version, language) a names file is for, and its names by kind; ValueError
    for a file that is not one (not TOML, a field missing or of the wrong type)."""
    try:
        document = tomllib.loads(data.decode())
    except (UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError) as err:
        raise ValueError(f"not a TOML file: {err}") from None
    kinds = {k: v for k, v in document.items() if isinstance(v, dict)}
    head = msgspec.convert({k: v for k, v in document.items() if k not in kinds}, type=_File)
    names = msgspec.convert(kinds, type=dict[str, dict[str, str]])
    return (head.catalogue, head.version, head.lang), names


def translated(
    game: str, catalogue: str, version: str, lang: str, warehouse: Place | None = None
) -> Names:
    """The names of catalogue (name, version) of `game` in `lang`, by kind and id; empty where
    no file gives that language."""
    found = _every(game, os.environ.get("SQUIRE_CATALOGUES", ""), warehouse)
    return found.get((catalogue, version, lang), {})


@functools.lru_cache(maxsize=8)
def _every(
    game: str, folders_setting: str, warehouse: Place | None
) -> dict[tuple[str, str, str], Names]:
    out: dict[tuple[str, str, str], Names] = {}
    for folder, _origin in folders(game, warehouse):
        where = folder / NAMES
        if not where.is_dir():
            continue
        for path in listed(where, "*.toml"):
            try:
                key, names = decode(catalogue_bytes(path))
            except (CatalogueError, ValueError):  # msgspec's errors are ValueErrors
                continue
            out.setdefault(key, names)
    return out
