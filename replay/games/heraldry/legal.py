"""Every action the rules allow a seat now (HE-4 to HE-14), built from the same predicates
`rules.apply` checks with.

Actions come in parts because a move's second step depends on its first: `steps` lists
first steps, `second_steps` what may follow one. `legal_events` puts the parts together;
`has_action` answers HE-14 without building them.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from typing import Any, Literal, cast

from replay.game import Expecting

from .checks import (
    Pieces,
    build_block,
    entry_block,
    expedition_block,
    found_block,
    recruit_limit,
    setup_block,
)
from .config import TITLES, Terrain
from .events import (
    ACTIONS,
    Build,
    Event,
    Expedition,
    FoundCity,
    Move,
    Pass,
    PlaceCity,
    Promote,
    Recruit,
    Site,
    Step,
)
from .movement import Ahead, loot_due, plan_ahead, plan_step
from .state import State


def legal_events(state: State, seat: int | None = None) -> list[Event]:
    """Every event the engine would accept next (of `seat`, when given).

    Builds list their sites in map order and promotions pay no needless token (HE-18 also
    accepts more): one event for each distinct outcome."""
    if state.phase == "over" or (seat is not None and seat != state.turn):
        return []
    seat = state.turn
    player = state.players[seat]
    if state.phase == "setup":
        return [PlaceCity(player=player, hex=state.board.coords[h]) for h in setup_hexes(state)]
    events: list[Event] = []
    events.extend(recruits(state, seat))
    firsts = steps(state, seat)
    for first in firsts:
        events.append(Move(player=player, steps=[first]))
        events.extend(
            Move(player=player, steps=[first, second])
            for second in second_steps(state, seat, first)
        )
    events.extend(builds(state, seat))
    events.extend(foundings(state, seat))
    events.extend(expeditions(state, seat))
    events.extend(promotions(state, seat))
    if not events:
        events.append(Pass(player=player))
    return events


def setup_hexes(state: State) -> list[int]:
    return [h for h in range(len(state.board)) if setup_block(state, h) is None]


def recruits(state: State, seat: int) -> list[Recruit]:
    """HE-6: each city, each number of knights up to its limit and the reserve."""
    reserve = state.reserve[seat]["knight"]
    player = state.players[seat]
    coords = state.board.coords
    return [
        Recruit(player=player, city=coords[h], knights=k)
        for h in own(state, seat, "city")
        for k in range(1, min(recruit_limit(state, h), reserve) + 1)
    ]


def own(state: State, seat: int, piece: str) -> list[int]:
    return [h for h, kind in state.built[seat].items() if kind == piece]


def knight_hexes(state: Pieces, seat: int) -> list[int]:
    return list(state.posts[seat])


def steps(state: Pieces, seat: int, moved: dict[int, int] | None = None) -> list[Step]:
    """HE-7, HE-8: every single step a knight of `seat` may take, with each loot it may
    choose (HE-19); `moved` counts the knights per hex that have moved this action."""
    board = state.board
    coords = board.coords
    out: list[Step] = []
    moved = moved or {}
    knights = state.knights
    for a in knight_hexes(state, seat):
        if knights[a][seat] <= moved.get(a, 0):
            continue
        for b in board.neighbours[a]:
            if entry_block(state, seat, b) is not None:
                continue
            if sum(knights[b]) == knights[b][seat] and state.building[b] is None:
                out.append(Step(from_=coords[a], to=coords[b]))  # empty but for its own
                continue
            for loot in loot_choices(state, seat, b):
                out.append(Step(from_=coords[a], to=coords[b], loot=loot))
    return out


def loot_choices(state: Pieces, seat: int, b: int) -> list[list[Terrain]]:
    """HE-19: the loot lists a step into `b` may carry: one per terrain the victim holds."""
    _, owner = loot_due(state, seat, b)
    if owner is None:
        return [[]]
    held = sorted(cast(Terrain, t) for t, count in state.tokens[owner].items() if count)
    return [[terrain] for terrain in held] or [[]]


def second_steps(state: State, seat: int, first: Step) -> list[Step]:
    """HE-20: the steps that may follow `first`, on the board as it leaves."""
    moved: dict[int, int] = {}
    ahead = Ahead(state, posts=True)
    plan_ahead(ahead, plan_step(ahead, seat, first, moved))
    return steps(ahead, seat, moved)


def build_sites(state: State, seat: int) -> list[int]:
    """HE-10: the hexes where `seat` may build (none when its reserve has no building)."""
    reserve = state.reserve[seat]
    if not reserve["village"] and not reserve["fortress"]:
        return []
    return [h for h in sorted(knight_hexes(state, seat)) if build_block(state, seat, h) is None]


def builds(state: State, seat: int) -> Iterator[Build]:
    """HE-10: every non-empty set of sites, each a village or a fortress the reserve holds."""
    sites = build_sites(state, seat)
    if not sites:
        return
    reserve = state.reserve[seat]
    player = state.players[seat]
    coords = state.board.coords
    choices: tuple[Literal["village", "fortress"] | None, ...] = (None, "village", "fortress")
    for pick in itertools.product(choices, repeat=len(sites)):
        villages = pick.count("village")
        fortresses = pick.count("fortress")
        if (
            not villages + fortresses
            or villages > reserve["village"]
            or fortresses > reserve["fortress"]
        ):
            continue
        yield Build(
            player=player,
            sites=[
                Site(hex=coords[h], piece=piece)
                for h, piece in zip(sites, pick)
                if piece is not None
            ],
        )


def foundings(state: State, seat: int) -> list[FoundCity]:
    """HE-11."""
    if not state.reserve[seat]["city"]:
        return []
    player = state.players[seat]
    return [
        FoundCity(player=player, hex=state.board.coords[h])
        for h in own(state, seat, "village")
        if found_block(state, seat, h) is None
    ]


def expedition_hexes(state: State, seat: int) -> list[int]:
    """HE-12."""
    if state.reserve[seat]["knight"] < state.config.expedition_knights:
        return []
    return [h for h in range(len(state.board)) if expedition_block(state, h) is None]


def expeditions(state: State, seat: int) -> list[Expedition]:
    player = state.players[seat]
    return [
        Expedition(player=player, hex=state.board.coords[h]) for h in expedition_hexes(state, seat)
    ]


def payments(state: State, seat: int) -> list[list[Terrain]]:
    """HE-13: the token sets that reach the promotion cost and hold no needless token."""
    if state.title[seat] == len(TITLES) - 1:
        return []
    values = state.config.token_promotion
    cost = state.config.promotion_cost
    held = sorted((cast(Terrain, t), count) for t, count in state.tokens[seat].items() if count)
    if sum(values[t] * c for t, c in held) < cost:
        return []
    out: list[list[Terrain]] = []
    for counts in itertools.product(*(range(c + 1) for _, c in held)):
        total = sum(values[t] * k for (t, _), k in zip(held, counts))
        if total < cost:
            continue
        if any(k and total - values[t] >= cost for (t, _), k in zip(held, counts)):
            continue  # a token could go back and the payment would still reach the cost
        out.append([t for (t, _), k in zip(held, counts) for _ in range(k)])
    return out


def promotions(state: State, seat: int) -> list[Promote]:
    player = state.players[seat]
    return [Promote(player=player, pay=pay) for pay in payments(state, seat)]


def open_kinds(state: State, seat: int) -> list[str]:
    """The kinds of action `seat` may take now (HE-6 to HE-13), without building them."""
    return [kind for kind, check in _CAN.items() if check(state, seat)]


def has_action(state: State, seat: int) -> bool:
    """HE-14: whether `seat` has any action but passing."""
    return any(check(state, seat) for check in _CAN.values())


def _can_recruit(state: State, seat: int) -> bool:
    return bool(state.reserve[seat]["knight"] and own(state, seat, "city"))


def _can_promote(state: State, seat: int) -> bool:
    if state.title[seat] == len(TITLES) - 1:
        return False
    values = state.config.token_promotion
    return sum(values[t] * c for t, c in state.tokens[seat].items()) >= state.config.promotion_cost


def _can_build(state: State, seat: int) -> bool:
    reserve = state.reserve[seat]
    if not reserve["village"] and not reserve["fortress"]:
        return False
    return any(build_block(state, seat, h) is None for h in knight_hexes(state, seat))


def _can_found(state: State, seat: int) -> bool:
    return bool(state.reserve[seat]["city"]) and any(
        found_block(state, seat, h) is None for h in own(state, seat, "village")
    )


def _can_move(state: State, seat: int) -> bool:
    neighbours = state.board.neighbours
    return any(
        entry_block(state, seat, b) is None
        for a in knight_hexes(state, seat)
        for b in neighbours[a]
    )


def _can_expedition(state: State, seat: int) -> bool:
    if state.reserve[seat]["knight"] < state.config.expedition_knights:
        return False
    return any(expedition_block(state, h) is None for h in range(len(state.board)))


_CAN = {  # in the order of ACTIONS
    "recruit": _can_recruit,
    "move": _can_move,
    "build": _can_build,
    "found_city": _can_found,
    "expedition": _can_expedition,
    "promote": _can_promote,
}
assert tuple(_CAN) == ACTIONS


def canonical(state: State, event: Event) -> Event:
    """The form `legal_events` lists an event in: build sites in map order, payments sorted.

    Order within those lists changes nothing in the game, so logs may write either."""
    if isinstance(event, Build):
        index = state.board.index
        return Build(
            player=event.player,
            sites=sorted(event.sites, key=lambda site: index.get((site.hex[0], site.hex[1]), -1)),
        )
    if isinstance(event, Promote):
        return Promote(player=event.player, pay=sorted(event.pay))
    return event


class Menu:
    """The actions open to the seat to act, kind by kind, each list built only when asked.

    What the bots choose from: a turn can offer thousands of moves, and a bot that first
    picks the kind of action need not build them all."""

    def __init__(self, state: State, seat: int) -> None:
        self.state = state
        self.seat = seat
        self._cache: dict[str, list[Any]] = {}

    def _get(self, kind: str) -> list[Any]:
        if kind not in self._cache:
            lister: Callable[[State, int], list[Any]] = _LISTS[kind]
            self._cache[kind] = lister(self.state, self.seat)
        return self._cache[kind]

    def kinds(self) -> list[str]:
        """The kinds of action open now (in setup, only placing cities)."""
        if self.state.phase == "setup":
            return ["place_city"]
        return open_kinds(self.state, self.seat)

    def recruits(self) -> list[Recruit]:
        return self._get("recruit")

    def first_steps(self) -> list[Step]:
        return self._get("move")

    def second_steps(self, first: Step) -> list[Step]:
        return second_steps(self.state, self.seat, first)

    def build_sites(self) -> list[int]:
        return self._get("build")

    def foundings(self) -> list[FoundCity]:
        return self._get("found_city")

    def expedition_hexes(self) -> list[int]:
        return self._get("expedition")

    def payments(self) -> list[list[Terrain]]:
        return self._get("promote")

    def setup_hexes(self) -> list[int]:
        return self._get("place_city")


def menu(state: State, seat: int) -> Menu:
    return Menu(state, seat)


_LISTS: dict[str, Callable[[State, int], list[Any]]] = {
    "place_city": lambda state, seat: setup_hexes(state) if state.phase == "setup" else [],
    "recruit": recruits,
    "move": steps,
    "build": build_sites,
    "found_city": foundings,
    "expedition": expedition_hexes,
    "promote": payments,
}


def expecting(state: State) -> Expecting:
    if state.phase == "setup":
        return Expecting(
            kind="place_city",
            seats=(state.turn,),
            decider=state.turn,
            detail={"left": len(state.setup_order)},
        )
    if state.phase == "play":
        return Expecting(
            kind="action",
            seats=(state.turn,),
            decider=state.turn,
            detail={"round": state.round, "turn": state.turns + 1},
            kinds=(*ACTIONS, "pass"),  # HE-6 to HE-12, or HE-14
        )
    return Expecting(kind="nothing")


def fast_expected(state: State, event: Event) -> int | None:
    """`expected`'s cheap yes for a turn's action, from the phase and the turn: the seat, only
    where `expecting` says yes too; None leaves the answer to it."""
    if (
        state.phase == "play"
        and type(event) is not PlaceCity  # HE-6 to HE-12, HE-14: every other kind is an action
        and state.seats.get(event.player) == state.turn
    ):
        return state.turn
    return None


def to_move(state: State) -> int:
    return state.turn


def chance_event(state: State, rng: Any) -> Event | None:
    """Heraldry has no chance after the map: every event is a player's decision."""
    return None


def chance_outcomes(state: State) -> Iterator[tuple[Event, float | None]]:
    """No chance after the map, so no outcome is ever due."""
    return iter(())
