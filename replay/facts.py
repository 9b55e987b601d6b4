"""Facts: what replaying an event establishes, in the shape the warehouse stores.

Engines return them from `apply`; the replayer pairs them with the event that caused them.
Seats are indices into the header's `players`.
"""

from __future__ import annotations

import msgspec


class Fact(msgspec.Struct, frozen=True, kw_only=True, tag_field="fact", gc=False):
    round: int


class ScoreChanged(Fact, frozen=True, tag="score", gc=False):
    """A seat gains or loses points from one scoring source."""

    seat: int
    source: str
    points: int


class TrackMoved(Fact, frozen=True, tag="track", gc=False):
    """A seat's marker on a race track moves; `cause` says why (card, bonus, reset, ...)."""

    seat: int
    track: str
    before: int
    after: int
    cause: str


class TrackRanked(Fact, frozen=True, tag="ranked", gc=False):
    """Where a round ends, a seat's marker on a track as the game's own ranking stands then,
    before any reset that end brings: `progress` is where it stands, `place` its place in the
    engine's order of the track from the front (1, 2, …: markers on one square in the order
    the game ranks them), `leads` whether it is the track's leader (one marker at most: none
    while no marker is above 0). Every marker of every track at every round's end, the
    match's last included. In Knight Academy's lancelot (KA-20) a player has a marker of each
    colour."""

    seat: int
    track: str
    progress: int
    place: int
    leads: bool


class ResourceChanged(Fact, frozen=True, tag="resource", gc=False):
    """A seat gains (`delta` > 0) or gives up units of a resource it holds: a token, a worker."""

    seat: int
    resource: str
    delta: int
    cause: str


class PiecesRemoved(Fact, frozen=True, tag="removed", gc=False):
    """`seat`'s action takes `count` of `victim`'s pieces off the board at `place` (a battle)."""

    seat: int
    victim: int
    place: str
    piece: str
    count: int
    cause: str


AnyFact = ScoreChanged | TrackMoved | TrackRanked | ResourceChanged | PiecesRemoved
