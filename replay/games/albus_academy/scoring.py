"""Albus Academy's final score (AA-42, AA-43): prestige from spells, items, tokens, end-of-game
abilities and the class dismissed card; ties to the most homework, then shared."""

from __future__ import annotations

from collections.abc import Sequence

from replay.facts import Fact, ScoreChanged, TrackMoved
from replay.game import Result, order_by, ranked_as_scores

from .board import links, placed_tiles
from .holdings import completed, prestige
from .state import State
from .turns import is_over

SOURCES = ("spell", "item", "token", "end_ability", "class_dismissed")


def end_ability(state: State, seat: int) -> int:
    """§3's end terms of the seat's items, no choices involved."""
    me = state.board[seat]
    terms = state.catalogue.terms
    total = 0
    for item in me.items:
        for term, n in terms[item].get("end", ()):
            if term == "per_spell+":
                total += n * len(me.spells)
            elif term == "per_item+":
                total += n * len(me.items)
            elif term == "per_tile+":
                total += n * placed_tiles(state, seat)
            elif term == "per_link+":
                total += n * links(state, seat)
            elif term == "leftover/":
                total += (me.will + me.shards) // n
    return total


def sources(state: State, seat: int) -> dict[str, int]:
    me = state.board[seat]
    hw = state.catalogue.homework
    return {
        "spell": sum(hw[c].prestige for c in me.spells),
        "item": sum(hw[c].prestige for c in me.items),
        "token": sum(me.tokens.values()),
        "end_ability": end_ability(state, seat),
        "class_dismissed": state.config.class_dismissed_prestige if me.class_dismissed else 0,
    }


def final_facts(state: State) -> list[Fact]:
    facts: list[Fact] = []
    for seat in range(len(state.players)):
        points = end_ability(state, seat)
        if points:
            before = prestige(state, seat)
            facts.append(
                ScoreChanged(round=state.round, seat=seat, source="end_ability", points=points)
            )
            facts.append(
                TrackMoved(
                    round=state.round,
                    seat=seat,
                    track="prestige",
                    before=before,
                    after=before + points,
                    cause="end_ability",
                )
            )
    return facts


def result(state: State) -> Result:
    rows = [sources(state, seat) for seat in range(len(state.players))]
    totals = [sum(row.values()) for row in rows]
    keys = list(zip(totals, _breaks(state)))
    complete = is_over(state)
    best = max(keys)
    winners = [s for s, key in enumerate(keys) if key == best] if complete else []
    ranks = [1 + sum(other > key for other in keys) for key in keys]
    return Result(complete=complete, scores=totals, sources=rows, winners=winners, ranks=ranks)


def _breaks(state: State) -> list[int]:
    """AA-43's tie-break by seat: the most completed homework, where the ruleset says so."""
    if state.config.tie_break == "homework":
        return [completed(me) for me in state.board]
    return [0] * len(state.board)


def standing(state: State, values: Sequence[int]) -> list[int]:
    """The seats from first to last by `values` as AA-43 orders scores; where it shares a
    place, in seat order."""
    return order_by(values, _breaks(state))


def standings(state: State) -> list[Fact]:
    """Every seat on every track where a round ends (at the match's end, with the end-of-game
    prestige). The rules rank no track, so a track is ordered as AA-43 orders scores; its
    leader is the first, once above 0."""
    seats = range(len(state.players))
    board = state.board
    over = state.phase == "over"  # the end-of-game prestige is scored
    tracks = {
        "homework": [completed(me) for me in board],
        "tiles": [placed_tiles(state, seat) for seat in seats],
        "links": [me.links for me in board],
        "prestige": [
            prestige(state, seat) + (end_ability(state, seat) if over else 0) for seat in seats
        ],
        "shards": [me.shards for me in board],
        "will": [me.will for me in board],
    }
    return ranked_as_scores(state.round, tracks, _breaks(state))
