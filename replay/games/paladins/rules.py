"""The rules of Paladins (rules/paladins.md) as functions over `State`: a new game, and each
event to its handler, those of the round's flow (`flow.py`) and of a turn's actions
(`actions.py`), with the seat's ledger they share (`ledger.py`).

Each handler checks everything first and mutates after, so a rejected event leaves the state
untouched. Effects come from the catalogue's parsed strings (`effects.py`); no card is named
here. Final scoring lives in `scoring.py`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from replay.catalogues import CatalogueError
from replay.errors import RulesError
from replay.facts import Fact
from replay.game import Handler, dispatch

from . import actions, flow
from .catalogue import Catalogue, check
from .config import Config
from .events import (
    Event,
    Header,
)
from .state import Seat, State
from .words import MAIN_ACTIONS


def new_game(config: Config, header: Header, catalogue: Catalogue) -> State:
    """The state before the first reveal; RulesError if the header does not fit (PA-41) or
    the catalogue does not fit the ruleset (PA-42)."""
    try:
        check(catalogue, config)
    except CatalogueError as err:
        raise RulesError(
            "PA-42", f"catalogue {catalogue.name} {catalogue.version}: {err}"
        ) from None
    players = list(header.players)
    n = len(players)
    if not config.min_players <= n <= config.max_players:
        raise RulesError(
            "PA-41", f"Paladins seats {config.min_players} to {config.max_players} players, not {n}"
        )
    paladins = catalogue.ids("paladin")
    decks = header.paladin_decks
    if set(decks) != set(players):
        raise RulesError("PA-42", "paladin_decks needs one deck for each player, no more")
    for player, deck in decks.items():
        if sorted(deck) != sorted(paladins):
            raise RulesError(
                "PA-42",
                f"{player}'s paladin deck is not one of each of the "
                f"catalogue's {len(paladins)} paladins",
            )
    first = players.index(header.start_player)
    tracks = {
        "faith": config.start_faith,
        "strength": config.start_strength,
        "influence": config.start_influence,
    }
    return State(
        config=config,
        catalogue=catalogue,
        players=players,
        seats={p: s for s, p in enumerate(players)},
        first_player=first,
        start_player=first,
        phase="refill_townsfolk",
        board=[
            Seat(
                deck=list(decks[p]),
                silver=config.start_silver,
                provisions=config.start_provisions,
                tracks=dict(tracks),
                workshops=dict.fromkeys(MAIN_ACTIONS, 0),
            )
            for p in players
        ],
        townsfolk_deck=catalogue.ids("townsfolk"),
        outsider_deck=catalogue.ids("outsider"),
        wall_deck=catalogue.ids("wall"),
        suspicion_deck=catalogue.ids("suspicion"),
        order_deck=catalogue.ids("order"),
        favour_deck=catalogue.ids("favour"),
        tavern_deck=catalogue.ids("tavern"),
        townsfolk=[None] * config.townsfolk_slots,
        outsiders=[None] * config.outsider_slots,
    )


def is_over(state: State) -> bool:
    return state.phase == "over"


# --- apply ------------------------------------------------------------------------------------


_HANDLERS: dict[type, Handler] = {**flow.HANDLERS, **actions.HANDLERS}

apply: Callable[[State, Event], Sequence[Fact]] = dispatch(_HANDLERS, "a Paladins")

# `apply` for an event that `legal_events` listed: the same state and facts, without the
# checks that cannot fail then (the greedy bot's trials; tests/paladins holds the two equal).
apply_legal: Callable[[State, Event], Sequence[Fact]] = dispatch(
    {**flow.HANDLERS, **actions.LEGAL_HANDLERS}, "a Paladins"
)


__all__ = ["apply", "apply_legal", "is_over", "new_game"]
