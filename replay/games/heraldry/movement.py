"""Heraldry's steps and battles (HE-7 to HE-9, HE-19, HE-20): one knight's step checked,
made with its battle, and undone, for the move action and for the legal moves that look a
step ahead."""

from __future__ import annotations

from replay.errors import IllegalEvent

from .checks import entry_block, hex_at, opponent_pieces
from .events import (
    Step,
)
from .state import State


def add_knights(state: State, seat: int, h: int, count: int) -> None:
    """Put `count` knights of `seat` on hex `h` (take them off when negative)."""
    state.knights[h][seat] += count
    posts = state.posts[seat]
    left = posts.get(h, 0) + count
    if left:
        posts[h] = left
    else:
        del posts[h]


# A step done, with what it needs to be undone: (seat, from, to, destroyed knights by seat,
# the destroyed village's owner, the looted terrain).
# What a step did, so that it can be undone: (seat, from, to, knights destroyed by owner,
# the owner of a village destroyed, the token looted).
Done = tuple[int, int, int, list[tuple[int, int]], int | None, str | None]


def check_step(state: State, seat: int, step: Step, moved: dict[int, int]) -> tuple[int, int]:
    """HE-7, HE-8, HE-20: the (from, to) hexes of a legal step, or IllegalEvent."""
    a = hex_at(state, step.from_, "HE-7", "a step from")
    b = hex_at(state, step.to, "HE-7", "a step to")
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


def do_step(state: State, seat: int, step: Step, moved: dict[int, int]) -> Done:
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


def undo_step(state: State, done: Done, moved: dict[int, int]) -> None:
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
