"""The rules of Albus Academy (rules/albus-academy.md) as functions over `State`.

A cast is a run of events (albus-catalogue.md §6): `cast`, the activated tile's actions,
then `trigger`s each followed by that tile's actions; it ends at the first other event. So
`apply` checks such an event on a copy of the state with the cast closed, and the state takes
the copy over only once the event is accepted: a rejected event leaves the state as it was.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from replay.errors import IllegalEvent, RulesError
from replay.facts import Fact, TrackMoved
from replay.game import check_round, expected, handler_for

from .board import (
    Pos,
    corners,
    grid,
    homework_action_left,
    linked,
    links,
    matchable,
    neighbours,
    placed_tiles,
    steps_at,
)
from .catalogue import Catalogue, Terms
from .config import Config
from .events import (
    ACTION_OF,
    Cast,
    CollectShard,
    CompleteHomework,
    DrawHomework,
    DrawTile,
    Event,
    GainWill,
    Header,
    PlaceTile,
    Rest,
    TakeTile,
    Trigger,
    UseItem,
)
from .holdings import add_prestige, completed, cost_of, ongoing, set_value
from .legal import expecting, fast_expected
from .scoring import final_facts, standings
from .state import Seat, State
from .turns import is_over, last_turn, refill_counts


def new_game(config: Config, header: Header, catalogue: Catalogue) -> State:
    players = list(header.players)
    n = len(players)
    if not config.min_players <= n <= config.max_players:
        raise RulesError(
            "AA-44",
            f"Albus Academy seats {config.min_players} to {config.max_players} players, not {n}",
        )
    need = config.public_homework + n * config.private_homework + 1
    if len(catalogue.homework) < need:
        raise RulesError(
            "AA-34",
            f"{n} players need a homework deck of at least {need}; "
            f"catalogue {catalogue.name} {catalogue.version} has "
            f"{len(catalogue.homework)}",
        )
    if sum(catalogue.bag().values()) < config.public_tiles:
        raise RulesError("AA-34", f"the bag holds fewer than {config.public_tiles} tiles")
    dear = [
        h.id for h in catalogue.homework.values() if h.kind == "spell" and h.cost > config.will_max
    ]
    if dear:
        raise RulesError(
            "AA-34",
            f"spell {dear[0]} costs more than will_max {config.will_max} (catalogue check 6)",
        )
    first = players.index(header.start_player)
    where = corners(config)
    seats = []
    for _ in players:
        grid: list[list[tuple[str, int] | None]] = [
            [None] * config.board_cols for _ in range(config.board_rows)
        ]
        for name, (r, c) in where.items():
            grid[r][c] = (name, 0)
        seats.append(Seat(board=grid, will=config.start_will, shards=config.start_shards))
    for seat in seats:  # corners may touch on a small board
        probe = State(
            config=config,
            catalogue=catalogue,
            players=players,
            seats={},
            first_player=first,
            board=[seat],
            bag={},
            deck=[],
        )
        seat.links = links(probe, 0)
    draws: list[tuple[str, int | None]] = [("tile", None)] * config.public_tiles
    draws += [("homework", None)] * config.public_homework
    for i in range(n):  # AA-33: seat by seat from the first player
        draws += [("homework", (first + i) % n)] * config.private_homework
    return State(
        config=config,
        catalogue=catalogue,
        players=players,
        seats={p: s for s, p in enumerate(players)},
        first_player=first,
        board=seats,
        bag=catalogue.bag(),
        deck=list(catalogue.homework),
        draws=draws,
        turn=first,
    )


# --- apply ------------------------------------------------------------------------------------

CAST_EVENTS = (Trigger, CollectShard, GainWill, TakeTile, UseItem, CompleteHomework)
# The fields the rules ever rebind (the rest are changed in place): what the state takes over
# from the copy an event after a cast was checked on. A test holds the list to the code.
REBOUND = (
    "phase",
    "draws",
    "turn",
    "turns",
    "round",
    "current",
    "done",
    "eligible",
    "taken",
    "private_done",
    "last_turn",
    "ended_by",
)
_rebound = operator.attrgetter(*REBOUND)


def apply(state: State, event: Event) -> Sequence[Fact]:
    """Apply `event`, returning the facts it establishes, or raise IllegalEvent."""
    handler = _handler(type(event)) or handler_for(_HANDLERS, event, "an Albus Academy")
    if state.phase != "casting" or isinstance(event, CAST_EVENTS):
        return handler(state, event)
    # The cast ends at the first event that is not part of it (AA-5), and that event is
    # checked on the state the closing leaves: a copy of the state, sharing its lists, which
    # the state takes over only once the event is accepted. The closing rebinds the copy's
    # fields and never changes a list in place; a handler changes lists only after its checks.
    trial = msgspec.structs.replace(state)
    facts: list[Fact] = []
    close_cast(trial, facts)
    facts.extend(handler(trial, event))
    for name, value in zip(REBOUND, _rebound(trial)):
        setattr(state, name, value)
    return facts


def _pos(state: State, at: Sequence[int], rule: str) -> Pos:
    pos = (at[0], at[1])
    if pos not in grid(state.config.board_rows, state.config.board_cols)[1]:
        raise IllegalEvent(
            rule,
            f"{list(at)} is not a position of a "
            f"{state.config.board_rows} × {state.config.board_cols} board",
        )
    return pos


# Draws (AA-22, AA-33, AA-35).


def _owed(state: State, event: DrawTile | DrawHomework) -> tuple[str, int | None]:
    """The draw due now, of the event's kind (AA-3); chance draws, so it names no player."""
    expected(state, event, expecting, "AA-3", fast=fast_expected)
    return state.draws[0]


def _draw_tile(state: State, event: DrawTile) -> Sequence[Fact]:
    _owed(state, event)
    if state.bag.get(event.tile, 0) <= 0:
        raise IllegalEvent("AA-22", f"no {event.tile} is left in the bag")
    state.bag[event.tile] -= 1
    state.public_tiles.append(event.tile)
    facts: list[Fact] = []
    _drawn(state, facts)
    return facts


def _draw_homework(state: State, event: DrawHomework) -> Sequence[Fact]:
    _, to = _owed(state, event)
    named = None if event.to is None else state.seats.get(event.to)
    if event.to is not None and named is None:
        raise IllegalEvent("AA-22", f"unknown player {event.to!r}")
    if named != to:
        want = "the public area" if to is None else state.players[to]
        raise IllegalEvent("AA-22", f"this homework draw goes to {want}")
    if event.card not in state.deck:
        raise IllegalEvent("AA-22", f"{event.card} is not a card still in the deck")
    state.deck.remove(event.card)
    if to is None:
        state.public_homework.append(event.card)
    else:
        state.board[to].private.append(event.card)
    facts: list[Fact] = []
    if not state.deck and state.ended_by is None and state.phase != "setup":  # AA-23, AA-35
        _dismiss(state, state.turn, facts)
    _drawn(state, facts)
    return facts


def _dismiss(state: State, seat: int, facts: list[Fact]) -> None:
    """AA-40: the first trigger of the end gives its player the class dismissed card."""
    state.ended_by = seat
    state.board[seat].class_dismissed = True
    add_prestige(state, seat, "class_dismissed", state.config.class_dismissed_prestige, facts)


def _drawn(state: State, facts: list[Fact]) -> None:
    del state.draws[0]
    if state.draws:
        return
    if state.phase == "setup":
        _start_turn(state)
    elif state.phase == "swap_draw":
        _after_main(state, facts)
    else:
        _end_turn(state, facts)


# The turn (AA-3).


def _start_turn(state: State) -> None:
    if state.turn == state.first_player:
        state.round += 1  # round n begins with the first player's n-th turn
    state.phase = "main"
    state.taken = []
    state.private_done = 0


def _cast(state: State, event: Cast) -> Sequence[Fact]:
    seat = expected(state, event, expecting, "AA-3", "AA-2", fast=fast_expected)
    check_round(state, event.round, "AA-3")
    at = _pos(state, event.at, "AA-4")
    me = state.board[seat]
    if me.board[at[0]][at[1]] is None:
        raise IllegalEvent("AA-4", f"{list(at)} holds no tile to activate")
    if at in me.exhausted:
        raise IllegalEvent("AA-32", f"{list(at)} is exhausted: rest to clear it")
    me.exhausted.add(at)
    state.current = at
    state.done = []
    # AA-31: the neighbours that may be triggered are fixed now; AA-6: only the activated
    # position's, never a triggered tile's.
    state.eligible = [
        q
        for q in neighbours(state, at)
        if me.board[q[0]][q[1]] is not None and q not in me.exhausted and linked(state, seat, at, q)
    ]
    state.phase = "casting"
    return ()


def _trigger(state: State, event: Trigger) -> Sequence[Fact]:
    expected(state, event, expecting, "AA-3", "AA-2", fast=fast_expected)
    at = _pos(state, event.at, "AA-5")
    if at not in state.eligible:
        raise IllegalEvent(
            "AA-31",
            f"{list(at)} cannot be triggered: the neighbours linked "
            "and ready when the cast began, each once, are "
            f"{', '.join(str(list(q)) for q in state.eligible) or 'none'}",
        )
    state.eligible.remove(at)
    state.current = at
    state.done = []
    return ()


def _step(state: State, seat: int, action: str) -> None:
    """AA-29: the current tile has a step left for this action."""
    assert state.current is not None
    steps = steps_at(state, seat, state.current)
    if not matchable(steps, [*state.done, action]):
        shown = " + ".join("/".join(sorted(s)) for s in steps)
        raise IllegalEvent(
            "AA-29",
            f"the tile at {list(state.current)} ({shown}) has no step "
            f"left for {action} after {', '.join(state.done) or 'nothing'}",
        )


def _collect_shard(state: State, event: CollectShard) -> Sequence[Fact]:
    seat = expected(state, event, expecting, "AA-3", "AA-2", fast=fast_expected)
    _step(state, seat, "shard")
    gain = state.config.shards_per_collect + ongoing(state, seat, "shard_bonus+")
    facts: list[Fact] = []
    set_value(state, seat, "shards", state.board[seat].shards + gain, "shard", facts)
    state.done.append("shard")
    return facts


def _gain_will(state: State, event: GainWill) -> Sequence[Fact]:
    seat = expected(state, event, expecting, "AA-3", "AA-2", fast=fast_expected)
    _step(state, seat, "will")
    config = state.config
    me = state.board[seat]
    if me.will >= config.will_max:
        raise IllegalEvent("AA-30", f"{event.player}'s will is at {config.will_max} already")
    gain = config.will_per_gain + ongoing(state, seat, "will_bonus+")
    facts: list[Fact] = []
    set_value(state, seat, "will", min(config.will_max, me.will + gain), "will", facts)
    state.done.append("will")
    return facts


def _take_tile(state: State, event: TakeTile) -> Sequence[Fact]:
    seat = expected(state, event, expecting, "AA-3", "AA-2", fast=fast_expected)
    _step(state, seat, "tile")
    if event.tile not in state.public_tiles:
        raise IllegalEvent(
            "AA-11",
            f"{event.tile} is not a face-up public tile "
            f"({', '.join(state.public_tiles) or 'none'})",
        )
    state.public_tiles.remove(event.tile)
    state.taken.append(event.tile)
    state.done.append("tile")
    return ()


def _choices(
    state: State, seat: int, terms: Terms, event: UseItem | CompleteHomework, rule: str
) -> None:
    """§3: `ready` and `tiles` hold at most what the terms allow, and what is there."""
    ready = sum(n for t, n in terms if t == "ready+")
    tiles = sum(n for t, n in terms if t == "tile+")
    chosen = [(p[0], p[1]) for p in event.ready]
    if len(chosen) > ready:
        raise IllegalEvent(rule, f"{len(chosen)} positions readied; the card allows {ready}")
    if len(set(chosen)) != len(chosen) or any(p not in state.board[seat].exhausted for p in chosen):
        raise IllegalEvent(rule, "ready names distinct exhausted positions of your board")
    if len(event.tiles) > tiles:
        raise IllegalEvent(rule, f"{len(event.tiles)} tiles taken; the card allows {tiles}")
    left = list(state.public_tiles)
    for tile in event.tiles:
        if tile not in left:
            raise IllegalEvent(rule, f"{tile} is not a face-up public tile left to take")
        left.remove(tile)


def _resolve(
    state: State,
    seat: int,
    terms: Terms,
    event: UseItem | CompleteHomework,
    item: str | None,
    facts: list[Fact],
) -> None:
    """§3: the terms in written order, costs first (they were checked)."""
    config = state.config
    me = state.board[seat]
    for term, n in terms:
        if term == "shard-":
            set_value(state, seat, "shards", me.shards - n, "use", facts)
        elif term == "will-":
            set_value(state, seat, "will", me.will - n, "use", facts)
    for term, n in terms:
        if term == "shard+":
            set_value(state, seat, "shards", me.shards + n, "effect", facts)
        elif term == "will+":
            set_value(state, seat, "will", min(config.will_max, me.will + n), "effect", facts)
        elif term == "prestige+" and item is not None:
            me.tokens[item] = me.tokens.get(item, 0) + n
            add_prestige(state, seat, "token", n, facts)
    for p in event.ready:
        me.exhausted.discard((p[0], p[1]))
    for tile in event.tiles:
        state.public_tiles.remove(tile)
        state.taken.append(tile)


def _use_item(state: State, event: UseItem) -> Sequence[Fact]:
    seat = expected(state, event, expecting, "AA-3", "AA-2", fast=fast_expected)
    _step(state, seat, "item")
    me = state.board[seat]
    terms = state.catalogue.terms.get(event.item, {}).get("use") if event.item in me.items else None
    if not terms:
        raise IllegalEvent("AA-12", f"{event.item} is not an item of {event.player}'s with a use")
    costs = {t: n for t, n in terms if t in ("shard-", "will-")}
    if me.shards < costs.get("shard-", 0) or me.will < costs.get("will-", 0):
        raise IllegalEvent("AA-30", f"{event.player} cannot pay {event.item}'s use costs")
    _choices(state, seat, terms, event, "AA-12")
    facts: list[Fact] = []
    _resolve(state, seat, terms, event, event.item, facts)
    state.done.append("item")
    return facts


def _complete(state: State, event: CompleteHomework) -> Sequence[Fact]:
    """AA-13: the complete-homework action, by AA-16."""
    seat = expected(state, event, expecting, "AA-3", "AA-2", fast=fast_expected)
    _step(state, seat, "homework")
    me = state.board[seat]
    card = event.card
    if card not in state.public_homework and card not in me.private:
        raise IllegalEvent(
            "AA-16", f"{card} is neither a face-up public card nor one of {event.player}'s own"
        )
    hw = state.catalogue.homework[card]
    cost = cost_of(state, seat, card)
    paying = "will" if hw.kind == "spell" else "shards"
    if getattr(me, paying) < cost:
        raise IllegalEvent(
            "AA-16", f"{card} costs {cost} {paying}; {event.player} has {getattr(me, paying)}"
        )
    terms = state.catalogue.terms[card].get("effect", ())
    _choices(state, seat, terms, event, "AA-16")
    facts: list[Fact] = []
    before = completed(me)
    set_value(state, seat, paying, getattr(me, paying) - cost, "homework", facts)
    if card in me.private:
        me.private.remove(card)
        state.private_done += 1
    else:
        state.public_homework.remove(card)
    if hw.kind == "spell":
        me.spells.append(card)
        add_prestige(state, seat, "spell", hw.prestige, facts)
        _resolve(state, seat, terms, event, None, facts)
    else:
        me.items.append(card)
        add_prestige(state, seat, "item", hw.prestige, facts)
    facts.append(
        TrackMoved(
            round=state.round,
            seat=seat,
            track="homework",
            before=before,
            after=before + 1,
            cause=hw.kind,
        )
    )
    if before + 1 >= state.config.end_homework and state.ended_by is None:  # AA-23, AA-40
        _dismiss(state, seat, facts)
    state.done.append("homework")
    return facts


def _rest(state: State, event: Rest) -> Sequence[Fact]:
    seat = expected(state, event, expecting, "AA-3", "AA-2", fast=fast_expected)
    check_round(state, event.round, "AA-3")
    me = state.board[seat]
    if event.swap is not None:
        if event.swap not in me.private:
            raise IllegalEvent(
                "AA-15", f"{event.swap} is not one of {event.player}'s private homework"
            )
        if not state.deck:
            raise IllegalEvent("AA-35", "the deck is empty: a rest swap needs a card to draw")
    me.exhausted.clear()
    facts: list[Fact] = []
    if event.swap is not None:
        me.private.remove(event.swap)  # AA-35: it leaves the game
        state.phase = "swap_draw"
        state.draws = [("homework", seat)]
    else:
        _after_main(state, facts)
    return facts


def close_cast(state: State, facts: list[Fact]) -> None:
    state.current = None
    state.eligible = []
    state.done = []
    _after_main(state, facts)


def _after_main(state: State, facts: list[Fact]) -> None:
    """AA-3 (2), (3): place the tiles taken, then refill."""
    if state.taken:
        state.phase = "placing"
    else:
        _start_refill(state, facts)


def _place_tile(state: State, event: PlaceTile) -> Sequence[Fact]:
    seat = expected(state, event, expecting, "AA-3", "AA-2", fast=fast_expected)
    if event.tile not in state.taken:
        raise IllegalEvent(
            "AA-19", f"{event.tile} is not a tile taken this turn ({', '.join(state.taken)})"
        )
    at = _pos(state, event.at, "AA-19")
    if not 0 <= event.rotation <= 3:
        raise IllegalEvent("AA-25", f"rotation {event.rotation} is not 0 to 3")
    me = state.board[seat]
    around = neighbours(state, at)
    near = sum(linked(state, seat, at, q) for q in around)  # only links at `at` can change
    before = (placed_tiles(state, seat), me.links)
    if not homework_action_left(state, seat, (at, event.tile)):
        raise IllegalEvent(
            "AA-21",
            f"placing {event.tile} at {list(at)} would leave no "
            "complete-homework action on the board",
        )
    # AA-20, AA-28: the new tile is the position's only active one; an exhaustion marker,
    # kept by position, is now the new tile's. AA-27: a corner it covers never returns.
    me.board[at[0]][at[1]] = (event.tile, event.rotation)
    state.taken.remove(event.tile)
    facts: list[Fact] = []
    me.links += sum(linked(state, seat, at, q) for q in around) - near
    after = (placed_tiles(state, seat), me.links)
    for track, old, new in (("tiles", before[0], after[0]), ("links", before[1], after[1])):
        if old != new:
            facts.append(
                TrackMoved(
                    round=state.round, seat=seat, track=track, before=old, after=new, cause="place"
                )
            )
    if not state.taken:
        _start_refill(state, facts)
    return facts


def _start_refill(state: State, facts: list[Fact]) -> None:
    tiles, public, private = refill_counts(state)
    state.draws = (
        [("tile", None)] * tiles
        + [("homework", None)] * public
        + [("homework", state.turn)] * private
    )
    state.phase = "refill"
    if not state.draws:
        _end_turn(state, facts)


def _end_turn(state: State, facts: list[Fact]) -> None:
    """AA-3 (4): check the end, then the next seat."""
    state.last_turn = last_turn(state)
    state.turns += 1
    if state.last_turn is not None and state.turns >= state.last_turn:
        state.phase = "over"
        facts.extend(final_facts(state))
        facts.extend(standings(state))
        return
    state.turn = (state.turn + 1) % len(state.players)
    if state.turn == state.first_player:  # the round ends with the last seat's turn
        facts.extend(standings(state))
    _start_turn(state)


_HANDLERS: dict[type, Callable[[State, Any], Sequence[Fact]]] = {
    DrawTile: _draw_tile,
    DrawHomework: _draw_homework,
    Cast: _cast,
    Trigger: _trigger,
    CollectShard: _collect_shard,
    GainWill: _gain_will,
    TakeTile: _take_tile,
    UseItem: _use_item,
    CompleteHomework: _complete,
    Rest: _rest,
    PlaceTile: _place_tile,
}
# The handler of an event's type, looked up at every event: handler_for only for a refusal.
_handler = _HANDLERS.get
ACTION_HANDLERS = {ACTION_OF[t]: _HANDLERS[t] for t in ACTION_OF}


def close(state: State) -> list[Fact]:
    """End the cast in progress (what the next event after it does first, and the end of a
    log that stops in the last turn's cast, AA-45); its facts. Nothing outside a cast."""
    facts: list[Fact] = []
    if state.phase == "casting":
        close_cast(state, facts)
    return facts


__all__ = ["apply", "close", "is_over", "new_game"]  # is_over lives with the end rules (turns)
