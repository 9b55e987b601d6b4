"""Albus Academy's boards (AA-24 to AA-28): positions and their neighbours, the tile on view
at each, its connectors and links, and the steps it offers."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence

from .catalogue import Steps
from .config import Config
from .state import State

Pos = tuple[int, int]


FACING = {(0, 1): (1, 3), (0, -1): (3, 1), (1, 0): (2, 0), (-1, 0): (0, 2)}  # AA-26


def corners(config: Config) -> dict[str, Pos]:
    """AA-24: the four corners of a board of any size."""
    r, c = config.board_rows - 1, config.board_cols - 1
    return {"nw": (0, 0), "ne": (0, c), "sw": (r, 0), "se": (r, c)}


def edges_at(state: State, seat: int, at: Pos) -> str | None:
    """AA-25: the edges N E S W of what shows at `at`, turned by its rotation."""
    top = state.board[seat].board[at[0]][at[1]]
    if top is None:
        return None
    name, rotation = top
    cat = state.catalogue
    edges = cat.corners[name].edges if name in cat.corners else cat.tiles[name].edges
    return edges[-rotation:] + edges[:-rotation] if rotation else edges


def linked(state: State, seat: int, a: Pos, b: Pos) -> bool:
    """AA-7, AA-26: facing halves of the same kind form a whole connector. (Asked at every
    cast and placement: edge k of a tile turned r times is its printed edge k - r.)"""
    facing = FACING.get((b[0] - a[0], b[1] - a[1]))
    if facing is None:
        return False
    board = state.board[seat].board
    top_a, top_b = board[a[0]][a[1]], board[b[0]][b[1]]
    if top_a is None or top_b is None:
        return False
    cat = state.catalogue
    corners, tiles = cat.corners, cat.tiles
    name, turned = top_a
    x = (corners[name] if name in corners else tiles[name]).edges[(facing[0] - turned) % 4]
    name, turned = top_b
    y = (corners[name] if name in corners else tiles[name]).edges[(facing[1] - turned) % 4]
    return x != "-" and x == y


def positions(state: State) -> tuple[Pos, ...]:
    return grid(state.config.board_rows, state.config.board_cols)[0]


@functools.cache
def grid(
    rows: int, cols: int
) -> tuple[tuple[Pos, ...], frozenset[Pos], tuple[tuple[Pos, Pos], ...]]:
    """A board's positions, as a tuple and a set, and its adjacent pairs (east, south)."""
    cells = tuple((r, c) for r in range(rows) for c in range(cols))
    pairs = tuple(
        ((r, c), (r + dr, c + dc))
        for r, c in cells
        for dr, dc in ((0, 1), (1, 0))
        if r + dr < rows and c + dc < cols
    )
    return cells, frozenset(cells), pairs


def neighbours(state: State, at: Pos) -> list[Pos]:
    rows, cols = state.config.board_rows, state.config.board_cols
    return [
        (at[0] + dr, at[1] + dc)
        for dr, dc in FACING
        if 0 <= at[0] + dr < rows and 0 <= at[1] + dc < cols
    ]


def steps_at(state: State, seat: int, at: Pos) -> Steps:
    top = state.board[seat].board[at[0]][at[1]]
    assert top is not None
    return state.catalogue.steps[top[0]]


def matchable(steps: Steps, actions: Sequence[str]) -> bool:
    """AA-29, §6: the actions can go to distinct steps that allow them (AA-14: chaos allows
    any of them)."""
    if len(actions) > len(steps):
        return False
    if len(steps) == 1:  # most tiles: one step
        step = steps[0]
        return actions[0] in step or "chaos" in step
    return any(
        all(a in steps[i] or "chaos" in steps[i] for a, i in zip(actions, order))
        for order in itertools.permutations(range(len(steps)), len(actions))
    )


def links(state: State, seat: int) -> int:
    """Whole connectors on a board, each adjacent pair counted once (the `per_link` count).
    Each position's edges are turned once, not once per pair it is in (AA-7, AA-26)."""
    cells, _, pairs = grid(state.config.board_rows, state.config.board_cols)
    edges = {at: edges_at(state, seat, at) for at in cells}
    count = 0
    for a, b in pairs:
        ea, eb = edges[a], edges[b]
        if ea is not None and eb is not None:
            x, y = FACING[(b[0] - a[0], b[1] - a[1])]
            count += ea[x] != "-" and ea[x] == eb[y]
    return count


def links_at(state: State, seat: int, at: Pos) -> int:
    """The whole connectors between `at` and its neighbours: all that placing a tile there
    can change of `links`."""
    return sum(linked(state, seat, at, other) for other in neighbours(state, at))


def placed_tiles(state: State, seat: int) -> int:
    """The seat's tiles on view, its starting corners (AA-27: never taken) not counted."""
    cat = state.catalogue
    return sum(
        1
        for row in state.board[seat].board
        for top in row
        if top is not None and top[0] not in cat.corners
    )


def homework_action_left(state: State, seat: int, placing: tuple[Pos, str] | None = None) -> bool:
    """AA-21, AA-39: a visible position still offers `homework` or `chaos` (`placing`: once
    that tile is placed at that position, without placing it)."""
    cat = state.catalogue

    def offers(tile: str) -> bool:
        return any("homework" in s or "chaos" in s for s in cat.steps[tile])

    at, tile = placing if placing is not None else (None, "")
    return any(
        offers(tile) if (r, c) == at else top is not None and offers(top[0])
        for r, row in enumerate(state.board[seat].board)
        for c, top in enumerate(row)
    )
