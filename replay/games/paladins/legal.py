"""Every decision the rules allow now (PA-10, PA-11, PA-15 to PA-38), built from the checks
`rules.py` applies, and chance's own moves for the simulator (reveals and draws).

Worker lists are enumerated as every distinct fit of the held colours to the slots in slot
order (PA-16, PA-43); a pass keeps its workers in sorted order (any order is accepted).
"""

from __future__ import annotations

import functools
import math
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations, permutations
from typing import Any

from replay.game import CHANCE, Expecting

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
    attack_silver,
    can_pay,
    discounted,
    effective,
    favour_open,
    refill_due,
    slots_for,
)
from .state import State
from .words import MAIN_ACTIONS


def fillings(supply: dict[str, int], slots: Sequence[str]) -> tuple[tuple[Any, ...], ...]:
    """Every distinct list of held workers that fits `slots` in order (PA-16)."""
    return _fillings(colours_held(supply), tuple(slots))


def colours_held(supply: dict[str, int]) -> tuple[tuple[str, int], ...]:
    """The colours held and how many of each, in colour order: what the fillings of a space
    and the keeps of a pass are reckoned from."""
    return tuple(sorted((colour, count) for colour, count in supply.items() if count))


# A turn's spaces ask again and again for the same few supplies and slots (every space, every
# option the greedy bot weighs, every turn of every playout), and the answer is the same.
@functools.lru_cache(maxsize=4096)
def _fillings(
    held: tuple[tuple[str, int], ...], slots: tuple[str, ...]
) -> tuple[tuple[str, ...], ...]:
    out: set[tuple[str, ...]] = set()

    def walk(i: int, chosen: list[str], left: dict[str, int]) -> None:
        if i == len(slots):
            out.add(tuple(chosen))
            return
        for colour, count in left.items():
            if count and (slots[i] in ("any", colour) or colour == "purple"):
                left[colour] -= 1
                chosen.append(colour)
                walk(i + 1, chosen, left)
                chosen.pop()
                left[colour] += 1

    walk(0, [], dict(held))
    return tuple(sorted(out))


@functools.lru_cache(maxsize=1024)
def _keeps(held: tuple[tuple[str, int], ...], size: int) -> tuple[tuple[Any, ...], ...]:
    """PA-50: every multiset of `size` held workers, sorted."""
    colours = [colour for colour, _ in held]
    supply = dict(held)
    out: list[tuple[str, ...]] = []

    def walk(i: int, chosen: list[str]) -> None:
        if len(chosen) == size:
            out.append(tuple(chosen))
            return
        for j in range(i, len(colours)):
            colour = colours[j]
            if chosen.count(colour) < supply[colour]:
                chosen.append(colour)
                walk(j, chosen)
                chosen.pop()

    walk(0, [])
    return tuple(out)


def legal_events(state: State, seat: int | None = None) -> list[Event]:
    """Every decision event the engine would accept next (of `seat`, when given)."""
    phase = state.phase
    if phase == "paladins":
        out: list[Event] = []
        draw = state.config.paladin_draw
        for who, me in enumerate(state.board):
            if me.paladin is not None or (seat is not None and seat != who):
                continue
            top3 = me.deck[:draw]
            for paladin in top3:
                rest = [c for c in top3 if c != paladin]
                for top in rest:
                    bottom = next(c for c in rest if c != top)
                    out.append(
                        ChoosePaladin(
                            player=state.players[who], paladin=paladin, top=top, bottom=bottom
                        )
                    )
        return out
    if seat is not None and seat != state.turn:
        return []
    if phase == "take_tavern":
        player = state.players[state.turn]
        return [
            TakeTavern(player=player, card=card) for card in state.tavern if card not in state.taken
        ]
    if phase == "actions":
        return list(actions(state, state.turn))
    return []


def actions(state: State, seat: int) -> Iterator[Event]:
    """PA-15 to PA-38: the seat's actions this turn, passing included."""
    config = state.config
    me = state.board[seat]
    player = state.players[seat]
    free = {
        space for space in (*config.space_slots, *config.main_slots) if not me.spaces.get(space)
    }
    supply = me.supply
    have = colours_held(supply)

    def fill(space: str) -> list[tuple[tuple[Any, ...], ...]]:
        """For each mode of a space, its fillings."""
        if space in config.main_slots:
            return [_fillings(have, tuple(slots_for(state, seat, space) or ()))]
        return [_fillings(have, tuple(slots)) for slots in config.space_slots[space]]

    if (
        "develop" in free
        and me.developed < len(config.workshop_workers)
        and can_pay(
            state, seat, discounted(state, seat, "develop", {"silver": config.develop_silver})
        )
    ):
        targets = [a for a in MAIN_ACTIONS if me.workshops[a] < config.workshops_per_action]
        for workers in fill("develop")[0]:
            for action in targets:
                yield Develop(player=player, workers=list(workers), action=action)
    if "recruit" in free:
        # each displayed card: whether its silver can be paid, whether a debt may pay for it
        offers = [
            (
                card,
                can_pay(
                    state,
                    seat,
                    discounted(
                        state,
                        seat,
                        "recruit",
                        {"silver": state.catalogue.entry("townsfolk", card).cost},
                    ),
                ),
                slot < config.debt_slots,
            )
            for slot, card in enumerate(state.townsfolk)
            if card is not None
        ]
        for mode in fill("recruit"):
            for workers in mode:
                for card, silver, debt in offers:
                    if silver:
                        yield Recruit(player=player, workers=list(workers), card=card)
                    if debt:
                        yield Recruit(player=player, workers=list(workers), card=card, pay="debt")
    for act, event_type in (("hunt", Hunt), ("trade", Trade)):
        if act in free:
            for mode in fill(act):
                for workers in mode:
                    yield event_type(player=player, workers=list(workers))
    if "pray" in free and can_pay(
        state, seat, discounted(state, seat, "pray", {"silver": config.pray_silver})
    ):
        held = [s for s, w in me.spaces.items() if w and s != "pray"]
        for workers in fill("pray")[0]:
            for space in held:
                yield Pray(player=player, workers=list(workers), space=space)
    if "scheme" in free and (state.suspicion_deck or state.suspicion_discard):
        for workers in fill("scheme")[0]:
            yield Scheme(player=player, workers=list(workers))
    yield from _main_actions(state, seat, free, fill)
    yield from _favours(state, seat)
    size = min(config.keep_workers, sum(supply.values()))
    for kept in _keeps(have, size):
        yield Pass(player=player, keep=list(kept))


def _main_actions(state: State, seat: int, free: set[str], fill: Any) -> Iterator[Event]:
    """PA-29 to PA-36, with the limits of PA-45 and PA-55, PA-56."""
    config = state.config
    me = state.board[seat]
    player = state.players[seat]
    cat = state.catalogue
    n = len(state.players)
    for kind, act, event_type, placed, costs in (
        ("monk", "commission", Commission, me.monks, config.monk_provisions),
        ("outpost", "garrison", Garrison, me.outposts, config.outpost_provisions),
    ):
        if act not in free or placed >= len(costs):
            continue
        if not can_pay(state, seat, discounted(state, seat, act, {"prov": costs[placed]})):
            continue
        track = "faith" if kind == "monk" else "strength"
        needs = config.region_faith if kind == "monk" else config.region_strength
        have = effective(state, seat, track)
        squares = [
            sq
            for sq, square in cat.entries["square"].items()
            if sq not in state.squares and square.players <= n and have >= needs[square.region - 1]
        ]
        for workers in fill(act)[0]:
            for square in squares:
                yield event_type(player=player, workers=list(workers), square=square)
    built = len(me.walls)
    if (
        "build_wall" in free
        and built < len(config.wall_provisions)
        and state.wall_deck
        and effective(state, seat, "influence") >= config.wall_influence[built]
        and can_pay(
            state,
            seat,
            discounted(state, seat, "build_wall", {"prov": config.wall_provisions[built]}),
        )
    ):
        for workers in fill("build_wall")[0]:
            yield BuildWall(player=player, workers=list(workers))
    done = len(me.jars)
    if (
        "absolve" in free
        and done < len(config.jar_silver)
        and effective(state, seat, "influence") >= config.jar_influence[done]
        and can_pay(
            state, seat, discounted(state, seat, "absolve", {"silver": config.jar_silver[done]})
        )
    ):
        spots = [s for s in range(1, len(config.jar_spots) + 1) if s not in me.jars]
        for workers in fill("absolve")[0]:
            for spot in spots:
                yield Absolve(player=player, workers=list(workers), spot=spot)
    outsiders = [card for card in state.outsiders if card is not None]
    if "attack" in free:
        targets = [c for c in outsiders if me.silver >= attack_silver(state, seat, c)]
        for workers in fill("attack")[0]:
            for card in targets:
                yield Attack(player=player, workers=list(workers), card=card)
    converted = len(me.converts)
    if (
        "convert" in free
        and converted < len(config.convert_silver)
        and can_pay(
            state,
            seat,
            discounted(state, seat, "convert", {"silver": config.convert_silver[converted]}),
        )
    ):
        faith = effective(state, seat, "faith")
        targets = [c for c in outsiders if faith >= cat.entry("outsider", c).faith]
        for workers in fill("convert")[0]:
            for card in targets:
                yield Convert(player=player, workers=list(workers), card=card)


def _favours(state: State, seat: int) -> Iterator[Event]:
    """PA-37, PA-51, PA-52: each open favour the player can staff and pay, with its target."""
    me = state.board[seat]
    player = state.players[seat]
    cat = state.catalogue
    for card in state.favours:
        if not favour_open(state, seat, card):
            continue
        if not can_pay(
            state, seat, discounted(state, seat, "favour", cat.field("favour", card, "cost"))
        ):
            continue
        effect = cat.field("favour", card, "effect")
        for workers in fillings(me.supply, cat.field("favour", card, "slots")):
            if effect == "recruit":
                for townsfolk in [c for c in state.townsfolk if c is not None]:
                    yield Favour(
                        player=player, workers=list(workers), card=card, townsfolk=townsfolk
                    )
            elif effect == "pray":
                for space in [s for s, w in me.spaces.items() if w]:
                    yield Favour(player=player, workers=list(workers), card=card, space=space)
            else:
                yield Favour(player=player, workers=list(workers), card=card)


# --- chance, for the simulator ---------------------------------------------------------------


def to_move(state: State) -> int:
    """The seat whose decision comes next (choosing paladins: the first yet to choose)."""
    if state.phase == "paladins":
        return next(s for s, me in enumerate(state.board) if me.paladin is None)
    return state.turn


def chance_event(state: State, rng: random.Random) -> Event | None:
    """Chance's reveal or draw when one is due (PA-42, PA-48, PA-54, PA-56), else None."""
    phase = state.phase
    if phase in ("refill_townsfolk", "refill_outsiders"):
        townsfolk = phase == "refill_townsfolk"
        deck = state.townsfolk_deck if townsfolk else state.outsider_deck
        cards = rng.sample(deck, refill_due(state, townsfolk))
        return RevealTownsfolk(cards=cards) if townsfolk else RevealOutsiders(cards=cards)
    if phase == "king":
        deck = state.order_deck if state.king_due[0] == "order" else state.favour_deck
        return RevealKing(card=rng.choice(deck), round=state.round)
    if phase == "tavern":
        want = len(state.players) + state.config.tavern_extra
        deck = state.tavern_deck
        if len(deck) >= want:
            return RevealTavern(cards=rng.sample(deck, want), round=state.round)
        fresh = rng.sample(state.tavern_discard, want - len(deck))
        return RevealTavern(cards=rng.sample(deck, len(deck)) + fresh, round=state.round)
    if phase == "draw_wall":
        return DrawWall(player=state.players[state.turn], card=rng.choice(state.wall_deck))
    if phase == "draw_suspicion":
        deck = state.suspicion_deck or state.suspicion_discard
        return DrawSuspicion(player=state.players[state.turn], card=rng.choice(deck))
    return None


def chance_outcomes(state: State) -> Iterator[tuple[Event, float | None]]:
    """Every reveal or draw chance_event could make now, each once in `canonical` form, with
    its probability (every deck is drawn from uniformly, PA-42); nothing where a seat decides.

    A display's reveal fills its slots in the order the cards come (PA-54: leftmost first),
    and a slot matters (PA-52's debt slots, PA-64's discard), so each ordering is an outcome:
    n!/(n-k)! of them, listed lazily. The tavern's cards are only a set this round (PA-9), so
    each set is listed once, sorted."""
    phase = state.phase
    if phase in ("refill_townsfolk", "refill_outsiders"):
        townsfolk = phase == "refill_townsfolk"
        deck = state.townsfolk_deck if townsfolk else state.outsider_deck
        due = refill_due(state, townsfolk)
        p = 1 / math.perm(len(deck), due)
        reveal = RevealTownsfolk if townsfolk else RevealOutsiders
        return ((reveal(cards=list(cards)), p) for cards in permutations(deck, due))
    if phase == "king":
        deck = state.order_deck if state.king_due[0] == "order" else state.favour_deck
        return ((RevealKing(card=c, round=state.round), p) for c, p in _each(deck))
    if phase == "tavern":
        return _tavern_outcomes(state)
    if phase == "draw_wall":
        player = state.players[state.turn]
        return ((DrawWall(player=player, card=c), p) for c, p in _each(state.wall_deck))
    if phase == "draw_suspicion":
        player = state.players[state.turn]
        deck = state.suspicion_deck or state.suspicion_discard  # PA-56: the discard reshuffled
        return ((DrawSuspicion(player=player, card=c), p) for c, p in _each(deck))
    return iter(())


def _each(deck: Sequence[str]) -> Iterator[tuple[str, float]]:
    """One card drawn from `deck`: each card once, as likely as its copies make it."""
    counts = Counter(deck)
    return ((card, k / len(deck)) for card, k in counts.items())


def _tavern_outcomes(state: State) -> Iterator[tuple[Event, float | None]]:
    """PA-9, PA-48: players + 1 cards from the deck; from a short deck all of it, then the rest
    from its discard shuffled into a new deck."""
    want = len(state.players) + state.config.tavern_extra
    deck = state.tavern_deck
    if len(deck) >= want:
        first, pool, more = [], deck, want
    else:
        first, pool, more = list(deck), state.tavern_discard, want - len(deck)
    p = 1 / math.comb(len(pool), more)
    for fresh in combinations(pool, more):
        yield RevealTavern(cards=sorted([*first, *fresh]), round=state.round), p


def shuffled_decks(
    players: Sequence[str], paladins: Sequence[str], rng: random.Random
) -> dict[str, list[str]]:
    """PA-42: each player's paladin deck, shuffled."""
    decks = {}
    for player in players:
        deck = list(paladins)
        rng.shuffle(deck)
        decks[player] = deck
    return decks


def canonical(event: Event) -> Event:
    """The form `legal_events` lists an event in: a pass's kept workers sorted, an attack
    without its optional silver cross-check (PA-53), the tavern's cards sorted (they are only a
    set, PA-9)."""
    if isinstance(event, RevealTavern):
        return RevealTavern(cards=sorted(event.cards), round=event.round)
    if isinstance(event, Pass):
        return Pass(player=event.player, keep=sorted(event.keep))
    if isinstance(event, Attack) and event.silver is not None:
        return Attack(player=event.player, workers=event.workers, card=event.card)
    return event


_CHANCE_KINDS = {
    "refill_townsfolk": "reveal_townsfolk",
    "refill_outsiders": "reveal_outsiders",
    "king": "reveal_king",
    "tavern": "reveal_tavern",
}


# PA-15: an action of the actions phase is one of these.
ACTIONS = (
    "develop",
    "recruit",
    "hunt",
    "trade",
    "pray",
    "scheme",
    "commission",
    "garrison",
    "build_wall",
    "absolve",
    "attack",
    "convert",
    "favour",
    "pass",
)


def expecting(state: State) -> Expecting:
    phase = state.phase
    if phase in _CHANCE_KINDS:
        return Expecting(kind=_CHANCE_KINDS[phase], decider=CHANCE, detail={"round": state.round})
    if phase == "paladins":
        seats = tuple(s for s, me in enumerate(state.board) if me.paladin is None)
        return Expecting(kind="choose_paladin", seats=seats, detail={"round": state.round})
    if phase in ("take_tavern", "actions", "draw_wall", "draw_suspicion"):
        kind = {"actions": "action"}.get(phase, phase)
        decider = CHANCE if phase.startswith("draw") else state.turn
        return Expecting(
            kind=kind,
            seats=(state.turn,),
            decider=decider,
            detail={"round": state.round},
            kinds=ACTIONS if phase == "actions" else (),
        )
    return Expecting(kind="nothing")


def fast_expected(state: State, event: Event) -> int | None:
    """`expected`'s cheap yes, from the phase and the turn (replay asks it at every event): the
    seat, only where `expecting` says yes too; None leaves the answer to it."""
    phase = state.phase
    tag = event.__struct_config__.tag
    if phase == "actions":
        if tag in _ACTIONS and state.seats.get(event.player) == state.turn:  # type: ignore[union-attr]
            return state.turn
    elif phase in _CHANCE_KINDS:  # a reveal names no player
        if tag == _CHANCE_KINDS[phase] and getattr(event, "player", None) is None:
            return CHANCE
    elif phase in _TURN_KINDS:  # the tavern's card, a draw: the seat whose turn it is
        if tag == phase and state.seats.get(event.player) == state.turn:  # type: ignore[union-attr]
            return state.turn
    elif phase == "paladins" and tag == "choose_paladin":
        seat = state.seats.get(event.player)  # type: ignore[union-attr]
        if seat is not None and state.board[seat].paladin is None:
            return seat
    return None


_TURN_KINDS = frozenset({"take_tavern", "draw_wall", "draw_suspicion"})
_ACTIONS = frozenset(ACTIONS)
