"""A Paladins catalogue (paladins-catalogue.md §1–§4): the cards and main-board squares a
match is played with, decoded strictly from TOML bytes and checked against the ruleset.

Pure: it takes the file's bytes; finding the file is `ingest.files.catalogues`' job. Every error
names the entry (kind and id) and the field, and the load check it fails (§4, 1–5).
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from collections.abc import Callable
from typing import Any

import msgspec

from replay.catalogues import CatalogueError
from replay.ranges import Count

from . import effects
from .config import Config
from .effects import Ability, Amounts, End

# --- the entries as written (strings), then as the engine reads them -------------------------


class _Entry(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    id: str


class _Named(_Entry, frozen=True, kw_only=True, forbid_unknown_fields=True):
    name: str


class Paladin(_Named, frozen=True, kw_only=True, forbid_unknown_fields=True):
    workers: str
    bonus: str
    ability: str


class Tavern(_Entry, frozen=True, kw_only=True, forbid_unknown_fields=True):
    workers: str


class Order(_Named, frozen=True, kw_only=True, forbid_unknown_fields=True):
    condition: str


class Favour(_Named, frozen=True, kw_only=True, forbid_unknown_fields=True):
    slots: str
    cost: str
    effect: str


class Townsfolk(_Named, frozen=True, kw_only=True, forbid_unknown_fields=True):
    cost: Count  # silver
    quest: str
    recruit: str
    ability: str


class Outsider(_Named, frozen=True, kw_only=True, forbid_unknown_fields=True):
    strength: Count  # the attack requirement (PA-53)
    faith: Count  # the convert requirement
    attack: str
    convert: str
    end: str


class Wall(_Entry, frozen=True, kw_only=True, forbid_unknown_fields=True):
    reward: str


class Suspicion(_Entry, frozen=True, kw_only=True, forbid_unknown_fields=True):
    tax: Count  # silver
    inquisition: bool  # PA-58


class Square(_Entry, frozen=True, kw_only=True, forbid_unknown_fields=True):
    region: Count
    players: Count
    reward: str


class Header(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    name: str
    version: str
    description: str = ""


KINDS: dict[str, type[_Entry]] = {
    "paladin": Paladin,
    "tavern": Tavern,
    "order": Order,
    "favour": Favour,
    "townsfolk": Townsfolk,
    "outsider": Outsider,
    "wall": Wall,
    "suspicion": Suspicion,
    "square": Square,
}
_ID = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


class Catalogue(msgspec.Struct, frozen=True, kw_only=True):
    """Entries by kind, in file order, with their effect strings parsed once."""

    name: str
    version: str
    description: str
    sha256: str  # of the file's bytes: stored with every match played with it
    entries: dict[str, dict[str, Any]]  # kind → id → the entry as written
    parsed: dict[str, dict[str, dict[str, Any]]]  # kind → id → field → parsed value

    def ids(self, kind: str) -> list[str]:
        return list(self.entries[kind])

    def entry(self, kind: str, card: str) -> Any:
        return self.entries[kind][card]

    def field(self, kind: str, card: str, name: str) -> Any:
        """A parsed effect field (reward, cost, ability, …) of one entry."""
        return self.parsed[kind][card][name]


# Which parser reads each string field of each kind (§3's grammar).
def _workers(text: str) -> tuple[str, ...]:
    return effects.colours(text, allow_any=False)


def _slots(text: str) -> tuple[str, ...]:
    return effects.colours(text, allow_any=True)


def _bonus(text: str) -> Amounts:
    return {} if text == "-" else effects.attrs(text)


PARSERS: dict[str, dict[str, Callable[[str], Any]]] = {
    "paladin": {"workers": _workers, "bonus": _bonus, "ability": effects.ability},
    "tavern": {"workers": _workers},
    "order": {"condition": effects.condition},
    "favour": {"slots": _slots, "cost": effects.cost, "effect": effects.effect},
    "townsfolk": {"quest": effects.reward, "recruit": effects.reward, "ability": effects.ability},
    "outsider": {"attack": effects.reward, "convert": effects.reward, "end": effects.end},
    "wall": {"reward": effects.reward},
    "suspicion": {},
    "square": {"reward": effects.reward},
}


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def header_of(data: bytes, where: str = "catalogue") -> Header:
    """Only the `[catalogue]` table: name and version, to find a file without checking it."""
    table = _toml(data, where).get("catalogue")
    if not isinstance(table, dict):
        raise CatalogueError(where, "no [catalogue] table with name and version")
    try:
        return msgspec.convert(table, type=Header)
    except msgspec.ValidationError as err:
        raise _located(f"{where} [catalogue]", err) from None


def _toml(data: bytes, where: str) -> dict[str, Any]:
    try:
        return tomllib.loads(data.decode())
    except (UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError) as err:
        raise CatalogueError(where, f"not a TOML file: {err}") from None


_AT = re.compile(r"^(.*) - at `\$\.([a-z_]+)`$")
_NAMED = re.compile(r"^Object (contains unknown|missing required) field `([a-z_A-Z0-9]+)`$")


def _located(label: str, err: msgspec.ValidationError) -> CatalogueError:
    """A decoding error as `kind id.field: what is wrong`."""
    text = str(err)
    if match := _AT.match(text):
        return CatalogueError(f"{label}.{match.group(2)}", match.group(1).replace("`", ""))
    if match := _NAMED.match(text):
        what = "unknown field" if match.group(1).startswith("contains") else "missing field"
        return CatalogueError(f"{label}.{match.group(2)}", what)
    return CatalogueError(label, text)


def declared(data: bytes, where: str = "catalogue") -> tuple[str, str]:
    """The (name, version) a catalogue file declares."""
    head = header_of(data, where)
    return head.name, head.version


def parse(data: bytes, config: Config | None, where: str = "catalogue") -> Catalogue:
    """The catalogue in `data`, decoded and (unless `config` is None) checked against it;
    CatalogueError if not."""
    document = _toml(data, where)
    head = header_of(data, where)
    unknown = sorted(set(document) - set(KINDS) - {"catalogue"})
    if unknown:
        raise CatalogueError(where, f"unknown kind [[{unknown[0]}]]; known: {', '.join(KINDS)}")
    entries: dict[str, dict[str, Any]] = {}
    parsed: dict[str, dict[str, dict[str, Any]]] = {}
    for kind, struct in KINDS.items():
        rows = document.get(kind, [])
        if not isinstance(rows, list):
            raise CatalogueError(f"{kind}", "must be an array of tables, [[" + kind + "]]")
        entries[kind], parsed[kind] = {}, {}
        for number, row in enumerate(rows, 1):
            card = row.get("id") if isinstance(row, dict) else None
            label = f"{kind} {card}" if isinstance(card, str) else f"{kind} #{number}"
            try:
                entry = msgspec.convert(row, type=struct)
            except msgspec.ValidationError as err:
                raise _located(label, err) from None
            if not _ID.match(entry.id):
                raise CatalogueError(f"{label}.id", "ids are lowercase letters, digits and hyphens")
            if entry.id in entries[kind]:
                raise CatalogueError(f"{label}.id", f"a second {kind} with this id")
            fields = {}
            for name, parser in PARSERS[kind].items():
                try:
                    fields[name] = parser(getattr(entry, name))
                except ValueError as err:
                    raise CatalogueError(f"{label}.{name}", str(err), 1) from None
            entries[kind][entry.id] = entry
            parsed[kind][entry.id] = fields
    catalogue = Catalogue(
        name=head.name,
        version=head.version,
        description=head.description,
        sha256=digest(data),
        entries=entries,
        parsed=parsed,
    )
    if config is not None:
        check(catalogue, config)
    return catalogue


def check(catalogue: Catalogue, config: Config) -> None:
    """§4's load checks 1 to 5, against the match's ruleset."""
    least = {  # check 1: enough of each kind for a whole match
        "paladin": config.rounds + config.paladin_draw - 1,
        "tavern": config.max_players + config.tavern_extra,
        "order": len(config.order_rounds),
        "favour": len(config.favour_rounds),
        "townsfolk": config.townsfolk_slots,
        "outsider": config.outsider_slots,
        "wall": 1,
        "suspicion": 1,
    }
    for kind, count in least.items():
        have = len(catalogue.entries[kind])
        if have < count:
            raise CatalogueError(kind, f"{have} entries; this ruleset needs at least {count}", 1)
    for kind, size in (("paladin", config.paladin_workers), ("tavern", config.tavern_workers)):
        for card in catalogue.ids(kind):  # check 2
            workers = catalogue.field(kind, card, "workers")
            if len(workers) != size:
                raise CatalogueError(
                    f"{kind} {card}.workers", f"{len(workers)} colours, not {size}", 2
                )
    for card in catalogue.ids("favour"):
        slots = catalogue.field("favour", card, "slots")
        if not 1 <= len(slots) <= 3:
            raise CatalogueError(f"favour {card}.slots", f"{len(slots)} slots, not 1 to 3", 2)
    for card in catalogue.ids("wall"):  # check 3
        if "str" not in catalogue.field("wall", card, "reward"):
            raise CatalogueError(f"wall {card}.reward", "every wall gives strength (str)", 3)
    for card in catalogue.ids("outsider"):
        if "inf" not in catalogue.field("outsider", card, "attack"):
            raise CatalogueError(
                f"outsider {card}.attack", "every attack reward gives influence (inf)", 3
            )
    for kind in ("paladin", "townsfolk"):  # check 4
        for card in catalogue.ids(kind):
            ability: Ability = catalogue.field(kind, card, "ability")
            if kind == "paladin" and ability.kind not in ("action", "discount", "none"):
                raise CatalogueError(
                    f"paladin {card}.ability",
                    f"a paladin's ability is 'action', 'discount' or '-', not {ability.kind!r}",
                    4,
                )
            if ability.kind == "discount":
                costs = effects.ACT_COSTS.get(ability.act or "", ())
                extra = sorted(set(ability.cost) - set(costs))
                if extra:
                    raise CatalogueError(
                        f"{kind} {card}.ability",
                        f"{ability.act} costs {' or '.join(costs) or 'nothing'}; "
                        f"there is no {extra[0]} to discount",
                        4,
                    )
    regions = config.regions  # check 5
    open_to_one: set[int] = set()
    for card in catalogue.ids("square"):
        square: Square = catalogue.entry("square", card)
        if not 1 <= square.region <= regions:
            raise CatalogueError(
                f"square {card}.region", f"region {square.region} is not 1 … {regions}", 5
            )
        if square.players not in (1, config.square_players):
            raise CatalogueError(
                f"square {card}.players", f"{square.players} is not 1 or {config.square_players}", 5
            )
        if square.players == 1:
            open_to_one.add(square.region)
    missing = sorted(set(range(1, regions + 1)) - open_to_one)
    if missing:
        raise CatalogueError("square", f"region {missing[0]} has no square open to 1 player", 5)


__all__ = ["KINDS", "Catalogue", "CatalogueError", "End", "check", "digest", "header_of", "parse"]
