"""Policies for simulated Paladins matches; each chooses among the engine's legal events."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any, get_args

from msgspec.structs import astuple, fields

from replay import game
from replay.log import Catalogue

from .events import Event, Pass, Workers
from .rules import apply_legal
from .scoring import score
from .state import Seat, State, clone

# What one unit is worth to the greedy bot beside points, early in the game: resources and
# workers turn into points later; the weight fades as the rounds run out.
LATER = {"silver": 0.35, "prov": 0.35, "worker": 0.5}


Bot = game.Bot[State, Sequence[Event], Event]


class RandomBot(Bot):
    """Any legal event, uniformly."""

    name = "random"

    def choose(
        self, state: State, seat: int, options: Sequence[Event], rng: random.Random
    ) -> Event:
        return rng.choice(options)


class GreedyBot(Bot):
    """Values each option by the score it would have at the end if the game ended after it
    (VP now, attributes at their end value, orders met, debts and suspicion), plus what its
    silver, provisions and workers may still become; passes only when nothing gains."""

    name = "greedy"

    def worth(self, state: State, seat: int) -> float:
        me: Seat = state.board[seat]
        left = max(0, state.config.rounds - state.round) / state.config.rounds
        held = (
            LATER["silver"] * me.silver
            + LATER["prov"] * me.provisions
            + LATER["worker"] * sum(me.supply.values())
        )
        return score(state, seat) + left * held

    def choose(
        self, state: State, seat: int, options: Sequence[Event], rng: random.Random
    ) -> Event:
        if len(options) == 1:
            return options[0]
        base = self.worth(state, seat)
        gains: dict[tuple[Any, ...], float] = {}
        draw = rng.random
        # the most gain, ties to the highest of one draw an option, taken in order
        best, best_gain, best_draw = options[0], -math.inf, -math.inf
        for option in options:
            alike = weighed_alike(option)
            gain = gains.get(alike)
            if gain is None:
                trial = clone(state)
                apply_legal(trial, option)
                gain = self.worth(trial, seat) - base
                if isinstance(option, Pass):
                    gain -= 0.25  # acting beats resting when they tie
                gains[alike] = gain
            tie = draw()
            if gain > best_gain or (gain == best_gain and tie > best_draw):
                best, best_gain, best_draw = option, gain, tie
        return best


def weighed_alike(option: Event) -> tuple[Any, ...]:
    """What sets an option's worth apart: all of it but the colours of the workers it places
    or keeps (its only lists). A colour decides only which slot a worker fits (PA-16); nothing
    scores it, and `worth` counts workers whatever their colour. A turn's options are mostly
    the same action paid with other colours (61 a turn, 16 unlike, in greedy matches): one of
    each is tried and scored, the rest take its gain."""
    values = astuple(option)
    at = _LIST_AT.get(type(option))
    if at is None:
        return (type(option), *values)
    return (type(option), *values[:at], len(values[at]), *values[at + 1 :])


def _list_at(kind: type) -> int | None:
    """Where an event's list of workers is among its fields (an event has one at most)."""
    lists = [i for i, f in enumerate(fields(kind)) if f.type == Workers]
    assert len(lists) <= 1, kind
    return lists[0] if lists else None


# read once: an option's kind is asked for every option of every greedy turn
_LIST_AT = {kind: at for kind in get_args(Event) if (at := _list_at(kind)) is not None}


BOTS: dict[str, Callable[[], Bot]] = {"random": RandomBot, "greedy": GreedyBot}


def table(players: int, config: Any, rng: random.Random, catalogue: Any) -> dict[str, Any]:
    """Header fields of a simulated table: players, the catalogue played with and its hash,
    and each player's shuffled paladin deck (PA-42)."""
    from .legal import shuffled_decks

    names = ["Ann", "Bob", "Cid", "Dee"]
    if not config.min_players <= players <= min(config.max_players, len(names)):
        raise ValueError(
            f"Paladins seats {config.min_players} to {config.max_players} players, not {players}"
        )
    seated = names[:players]
    return {
        "players": seated,
        "catalogue": Catalogue(
            name=catalogue.name, version=catalogue.version, sha256=catalogue.sha256
        ),
        "paladin_decks": shuffled_decks(seated, catalogue.ids("paladin"), rng),
    }
