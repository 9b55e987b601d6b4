"""The actions of a Paladins turn (PA-15 to PA-37). The twelve that place workers on one of
the seat's spaces are a table (`ACTIONS`: space, rule, requirement, cost, effect) taken by one
handler, `_take`; favours, the draws after a scheme or a wall, and passing have their own."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from replay.errors import IllegalEvent
from replay.facts import Fact, ResourceChanged
from replay.game import Handler, expected

from .effects import Amounts, reward
from .events import (
    Absolve,
    Attack,
    BuildWall,
    Commission,
    Convert,
    Develop,
    DrawSuspicion,
    DrawWall,
    Favour,
    Garrison,
    Hunt,
    Pass,
    Pray,
    Recruit,
    Scheme,
    Trade,
)
from .flow import next_turn
from .ledger import (
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
    pay,
    slots_for,
    spend_workers,
)
from .legal import expecting, fast_expected
from .state import Seat, State


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
    next_turn(state, facts)
    return facts


def _drawn(state: State, seat: int, act: str, facts: list[Fact]) -> Sequence[Fact]:
    """PA-65: after a scheme's or a wall's draw, the action's abilities with the team as it
    stood when the action was taken; then the next turn."""
    state.phase = "actions"
    fire(state, seat, act, facts, state.pending_team)
    next_turn(state, facts)
    return facts


Requirement = Callable[[State, int, Any], Any]
Cost = Callable[[State, int, Any, Any], tuple[Amounts, str]]
Effect = Callable[[State, int, Any, Any, list[Fact]], None]


@dataclass(frozen=True)
class Action:
    """An action taken by placing workers on one of the seat's spaces, as the rulebook lists
    it: checked in the order of its columns (the turn, PA-15; the space and workers, PA-16,
    PA-17; its requirement; its cost, PA-18), then paid, occupied and carried out."""

    space: str
    rule: str  # where the rulebook describes it
    requires: Requirement  # IllegalEvent unless it may be taken; what it settled
    cost: Cost | None  # the printed cost, before the abilities' discounts
    effect: Effect
    modes: bool = False  # PA-26: the number of workers chooses its mode
    discounted: bool = True  # the cost still has the abilities' discounts to come off
    draw: str | None = None  # the draw that follows before its abilities fire (PA-65)


def _reach(state: State, seat: int, track: str, need: int, what: str, rule: str) -> None:
    """PA-44: an action's requirement that the seat's effective attribute reach `need`."""
    have = effective(state, seat, track)
    if have < need:
        raise IllegalEvent(
            rule,
            f"{what} needs {track} {need}; {state.players[seat]}'s effective {track} is {have}",
        )


# --- each action's requirement, cost and effect (PA-20 to PA-36) ---------------------------
# A requirement checks what the action needs beyond its space and workers and returns what it
# settled (a display slot, a square); the cost is the printed one, with what a refusal calls it.


def _develop_needs(state: State, seat: int, event: Develop) -> None:
    config = state.config
    me = state.board[seat]
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


def _develop_cost(state: State, seat: int, event: Develop, _target: None) -> tuple[Amounts, str]:
    return {"silver": state.config.develop_silver}, "develop"


def _develop_effect(
    state: State, seat: int, event: Develop, _target: None, facts: list[Fact]
) -> None:
    config = state.config
    me = state.board[seat]
    workers = me.spaces.get(event.action)
    if workers:  # PA-20: the worker on the covered slot returns to the common supply
        workers.pop(0)
        if not workers:
            del me.spaces[event.action]
    me.workshops[event.action] += 1
    colour = config.workshop_workers[me.developed]
    me.developed += 1
    gain(state, seat, {colour: 1}, "develop", facts)


def _recruit_needs(state: State, seat: int, event: Recruit) -> int:
    slot = _townsfolk_slot(state, event.card, "PA-21")
    if event.pay == "debt" and slot >= state.config.debt_slots:
        raise IllegalEvent(
            "PA-23",
            f"a debt pays only for the {state.config.debt_slots} "
            f"leftmost townsfolk; {event.card} is in slot {slot + 1}",
        )
    return slot


def _recruit_cost(state: State, seat: int, event: Recruit, slot: int) -> tuple[Amounts, str]:
    """PA-21 to PA-23, PA-52: the silver due, or nothing when a debt is taken instead."""
    what = f"recruiting {event.card}"
    if event.pay == "debt":
        return {}, what
    return {"silver": state.catalogue.entry("townsfolk", event.card).cost}, what


def _recruit_effect(state: State, seat: int, event: Recruit, slot: int, facts: list[Fact]) -> None:
    me = state.board[seat]
    if event.pay == "debt":
        me.debts += 1
    state.townsfolk[slot] = None
    cat = state.catalogue
    if len(event.workers) == 1:  # PA-21: the quest reward; the card is discarded
        gain(state, seat, cat.field("townsfolk", event.card, "quest"), "quest", facts)
    else:  # PA-22: joins the team
        was = effective_all(state, seat)
        me.team.append(event.card)
        bonus_changed(state, seat, was, "recruit", facts)
        gain(state, seat, cat.field("townsfolk", event.card, "recruit"), "recruit", facts)


def _townsfolk_slot(state: State, card: str, rule: str) -> int:
    if card not in state.townsfolk:
        shown = ", ".join(c for c in state.townsfolk if c) or "none"
        raise IllegalEvent(rule, f"{card} is not in the townsfolk display ({shown})")
    return state.townsfolk.index(card)


def _nothing(state: State, seat: int, event: object) -> None:
    """An action that needs nothing beyond its space and workers."""


def _hunt_effect(state: State, seat: int, event: Hunt, _target: None, facts: list[Fact]) -> None:
    gain(state, seat, {"prov": state.config.hunt_provisions[len(event.workers) - 1]}, "hunt", facts)


def _trade_effect(state: State, seat: int, event: Trade, _target: None, facts: list[Fact]) -> None:
    gain(state, seat, {"silver": state.config.trade_silver[len(event.workers) - 1]}, "trade", facts)


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


def _pray_needs(state: State, seat: int, event: Pray) -> None:
    _clearable(state, seat, event.space, "PA-51", own="pray")


def _pray_cost(state: State, seat: int, event: Pray, _target: None) -> tuple[Amounts, str]:
    return {"silver": state.config.pray_silver}, "pray"


def _pray_effect(state: State, seat: int, event: Pray, _target: None, facts: list[Fact]) -> None:
    _clear(state, seat, event.space)


def _scheme_needs(state: State, seat: int, event: Scheme) -> None:
    if not state.suspicion_deck and not state.suspicion_discard:
        raise IllegalEvent("PA-56", "no suspicion card is left to draw: scheme is illegal")


def _scheme_effect(
    state: State, seat: int, event: Scheme, _target: None, facts: list[Fact]
) -> None:
    gain(state, seat, {"purple": 1}, "scheme", facts)


def _draw_suspicion(state: State, event: DrawSuspicion) -> Sequence[Fact]:
    seat = expected(state, event, expecting, "PA-28", fast=fast_expected)  # the schemer's
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


def _square_needs(kind: str) -> Requirement:
    """PA-30 (a monk, by faith) or PA-33 (an outpost, by strength): a free square of a region
    the seat's track reaches, while it has pieces left (PA-45)."""
    rule = "PA-30" if kind == "monk" else "PA-33"
    track = "faith" if kind == "monk" else "strength"

    def needs(state: State, seat: int, event: Commission | Garrison) -> str:
        config = state.config
        me = state.board[seat]
        placed = me.monks if kind == "monk" else me.outposts
        costs = config.monk_provisions if kind == "monk" else config.outpost_provisions
        if placed >= len(costs):
            raise IllegalEvent("PA-45", f"{event.player} has placed every {kind}")
        square = _free_square(state, event.square, rule)
        region = state.catalogue.entry("square", event.square).region
        need = (config.region_faith if kind == "monk" else config.region_strength)[region - 1]
        _reach(state, seat, track, need, f"region {region}", rule)
        return square

    return needs


def _square_cost(kind: str) -> Cost:
    def cost(
        state: State, seat: int, event: Commission | Garrison, _target: str
    ) -> tuple[Amounts, str]:
        me = state.board[seat]
        placed = me.monks if kind == "monk" else me.outposts
        costs = state.config.monk_provisions if kind == "monk" else state.config.outpost_provisions
        return {"prov": costs[placed]}, f"the next {kind}"

    return cost


def _square_effect(kind: str) -> Effect:
    def effect(
        state: State, seat: int, event: Commission | Garrison, square: str, facts: list[Fact]
    ) -> None:
        config = state.config
        me = state.board[seat]
        placed = me.monks if kind == "monk" else me.outposts
        state.squares[square] = (seat, kind)
        reveals = config.monk_reveals if kind == "monk" else config.outpost_reveals
        if kind == "monk":
            me.monks += 1
        else:
            me.outposts += 1
        gain(state, seat, state.catalogue.field("square", square, "reward"), "square", facts)
        unit = {"faith": "faith", "strength": "str", "influence": "inf"}[reveals[placed]]
        gain(state, seat, {unit: 1}, kind, facts)

    return effect


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


def _wall_needs(state: State, seat: int, event: BuildWall) -> None:
    config = state.config
    built = len(state.board[seat].walls)
    if built >= len(config.wall_provisions):
        raise IllegalEvent("PA-45", f"{event.player} has built every wall")
    if not state.wall_deck:
        raise IllegalEvent("PA-56", "the wall deck is empty: build_wall is illegal")
    _reach(state, seat, "influence", config.wall_influence[built], "the next wall", "PA-32")


def _wall_cost(state: State, seat: int, event: BuildWall, _target: None) -> tuple[Amounts, str]:
    return {"prov": state.config.wall_provisions[len(state.board[seat].walls)]}, "the next wall"


def _no_effect(state: State, seat: int, event: object, _target: None, facts: list[Fact]) -> None:
    """An action whose effect is the draw that follows it (PA-65)."""


def _draw_wall(state: State, event: DrawWall) -> Sequence[Fact]:
    seat = expected(state, event, expecting, "PA-32", fast=fast_expected)  # the builder's
    if event.card not in state.wall_deck:
        raise IllegalEvent("PA-32", f"{event.card} is not a wall card still in the deck")
    state.wall_deck.remove(event.card)
    state.board[seat].walls.append(event.card)
    facts: list[Fact] = []
    gain(state, seat, state.catalogue.field("wall", event.card, "reward"), "wall", facts)
    return _drawn(state, seat, "build_wall", facts)


def _jar_needs(state: State, seat: int, event: Absolve) -> None:
    config = state.config
    me = state.board[seat]
    done = len(me.jars)
    if done >= len(config.jar_silver):
        raise IllegalEvent("PA-45", f"{event.player} has used every jar")
    if not 1 <= event.spot <= len(config.jar_spots) or event.spot in me.jars:
        raise IllegalEvent(
            "PA-34", f"jar spot {event.spot} is not an empty spot of 1 … {len(config.jar_spots)}"
        )
    _reach(state, seat, "influence", config.jar_influence[done], "the next jar", "PA-34")


def _jar_cost(state: State, seat: int, event: Absolve, _target: None) -> tuple[Amounts, str]:
    return {"silver": state.config.jar_silver[len(state.board[seat].jars)]}, "the next jar"


def _absolve_effect(
    state: State, seat: int, event: Absolve, _target: None, facts: list[Fact]
) -> None:
    config = state.config
    me = state.board[seat]
    me.jars.append(event.spot)
    gain(state, seat, reward(config.jar_spots[event.spot - 1]), "jar", facts)
    gain(state, seat, {"faith": config.absolve_faith}, "absolve", facts)
    for _ in range(min(config.absolve_pardons, len(me.suspicion))):  # PA-56: earliest first
        state.suspicion_discard.append(me.suspicion.pop(0))


def _outsider_slot(state: State, card: str, rule: str) -> int:
    if card not in state.outsiders:
        shown = ", ".join(c for c in state.outsiders if c) or "none"
        raise IllegalEvent(rule, f"{card} is not in the outsider display ({shown})")
    return state.outsiders.index(card)


def _attack_needs(state: State, seat: int, event: Attack) -> int:
    slot = _outsider_slot(state, event.card, "PA-35")
    silver = attack_silver(state, seat, event.card)
    if event.silver is not None and event.silver != silver:
        raise IllegalEvent(
            "PA-53", f"the attack on {event.card} costs {silver} silver, not {event.silver}"
        )
    return slot


def _attack_cost(state: State, seat: int, event: Attack, _target: int) -> tuple[Amounts, str]:
    """PA-35, PA-53: the silver for the missing strength, its discounts already taken off."""
    return {"silver": attack_silver(state, seat, event.card)}, f"attacking {event.card}"


def _attack_effect(state: State, seat: int, event: Attack, slot: int, facts: list[Fact]) -> None:
    state.outsiders[slot] = None
    state.board[seat].attacked.append(event.card)
    gain(state, seat, state.catalogue.field("outsider", event.card, "attack"), "attack", facts)


def _convert_needs(state: State, seat: int, event: Convert) -> int:
    me = state.board[seat]
    if len(me.converts) >= len(state.config.convert_silver):
        raise IllegalEvent("PA-45", f"{event.player} has every convert place filled")
    slot = _outsider_slot(state, event.card, "PA-36")
    need = state.catalogue.entry("outsider", event.card).faith
    _reach(state, seat, "faith", need, f"converting {event.card}", "PA-36")
    return slot


def _convert_cost(state: State, seat: int, event: Convert, _target: int) -> tuple[Amounts, str]:
    return {"silver": state.config.convert_silver[len(state.board[seat].converts)]}, (
        "the next convert"
    )


def _convert_effect(state: State, seat: int, event: Convert, slot: int, facts: list[Fact]) -> None:
    state.outsiders[slot] = None
    state.board[seat].converts.append(event.card)
    gain(state, seat, state.catalogue.field("outsider", event.card, "convert"), "convert", facts)


ACTIONS: dict[type, Action] = {
    Develop: Action("develop", "PA-20", _develop_needs, _develop_cost, _develop_effect),
    Recruit: Action("recruit", "PA-21", _recruit_needs, _recruit_cost, _recruit_effect, modes=True),
    Hunt: Action("hunt", "PA-24", _nothing, None, _hunt_effect, modes=True),
    Trade: Action("trade", "PA-25", _nothing, None, _trade_effect, modes=True),
    Pray: Action("pray", "PA-27", _pray_needs, _pray_cost, _pray_effect),
    Scheme: Action("scheme", "PA-28", _scheme_needs, None, _scheme_effect, draw="draw_suspicion"),
    Commission: Action(
        "commission", "PA-30", _square_needs("monk"), _square_cost("monk"), _square_effect("monk")
    ),
    Garrison: Action(
        "garrison",
        "PA-33",
        _square_needs("outpost"),
        _square_cost("outpost"),
        _square_effect("outpost"),
    ),
    BuildWall: Action("build_wall", "PA-32", _wall_needs, _wall_cost, _no_effect, draw="draw_wall"),
    Absolve: Action("absolve", "PA-34", _jar_needs, _jar_cost, _absolve_effect),
    Attack: Action(
        "attack", "PA-35", _attack_needs, _attack_cost, _attack_effect, discounted=False
    ),
    Convert: Action("convert", "PA-36", _convert_needs, _convert_cost, _convert_effect),
}


def _take(action: Action) -> tuple[Handler, Handler]:
    """The handler of one action of the table, and its twin for an event known to be one of
    the legal moves (`legal.actions`'): the same changes and facts, without the checks that
    cannot fail then (the turn, the space and workers, the price). The greedy bot tries every
    kind of option a turn, and those checks were about a fifth of a trial's time, profiled."""
    space, requires, price, effect = action.space, action.requires, action.cost, action.effect
    modes, cut, draw = action.modes, action.discounted, action.draw

    def take(state: State, event: Any) -> Sequence[Fact]:
        seat = expected(state, event, expecting, "PA-15", fast=fast_expected)
        _place(state, seat, space, event.workers, modes)
        target = requires(state, seat, event)
        cost: Amounts = {}
        if price is not None:
            cost, what = price(state, seat, event, target)
            if cut:
                cost = discounted(state, seat, space, cost)
            _cost_check(state, seat, cost, what)
        return _carry_out(state, seat, event, target, cost)

    def take_legal(state: State, event: Any) -> Sequence[Fact]:
        seat = state.turn  # an action is listed for the seat whose turn it is, and no other
        target = requires(state, seat, event)
        cost: Amounts = {}
        if price is not None:
            cost = price(state, seat, event, target)[0]
            if cut:
                cost = discounted(state, seat, space, cost)
        return _carry_out(state, seat, event, target, cost)

    def _carry_out(
        state: State, seat: int, event: Any, target: Any, cost: Amounts
    ) -> Sequence[Fact]:
        facts: list[Fact] = []
        team = len(state.board[seat].team)
        pay(state, seat, cost)
        _occupy(state, seat, space, event.workers, facts)
        effect(state, seat, event, target, facts)
        if draw is not None:
            state.pending_team = team
        return _done(state, seat, space, facts, team, draw=draw)

    return take, take_legal


def _favour(state: State, event: Favour) -> Sequence[Fact]:
    seat = expected(state, event, expecting, "PA-15", fast=fast_expected)
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
    seat = expected(state, event, expecting, "PA-15", fast=fast_expected)
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
    next_turn(state, facts)
    return facts


_TAKES = {kind: _take(action) for kind, action in ACTIONS.items()}

HANDLERS: dict[type, Handler] = {
    **{kind: checked for kind, (checked, _) in _TAKES.items()},
    DrawSuspicion: _draw_suspicion,
    DrawWall: _draw_wall,
    Favour: _favour,
    Pass: _pass,
}

# An event known to be one of `legal.legal_events`' own: the actions' twins without the checks
# that cannot fail then; every other event's handler as it is.
LEGAL_HANDLERS: dict[type, Handler] = {
    **HANDLERS,
    **{kind: legal for kind, (_, legal) in _TAKES.items()},
}
