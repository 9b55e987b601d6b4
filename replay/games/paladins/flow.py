"""The flow of a Paladins round (PA-4 to PA-14, PA-38 to PA-40, PA-48, PA-54): reveals and
refills, the king's and tavern's cards, the paladins chosen, whose turn it is, and the
clean-up that ends a round."""

from __future__ import annotations

from collections.abc import Sequence

from replay.errors import IllegalEvent
from replay.facts import Fact
from replay.game import Handler, check_round, expected

from .events import (
    ChoosePaladin,
    RevealKing,
    RevealOutsiders,
    RevealTavern,
    RevealTownsfolk,
    TakeTavern,
)
from .ledger import (
    abilities,
    bonus_changed,
    effective,
    effective_all,
    gain,
    paladin_bonus,
    refill_due,
)
from .legal import expecting, fast_expected
from .scoring import final_facts, standings
from .state import State


def _unseen(deck: list[str], cards: Sequence[str], what: str, rule: str) -> None:
    if len(set(cards)) != len(cards):
        raise IllegalEvent(rule, f"{what}: a card appears twice in {', '.join(cards)}")
    missing = [c for c in cards if c not in deck]
    if missing:
        raise IllegalEvent(
            rule,
            f"{what}: {missing[0]} is not in the deck (seen already, or "
            "not a card of the catalogue)",
        )


def _refill_slots(display: list[str | None], count: int, toward_right: bool) -> list[int]:
    """PA-54: the empty slots new cards fill, leftmost first: those next to the packed cards."""
    empty = [i for i, card in enumerate(display) if card is None]
    return empty[len(empty) - count :] if toward_right else empty[:count]


def _reveal_display(state: State, event: RevealTownsfolk | RevealOutsiders) -> Sequence[Fact]:
    expected(state, event, expecting, "PA-54", fast=fast_expected)
    townsfolk = isinstance(event, RevealTownsfolk)
    kind = "reveal_townsfolk" if townsfolk else "reveal_outsiders"
    display = state.townsfolk if townsfolk else state.outsiders
    deck = state.townsfolk_deck if townsfolk else state.outsider_deck
    due = min(display.count(None), len(deck))  # PA-40: these decks are never rebuilt
    if len(event.cards) != due:
        raise IllegalEvent(
            "PA-54",
            f"{kind} reveals {due} cards (empty slots "
            f"{display.count(None)}, deck {len(deck)}), "
            f"not {len(event.cards)}",
        )
    _unseen(deck, event.cards, kind, "PA-42")
    for slot, card in zip(_refill_slots(display, due, toward_right=townsfolk), event.cards):
        display[slot] = card
        deck.remove(card)
    _after_refill(state)
    return ()


def _after_refill(state: State) -> None:
    """The outsiders' refill if one is due (PA-39, PA-42), else the next round."""
    if state.phase == "refill_townsfolk" and refill_due(state, townsfolk=False):
        state.phase = "refill_outsiders"
        return
    _start_round(state)


def _start_round(state: State) -> None:
    """PA-4 to PA-6: the start player, then the king's cards due this round."""
    config = state.config
    state.round += 1
    if state.round > 1:
        state.start_player = (state.start_player + 1) % len(state.players)  # PA-5
    state.king_due = (["order"] if state.round in config.order_rounds else []) + (
        ["favour"] if state.round in config.favour_rounds else []
    )
    state.phase = "king" if state.king_due else "tavern"
    state.favour_workers = {}
    for me in state.board:
        me.passed = False


def _reveal_king(state: State, event: RevealKing) -> Sequence[Fact]:
    expected(state, event, expecting, "PA-6", fast=fast_expected)
    check_round(state, event.round, "PA-6")
    due = state.king_due[0]
    deck = state.order_deck if due == "order" else state.favour_deck
    if event.card not in deck:
        raise IllegalEvent(
            "PA-6",
            f"round {state.round} reveals {'an order' if due == 'order' else 'a favour'}"
            f" now; {event.card} is not one still in that deck",
        )
    deck.remove(event.card)
    (state.orders if due == "order" else state.favours).append(event.card)
    del state.king_due[0]
    if not state.king_due:
        state.phase = "tavern"
    return ()


def _reveal_tavern(state: State, event: RevealTavern) -> Sequence[Fact]:
    expected(state, event, expecting, "PA-9", fast=fast_expected)
    check_round(state, event.round, "PA-9")
    want = len(state.players) + state.config.tavern_extra
    cards = event.cards
    if len(cards) != want:
        raise IllegalEvent("PA-9", f"the tavern reveals {want} cards, not {len(cards)}")
    if len(set(cards)) != len(cards):
        raise IllegalEvent("PA-9", f"a tavern card appears twice in {', '.join(cards)}")
    deck, discard = state.tavern_deck, state.tavern_discard
    if len(deck) >= want:
        _unseen(deck, cards, "reveal_tavern", "PA-9")
        rest = [c for c in deck if c not in cards]
        state.tavern_deck = rest
    else:  # PA-40, PA-48: all that is left, then the discard shuffled into a new deck
        if not set(deck) <= set(cards):
            raise IllegalEvent(
                "PA-48",
                f"the tavern deck holds only {', '.join(deck)}: all of "
                "them come first, then cards from the reshuffled discard",
            )
        fresh = [c for c in cards if c not in deck]
        _unseen(discard, fresh, "reveal_tavern (from the reshuffled discard)", "PA-48")
        state.tavern_deck = [c for c in discard if c not in fresh]
        state.tavern_discard = []
    state.tavern = list(cards)
    state.taken = {}
    state.phase = "paladins"
    return ()


def _choose_paladin(state: State, event: ChoosePaladin) -> Sequence[Fact]:
    seat = expected(state, event, expecting, "PA-10", fast=fast_expected)  # once a round
    me = state.board[seat]
    draw = state.config.paladin_draw
    picked = [event.paladin, event.top, event.bottom]
    if len(set(picked)) != 3 or sorted(picked) != sorted(me.deck[:draw]):
        raise IllegalEvent(
            "PA-10",
            f"{event.player}'s top {draw} paladins are "
            f"{', '.join(sorted(me.deck[:draw]))}, not {', '.join(picked)}",
        )
    me.deck = [event.top, *me.deck[draw:], event.bottom]
    me.paladin = event.paladin
    me.revealed = False
    if all(s.paladin is not None for s in state.board):
        state.phase = "take_tavern"
        state.turn = state.start_player
    return ()


def _take_tavern(state: State, event: TakeTavern) -> Sequence[Fact]:
    seat = expected(state, event, expecting, "PA-11", fast=fast_expected)  # in turn
    if event.card not in state.tavern or event.card in state.taken:
        raise IllegalEvent(
            "PA-11",
            f"{event.card} is not a tavern card still on offer "
            f"({', '.join(c for c in state.tavern if c not in state.taken)})",
        )
    me = state.board[seat]
    cat = state.catalogue
    facts: list[Fact] = []
    state.taken[event.card] = seat
    me.revealed = True
    without = {t: effective(state, seat, t) - paladin_bonus(state, seat, t) for t in me.tracks}
    bonus_changed(state, seat, without, "paladin", facts)
    assert me.paladin is not None
    for colour in cat.field("paladin", me.paladin, "workers"):
        gain(state, seat, {colour: 1}, "paladin", facts)
    for colour in cat.field("tavern", event.card, "workers"):
        gain(state, seat, {colour: 1}, "tavern", facts)
    for _, ability in abilities(state, seat):  # PA-59
        if ability.kind == "round_start":
            gain(state, seat, ability.reward, "ability", facts)
    nxt = (seat + 1) % len(state.players)
    if nxt == state.start_player:
        state.phase = "actions"
    state.turn = nxt
    return facts


def next_turn(state: State, facts: list[Fact]) -> None:
    """PA-15: the next seat clockwise that has not passed; clean-up when all have."""
    n = len(state.players)
    for step in range(1, n + 1):
        seat = (state.turn + step) % n
        if not state.board[seat].passed:
            state.turn = seat
            return
    _clean_up(state, facts)


def _clean_up(state: State, facts: list[Fact]) -> None:
    """PA-39, PA-60, PA-64: round_end abilities, then the displays, the tavern and the favours."""
    n = len(state.players)
    for step in range(n):
        seat = (state.start_player + step) % n
        for _, ability in abilities(state, seat):
            if ability.kind == "round_end":
                gain(state, seat, ability.reward, "ability", facts)
    state.favour_workers = {}
    for seat, me in enumerate(state.board):  # the round's paladins leave (PA-49)
        was = effective_all(state, seat)
        me.paladin = None
        bonus_changed(state, seat, was, "paladin", facts)
    facts.extend(standings(state))
    if state.round == state.config.rounds:
        state.phase = "over"
        facts.extend(final_facts(state))
        return
    display = state.townsfolk  # (1): the rightmost goes, the rest pack right
    display[-1] = None
    cards = [c for c in display if c is not None]
    state.townsfolk = [None] * (len(display) - len(cards)) + cards
    display = state.outsiders  # (2): the leftmost goes, the rest pack left
    display[0] = None
    cards = [c for c in display if c is not None]
    state.outsiders = cards + [None] * (len(display) - len(cards))
    state.tavern_discard.extend(state.tavern)  # (3)
    state.tavern = []
    if refill_due(state, townsfolk=True):
        state.phase = "refill_townsfolk"
    elif refill_due(state, townsfolk=False):
        state.phase = "refill_outsiders"
    else:
        _start_round(state)


HANDLERS: dict[type, Handler] = {
    RevealTownsfolk: _reveal_display,
    RevealOutsiders: _reveal_display,
    RevealKing: _reveal_king,
    RevealTavern: _reveal_tavern,
    ChoosePaladin: _choose_paladin,
    TakeTavern: _take_tavern,
}
