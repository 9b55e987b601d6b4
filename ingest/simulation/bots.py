"""The bots a simulation or an experiment may seat: each game's own, and the search bot
every game has (`search`, `search:400` playouts a decision, `search:250ms`, and
`search:400:greedy` with its playouts by the greedy bot rather than the game's choice), which
is given the clock here, since the engines read none."""

from __future__ import annotations

import time
from typing import Any

from replay.game import Game, Policy
from replay.search import SearchBot, parse


def names(game: Game[Any, Any, Any]) -> list[str]:
    """The bots `game` may seat, by name (a search bot also with its budget)."""
    sim = game.simulation
    return [*(sim.bots if sim else ()), "search"]


def can_seat(game: Game[Any, Any, Any], name: str) -> bool:
    sim = game.simulation
    if sim is None:
        return False
    if name in sim.bots:
        return True
    try:
        _, _, rollout = parse(name)
    except ValueError:
        return False
    return rollout is None or rollout in sim.bots


def policy(game: Game[Any, Any, Any], name: str) -> Policy:
    """A new bot called `name` for one seat of one match."""
    sim = game.simulation
    assert sim is not None
    if name in sim.bots:
        return sim.bots[name]()
    playouts, ms, rollout = parse(name)
    return SearchBot(game, playouts, ms, clock=time.perf_counter, name=name, rollout=rollout)
