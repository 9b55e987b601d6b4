"""The bots a simulation or an experiment may seat: each game's own, and the search bot
every game has (`search`, `search:400` playouts a decision, `search:250ms`, and
`search:400:greedy` with its playouts by the greedy bot rather than the game's choice, and
`search:400:trust=none` with one of the game's search settings changed), which is given the
clock here, since the engines read none."""

from __future__ import annotations

import dataclasses
import time
from typing import Any

from replay.game import Game, Policy
from replay.search import SearchBot, parse


def names(game: Game[Any, Any, Any]) -> list[str]:
    """The bots `game` may seat, by name (a search bot also with its budget)."""
    sim = game.simulation
    return [*(sim.bots if sim else ()), "search"]


def can_seat(game: Game[Any, Any, Any], name: str) -> bool:
    return refusal(game, name) is None


def refusal(game: Game[Any, Any, Any], name: str) -> str | None:
    """Why `game` cannot seat a bot called `name`, or None if it can."""
    sim = game.simulation
    if sim is None:
        return f"{game.name} has no simulator"
    if name in sim.bots:
        return None
    known = f"{game.name} has {', '.join(names(game))}"
    if name.partition(":")[0] != "search":
        return f"unknown bot {name!r}; {known}"
    try:
        _, _, rollout, settings = parse(name)
        if settings:
            dataclasses.replace(sim, **settings)  # settings that go together
    except ValueError as err:
        return str(err)
    if rollout is not None and rollout not in sim.bots:
        return f"{rollout!r} is not a bot to play a search's playouts out by; {known}"
    return None


def policy(game: Game[Any, Any, Any], name: str) -> Policy:
    """A new bot called `name` for one seat of one match."""
    sim = game.simulation
    assert sim is not None
    if name in sim.bots:
        return sim.bots[name]()
    playouts, ms, rollout, settings = parse(name)
    return SearchBot(game, playouts, ms, clock=time.perf_counter, name=name, rollout=rollout,
                     settings=settings)  # fmt: skip
