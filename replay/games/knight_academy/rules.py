"""The rules of Knight Academy (rules/knight-academy.md) as functions over `State`.

`apply` checks first and mutates after, so a rejected event leaves the state untouched.
Scoring (phase 4) lives in `scoring.py`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

from replay.errors import IllegalEvent, RulesError
from replay.facts import Fact, TrackMoved
from replay.game import check_round, dispatch, seat_of

from .config import CARD_TRACKS, TRACKS, Config, Track
from .events import Bonus, Deal, Event, Header, Lift, Pick, Play
from .scoring import (
    SOURCES,
    courage_bonuses,
    lift_disc,
    liftable,
    move_disc,
    rank_reset,
    score_round,
    step_back,
)
from .state import State

NO_FACTS: tuple[Fact, ...] = ()  # most events establish nothing the warehouse keeps


@cache
def card_type_value(card: str) -> tuple[str, int]:
    kind, _, value = card.rpartition("-")
    return kind, int(value)


@cache
def card_moves(card: str) -> tuple[int, tuple[Track, ...]]:
    """KA-6: how far a card moves a disc, and the tracks it may move."""
    kind, value = card_type_value(card)
    return value, CARD_TRACKS[kind]


def new_game(config: Config, header: Header, catalogue: None = None) -> State:
    """The state before the first deal; RulesError if the header does not fit the game."""
    players = list(header.players)
    neutral = _check_seats(config, header)
    start = players.index(header.start_player)
    if start == neutral:
        raise RulesError("KA-19", f"the neutral seat {header.neutral} never starts")
    n = len(players)
    cards_needed = config.hand_size * n
    if sum(config.deck.values()) < cards_needed:
        raise RulesError("KA-4", f"a deck of {sum(config.deck.values())} cannot deal {n} hands")
    return State(
        config=config,
        players=players,
        seats={player: seat for seat, player in enumerate(players)},
        neutral_seat=neutral,
        start_player=start,
        turn=start,
        deck=dict(config.deck),
        discard={},
        dealt=[False] * n,
        hands=[[] for _ in players],
        picked=[[] for _ in players],
        has_picked=[False] * n,
        played=[0] * n,
        progress={track: [0] * n for track in TRACKS},
        arrival={track: [0] * n for track in TRACKS},
        points=[dict.fromkeys(SOURCES, 0) for _ in players],
    )


def _check_seats(config: Config, header: Header) -> int | None:
    n = len(header.players)
    if header.variant == "base":
        if header.neutral is not None:
            raise RulesError("KA-19", "only the gawain variant has a neutral seat")
        if not config.min_players <= n <= config.max_players:
            raise RulesError(
                "KA-3", f"the base game seats {config.min_players} to {config.max_players}, not {n}"
            )
        return None
    if header.variant == "gawain":
        if n != 3 or header.neutral not in header.players:
            raise RulesError(
                "KA-19", "gawain seats two players and the neutral seat named by `neutral`"
            )
        return header.players.index(header.neutral)
    if header.variant == "lancelot":
        raise RulesError("KA-20", "the lancelot variant is not supported yet")
    raise RulesError("LOG-3", f"unknown variant {header.variant!r}; known: base, gawain")


def is_over(state: State) -> bool:
    return state.phase == "over"


# --- apply ---------------------------------------------------------------------------------


def _deal(state: State, event: Deal) -> Sequence[Fact]:
    config = state.config
    if state.phase != "deal":
        raise IllegalEvent("KA-4", f"{event.player} is dealt cards during the {_phase(state)}")
    seat = seat_of(state, event, "KA-4")
    check_round(state, event.round, "KA-4", "deal")
    if state.dealt[seat]:
        raise IllegalEvent("KA-4", f"{event.player} was already dealt in round {state.round}")
    if len(event.cards) != config.hand_size:
        raise IllegalEvent(
            "KA-4", f"{event.player} is dealt {len(event.cards)} cards, not {config.hand_size}"
        )
    reshuffle = not any(state.dealt) and sum(state.deck.values()) < config.hand_size * len(
        state.players
    )
    deck = state.deck
    if reshuffle:
        deck = Counter(deck)
        deck.update(state.discard)
    wanted_counts: dict[str, int] = {}
    for card in event.cards:
        wanted_counts[card] = wanted_counts.get(card, 0) + 1
    for card, wanted in wanted_counts.items():
        if card not in config.deck:
            raise IllegalEvent("KA-2", f"{card!r} is not a card of this game")
        if deck.get(card, 0) < wanted:
            raise IllegalEvent(
                "KA-4",
                f"{event.player} is dealt {wanted}× {card} but the deck holds {deck.get(card, 0)}"
                + ("" if reshuffle else " (the discard pile is not reshuffled yet)"),
            )
    # KA-4: a short deck takes the discards back before the round's first hand.
    if reshuffle:
        for card, count in state.discard.items():
            state.deck[card] = state.deck.get(card, 0) + count
        state.discard.clear()
    for card in event.cards:
        state.deck[card] -= 1
    state.hands[seat] = list(event.cards)
    state.dealt[seat] = True
    if all(state.dealt):
        state.phase = "draft"
        state.step = 0
    return NO_FACTS


def _check_card(state: State, card: str) -> None:
    if card not in state.config.deck:
        raise IllegalEvent("KA-2", f"{card!r} is not a card of this game")


def _pick(state: State, event: Pick) -> Sequence[Fact]:
    card = event.card
    if state.phase != "draft":
        raise IllegalEvent("KA-5", f"{event.player} picks {card} during the {_phase(state)}")
    seat = seat_of(state, event, "KA-5")
    has_picked = state.has_picked
    if has_picked[seat]:
        raise IllegalEvent(
            "KA-5", f"{event.player} already picked in step {state.step + 1} of round {state.round}"
        )
    hand = state.hands[seat]
    if card not in hand:
        _check_card(state, card)
        raise IllegalEvent("KA-5", f"{event.player} picks {card} but holds {', '.join(hand)}")
    if seat == state.neutral_seat:
        best = max(card_type_value(held)[1] for held in hand)
        if card_type_value(card)[1] != best:
            raise IllegalEvent(
                "KA-19", f"the neutral seat takes a card of the highest value ({best}), not {card}"
            )
    hand.remove(card)
    state.picked[seat].append(card)
    has_picked[seat] = True
    if all(has_picked):
        _pass_hands(state)
    return NO_FACTS


def _pass_hands(state: State) -> None:
    """KA-5: when every seat has picked, hands pass; after the last step the draft ends."""
    n = len(state.players)
    direction = state.config.pass_directions[state.round - 1]
    hands = state.hands
    state.hands = [hands[(seat - direction) % n] for seat in range(n)]
    state.has_picked = [False] * n
    state.step += 1
    if state.step == state.config.hand_size:
        state.phase = "play"
        state.turn = state.start_player


def _play(state: State, event: Play) -> Sequence[Fact]:
    card = event.card
    if state.phase != "play":
        raise IllegalEvent("KA-6", f"{event.player} plays {card} during the {_phase(state)}")
    seat = seat_of(state, event, "KA-6")
    if seat != state.turn:
        raise IllegalEvent(
            "KA-6", f"{event.player} plays out of turn: it is {state.players[state.turn]}'s turn"
        )
    cards = state.picked[seat]
    if card not in cards:
        _check_card(state, card)
        raise IllegalEvent("KA-6", f"{event.player} plays {card} but holds {', '.join(cards)}")
    value, tracks = card_moves(card)
    track = event.track
    if track is None:
        if len(tracks) > 1:
            raise IllegalEvent("KA-6", f"{card} needs a track: {' or '.join(tracks)}")
        track = tracks[0]
    elif track not in tracks:
        raise IllegalEvent("KA-6", f"{card} moves {' or '.join(tracks)}, not {track}")
    cards.remove(card)
    discard = state.discard
    discard[card] = discard.get(card, 0) + 1
    facts: list[Fact] = [move_disc(state, seat, track, value, "card")]
    played = state.played
    played[seat] += 1
    state.turn = turn = (seat + 1) % len(played)
    if played[turn] == state.config.plays_per_round:
        _end_play(state, facts)
    return facts


def _end_play(state: State, facts: list[Fact]) -> None:
    """KA-6: the unplayed cards are discarded; then the scoring phase: the start player's lift
    where the advanced rules allow one (KA-21a), the courage bonuses (KA-10), the scoring."""
    for cards in state.picked:
        for card in cards:
            state.discard[card] = state.discard.get(card, 0) + 1
        cards.clear()
    state.lifts_left = state.config.lifts
    _lift_or_bonuses(state, facts)


def _lift_or_bonuses(state: State, facts: list[Fact]) -> None:
    if state.lifts_left and liftable(state, state.start_player):
        state.phase = "lift"
        return
    state.lifts_left = 0
    state.bonuses = courage_bonuses(state)
    state.rewarded = [seat for seat, _ in state.bonuses]
    if state.bonuses:
        state.phase = "bonus"
    else:
        _finish_round(state, facts)


def _lift(state: State, event: Lift) -> Sequence[Fact]:
    if state.phase != "lift":
        raise IllegalEvent("KA-21", f"{event.player} lifts a disc during the {_phase(state)}")
    seat = seat_of(state, event, "KA-21")
    if seat != state.start_player:
        start = state.players[state.start_player]
        raise IllegalEvent("KA-21", f"only the start player ({start}) may lift a disc")
    track = event.track
    if track is not None and track not in liftable(state, seat):
        raise IllegalEvent(
            "KA-21",
            f"{event.player}'s {track} disc is under no disc on its square; it may lift on "
            f"{', '.join(liftable(state, seat))}",
        )
    facts: list[Fact] = []
    if track is None:
        state.lifts_left = 0
    else:
        lift_disc(state, seat, track)
        state.lifts_left -= 1
    _lift_or_bonuses(state, facts)
    return facts


def _bonus(state: State, event: Bonus) -> Sequence[Fact]:
    if state.phase != "bonus":
        raise IllegalEvent(
            "KA-10", f"{event.player} takes a courage bonus during the {_phase(state)}"
        )
    seat = seat_of(state, event, "KA-10")
    owed_seat, squares = state.bonuses[0]
    if seat != owed_seat:
        order = ", ".join(state.players[s] for s, _ in state.bonuses)
        raise IllegalEvent(
            "KA-10",
            f"{event.player} is not the seat to take a courage bonus now; still owed, in order: "
            f"{order}",
        )
    facts: list[Fact] = []
    if event.track is not None:
        facts.append(move_disc(state, seat, event.track, squares, "bonus"))
    del state.bonuses[0]
    if not state.bonuses:
        back = state.config.courage_step_back
        if back:  # KA-21b: the rewarded seats' courage discs go back, in the bonuses' order
            facts.extend(
                step_back(state, s, "courage", back, "step_back")
                for s in state.rewarded
                if state.progress["courage"][s]
            )
        _finish_round(state, facts)
    return facts


def _finish_round(state: State, facts: list[Fact]) -> None:
    """KA-11 to KA-17: score the round, reset after round 3, pass the start player, next round."""
    config = state.config
    facts.extend(score_round(state))
    if state.round in config.reset_rounds:
        for track in config.reset_tracks:  # KA-16; KA-21c: some by rank
            row = state.progress[track]
            ranks = track in config.rank_reset_tracks
            after = rank_reset(state, track) if ranks else [0] * len(row)
            for seat, before in enumerate(row):
                if before != after[seat]:
                    facts.append(
                        TrackMoved(
                            round=state.round,
                            seat=seat,
                            track=track,
                            before=before,
                            after=after[seat],
                            cause="reset",
                        )
                    )
            state.progress[track] = after
            # Every disc left above the start is alone on its square: stamped from the last up
            stamps = [0] * len(row)
            for seat in sorted(range(len(row)), key=after.__getitem__):
                if after[seat]:
                    state.clock += 1
                    stamps[seat] = state.clock
            state.arrival[track] = stamps
    n = len(state.players)
    start = (state.start_player + 1) % n  # KA-17; KA-19: the neutral seat never starts
    if start == state.neutral_seat:
        start = (start + 1) % n
    state.start_player = start
    state.played = [0] * n
    state.rewarded = []
    if state.round == config.rounds:
        state.phase = "over"  # KA-18
        return
    state.round += 1
    state.phase = "deal"
    state.dealt = [False] * n
    state.step = 0


_HANDLERS: dict[type, Callable[[State, Any], Sequence[Fact]]] = {
    Deal: _deal,
    Pick: _pick,
    Play: _play,
    Bonus: _bonus,
    Lift: _lift,
}

apply: Callable[[State, Event], Sequence[Fact]] = dispatch(_HANDLERS, "a Knight Academy")


def _phase(state: State) -> str:
    names = {
        "deal": "deal",
        "draft": "draft",
        "play": "play phase",
        "lift": "lift before scoring",
        "bonus": "courage bonuses",
    }
    return f"{names.get(state.phase, state.phase)} of round {state.round}"
