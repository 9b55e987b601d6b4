"""Policies for simulated Albus Academy matches. Each chooses among the engine's legal events,
or STOP to end its cast (the log then simply goes on with the next event)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from replay import game
from replay.game import STOP
from replay.log import Catalogue

from .board import links_at, steps_at
from .events import (
    Cast,
    CollectShard,
    CompleteHomework,
    GainWill,
    PlaceTile,
    Rest,
    TakeTile,
    Trigger,
    UseItem,
)
from .holdings import cost_of
from .legal import legal_events
from .state import State


def options(state: State, seat: int) -> list[Any]:
    """The legal events, and STOP while a cast is open."""
    events: list[Any] = legal_events(state, seat)
    if state.phase == "casting":
        events.append(STOP)
    return events


Bot = game.Bot[State, Sequence[Any], Any]  # an event, or STOP to end the cast


class RandomBot(Bot):
    """Any legal event (or ending the cast), uniformly."""

    name = "random"

    def choose(self, state: State, seat: int, options: Sequence[Any], rng: random.Random) -> Any:
        return rng.choice(options)


class GreedyBot(Bot):
    """Plans links and homework: casts where a tile offers homework it can pay for or the
    most linked neighbours, completes the most prestige, collects what pays for the next
    card, places tiles where they make the most links, rests when worn out."""

    name = "greedy"

    def value(self, state: State, seat: int, option: Any) -> float:
        me = state.board[seat]
        hw = state.catalogue.homework
        if option == STOP:
            return 0.0
        if isinstance(option, CompleteHomework):
            return 10.0 + 2 * hw[option.card].prestige + len(option.ready) + len(option.tiles)
        if isinstance(option, UseItem):
            return 3.0 + len(option.ready) + len(option.tiles)
        if isinstance(option, Trigger):
            return 1.0 + len(steps_at(state, seat, option.at))
        if isinstance(option, TakeTile):
            return 2.0
        if isinstance(option, GainWill):
            return 2.0 if me.will < 7 else 0.5
        if isinstance(option, CollectShard):
            return 2.0 if me.shards < 7 else 0.5
        if isinstance(option, Cast):
            steps = steps_at(state, seat, option.at)
            affordable = any(
                (me.will if hw[c].kind == "spell" else me.shards) >= cost_of(state, seat, c)
                for c in {*state.public_homework, *me.private}
            )
            homework = any("homework" in s or "chaos" in s for s in steps)
            return len(steps) + (10.0 if homework and affordable else 0.0)
        if isinstance(option, Rest):
            return len(me.exhausted) - 2.5 - (0.1 if option.swap else 0.0)
        if isinstance(option, PlaceTile):
            before = links_at(state, seat, option.at)
            r, c = option.at
            covered = me.board[r][c]
            me.board[r][c] = (option.tile, option.rotation)
            after = links_at(state, seat, option.at)
            me.board[r][c] = covered
            return after - before + (1.0 if covered is None else 0.0)
        return 0.0

    def choose(self, state: State, seat: int, options: Sequence[Any], rng: random.Random) -> Any:
        return max(options, key=lambda o: (self.value(state, seat, o), rng.random()))


BOTS: dict[str, Callable[[], Bot]] = {"random": RandomBot, "greedy": GreedyBot}


def table(players: int, config: Any, rng: random.Random, catalogue: Any) -> dict[str, Any]:
    """Header fields of a simulated table: the players and the catalogue played with, with
    its hash."""
    names = ["Ann", "Bob", "Cid", "Dee"]
    if not config.min_players <= players <= min(config.max_players, len(names)):
        raise ValueError(
            f"Albus Academy seats {config.min_players} to {config.max_players} "
            f"players, not {players}"
        )
    return {
        "players": names[:players],
        "catalogue": Catalogue(
            name=catalogue.name, version=catalogue.version, sha256=catalogue.sha256
        ),
    }
