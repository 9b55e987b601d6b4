"""Paladins' final score (PA-7, PA-61, PA-62): orders, converted outsiders' end effects, the
attribute tracks, debts and suspicion, on top of the VP banked during play."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from replay.facts import Fact, ScoreChanged
from replay.game import Result, order_by, ranked_as_scores

from .config import Config
from .effects import End
from .ledger import effective
from .state import Seat, State

SOURCES = ("vp", "orders", "outsiders", "faith", "strength", "influence", "debts", "suspicion")


def counter(state: State, seat: int, name: str) -> int:
    """§3's counters, read from the tracks and boards (never effective values)."""
    return _COUNTERS[name](state, state.board[seat], seat)


def _regions(state: State, seat: int) -> int:
    return len(
        {
            state.catalogue.entry("square", sq).region
            for sq, (owner, _) in state.squares.items()
            if owner == seat
        }
    )


# One reader a counter, so a condition reads only what it names (the greedy bot reads them
# for every option it weighs).
_COUNTERS: dict[str, Callable[[State, Seat, int], int]] = {
    "monks": lambda state, me, seat: me.monks,
    "outposts": lambda state, me, seat: me.outposts,
    "walls": lambda state, me, seat: len(me.walls),
    "jars": lambda state, me, seat: len(me.jars),
    "workshops": lambda state, me, seat: me.developed,
    "townsfolk": lambda state, me, seat: len(me.team),
    "attacked": lambda state, me, seat: len(me.attacked),
    "converted": lambda state, me, seat: len(me.converts),
    "regions": lambda state, me, seat: _regions(state, seat),
    "faith": lambda state, me, seat: me.tracks["faith"],
    "str": lambda state, me, seat: me.tracks["strength"],
    "inf": lambda state, me, seat: me.tracks["influence"],
    "lowest": lambda state, me, seat: min(me.tracks.values()),
    "silver": lambda state, me, seat: me.silver,
    "prov": lambda state, me, seat: me.provisions,
    "repaid": lambda state, me, seat: me.repaid,
}


def holds(state: State, seat: int, condition: tuple[tuple[str, int], ...]) -> bool:
    me = state.board[seat]
    return all(_COUNTERS[name](state, me, seat) >= least for name, least in condition)


def end_value(state: State, seat: int, end: End) -> int:
    if end.kind == "flat":
        return end.vp
    if end.kind == "per":
        assert end.counter is not None
        return end.vp * (counter(state, seat, end.counter) // end.per)
    if end.kind == "if":
        return end.vp if holds(state, seat, end.condition) else 0
    return 0


def end_points(state: State, seat: int) -> dict[str, int]:
    """What the end adds, by source (everything but the banked `vp`)."""
    config = state.config
    me = state.board[seat]
    return {
        "orders": _orders(state, seat),
        "outsiders": _outsiders(state, seat),
        **{track: _attribute(config, me, track) for track in ("faith", "strength", "influence")},
        "debts": _debts(config, me),
        "suspicion": _suspicion(config, me),
    }


def _orders(state: State, seat: int) -> int:
    vp = state.config.order_vp
    conditions = state.catalogue.parsed["order"]
    me = state.board[seat]
    total = 0
    for i, card in enumerate(state.orders):
        for name, least in conditions[card]["condition"]:
            if _COUNTERS[name](state, me, seat) < least:
                break
        else:
            total += vp[i]
    return total


def _outsiders(state: State, seat: int) -> int:
    cat = state.catalogue
    return sum(
        end_value(state, seat, cat.field("outsider", card, "end"))
        for card in state.board[seat].converts
    )


def _attribute(config: Config, me: Seat, track: str) -> int:
    return config.attribute_vp[min(len(config.attribute_vp) - 1, me.tracks[track])]


def _debts(config: Config, me: Seat) -> int:
    return me.debts * config.debt_unpaid_vp + me.repaid * config.debt_paid_vp


def _suspicion(config: Config, me: Seat) -> int:
    return len(me.suspicion) * config.suspicion_vp


def score(state: State, seat: int) -> int:
    """One seat's score as `result` counts it, without the others': what `end_points` sums,
    read directly with nothing built (the greedy bot scores every option it weighs; a test
    holds the two equal)."""
    config = state.config
    me = state.board[seat]
    tracks = me.tracks
    table = config.attribute_vp
    top = len(table) - 1
    total = (
        me.vp
        + table[min(top, tracks["faith"])]
        + table[min(top, tracks["strength"])]
        + table[min(top, tracks["influence"])]
        + _debts(config, me)
        + _suspicion(config, me)
    )
    if state.orders:
        total += _orders(state, seat)
    if me.converts:
        total += _outsiders(state, seat)
    return total


def final_facts(state: State) -> list[Fact]:
    return [
        ScoreChanged(round=state.round, seat=seat, source=source, points=points)
        for seat in range(len(state.players))
        for source, points in end_points(state, seat).items()
        if points
    ]


def result(state: State) -> Result:
    """PA-62: the highest score wins; a tie goes to the most silver + provisions, then is
    shared. Before the end, the sources show what the end would add now."""
    sources = [{"vp": me.vp, **end_points(state, seat)} for seat, me in enumerate(state.board)]
    totals = [sum(row.values()) for row in sources]
    keys = list(zip(totals, _breaks(state)))
    complete = state.phase == "over"
    best = max(keys)
    winners = [s for s, key in enumerate(keys) if key == best] if complete else []
    ranks = [1 + sum(other > key for other in keys) for key in keys]
    return Result(complete=complete, scores=totals, sources=sources, winners=winners, ranks=ranks)


def _breaks(state: State) -> list[int]:
    """PA-62's tie-break by seat: the most silver + provisions."""
    return [me.silver + me.provisions for me in state.board]


def standing(state: State, values: Sequence[int]) -> list[int]:
    """The seats from first to last by `values` as PA-62 orders scores; where it shares a
    place, in seat order."""
    return order_by(values, _breaks(state))


def standings(state: State) -> list[Fact]:
    """Every seat on every track where a round ends (its paladin gone, PA-49). The rules rank
    no track, so a track is ordered as PA-62 orders scores; its leader is the first, once
    above 0."""
    seats = range(len(state.players))
    tracks = {track: [me.tracks[track] for me in state.board] for track in state.board[0].tracks}
    for track in list(tracks):
        tracks[f"effective_{track}"] = [effective(state, seat, track) for seat in seats]
    tracks["vp"] = [me.vp for me in state.board]
    return ranked_as_scores(state.round, tracks, _breaks(state))
