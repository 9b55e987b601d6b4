"""Knight Academy log events, exactly as LOG_FORMAT.md names them (tag field `kind`)."""

from __future__ import annotations

from typing import Annotated

import msgspec

from replay.log import Header as BaseHeader

from .config import Track

Card = Annotated[str, msgspec.Meta(description="<type>-<value>, e.g. sword-4 or quest-5")]


class Header(BaseHeader, frozen=True, kw_only=True, tag="header"):
    """`neutral`: in the `gawain` variant, the one of `players` that is the neutral seat."""

    neutral: str | None = None


class _Event(
    msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, tag_field="kind", gc=False
):
    player: str


class Deal(_Event, frozen=True, kw_only=True, tag="deal", gc=False):
    """KA-4: a seat's hand at the start of a round (a chance outcome)."""

    cards: list[Card]
    round: int | None = None


class Pick(_Event, frozen=True, kw_only=True, tag="pick", gc=False):
    """KA-5: a seat keeps one card from the hand it holds."""

    card: Card


class Play(_Event, frozen=True, kw_only=True, tag="play", gc=False):
    """KA-6: a seat plays a card onto a track (required for `sword`: joust or tournament)."""

    card: Card
    track: Track | None = None


class Bonus(_Event, frozen=True, kw_only=True, tag="bonus", gc=False):
    """KA-10: a seat rewarded for courage moves one disc, or declines with `track: null`."""

    track: Track | None


class Lift(_Event, frozen=True, kw_only=True, tag="lift", gc=False):
    """KA-21a (advanced rules): before a round's scoring, its start player lifts its disc on
    `track` to the top of the square it shares with discs above it, or declines with
    `track: null`."""

    track: Track | None


Event = Deal | Pick | Play | Bonus | Lift
