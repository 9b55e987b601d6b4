"""Albus Academy log events, exactly as albus-catalogue.md §6 names them (tag field `kind`)."""

from __future__ import annotations

from typing import Annotated

import msgspec

from replay.log import Header as BaseHeader

Position = Annotated[tuple[int, int], msgspec.Meta(description="[row, col], 0-based (AA-24)")]


class Header(BaseHeader, frozen=True, kw_only=True, tag="header"):
    """The shared header; `catalogue` defaults to albus-sample version 1."""


class DrawTile(
    msgspec.Struct,
    frozen=True,
    kw_only=True,
    omit_defaults=True,
    tag_field="kind",
    tag="draw_tile",
    gc=False,
):
    """A tile from the bag to the public area (AA-22, AA-33)."""

    tile: str


class DrawHomework(
    msgspec.Struct,
    frozen=True,
    kw_only=True,
    omit_defaults=True,
    tag_field="kind",
    tag="draw_homework",
    gc=False,
):
    """A card from the deck: to the public area, or to `to`'s private hand."""

    card: str
    to: str | None = None


class _Event(
    msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, tag_field="kind", gc=False
):
    player: str


class Cast(_Event, frozen=True, kw_only=True, tag="cast", gc=False):
    """AA-4: activate and exhaust a position."""

    at: Position
    round: int | None = None


class Trigger(_Event, frozen=True, kw_only=True, tag="trigger", gc=False):
    """AA-5, AA-31: resolve an eligible linked neighbour."""

    at: Position


class CollectShard(_Event, frozen=True, kw_only=True, tag="collect_shard", gc=False):
    """AA-9."""


class GainWill(_Event, frozen=True, kw_only=True, tag="gain_will", gc=False):
    """AA-10."""


class TakeTile(_Event, frozen=True, kw_only=True, tag="take_tile", gc=False):
    """AA-11."""

    tile: str


class UseItem(_Event, frozen=True, kw_only=True, tag="use_item", gc=False):
    """AA-12."""

    item: str
    ready: list[Position] = []
    tiles: list[str] = []


class CompleteHomework(_Event, frozen=True, kw_only=True, tag="complete_homework", gc=False):
    """AA-16 to AA-18."""

    card: str
    ready: list[Position] = []
    tiles: list[str] = []


class Rest(_Event, frozen=True, kw_only=True, tag="rest", gc=False):
    """AA-15: clear the markers; `swap` one private card for a draw."""

    swap: str | None = None
    round: int | None = None


class PlaceTile(_Event, frozen=True, kw_only=True, tag="place_tile", gc=False):
    """AA-19: a tile taken this turn onto a position, in a rotation."""

    tile: str
    at: Position
    rotation: int


ACTION_EVENTS = (CollectShard, GainWill, TakeTile, UseItem, CompleteHomework)
ACTION_OF = {
    CollectShard: "shard",
    GainWill: "will",
    TakeTile: "tile",
    UseItem: "item",
    CompleteHomework: "homework",
}

Event = (
    DrawTile
    | DrawHomework
    | Cast
    | Trigger
    | CollectShard
    | GainWill
    | TakeTile
    | UseItem
    | CompleteHomework
    | Rest
    | PlaceTile
)
