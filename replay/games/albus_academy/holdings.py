"""What an Albus Academy seat holds and earns (AA-9 to AA-17, AA-42): ongoing terms of its
items, costs, completed homework and prestige, and the bookkeeping of their changes."""

from __future__ import annotations

from replay.facts import Fact, ScoreChanged, TrackMoved

from .state import Seat, State


def ongoing(state: State, seat: int, name: str) -> int:
    """The sum of an ongoing term over the seat's items (§3)."""
    terms = state.catalogue.terms
    return sum(
        n
        for item in state.board[seat].items
        for term, n in terms[item].get("ongoing", ())
        if term == name
    )


def cost_of(state: State, seat: int, card: str) -> int:
    """AA-37: the catalogue's cost less the ongoing discounts, never below 0."""
    hw = state.catalogue.homework[card]
    off = ongoing(state, seat, "spell_discount+" if hw.kind == "spell" else "item_discount+")
    return max(0, hw.cost - off)


def completed(me: Seat) -> int:
    return len(me.spells) + len(me.items)


def set_value(
    state: State, seat: int, what: str, value: int, cause: str, facts: list[Fact]
) -> None:
    me = state.board[seat]
    before = getattr(me, what)
    if value != before:
        setattr(me, what, value)
        facts.append(
            TrackMoved(
                round=state.round, seat=seat, track=what, before=before, after=value, cause=cause
            )
        )


def add_prestige(state: State, seat: int, source: str, points: int, facts: list[Fact]) -> None:
    """The facts of `points` of prestige the state already holds (the homework, token or card
    that brings them is in place): the prestige track ends where `prestige` says."""
    if points:
        after = prestige(state, seat)
        facts.append(ScoreChanged(round=state.round, seat=seat, source=source, points=points))
        facts.append(
            TrackMoved(
                round=state.round,
                seat=seat,
                track="prestige",
                before=after - points,
                after=after,
                cause=source,
            )
        )


def prestige(state: State, seat: int) -> int:
    """Prestige banked so far: spells, items, tokens, and the class dismissed card."""
    me = state.board[seat]
    hw = state.catalogue.homework
    return (
        sum(hw[c].prestige for c in me.spells)
        + sum(hw[c].prestige for c in me.items)
        + sum(me.tokens.values())
        + (state.config.class_dismissed_prestige if me.class_dismissed else 0)
    )
