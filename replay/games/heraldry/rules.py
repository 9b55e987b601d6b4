"""The rules of Heraldry (rules/heraldry.md) as functions over `State`.

`apply` checks first and mutates after, so a rejected event leaves the state untouched; a
move, whose second step sees the board after the first (HE-20), undoes its first step when
the second is refused. The predicates here (`entry_block`, `build_block`, …) are the ones
`legal.py` enumerates with, so the engine offers exactly what it accepts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from replay.errors import IllegalEvent, RulesError
from replay.facts import Fact, PiecesRemoved, ResourceChanged, ScoreChanged, TrackMoved
from replay.game import Expecting, Result

from .board import build_board
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
    Step,
)
from .state import State

NO_FACTS: tuple[Fact, ...] = ()
SOURCES = ("city", "title", "tokens")
MOVABLE_INTO = ("village", None)  # HE-8: an opponent's city or fortress keeps knights out


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


# --- what the rules ask of a hex --------------------------------------------------------------


def on_board(state: State, seat: int) -> dict[str, int]:
    """Pieces `seat` has on the map, by kind: what left the reserve and did not leave the game."""
    full, reserve = state.config.reserve, state.reserve[seat]
    counts = {piece: full[piece] - reserve[piece] for piece in full}
    counts["knight"] -= state.lost[seat]
    return counts


def add_knights(state: State, seat: int, h: int, count: int) -> None:
    """Put `count` knights of `seat` on hex `h` (take them off when negative)."""
    state.knights[h][seat] += count
    posts = state.posts[seat]
    left = posts.get(h, 0) + count
    if left:
        posts[h] = left
    else:
        del posts[h]


def opponent_pieces(state: State, seat: int, h: int) -> bool:
    """Whether any opponent has a knight or a village on hex `h` (HE-9's pieces)."""
    building = state.building[h]
    if building is not None and building[0] != seat and building[1] == "village":
        return True
    row = state.knights[h]
    return any(count for other, count in enumerate(row) if other != seat)


def entry_block(state: State, seat: int, h: int) -> str | None:
    """HE-8: why a knight of `seat` may not enter hex `h`, or None when it may."""
    board = state.board
    if board.terrain[h] == "lake":
        return "a knight never enters a lake"
    building = state.building[h]
    row = state.knights[h]
    if building is None and sum(row) == row[seat]:
        return None  # no opponent's piece: the common case, answered first
    if building is not None and building[0] != seat and building[1] not in MOVABLE_INTO:
        return f"{state.players[building[0]]}'s {building[1]} stands there"
    limit = state.config.block_pieces
    mountain = board.terrain[h] == "mountain"
    for other, count in enumerate(row):
        if other == seat:
            continue
        pieces = count + (building is not None and building == (other, "village"))
        if pieces >= limit:
            return f"{state.players[other]} has {pieces} pieces there"
        if mountain and pieces:
            return f"a mountain holding {state.players[other]}'s piece"
    return None


def build_block(state: State, seat: int, h: int) -> str | None:
    """HE-10: why `seat` may not build on hex `h`, or None when it may."""
    if not state.knights[h][seat]:
        return f"{state.players[seat]} has no knight there"
    building = state.building[h]
    if building is not None:
        return f"{state.players[building[0]]}'s {building[1]} already stands there"
    row = state.knights[h]
    for other, count in enumerate(row):
        if other != seat and count:
            return f"{state.players[other]}'s knight is there"
    return None


def city_block(state: State, seat: int, h: int) -> str | None:
    """HE-5, HE-11: why a city may not stand on hex `h` (besides whose piece is there)."""
    board = state.board
    if board.terrain[h] in ("forest", "lake"):
        return f"a city never stands on {board.terrain[h]}"
    building = state.building
    for n in board.neighbours[h]:
        near = building[n]
        if near is not None and near[1] == "city":
            return f"it is next to {state.players[near[0]]}'s city at {board.name(n)}"
    return None


def setup_block(state: State, h: int) -> str | None:
    """HE-5: why a setup city may not go on hex `h`."""
    building = state.building[h]
    if building is not None:
        return f"{state.players[building[0]]}'s {building[1]} stands there"
    return city_block(state, state.turn, h)


def found_block(state: State, seat: int, h: int) -> str | None:
    """HE-11: why `seat` may not turn its village on hex `h` into a city."""
    if state.building[h] != (seat, "village"):
        return f"{state.players[seat]} has no village there"
    row = state.knights[h]
    for other, count in enumerate(row):
        if other != seat and count:
            return f"{state.players[other]}'s knight is there"
    return city_block(state, seat, h)


def expedition_block(state: State, h: int) -> str | None:
    """HE-12: why no expedition may land on hex `h`."""
    board = state.board
    if not board.edge[h]:
        return "it is not an edge hex"
    if board.terrain[h] == "lake":
        return "it is a lake"
    if state.building[h] is not None or any(state.knights[h]):
        return "it is not empty"
    return None


def recruit_limit(state: State, h: int) -> int:
    """HE-6: how many knights one recruit may bring to the city on hex `h`."""
    config = state.config
    return config.recruit_max_by_lake if state.board.by_lake[h] else config.recruit_max


def payment_value(state: State, pay: Sequence[str]) -> int:
    values = state.config.token_promotion
    return sum(values.get(terrain, 0) for terrain in pay)


# --- apply ------------------------------------------------------------------------------------


def apply(state: State, event: Event) -> Sequence[Fact]:
    """Apply `event`, returning the facts it establishes, or raise IllegalEvent."""
    try:
        handler = _HANDLERS[type(event)]
    except KeyError:
        raise IllegalEvent("LOG-2", f"{event!r} is not a Heraldry event", event) from None
    return handler(state, event)


def _hex(state: State, at: tuple[int, int], rule: str, what: str) -> int:
    h = state.board.index.get(tuple(at))  # type: ignore[arg-type]
    if h is None:
        raise IllegalEvent(rule, f"{what} [{at[0]}, {at[1]}] is not on the map")
    return h


def _actor(state: State, event: Event, rule: str) -> int:
    """The seat acting now; IllegalEvent if the event is not its to make."""
    seat = state.seats.get(event.player)
    if seat is None:
        raise IllegalEvent(
            rule, f"unknown player {event.player!r}; the players are {', '.join(state.players)}"
        )
    kind = type(event).__struct_config__.tag
    if state.phase == "over":
        raise IllegalEvent("HE-15", f"the game is over; {event.player} cannot {kind}")
    if state.phase == "setup":
        if kind != "place_city":
            raise IllegalEvent("HE-4", f"every setup city is placed before the first {kind}")
    elif kind == "place_city":
        raise IllegalEvent(
            "HE-4", "setup is over: a city is now only founded from a village (HE-11)"
        )
    if seat != state.turn:
        rule = "HE-4" if state.phase == "setup" else "HE-21"
        raise IllegalEvent(
            rule, f"{event.player} acts out of turn: it is {state.players[state.turn]}'s turn"
        )
    return seat


def _place_city(state: State, event: PlaceCity) -> Sequence[Fact]:
    seat = _actor(state, event, "HE-4")
    h = _hex(state, event.hex, "HE-5", "setup city")
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
            before=_buildings(before),
            after=_buildings(before) + 1,
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


def _buildings(counts: dict[str, int]) -> int:
    return counts["village"] + counts["fortress"] + counts["city"]


def _recruit(state: State, event: Recruit) -> Sequence[Fact]:
    seat = _actor(state, event, "HE-6")
    h = _hex(state, event.city, "HE-6", "city")
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


# A step done, with what it needs to be undone: (seat, from, to, destroyed knights by seat,
# the destroyed village's owner, the looted terrain).
_Done = tuple[int, int, int, list[tuple[int, int]], int | None, str | None]


def check_step(state: State, seat: int, step: Step, moved: dict[int, int]) -> tuple[int, int]:
    """HE-7, HE-8, HE-20: the (from, to) hexes of a legal step, or IllegalEvent."""
    a = _hex(state, step.from_, "HE-7", "a step from")
    b = _hex(state, step.to, "HE-7", "a step to")
    board = state.board
    if b not in board.neighbours[a]:
        raise IllegalEvent("HE-7", f"{board.name(a)} and {board.name(b)} are not adjacent")
    here = state.knights[a][seat]
    if not here:
        raise IllegalEvent("HE-7", f"{state.players[seat]} has no knight at {board.name(a)}")
    if here <= moved.get(a, 0):
        raise IllegalEvent(
            "HE-20", f"every knight of {state.players[seat]} at {board.name(a)} has moved already"
        )
    why = entry_block(state, seat, b)
    if why:
        raise IllegalEvent("HE-8", f"no knight may enter {board.name(b)}: {why}")
    return a, b


def loot_due(state: State, seat: int, b: int) -> tuple[bool, int | None]:
    """Whether entering `b` is a battle (HE-9, HE-20), and the owner of a village it destroys."""
    building = state.building[b]
    mine = state.knights[b][seat] > 0 or building == (seat, "village")
    if not mine or not opponent_pieces(state, seat, b):
        return False, None
    if building is not None and building[0] != seat and building[1] == "village":
        return True, building[0]
    return True, None


def do_step(state: State, seat: int, step: Step, moved: dict[int, int]) -> _Done:
    """Check and make one step, its battle included; the record undoes it (`undo_step`)."""
    a, b = check_step(state, seat, step, moved)
    battle, village_owner = loot_due(state, seat, b)
    loot = step.loot
    looted: str | None = None
    if village_owner is not None and any(state.tokens[village_owner].values()):
        held = state.tokens[village_owner]
        if len(loot) != 1:
            raise IllegalEvent(
                "HE-19",
                f"destroying {state.players[village_owner]}'s village at "
                f"{state.board.name(b)} takes "
                f"exactly one of their tokens ({_held(held)}), not {len(loot)}",
            )
        looted = loot[0]
        if not held.get(looted):
            raise IllegalEvent(
                "HE-19",
                f"{state.players[village_owner]} holds no {looted} token to loot; "
                f"they hold {_held(held)}",
            )
    elif loot:
        why = (
            "destroys no village"
            if village_owner is None
            else f"destroys the village of {state.players[village_owner]}, who holds no token"
        )
        raise IllegalEvent(
            "HE-19", f"loot {', '.join(loot)} at {state.board.name(b)}, but the step {why}"
        )
    destroyed: list[tuple[int, int]] = []
    if battle:
        for other, count in enumerate(state.knights[b]):
            if other != seat and count:
                destroyed.append((other, count))
                add_knights(state, other, b, -count)
                state.reserve[other]["knight"] += count
        if village_owner is not None:
            state.building[b] = None
            del state.built[village_owner][b]
            state.reserve[village_owner]["village"] += 1
            if looted is not None:
                state.tokens[village_owner][looted] -= 1
                mine = state.tokens[seat]
                mine[looted] = mine.get(looted, 0) + 1
    add_knights(state, seat, a, -1)
    add_knights(state, seat, b, 1)
    moved[b] = moved.get(b, 0) + 1
    return seat, a, b, destroyed, village_owner, looted


def undo_step(state: State, done: _Done, moved: dict[int, int]) -> None:
    seat, a, b, destroyed, village_owner, looted = done
    moved[b] -= 1
    add_knights(state, seat, b, -1)
    add_knights(state, seat, a, 1)
    for other, count in destroyed:
        add_knights(state, other, b, count)
        state.reserve[other]["knight"] -= count
    if village_owner is not None:
        state.building[b] = (village_owner, "village")
        state.built[village_owner][b] = "village"
        state.reserve[village_owner]["village"] -= 1
        if looted is not None:
            state.tokens[village_owner][looted] += 1
            state.tokens[seat][looted] -= 1


def _held(tokens: dict[str, int]) -> str:
    return (
        ", ".join(f"{count}× {terrain}" for terrain, count in sorted(tokens.items()) if count)
        or "none"
    )


def _move(state: State, event: Move) -> Sequence[Fact]:
    seat = _actor(state, event, "HE-7")
    if not 1 <= len(event.steps) <= state.config.move_max_knights:
        raise IllegalEvent(
            "HE-7",
            f"a move takes 1 to {state.config.move_max_knights} steps, not {len(event.steps)}",
        )
    moved: dict[int, int] = {}
    done: list[_Done] = []
    try:
        for step in event.steps:
            done.append(do_step(state, seat, step, moved))
    except IllegalEvent:
        for record in reversed(done):
            undo_step(state, record, moved)
        raise
    facts: list[Fact] = []
    for _, _, b, destroyed, village_owner, looted in done:
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
        after = _buildings(on_board(state, village_owner))
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
        h = _hex(state, site.hex, "HE-10", "a site")
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
            before=_buildings(before),
            after=_buildings(before) + count,
            cause="build",
        )
    )
    _end_turn(state, facts)
    return facts


def _found_city(state: State, event: FoundCity) -> Sequence[Fact]:
    seat = _actor(state, event, "HE-11")
    h = _hex(state, event.hex, "HE-11", "a city")
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
    h = _hex(state, event.hex, "HE-12", "an expedition to")
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
    from .legal import has_action

    seat = _actor(state, event, "HE-14")
    if has_action(state, seat):
        raise IllegalEvent("HE-14", f"{event.player} passes but has a legal action")
    facts: list[Fact] = []
    _end_turn(state, facts)
    return facts


def _end_turn(state: State, facts: list[Fact]) -> None:
    """HE-15, HE-21: the next seat clockwise, or the end once a duke's round is complete."""
    state.turns += 1
    n = len(state.players)
    if state.duke and state.turns % n == 0:
        state.phase = "over"
        for seat in range(n):
            _score(state, seat, "tokens", token_value(state, seat), "tokens", facts)
        return
    state.turn = (state.turn + 1) % n
    state.round = state.turns // n + 1


def token_value(state: State, seat: int) -> int:
    """HE-16: the end value of the tokens `seat` holds."""
    values = state.config.token_end
    return sum(values[terrain] * count for terrain, count in state.tokens[seat].items())


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


# --- what comes next ------------------------------------------------------------------------


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
        )
    return Expecting(kind="nothing")


def to_move(state: State) -> int:
    return state.turn


def chance_event(state: State, rng: Any) -> Event | None:
    """Heraldry has no chance after the map: every event is a player's decision."""
    return None


# --- the result -----------------------------------------------------------------------------


def result(state: State) -> Result:
    """HE-16: score track plus the tokens' end values; equal totals go to the later player in
    turn order from the start player (HE-21), so there is one winner and ranks never tie.
    Before the end, `tokens` is what the tokens held would score if the game ended now."""
    n = len(state.players)
    sources = [
        {
            "city": p.get("city", 0),
            "title": p.get("title", 0),
            "tokens": p.get("tokens", 0) if state.phase == "over" else token_value(state, s),
        }
        for s, p in enumerate(state.points)
    ]
    totals = [sum(row.values()) for row in sources]
    later = [(seat - state.start_player) % n for seat in range(n)]
    order = sorted(range(n), key=lambda seat: (totals[seat], later[seat]), reverse=True)
    ranks = [0] * n
    for place, seat in enumerate(order, 1):
        ranks[seat] = place
    complete = state.phase == "over"
    return Result(
        complete=complete,
        scores=totals,
        sources=sources,
        winners=[order[0]] if complete else [],
        ranks=ranks,
    )
