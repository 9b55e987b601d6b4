"""The rules of Knight Academy (rules/knight-academy.md) as functions over `State`.

`apply` checks first and mutates after, so a rejected event leaves the state untouched.
Scoring (phase 4) lives in `scoring.py`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from replay.errors import IllegalEvent, RulesError
from replay.facts import Fact, TrackMoved
from replay.game import check_round, dispatch, expected, seat_of

from .boards import (
    check_peek,
    check_scrolls,
    lay_codex,
    pay_wagers,
    swap,
    take_shield,
    variant_play,
    wager,
)
from .cards import card_moves as card_moves  # the bots read these from here too
from .cards import card_type_value as card_type_value
from .cards import moves_with
from .config import KNIGHTS, Config
from .events import (
    Assign,
    Bonus,
    Choose,
    Codex,
    Deal,
    Event,
    Header,
    Lift,
    Mercy,
    Pick,
    Play,
    Shield,
    Split,
    Wager,
)
from .lancelot import assign, choose, colour_of, colours, hand_size, person_of, split
from .legal import expecting, fast_expected
from .scoring import (
    courage_bonuses,
    lift_disc,
    liftable,
    move_disc,
    rank_reset,
    ranked,
    score_round,
    standings,
    step_back,
)
from .state import State

NO_FACTS: tuple[Fact, ...] = ()  # most events establish nothing the warehouse keeps


def new_game(config: Config, header: Header, catalogue: None = None) -> State:
    """The state before the first deal; RulesError if the header does not fit the game."""
    neutral = _check_seats(config, header)
    persons = list(header.players)
    owners = list(range(len(persons)))
    players = persons
    start = persons.index(header.start_player)
    hands = len(persons)
    if header.variant == "lancelot":  # KA-20: four seats, a colour each, round the table
        named = colours(header)
        first, second = persons
        players = [named[first][0], named[second][0], named[first][1], named[second][1]]
        owners = [0, 1, 0, 1]
        start = players.index(named[header.start_player][0])
    elif start == neutral:
        raise RulesError("KA-19", f"the neutral seat {header.neutral} never starts")
    n = len(players)
    if "codex" in config.boards and len(config.codex_shields) > n:
        raise RulesError(
            "KA-22c", f"the codex's {len(config.codex_shields)} shields need a seat each"
        )
    cards_needed = hand_size(config, header.variant == "lancelot") * hands
    if sum(config.deck.values()) < cards_needed:
        raise RulesError("KA-4", f"a deck of {sum(config.deck.values())} cannot deal {n} hands")
    lancelot = header.variant == "lancelot"
    return State(
        config=config,
        players=players,
        seats={player: seat for seat, player in enumerate(players)},
        neutral_seat=neutral,
        start_player=start,
        turn=start,
        deck=dict(config.deck),
        discard={},
        dealt=[False] * hands,
        hands=[[] for _ in players],
        picked=[[] for _ in players],
        has_picked=[False] * n,
        played=[0] * n,
        progress={track: [0] * n for track in config.tracks},
        arrival={track: [0] * n for track in config.tracks},
        points=[dict.fromkeys(config.sources, 0) for _ in players],
        shields=[[] for _ in players] if {"quest", "mercy"} & set(config.boards) else [],
        played_on=[{} for _ in players] if "wager" in config.boards else [],
        scrolls=list(config.scroll_squares) if "scrolls" in config.boards else [],
        owners=owners,
        persons=persons if lancelot else [],
        held=[[] for _ in persons] if lancelot else [],
        piles=[[] for _ in persons] if lancelot else [],
    )


def _check_seats(config: Config, header: Header) -> int | None:
    n = len(header.players)
    if header.variant != "lancelot" and header.colours is not None:
        raise RulesError("KA-20", "only the lancelot variant names colours")
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
        if n != 2 or header.neutral is not None:
            raise RulesError("KA-20", f"lancelot seats two players, not {n}, and no neutral seat")
        return None
    raise RulesError("LOG-3", f"unknown variant {header.variant!r}; known: base, gawain, lancelot")


def is_over(state: State) -> bool:
    return state.phase == "over"


# --- apply ---------------------------------------------------------------------------------


def _deal(state: State, event: Deal) -> Sequence[Fact]:
    config = state.config
    lancelot = bool(state.persons)  # KA-20: a deal names one of the two players
    who = person_of if lancelot else seat_of
    seat = expected(state, event, expecting, "KA-4", seat=who, fast=fast_expected)
    check_round(state, event.round, "KA-4", "deal")
    size = hand_size(config, lancelot)
    if len(event.cards) != size:
        raise IllegalEvent("KA-4", f"{event.player} is dealt {len(event.cards)} cards, not {size}")
    reshuffle = not any(state.dealt) and sum(state.deck.values()) < size * len(state.dealt)
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
    (state.held if lancelot else state.hands)[seat] = list(event.cards)
    state.dealt[seat] = True
    if all(state.dealt):
        _before_draft(state, "deal")
    return NO_FACTS


def _before_draft(state: State, done: str) -> None:
    """After the deal: the codex's shields (KA-22c), then the wagers (KA-22b), then the draft."""
    boards = state.config.boards
    if done == "deal" and "codex" in boards:
        state.phase = "codex"
    elif done != "wager" and "wager" in boards:
        state.phase = "wager"
        state.wagers = [None] * len(state.players)
    else:
        state.phase = "split" if state.persons else "draft"  # KA-20: lancelot splits instead
        state.step = 0


def _split(state: State, event: Split) -> Sequence[Fact]:
    seat = expected(state, event, expecting, "KA-20", seat=colour_of, fast=fast_expected)
    if split(state, event, state.owners[seat]):
        state.phase = "choose"
    return NO_FACTS


def _choose(state: State, event: Choose) -> Sequence[Fact]:
    seat = expected(state, event, expecting, "KA-20", seat=colour_of, fast=fast_expected)
    if choose(state, event, state.owners[seat]):
        state.phase = "assign"
    return NO_FACTS


def _assign(state: State, event: Assign) -> Sequence[Fact]:
    seat = expected(state, event, expecting, "KA-20", seat=colour_of, fast=fast_expected)
    if assign(state, event, state.owners[seat]):
        state.phase = "play"
        state.turn = state.start_player
    return NO_FACTS


def _codex(state: State, event: Codex) -> Sequence[Fact]:
    expected(state, event, expecting, "KA-22c", fast=fast_expected)
    lay_codex(state, event)
    _before_draft(state, "codex")
    return NO_FACTS


def _wager(state: State, event: Wager) -> Sequence[Fact]:
    seat = expected(state, event, expecting, "KA-22b", fast=fast_expected)
    if wager(state, event, seat):
        _before_draft(state, "wager")
    return NO_FACTS


def _check_card(state: State, card: str) -> None:
    if card not in state.config.deck:
        raise IllegalEvent("KA-2", f"{card!r} is not a card of this game")


def _pick(state: State, event: Pick) -> Sequence[Fact]:
    card = event.card
    seat = expected(state, event, expecting, "KA-5", fast=fast_expected)
    has_picked = state.has_picked
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
    seat = expected(state, event, expecting, "KA-6", fast=fast_expected)
    cards = state.picked[seat]
    if card not in cards:
        _check_card(state, card)
        raise IllegalEvent("KA-6", f"{event.player} plays {card} but holds {', '.join(cards)}")
    boards = state.config.boards
    value, tracks = moves_with(card, "knights" in boards)
    track = event.track
    if track is None:
        if len(tracks) > 1:
            raise IllegalEvent("KA-6", f"{card} needs a track: {' or '.join(tracks)}")
        track = tracks[0]
    elif track not in tracks:
        raise IllegalEvent("KA-6", f"{card} moves {' or '.join(tracks)}, not {track}")
    if event.peek is not None:
        check_peek(state, event.peek, track)
    if event.scrolls:
        check_scrolls(state, event, seat, track, value)
    cards.remove(card)
    discard = state.discard
    discard[card] = discard.get(card, 0) + 1
    facts: list[Fact] = [move_disc(state, seat, track, value, "card")]
    if boards:
        variant_play(state, event, seat, track, value)
    played = state.played
    played[seat] += 1
    if state.persons:  # KA-20: a colour plays all its cards, then the next colour
        if not cards:
            state.turn = (seat + 1) % len(played)
            if not state.picked[state.turn]:
                _end_play(state, facts)
        return facts
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
    if "wager" in state.config.boards:  # KA-22b: the wagers pay instead; nobody chooses
        facts.extend(pay_wagers(state))
        state.bonuses = []
        _after_bonuses(state, facts)
    elif state.bonuses:
        state.phase = "bonus"
    else:
        _score(state, facts)


def _lift(state: State, event: Lift) -> Sequence[Fact]:
    seat = expected(state, event, expecting, "KA-21", fast=fast_expected)  # the start player
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
    seat = expected(state, event, expecting, "KA-10", fast=fast_expected)  # KA-10: in order
    squares = state.bonuses[0][1]
    if event.track is not None and event.track not in state.progress:
        raise IllegalEvent(
            "KA-10", f"{event.track} is not a track of this match: {', '.join(state.progress)}"
        )
    facts: list[Fact] = []
    if event.track is not None:
        facts.append(move_disc(state, seat, event.track, squares, "bonus"))
    del state.bonuses[0]
    if not state.bonuses:
        _after_bonuses(state, facts)
    return facts


def _after_bonuses(state: State, facts: list[Fact]) -> None:
    back = state.config.courage_step_back
    if back:  # KA-21b: the rewarded seats' courage discs go back, in the bonuses' order
        facts.extend(
            step_back(state, s, "courage", back, "step_back")
            for s in state.rewarded
            if state.progress["courage"][s]
        )
    _score(state, facts)


def _score(state: State, facts: list[Fact]) -> None:
    """Phase 4: the boards score; then the seats' own parts of it: the codex's shields in
    education's order (KA-22c), mercy's swaps at charity's scoring (KA-22f)."""
    config = state.config
    facts.extend(score_round(state))
    rnd = state.round
    if "codex" in config.boards and rnd in config.scoring_rounds.get("education", ()):
        n = len(state.players)
        at_start = [(state.start_player + i) % n for i in range(n)]
        ranks = ranked(state, "education")
        state.codex_order = ranks + [seat for seat in at_start if seat not in ranks]
        state.phase = "shield"
        return
    _mercy_or_finish(state, facts)


def _mercy_or_finish(state: State, facts: list[Fact]) -> None:
    config = state.config
    if "mercy" in config.boards and state.round in config.scoring_rounds.get("charity", ()):
        places = 2 if len(state.players) >= config.mercy_second_seats else 1
        state.mercy_order = ranked(state, "charity")[:places]
        if state.mercy_order:
            state.phase = "mercy"
            return
    _finish_round(state, facts)


def _shield(state: State, event: Shield) -> Sequence[Fact]:
    seat = expected(state, event, expecting, "KA-22c", fast=fast_expected)
    facts = take_shield(state, event, seat)
    if not state.codex_order:
        _mercy_or_finish(state, facts)
    return facts


def _mercy(state: State, event: Mercy) -> Sequence[Fact]:
    seat = expected(state, event, expecting, "KA-22f", fast=fast_expected)
    facts = swap(state, event, seat)
    if not state.mercy_order:
        _finish_round(state, facts)
    return facts


def _finish_round(state: State, facts: list[Fact]) -> None:
    """Phase 5 and 6 (KA-16, KA-17, KA-22): the resets, the start player passes, next round."""
    config = state.config
    boards = config.boards
    rnd = state.round
    facts.extend(standings(state))  # the round's ranking stands until the resets
    if rnd in config.reset_rounds:
        for track in config.reset_tracks:  # KA-16; KA-21c: some by rank
            if track not in state.progress or (track == "king" and "scrolls" in boards):
                continue  # a variant board in its place resets by its own rule
            ranks = track in config.rank_reset_tracks
            _reset(state, facts, track, rank_reset(state, track) if ranks else None)
    if "knights" in boards and rnd in config.knight_rounds:  # KA-22a: after each scoring
        for knight in KNIGHTS:
            _reset(state, facts, knight, None)
        state.grail = 0
    if "scrolls" in boards and state.scrolls_taken:  # KA-22d
        last = config.scroll_squares[-1] if config.scroll_squares else None
        if last is not None and last not in state.scrolls:
            _reset(state, facts, "king", None)
            state.scrolls = list(config.scroll_squares)
        state.scrolls_taken = 0
    if "wager" in boards:
        state.wagers = []
        state.played_on = [{} for _ in state.players]
    # KA-22c: the round's codex is gone, and with it what each seat looked at in it.
    state.codex = []
    state.peeked = [[] for _ in state.players]
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
    state.dealt = [False] * len(state.dealt)  # KA-20: lancelot deals its two players
    state.step = 0


def _reset(state: State, facts: list[Fact], track: str, after: list[int] | None) -> None:
    """KA-16: a track's discs go back to the start, or (KA-21c) to where `after` says."""
    row = state.progress[track]
    if after is None:
        after = [0] * len(row)
    for seat, before in enumerate(row):
        if before != after[seat]:
            facts.append(
                TrackMoved(
                    round=state.round,
                    seat=state.owners[seat],
                    track=track,
                    before=before,
                    after=after[seat],
                    cause="reset",
                )
            )
    state.progress[track] = after
    # Stamped again from the last up: discs a rank reset left sharing a square keep their
    # stack (KA-8); a disc it moved back is alone on its square.
    before_stamps = state.arrival[track]
    stamps = [0] * len(row)
    for seat in sorted(range(len(row)), key=lambda seat: (after[seat], before_stamps[seat])):
        if after[seat]:
            state.clock += 1
            stamps[seat] = state.clock
    state.arrival[track] = stamps


_HANDLERS: dict[type, Callable[[State, Any], Sequence[Fact]]] = {
    Deal: _deal,
    Pick: _pick,
    Play: _play,
    Bonus: _bonus,
    Lift: _lift,
    Wager: _wager,
    Codex: _codex,
    Shield: _shield,
    Mercy: _mercy,
    Split: _split,
    Choose: _choose,
    Assign: _assign,
}

apply: Callable[[State, Event], Sequence[Fact]] = dispatch(_HANDLERS, "a Knight Academy")
