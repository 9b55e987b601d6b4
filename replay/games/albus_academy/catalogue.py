"""An Albus Academy catalogue (albus-catalogue.md §1–§4): tiles, corners and homework cards,
decoded strictly from TOML bytes and checked. Pure: finding files is `ingest.files.catalogues`'."""

from __future__ import annotations

import hashlib
import re
import tomllib
from typing import Annotated, Any, Literal

import msgspec

from replay.catalogues import CatalogueError

ACTIONS = ("shard", "will", "tile", "item", "homework", "chaos")
BASIC = ACTIONS[:5]
CORNERS = ("nw", "ne", "sw", "se")
_ID = re.compile(r"^[A-Za-z0-9_-]{1,16}$")
_EDGES = re.compile(r"^[-a-z]{4}$")
_TERM = re.compile(r"^([a-z_]+)([+-])([1-9][0-9]*)$|^(leftover)/([1-9][0-9]*)$")
# §3: where each term may stand.
TERMS: dict[str, tuple[str, ...]] = {
    "effect": ("shard+", "will+", "ready+", "tile+"),
    "use": ("shard+", "will+", "shard-", "will-", "ready+", "tile+", "prestige+"),
    "ongoing": ("spell_discount+", "item_discount+", "shard_bonus+", "will_bonus+"),
    "end": ("per_spell+", "per_item+", "per_tile+", "per_link+", "leftover/"),
}

Count = Annotated[int, msgspec.Meta(ge=0)]


class Tile(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    id: str
    edges: str
    actions: str
    count: Annotated[int, msgspec.Meta(ge=1)] = 1
    name: str = ""


class Corner(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    edges: str
    actions: str


class Homework(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    id: str
    kind: Literal["spell", "item"]
    name: str
    cost: Count
    prestige: Count
    effect: str = ""
    use: str = ""
    ongoing: str = ""
    end: str = ""


class _File(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    name: str
    version: str
    title: str = ""
    tiles: list[dict[str, Any]]
    homework: list[dict[str, Any]]
    corners: dict[str, dict[str, Any]]


Steps = tuple[frozenset[str], ...]  # a tile's steps: each the set of actions it allows
Terms = tuple[tuple[str, int], ...]  # ("shard+", 2), ("leftover/", 3), …


class Catalogue(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    version: str
    title: str
    sha256: str
    tiles: dict[str, Tile]
    corners: dict[str, Corner]
    homework: dict[str, Homework]
    steps: dict[str, Steps]  # tile id or corner name → its steps
    terms: dict[str, dict[str, Terms]]  # homework id → field → its terms

    def bag(self) -> dict[str, int]:
        return {tile.id: tile.count for tile in self.tiles.values()}


def steps(text: str, where: str) -> Steps:
    """`actions`: 1 to 4 steps joined by `+`, each 1 to 5 distinct words joined by `/`."""
    parts = text.split("+")
    if not 1 <= len(parts) <= 4:
        raise CatalogueError(where, f"{len(parts)} steps in {text!r}: 1 to 4", 3)
    out = []
    for part in parts:
        words = part.split("/")
        if any(w not in ACTIONS for w in words) or len(set(words)) != len(words):
            raise CatalogueError(where, f"step {part!r}: distinct words of {', '.join(ACTIONS)}", 3)
        if "chaos" in words and len(words) > 1:
            raise CatalogueError(where, f"step {part!r}: chaos stands alone in its step", 3)
        out.append(frozenset(words))
    return tuple(out)


def terms(text: str, field: str, where: str) -> Terms:
    out = []
    for word in text.split():
        match = _TERM.match(word)
        if not match:
            raise CatalogueError(where, f"{word!r} is not a term (name+N, name-N, leftover/K)", 4)
        head = (match.group(1) + match.group(2)) if match.group(1) else "leftover/"
        value = int(match.group(3) or match.group(5))
        if head not in TERMS[field]:
            raise CatalogueError(
                where,
                f"{head}N is not allowed in {field}; allowed: "
                f"{', '.join(t + 'N' for t in TERMS[field])}",
                4,
            )
        out.append((head, value))
    return tuple(out)


def parse(data: bytes, where: str = "catalogue") -> Catalogue:
    """The catalogue in `data`, decoded strictly and checked (§4, 1 to 5)."""
    try:
        document = tomllib.loads(data.decode())
    except (UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError) as err:
        raise CatalogueError(where, f"not a TOML file: {err}") from None
    try:
        raw = msgspec.convert(document, type=_File)
    except msgspec.ValidationError as err:
        raise CatalogueError(where, str(err)) from None
    if not raw.name or not raw.version:
        raise CatalogueError(where, "name and version must not be empty", 1)
    seen: set[str] = set()
    tiles: dict[str, Tile] = {}
    found_steps: dict[str, Steps] = {}
    for number, row in enumerate(raw.tiles, 1):
        label = f"tile {row.get('id', f'#{number}')}"
        try:
            tile = msgspec.convert(row, type=Tile)
        except msgspec.ValidationError as err:
            raise CatalogueError(label, str(err)) from None
        _check_id(tile.id, label, seen)
        if not _EDGES.match(tile.edges):
            raise CatalogueError(f"{label}.edges", f"{tile.edges!r}: 4 of '-' and a-z", 2)
        found_steps[tile.id] = steps(tile.actions, f"{label}.actions")
        tiles[tile.id] = tile
    homework: dict[str, Homework] = {}
    found_terms: dict[str, dict[str, Terms]] = {}
    for number, row in enumerate(raw.homework, 1):
        label = f"homework {row.get('id', f'#{number}')}"
        try:
            card = msgspec.convert(row, type=Homework)
        except msgspec.ValidationError as err:
            raise CatalogueError(label, str(err)) from None
        _check_id(card.id, label, seen)
        wrong = ("use", "ongoing", "end") if card.kind == "spell" else ("effect",)
        for field in wrong:
            if getattr(card, field):
                raise CatalogueError(f"{label}.{field}", f"a {card.kind} has no {field}", 4)
        found_terms[card.id] = {
            field: terms(getattr(card, field), field, f"{label}.{field}")
            for field in TERMS
            if getattr(card, field)
        }
        homework[card.id] = card
    corners: dict[str, Corner] = {}
    for name in CORNERS:
        if name not in raw.corners:
            raise CatalogueError("corners", f"corner {name!r} is missing", 5)
        try:
            corner = msgspec.convert(raw.corners[name], type=Corner)
        except msgspec.ValidationError as err:
            raise CatalogueError(f"corner {name}", str(err)) from None
        if not _EDGES.match(corner.edges):
            raise CatalogueError(f"corner {name}.edges", f"{corner.edges!r}: 4 of '-' and a-z", 2)
        found_steps[name] = steps(corner.actions, f"corner {name}.actions")
        corners[name] = corner
    extra = sorted(set(raw.corners) - set(CORNERS))
    if extra:
        raise CatalogueError("corners", f"unknown corner {extra[0]!r}; known: {', '.join(CORNERS)}")
    return Catalogue(
        name=raw.name,
        version=raw.version,
        title=raw.title,
        sha256=hashlib.sha256(data).hexdigest(),
        tiles=tiles,
        corners=corners,
        homework=homework,
        steps=found_steps,
        terms=found_terms,
    )


def _check_id(card: str, label: str, seen: set[str]) -> None:
    if not _ID.match(card):
        raise CatalogueError(f"{label}.id", "ids are 1 to 16 of A-Z a-z 0-9 _ -", 1)
    if card in seen:
        raise CatalogueError(f"{label}.id", "a second entry with this id", 1)
    seen.add(card)


def header_name(data: bytes, where: str) -> tuple[str, str]:
    """The (name, version) of a catalogue file, without checking the rest."""
    try:
        document = tomllib.loads(data.decode())
    except (UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError) as err:
        raise CatalogueError(where, f"not a TOML file: {err}") from None
    name, version = document.get("name"), document.get("version")
    if not isinstance(name, str) or not isinstance(version, str):
        raise CatalogueError(where, "no name and version strings at the top")
    return name, version
