"""What a Heraldry seat knows, and the state as plain data: for `squire replay --step` and
the viewer."""

from __future__ import annotations

import random
from typing import Any

from .checks import on_board
from .config import TITLES
from .legal import expecting
from .scoring import result
from .state import State, clone


def view(state: State, seat: int | None) -> State:
    """Heraldry hides nothing: the map, every piece, token and point lie open (HE-1 to HE-3),
    so every seat's view is the whole state."""
    return clone(state)


def resample(state: State, seat: int | None, rng: random.Random) -> State:
    """With nothing hidden, the one state a seat could be in is the state itself."""
    return clone(state)


def snapshot(state: State) -> dict[str, Any]:
    players = state.players
    board = state.board
    hexes = []
    for h, (q, r) in enumerate(board.coords):
        building = state.building[h]
        knights = {players[seat]: count for seat, count in enumerate(state.knights[h]) if count}
        hexes.append(
            {
                "q": q,
                "r": r,
                "terrain": board.terrain[h],
                "tile": board.tile[h],
                "edge": board.edge[h],
                "building": None
                if building is None
                else {"player": players[building[0]], "piece": building[1]},
                "knights": knights,
            }
        )
    outcome = result(state)
    expect = expecting(state)
    return {
        "round": state.round,
        "phase": state.phase,
        "turn": state.turns + (state.phase == "play"),
        "start_player": players[state.start_player],
        "hexes": hexes,
        "seats": {
            player: {
                "title": TITLES[state.title[seat]],
                "reserve": dict(state.reserve[seat]),
                "on_board": on_board(state, seat),
                "lost_knights": state.lost[seat],
                "tokens": {t: c for t, c in sorted(state.tokens[seat].items()) if c},
                "score": outcome.scores[seat],
                "sources": outcome.sources[seat],
            }
            for seat, player in enumerate(players)
        },
        "expecting": {
            "kind": expect.kind,
            **({"kinds": list(expect.kinds)} if expect.kinds else {}),  # a choice's kinds
            "players": [players[seat] for seat in expect.seats],
            **expect.detail,
        },
    }


def render(snap: dict[str, Any]) -> str:
    """A snapshot as text: each player's standing, then every hex that holds a piece."""
    lines = [
        f"round {snap['round']} · {snap['phase']}"
        + (f" · turn {snap['turn']}" if snap["phase"] == "play" else "")
    ]
    for player, seat in snap["seats"].items():
        tokens = ", ".join(f"{c} {t}" for t, c in seat["tokens"].items()) or "no tokens"
        reserve = ", ".join(f"{c} {p}" for p, c in seat["reserve"].items())
        lines.append(
            f"{player}: {seat['title']}, {seat['score']} points "
            f"({', '.join(f'{k} {v}' for k, v in seat['sources'].items())}); "
            f"tokens: {tokens}; reserve: {reserve}"
        )
    for cell in snap["hexes"]:
        pieces = []
        if cell["building"]:
            pieces.append(f"{cell['building']['player']}'s {cell['building']['piece']}")
        pieces.extend(f"{c} knight{'s' * (c > 1)} of {p}" for p, c in cell["knights"].items())
        if pieces:
            lines.append(f"  [{cell['q']}, {cell['r']}] {cell['terrain']}: {', '.join(pieces)}")
    expect = snap["expecting"]
    if expect["kind"] != "nothing":
        lines.append(f"next: {expect['kind']} by {', '.join(expect['players'])}")
    return "\n".join(lines)
