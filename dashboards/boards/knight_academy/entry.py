"""How a Knight Academy match is entered at the table: a hand is dealt a card at a time, in
the order the cards come (KA-4), to the seat that receives it; a colour's entries are made by
the lancelot player it belongs to (KA-20), the neutral seat's by the start player (KA-19)."""

from __future__ import annotations

from collections import Counter

from dashboards.record.shapes import Draw
from replay.games.knight_academy.events import Deal
from replay.games.knight_academy.lancelot import hand_size
from replay.games.knight_academy.legal import deal_deck
from replay.games.knight_academy.state import State
from replay.games.knight_academy.view import unseen, view


def draws(state: State) -> list[Draw]:
    if state.phase != "deal":
        return []
    deck = Counter(deal_deck(state))
    size = hand_size(state.config, bool(state.persons))
    who = state.persons or state.players
    return [
        Draw(
            Deal(player=who[seat], cards=[], round=state.round),
            "cards",
            ((deck, size),),
            offered=((_could_be_dealt(state, seat), size),),
        )
        for seat, done in enumerate(state.dealt)
        if not done
    ]


def _could_be_dealt(state: State, seat: int) -> Counter[str]:
    """KA-4: what the person dealing this seat's hand cannot tell from the deck: every card
    it has not seen, the discards too once a short deck takes them back (the deck's size is
    open). A neutral seat's hand is dealt by the start player (KA-19)."""
    at = seat if state.persons else person(state, state.players[seat])
    pool = unseen(view(state, seat if at is None else at))
    size = hand_size(state.config, bool(state.persons))
    if not any(state.dealt) and sum(state.deck.values()) < size * len(state.dealt):
        pool.update(state.discard)
    return pool


def person(state: State, player: str) -> int | None:
    if state.persons:
        if player in state.persons:
            return state.persons.index(player)
        if player in state.players:
            return state.owners[state.players.index(player)]
        return None
    if player not in state.players:
        return None
    seat = state.players.index(player)
    return state.start_player if seat == state.neutral_seat else seat
