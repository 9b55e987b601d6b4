"""What Heraldry's rules ask of a hex and of a seat's pieces: shared by the rules, which
refuse what they forbid, and by the legal moves, which leave it out."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from replay.errors import IllegalEvent

from .board import Board
from .config import Config
from .state import State

MOVABLE_INTO = ("village", None)  # HE-8: an opponent's city or fortress keeps knights out


class Pieces(Protocol):
    """What the checks of a step read: a `State`, or a move's `Ahead` of it."""

    @property
    def board(self) -> Board: ...
    @property
    def config(self) -> Config: ...
    @property
    def players(self) -> list[str]: ...
    @property
    def knights(self) -> Sequence[list[int]]: ...
    @property
    def building(self) -> Sequence[tuple[int, str] | None]: ...
    @property
    def posts(self) -> Sequence[dict[int, int]]: ...
    @property
    def tokens(self) -> Sequence[dict[str, int]]: ...


def on_board(state: State, seat: int) -> dict[str, int]:
    """Pieces `seat` has on the map, by kind: what left the reserve and did not leave the game."""
    full, reserve = state.config.reserve, state.reserve[seat]
    counts = {piece: full[piece] - reserve[piece] for piece in full}
    counts["knight"] -= state.lost[seat]
    return counts


def buildings(counts: dict[str, int]) -> int:
    """The buildings among pieces counted by kind (`on_board`'s): its buildings track."""
    return counts["village"] + counts["fortress"] + counts["city"]


def opponent_pieces(state: Pieces, seat: int, h: int) -> bool:
    """Whether any opponent has a knight or a village on hex `h` (HE-9's pieces)."""
    building = state.building[h]
    if building is not None and building[0] != seat and building[1] == "village":
        return True
    row = state.knights[h]
    return any(count for other, count in enumerate(row) if other != seat)


def entry_block(state: Pieces, seat: int, h: int) -> str | None:
    """HE-8: why a knight of `seat` may not enter hex `h`, or None when it may."""
    board = state.board
    if board.terrain[h] == "lake":
        return "a knight never enters a lake"
    building = state.building[h]
    row = state.knights[h]
    if building is None and sum(row) == row[seat]:
        return None  # no opponent's piece: the common case, answered first
    if building is not None and building[0] != seat and building[1] not in MOVABLE_INTO:
        return f"{state.players[building[0]]}'s {building[1]} stands there"
    limit = state.config.block_pieces
    mountain = board.terrain[h] == "mountain"
    for other, count in enumerate(row):
        if other == seat:
            continue
        pieces = count + (building is not None and building == (other, "village"))
        if pieces >= limit:
            return f"{state.players[other]} has {pieces} pieces there"
        if mountain and pieces:
            return f"a mountain holding {state.players[other]}'s piece"
    return None


def build_block(state: State, seat: int, h: int) -> str | None:
    """HE-10: why `seat` may not build on hex `h`, or None when it may."""
    if not state.knights[h][seat]:
        return f"{state.players[seat]} has no knight there"
    building = state.building[h]
    if building is not None:
        return f"{state.players[building[0]]}'s {building[1]} already stands there"
    row = state.knights[h]
    for other, count in enumerate(row):
        if other != seat and count:
            return f"{state.players[other]}'s knight is there"
    return None


def city_block(state: State, seat: int, h: int) -> str | None:
    """HE-5, HE-11: why a city may not stand on hex `h` (besides whose piece is there)."""
    board = state.board
    if board.terrain[h] in ("forest", "lake"):
        return f"a city never stands on {board.terrain[h]}"
    building = state.building
    for n in board.neighbours[h]:
        near = building[n]
        if near is not None and near[1] == "city":
            return f"it is next to {state.players[near[0]]}'s city at {board.name(n)}"
    return None


def setup_block(state: State, h: int) -> str | None:
    """HE-5: why a setup city may not go on hex `h`."""
    building = state.building[h]
    if building is not None:
        return f"{state.players[building[0]]}'s {building[1]} stands there"
    return city_block(state, state.turn, h)


def found_block(state: State, seat: int, h: int) -> str | None:
    """HE-11: why `seat` may not turn its village on hex `h` into a city."""
    if state.building[h] != (seat, "village"):
        return f"{state.players[seat]} has no village there"
    row = state.knights[h]
    for other, count in enumerate(row):
        if other != seat and count:
            return f"{state.players[other]}'s knight is there"
    return city_block(state, seat, h)


def expedition_block(state: State, h: int) -> str | None:
    """HE-12: why no expedition may land on hex `h`."""
    board = state.board
    if not board.edge[h]:
        return "it is not an edge hex"
    if board.terrain[h] == "lake":
        return "it is a lake"
    if state.building[h] is not None or any(state.knights[h]):
        return "it is not empty"
    return None


def recruit_limit(state: State, h: int) -> int:
    """HE-6: how many knights one recruit may bring to the city on hex `h`."""
    config = state.config
    return config.recruit_max_by_lake if state.board.by_lake[h] else config.recruit_max


def payment_value(state: State, pay: Sequence[str]) -> int:
    values = state.config.token_promotion
    return sum(values.get(terrain, 0) for terrain in pay)


def hex_at(state: Pieces, at: tuple[int, int], rule: str, what: str) -> int:
    h = state.board.index.get(tuple(at))  # type: ignore[arg-type]
    if h is None:
        raise IllegalEvent(rule, f"{what} [{at[0]}, {at[1]}] is not on the map")
    return h
