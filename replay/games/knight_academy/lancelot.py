"""Lancelot (KA-20), Knight Academy's two-player variant: each player plays two colours, splits
its hand into piles the other chooses from, and lays three cards under each colour. The
round's flow around these is rules.py's."""

from __future__ import annotations

from typing import Any

from replay.errors import IllegalEvent, RulesError

from .config import Config
from .events import Assign, Choose, Header, Split
from .state import State


def hand_size(config: Config, lancelot: bool) -> int:
    """KA-4: the cards each hand is dealt; KA-20: a lancelot player's."""
    return config.lancelot_hand if lancelot else config.hand_size


def colours(header: Header) -> dict[str, list[str]]:
    """KA-20: each player's two colours, as the header names them or as the seed does."""
    first, second = header.players
    colours = header.colours or {first: ["blue", "green"], second: ["yellow", "red"]}
    names = [c for player in header.players for c in colours.get(player, [])]
    if (
        set(colours) != set(header.players)
        or any(len(colours[p]) != 2 for p in header.players)
        or len(set(names)) != 4
        or set(names) & set(header.players)
    ):
        raise RulesError(
            "KA-20",
            "lancelot's `colours` gives each of the two players two colours of its own, "
            "none of them a player's name",
        )
    return colours


def person_of(state: State, event: Any, rule: str) -> int:
    """KA-20: the lancelot player an event names (its colours' events name the colour)."""
    if event.player not in state.persons:
        raise IllegalEvent(
            rule,
            f"{event.player!r} is not a player here: the players are {', '.join(state.persons)}"
            f" (a colour's own events name the colour)",
        )
    return state.persons.index(event.player)


def colour_of(state: State, event: Any, rule: str) -> int:
    """KA-20: the first colour of the lancelot player an event names: `expecting` waits on a
    player's colours for its split, its choice and its cards laid."""
    return colours_of(state, person_of(state, event, rule))[0]


def colours_of(state: State, person: int) -> list[int]:
    """KA-20: the seats of a lancelot player's two colours."""
    return [seat for seat, owner in enumerate(state.owners) if owner == person]


def start_person(state: State) -> int:
    """KA-20: the lancelot player whose colour starts the round."""
    return state.owners[state.start_player]


def chooser(state: State) -> int:
    """KA-20: the start player chooses first, then the other player."""
    first = start_person(state)
    return first if state.chosen is None else 1 - first


def split(state: State, event: Split, person: int) -> bool:
    """KA-20: the two piles of a player still to split, checked; whether both have split now."""
    size = state.config.lancelot_pile
    held = state.held[person]
    if [len(pile) for pile in event.piles] != [size, size] or sorted(
        event.piles[0] + event.piles[1]
    ) != sorted(held):
        raise IllegalEvent(
            "KA-20",
            f"{event.player} splits its hand ({', '.join(held)}) into two piles of {size}",
        )
    state.piles[person] = [list(pile) for pile in event.piles]
    return all(state.piles)


def choose(state: State, event: Choose, person: int) -> bool:
    """KA-20: the chooser's choice of the other's piles, checked; whether both have chosen now."""
    if event.pile not in (1, 2):
        raise IllegalEvent("KA-20", f"a pile is 1 or 2, not {event.pile}")
    if state.chosen is None:
        state.chosen = event.pile
        return False
    # Both have chosen: each takes the other's chosen pile and keeps its own other one.
    first = 1 - person
    piles = state.piles
    state.held[first] = piles[person][state.chosen - 1] + piles[first][2 - event.pile]
    state.held[person] = piles[first][event.pile - 1] + piles[person][2 - state.chosen]
    state.piles = [[] for _ in state.persons]
    state.chosen = None
    return True


def assign(state: State, event: Assign, person: int) -> bool:
    """KA-20: the cards of a player still to lay them under its colours, checked; whether both
    have laid them."""
    seats = colours_of(state, person)
    names = [state.players[seat] for seat in seats]
    size = state.config.lancelot_pile
    given = event.colours
    if (
        sorted(given) != sorted(names)
        or any(len(cards) != size for cards in given.values())
        or sorted(c for cards in given.values() for c in cards) != sorted(state.held[person])
    ):
        raise IllegalEvent(
            "KA-20",
            f"{event.player} lays its cards ({', '.join(state.held[person])}) {size} under each "
            f"of {' and '.join(names)}",
        )
    for seat in seats:
        state.picked[seat] = list(given[state.players[seat]])
    state.held[person] = []
    return not any(state.held)
