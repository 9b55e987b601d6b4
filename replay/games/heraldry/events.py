"""Heraldry log events, exactly as LOG_FORMAT.md names them (tag field `kind`)."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from replay.log import Header as BaseHeader

from .config import Terrain

Hex = Annotated[tuple[int, int], msgspec.Meta(description="[q, r] axial coordinates")]


class MapHex(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, gc=False):
    q: int
    r: int
    terrain: str  # HE-2: checked against the terrains with the rule's id, not by the decoder
    tile: int | None = None


class Header(BaseHeader, frozen=True, kw_only=True, tag="header"):
    """`map`: every hex of the match's map (HE-3, HE-22)."""

    map: list[MapHex]


class _Event(
    msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, tag_field="kind", gc=False
):
    player: str


class PlaceCity(_Event, frozen=True, kw_only=True, tag="place_city", gc=False):
    """HE-4, HE-5: a setup city, with one knight on its hex."""

    hex: Hex


class Recruit(_Event, frozen=True, kw_only=True, tag="recruit", gc=False):
    """HE-6: knights from the reserve onto one of the player's city hexes."""

    city: Hex
    knights: int


class Step(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, gc=False):
    """HE-7: one knight one hex on; `loot` the tokens taken for villages it destroys (HE-19)."""

    from_: Hex = msgspec.field(name="from")
    to: Hex
    loot: list[Terrain] = []


class Move(_Event, frozen=True, kw_only=True, tag="move", gc=False):
    """HE-7 to HE-9: one or two knights, one step each."""

    steps: list[Step]


class Site(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    hex: Hex
    piece: Literal["village", "fortress"]


class Build(_Event, frozen=True, kw_only=True, tag="build", gc=False):
    """HE-10: a knight per site becomes a village or fortress."""

    sites: list[Site]


class FoundCity(_Event, frozen=True, kw_only=True, tag="found_city", gc=False):
    """HE-11: a village becomes a city."""

    hex: Hex


class Expedition(_Event, frozen=True, kw_only=True, tag="expedition", gc=False):
    """HE-12: a knight onto an empty edge hex; another leaves the game."""

    hex: Hex


class Promote(_Event, frozen=True, kw_only=True, tag="promote", gc=False):
    """HE-13: tokens paid for the next title."""

    pay: list[Terrain]


class Pass(_Event, frozen=True, kw_only=True, tag="pass", gc=False):
    """HE-14: only when no action is legal."""


Event = PlaceCity | Recruit | Move | Build | FoundCity | Expedition | Promote | Pass
ACTIONS = ("recruit", "move", "build", "found_city", "expedition", "promote")
