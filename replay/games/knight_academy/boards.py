"""Knight Academy's variant boards (KA-22): what each white-edged side asks of an event and
what it changes. The round's flow around them (when each board's phase comes) is rules.py's."""

from __future__ import annotations

from collections import Counter

from replay.errors import IllegalEvent
from replay.facts import Fact, ScoreChanged
from replay.game import check_round

from .config import KNIGHTS
from .events import Codex, Mercy, Play, Shield, Wager
from .scoring import (
    NEGATIVE_SOURCES,
    POSITIVE_SOURCES,
    award,
    bottom,
    move_disc,
    negative_shields,
    positive_shields,
    ranked,
)
from .state import State


def codex_set(state: State) -> list[int]:
    """KA-22c: the negative shields, and 0-point ones until every seat has one."""
    shields = list(state.config.codex_shields)
    return shields + [0] * (len(state.players) - len(shields))


def lay_codex(state: State, event: Codex) -> None:
    """KA-22c: the round's shields laid face down, checked."""
    check_round(state, event.round, "KA-22c", "codex")
    wanted = sorted(codex_set(state))
    if sorted(event.shields) != wanted:
        raise IllegalEvent(
            "KA-22c",
            f"the codex holds the shields {', '.join(map(str, wanted))}, not "
            f"{', '.join(map(str, event.shields)) or 'none'}",
        )
    state.codex = list(event.shields)
    state.peeked = [[] for _ in state.players]


def wager(state: State, event: Wager, seat: int) -> bool:
    """KA-22b: the wager of a seat still to wager, checked; whether every seat has wagered now."""
    if event.track == "courage" or event.track not in state.progress:
        raise IllegalEvent(
            "KA-22b",
            f"a wager names one of {', '.join(wager_tracks(state))}, not {event.track}",
        )
    state.wagers[seat] = event.track
    return None not in state.wagers


def wager_tracks(state: State) -> list[str]:
    """KA-22b: the boards a wager may name: every track in play but courage's own."""
    return [track for track in state.progress if track != "courage"]


def pay_wagers(state: State) -> list[Fact]:
    """KA-22b: each courage-rewarded seat moves its wagered track its place's squares for each
    card it played there this round."""
    facts: list[Fact] = []
    for seat, squares in state.bonuses:
        track = state.wagers[seat]
        if track and (cards := state.played_on[seat].get(track, 0)):
            facts.append(move_disc(state, seat, track, cards * squares, "wager"))
    return facts


def check_peek(state: State, peek: int, track: str) -> None:
    if track != "education" or "codex" not in state.config.boards:
        raise IllegalEvent("KA-22c", "only an education card played with the codex board peeks")
    if not 1 <= peek <= len(state.codex):
        raise IllegalEvent("KA-22c", f"the codex has slots 1 to {len(state.codex)}, not {peek}")


def reachable_scrolls(state: State, seat: int, track: str, squares: int) -> list[int]:
    """KA-22d: the scrolls a disc moving `squares` on `track` reaches or passes."""
    if track != "king" or "scrolls" not in state.config.boards:
        return []
    before = state.progress["king"][seat]
    after = min(before + squares, state.config.king_cap)
    return [square for square in state.scrolls if before < square <= after]


def check_scrolls(state: State, event: Play, seat: int, track: str, value: int) -> None:
    reached = reachable_scrolls(state, seat, track, value)
    wanted = event.scrolls
    if len(set(wanted)) != len(wanted) or not set(wanted) <= set(reached):
        where = ", ".join(map(str, reached)) or "none"
        raise IllegalEvent(
            "KA-22d",
            f"{event.player} takes scrolls on {', '.join(map(str, wanted))}, but the disc "
            f"reaches or passes scrolls on {where}",
        )


def variant_play(state: State, event: Play, seat: int, track: str, value: int) -> None:
    """A play's part on the variant boards: the grail (KA-22a), the wager's count (KA-22b),
    a peek (KA-22c), the scrolls taken (KA-22d)."""
    boards = state.config.boards
    if track in KNIGHTS:  # KA-22a: the grail moves the card's value toward that knight
        reach = state.config.grail_squares
        toward = 1 if track == "white" else -1
        state.grail = max(-reach, min(reach, state.grail + toward * value))
    if "wager" in boards:
        counts = state.played_on[seat]
        counts[track] = counts.get(track, 0) + 1
    if event.peek is not None:
        state.peeked[seat].append(event.peek)
    for square in event.scrolls:
        state.scrolls.remove(square)
        state.scrolls_taken += 1


def take_shield(state: State, event: Shield, seat: int) -> list[Fact]:
    """KA-22c: the seat whose turn it is in education's order keeps the shield of a codex slot
    (a 0 goes back), checked."""
    if not 1 <= event.slot <= len(state.codex) or state.codex[event.slot - 1] is None:
        free = [str(i) for i, shield in enumerate(state.codex, 1) if shield is not None]
        raise IllegalEvent(
            "KA-22c", f"codex slot {event.slot} holds no shield; free: {', '.join(free)}"
        )
    facts: list[Fact] = []
    points = state.codex[event.slot - 1]
    state.codex[event.slot - 1] = None
    award(state, facts, seat, "codex", points or 0)  # a 0-point shield goes back to the codex
    del state.codex_order[0]
    return facts


def mercy_terms(state: State, seat: int) -> tuple[bool, list[int], int | None]:
    """KA-22f: whether `seat` is charity's 1st, the last seats it may take from, and the seat
    its negative shield goes to: the last it takes from for the 1st (None here), the
    second-last for the 2nd (none when seats tie at the start: nobody is second-last then)."""
    groups = bottom(state, "charity")
    lasts = [s for s in groups[0] if s != seat]
    if ranked(state, "charity")[0] == seat:
        return True, lasts, None
    second_last = groups[1][0] if len(groups[0]) == 1 and len(groups) > 1 else None
    return False, lasts, None if second_last == seat else second_last


def swap(state: State, event: Mercy, seat: int) -> list[Fact]:
    """KA-22f: charity's 1st's (or 2nd's) swap of shields with the last, `seat` the one whose
    turn it is, checked."""
    config = state.config
    first, lasts, receiver = mercy_terms(state, seat)
    other = state.seats.get(event.other)
    if other is None or other not in lasts:
        names = ", ".join(state.players[s] for s in lasts)
        raise IllegalEvent("KA-22f", f"{event.other} is not charity's last: {names}")
    if first:
        receiver = other
    negatives = negative_shields(state, seat)
    if event.give is None:
        if negatives and receiver is not None:
            raise IllegalEvent(
                "KA-22f",
                f"{event.player} holds negative shields ({', '.join(map(str, negatives))}) and "
                f"gives one to {state.players[receiver]}",
            )
    elif receiver is None or event.give not in negatives:
        raise IllegalEvent(
            "KA-22f",
            f"{event.player} cannot give a {event.give} shield: "
            + (
                "nobody is second-last"
                if receiver is None
                else f"its negative shields are {', '.join(map(str, negatives)) or 'none'}"
            ),
        )
    most = config.mercy_takes[0 if first else 1]
    offered = Counter(p for p in positive_shields(state, other) if p <= config.mercy_max_value)
    if len(event.take) > most or Counter(event.take) - offered:
        raise IllegalEvent(
            "KA-22f",
            f"{event.player} takes at most {most} of {event.other}'s shields of "
            f"{config.mercy_max_value} points or less "
            f"({', '.join(map(str, sorted(offered.elements()))) or 'none'}), not "
            f"{', '.join(map(str, event.take))}",
        )
    facts: list[Fact] = []
    changes: Counter[int] = Counter()
    if event.give is not None and receiver is not None:
        hand_over(state, seat, receiver, NEGATIVE_SOURCES, event.give)
        changes[seat] -= event.give
        changes[receiver] += event.give
    for points in event.take:
        hand_over(state, other, seat, POSITIVE_SOURCES, points)
        changes[seat] += points
        changes[other] -= points
    for who, points in sorted(changes.items()):
        if points:
            state.points[who]["mercy"] += points
            facts.append(
                ScoreChanged(
                    round=state.round, seat=state.owners[who], source="mercy", points=points
                )
            )
    del state.mercy_order[0]
    return facts


def hand_over(
    state: State, giver: int, receiver: int, sources: frozenset[str], points: int
) -> None:
    """KA-22f: one shield of `points` (from one of `sources`) changes hands."""
    held = state.shields[giver]
    for i, (source, value) in enumerate(held):
        if value == points and source in sources:
            state.shields[receiver].append(held.pop(i))
            return
