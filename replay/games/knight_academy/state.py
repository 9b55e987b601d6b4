"""The Knight Academy state: what is true at a moment of the match, nothing derivable."""

from __future__ import annotations

import msgspec

from .config import Config


class State(msgspec.Struct, kw_only=True):
    """Mutated in place by `rules.apply`. Seats are indices into `players`."""

    config: Config
    players: list[str]
    neutral_seat: int | None  # KA-19: gawain's neutral seat, else None
    round: int = 1
    phase: str = "deal"  # deal | draft | play | lift | bonus | over
    start_player: int = 0
    deck: dict[str, int]  # KA-4: cards still in the deck, by name
    discard: dict[str, int]
    dealt: list[bool]
    hands: list[list[str]]  # KA-5: the draft hand each seat holds now
    picked: list[list[str]]  # cards picked this round; the play phase plays from these
    step: int = 0  # KA-5: draft step of the round, from 0
    has_picked: list[bool]
    played: list[int]  # KA-6: cards each seat has played this round
    turn: int = 0  # KA-6: the seat to play
    progress: dict[str, list[int]]  # KA-7: track → progress per seat
    arrival: dict[str, list[int]]  # KA-8: track → when each disc last arrived (higher = on top)
    clock: int = 0  # KA-8: arrivals so far, to stamp the next one
    bonuses: list[tuple[int, int]] = []  # KA-10: (seat, squares) still owed, in order of play
    lifts_left: int = 0  # KA-21a: lifts the start player may still make this round
    rewarded: list[int] = []  # KA-21b: the seats this round's courage bonuses go to, in order
    points: list[dict[str, int]]  # seat → scoring source → points

    seats: dict[str, int]  # player → seat: `players` inverted, kept because every event asks
