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
from replay.facts import Fact, ScoreChanged, TrackMoved
from replay.game import check_round, dispatch, seat_of

from .config import CARD_TRACKS, KNIGHTS, Config, Track
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
from .scoring import (
    NEGATIVE_SOURCES,
    POSITIVE_SOURCES,
    award,
    bottom,
    courage_bonuses,
    lift_disc,
    liftable,
    move_disc,
    negative_shields,
    positive_shields,
    rank_reset,
    ranked,
    score_round,
    step_back,
)
from .state import State

NO_FACTS: tuple[Fact, ...] = ()  # most events establish nothing the warehouse keeps


@cache
def card_type_value(card: str) -> tuple[str, int]:
    kind, _, value = card.rpartition("-")
    return kind, int(value)


def card_moves(card: str, config: Config) -> tuple[int, tuple[Track, ...]]:
    """KA-6: how far a card moves a disc, and the tracks it may move."""
    return moves_with(card, "knights" in config.boards)


@cache
def moves_with(card: str, knights: bool) -> tuple[int, tuple[Track, ...]]:
    """`card_moves` with or without the knights board (KA-22a), for the hot paths."""
    kind, value = card_type_value(card)
    return value, KNIGHTS if knights and kind == "sword" else CARD_TRACKS[kind]


def new_game(config: Config, header: Header, catalogue: None = None) -> State:
    """The state before the first deal; RulesError if the header does not fit the game."""
    neutral = _check_seats(config, header)
    persons = list(header.players)
    owners = list(range(len(persons)))
    players = persons
    start = persons.index(header.start_player)
    hands = len(persons)
    if header.variant == "lancelot":  # KA-20: four seats, a colour each, round the table
        colours = _colours(header)
        first, second = persons
        players = [colours[first][0], colours[second][0], colours[first][1], colours[second][1]]
        owners = [0, 1, 0, 1]
        start = players.index(colours[header.start_player][0])
    elif start == neutral:
        raise RulesError("KA-19", f"the neutral seat {header.neutral} never starts")
    n = len(players)
    if "codex" in config.boards and len(config.codex_shields) > n:
        raise RulesError(
            "KA-22c", f"the codex's {len(config.codex_shields)} shields need a seat each"
        )
    cards_needed = _hand_size(config, header.variant == "lancelot") * hands
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


def _hand_size(config: Config, lancelot: bool) -> int:
    """KA-4: the cards each hand is dealt; KA-20: a lancelot player's."""
    return config.lancelot_hand if lancelot else config.hand_size


def _colours(header: Header) -> dict[str, list[str]]:
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
    if state.phase != "deal":
        raise IllegalEvent("KA-4", f"{event.player} is dealt cards during the {_phase(state)}")
    lancelot = bool(state.persons)
    seat = person_of(state, event, "KA-4") if lancelot else seat_of(state, event, "KA-4")
    check_round(state, event.round, "KA-4", "deal")
    if state.dealt[seat]:
        raise IllegalEvent("KA-4", f"{event.player} was already dealt in round {state.round}")
    size = _hand_size(config, lancelot)
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


def person_of(state: State, event: Any, rule: str) -> int:
    """KA-20: the lancelot player an event names (its colours' events name the colour)."""
    if event.player not in state.persons:
        raise IllegalEvent(
            rule,
            f"{event.player!r} is not a player here: the players are {', '.join(state.persons)}"
            f" (a colour's own events name the colour)",
        )
    return state.persons.index(event.player)


def colours_of(state: State, person: int) -> list[int]:
    """KA-20: the seats of a lancelot player's two colours."""
    return [seat for seat, owner in enumerate(state.owners) if owner == person]


def start_person(state: State) -> int:
    """KA-20: the lancelot player whose colour starts the round."""
    return state.owners[state.start_player]


def _split(state: State, event: Split) -> Sequence[Fact]:
    if state.phase != "split":
        raise IllegalEvent("KA-20", f"{event.player} splits its cards during the {_phase(state)}")
    person = person_of(state, event, "KA-20")
    if state.piles[person]:
        raise IllegalEvent("KA-20", f"{event.player} already split its cards this round")
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
    if all(state.piles):
        state.phase = "choose"
    return NO_FACTS


def chooser(state: State) -> int:
    """KA-20: the start player chooses first, then the other player."""
    first = start_person(state)
    return first if state.chosen is None else 1 - first


def _choose(state: State, event: Choose) -> Sequence[Fact]:
    if state.phase != "choose":
        raise IllegalEvent("KA-20", f"{event.player} chooses a pile during the {_phase(state)}")
    person = person_of(state, event, "KA-20")
    if person != chooser(state):
        who = state.persons[chooser(state)]
        raise IllegalEvent("KA-20", f"{event.player} does not choose now: {who} does")
    if event.pile not in (1, 2):
        raise IllegalEvent("KA-20", f"a pile is 1 or 2, not {event.pile}")
    if state.chosen is None:
        state.chosen = event.pile
        return NO_FACTS
    # Both have chosen: each takes the other's chosen pile and keeps its own other one.
    first = 1 - person
    piles = state.piles
    state.held[first] = piles[person][state.chosen - 1] + piles[first][2 - event.pile]
    state.held[person] = piles[first][event.pile - 1] + piles[person][2 - state.chosen]
    state.piles = [[] for _ in state.persons]
    state.chosen = None
    state.phase = "assign"
    return NO_FACTS


def _assign(state: State, event: Assign) -> Sequence[Fact]:
    if state.phase != "assign":
        raise IllegalEvent("KA-20", f"{event.player} assigns cards during the {_phase(state)}")
    person = person_of(state, event, "KA-20")
    seats = colours_of(state, person)
    if any(state.picked[seat] for seat in seats):
        raise IllegalEvent("KA-20", f"{event.player} already laid its cards this round")
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
    if not any(state.held):
        state.phase = "play"
        state.turn = state.start_player
    return NO_FACTS


def _codex(state: State, event: Codex) -> Sequence[Fact]:
    if state.phase != "codex":
        raise IllegalEvent("KA-22c", f"the codex's shields are laid during the {_phase(state)}")
    check_round(state, event.round, "KA-22c", "codex")
    wanted = sorted(_codex_set(state))
    if sorted(event.shields) != wanted:
        raise IllegalEvent(
            "KA-22c",
            f"the codex holds the shields {', '.join(map(str, wanted))}, not "
            f"{', '.join(map(str, event.shields)) or 'none'}",
        )
    state.codex = list(event.shields)
    state.peeked = [[] for _ in state.players]
    _before_draft(state, "codex")
    return NO_FACTS


def _codex_set(state: State) -> list[int]:
    """KA-22c: the negative shields, and 0-point ones until every seat has one."""
    shields = list(state.config.codex_shields)
    return shields + [0] * (len(state.players) - len(shields))


def _wager(state: State, event: Wager) -> Sequence[Fact]:
    if state.phase != "wager":
        raise IllegalEvent("KA-22b", f"{event.player} wagers during the {_phase(state)}")
    seat = seat_of(state, event, "KA-22b")
    if state.wagers[seat] is not None:
        raise IllegalEvent("KA-22b", f"{event.player} already wagered in round {state.round}")
    if event.track == "courage" or event.track not in state.progress:
        raise IllegalEvent(
            "KA-22b",
            f"a wager names one of {', '.join(wager_tracks(state))}, not {event.track}",
        )
    state.wagers[seat] = event.track
    if None not in state.wagers:
        _before_draft(state, "wager")
    return NO_FACTS


def wager_tracks(state: State) -> list[str]:
    """KA-22b: the boards a wager may name: every track in play but courage's own."""
    return [track for track in state.progress if track != "courage"]


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
        _check_peek(state, event, track)
    if event.scrolls:
        _check_scrolls(state, event, seat, track, value)
    cards.remove(card)
    discard = state.discard
    discard[card] = discard.get(card, 0) + 1
    facts: list[Fact] = [move_disc(state, seat, track, value, "card")]
    if boards:
        _variant_play(state, event, seat, track, value)
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


def _check_peek(state: State, event: Play, track: str) -> None:
    if track != "education" or "codex" not in state.config.boards:
        raise IllegalEvent("KA-22c", "only an education card played with the codex board peeks")
    if not 1 <= event.peek <= len(state.codex):  # type: ignore[operator]
        raise IllegalEvent(
            "KA-22c", f"the codex has slots 1 to {len(state.codex)}, not {event.peek}"
        )


def reachable_scrolls(state: State, seat: int, track: str, squares: int) -> list[int]:
    """KA-22d: the scrolls a disc moving `squares` on `track` reaches or passes."""
    if track != "king" or "scrolls" not in state.config.boards:
        return []
    before = state.progress["king"][seat]
    after = min(before + squares, state.config.king_cap)
    return [square for square in state.scrolls if before < square <= after]


def _check_scrolls(state: State, event: Play, seat: int, track: str, value: int) -> None:
    reached = reachable_scrolls(state, seat, track, value)
    wanted = event.scrolls
    if len(set(wanted)) != len(wanted) or not set(wanted) <= set(reached):
        where = ", ".join(map(str, reached)) or "none"
        raise IllegalEvent(
            "KA-22d",
            f"{event.player} takes scrolls on {', '.join(map(str, wanted))}, but the disc "
            f"reaches or passes scrolls on {where}",
        )


def _variant_play(state: State, event: Play, seat: int, track: str, value: int) -> None:
    """A play's part on the variant boards: the grail (KA-22a), the wager's count (KA-22b),
    a peek (KA-22c), the scrolls taken (KA-22d)."""
    boards = state.config.boards
    if track in KNIGHTS:  # KA-22a: the grail moves the card's value toward that knight
        reach = state.config.grail_squares
        toward = 1 if track == "white" else -1
        state.grail = max(-reach, min(reach, state.grail + toward * value))
    if "wager" in boards:
        counts = state.played_on[seat]
        counts[track] = counts.get(track, 0) + 1
    if event.peek is not None:
        state.peeked[seat].append(event.peek)
    for square in event.scrolls:
        state.scrolls.remove(square)
        state.scrolls_taken += 1


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
        for seat, squares in state.bonuses:
            track = state.wagers[seat]
            cards = state.played_on[seat].get(track, 0) if track else 0
            if cards:
                facts.append(move_disc(state, seat, track, cards * squares, "wager"))  # type: ignore[arg-type]
        state.bonuses = []
        _after_bonuses(state, facts)
    elif state.bonuses:
        state.phase = "bonus"
    else:
        _score(state, facts)


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
    if state.phase != "shield":
        raise IllegalEvent(
            "KA-22c", f"{event.player} takes a codex shield during the {_phase(state)}"
        )
    seat = seat_of(state, event, "KA-22c")
    if seat != state.codex_order[0]:
        order = ", ".join(state.players[s] for s in state.codex_order)
        raise IllegalEvent(
            "KA-22c",
            f"{event.player} does not choose a codex shield now; still to, in order: {order}",
        )
    if not 1 <= event.slot <= len(state.codex) or state.codex[event.slot - 1] is None:
        free = [str(i) for i, shield in enumerate(state.codex, 1) if shield is not None]
        raise IllegalEvent(
            "KA-22c", f"codex slot {event.slot} holds no shield; free: {', '.join(free)}"
        )
    facts: list[Fact] = []
    points = state.codex[event.slot - 1]
    state.codex[event.slot - 1] = None
    award(state, facts, seat, "codex", points or 0)  # a 0-point shield goes back to the codex
    del state.codex_order[0]
    if not state.codex_order:
        _mercy_or_finish(state, facts)
    return facts


def mercy_terms(state: State, seat: int) -> tuple[bool, list[int], int | None]:
    """KA-22f: whether `seat` is charity's 1st, the last seats it may take from, and the seat
    its negative shield goes to: the last it takes from for the 1st (None here), the
    second-last for the 2nd (none when seats tie at the start: nobody is second-last then)."""
    groups = bottom(state, "charity")
    lasts = [s for s in groups[0] if s != seat]
    if ranked(state, "charity")[0] == seat:
        return True, lasts, None
    second_last = groups[1][0] if len(groups[0]) == 1 and len(groups) > 1 else None
    return False, lasts, None if second_last == seat else second_last


def _mercy(state: State, event: Mercy) -> Sequence[Fact]:
    config = state.config
    if state.phase != "mercy":
        raise IllegalEvent("KA-22f", f"{event.player} swaps shields during the {_phase(state)}")
    seat = seat_of(state, event, "KA-22f")
    if seat != state.mercy_order[0]:
        order = ", ".join(state.players[s] for s in state.mercy_order)
        raise IllegalEvent(
            "KA-22f", f"{event.player} does not swap shields now; still to, in order: {order}"
        )
    first, lasts, receiver = mercy_terms(state, seat)
    other = state.seats.get(event.other)
    if other is None or other not in lasts:
        names = ", ".join(state.players[s] for s in lasts)
        raise IllegalEvent("KA-22f", f"{event.other} is not charity's last: {names}")
    if first:
        receiver = other
    negatives = negative_shields(state, seat)
    if event.give is None:
        if negatives and receiver is not None:
            raise IllegalEvent(
                "KA-22f",
                f"{event.player} holds negative shields ({', '.join(map(str, negatives))}) and "
                f"gives one to {state.players[receiver]}",
            )
    elif receiver is None or event.give not in negatives:
        raise IllegalEvent(
            "KA-22f",
            f"{event.player} cannot give a {event.give} shield: "
            + (
                "nobody is second-last"
                if receiver is None
                else f"its negative shields are {', '.join(map(str, negatives)) or 'none'}"
            ),
        )
    most = config.mercy_takes[0 if first else 1]
    offered = Counter(p for p in positive_shields(state, other) if p <= config.mercy_max_value)
    if len(event.take) > most or Counter(event.take) - offered:
        raise IllegalEvent(
            "KA-22f",
            f"{event.player} takes at most {most} of {event.other}'s shields of "
            f"{config.mercy_max_value} points or less "
            f"({', '.join(map(str, sorted(offered.elements()))) or 'none'}), not "
            f"{', '.join(map(str, event.take))}",
        )
    facts: list[Fact] = []
    changes: Counter[int] = Counter()
    if event.give is not None and receiver is not None:
        _hand_over(state, seat, receiver, NEGATIVE_SOURCES, event.give)
        changes[seat] -= event.give
        changes[receiver] += event.give
    for points in event.take:
        _hand_over(state, other, seat, POSITIVE_SOURCES, points)
        changes[seat] += points
        changes[other] -= points
    for who, points in sorted(changes.items()):
        if points:
            state.points[who]["mercy"] += points
            facts.append(
                ScoreChanged(
                    round=state.round, seat=state.owners[who], source="mercy", points=points
                )
            )
    del state.mercy_order[0]
    if not state.mercy_order:
        _finish_round(state, facts)
    return facts


def _hand_over(
    state: State, giver: int, receiver: int, sources: frozenset[str], points: int
) -> None:
    """KA-22f: one shield of `points` (from one of `sources`) changes hands."""
    held = state.shields[giver]
    for i, (source, value) in enumerate(held):
        if value == points and source in sources:
            state.shields[receiver].append(held.pop(i))
            return


def _finish_round(state: State, facts: list[Fact]) -> None:
    """Phase 5 and 6 (KA-16, KA-17, KA-22): the resets, the start player passes, next round."""
    config = state.config
    boards = config.boards
    rnd = state.round
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
    state.codex = []
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
    # Every disc left above the start is alone on its square: stamped from the last up
    stamps = [0] * len(row)
    for seat in sorted(range(len(row)), key=after.__getitem__):
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


def _phase(state: State) -> str:
    names = {
        "deal": "deal",
        "draft": "draft",
        "play": "play phase",
        "lift": "lift before scoring",
        "bonus": "courage bonuses",
        "codex": "codex's laying",
        "wager": "wagers",
        "shield": "codex's shields",
        "mercy": "mercy's swaps",
        "split": "splitting of the hands",
        "choose": "choice of piles",
        "assign": "laying of the cards",
    }
    return f"{names.get(state.phase, state.phase)} of round {state.round}"
