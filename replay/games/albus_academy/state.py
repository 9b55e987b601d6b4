"""The Albus Academy state: what is true at a moment of the match, nothing derivable."""

from __future__ import annotations

import msgspec

from .catalogue import Catalogue
from .config import Config

Top = tuple[str, int]  # what shows on a position: (tile id or corner name, rotation)


class Seat(msgspec.Struct, kw_only=True):
    board: list[list[Top | None]]  # [row][col] → the visible tile, or None (AA-24)
    exhausted: set[tuple[int, int]] = set()  # AA-28: markers belong to positions
    will: int = 0
    shards: int = 0
    private: list[str] = []  # AA-1: private homework, hidden at the table
    spells: list[str] = []  # AA-17: tucked
    items: list[str] = []  # AA-18: laid face up
    tokens: dict[str, int] = {}  # item → prestige tokens on it
    class_dismissed: bool = False  # AA-23, AA-40
    links: int = 0  # whole connectors on the board now: kept, not recounted every placement


class State(msgspec.Struct, kw_only=True):
    """Mutated in place by `rules.apply`. Seats are indices into `players`."""

    config: Config
    catalogue: Catalogue
    players: list[str]
    seats: dict[str, int]
    first_player: int
    board: list[Seat]
    bag: dict[str, int]  # tile → copies still in the bag
    deck: list[str]  # homework still in the deck (its order is chance's)
    public_tiles: list[str] = []
    public_homework: list[str] = []
    # setup | main | casting | swap_draw | placing | refill | over
    phase: str = "setup"
    draws: list[tuple[str, int | None]] = []  # draws owed now: ("tile" | "homework", to seat)
    turn: int = 0  # the seat to move
    turns: int = 0  # turns finished
    round: int = 0
    # The cast in progress (AA-4 to AA-8, AA-29 to AA-31).
    current: tuple[int, int] | None = None
    done: list[str] = []  # actions done on the current tile
    eligible: list[tuple[int, int]] = []  # neighbours that may still be triggered
    taken: list[str] = []  # tiles taken this turn, to place (AA-19, AA-38)
    private_done: int = 0  # private homework completed this turn (AA-22)
    ended_by: int | None = None  # the seat whose turn triggered the end (AA-40)
    last_turn: int | None = None  # turns count after which the match ends (AA-41)


def clone_seat(me: Seat) -> Seat:
    return Seat(
        board=[list(row) for row in me.board],  # a top is a tuple: shared
        exhausted=set(me.exhausted),
        will=me.will,
        shards=me.shards,
        private=list(me.private),
        spells=list(me.spells),
        items=list(me.items),
        tokens=dict(me.tokens),
        class_dismissed=me.class_dismissed,
        links=me.links,
    )


def clone(state: State) -> State:
    """An independent copy. The ruleset and the catalogue are frozen and the seating never
    changes, so they are shared; every list the rules change in place is copied, unlike the
    copy `rules.apply` checks an event after a cast on, which shares them on purpose."""
    return State(
        config=state.config,
        catalogue=state.catalogue,
        players=state.players,
        seats=state.seats,
        first_player=state.first_player,
        board=[clone_seat(me) for me in state.board],
        bag=dict(state.bag),
        deck=list(state.deck),
        public_tiles=list(state.public_tiles),
        public_homework=list(state.public_homework),
        phase=state.phase,
        draws=list(state.draws),
        turn=state.turn,
        turns=state.turns,
        round=state.round,
        current=state.current,
        done=list(state.done),
        eligible=list(state.eligible),
        taken=list(state.taken),
        private_done=state.private_done,
        ended_by=state.ended_by,
        last_turn=state.last_turn,
    )
