"""The rules of Heraldry (rules/heraldry.md) as functions over `State`.

`apply` checks first and mutates after, so a rejected event leaves the state untouched; a
move, whose second step sees the board after the first (HE-20), is checked whole on a view
of the board its steps leave before any step is made (`movement.plan_move`). The predicates
here (`entry_block`, `build_block`, …) are the ones `legal.py` enumerates with, so the engine
offers exactly what it accepts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from replay.errors import IllegalEvent, RulesError
from replay.facts import Fact, PiecesRemoved, ResourceChanged, ScoreChanged, TrackMoved
from replay.game import dispatch, expected

from .board import build_board
from .checks import (
    build_block,
    buildings,
    expedition_block,
    found_block,
    hex_at,
    on_board,
    payment_value,
    recruit_limit,
    setup_block,
)
from .config import TITLES, Config
from .events import (
    Build,
    Event,
    Expedition,
    FoundCity,
    Header,
    Move,
    Pass,
    PlaceCity,
    Promote,
    Recruit,
)
from .legal import expecting, fast_expected, has_action
from .movement import add_knights, make_move, plan_move
from .scoring import standings, token_value
from .state import State

NO_FACTS: tuple[Fact, ...] = ()


def new_game(config: Config, header: Header, catalogue: None = None) -> State:
    """The state before the first setup city; RulesError if the header does not fit (HE-22)."""
    players = list(header.players)
    n = len(players)
    if not config.min_players <= n <= config.max_players:
        raise RulesError(
            "HE-22", f"Heraldry seats {config.min_players} to {config.max_players} players, not {n}"
        )
    board = build_board(header.map, n, config)
    start = players.index(header.start_player)
    order = [(start + i) % n for i in range(n)]
    # HE-4: one each in turn order, the last player all of theirs, then back the other way.
    extra = config.setup_cities - 1
    setup = order[:-1] + [order[-1]] * config.setup_cities
    for seat in reversed(order[:-1]):
        setup.extend([seat] * extra)
    return State(
        config=config,
        board=board,
        players=players,
        seats={player: seat for seat, player in enumerate(players)},
        start_player=start,
        setup_order=setup,
        turn=setup[0],
        knights=[[0] * n for _ in range(len(board))],
        building=[None] * len(board),
        built=[{} for _ in players],
        posts=[{} for _ in players],
        reserve=[dict(config.reserve) for _ in players],
        lost=[0] * n,
        tokens=[{} for _ in players],
        title=[0] * n,
        points=[{"city": 0, "title": 0} for _ in players],
    )


def is_over(state: State) -> bool:
    return state.phase == "over"


# --- apply ------------------------------------------------------------------------------------


def _actor(state: State, event: Event, rule: str) -> int:
    """The seat acting now (`expected`), or IllegalEvent under the rule the event breaks: the
    setup's (HE-4) before play, the end's (HE-15) after it, else its action's own, and the turn
    order's (HE-21) from a seat whose turn it is not."""
    phase = state.phase
    if phase == "play":
        return expected(state, event, expecting, rule, "HE-21", fast=fast_expected)
    return expected(state, event, expecting, "HE-4" if phase == "setup" else "HE-15")


def _place_city(state: State, event: PlaceCity) -> Sequence[Fact]:
    seat = _actor(state, event, "HE-4")
    h = hex_at(state, event.hex, "HE-5", "setup city")
    why = setup_block(state, h)
    if why:
        raise IllegalEvent("HE-5", f"no city at {state.board.name(h)}: {why}")
    rnd = state.round
    before = on_board(state, seat)
    # HE-17: a setup city scores nothing; only founding one does (HE-11).
    state.building[h] = (seat, "city")
    state.built[seat][h] = "city"
    add_knights(state, seat, h, 1)
    reserve = state.reserve[seat]
    reserve["city"] -= 1
    reserve["knight"] -= 1
    facts: list[Fact] = [
        TrackMoved(
            round=rnd,
            seat=seat,
            track="knights",
            before=before["knight"],
            after=before["knight"] + 1,
            cause="setup",
        ),
        TrackMoved(
            round=rnd,
            seat=seat,
            track="buildings",
            before=buildings(before),
            after=buildings(before) + 1,
            cause="setup",
        ),
    ]
    del state.setup_order[0]
    if state.setup_order:
        state.turn = state.setup_order[0]
    else:
        state.phase = "play"
        state.turn = state.start_player
        state.round = 1
    return facts


def _recruit(state: State, event: Recruit) -> Sequence[Fact]:
    seat = _actor(state, event, "HE-6")
    h = hex_at(state, event.city, "HE-6", "city")
    if state.building[h] != (seat, "city"):
        raise IllegalEvent("HE-6", f"{event.player} has no city at {state.board.name(h)}")
    limit = recruit_limit(state, h)
    if not 1 <= event.knights <= limit:
        raise IllegalEvent(
            "HE-6",
            f"a recruit at {state.board.name(h)} brings 1 to {limit} knights, "
            f"not {event.knights}"
            + (" (3 only where the city touches a lake)" if limit < 3 else ""),
        )
    reserve = state.reserve[seat]
    if reserve["knight"] < event.knights:
        raise IllegalEvent(
            "HE-6",
            f"{event.player} recruits {event.knights} knights but has "
            f"{reserve['knight']} in reserve",
        )
    before = on_board(state, seat)["knight"]
    reserve["knight"] -= event.knights
    add_knights(state, seat, h, event.knights)
    facts: list[Fact] = [
        TrackMoved(
            round=state.round,
            seat=seat,
            track="knights",
            before=before,
            after=before + event.knights,
            cause="recruit",
        )
    ]
    _end_turn(state, facts)
    return facts


def _move(state: State, event: Move) -> Sequence[Fact]:
    seat = _actor(state, event, "HE-7")
    if not 1 <= len(event.steps) <= state.config.move_max_knights:
        raise IllegalEvent(
            "HE-7",
            f"a move takes 1 to {state.config.move_max_knights} steps, not {len(event.steps)}",
        )
    plans = plan_move(state, seat, event.steps)  # every step checked, nothing changed
    make_move(state, plans)
    facts: list[Fact] = []
    for _, _, b, destroyed, village_owner, looted in plans:
        _battle_facts(state, seat, b, destroyed, village_owner, looted, facts)
    _end_turn(state, facts)
    return facts


def _battle_facts(
    state: State,
    seat: int,
    b: int,
    destroyed: list[tuple[int, int]],
    village_owner: int | None,
    looted: str | None,
    facts: list[Fact],
) -> None:
    rnd = state.round
    place = state.board.name(b)
    for victim, count in destroyed:
        after = on_board(state, victim)["knight"]
        facts.append(
            PiecesRemoved(
                round=rnd,
                seat=seat,
                victim=victim,
                place=place,
                piece="knight",
                count=count,
                cause="battle",
            )
        )
        facts.append(
            TrackMoved(
                round=rnd,
                seat=victim,
                track="knights",
                before=after + count,
                after=after,
                cause="battle",
            )
        )
    if village_owner is not None:
        after = buildings(on_board(state, village_owner))
        facts.append(
            PiecesRemoved(
                round=rnd,
                seat=seat,
                victim=village_owner,
                place=place,
                piece="village",
                count=1,
                cause="battle",
            )
        )
        facts.append(
            TrackMoved(
                round=rnd,
                seat=village_owner,
                track="buildings",
                before=after + 1,
                after=after,
                cause="battle",
            )
        )
    if looted is not None:
        assert village_owner is not None
        facts.append(ResourceChanged(round=rnd, seat=seat, resource=looted, delta=1, cause="loot"))
        facts.append(
            ResourceChanged(round=rnd, seat=village_owner, resource=looted, delta=-1, cause="loot")
        )


def _build(state: State, event: Build) -> Sequence[Fact]:
    seat = _actor(state, event, "HE-10")
    if not event.sites:
        raise IllegalEvent("HE-10", "a build names at least one site")
    hexes: list[int] = []
    wanted: dict[str, int] = {}
    for site in event.sites:
        h = hex_at(state, site.hex, "HE-10", "a site")
        if h in hexes:
            raise IllegalEvent(
                "HE-10", f"{state.board.name(h)} is built on twice: one knight per hex"
            )
        why = build_block(state, seat, h)
        if why:
            raise IllegalEvent("HE-10", f"no building at {state.board.name(h)}: {why}")
        hexes.append(h)
        wanted[site.piece] = wanted.get(site.piece, 0) + 1
    reserve = state.reserve[seat]
    for piece, count in wanted.items():
        if reserve[piece] < count:
            raise IllegalEvent(
                "HE-10",
                f"{event.player} builds {count}× {piece} but has {reserve[piece]} in reserve",
            )
    before = on_board(state, seat)
    rnd = state.round
    tokens = state.tokens[seat]
    facts: list[Fact] = []
    for h, site in zip(hexes, event.sites):
        add_knights(state, seat, h, -1)
        reserve["knight"] += 1
        reserve[site.piece] -= 1
        state.building[h] = (seat, site.piece)
        state.built[seat][h] = site.piece
        terrain = state.board.terrain[h]
        tokens[terrain] = tokens.get(terrain, 0) + 1
        facts.append(
            ResourceChanged(round=rnd, seat=seat, resource=terrain, delta=1, cause="build")
        )
    count = len(hexes)
    facts.append(
        TrackMoved(
            round=rnd,
            seat=seat,
            track="knights",
            before=before["knight"],
            after=before["knight"] - count,
            cause="build",
        )
    )
    facts.append(
        TrackMoved(
            round=rnd,
            seat=seat,
            track="buildings",
            before=buildings(before),
            after=buildings(before) + count,
            cause="build",
        )
    )
    _end_turn(state, facts)
    return facts


def _found_city(state: State, event: FoundCity) -> Sequence[Fact]:
    seat = _actor(state, event, "HE-11")
    h = hex_at(state, event.hex, "HE-11", "a city")
    why = found_block(state, seat, h)
    if why:
        raise IllegalEvent("HE-11", f"no city at {state.board.name(h)}: {why}")
    reserve = state.reserve[seat]
    if not reserve["city"]:
        raise IllegalEvent("HE-11", f"{event.player} has no city left in reserve")
    reserve["city"] -= 1
    reserve["village"] += 1
    state.building[h] = (seat, "city")
    state.built[seat][h] = "city"
    facts: list[Fact] = []
    _score(state, seat, "city", state.config.city_points, "found_city", facts)
    _end_turn(state, facts)
    return facts


def _score(
    state: State, seat: int, source: str, points: int, cause: str, facts: list[Fact]
) -> None:
    if not points:
        return
    before = sum(state.points[seat].values())
    row = state.points[seat]
    row[source] = row.get(source, 0) + points
    facts.append(ScoreChanged(round=state.round, seat=seat, source=source, points=points))
    facts.append(
        TrackMoved(
            round=state.round,
            seat=seat,
            track="score",
            before=before,
            after=before + points,
            cause=cause,
        )
    )


def _expedition(state: State, event: Expedition) -> Sequence[Fact]:
    seat = _actor(state, event, "HE-12")
    h = hex_at(state, event.hex, "HE-12", "an expedition to")
    need = state.config.expedition_knights
    reserve = state.reserve[seat]
    if reserve["knight"] < need:
        raise IllegalEvent(
            "HE-12",
            f"an expedition takes {need} knights from the reserve; "
            f"{event.player} has {reserve['knight']}",
        )
    why = expedition_block(state, h)
    if why:
        raise IllegalEvent("HE-12", f"no expedition to {state.board.name(h)}: {why}")
    before = on_board(state, seat)["knight"]
    reserve["knight"] -= need
    state.lost[seat] += need - 1
    add_knights(state, seat, h, 1)
    facts: list[Fact] = [
        TrackMoved(
            round=state.round,
            seat=seat,
            track="knights",
            before=before,
            after=before + 1,
            cause="expedition",
        )
    ]
    _end_turn(state, facts)
    return facts


def _promote(state: State, event: Promote) -> Sequence[Fact]:
    seat = _actor(state, event, "HE-13")
    title = state.title[seat]
    if title == len(TITLES) - 1:
        raise IllegalEvent("HE-13", f"{event.player} is already {TITLES[title]}")
    held = state.tokens[seat]
    paying: dict[str, int] = {}
    for paid in event.pay:
        paying[paid] = paying.get(paid, 0) + 1
    for kind, count in paying.items():
        if held.get(kind, 0) < count:
            raise IllegalEvent(
                "HE-18", f"{event.player} pays {count}× {kind} but holds {held.get(kind, 0)}"
            )
    value = payment_value(state, event.pay)
    cost = state.config.promotion_cost
    if value < cost:
        raise IllegalEvent("HE-13", f"the tokens paid are worth {value}, short of {cost}")
    rnd = state.round
    facts: list[Fact] = []
    for terrain, count in paying.items():
        held[terrain] -= count
        facts.append(
            ResourceChanged(round=rnd, seat=seat, resource=terrain, delta=-count, cause="promote")
        )
    state.title[seat] = title + 1
    facts.append(
        TrackMoved(
            round=rnd, seat=seat, track="title", before=title, after=title + 1, cause="promote"
        )
    )
    new = TITLES[title + 1]
    _score(state, seat, "title", state.config.title_points[new], "promote", facts)
    if title + 1 == len(TITLES) - 1:
        state.duke = True  # HE-15
    _end_turn(state, facts)
    return facts


def _pass(state: State, event: Pass) -> Sequence[Fact]:

    seat = _actor(state, event, "HE-14")
    if has_action(state, seat):
        raise IllegalEvent("HE-14", f"{event.player} passes but has a legal action")
    facts: list[Fact] = []
    _end_turn(state, facts)
    return facts


def _end_turn(state: State, facts: list[Fact]) -> None:
    """HE-15, HE-21: the next seat clockwise, or the end once a duke's round is complete; a
    round's end ranks the tracks."""
    state.turns += 1
    n = len(state.players)
    round_over = state.turns % n == 0
    if round_over and state.duke:
        state.phase = "over"
        for seat in range(n):
            _score(state, seat, "tokens", token_value(state, seat), "tokens", facts)
    if round_over:
        facts.extend(standings(state))
    if state.phase == "over":
        return
    state.turn = (state.turn + 1) % n
    state.round = state.turns // n + 1


_HANDLERS: dict[type, Callable[[State, Any], Sequence[Fact]]] = {
    PlaceCity: _place_city,
    Recruit: _recruit,
    Move: _move,
    Build: _build,
    FoundCity: _found_city,
    Expedition: _expedition,
    Promote: _promote,
    Pass: _pass,
}

apply: Callable[[State, Event], Sequence[Fact]] = dispatch(_HANDLERS, "a Heraldry")
