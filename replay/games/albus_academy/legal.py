"""Every decision the rules allow now (AA-4 to AA-21, AA-29 to AA-39), and chance's draws:
one for the simulator, all of them for search.

A cast ends at the first event that is not part of it, so during a cast `legal_events` lists
its continuations (actions the current tile still allows, triggers); what may follow its end
is what `legal_events` gives once the cast is closed (`close`).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

from replay.game import CHANCE, Expecting

from .board import homework_action_left, matchable, positions, steps_at
from .catalogue import BASIC, Terms
from .events import (
    Cast,
    CollectShard,
    CompleteHomework,
    DrawHomework,
    DrawTile,
    Event,
    GainWill,
    PlaceTile,
    Rest,
    TakeTile,
    Trigger,
    UseItem,
)
from .holdings import cost_of
from .state import State
from .turns import refill_counts


def legal_events(state: State, seat: int | None = None) -> list[Event]:
    """Every decision event the engine would accept next (of `seat`, when given)."""
    if seat is not None and seat != state.turn:
        return []
    player = state.players[state.turn]
    me = state.board[state.turn]
    if state.phase == "main":
        out: list[Event] = [
            Cast(player=player, at=(r, c))
            for r, c in positions(state)
            if me.board[r][c] is not None and (r, c) not in me.exhausted
        ]
        out.append(Rest(player=player))
        if state.deck:
            out.extend(Rest(player=player, swap=card) for card in sorted(set(me.private)))
        return out
    if state.phase == "casting":
        return list(continuations(state))
    if state.phase == "placing":
        return list(placements(state))
    return []


def continuations(state: State) -> Iterator[Event]:
    """AA-5, AA-29, AA-30: the actions the current tile still allows, and the triggers."""
    seat = state.turn
    player = state.players[seat]
    me = state.board[seat]
    assert state.current is not None
    steps = steps_at(state, seat, state.current)
    open_actions = [a for a in BASIC if matchable(steps, [*state.done, a])]
    if "shard" in open_actions:
        yield CollectShard(player=player)
    if "will" in open_actions and me.will < state.config.will_max:
        yield GainWill(player=player)
    if "tile" in open_actions:
        for tile in sorted(set(state.public_tiles)):
            yield TakeTile(player=player, tile=tile)
    if "item" in open_actions:
        for item in sorted(set(me.items)):
            terms = state.catalogue.terms[item].get("use")
            if not terms:
                continue
            costs = {t: n for t, n in terms if t in ("shard-", "will-")}
            if me.shards < costs.get("shard-", 0) or me.will < costs.get("will-", 0):
                continue
            for ready, tiles in choices(state, terms):
                yield UseItem(player=player, item=item, ready=ready, tiles=tiles)
    if "homework" in open_actions:
        for card in sorted({*state.public_homework, *me.private}):
            hw = state.catalogue.homework[card]
            paying = me.will if hw.kind == "spell" else me.shards
            if paying < cost_of(state, seat, card):
                continue
            for ready, tiles in choices(state, state.catalogue.terms[card].get("effect", ())):
                yield CompleteHomework(player=player, card=card, ready=ready, tiles=tiles)
    for at in state.eligible:
        yield Trigger(player=player, at=at)


def choices(state: State, terms: Terms) -> list[tuple[list[Any], list[str]]]:
    """§3: every `ready` set and `tiles` multiset a card's terms allow (sorted, at most N)."""
    ready_n = sum(n for t, n in terms if t == "ready+")
    tiles_n = sum(n for t, n in terms if t == "tile+")
    exhausted = sorted(state.board[state.turn].exhausted)
    readies = [
        list(c)
        for k in range(min(ready_n, len(exhausted)) + 1)
        for c in itertools.combinations(exhausted, k)
    ]
    public = sorted(state.public_tiles)
    picks = sorted(
        {
            tuple(c)
            for k in range(min(tiles_n, len(public)) + 1)
            for c in itertools.combinations(public, k)
        }
    )
    return [(ready, list(tiles)) for ready in readies for tiles in picks]


def placements(state: State) -> Iterator[PlaceTile]:
    """AA-19, AA-21: each tile taken, on each position, in each rotation, that leaves a
    complete-homework action on the board."""
    seat = state.turn
    me = state.board[seat]
    player = state.players[seat]
    for tile in sorted(set(state.taken)):
        for r, c in positions(state):
            covered = me.board[r][c]
            for rotation in range(4):
                me.board[r][c] = (tile, rotation)
                ok = homework_action_left(state, seat)
                me.board[r][c] = covered
                if ok:
                    yield PlaceTile(player=player, tile=tile, at=(r, c), rotation=rotation)


# --- chance, for the simulator ---------------------------------------------------------------


def chance_event(state: State, rng: random.Random) -> Event | None:
    """A draw when one is owed (AA-22, AA-33, AA-35): uniform among what is left."""
    if state.phase not in ("setup", "refill", "swap_draw") or not state.draws:
        return None
    kind, to = state.draws[0]
    if kind == "tile":
        pool = [tile for tile, count in sorted(state.bag.items()) for _ in range(count)]
        return DrawTile(tile=rng.choice(pool))
    return DrawHomework(card=rng.choice(state.deck), to=None if to is None else state.players[to])


def chance_outcomes(state: State) -> Iterator[tuple[Event, float | None]]:
    """Every draw owed now could bring (AA-22, AA-33, AA-35), each once: a tile by its copies
    left in the bag, a homework card by its share of the deck. Nothing while a seat decides."""
    if state.phase not in ("setup", "refill", "swap_draw") or not state.draws:
        return
    kind, to = state.draws[0]
    if kind == "tile":
        total = sum(state.bag.values())
        for tile, count in sorted(state.bag.items()):
            if count > 0:
                yield DrawTile(tile=tile), count / total
        return
    player = None if to is None else state.players[to]
    for card, count in sorted(Counter(state.deck).items()):
        yield DrawHomework(card=card, to=player), count / len(state.deck)


def to_move(state: State) -> int:
    return state.turn


# AA-5 to AA-16: what a cast's tiles may do, and the triggers between them.
CAST_KINDS = ("trigger", "collect_shard", "gain_will", "take_tile", "use_item", "complete_homework")


_DRAWING = ("setup", "refill", "swap_draw")  # AA-22, AA-33, AA-35: the phases that draw
# By phase, the events its seat may send (a cast's end is left to `expecting`).
_FAST: dict[str, tuple[type, ...]] = {
    "casting": (Trigger, CollectShard, GainWill, TakeTile, UseItem, CompleteHomework),
    "main": (Cast, Rest),
    "placing": (PlaceTile,),
}
_DRAWS = {DrawTile: "tile", DrawHomework: "homework"}


def fast_expected(state: State, event: Event) -> int | None:
    """`expected`'s cheap yes, from the phase, the turn and the draws due: the seat (CHANCE for
    a draw), only where `expecting` says yes too; None leaves the answer to it."""
    phase = state.phase
    kinds = _FAST.get(phase)
    if kinds is not None:
        if type(event) in kinds and state.seats.get(event.player) == state.turn:  # type: ignore[union-attr]
            return state.turn
    elif phase in _DRAWING and state.draws and _DRAWS.get(type(event)) == state.draws[0][0]:
        return CHANCE
    return None


def expecting(state: State) -> Expecting:
    phase = state.phase
    if phase in _DRAWING and state.draws:
        kind, to = state.draws[0]
        detail: dict[str, Any] = {"round": state.round}
        if to is not None:
            detail["to"] = state.players[to]
        return Expecting(kind="draw_" + kind, decider=CHANCE, detail=detail)
    if phase == "main":  # AA-3 (1)
        return Expecting(
            kind="turn",
            seats=(state.turn,),
            decider=state.turn,
            detail={"round": state.round},
            kinds=("cast", "rest"),
        )
    if phase == "casting":  # the cast's actions and triggers, or what follows its end
        if state.taken:
            after: tuple[str, ...] = ("place_tile",)
        elif any(refill_counts(state)):
            after = ("draw_tile", "draw_homework")
        else:
            after = ("cast", "rest")
        return Expecting(
            kind="casting",
            seats=(state.turn,),
            decider=state.turn,
            detail={"round": state.round},
            kinds=(*CAST_KINDS, *after),
        )
    if phase == "placing":
        return Expecting(
            kind="place_tile",
            seats=(state.turn,),
            decider=state.turn,
            detail={"round": state.round, "tiles": list(state.taken)},
        )
    return Expecting(kind="nothing")
