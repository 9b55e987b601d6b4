"""How a Paladins match is entered at the table: an action by what it takes first (a card,
a square), the workers sent last; a display's refill and the tavern's cards one at a time,
in the order they come off the deck (PA-54, PA-9).

The header lists each paladin deck in order (PA-42), which nobody at a table knows: a seat
says which paladins it drew before it chooses (PA-10), and the deck's order is rewritten to
fit, the cards in the order they first came off it, the unseen ones after (the format's own
reading, rules/paladins-catalogue.md section 6)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from dashboards.record.menu import Shape
from dashboards.record.shapes import Draw, Learn
from replay.games.paladins.events import (
    ChoosePaladin,
    RevealOutsiders,
    RevealTavern,
    RevealTownsfolk,
)
from replay.games.paladins.ledger import refill_due
from replay.games.paladins.state import State

SHAPE = Shape(last=("workers", "keep", "pay", "silver"))


def draws(state: State) -> list[Draw]:
    phase = state.phase
    if phase in ("refill_townsfolk", "refill_outsiders"):
        townsfolk = phase == "refill_townsfolk"
        deck = state.townsfolk_deck if townsfolk else state.outsider_deck
        template = RevealTownsfolk(cards=[]) if townsfolk else RevealOutsiders(cards=[])
        return [Draw(template, "cards", ((Counter(deck), refill_due(state, townsfolk)),))]
    if phase == "tavern":
        want = len(state.players) + state.config.tavern_extra
        deck = state.tavern_deck
        stages = [(Counter(deck), min(want, len(deck)))]
        if len(deck) < want:  # PA-48: the discard shuffled into a new deck for the rest
            stages.append((Counter(state.tavern_discard), want - len(deck)))
        return [Draw(RevealTavern(cards=[], round=state.round), "cards", tuple(stages))]
    return []


def learn(state: State, header: Any, events: Sequence[Any]) -> list[Learn]:
    """Each seat about to choose its paladin whose top cards it has not seen before."""
    if state.phase != "paladins":
        return []
    seen: dict[str, set[str]] = {player: set() for player in state.players}
    for event in events:
        if isinstance(event, ChoosePaladin):
            seen[event.player] |= {event.paladin, event.top, event.bottom}
    draw = state.config.paladin_draw
    found = []
    for seat, me in enumerate(state.board):
        player = state.players[seat]
        unknown = [card for card in me.deck[:draw] if card not in seen[player]]
        if me.paladin is not None or not unknown:
            continue
        found.append(
            Learn(
                player=player,
                key=(player, state.round),
                pool=Counter(card for card in me.deck if card not in seen[player]),
                count=len(unknown),
                actual=tuple(unknown),
                rewrite=_rewrite(header, player, unknown),
            )
        )
    return found


def _rewrite(header: Any, player: str, unknown: list[str]) -> Any:
    def rewrite(drawn: Sequence[str]) -> dict[str, Any]:
        deck = list(header.paladin_decks[player])
        out = [card for card in unknown if card not in drawn]
        into = [card for card in drawn if card not in unknown]
        for old, new in zip(out, into):  # both unseen so far: their places are free to swap
            i, j = deck.index(old), deck.index(new)
            deck[i], deck[j] = deck[j], deck[i]
        return {"paladin_decks": {**header.paladin_decks, player: deck}}

    return rewrite
