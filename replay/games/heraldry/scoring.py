"""Heraldry's scoring: the sources points come from, the tokens' end value (HE-16) and the
result with its tie-break (HE-21)."""

from __future__ import annotations

from collections.abc import Sequence

from replay.facts import Fact
from replay.game import Result, order_by, ranked_as_scores

from .checks import buildings, on_board
from .state import State

SOURCES = ("city", "title", "tokens")


def token_value(state: State, seat: int) -> int:
    """HE-16: the end value of the tokens `seat` holds."""
    values = state.config.token_end
    return sum(values[terrain] * count for terrain, count in state.tokens[seat].items())


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
    order = standing(state, totals)
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


def _breaks(state: State) -> list[int]:
    """HE-21's tie-break by seat: the later player in turn order from the start player."""
    n = len(state.players)
    return [(seat - state.start_player) % n for seat in range(n)]


def standing(state: State, values: Sequence[int]) -> list[int]:
    """HE-21: the seats from first to last by `values`, equal values to the later player in
    turn order from the start player."""
    return order_by(values, _breaks(state))


def standings(state: State) -> list[Fact]:
    """Every seat on every track where a round ends. The rules rank no track, so a track is
    ordered as the result orders totals (HE-21); its leader is the first, once above 0."""
    n = len(state.players)
    pieces = [on_board(state, seat) for seat in range(n)]
    tracks = {
        "knights": [counts["knight"] for counts in pieces],
        "buildings": [buildings(counts) for counts in pieces],
        "score": [sum(points.values()) for points in state.points],
        "title": list(state.title),
    }
    return ranked_as_scores(state.round, tracks, _breaks(state))
