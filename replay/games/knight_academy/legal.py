"""Knight Academy's next moves: what the engine waits for, who decides it, every decision it
would accept, and chance's own moves (the deals) for the simulator."""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Iterable, Iterator
from itertools import accumulate, combinations, permutations
from math import comb
from typing import cast

from replay.game import CHANCE, Expecting

from .boards import codex_set, mercy_terms, reachable_scrolls, wager_tracks
from .cards import card_type_value, moves_with
from .config import Track
from .events import (
    Assign,
    Bonus,
    Choose,
    Codex,
    Deal,
    Event,
    Lift,
    Mercy,
    Pick,
    Play,
    Shield,
    Split,
    Wager,
)
from .lancelot import chooser, colours_of, hand_size
from .scoring import liftable, negative_shields, positive_shields
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
        return Expecting(
            kind="bonus",
            seats=(seat,),
            decider=_decider(state, seat),
            detail={"round": state.round, "squares": squares},
        )
    if state.phase == "codex":
        return Expecting(kind="codex", decider=CHANCE, detail={"round": state.round})
    if state.phase == "wager":
        seats = tuple(s for s, track in enumerate(state.wagers) if track is None)
        return Expecting(kind="wager", seats=seats, detail={"round": state.round})
    if state.phase in ("split", "choose", "assign"):  # KA-20: the lancelot players decide
        waiting = _persons_to_act(state)
        seats = tuple(seat for person in waiting for seat in colours_of(state, person))
        return Expecting(
            kind=state.phase,
            seats=seats,
            decider=seats[0] if state.phase == "choose" else None,
            detail={"round": state.round, "lancelot": [state.persons[p] for p in waiting]},
        )
    if state.phase in ("shield", "mercy"):
        order = state.codex_order if state.phase == "shield" else state.mercy_order
        return Expecting(
            kind=state.phase,
            seats=(order[0],),
            decider=_decider(state, order[0]),
            detail={"round": state.round},
        )
    return Expecting(kind="nothing")


def fast_expected(state: State, event: Event) -> int | None:
    """`expected`'s cheap yes where replay spends its time (the draft, the play, the deal, the
    courage bonuses), from the phase and the turn: the seat of such an event expected now, only
    where `expecting` says yes too; None leaves the answer to it."""
    phase = state.phase
    if phase == "draft":
        if type(event) is Pick:
            seat = state.seats.get(event.player)
            if seat is not None and not state.has_picked[seat]:
                return seat
    elif phase == "play":
        if type(event) is Play and state.seats.get(event.player) == state.turn:
            return state.turn
    elif phase == "deal":
        if type(event) is Deal and not state.persons:  # KA-20: lancelot deals to its players, apart
            seat = state.seats.get(event.player)
            if seat is not None and not state.dealt[seat]:
                return seat
    elif phase == "bonus" and type(event) is Bonus:
        seat = state.bonuses[0][0]
        if state.seats.get(event.player) == seat:
            return seat
    return None


def _decider(state: State, seat: int) -> int:
    """KA-19: the start player decides for the neutral seat."""
    return state.start_player if seat == state.neutral_seat else seat


def _persons_to_act(state: State) -> list[int]:
    """KA-20: the lancelot players still to split, to choose (one at a time) or to lay cards."""
    if state.phase == "split":
        return [p for p, piles in enumerate(state.piles) if not piles]
    if state.phase == "choose":
        return [chooser(state)]
    return [p for p, held in enumerate(state.held) if held]


def legal_events(state: State, seat: int | None = None) -> list[Event]:
    """Every decision event the engine would accept next, or only those of `seat`.

    Deals are chance outcomes, not decisions: the simulator draws them (`chance_event`). In
    lancelot (KA-20) `seat` is one of the header's two players, for its colours' decisions.
    """
    if state.persons:
        return _lancelot_events(state, seat)
    return _seat_events(state, seat)


def _lancelot_events(state: State, person: int | None) -> list[Event]:
    phase = state.phase
    if phase not in ("split", "choose", "assign"):
        events = _seat_events(state, None)
        if person is None:
            return events
        return [e for e in events if state.owners[state.seats[e.player]] == person]  # type: ignore[union-attr]
    waiting = _persons_to_act(state)
    who = [p for p in waiting if person is None or p == person]
    out: list[Event] = []
    size = state.config.lancelot_pile
    for p in who:
        name = state.persons[p]
        if phase == "choose":
            out.extend(Choose(player=name, pile=pile) for pile in (1, 2))
        elif phase == "split":
            out.extend(
                Split(player=name, piles=[first, rest])
                for first, rest in _halves(state.held[p], size)
                if first <= rest  # each split once: the piles in order
            )
        else:
            a, b = (state.players[seat] for seat in colours_of(state, p))
            out.extend(
                Assign(player=name, colours={a: first, b: rest})
                for first, rest in _halves(state.held[p], size)
            )
    return out


def _halves(cards: list[str], size: int) -> list[tuple[list[str], list[str]]]:
    """Every way to take `size` of `cards` (as sorted lists), and the rest: each once."""
    seen: dict[tuple[str, ...], list[str]] = {}
    for chosen in combinations(range(len(cards)), size):
        first = sorted(cards[i] for i in chosen)
        seen.setdefault(
            tuple(first), sorted(cards[i] for i in range(len(cards)) if i not in chosen)
        )
    return [(list(first), rest) for first, rest in seen.items()]


def _seat_events(state: State, seat: int | None) -> list[Event]:
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
        return _plays(state, state.turn)
    if state.phase == "lift":
        start = state.start_player
        if seat is not None and seat != start:
            return []
        player = state.players[start]
        lifts = cast(list[Track], liftable(state, start))
        return [Lift(player=player, track=t) for t in (None, *lifts)]
    if state.phase == "bonus":
        owed = state.bonuses[0][0]
        if seat is not None and seat != owed:
            return []
        player = state.players[owed]
        tracks = cast(tuple[Track, ...], tuple(state.progress))
        return [Bonus(player=player, track=track) for track in (None, *tracks)]
    if state.phase == "wager":
        seats = expecting(state).seats if seat is None else (seat,)
        wagered = cast(list[Track], wager_tracks(state))
        return [
            Wager(player=state.players[who], track=track)
            for who in seats
            if state.wagers[who] is None
            for track in wagered
        ]
    if state.phase == "shield":
        who = state.codex_order[0]
        if seat is not None and seat != who:
            return []
        player = state.players[who]
        return [
            Shield(player=player, slot=slot)
            for slot, shield in enumerate(state.codex, 1)
            if shield is not None
        ]
    if state.phase == "mercy":
        who = state.mercy_order[0]
        if seat is not None and seat != who:
            return []
        return _swaps(state, who)
    return []


def _plays(state: State, seat: int) -> list[Event]:
    """KA-6: each card once, on each track it may move; with the codex an education card may
    peek at any slot (KA-22c); a king card may take any of the scrolls it reaches (KA-22d)."""
    player = state.players[seat]
    config = state.config
    boards = config.boards
    extras = "codex" in boards or "scrolls" in boards  # a play may do more than move a disc
    knights = "knights" in boards
    plays: list[Event] = []
    for card in dict.fromkeys(state.picked[seat]):  # each card name once, in order
        value, tracks = moves_with(card, knights)
        if len(tracks) == 1 and not extras:  # most plays of most matches: kept cheap
            plays.append(Play(player=player, card=card))
            continue
        for track in tracks:
            named = track if len(tracks) > 1 else None
            if not extras:
                plays.append(Play(player=player, card=card, track=named))
                continue
            peeks: tuple[int | None, ...] = (None,)
            if track == "education" and "codex" in boards:
                peeks += tuple(range(1, len(state.codex) + 1))
            reached = reachable_scrolls(state, seat, track, value)
            takes = [list(c) for k in range(len(reached) + 1) for c in combinations(reached, k)]
            plays.extend(
                Play(player=player, card=card, track=named, peek=peek, scrolls=taken)
                for peek in peeks
                for taken in takes
            )
    return plays


def _swaps(state: State, seat: int) -> list[Event]:
    """KA-22f: every swap charity's 1st or 2nd may make: a last seat, the negative shield it
    gives (one it must give when it holds one and someone takes it), the shields it takes."""
    config = state.config
    first, lasts, receiver = mercy_terms(state, seat)
    player = state.players[seat]
    most = config.mercy_takes[0 if first else 1]
    out: list[Event] = []
    for other in lasts:
        gets = receiver if not first else other
        gives: list[int | None] = [None]
        if gets is not None and negative_shields(state, seat):
            gives = [*sorted(set(negative_shields(state, seat)))]
        offered = sorted(p for p in positive_shields(state, other) if p <= config.mercy_max_value)
        takes = {c for k in range(min(most, len(offered)) + 1) for c in combinations(offered, k)}
        out.extend(
            Mercy(player=player, other=state.players[other], give=give, take=list(take))
            for give in gives
            for take in sorted(takes)
        )
    return out


def _pickable(state: State, seat: int) -> Iterable[str]:
    """The distinct cards `seat` may pick, in hand order; KA-19: the neutral seat only those
    of highest value."""
    hand = state.hands[seat]
    if seat == state.neutral_seat:
        best = max(card_type_value(card)[1] for card in hand)
        hand = [card for card in hand if card_type_value(card)[1] == best]
    return dict.fromkeys(hand)


def to_move(state: State) -> int:
    """The seat whose decision comes next (in the draft, the first that has not picked); in
    lancelot (KA-20), the header's player who decides it."""
    if state.persons:
        if state.phase in ("split", "choose", "assign"):
            return _persons_to_act(state)[0]
        return state.owners[_colour_to_move(state)]
    return _colour_to_move(state)


def _colour_to_move(state: State) -> int:
    if state.phase == "draft":
        return state.has_picked.index(False)
    if state.phase == "bonus":
        return state.bonuses[0][0]
    if state.phase == "lift":
        return state.start_player
    if state.phase == "wager":
        return state.wagers.index(None)
    if state.phase == "shield":
        return state.codex_order[0]
    if state.phase == "mercy":
        return state.mercy_order[0]
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
    if phase == "codex":  # KA-22c: the shields shuffled face down
        shields = codex_set(state)
        rng.shuffle(shields)
        return Codex(shields=shields, round=state.round)
    if neutral is None:
        return None
    if phase in ("wager", "shield", "mercy") and neutral in expecting(state).seats:
        return rng.choice(legal_events(state, neutral))
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
        options = [e for e in _plays(state, neutral) if cast(Play, e).card == card]
        return options[0] if len(options) == 1 else rng.choice(options)
    if phase == "bonus" and state.bonuses[0][0] == neutral:
        tracks = cast(tuple[Track, ...], tuple(state.progress))
        return Bonus(player=player, track=rng.choice((None, *tracks)))
    return None


def chance_outcomes(state: State) -> Iterator[tuple[Event, float | None]]:
    """Where chance decides: every hand a seat still to be dealt may get (KA-4; each multiset
    of cards once, in sorted order, its chance the deck's hypergeometric one, shared among the
    seats still to be dealt, whose order a log may choose), or every way to lay the codex's
    shields face down (KA-22c, each arrangement equally likely)."""
    if state.phase == "deal":
        deck = deal_deck(state)
        size = hand_size(state.config, bool(state.persons))
        names = list(deck)
        waiting = [s for s, done in enumerate(state.dealt) if not done]
        ways = comb(sum(deck.values()), size)
        who = state.persons or state.players
        for hand, count in _multisets(names, deck, size):
            for seat in waiting:
                yield (
                    Deal(player=who[seat], cards=hand, round=state.round),
                    count / ways / len(waiting),
                )
    elif state.phase == "codex":
        shields = sorted(codex_set(state))
        orders = sorted(set(permutations(shields)))
        for order in orders:
            yield Codex(shields=list(order), round=state.round), 1 / len(orders)


def deal_deck(state: State) -> dict[str, int]:
    """KA-4: the cards the next hand is dealt from (the discards shuffled in when short)."""
    deck = state.deck
    size = hand_size(state.config, bool(state.persons))
    if not any(state.dealt) and sum(deck.values()) < size * len(state.dealt):
        deck = {**deck}
        for card, count in state.discard.items():
            deck[card] = deck.get(card, 0) + count
    return {card: count for card, count in deck.items() if count}


def _multisets(
    names: list[str], counts: dict[str, int], size: int
) -> Iterator[tuple[list[str], int]]:
    """Every multiset of `size` cards of `counts`, sorted, with the ways to draw it."""
    ordered = sorted(names)

    def walk(i: int, left: int) -> Iterator[tuple[list[str], int]]:
        if left == 0:
            yield [], 1
            return
        if i == len(ordered):
            return
        name = ordered[i]
        for k in range(min(left, counts[name]), -1, -1):
            for rest, ways in walk(i + 1, left - k):
                yield [name] * k + rest, ways * comb(counts[name], k)

    yield from walk(0, size)


def deal_at_random(state: State, rng: random.Random) -> Deal:
    """A chance outcome for the simulator: the next seat's hand from the shuffled deck (KA-4)."""
    config = state.config
    deck = deal_deck(state)
    seat = state.dealt.index(False)
    size = hand_size(config, bool(state.persons))
    # The deck's order of card names is fixed by the log, so the same rng deals the same cards.
    # Cards are drawn by their place in that order, and sampling places draws exactly what
    # sampling the cards themselves would, without laying out the whole deck.
    names = list(deck)
    ends = list(accumulate(deck.values()))  # the place after each name's last copy
    places = rng.sample(range(ends[-1] if ends else 0), size)
    return Deal(
        player=(state.persons or state.players)[seat],
        cards=[names[bisect_right(ends, p)] for p in places],
        round=state.round,
    )
