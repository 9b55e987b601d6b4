"""Knight Academy log events, exactly as LOG_FORMAT.md names them (tag field `kind`)."""

from __future__ import annotations

from typing import Annotated

import msgspec

from replay.log import Header as BaseHeader

from .config import Track

Card = Annotated[str, msgspec.Meta(description="<type>-<value>, e.g. sword-4 or quest-5")]


class Header(BaseHeader, frozen=True, kw_only=True, tag="header"):
    """`variant`: `base`, `gawain` or `lancelot` (KA-19, KA-20). `neutral`: in `gawain`, the
    one of `players` that is the neutral seat. `colours`: in `lancelot`, each player's two
    colours (default: the first player blue and green, the second yellow and red); a colour's
    events name the colour as player. `ruleset`: knight-academy/standard (the default),
    /advanced (KA-21), one variant board's (/knights, /wager, /codex, /scrolls, /quest, /mercy:
    KA-22) or /all-boards; `rules` may set any of the ruleset's numbers, `boards` among them
    (e.g. `{"boards": ["knights", "mercy"]}`)."""

    neutral: str | None = None
    colours: dict[str, list[str]] | None = None


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
    """KA-6: a seat plays a card onto a track (required for `sword`: joust or tournament, or
    with the knights board the white or black knight, KA-22a).

    `peek`: with the codex board, the codex slot (from 1) the player of an education card looks
    at (KA-22c). `scrolls`: with the king's scrolls, the squares of the scrolls the disc reached
    or passed that the player takes (KA-22d)."""

    card: Card
    track: Track | None = None
    peek: int | None = None
    scrolls: list[int] = []


class Bonus(_Event, frozen=True, kw_only=True, tag="bonus", gc=False):
    """KA-10: a seat rewarded for courage moves one disc, or declines with `track: null`."""

    track: Track | None


class Lift(_Event, frozen=True, kw_only=True, tag="lift", gc=False):
    """KA-21a (advanced rules): before a round's scoring, its start player lifts its disc on
    `track` to the top of the square it shares with discs above it, or declines with
    `track: null`."""

    track: Track | None


class Wager(_Event, frozen=True, kw_only=True, tag="wager", gc=False):
    """KA-22b (courage wager): after the deal, before the draft, a seat wagers on a track."""

    track: Track


class Codex(msgspec.Struct, frozen=True, kw_only=True, tag_field="kind", tag="codex", gc=False):
    """KA-22c (education codex): the round's shields laid face down on the codex, slot 1 first
    (a chance outcome, after the deal)."""

    shields: list[int]
    round: int | None = None


class Shield(_Event, frozen=True, kw_only=True, tag="shield", gc=False):
    """KA-22c: at the education scoring, a seat keeps the shield in codex slot `slot`."""

    slot: int


class Mercy(_Event, frozen=True, kw_only=True, tag="mercy", gc=False):
    """KA-22f (mercy): at the last scoring, charity's 1st (then, with four seats or more, its
    2nd) gives one negative shield, `give` (its points, or null), and takes shields worth
    `take` from the seat `other` (a last seat, named because several may tie at the start)."""

    other: str
    give: int | None = None
    take: list[int] = []


class Split(_Event, frozen=True, kw_only=True, tag="split", gc=False):
    """KA-20 (lancelot): a player splits its hand face down into two piles."""

    piles: list[list[Card]]


class Choose(_Event, frozen=True, kw_only=True, tag="choose", gc=False):
    """KA-20: the start player, then the other, takes the other player's pile `pile` (1 or
    2); the pile not chosen goes back to the player who made it."""

    pile: int


class Assign(_Event, frozen=True, kw_only=True, tag="assign", gc=False):
    """KA-20: a player lays its cards face down under its two colours, a pile each."""

    colours: dict[str, list[Card]]


Event = Deal | Pick | Play | Bonus | Lift | Wager | Codex | Shield | Mercy | Split | Choose | Assign
