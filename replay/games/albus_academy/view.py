"""The whole Albus Academy state as plain data: for `squire replay --step` and the viewer.

A seat's private homework (AA-36) is marked private: for that player's eyes (the viewer hides it
from the others, showing how many)."""

from __future__ import annotations

from typing import Any

from .board import edges_at, linked, positions
from .legal import expecting
from .scoring import result
from .state import State


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
