"""The rules of Paladins (rules/paladins.md) as functions over `State`.

Each handler checks everything first and mutates after, so a rejected event leaves the state
untouched. Effects come from the catalogue's parsed strings (`effects.py`); no card is named
here. Final scoring lives in `scoring.py`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from replay.catalogues import CatalogueError
from replay.errors import IllegalEvent, RulesError
from replay.facts import Fact, ResourceChanged
from replay.game import dispatch, seat_of

from .catalogue import Catalogue, check
from .config import Config
from .effects import Amounts, reward
from .events import (
    Absolve,
    Attack,
    BuildWall,
    ChoosePaladin,
    Commission,
    Convert,
    Develop,
    DrawSuspicion,
    DrawWall,
    Event,
    Favour,
    Garrison,
    Header,
    Hunt,
    Pass,
    Pray,
    Recruit,
    RevealKing,
    RevealOutsiders,
    RevealTavern,
    RevealTownsfolk,
    Scheme,
    TakeTavern,
    Trade,
)
from .ledger import (
    abilities,
    add_vp,
    attack_silver,
    bonus_changed,
    can_pay,
    discounted,
    effective,
    effective_all,
    favour_open,
    fire,
    fits,
    gain,
    has_workers,
    paladin_bonus,
    pay,
    refill_due,
    slots_for,
    spend_workers,
)
from .legal import describe_expected
from .scoring import final_facts
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


def _expect(state: State, phase: str, kind: str, rule: str) -> None:
    if state.phase != phase:
        raise IllegalEvent(rule, f"a {kind} event now, but {describe_expected(state)}")


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
    townsfolk = isinstance(event, RevealTownsfolk)
    kind = "reveal_townsfolk" if townsfolk else "reveal_outsiders"
    _expect(state, "refill_townsfolk" if townsfolk else "refill_outsiders", kind, "PA-54")
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


def _round_check(state: State, claimed: int | None, rule: str) -> None:
    if claimed is not None and claimed != state.round:
        raise IllegalEvent(rule, f"the event says round {claimed} but it is round {state.round}")


def _reveal_king(state: State, event: RevealKing) -> Sequence[Fact]:
    _expect(state, "king", "reveal_king", "PA-6")
    _round_check(state, event.round, "PA-6")
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
    _expect(state, "tavern", "reveal_tavern", "PA-9")
    _round_check(state, event.round, "PA-9")
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
    seat = seat_of(state, event, "PA-10")
    _expect(state, "paladins", "choose_paladin", "PA-10")
    me = state.board[seat]
    if me.paladin is not None:
        raise IllegalEvent("PA-10", f"{event.player} has chosen a paladin this round already")
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
    seat = seat_of(state, event, "PA-11")
    _expect(state, "take_tavern", "take_tavern", "PA-11")
    _in_turn(state, seat, event, "PA-11")
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


def _in_turn(state: State, seat: int, event: Any, rule: str) -> None:
    if seat != state.turn:
        raise IllegalEvent(
            rule, f"{event.player} acts out of turn: it is {state.players[state.turn]}'s turn"
        )


def _turn_of(state: State, event: Any, act: str) -> int:
    """The acting seat of an action (PA-15), checked."""
    seat = seat_of(state, event, "PA-15")
    if state.phase != "actions":
        raise IllegalEvent("PA-15", f"{event.player} takes {act}, but {describe_expected(state)}")
    _in_turn(state, seat, event, "PA-15")
    return seat


def _place(
    state: State, seat: int, space: str, workers: Sequence[str], modes: bool = False
) -> tuple[str, ...]:
    """PA-16, PA-17, PA-19: the space is free and the workers fit its slots and are held;
    with `modes`, PA-26: how many workers the action takes is chosen with it."""
    me = state.board[seat]
    if me.spaces.get(space):
        raise IllegalEvent(
            "PA-17",
            f"{state.players[seat]}'s {space} space holds workers: it "
            "is not available until cleared",
        )
    slots = slots_for(state, seat, space, len(workers) if modes else None)
    if slots is None or not fits(slots, workers):
        shown = (
            " or ".join("·".join(s) for s in state.config.space_slots[space])
            if modes
            else "·".join(slots or ())
        )
        raise IllegalEvent(
            "PA-16", f"{space} takes workers for {shown}, not {', '.join(workers) or 'none'}"
        )
    if not has_workers(me.supply, workers):
        raise IllegalEvent(
            "PA-16",
            f"{state.players[seat]} does not hold {', '.join(workers)} (supply: {_supply(me)})",
        )
    return slots


def _supply(me: Seat) -> str:
    return ", ".join(f"{k}× {c}" for c, k in sorted(me.supply.items()) if k) or "none"


def _cost_check(state: State, seat: int, cost: Amounts, what: str, rule: str = "PA-18") -> None:
    if not can_pay(state, seat, cost):
        me = state.board[seat]
        raise IllegalEvent(
            rule,
            f"{what} costs {_amounts(cost)}; {state.players[seat]} has "
            f"{me.silver} silver, {me.provisions} provisions",
        )


def _amounts(amounts: Amounts) -> str:
    return " ".join(f"{v}{k}" for k, v in amounts.items() if v) or "nothing"


def _occupy(state: State, seat: int, space: str, workers: Sequence[str], facts: list[Fact]) -> None:
    spend_workers(state, seat, workers, space, facts)
    state.board[seat].spaces[space] = list(workers)


def _done(
    state: State, seat: int, act: str, facts: list[Fact], team_before: int, draw: str | None = None
) -> Sequence[Fact]:
    """After an action: its abilities (or, for scheme and build_wall, the draw first)."""
    if draw is not None:
        state.phase = draw
        return facts
    fire(state, seat, act, facts, team_before)
    _next_turn(state, facts)
    return facts


def _drawn(state: State, seat: int, act: str, facts: list[Fact]) -> Sequence[Fact]:
    """PA-65: after a scheme's or a wall's draw, the action's abilities with the team as it
    stood when the action was taken; then the next turn."""
    state.phase = "actions"
    fire(state, seat, act, facts, state.pending_team)
    _next_turn(state, facts)
    return facts


def _develop(state: State, event: Develop) -> Sequence[Fact]:
    seat = _turn_of(state, event, "develop")
    config = state.config
    me = state.board[seat]
    _place(state, seat, "develop", event.workers)
    if event.action not in config.main_slots:
        raise IllegalEvent(
            "PA-20", f"{event.action!r} is not a main action: {', '.join(config.main_slots)}"
        )
    if me.developed >= len(config.workshop_workers):
        raise IllegalEvent("PA-45", f"{event.player} has placed every workshop")
    if me.workshops[event.action] >= config.workshops_per_action:
        raise IllegalEvent(
            "PA-19", f"{event.action} holds {config.workshops_per_action} workshops already"
        )
    cost = discounted(state, seat, "develop", {"silver": config.develop_silver})
    _cost_check(state, seat, cost, "develop")
    facts: list[Fact] = []
    team = len(me.team)
    pay(state, seat, cost)
    _occupy(state, seat, "develop", event.workers, facts)
    workers = me.spaces.get(event.action)
    if workers:  # PA-20: the worker on the covered slot returns to the common supply
        workers.pop(0)
        if not workers:
            del me.spaces[event.action]
    me.workshops[event.action] += 1
    colour = config.workshop_workers[me.developed]
    me.developed += 1
    gain(state, seat, {colour: 1}, "develop", facts)
    return _done(state, seat, "develop", facts, team)


def _recruit(state: State, event: Recruit) -> Sequence[Fact]:
    seat = _turn_of(state, event, "recruit")
    _place(state, seat, "recruit", event.workers, modes=True)
    slot = _townsfolk_slot(state, event.card, "PA-21")
    cost = _recruit_cost(state, seat, event.card, event.pay, slot)
    facts: list[Fact] = []
    me = state.board[seat]
    team = len(me.team)
    pay(state, seat, cost)
    if event.pay == "debt":
        me.debts += 1
    _occupy(state, seat, "recruit", event.workers, facts)
    state.townsfolk[slot] = None
    cat = state.catalogue
    if len(event.workers) == 1:  # PA-21: the quest reward; the card is discarded
        gain(state, seat, cat.field("townsfolk", event.card, "quest"), "quest", facts)
    else:  # PA-22: joins the team
        was = effective_all(state, seat)
        me.team.append(event.card)
        bonus_changed(state, seat, was, "recruit", facts)
        gain(state, seat, cat.field("townsfolk", event.card, "recruit"), "recruit", facts)
    return _done(state, seat, "recruit", facts, team)


def _townsfolk_slot(state: State, card: str, rule: str) -> int:
    if card not in state.townsfolk:
        shown = ", ".join(c for c in state.townsfolk if c) or "none"
        raise IllegalEvent(rule, f"{card} is not in the townsfolk display ({shown})")
    return state.townsfolk.index(card)


def _recruit_cost(state: State, seat: int, card: str, paying: str, slot: int) -> Amounts:
    """PA-21 to PA-23, PA-52: the silver due, or nothing when a debt is taken instead."""
    if paying == "debt":
        if slot >= state.config.debt_slots:
            raise IllegalEvent(
                "PA-23",
                f"a debt pays only for the {state.config.debt_slots} "
                f"leftmost townsfolk; {card} is in slot {slot + 1}",
            )
        return {}
    cost = discounted(
        state, seat, "recruit", {"silver": state.catalogue.entry("townsfolk", card).cost}
    )
    _cost_check(state, seat, cost, f"recruiting {card}")
    return cost


def _hunt_trade(state: State, event: Hunt | Trade) -> Sequence[Fact]:
    act = "hunt" if isinstance(event, Hunt) else "trade"  # PA-24, PA-25
    seat = _turn_of(state, event, act)
    _place(state, seat, act, event.workers, modes=True)
    config = state.config
    facts: list[Fact] = []
    team = len(state.board[seat].team)
    _occupy(state, seat, act, event.workers, facts)
    amount = (config.hunt_provisions if act == "hunt" else config.trade_silver)[
        len(event.workers) - 1
    ]
    gain(state, seat, {"prov" if act == "hunt" else "silver": amount}, act, facts)
    return _done(state, seat, act, facts, team)


def _clearable(state: State, seat: int, space: str, rule: str, own: str | None) -> None:
    me = state.board[seat]
    if space == own or not me.spaces.get(space):
        raise IllegalEvent(
            rule,
            f"{state.players[seat]} has no workers on {space} to clear"
            + (" (pray never clears itself)" if space == own else ""),
        )


def _clear(state: State, seat: int, space: str) -> None:
    del state.board[seat].spaces[space]


def _pray(state: State, event: Pray) -> Sequence[Fact]:
    seat = _turn_of(state, event, "pray")
    _place(state, seat, "pray", event.workers)
    _clearable(state, seat, event.space, "PA-51", own="pray")
    cost = discounted(state, seat, "pray", {"silver": state.config.pray_silver})
    _cost_check(state, seat, cost, "pray")
    facts: list[Fact] = []
    team = len(state.board[seat].team)
    pay(state, seat, cost)
    _clear(state, seat, event.space)
    _occupy(state, seat, "pray", event.workers, facts)
    return _done(state, seat, "pray", facts, team)


def _scheme(state: State, event: Scheme) -> Sequence[Fact]:
    seat = _turn_of(state, event, "scheme")
    _place(state, seat, "scheme", event.workers)
    if not state.suspicion_deck and not state.suspicion_discard:
        raise IllegalEvent("PA-56", "no suspicion card is left to draw: scheme is illegal")
    facts: list[Fact] = []
    _occupy(state, seat, "scheme", event.workers, facts)
    gain(state, seat, {"purple": 1}, "scheme", facts)
    state.pending_team = len(state.board[seat].team)
    return _done(state, seat, "scheme", facts, 0, draw="draw_suspicion")


def _draw_suspicion(state: State, event: DrawSuspicion) -> Sequence[Fact]:
    seat = seat_of(state, event, "PA-28")
    _expect(state, "draw_suspicion", "draw_suspicion", "PA-28")
    _in_turn(state, seat, event, "PA-28")
    # PA-56: an empty deck is the discard, shuffled (checked first: a refusal changes nothing).
    deck = state.suspicion_deck or state.suspicion_discard
    if event.card not in deck:
        raise IllegalEvent("PA-56", f"{event.card} is not a suspicion card still in the deck")
    if not state.suspicion_deck:
        state.suspicion_deck, state.suspicion_discard = state.suspicion_discard, []
    state.suspicion_deck.remove(event.card)
    me = state.board[seat]
    me.suspicion.append(event.card)
    card = state.catalogue.entry("suspicion", event.card)
    facts: list[Fact] = []
    gain(state, seat, {"silver": card.tax}, "tax", facts)
    if card.inquisition:  # PA-58
        config = state.config
        for other, them in enumerate(state.board):
            if len(them.suspicion) >= config.inquisition_min:
                add_vp(state, other, config.inquisition_vp, "inquisition", facts)
    return _drawn(state, seat, "scheme", facts)


def _square(state: State, seat: int, event: Commission | Garrison, kind: str) -> Sequence[Fact]:
    act = "commission" if kind == "monk" else "garrison"
    rule = "PA-30" if kind == "monk" else "PA-33"
    config = state.config
    me = state.board[seat]
    _place(state, seat, act, event.workers)
    placed = me.monks if kind == "monk" else me.outposts
    costs = config.monk_provisions if kind == "monk" else config.outpost_provisions
    if placed >= len(costs):
        raise IllegalEvent("PA-45", f"{event.player} has placed every {kind}")
    square = _free_square(state, event.square, rule)
    region = state.catalogue.entry("square", event.square).region
    track = "faith" if kind == "monk" else "strength"
    need = (config.region_faith if kind == "monk" else config.region_strength)[region - 1]
    have = effective(state, seat, track)
    if have < need:
        raise IllegalEvent(
            rule,
            f"region {region} needs {track} {need}; {event.player}'s effective {track} is {have}",
        )
    cost = discounted(state, seat, act, {"prov": costs[placed]})
    _cost_check(state, seat, cost, f"the next {kind}")
    facts: list[Fact] = []
    team = len(me.team)
    pay(state, seat, cost)
    _occupy(state, seat, act, event.workers, facts)
    state.squares[square] = (seat, kind)
    reveals = config.monk_reveals if kind == "monk" else config.outpost_reveals
    if kind == "monk":
        me.monks += 1
    else:
        me.outposts += 1
    gain(state, seat, state.catalogue.field("square", square, "reward"), "square", facts)
    unit = {"faith": "faith", "strength": "str", "influence": "inf"}[reveals[placed]]
    gain(state, seat, {unit: 1}, kind, facts)
    return _done(state, seat, act, facts, team)


def _free_square(state: State, square: str, rule: str) -> str:
    """PA-31: a square of the catalogue, open at this player count, holding nothing."""
    cat = state.catalogue
    if square not in cat.entries["square"]:
        raise IllegalEvent(rule, f"{square!r} is not a square of the main board")
    if cat.entry("square", square).players > len(state.players):
        raise IllegalEvent(
            "PA-31",
            f"square {square} is open only with {cat.entry('square', square).players}+ players",
        )
    if square in state.squares:
        owner, piece = state.squares[square]
        raise IllegalEvent("PA-31", f"square {square} holds {state.players[owner]}'s {piece}")
    return square


def _commission(state: State, event: Commission) -> Sequence[Fact]:
    return _square(state, _turn_of(state, event, "commission"), event, "monk")


def _garrison(state: State, event: Garrison) -> Sequence[Fact]:
    return _square(state, _turn_of(state, event, "garrison"), event, "outpost")


def _build_wall(state: State, event: BuildWall) -> Sequence[Fact]:
    seat = _turn_of(state, event, "build_wall")
    config = state.config
    me = state.board[seat]
    _place(state, seat, "build_wall", event.workers)
    built = len(me.walls)
    if built >= len(config.wall_provisions):
        raise IllegalEvent("PA-45", f"{event.player} has built every wall")
    if not state.wall_deck:
        raise IllegalEvent("PA-56", "the wall deck is empty: build_wall is illegal")
    need, have = config.wall_influence[built], effective(state, seat, "influence")
    if have < need:
        raise IllegalEvent(
            "PA-32",
            f"the next wall needs influence {need}; {event.player}'s effective influence is {have}",
        )
    cost = discounted(state, seat, "build_wall", {"prov": config.wall_provisions[built]})
    _cost_check(state, seat, cost, "the next wall")
    facts: list[Fact] = []
    pay(state, seat, cost)
    _occupy(state, seat, "build_wall", event.workers, facts)
    state.pending_team = len(me.team)
    return _done(state, seat, "build_wall", facts, 0, draw="draw_wall")


def _draw_wall(state: State, event: DrawWall) -> Sequence[Fact]:
    seat = seat_of(state, event, "PA-32")
    _expect(state, "draw_wall", "draw_wall", "PA-32")
    _in_turn(state, seat, event, "PA-32")
    if event.card not in state.wall_deck:
        raise IllegalEvent("PA-32", f"{event.card} is not a wall card still in the deck")
    state.wall_deck.remove(event.card)
    state.board[seat].walls.append(event.card)
    facts: list[Fact] = []
    gain(state, seat, state.catalogue.field("wall", event.card, "reward"), "wall", facts)
    return _drawn(state, seat, "build_wall", facts)


def _absolve(state: State, event: Absolve) -> Sequence[Fact]:
    seat = _turn_of(state, event, "absolve")
    config = state.config
    me = state.board[seat]
    _place(state, seat, "absolve", event.workers)
    done = len(me.jars)
    if done >= len(config.jar_silver):
        raise IllegalEvent("PA-45", f"{event.player} has used every jar")
    if not 1 <= event.spot <= len(config.jar_spots) or event.spot in me.jars:
        raise IllegalEvent(
            "PA-34", f"jar spot {event.spot} is not an empty spot of 1 … {len(config.jar_spots)}"
        )
    need, have = config.jar_influence[done], effective(state, seat, "influence")
    if have < need:
        raise IllegalEvent(
            "PA-34",
            f"the next jar needs influence {need}; {event.player}'s effective influence is {have}",
        )
    cost = discounted(state, seat, "absolve", {"silver": config.jar_silver[done]})
    _cost_check(state, seat, cost, "the next jar")
    facts: list[Fact] = []
    team = len(me.team)
    pay(state, seat, cost)
    _occupy(state, seat, "absolve", event.workers, facts)
    me.jars.append(event.spot)
    gain(state, seat, reward(config.jar_spots[event.spot - 1]), "jar", facts)
    gain(state, seat, {"faith": config.absolve_faith}, "absolve", facts)
    for _ in range(min(config.absolve_pardons, len(me.suspicion))):  # PA-56: earliest first
        state.suspicion_discard.append(me.suspicion.pop(0))
    return _done(state, seat, "absolve", facts, team)


def _outsider_slot(state: State, card: str, rule: str) -> int:
    if card not in state.outsiders:
        shown = ", ".join(c for c in state.outsiders if c) or "none"
        raise IllegalEvent(rule, f"{card} is not in the outsider display ({shown})")
    return state.outsiders.index(card)


def _attack(state: State, event: Attack) -> Sequence[Fact]:
    seat = _turn_of(state, event, "attack")
    _place(state, seat, "attack", event.workers)
    slot = _outsider_slot(state, event.card, "PA-35")
    silver = attack_silver(state, seat, event.card)
    if event.silver is not None and event.silver != silver:
        raise IllegalEvent(
            "PA-53", f"the attack on {event.card} costs {silver} silver, not {event.silver}"
        )
    _cost_check(state, seat, {"silver": silver}, f"attacking {event.card}")
    facts: list[Fact] = []
    me = state.board[seat]
    team = len(me.team)
    pay(state, seat, {"silver": silver})
    _occupy(state, seat, "attack", event.workers, facts)
    state.outsiders[slot] = None
    me.attacked.append(event.card)
    gain(state, seat, state.catalogue.field("outsider", event.card, "attack"), "attack", facts)
    return _done(state, seat, "attack", facts, team)


def _convert(state: State, event: Convert) -> Sequence[Fact]:
    seat = _turn_of(state, event, "convert")
    config = state.config
    me = state.board[seat]
    _place(state, seat, "convert", event.workers)
    done = len(me.converts)
    if done >= len(config.convert_silver):
        raise IllegalEvent("PA-45", f"{event.player} has every convert place filled")
    slot = _outsider_slot(state, event.card, "PA-36")
    need = state.catalogue.entry("outsider", event.card).faith
    have = effective(state, seat, "faith")
    if have < need:
        raise IllegalEvent(
            "PA-36",
            f"converting {event.card} needs faith {need}; "
            f"{event.player}'s effective faith is {have}",
        )
    cost = discounted(state, seat, "convert", {"silver": config.convert_silver[done]})
    _cost_check(state, seat, cost, "the next convert")
    facts: list[Fact] = []
    team = len(me.team)
    pay(state, seat, cost)
    _occupy(state, seat, "convert", event.workers, facts)
    state.outsiders[slot] = None
    me.converts.append(event.card)
    gain(state, seat, state.catalogue.field("outsider", event.card, "convert"), "convert", facts)
    return _done(state, seat, "convert", facts, team)


def _favour(state: State, event: Favour) -> Sequence[Fact]:
    seat = _turn_of(state, event, "favour")
    cat = state.catalogue
    if not favour_open(state, seat, event.card):
        raise IllegalEvent(
            "PA-8", f"{event.card} is not a revealed favour open to {event.player} this round"
        )
    slots = cat.field("favour", event.card, "slots")
    me = state.board[seat]
    if not fits(slots, event.workers):
        raise IllegalEvent(
            "PA-16",
            f"{event.card} takes workers for {'·'.join(slots)}, not "
            f"{', '.join(event.workers) or 'none'}",
        )
    if not has_workers(me.supply, event.workers):
        raise IllegalEvent(
            "PA-16",
            f"{event.player} does not hold {', '.join(event.workers)} (supply: {_supply(me)})",
        )
    cost = discounted(state, seat, "favour", cat.field("favour", event.card, "cost"))
    _cost_check(state, seat, cost, event.card)
    effect = cat.field("favour", event.card, "effect")
    if effect == "recruit":  # PA-52: any displayed townsfolk joins, free
        if event.townsfolk is None:
            raise IllegalEvent("PA-52", f"{event.card} recruits: name the townsfolk")
        slot = _townsfolk_slot(state, event.townsfolk, "PA-52")
    elif effect == "pray":  # PA-51: any of the player's spaces holding workers
        if event.space is None:
            raise IllegalEvent("PA-51", f"{event.card} clears a space: name it")
        _clearable(state, seat, event.space, "PA-51", own=None)
    if (event.townsfolk is not None and effect != "recruit") or (
        event.space is not None and effect != "pray"
    ):
        raise IllegalEvent("PA-37", f"{event.card}'s effect takes no townsfolk or space")
    facts: list[Fact] = []
    team = len(me.team)
    pay(state, seat, cost)
    spend_workers(state, seat, event.workers, "favour", facts)
    state.favour_workers.setdefault(event.card, []).extend((seat, w) for w in event.workers)
    if effect == "recruit":
        assert event.townsfolk is not None
        state.townsfolk[slot] = None
        was = effective_all(state, seat)
        me.team.append(event.townsfolk)
        bonus_changed(state, seat, was, "recruit", facts)
        gain(state, seat, cat.field("townsfolk", event.townsfolk, "recruit"), "recruit", facts)
    elif effect == "pray":
        assert event.space is not None
        _clear(state, seat, event.space)
    else:
        gain(state, seat, effect, "favour", facts)
    return _done(state, seat, "favour", facts, team)


def _pass(state: State, event: Pass) -> Sequence[Fact]:
    seat = _turn_of(state, event, "pass")
    me = state.board[seat]
    held = sum(me.supply.values())
    keep = min(state.config.keep_workers, held)
    if len(event.keep) != keep or not has_workers(me.supply, event.keep):
        raise IllegalEvent(
            "PA-50",
            f"{event.player} keeps exactly {keep} of the workers held "
            f"({_supply(me)}), not {', '.join(event.keep) or 'none'}",
        )
    facts: list[Fact] = []
    kept: dict[str, int] = {}
    for w in event.keep:
        kept[w] = kept.get(w, 0) + 1
    for colour, count in me.supply.items():
        if count - kept.get(colour, 0):
            facts.append(
                ResourceChanged(
                    round=state.round,
                    seat=seat,
                    resource=colour,
                    delta=-(count - kept.get(colour, 0)),
                    cause="pass",
                )
            )
    me.supply = kept
    me.spaces = {}
    me.passed = True
    _next_turn(state, facts)
    return facts


def _next_turn(state: State, facts: list[Fact]) -> None:
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


_HANDLERS: dict[type, Callable[[State, Any], Sequence[Fact]]] = {
    RevealTownsfolk: _reveal_display,
    RevealOutsiders: _reveal_display,
    RevealKing: _reveal_king,
    RevealTavern: _reveal_tavern,
    ChoosePaladin: _choose_paladin,
    TakeTavern: _take_tavern,
    Develop: _develop,
    Recruit: _recruit,
    Hunt: _hunt_trade,
    Trade: _hunt_trade,
    Pray: _pray,
    Scheme: _scheme,
    DrawSuspicion: _draw_suspicion,
    Commission: _commission,
    Garrison: _garrison,
    BuildWall: _build_wall,
    DrawWall: _draw_wall,
    Absolve: _absolve,
    Attack: _attack,
    Convert: _convert,
    Favour: _favour,
    Pass: _pass,
}

apply: Callable[[State, Event], Sequence[Fact]] = dispatch(_HANDLERS, "a Paladins")


__all__ = ["apply", "is_over", "new_game"]
