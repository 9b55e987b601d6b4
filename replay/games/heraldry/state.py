"""The Heraldry state: what is true at a moment of the match, nothing derivable."""

from __future__ import annotations

import msgspec

from .board import Board
from .config import Config


class State(msgspec.Struct, kw_only=True):
    """Mutated in place by `rules.apply`. Seats are indices into `players`; hexes are indices
    into `board`. A hex holds at most one building (HE-10 builds only where none stands)."""

    config: Config
    board: Board
    players: list[str]
    seats: dict[str, int]  # player → seat: `players` inverted, kept because every event asks
    start_player: int  # HE-21: turn order counts from here
    phase: str = "setup"  # setup | play | over
    setup_order: list[int]  # HE-4: the seats still to place a setup city, in order
    round: int = 0  # 0 during setup; then each player's n-th turn is in round n
    turn: int = 0  # the seat to act
    turns: int = 0  # turns taken since setup, passes included (HE-21)
    knights: list[list[int]]  # hex → seat → knights there
    posts: list[dict[int, int]]  # seat → hex → knights there: `knights` by owner, no zeros
    building: list[tuple[int, str] | None]  # hex → (seat, piece) of its building, if any
    built: list[dict[int, str]]  # seat → hex → piece: `building` by owner, as turns ask it
    reserve: list[dict[str, int]]  # seat → piece → pieces in reserve (HE-1)
    lost: list[int]  # seat → knights gone for good on expeditions (HE-12)
    tokens: list[dict[str, int]]  # seat → terrain → resource tokens held
    title: list[int]  # seat → index into TITLES (HE-13)
    points: list[dict[str, int]]  # seat → source → points on the score track
    duke: bool = False  # HE-15: someone has become duke


def clone(state: State) -> State:
    """An independent copy: the ruleset and the map are never changed, so they are shared."""
    return State(
        config=state.config,
        board=state.board,
        players=state.players,  # never changed once seated
        seats=state.seats,
        start_player=state.start_player,
        phase=state.phase,
        setup_order=list(state.setup_order),
        round=state.round,
        turn=state.turn,
        turns=state.turns,
        knights=[list(row) for row in state.knights],
        posts=[dict(row) for row in state.posts],
        building=list(state.building),
        built=[dict(row) for row in state.built],
        reserve=[dict(row) for row in state.reserve],
        lost=list(state.lost),
        tokens=[dict(row) for row in state.tokens],
        title=list(state.title),
        points=[dict(row) for row in state.points],
        duke=state.duke,
    )
