"""Policies for simulated Knight Academy matches. Each chooses only among the options the
engine offers, and looks only at what its seat can see: its own hand and picks, and the
public tracks."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from replay import game

from .config import STANDARD
from .events import Assign, Bonus, Choose, Event, Lift, Mercy, Pick, Play, Shield, Split, Wager
from .lancelot import colours_of
from .rules import card_moves, card_type_value
from .scoring import positive_shields
from .state import State

COURAGE_POINT = 0.5  # a courage bonus square is worth about half a point to the bots
LATER = 0.7  # points at a later scoring are less certain than points this round


Bot = game.Bot[State, Sequence[Event], Event]


class RandomBot(Bot):
    name = "random"

    def choose(
        self, state: State, seat: int, options: Sequence[Event], rng: random.Random
    ) -> Event:
        return rng.choice(options)


class GreedyBot(Bot):
    """Values each option by the points it can still win or save on its track."""

    name = "greedy"

    def weight(self, state: State, track: str) -> float:
        return 1.0

    def value(self, state: State, seat: int, event: Event) -> float:
        if state.persons:  # KA-20: `seat` is the lancelot player; a colour's event names it
            if isinstance(event, (Split, Choose, Assign)):
                return self.hand_value(state, seat, event)
            seat = state.seats[getattr(event, "player", "")]
        if isinstance(event, Pick):
            squares, tracks = card_moves(event.card, state.config)
            return max(self.gain(state, seat, t, squares) for t in tracks)
        if isinstance(event, Play):
            squares, tracks = card_moves(event.card, state.config)
            track = event.track or tracks[0]
            return self.gain(state, seat, track, squares) + play_extras(state, seat, event)
        if isinstance(event, Bonus) and event.track is not None:
            return self.gain(state, seat, event.track, state.bonuses[0][1])
        if isinstance(event, Lift) and event.track is not None:
            return self.weight(state, event.track) * lift_gain(state, seat, event.track)
        if isinstance(event, Wager):  # KA-22b: the cards in hand that would count
            return float(
                sum(event.track in card_moves(card, state.config)[1] for card in state.hands[seat])
            )
        if isinstance(event, Shield):
            return shield_worth(state, seat, event.slot)
        if isinstance(event, Mercy):
            return -(event.give or 0) + float(sum(event.take))
        return 0.0

    def gain(self, state: State, seat: int, track: str, squares: int) -> float:
        return self.weight(state, track) * track_gain(state, seat, track, squares)

    def card_worth(self, state: State, seat: int, card: str) -> float:
        squares, tracks = card_moves(card, state.config)
        return max(self.gain(state, seat, t, squares) for t in tracks)

    def hand_value(self, state: State, person: int, event: Split | Choose | Assign) -> float:
        """KA-20: cards for a lancelot player's colours, each worth its best use by either
        (all laid under one colour when it assigns them)."""
        seats = colours_of(state, person)

        def worth(cards: Sequence[str]) -> float:
            return sum(max(self.card_worth(state, s, c) for s in seats) for c in cards)

        if isinstance(event, Assign):
            return sum(
                self.card_worth(state, state.seats[colour], card)
                for colour, cards in event.colours.items()
                for card in cards
            )
        if isinstance(event, Choose):  # the other player's pile it takes
            return worth(state.piles[1 - person][event.pile - 1])
        # A split: the other player takes the pile it likes, so count on the poorer one.
        return min(worth(pile) for pile in event.piles)

    def choose(
        self, state: State, seat: int, options: Sequence[Event], rng: random.Random
    ) -> Event:
        scored = [(self.value(state, seat, option), rng.random(), option) for option in options]
        return max(scored, key=lambda row: (row[0], row[1]))[2]


class FocusBot(GreedyBot):
    """Commits early to a few tracks: quest and charity over six rounds, or king for rounds
    3 and 6, and values their cards well above the rest."""

    name = "focus"
    PLANS = (("quest", "charity"), ("king", "quest"), ("king", "charity"))

    def __init__(self) -> None:
        self.plan: tuple[str, ...] = ()

    def choose(
        self, state: State, seat: int, options: Sequence[Event], rng: random.Random
    ) -> Event:
        if not self.plan:
            self.plan = rng.choice(self.PLANS)
        return super().choose(state, seat, options, rng)

    def value(self, state: State, seat: int, event: Event) -> float:
        base = super().value(state, seat, event)
        return 2.0 * base + 1.0 if set(_tracks_of(event)) & set(self.plan) else base


class DenierBot(GreedyBot):
    """In the draft, takes what the neighbour it passes to would want most."""

    name = "denier"
    DENIAL = 0.8

    def value(self, state: State, seat: int, event: Event) -> float:
        own = super().value(state, seat, event)
        if not isinstance(event, Pick):
            return own
        n = len(state.players)
        neighbour = (seat + state.config.pass_directions[state.round - 1]) % n
        squares, tracks = card_moves(event.card, state.config)
        theirs = max(track_gain(state, neighbour, t, squares) for t in tracks)
        return own + self.DENIAL * theirs


BOTS: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "focus": FocusBot,
    "denier": DenierBot,
}


# --- what a move is worth --------------------------------------------------------------------


def next_scoring(state: State, track: str) -> int | None:
    """The round whose scoring will count progress made now on `track`, if any."""
    config = state.config
    if track == "king" and "scrolls" in config.boards:
        return state.round if state.scrolls else None  # whenever a scroll is taken
    rounds = config.knight_rounds if track in ("white", "black") else None
    for rnd in range(state.round, config.rounds + 1):
        if track == "courage" or rnd in (rounds or config.scoring_rounds.get(track, ())):
            return rnd
        if rnd in config.reset_rounds and track in config.reset_tracks:
            return None
    return None


def play_extras(state: State, seat: int, event: Play) -> float:
    """What a play's codex peek (KA-22c) and scrolls (KA-22d) are worth to its seat: a look at
    a slot not yet seen, and a king's scoring by how far the seat leads it."""
    worth = 0.0
    if event.peek is not None and event.peek not in state.peeked[seat]:
        worth += 0.1
    if event.scrolls:
        awards = state.config.king_awards
        mine = _king_points(state.progress["king"][seat] + card_type_value(event.card)[1], awards)
        others = [
            _king_points(progress, awards)
            for other, progress in enumerate(state.progress["king"])
            if other != seat
        ]
        worth += len(event.scrolls) * (mine - sum(others) / max(1, len(others)))
    return worth


def _king_points(progress: int, awards: Sequence[tuple[int, int]]) -> float:
    return float(max((points for at, points in awards if progress >= at), default=0))


def shield_worth(state: State, seat: int, slot: int) -> float:
    """KA-22c: a codex shield's points where the seat has looked at it, else the mean of the
    shields it has not seen."""
    codex = state.codex
    seen = {s for s in state.peeked[seat] if codex[s - 1] is not None}
    if slot in seen:
        return float(codex[slot - 1] or 0)
    unseen = [v for s, v in enumerate(codex, 1) if v is not None and s not in seen]
    return sum(unseen) / len(unseen) if unseen else 0.0


def track_gain(state: State, seat: int, track: str, squares: int) -> float:
    """Points `seat` wins (or stops losing) on `track` at its next scoring by moving `squares`,
    as if the other discs stayed where they are."""
    rnd = next_scoring(state, track)
    if rnd is None:
        return 0.0
    before = _points_at(state, seat, track, 0)
    after = _points_at(state, seat, track, squares)
    return (after - before) * (1.0 if rnd == state.round else LATER)


def lift_gain(state: State, seat: int, track: str) -> float:
    """Points `seat` wins on `track` at its next scoring by lifting its disc (KA-21a)."""
    rnd = next_scoring(state, track)
    if rnd is None:
        return 0.0
    before = _points_at(state, seat, track, 0)
    after = _points_at(state, seat, track, 0, on_top=True)
    return (after - before) * (1.0 if rnd == state.round else LATER)


def _points_at(state: State, seat: int, track: str, squares: int, on_top: bool = False) -> float:
    config = state.config
    n = len(state.players)
    row = list(state.progress[track])
    stamps = list(state.arrival[track])
    if squares or on_top:  # a disc that moves (or is lifted) arrives on top (KA-8, KA-21a)
        row[seat] += squares
        stamps[seat] = state.clock + 1
    if track == "king":
        return _king_points(min(row[seat], config.king_cap), config.king_awards)
    podium = sorted(
        (s for s in range(n) if row[s] > 0), key=lambda s: (row[s], stamps[s]), reverse=True
    )
    if track == "quest" and "quest" in config.boards:  # KA-22e, by the shields held now
        shields = len(positive_shields(state, seat))
        place = podium.index(seat) if seat in podium else None
        rates = config.quest_shield_rates
        points, per = rates[place] if place is not None and place < len(rates) else (0, 1)
        return float(points * (shields // per))
    if track in ("education", "charity"):
        last, second = (
            config.education_penalties if track == "education" else config.charity_penalties
        )
        zeros = [s for s in range(n) if row[s] == 0]
        if len(zeros) >= 2:
            return float(last) if seat in zeros else 0.0
        bottom = zeros + podium[::-1]
        place = bottom.index(seat)
        return float(last if place == 0 else second if place == 1 else 0)
    if seat not in podium:
        return 0.0
    place = podium.index(seat)
    if track in ("white", "black"):  # KA-22a: the grail, as this move leaves it
        grail = state.grail + (squares if track == "white" else -squares)
        won = grail * (1 if track == "white" else -1) > 0
        prizes = config.winning_knight_prizes if won else config.losing_knight_prizes
    else:
        prizes = {
            "joust": config.joust_prizes,
            "tournament": config.tournament_prizes,
            "quest": config.quest_prizes,
            "courage": config.courage_bonus,
        }[track]
    limits = config.place_min_seats
    if place >= len(prizes) or (place < len(limits) and n < limits[place]):
        return 0.0
    return prizes[place] * (COURAGE_POINT if track == "courage" else 1.0)


def _tracks_of(event: Event) -> tuple[str, ...]:
    if isinstance(event, (Pick, Play)):
        track = getattr(event, "track", None)
        return (track,) if track else card_moves(event.card, STANDARD)[1]
    if isinstance(event, (Bonus, Lift)) and event.track is not None:
        return (event.track,)
    return ()


def lancelot_table(
    players: int, config: Any = None, rng: random.Random | None = None, catalogue: None = None
) -> dict[str, Any]:
    """KA-20: two players, each with two colours."""
    if players != 2:
        raise ValueError(f"lancelot seats 2 players, not {players}")
    return {"players": ["Ann", "Bob"], "variant": "lancelot"}


def table(
    players: int, config: Any = None, rng: random.Random | None = None, catalogue: None = None
) -> dict[str, Any]:
    """Header fields of a simulated table: 3–5 seats play the base game, 2 play gawain."""
    names = ["Ann", "Bob", "Cid", "Dee", "Eve"]
    if players == 2:
        return {"players": ["Ann", "Bob", "Gawain"], "variant": "gawain", "neutral": "Gawain"}
    if not 3 <= players <= len(names):
        raise ValueError(f"Knight Academy seats 2 (gawain) to 5 players, not {players}")
    return {"players": names[:players]}
