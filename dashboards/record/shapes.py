"""What the entry model asks of each game's dashboards package (`boards/<game>/entry.py`):
how its events read as taps (`SHAPE`), and its draws, chance that deals several components
at once (`draws(state)`), entered a component at a time in the order they come."""

from __future__ import annotations

import importlib
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import msgspec

from replay.registry import PACKAGES

from .menu import Shape, Token


@dataclass(frozen=True)
class Draw:
    """Chance dealing `count` components into the event's list field `field`: each from the
    pool of its stage, in turn (Paladins' tavern: the deck, then its discard shuffled)."""

    template: Any  # the event, its list to be filled
    field: str
    stages: tuple[tuple[Counter[str], int], ...]
    # What the seat dealt to may be told it can be dealt: the pools as its own view has them
    # (every card it has not seen), where the real pools would show by what they lack what
    # another seat was dealt. None: the real pools (a draw the table sees).
    offered: tuple[tuple[Counter[str], int], ...] | None = None

    @property
    def count(self) -> int:
        return sum(n for _, n in self.stages)

    @property
    def kind(self) -> str:
        return str(type(self.template).__struct_config__.tag)

    @property
    def label(self) -> tuple[Token, ...]:
        player = getattr(self.template, "player", None)
        return (Token("player", player),) if player is not None else (Token("kind", self.kind),)

    def next_values(self, drawn: Sequence[str]) -> list[str]:
        """What the next component may be, given those entered so far."""
        return _next(self.stages, drawn)

    def offered_values(self, drawn: Sequence[str]) -> list[str]:
        """What the seat dealt to is offered next: all the next component may be, as far as
        it can tell."""
        return _next(self.offered if self.offered is not None else self.stages, drawn)

    def event(self, drawn: Sequence[str]) -> Any:
        return msgspec.structs.replace(self.template, **{self.field: list(drawn)})

    def samples(self) -> list[Any]:
        """Two different draws, where there are two: enough to ask whether the table sees
        what was drawn."""
        first: list[str] = []
        for _ in range(self.count):
            first.append(self.next_values(first)[0])
        second = first[:-1]
        values = self.next_values(second)
        if len(values) < 2:
            return [self.event(first)]
        return [self.event(first), self.event([*second, values[-1]])]


def _next(stages: tuple[tuple[Counter[str], int], ...], drawn: Sequence[str]) -> list[str]:
    done = 0
    for pool, n in stages:
        if len(drawn) < done + n:
            left = pool - Counter(drawn[done:])
            return sorted(v for v, k in left.items() if k > 0)
        done += n
    return []


@dataclass(frozen=True)
class Learn:
    """What a seat learns at the table that the header had to say in advance (Paladins' deck
    order): the `count` components it has just seen, from `pool`. `actual` is what the header
    says now; `rewrite` gives the header's fields with the components seen in their place,
    consistent with every entry before."""

    player: str
    key: tuple[Any, ...]  # once entered, not asked again (the player and the round)
    pool: Counter[str]
    count: int
    actual: tuple[str, ...]
    rewrite: Callable[[Sequence[str]], dict[str, Any]]

    def next_values(self, seen: Sequence[str]) -> list[str]:
        left = self.pool - Counter(seen)
        return sorted(v for v, k in left.items() if k > 0)


def header_seat(state: Any, player: str) -> int | None:
    """The seat at the table of the player an event names: by default, its header seat."""
    players = list(state.players)
    return players.index(player) if player in players else None


@dataclass(frozen=True)
class Hooks:
    shape: Shape
    draws: Callable[[Any], list[Draw]] | None
    # The seat at the table (a header player's) that makes an event naming this player: a
    # game whose events name colours or a neutral seat says who plays them.
    person: Callable[[Any, str], int | None]
    # What each seat about to choose must first say it saw (its header order unknown until
    # then): by player.
    learn: Callable[[Any, Any, Sequence[Any]], list[Learn]] | None = None


def hooks(game: str) -> Hooks:
    try:
        module: Any = importlib.import_module(f"dashboards.boards.{PACKAGES[game]}.entry")
    except ModuleNotFoundError:
        module = SimpleNamespace()
    return Hooks(
        getattr(module, "SHAPE", Shape()),
        getattr(module, "draws", None),
        getattr(module, "person", header_seat),
        getattr(module, "learn", None),
    )
