"""Knight Academy's next moves: what the engine waits for, who decides it, every decision it
would accept, and chance's own moves (the deals) for the simulator."""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Iterable
from itertools import accumulate

from replay.game import CHANCE, Expecting

from .config import CARD_TRACKS, TRACKS
from .events import Bonus, Deal, Event, Lift, Pick, Play
from .rules import card_type_value
from .scoring import liftable
from .state import State


def expecting(state: State) -> Expecting:
    if state.phase == "deal":
        seats = tuple(s for s, done in enumerate(state.dealt) if not done)
        return Expecting(kind="deal", seats=seats, decider=CHANCE, detail={"round": state.round})
    if state.phase == "draft":
        seats = tuple(s for s, done in enumerate(state.has_picked) if not done)
        return Expecting(
            kind="pick", seats=seats, detail={"round": state.round, "step": state.step + 1}
        )
    if state.phase == "play":
        decider = state.start_player if state.turn == state.neutral_seat else state.turn
        return Expecting(
            kind="play",
            seats=(state.turn,),
            decider=decider,
            detail={"round": state.round, "played": state.played[state.turn] + 1},
        )
    if state.phase == "lift":
        return Expecting(
            kind="lift",
            seats=(state.start_player,),
            decider=state.start_player,
            detail={"round": state.round, "tracks": liftable(state, state.start_player)},
        )
    if state.phase == "bonus":
        seat, squares = state.bonuses[0]
        decider = state.start_player if seat == state.neutral_seat else seat
        return Expecting(
            kind="bonus",
            seats=(seat,),
            decider=decider,
            detail={"round": state.round, "squares": squares},
        )
    return Expecting(kind="nothing")


def legal_events(state: State, seat: int | None = None) -> list[Event]:
    """Every decision event the engine would accept next, or only those of `seat`.

    Deals are chance outcomes, not decisions: the simulator draws them (`chance_event`).
    """
    if state.phase == "draft":
        events: list[Event] = []
        seats = expecting(state).seats if seat is None else (seat,)
        for who in seats:
            if state.has_picked[who]:
                continue
            player = state.players[who]
            events.extend([Pick(player=player, card=card) for card in _pickable(state, who)])
        return events
    if state.phase == "play":
        if seat is not None and seat != state.turn:
            return []
        player = state.players[state.turn]
        plays: list[Event] = []
        for card in dict.fromkeys(state.picked[state.turn]):  # each card name once, in order
            tracks = CARD_TRACKS[card_type_value(card)[0]]
            if len(tracks) == 1:
                plays.append(Play(player=player, card=card))
            else:
                plays.extend([Play(player=player, card=card, track=track) for track in tracks])
        return plays
    if state.phase == "lift":
        start = state.start_player
        if seat is not None and seat != start:
            return []
        player = state.players[start]
        return [Lift(player=player, track=t) for t in (None, *liftable(state, start))]
    if state.phase == "bonus":
        owed = state.bonuses[0][0]
        if seat is not None and seat != owed:
            return []
        player = state.players[owed]
        return [Bonus(player=player, track=track) for track in (None, *TRACKS)]
    return []


def _pickable(state: State, seat: int) -> Iterable[str]:
    """The distinct cards `seat` may pick, in hand order; KA-19: the neutral seat only those
    of highest value."""
    hand = state.hands[seat]
    if seat == state.neutral_seat:
        best = max(card_type_value(card)[1] for card in hand)
        hand = [card for card in hand if card_type_value(card)[1] == best]
    return dict.fromkeys(hand)


def to_move(state: State) -> int:
    """The seat whose decision comes next (in the draft, the first that has not picked)."""
    if state.phase == "draft":
        return state.has_picked.index(False)
    if state.phase == "bonus":
        return state.bonuses[0][0]
    if state.phase == "lift":
        return state.start_player
    return state.turn


def chance_event(state: State, rng: random.Random) -> Event | None:
    """The next event when chance decides it, drawn with `rng`; None when a player decides.

    Chance deals (KA-4) and acts for the neutral seat (KA-19): a random card of the highest
    value when it picks, a random card when it plays. The start player's choices for it (a
    sword's track, its courage bonus) are made at random too: the simulator's reading.
    """
    phase = state.phase
    neutral = state.neutral_seat
    if phase == "deal":
        return deal_at_random(state, rng)
    if neutral is None:
        return None
    player = state.players[neutral]
    if phase == "draft" and not state.has_picked[neutral]:
        hand = state.hands[neutral]
        best = max(card_type_value(card)[1] for card in hand)
        return Pick(
            player=player,
            card=rng.choice([card for card in hand if card_type_value(card)[1] == best]),
        )
    if phase == "play" and state.turn == neutral:
        card = rng.choice(state.picked[neutral])
        tracks = CARD_TRACKS[card_type_value(card)[0]]
        return Play(player=player, card=card, track=rng.choice(tracks) if len(tracks) > 1 else None)
    if phase == "bonus" and state.bonuses[0][0] == neutral:
        return Bonus(player=player, track=rng.choice((None, *TRACKS)))
    return None


def deal_at_random(state: State, rng: random.Random) -> Deal:
    """A chance outcome for the simulator: the next seat's hand from the shuffled deck (KA-4)."""
    config = state.config
    deck = state.deck
    if not any(state.dealt) and sum(deck.values()) < config.hand_size * len(state.players):
        deck = {**deck}
        for card, count in state.discard.items():
            deck[card] = deck.get(card, 0) + count
    seat = state.dealt.index(False)
    # The deck's order of card names is fixed by the log, so the same rng deals the same cards.
    # Cards are drawn by their place in that order, and sampling places draws exactly what
    # sampling the cards themselves would, without laying out the whole deck.
    names = list(deck)
    ends = list(accumulate(deck.values()))  # the place after each name's last copy
    places = rng.sample(range(ends[-1] if ends else 0), config.hand_size)
    return Deal(
        player=state.players[seat],
        cards=[names[bisect_right(ends, p)] for p in places],
        round=state.round,
    )
