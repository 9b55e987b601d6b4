"""What an Albus Academy seat knows and what could be (docs/engines.md, "What a seat
knows"), and a state, or a view of one, as plain data: for `squire replay --step` and the viewer.

Face down at the table (AA-1, AA-36): the others' private homework, the homework deck and the
tile bag. Everything else lies open, the spells tucked under a board included: a seat sees
what another completed. A view keeps each hidden card's place as `HIDDEN` and the bag's size
as `{HIDDEN: size}`; the snapshot of a view shows them as counts."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from replay.game import HIDDEN

from .board import edges_at, linked, positions
from .legal import expecting
from .scoring import result
from .state import State, clone


def view(state: State, seat: int | None) -> State:
    """`state` as `seat` knows it (None: all of it)."""
    seen = clone(state)
    if seat is None:
        return seen
    for other, me in enumerate(seen.board):
        if other != seat:
            me.private = [HIDDEN] * len(me.private)
    seen.deck = [HIDDEN] * len(seen.deck)
    size = sum(seen.bag.values())
    seen.bag = {HIDDEN: size} if size else {}
    return seen


def resample(state: State, seat: int | None, rng: random.Random) -> State:
    """A whole state `seat` could be in: its view with every hidden card dealt again,
    uniformly, from what it cannot see now.

    Homework and tiles out of sight are not only the hidden ones: a card swapped away (AA-35)
    leaves the game face down, and a covered tile (AA-20) is gone from the board, and the
    state keeps neither. So the unseen pool is the catalogue less what the view shows, and
    the hidden places take a random part of it; what is left over stands for what left the
    game. That is all a seat holding only its view can know, and it makes a view enough."""
    drawn = view(state, seat)
    if seat is None:
        return drawn
    cards = unseen_homework(drawn)
    rng.shuffle(cards)
    for me in drawn.board:
        me.private = [cards.pop() if card == HIDDEN else card for card in me.private]
    drawn.deck = [cards.pop() for _ in drawn.deck]
    size = drawn.bag.get(HIDDEN, 0)
    bag = Counter(rng.sample(unseen_tiles(drawn), size))
    drawn.bag = {tile: bag[tile] for tile in sorted(bag)}
    return drawn


def unseen_homework(state: State) -> list[str]:
    """The catalogue's homework no one can see in `state`, in catalogue order."""
    shown = {*state.public_homework}
    for me in state.board:
        shown.update(me.private, me.spells, me.items)
    return [card for card in state.catalogue.homework if card not in shown]


def unseen_tiles(state: State) -> list[str]:
    """The catalogue's tiles, a name for each copy, less every copy in sight: the public ones,
    those taken to place, those on a board (corners are no tiles)."""
    left = state.catalogue.bag()
    shown = [*state.public_tiles, *state.taken]
    shown += [top[0] for me in state.board for row in me.board for top in row if top is not None]
    for tile in shown:
        if tile in left:
            left[tile] -= 1
    return [tile for tile, count in left.items() for _ in range(max(0, count))]


def snapshot(state: State) -> dict[str, Any]:
    players = state.players
    outcome = result(state)
    expect = expecting(state)
    seats = {}
    for seat, (player, me) in enumerate(zip(players, state.board)):
        board = []
        for r, c in positions(state):
            top = me.board[r][c]
            right = (r, c + 1) if c + 1 < state.config.board_cols else None
            below = (r + 1, c) if r + 1 < state.config.board_rows else None
            cat = state.catalogue
            actions = (
                None
                if top is None
                else (
                    cat.corners[top[0]].actions
                    if top[0] in cat.corners
                    else cat.tiles[top[0]].actions
                )
            )
            board.append(
                {
                    "at": [r, c],
                    "tile": top[0] if top else None,
                    "actions": actions,
                    "rotation": top[1] if top else None,
                    "edges": edges_at(state, seat, (r, c)),
                    "exhausted": (r, c) in me.exhausted,
                    "link_east": bool(right and linked(state, seat, (r, c), right)),
                    "link_south": bool(below and linked(state, seat, (r, c), below)),
                }
            )
        seats[player] = {
            "will": me.will,
            "shards": me.shards,
            "board": board,
            "private": {"homework": list(me.private)},
            "private_count": len(me.private),
            "spells": list(me.spells),
            "items": list(me.items),
            "tokens": dict(me.tokens),
            "class_dismissed": me.class_dismissed,
            "score": outcome.scores[seat],
            "sources": outcome.sources[seat],
        }
    return {
        "round": state.round,
        "phase": state.phase,
        "turn_of": players[state.turn],
        "start_player": players[state.first_player],
        "public_tiles": list(state.public_tiles),
        "public_homework": list(state.public_homework),
        "bag": sum(state.bag.values()),
        "deck": len(state.deck),
        "taken": list(state.taken),
        "casting": None
        if state.current is None
        else {
            "at": list(state.current),
            "done": list(state.done),
            "may_trigger": [list(p) for p in state.eligible],
        },
        "seats": seats,
        "expecting": {
            "kind": expect.kind,
            **({"kinds": list(expect.kinds)} if expect.kinds else {}),  # a choice's kinds
            "players": [players[s] for s in expect.seats],
            **expect.detail,
        },
    }


def render(snap: dict[str, Any]) -> str:
    lines = [
        f"round {snap['round']} · {snap['phase']} · {snap['turn_of']} to move",
        (
            f"public tiles: {', '.join(snap['public_tiles']) or '—'} (bag {snap['bag']}); "
            f"public homework: {', '.join(snap['public_homework']) or '—'} "
            f"(deck {snap['deck']})"
        ),
    ]
    for player, me in snap["seats"].items():
        grid = []
        for cell in me["board"]:
            mark = "—" if cell["tile"] is None else f"{cell['tile']}@{cell['rotation']}"
            grid.append(mark + ("*" if cell["exhausted"] else ""))
        lines.append(
            f"{player}: {me['score']} prestige; will {me['will']}, shards "
            f"{me['shards']}; spells {', '.join(me['spells']) or '—'}; items "
            f"{', '.join(me['items']) or '—'}; private {me['private_count']}"
            + ("; class dismissed" if me["class_dismissed"] else "")
        )
        lines.append("  board (* exhausted): " + " | ".join(grid))
    return "\n".join(lines)
