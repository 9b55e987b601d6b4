"""Heraldry's steps and battles (HE-7 to HE-9, HE-19, HE-20).

A move's second step is judged on the board its first step leaves (HE-20). So a move is
checked whole before anything changes: each step is planned on `Ahead`, a read-only view of
the state with the earlier steps' changes laid over the hexes and tokens they touch, and the
steps are made only once every one has passed. The legal moves look a step ahead the same way.
"""

from __future__ import annotations

from collections.abc import Sequence

from replay.errors import IllegalEvent

from .checks import Pieces, entry_block, hex_at, opponent_pieces
from .events import Step
from .state import State


class Ahead:
    """The state as the planned steps of a move would leave it; the state itself unchanged.
    Its knights are a copy of the state's list holding the same rows, and a row a step
    changes is copied before it is (a move touches a few hexes). Its buildings and tokens
    are the state's own until a step changes one (`plan_ahead`), and so are its posts unless
    `posts` asks for them to follow (the legal second steps start from them; a step's checks
    never read them)."""

    __slots__ = (
        "_knights", "_posts", "board", "building", "config", "knights", "players", "posts",
        "tokens",
    )  # fmt: skip

    def __init__(self, state: State, posts: bool = False) -> None:
        self.board, self.config, self.players = state.board, state.config, state.players
        self._knights, self.knights = state.knights, state.knights[:]
        self._posts = state.posts
        self.posts = state.posts[:] if posts else state.posts
        self.building, self.tokens = state.building, state.tokens

    def add_knights(self, seat: int, h: int, count: int) -> None:
        row = self.knights[h]
        if row is self._knights[h]:
            row = self.knights[h] = row[:]
        row[seat] += count
        if self.posts is not self._posts:
            posts = self.posts[seat]
            if posts is self._posts[seat]:
                posts = self.posts[seat] = dict(posts)
            _post(posts, h, count)


def add_knights(state: Pieces, seat: int, h: int, count: int) -> None:
    """Put `count` knights of `seat` on hex `h` (take them off when negative)."""
    state.knights[h][seat] += count
    _post(state.posts[seat], h, count)


def _post(posts: dict[int, int], h: int, count: int) -> None:
    left = posts.get(h, 0) + count
    if left:
        posts[h] = left
    else:
        del posts[h]


# A step as checked, to be made: (seat, from, to, knights destroyed by owner, the owner of a
# village destroyed, the token looted).
Planned = tuple[int, int, int, list[tuple[int, int]], int | None, str | None]


def loot_due(state: Pieces, seat: int, b: int) -> tuple[bool, int | None]:
    """Whether entering `b` is a battle (HE-9, HE-20), and the owner of a village it destroys."""
    building = state.building[b]
    mine = state.knights[b][seat] > 0 or building == (seat, "village")
    if not mine or not opponent_pieces(state, seat, b):
        return False, None
    if building is not None and building[0] != seat and building[1] == "village":
        return True, building[0]
    return True, None


def plan_step(state: Pieces, seat: int, step: Step, moved: dict[int, int]) -> Planned:
    """Check one step, its battle included (IllegalEvent otherwise), counting it in `moved`;
    what making it will do (`make_move`). HE-7, HE-8, HE-20 first: a knight of the seat that
    has not moved yet, into a neighbouring hex it may enter."""
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
        destroyed = [
            (other, count)
            for other, count in enumerate(state.knights[b])
            if other != seat and count
        ]
    moved[b] = moved.get(b, 0) + 1
    return seat, a, b, destroyed, village_owner, looted


def plan_ahead(ahead: Ahead, planned: Planned) -> None:
    """Lay a planned step over `ahead`, for the steps after it to be checked on."""
    seat, a, b, destroyed, village_owner, looted = planned
    for other, count in destroyed:
        ahead.add_knights(other, b, -count)
    if village_owner is not None:  # rare: the whole table is copied
        ahead.building = ahead.building[:]
        ahead.building[b] = None
        if looted is not None:
            tokens = ahead.tokens = ahead.tokens[:]
            tokens[village_owner] = dict(tokens[village_owner])
            tokens[village_owner][looted] -= 1
            mine = tokens[seat] = dict(tokens[seat])
            mine[looted] = mine.get(looted, 0) + 1
    ahead.add_knights(seat, a, -1)
    ahead.add_knights(seat, b, 1)


def plan_move(state: State, seat: int, steps: Sequence[Step]) -> list[Planned]:
    """Every step of a move checked on the board the steps before it leave (HE-20), with
    nothing changed yet; IllegalEvent at the first that breaks a rule."""
    moved: dict[int, int] = {}
    plans = [plan_step(state, seat, steps[0], moved)]
    ahead: Ahead | None = None
    for i in range(1, len(steps)):
        step = steps[i]
        if ahead is None:
            if _apart(step, steps[:i]):  # what it reads, the earlier steps left alone
                plans.append(plan_step(state, seat, step, moved))
                continue
            ahead = Ahead(state)
            for planned in plans:
                plan_ahead(ahead, planned)
        else:
            plan_ahead(ahead, plans[-1])
        plans.append(plan_step(ahead, seat, step, moved))
    return plans


def _apart(step: Step, earlier: Sequence[Step]) -> bool:
    """Whether a step reads nothing the earlier steps change: a step reads the knights and
    building of its two hexes and the tokens of a village's owner; it changes its own two
    hexes, and tokens only when it loots."""
    ends = (tuple(step.from_), tuple(step.to))  # a step built by hand may hold lists
    return not any(e.loot or tuple(e.from_) in ends or tuple(e.to) in ends for e in earlier)


def make_move(state: State, plans: list[Planned]) -> None:
    """Make a move's checked steps, their battles included (HE-9, HE-19)."""
    knights, posts, reserve, tokens = state.knights, state.posts, state.reserve, state.tokens
    for seat, a, b, destroyed, village_owner, looted in plans:
        for other, count in destroyed:
            add_knights(state, other, b, -count)
            reserve[other]["knight"] += count
        if village_owner is not None:
            state.building[b] = None
            del state.built[village_owner][b]
            reserve[village_owner]["village"] += 1
            if looted is not None:
                tokens[village_owner][looted] -= 1
                mine = tokens[seat]
                mine[looted] = mine.get(looted, 0) + 1
        # the knight leaves `a` (never empty: it stood there) and enters `b`
        knights[a][seat] -= 1
        knights[b][seat] += 1
        mine_posts = posts[seat]
        left = mine_posts[a] - 1
        if left:
            mine_posts[a] = left
        else:
            del mine_posts[a]
        mine_posts[b] = mine_posts.get(b, 0) + 1


def _held(tokens: dict[str, int]) -> str:
    return (
        ", ".join(f"{count}× {terrain}" for terrain, count in sorted(tokens.items()) if count)
        or "none"
    )
