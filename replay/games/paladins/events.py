"""Paladins log events, exactly as paladins-catalogue.md §6 names them (tag field `kind`)."""

from __future__ import annotations

from typing import Literal

import msgspec

from replay.log import Header as BaseHeader

from .words import Colour

Workers = list[Colour]


class Header(BaseHeader, frozen=True, kw_only=True, tag="header"):
    """`paladin_decks`: each player's shuffled paladin deck, top card first (PA-42)."""

    paladin_decks: dict[str, list[str]]


class _Reveal(
    msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, tag_field="kind", gc=False
):
    pass


class RevealTownsfolk(_Reveal, frozen=True, kw_only=True, tag="reveal_townsfolk", gc=False):
    """PA-42, PA-54: cards into the empty display slots, leftmost first."""

    cards: list[str]


class RevealOutsiders(_Reveal, frozen=True, kw_only=True, tag="reveal_outsiders", gc=False):
    cards: list[str]


class RevealKing(_Reveal, frozen=True, kw_only=True, tag="reveal_king", gc=False):
    """PA-6: an order or a favour."""

    card: str
    round: int | None = None


class RevealTavern(_Reveal, frozen=True, kw_only=True, tag="reveal_tavern", gc=False):
    """PA-9, PA-48: players + 1 tavern cards."""

    cards: list[str]
    round: int | None = None


class _Event(
    msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, tag_field="kind", gc=False
):
    player: str


class ChoosePaladin(_Event, frozen=True, kw_only=True, tag="choose_paladin", gc=False):
    """PA-10, PA-49: the top three of the deck: one played, one back on top, one below."""

    paladin: str
    top: str
    bottom: str


class TakeTavern(_Event, frozen=True, kw_only=True, tag="take_tavern", gc=False):
    """PA-11: the paladin's workers and a tavern card's."""

    card: str


class _Action(_Event, frozen=True, kw_only=True, gc=False):
    workers: Workers


class Develop(_Action, frozen=True, kw_only=True, tag="develop", gc=False):
    """PA-20: a workshop onto a main action."""

    action: str


class Recruit(_Action, frozen=True, kw_only=True, tag="recruit", gc=False):
    """PA-21 to PA-23: 1 worker for the quest reward, 2 to join the team."""

    card: str
    pay: Literal["silver", "debt"] = "silver"


class Hunt(_Action, frozen=True, kw_only=True, tag="hunt", gc=False):
    """PA-24."""


class Trade(_Action, frozen=True, kw_only=True, tag="trade", gc=False):
    """PA-25."""


class Pray(_Action, frozen=True, kw_only=True, tag="pray", gc=False):
    """PA-27, PA-51: clear another of the player's spaces."""

    space: str


class Scheme(_Action, frozen=True, kw_only=True, tag="scheme", gc=False):
    """PA-28: a criminal, then `draw_suspicion`."""


class DrawSuspicion(_Event, frozen=True, kw_only=True, tag="draw_suspicion", gc=False):
    """PA-28, PA-56, PA-58."""

    card: str


class Commission(_Action, frozen=True, kw_only=True, tag="commission", gc=False):
    """PA-30: a monk onto a square."""

    square: str


class Garrison(_Action, frozen=True, kw_only=True, tag="garrison", gc=False):
    """PA-33: an outpost onto a square."""

    square: str


class BuildWall(_Action, frozen=True, kw_only=True, tag="build_wall", gc=False):
    """PA-32: then `draw_wall`."""


class DrawWall(_Event, frozen=True, kw_only=True, tag="draw_wall", gc=False):
    card: str


class Absolve(_Action, frozen=True, kw_only=True, tag="absolve", gc=False):
    """PA-34: a jar onto a spot (1–7)."""

    spot: int


class Attack(_Action, frozen=True, kw_only=True, tag="attack", gc=False):
    """PA-35, PA-53: `silver` cross-checks the silver paid for missing strength."""

    card: str
    silver: int | None = None


class Convert(_Action, frozen=True, kw_only=True, tag="convert", gc=False):
    """PA-36."""

    card: str


class Favour(_Action, frozen=True, kw_only=True, tag="favour", gc=False):
    """PA-37: `townsfolk` with a recruit effect, `space` with a pray effect."""

    card: str
    townsfolk: str | None = None
    space: str | None = None


class Pass(_Event, frozen=True, kw_only=True, tag="pass", gc=False):
    """PA-38, PA-50: keeping exactly min(3, supply) workers."""

    keep: Workers


Event = (
    RevealTownsfolk
    | RevealOutsiders
    | RevealKing
    | RevealTavern
    | ChoosePaladin
    | TakeTavern
    | Develop
    | Recruit
    | Hunt
    | Trade
    | Pray
    | Scheme
    | DrawSuspicion
    | Commission
    | Garrison
    | BuildWall
    | DrawWall
    | Absolve
    | Attack
    | Convert
    | Favour
    | Pass
)
